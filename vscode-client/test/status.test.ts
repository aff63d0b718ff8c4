import { test } from "node:test";
import * as assert from "node:assert/strict";
import type { RootStatus } from "../src/lsp_ext";
import { rootSummary, skippedCount } from "../src/status_text";

const skipped = Array.from({ length: 50 }, (_, i) => ({ path: `big${i}.py`, reason: "too large" }));
const ROOT: RootStatus = {
    rootUri: "file:///ws", files: 3, symbols: 9, resolvedEdges: 4, unresolvedCalls: 1,
    languages: { python: 3 }, skipped, skippedTotal: 60, lastUpdateMs: 5,
};

test("the skipped count is the server's total, not the 50 it lists", () => {
    assert.equal(skippedCount(ROOT), 60);
    assert.equal(rootSummary(ROOT),
        "`file:///ws`: 3 files (python 3), 9 symbols, 4 resolved edges, 1 unresolved calls, 60 skipped");
});

test("without skippedTotal (an older server) the list is the count", () => {
    const older = { ...ROOT, skippedTotal: undefined } as unknown as RootStatus;
    assert.equal(skippedCount(older), 50);
    assert.equal(skippedCount({ ...ROOT, skipped: [], skippedTotal: 0 }), 0);
});

test("a root with no languages says none", () => {
    assert.match(rootSummary({ ...ROOT, languages: {} }), /: 3 files \(none\), /);
});

test("a folder without an index says why", () => {
    const failed: RootStatus = { ...ROOT, files: 0, symbols: 0, resolvedEdges: 0, unresolvedCalls: 0, languages: {},
        skipped: [], skippedTotal: 0, error: "/nowhere does not exist" };
    assert.equal(rootSummary(failed), "`file:///ws`: not indexed: /nowhere does not exist");
});
