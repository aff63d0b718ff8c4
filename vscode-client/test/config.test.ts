// Bundled with `vscode` aliased to test/stub/vscode.ts (package.json "test").
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Config, RESTART_SETTINGS } from "../src/config";
import { settings } from "./stub/vscode";

test("only settings sent at startup alone restart the server", () => {
    assert.deepEqual(RESTART_SETTINGS, ["codegraph.server.command", "codegraph.exclude", "codegraph.maxFileBytes"]);
});

test("adaptiveExplore is read fresh, for the `adaptive` of every explore request", () => {
    const config = new Config();
    assert.equal(config.adaptiveExplore, true);
    settings.adaptiveExplore = false;
    assert.equal(config.adaptiveExplore, false);
    delete settings.adaptiveExplore;
});

test("maxFileBytes travels in initializationOptions as an integer", () => {
    settings.maxFileBytes = 2500.7;
    assert.deepEqual(new Config().initializationOptions, { adaptiveExplore: true, maxFileBytes: 2500 });
    delete settings.maxFileBytes;
});
