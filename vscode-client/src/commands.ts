/** One factory per command; each takes the shared context. */
import * as vscode from "vscode";
import type { Ctx } from "./ctx";
import { ResultRequest, SCHEME, fromUri } from "./documents";

export type Cmd = (...args: any[]) => unknown;

export function explore(ctx: Ctx): Cmd {
    return async (queryArg?: unknown) => {
        const query =
            typeof queryArg === "string" && queryArg.trim() !== ""
                ? queryArg
                : await vscode.window.showInputBox({
                      title: "CodeGraph: Explore",
                      prompt: "A symbol, keywords or a question about the code",
                      placeHolder: "e.g. parse_config, or: how is a request retried?",
                      value: queryFromEditor(),
                      validateInput: (v) => (v.length > 4000 ? "At most 4,000 characters" : undefined),
                  });
        if (!query?.trim()) return;
        await showResult(ctx, { kind: "explore", query, root: activeRoot() });
    };
}

export function distill(ctx: Ctx): Cmd {
    return () => showResult(ctx, { kind: "distill", root: activeRoot() });
}

export function distillQuestion(ctx: Ctx): Cmd {
    return async (questionArg?: unknown) => {
        const question =
            typeof questionArg === "string" && questionArg.trim() !== ""
                ? questionArg
                : await vscode.window.showInputBox({
                      title: "CodeGraph: Distill for a Question",
                      prompt: "The question the knowledge pack should answer",
                      placeHolder: "e.g. how does a request reach the database?",
                  });
        if (!question?.trim()) return;
        await showResult(ctx, { kind: "distillQuestion", question, root: activeRoot() });
    };
}

/** Copies the current CodeGraph document; opens the chat with it when a chat is available. */
export function copyPack(ctx: Ctx): Cmd {
    return async (uriArg?: unknown) => {
        const doc = currentResultDocument(uriArg instanceof vscode.Uri ? uriArg : undefined);
        if (!doc) {
            void vscode.window.showWarningMessage("CodeGraph: no CodeGraph document to copy. Run Explore or Distill first.");
            return;
        }
        const text = doc.getText();
        await vscode.env.clipboard.writeText(text);
        const chat = await openChat(text);
        ctx.output.appendLine(`Copied ${doc.uri.path} (${text.length} chars)${chat ? " and opened the chat" : ""}`);
        void vscode.window.showInformationMessage(
            `CodeGraph: pack copied to the clipboard (${text.length.toLocaleString("en-US")} chars)` +
                (chat ? " and put into the chat." : "."),
        );
    };
}

export function restartServer(ctx: Ctx): Cmd {
    return async () => {
        await ctx.restart();
        if (ctx.running) void vscode.window.showInformationMessage("CodeGraph: server restarted.");
    };
}

export function showOutput(ctx: Ctx): Cmd {
    return () => ctx.output.show(true);
}

async function showResult(ctx: Ctx, req: ResultRequest): Promise<void> {
    try {
        await ctx.docs.show(req);
    } catch (e) {
        const what = req.kind === "explore" ? "explore" : "distill";
        ctx.showError(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
        ctx.status.refresh();
    }
}

/** The selection if it is one short line, else the word under the cursor. */
function queryFromEditor(): string | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.uri.scheme === SCHEME) return undefined;
    const selected = editor.document.getText(editor.selection).trim();
    if (selected && !selected.includes("\n") && selected.length <= 200) return selected;
    const word = editor.document.getWordRangeAtPosition(editor.selection.active);
    return word ? editor.document.getText(word) : undefined;
}

/** The workspace folder of the active editor (a CodeGraph document keeps its own root). */
function activeRoot(): string | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (!uri) return undefined;
    if (uri.scheme === SCHEME) return fromUri(uri)?.root;
    return vscode.workspace.getWorkspaceFolder(uri)?.uri.toString();
}

function currentResultDocument(uri: vscode.Uri | undefined): vscode.TextDocument | undefined {
    if (uri?.scheme === SCHEME) {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (doc) return doc;
    }
    const active = vscode.window.activeTextEditor?.document;
    if (active?.uri.scheme === SCHEME) return active;
    return vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === SCHEME)?.document;
}

/** Puts `text` into the chat input if the editor has a chat and something answers in it. */
async function openChat(text: string): Promise<boolean> {
    const hasParticipant = vscode.extensions.all.some((e) => e.packageJSON?.contributes?.chatParticipants?.length);
    if (!hasParticipant) return false;
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes("workbench.action.chat.open")) return false;
    try {
        await vscode.commands.executeCommand("workbench.action.chat.open", { query: text, isPartialQuery: true });
        return true;
    } catch {
        return false;
    }
}
