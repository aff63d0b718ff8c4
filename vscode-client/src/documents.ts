/**
 * CodeGraph results as read-only virtual markdown documents on the `codegraph` scheme.
 * One URI per request (the request is encoded in the query string), so re-running a query
 * refreshes its tab, and a document VS Code reopens on its own re-runs its request.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { SourceRef, findSourceRefs } from "./links";

export const SCHEME = "codegraph";

export type ResultRequest =
    | { kind: "explore"; query: string; root?: string }
    | { kind: "distill"; root?: string }
    | { kind: "distillQuestion"; question: string; root?: string };

/** A result's text and, when the server sent its layout as data (explore), the links in it. */
export interface Result {
    text: string;
    links?: SourceRef[];
}

/** Runs a request; `undefined` means cancelled. Errors are thrown with a readable message. */
export type Runner = (req: ResultRequest, token?: vscode.CancellationToken) => Promise<Result | undefined>;

export function toUri(req: ResultRequest): vscode.Uri {
    const name =
        req.kind === "explore" ? `explore/${slug(req.query)}.md`
        : req.kind === "distill" ? "distill/architecture.md"
        : `distill/${slug(req.question)}.md`;
    return vscode.Uri.from({ scheme: SCHEME, path: "/" + name, query: JSON.stringify(req) });
}

export function fromUri(uri: vscode.Uri): ResultRequest | undefined {
    try {
        const req = JSON.parse(uri.query) as ResultRequest;
        return typeof req === "object" && req !== null && typeof req.kind === "string" ? req : undefined;
    } catch {
        return undefined;
    }
}

function slug(text: string): string {
    const s = text.trim().replace(/[^\w.-]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 60);
    return s || "query";
}

/** Error text shown in a document VS Code reopened on its own when its request fails. */
function failureText(req: ResultRequest, message: string): string {
    return `# CodeGraph: ${req.kind === "explore" ? "explore" : "distill"} failed\n\n${message}\n`;
}

export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider {
    private readonly changed = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.changed.event;
    /** Results a command just computed, served to the next provider call(s) for that URI. */
    private readonly fresh = new Map<string, { text: string; timer: NodeJS.Timeout }>();
    /** The links of each document whose result came with its layout (explore), by URI. */
    private readonly links = new Map<string, SourceRef[]>();

    constructor(
        private readonly run: Runner,
        private readonly onError: (message: string) => void,
    ) {}

    register(): vscode.Disposable {
        return vscode.Disposable.from(
            vscode.workspace.registerTextDocumentContentProvider(SCHEME, this),
            vscode.languages.registerDocumentLinkProvider({ scheme: SCHEME }, this),
            this.changed,
            { dispose: () => this.fresh.forEach((f) => clearTimeout(f.timer)) },
        );
    }

    /** Runs the request, then opens (or refreshes) its document beside the active editor. */
    async show(req: ResultRequest): Promise<vscode.TextDocument | undefined> {
        const result = await this.run(req);
        if (result === undefined) return undefined;
        const uri = toUri(req);
        const key = uri.toString();
        const text = this.keep(key, result);
        const old = this.fresh.get(key);
        if (old) clearTimeout(old.timer);
        // Kept briefly: the refresh and the open may both ask for the content.
        this.fresh.set(key, { text, timer: setTimeout(() => this.fresh.delete(key), 5000) });
        if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) this.changed.fire(uri);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc, {
            viewColumn: resultColumn(key),
            preserveFocus: true,
            preview: false,
        });
        return doc;
    }

    async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
        const fresh = this.fresh.get(uri.toString());
        if (fresh) return fresh.text;
        const req = fromUri(uri);
        if (!req) return `# CodeGraph\n\nNot a CodeGraph request: \`${uri.toString()}\`\n`;
        try {
            const result = await this.run(req, token);
            return result ? this.keep(uri.toString(), result) : `# CodeGraph: ${req.kind} cancelled\n`;
        } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            this.onError(message);
            return failureText(req, message);
        }
    }

    /** Remembers the result's links for its document; returns its text. */
    private keep(key: string, result: Result): string {
        if (result.links) this.links.set(key, result.links);
        else this.links.delete(key);
        return result.text;
    }

    provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
        const root = rootFor(fromUri(document.uri));
        if (!root) return [];
        const refs = this.links.get(document.uri.toString()) ?? findSourceRefs(document.getText());
        return refs.map((ref) => {
            const file = path.isAbsolute(ref.path) ? vscode.Uri.file(ref.path) : vscode.Uri.joinPath(root, ref.path);
            const link = new vscode.DocumentLink(
                new vscode.Range(ref.line, ref.start, ref.line, ref.end),
                file.with({ fragment: `L${ref.targetLine}` }),
            );
            link.tooltip = `Open ${ref.path}:${ref.targetLine}`;
            return link;
        });
    }
}

/**
 * Where a result goes: the group already showing it, else the group showing another result,
 * else beside the active editor (so results gather in one group instead of splitting again).
 */
function resultColumn(key: string): vscode.ViewColumn {
    const editors = vscode.window.visibleTextEditors;
    const same = editors.find((e) => e.document.uri.toString() === key);
    const other = editors.find((e) => e.document.uri.scheme === SCHEME);
    return same?.viewColumn ?? other?.viewColumn ?? vscode.ViewColumn.Beside;
}

/** The root a request ran against: its own, else the first workspace folder. */
export function rootFor(req: ResultRequest | undefined): vscode.Uri | undefined {
    if (req?.root) return vscode.Uri.parse(req.root);
    return vscode.workspace.workspaceFolders?.[0]?.uri;
}
