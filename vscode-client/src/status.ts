/** The status bar item: index state from `codegraph/status`, polled fast while indexing. */
import * as vscode from "vscode";
import type * as lc from "vscode-languageclient/node";
import * as lsp from "./lsp_ext";
import { rootSummary } from "./status_text";

/** What the status bar reads of the server's owner (`Ctx` is one; this module imports none of it). */
export interface ServerState {
    readonly running: lc.LanguageClient | undefined;
    readonly state: "starting" | "running" | "failed" | "stopped";
    readonly failure: string | undefined;
}

const POLL_INDEXING_MS = 1500;
const POLL_READY_MS = 15000;

export class StatusBar implements vscode.Disposable {
    private readonly item: vscode.StatusBarItem;
    private timer: NodeJS.Timeout | undefined;
    private inFlight = false;
    private again = false;

    constructor(private readonly ctx: ServerState) {
        this.item = vscode.window.createStatusBarItem("codegraph.status", vscode.StatusBarAlignment.Left, 0);
        this.item.name = "CodeGraph";
        this.item.command = "codegraph.showOutput";
        this.show("$(sync~spin) CodeGraph", "Starting the codegraph server…");
        this.item.show();
    }

    dispose(): void {
        if (this.timer) clearTimeout(this.timer);
        this.item.dispose();
    }

    /** Re-reads the status now (coalesced with one already in flight). */
    refresh(): void {
        if (this.inFlight) {
            this.again = true;
            return;
        }
        void this.poll();
    }

    private async poll(): Promise<void> {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
        const client = this.ctx.running;
        if (!client) {
            const state = this.ctx.state;
            if (state === "starting") this.show("$(sync~spin) CodeGraph: starting…", "Starting the codegraph server…");
            else if (state === "failed") this.show("$(error) CodeGraph", `The codegraph server is not running: ${this.ctx.failure}. Click for the output.`, true);
            else this.show("$(circle-slash) CodeGraph", "The codegraph server is not running. Click for the output.");
            return;
        }
        this.inFlight = true;
        let next = POLL_READY_MS;
        try {
            const st = await client.sendRequest(lsp.status, {});
            next = st.ready ? POLL_READY_MS : POLL_INDEXING_MS;
            this.render(st);
        } catch (e) {
            this.show("$(warning) CodeGraph", `codegraph/status failed: ${e instanceof Error ? e.message : String(e)}`, true);
        } finally {
            this.inFlight = false;
        }
        if (this.again) {
            this.again = false;
            return this.poll();
        }
        this.timer = setTimeout(() => void this.poll(), next);
    }

    private render(st: lsp.StatusResult): void {
        const files = st.roots.reduce((n, r) => n + r.files, 0);
        const icon = st.roots.some((r) => r.error) ? "$(warning)" : "$(type-hierarchy)";
        const text = st.ready ? `${icon} CodeGraph: ${files} files` : `$(sync~spin) CodeGraph: indexing… ${files} files`;
        const md = new vscode.MarkdownString(undefined, true);
        md.appendMarkdown(`**CodeGraph** — ${st.ready ? "ready" : "indexing"}, index version ${st.indexVersion}\n\n`);
        for (const r of st.roots) {
            md.appendMarkdown(`- ${rootSummary(r)}, ${lastUpdate(r.lastUpdateMs)}\n`);
        }
        this.show(text, md);
    }

    private show(text: string, tooltip: string | vscode.MarkdownString, error = false): void {
        this.item.text = text;
        this.item.tooltip = tooltip;
        this.item.backgroundColor = error ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    }
}

/** `lastUpdateMs` is a duration, or (if it looks like one) an epoch timestamp. */
function lastUpdate(ms: number): string {
    return ms > 1e11 ? `last update ${new Date(ms).toLocaleTimeString()}` : `last update took ${Math.round(ms)} ms`;
}
