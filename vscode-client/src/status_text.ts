/** The status bar's text about one workspace root (pure; no vscode import, unit-tested). */
import type { RootStatus } from "./lsp_ext";

/**
 * How many files the root skipped: `skippedTotal` counts them all, while `skipped` lists only
 * the first 50 (a server without `skippedTotal`: the list is all there is).
 */
export function skippedCount(r: Pick<RootStatus, "skipped" | "skippedTotal">): number {
    return typeof r.skippedTotal === "number" ? r.skippedTotal : (r.skipped?.length ?? 0);
}

/** One tooltip line (markdown) of a root's index state, without the last-update part. */
export function rootSummary(r: Omit<RootStatus, "lastUpdateMs">): string {
    if (r.error) return `\`${r.rootUri}\`: not indexed: ${r.error}`;
    const langs = Object.entries(r.languages).map(([l, n]) => `${l} ${n}`).join(", ");
    return `\`${r.rootUri}\`: ${r.files} files (${langs || "none"}), ${r.symbols} symbols, ` +
        `${r.resolvedEdges} resolved edges, ${r.unresolvedCalls} unresolved calls, ${skippedCount(r)} skipped`;
}
