/** The `codegraph.*` settings, read fresh on every use, and the server command resolution. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

export const SECTION = "codegraph";

/**
 * Settings whose change needs a server restart (they travel only in `initializationOptions`).
 * Not `adaptiveExplore`: every explore request sends it as `adaptive`, which beats the default.
 */
export const RESTART_SETTINGS = ["server.command", "exclude", "maxFileBytes"].map(
    (k) => `${SECTION}.${k}`,
);

export interface ServerCommand {
    command: string;
    args: string[];
    /** Where the command came from, for messages. */
    origin: string;
}

export interface InitializationOptions {
    exclude?: string[];
    maxFileBytes?: number;
    adaptiveExplore?: boolean;
}

export class Config {
    private get cfg(): vscode.WorkspaceConfiguration {
        return vscode.workspace.getConfiguration(SECTION);
    }

    get serverCommandSetting(): string | string[] | null {
        return this.cfg.get<string | string[] | null>("server.command") ?? null;
    }

    get maxOutputChars(): number | undefined {
        return positiveInt(this.cfg.get("explore.maxOutputChars"));
    }

    get budgetBytes(): number | undefined {
        return positiveInt(this.cfg.get("distill.budgetBytes"));
    }

    get adaptiveExplore(): boolean {
        return this.cfg.get<boolean>("adaptiveExplore") ?? true;
    }

    get initializationOptions(): InitializationOptions {
        const opts: InitializationOptions = { adaptiveExplore: this.adaptiveExplore };
        const exclude = this.cfg.get<unknown>("exclude");
        if (Array.isArray(exclude) && exclude.length > 0) {
            opts.exclude = exclude.filter((g): g is string => typeof g === "string");
        }
        const maxFileBytes = positiveInt(this.cfg.get("maxFileBytes"));
        if (maxFileBytes !== undefined) opts.maxFileBytes = maxFileBytes;
        return opts;
    }
}

function positiveInt(value: unknown): number | undefined {
    return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

/**
 * The server command: the setting if given; else `codegraph-lsp` on PATH; else the one in the
 * Python environment selected in the Python extension; else `python3 -m codegraph.lsp`.
 */
export async function resolveServerCommand(config: Config): Promise<ServerCommand> {
    const setting = config.serverCommandSetting;
    if (Array.isArray(setting) && setting.length > 0 && setting[0].trim() !== "") {
        return { command: setting[0], args: setting.slice(1), origin: "setting codegraph.server.command" };
    }
    if (typeof setting === "string" && setting.trim() !== "") {
        const origin = "setting codegraph.server.command";
        // An existing path may contain spaces; anything else is a command line.
        if (fs.existsSync(setting)) return { command: setting, args: [], origin };
        const [command, ...args] = setting.trim().split(/\s+/);
        return { command, args, origin };
    }
    const exe = process.platform === "win32" ? "codegraph-lsp.exe" : "codegraph-lsp";
    const onPath = findOnPath(exe);
    if (onPath) return { command: onPath, args: [], origin: "PATH" };
    const pythonEnv = await selectedPythonEnvBin();
    if (pythonEnv) {
        const candidate = path.join(pythonEnv, exe);
        if (isExecutable(candidate)) return { command: candidate, args: [], origin: "the selected Python environment" };
        const python = path.join(pythonEnv, process.platform === "win32" ? "python.exe" : "python");
        if (isExecutable(python)) {
            return { command: python, args: ["-m", "codegraph.lsp"], origin: "the selected Python environment" };
        }
    }
    return {
        command: process.platform === "win32" ? "python" : "python3",
        args: ["-m", "codegraph.lsp"],
        origin: "fallback",
    };
}

export function findOnPath(exe: string): string | undefined {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
        if (!dir) continue;
        const candidate = path.join(dir, exe);
        if (isExecutable(candidate)) return candidate;
    }
    return undefined;
}

export function isExecutable(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}

/** The bin directory of the Python extension's active environment, if that extension is there. */
async function selectedPythonEnvBin(): Promise<string | undefined> {
    const ext = vscode.extensions.getExtension("ms-python.python");
    if (!ext) return undefined;
    try {
        const api = ext.isActive ? ext.exports : await ext.activate();
        const env = await api?.environments?.getActiveEnvironmentPath?.();
        const envPath: unknown = env?.path;
        if (typeof envPath !== "string" || envPath === "") return undefined;
        // The path is the interpreter, or for some environments the environment folder.
        if (!fs.statSync(envPath).isDirectory()) return path.dirname(envPath);
        return path.join(envPath, process.platform === "win32" ? "Scripts" : "bin");
    } catch {
        return undefined;
    }
}
