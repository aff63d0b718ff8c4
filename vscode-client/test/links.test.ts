import { test } from "node:test";
import * as assert from "node:assert/strict";
import { exploreLinks, findSourceRefs } from "../src/links";

const RESULT = [
    "## Flow",
    "1. app.main — app/main.py:3",
    "2. app.util.parse (pkg/util.py:12) calls 127.0.0.1:80",
    "",
    "#### app/main.py — main · full",
    "```python",
    "3\tdef main():",
    "⋮",
    "7\t    return parse('x.py:9')",
    "```",
    "",
    "#### pkg/util.py — parse · skeleton",
    "````",
    "12\tdef parse(s):",
    "````",
].join("\n");

test("flow hops link to path:line", () => {
    const refs = findSourceRefs(RESULT).filter((r) => r.line === 1 || r.line === 2);
    assert.deepEqual(refs.map((r) => [r.path, r.targetLine]), [["app/main.py", 3], ["pkg/util.py", 12]]);
    const hop = refs[0];
    assert.equal(RESULT.split("\n")[1].slice(hop.start, hop.end), "app/main.py:3");
});

test("a section header links its path to line 1", () => {
    const header = findSourceRefs(RESULT).find((r) => r.line === 4);
    assert.deepEqual(header && [header.path, header.targetLine, header.start, header.end], ["app/main.py", 1, 5, 16]);
});

test("numbered source lines link to their section's file, text inside fences does not", () => {
    const inFence = findSourceRefs(RESULT).filter((r) => r.line >= 6);
    assert.deepEqual(inFence.map((r) => [r.line, r.path, r.targetLine, r.end]), [
        [6, "app/main.py", 3, 1],
        [8, "app/main.py", 7, 1],
        [11, "pkg/util.py", 1, 16],
        [13, "pkg/util.py", 12, 2],
    ]);
});

test("an address with a numeric last label is no path", () => {
    assert.equal(findSourceRefs("see 127.0.0.1:8080 and a.b:3x").length, 0);
});

// The same answer as the server sends it: its layout as data (docs/protocol.md).
const EXPLORE = {
    text: RESULT,
    files: [
        { path: "app/main.py", textLine: 4, ranges: [{ textLine: 6, start: 3, end: 3 }, { textLine: 8, start: 7, end: 7 }] },
        { path: "pkg/util.py", textLine: 11, ranges: [{ textLine: 13, start: 12, end: 12 }] },
    ],
    refs: [{ textLine: 1, path: "app/main.py", line: 3 }, { textLine: 2, path: "pkg/util.py", line: 12 }],
};

test("explore links come from the layout data and equal what the markdown reading finds", () => {
    const fromData = exploreLinks(EXPLORE);
    assert.deepEqual(fromData, findSourceRefs(RESULT));
});

test("a run of shown lines links each line to its own source line", () => {
    const links = exploreLinks({ text: "#### a.py — f · full\n```\n10\tx\n11\ty\n```", refs: [],
        files: [{ path: "a.py", textLine: 0, ranges: [{ textLine: 2, start: 10, end: 11 }] }] });
    assert.deepEqual(links.map((l) => [l.line, l.start, l.end, l.targetLine]), [[0, 5, 9, 1], [2, 0, 2, 10], [3, 0, 2, 11]]);
});

test("the same reference twice on a line links both places", () => {
    const links = exploreLinks({ text: "a.py:1 and a.py:1", files: [],
        refs: [{ textLine: 0, path: "a.py", line: 1 }, { textLine: 0, path: "a.py", line: 1 }] });
    assert.deepEqual(links.map((l) => [l.start, l.end]), [[0, 6], [11, 17]]);
});
