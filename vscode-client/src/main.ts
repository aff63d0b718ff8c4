/** Entry point: the command table; everything stateful lives in `Ctx`. */
import * as vscode from "vscode";
import * as commands from "./commands";
import { Ctx } from "./ctx";

const COMMANDS: Record<string, (ctx: Ctx) => commands.Cmd> = {
    explore: commands.explore,
    distill: commands.distill,
    distillQuestion: commands.distillQuestion,
    copyPack: commands.copyPack,
    restartServer: commands.restartServer,
    showOutput: commands.showOutput,
};

let ctx: Ctx | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    ctx = new Ctx(context);
    for (const [name, factory] of Object.entries(COMMANDS)) {
        context.subscriptions.push(vscode.commands.registerCommand(`codegraph.${name}`, factory(ctx)));
    }
    // Not awaited: a slow or failing server must not hold up activation (commands wait for it).
    void ctx.start();
}

export async function deactivate(): Promise<void> {
    await ctx?.stop();
    ctx = undefined;
}
