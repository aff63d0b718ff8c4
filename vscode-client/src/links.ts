/**
 * The source references in a CodeGraph result (pure; no vscode import, unit-tested).
 *
 * An explore answer says where its text shows what as data (`files[].textLine`/`ranges`,
 * `refs`: docs/protocol.md), so `exploreLinks` only places those on the text. A distill
 * markdown pack has no such data (its byte budget counts the whole answer, so data would take
 * room from the pack); `findSourceRefs` reads it: `path:line` anywhere outside
 * code fences, the path of each `#### path — …` header and the numbers that start the lines of
 * that section's fence.
 */
import type { ExploreFile, ExploreResult } from "./lsp_ext";

/** What of an explore result places its links. */
export type ExploreLayout = Pick<ExploreResult, "text" | "refs"> & { files: Pick<ExploreFile, "path" | "textLine" | "ranges">[] };

export interface SourceRef {
    /** 0-based line in the result text. */
    line: number;
    /** 0-based columns of the linked span, end exclusive. */
    start: number;
    end: number;
    /** The path as written (relative to the root, or absolute). */
    path: string;
    /** 1-based line in the source file. */
    targetLine: number;
}

/**
 * The links of an explore answer, from its layout data: each section's header path (to line 1),
 * each shown source line's number, and each `path:line` its prose names. Columns are found here,
 * in the editor's own units (UTF-16), by locating the known path or number on its line.
 */
export function exploreLinks(result: ExploreLayout): SourceRef[] {
    const lines = result.text.split("\n");
    const refs: SourceRef[] = [];
    for (const file of result.files) {
        if (file.textLine === null) continue;
        const start = (lines[file.textLine] ?? "").indexOf(file.path);
        if (start >= 0) refs.push({ line: file.textLine, start, end: start + file.path.length, path: file.path, targetLine: 1 });
        for (const range of file.ranges) {
            for (let n = range.start; n <= range.end; n++) {
                refs.push({ line: range.textLine + n - range.start, start: 0, end: String(n).length, path: file.path, targetLine: n });
            }
        }
    }
    const searched = new Map<number, number>(); // text line → where the next search on it starts
    for (const ref of result.refs) {
        const spelled = `${ref.path}:${ref.line}`;
        const start = (lines[ref.textLine] ?? "").indexOf(spelled, searched.get(ref.textLine) ?? 0);
        if (start < 0) continue;
        searched.set(ref.textLine, start + spelled.length);
        refs.push({ line: ref.textLine, start, end: start + spelled.length, path: ref.path, targetLine: ref.line });
    }
    return refs.sort((a, b) => a.line - b.line || a.start - b.start);
}

// A path ends in `.ext` whose first character is a letter (so `127.0.0.1:80` is no path).
const PATH_LINE = /(?<![\w./\\-])((?:[A-Za-z]:)?(?:[\w.@+-]+[\\/])*[\w@+-][\w.@+-]*\.[A-Za-z]\w*):(\d+)(?!\w)/g;
const HEADER = /^####\s+(.+?)(?:\s+—\s.*)?$/;
const NUMBERED = /^(\d+)\t/;
const FENCE = /^(\s*)(`{3,}|~{3,})/;

export function findSourceRefs(text: string): SourceRef[] {
    const refs: SourceRef[] = [];
    const lines = text.split(/\r?\n/);
    let section: string | undefined;
    let fence: string | undefined;
    lines.forEach((lineText, line) => {
        const fenceMatch = FENCE.exec(lineText);
        if (fence !== undefined) {
            if (fenceMatch && fenceMatch[2][0] === fence[0] && fenceMatch[2].length >= fence.length
                && lineText.trim() === fenceMatch[2]) {
                fence = undefined;
                return;
            }
            const numbered = NUMBERED.exec(lineText);
            if (numbered && section !== undefined) {
                refs.push({ line, start: 0, end: numbered[1].length, path: section, targetLine: Number(numbered[1]) });
            }
            return;
        }
        if (fenceMatch) {
            fence = fenceMatch[2];
            return;
        }
        const header = HEADER.exec(lineText);
        if (header) {
            section = header[1].trim();
            const start = lineText.indexOf(section);
            refs.push({ line, start, end: start + section.length, path: section, targetLine: 1 });
            return;
        }
        if (lineText.startsWith("#")) section = undefined;
        for (const m of lineText.matchAll(PATH_LINE)) {
            const start = m.index ?? 0;
            refs.push({ line, start, end: start + m[0].length, path: m[1], targetLine: Number(m[2]) });
        }
    });
    return refs;
}
