/** Owns the language client, the output channel, the status bar and the result documents. */
import * as path from "node:path";
import * as vscode from "vscode";
import * as lc from "vscode-languageclient/node";
import { Config, RESTART_SETTINGS, ServerCommand, findOnPath, isExecutable, resolveServerCommand } from "./config";
import { Result, ResultDocuments, ResultRequest } from "./documents";
import { exploreLinks } from "./links";
import * as lsp from "./lsp_ext";
import { StatusBar } from "./status";

/** Requests faster than this show no progress notification. */
const PROGRESS_DELAY_MS = 400;

export class Ctx {
    readonly config = new Config();
    readonly output: vscode.OutputChannel;
    readonly docs: ResultDocuments;
    readonly status: StatusBar;
    private client: lc.LanguageClient | undefined;
    private clientDisposables: vscode.Disposable[] = [];
    private startFailure: string | undefined;
    private starting: Promise<void> | undefined;

    constructor(readonly extCtx: vscode.ExtensionContext) {
        this.output = vscode.window.createOutputChannel("CodeGraph");
        this.docs = new ResultDocuments((req, token) => this.runResult(req, token), (m) => this.showError(m));
        this.status = new StatusBar(this);
        extCtx.subscriptions.push(
            this.output,
            this.docs.register(),
            this.status,
            vscode.workspace.onDidChangeConfiguration((e) => {
                if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) void this.restart();
            }),
        );
    }

    get running(): lc.LanguageClient | undefined {
        return this.client?.isRunning() ? this.client : undefined;
    }

    get state(): "starting" | "running" | "failed" | "stopped" {
        if (this.starting) return "starting";
        if (this.client?.isRunning()) return "running";
        return this.startFailure ? "failed" : "stopped";
    }

    /** Why the server is not running, if it failed to start. */
    get failure(): string | undefined {
        return this.startFailure;
    }

    /** Starts the server unless it is running or starting. */
    start(): Promise<void> {
        if (this.client?.isRunning()) return Promise.resolve();
        this.starting ??= this.doStart().finally(() => {
            this.starting = undefined;
            this.status.refresh();
        });
        return this.starting;
    }

    private async doStart(): Promise<void> {
        await this.disposeClient();
        this.startFailure = undefined;
        const server = await resolveServerCommand(this.config);
        this.output.appendLine(`Starting ${[server.command, ...server.args].join(" ")} (from ${server.origin})`);
        const missing = missingExecutable(server);
        if (missing) return this.failedToStart(server, missing);

        const client = new lc.LanguageClient(
            "codegraph", // also the prefix of the `codegraph.trace.server` setting
            "CodeGraph",
            // `transport` stays unset: stdio without an extra `--stdio` argument.
            { command: server.command, args: server.args, options: { env: process.env } },
            {
                // open documents of the indexed languages are synced (they win over disk)
                documentSelector: lsp.LANGUAGES.map((language) => ({ scheme: "file", language })),
                // No `synchronize.fileEvents`: the server registers its file watchers (sources and
                // .gitignore) itself, the same way for every client that allows it.
                initializationOptions: this.config.initializationOptions,
                outputChannel: this.output,
                revealOutputChannelOn: lc.RevealOutputChannelOn.Never,
            },
        );
        this.client = client;
        this.clientDisposables = [client.onDidChangeState(() => this.status.refresh())];
        this.status.refresh();
        try {
            await client.start();
        } catch (e) {
            await this.disposeClient();
            return this.failedToStart(server, e instanceof Error ? e.message : String(e));
        }
    }

    async stop(): Promise<void> {
        await this.disposeClient();
        this.status.refresh();
    }

    async restart(): Promise<void> {
        await this.starting?.catch(() => undefined);
        await this.stop();
        await this.start();
    }

    private async disposeClient(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        this.clientDisposables.forEach((d) => d.dispose());
        this.clientDisposables = [];
        if (client) {
            try {
                if (client.needsStop()) await client.stop(2000);
            } catch (e) {
                this.output.appendLine(`Stopping the server: ${e instanceof Error ? e.message : String(e)}`);
            }
        }
    }

    private failedToStart(server: ServerCommand, reason: string): void {
        const cmd = [server.command, ...server.args].join(" ");
        this.startFailure = `cannot start \`${cmd}\` (${reason})`;
        this.output.appendLine(`Cannot start the server: ${reason}`);
        this.status.refresh();
        void vscode.window
            .showErrorMessage(
                `CodeGraph: cannot start the language server \`${cmd}\` (from ${server.origin}): ${reason}. ` +
                    'Install the codegraph server (it provides `codegraph-lsp`) or set "codegraph.server.command".',
                "Show output",
                "Open settings",
            )
            .then((choice) => {
                if (choice === "Show output") this.output.show(true);
                if (choice === "Open settings") {
                    void vscode.commands.executeCommand("workbench.action.openSettings", "codegraph.server.command");
                }
            });
    }

    showError(message: string): void {
        void vscode.window.showErrorMessage(`CodeGraph: ${message}`, "Show output").then((choice) => {
            if (choice === "Show output") this.output.show(true);
        });
    }

    /**
     * Sends a request; if it takes longer than a moment, shows a cancellable notification
     * progress. UI cancellation (or `token`) sends `$/cancelRequest`. Retries once on
     * ContentModified. `undefined` = cancelled.
     */
    async request<P, R>(
        type: lc.RequestType<P, R, void>,
        params: P,
        title: string,
        token?: vscode.CancellationToken,
    ): Promise<R | undefined> {
        await this.start();
        const client = this.running;
        if (!client) throw new Error(`the server is not running: ${this.startFailure ?? "not started"}`);
        const source = new vscode.CancellationTokenSource();
        const link = token?.onCancellationRequested(() => source.cancel());
        let done: () => void = () => undefined;
        const finished = new Promise<void>((resolve) => (done = resolve));
        const progress = setTimeout(() => {
            void vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title: `CodeGraph: ${title}`, cancellable: true },
                (_progress, uiToken) => {
                    uiToken.onCancellationRequested(() => source.cancel());
                    return finished;
                },
            );
        }, PROGRESS_DELAY_MS);
        try {
            for (let attempt = 1; ; attempt++) {
                try {
                    return await client.sendRequest(type, params, source.token);
                } catch (e) {
                    if (source.token.isCancellationRequested) return undefined;
                    if (e instanceof lc.ResponseError && e.code === lsp.ErrorCodes.ContentModified && attempt < 2) continue;
                    throw new Error(describe(e));
                }
            }
        } finally {
            clearTimeout(progress);
            done();
            link?.dispose();
            source.dispose();
            this.status.refresh();
        }
    }

    /** The text of a result document for `req` (and, for explore, its links from the layout data). */
    private async runResult(req: ResultRequest, token?: vscode.CancellationToken): Promise<Result | undefined> {
        const rootUri = req.root;
        if (req.kind === "explore") {
            const res = await this.request(
                lsp.explore,
                { query: req.query, maxOutputChars: this.config.maxOutputChars, adaptive: this.config.adaptiveExplore, rootUri },
                `exploring “${req.query}”…`,
                token,
            );
            return res && { text: res.text, links: exploreLinks(res) };
        }
        const params: lsp.DistillParams =
            req.kind === "distill"
                ? { scenario: "overview", format: "markdown", budgetBytes: this.config.budgetBytes, rootUri }
                : { scenario: "query", question: req.question, format: "markdown", budgetBytes: this.config.budgetBytes, rootUri };
        const res = await this.request(lsp.distill, params, req.kind === "distill" ? "distilling the architecture…" : `distilling for “${req.question}”…`, token);
        if (res === undefined) return undefined;
        if ("markdown" in res) return { text: res.markdown };
        return { text: "```json\n" + JSON.stringify(res.pack, null, 2) + "\n```\n" };
    }
}

function describe(e: unknown): string {
    if (e instanceof lc.ResponseError) return `${e.message} (code ${e.code})`;
    return e instanceof Error ? e.message : String(e);
}

/** A reason when the command is surely not runnable (spawn would fail with ENOENT). */
function missingExecutable(server: ServerCommand): string | undefined {
    const { command } = server;
    if (path.isAbsolute(command) || command.includes("/") || command.includes("\\")) {
        return isExecutable(command) ? undefined : "no such executable";
    }
    return findOnPath(command) || findOnPath(command + ".exe") ? undefined : "not found on PATH";
}
