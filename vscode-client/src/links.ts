/**
 * Finds the source references in a CodeGraph result (pure; no vscode import, unit-tested):
 * `path:line` anywhere outside code fences, the path of each `#### path — symbols · mode`
 * header, and the line numbers that start each source line inside that section's fence.
 */

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
