// Drives a real VS Code (code-server) in headless Chromium: palette -> CodeGraph commands ->
// extension -> codegraph server -> virtual documents, clipboard, links. One check per step;
// stops at the first failure (later steps build on earlier ones) and prints a RESULT line.
const fs = require("fs");
const { chromium } = require("playwright-core");
const assert = require("assert");

const E = process.env.E2E_WORK;
const WS = process.env.E2E_WS_DIR;
const ART = process.env.E2E_ARTIFACTS || `${E}/artifacts`;
const SETTINGS = `${E}/csdata/user-data/User/settings.json`;
/** The CodeGraph output channel's log file (server stderr + the LSP trace). */
const OUTPUT_LOG = () => {
  const found = require("child_process").execSync(`find ${E}/csdata/user-data/logs -name '*CodeGraph*.log' | head -1`).toString().trim();
  return found || "/nonexistent";
};
const CS_URL = process.env.CS_URL || `http://127.0.0.1:${process.env.CS_PORT || 8765}/?folder=${WS}`;
const QUERY = process.env.E2E_QUERY || "handle_request";
// What the explore answer must show: the queried function's source, in a file section.
const EXPECT_SOURCE = process.env.E2E_EXPECT_SOURCE || "def handle_request(raw: str, store=STORE) -> str:";
const EXPECT_FILE = process.env.E2E_EXPECT_FILE || "app/service.py";
const QUESTION = process.env.E2E_QUESTION || "How is an order stored?";
const PACK_SECTIONS = (process.env.E2E_PACK_SECTIONS || "Components|Facts|Source").split("|");
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

const EDITOR = ".editor-group-container.active .monaco-editor";

async function runCommand(page, title) {
  for (let attempt = 1; attempt <= 8; attempt++) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: 15000 });
    await input.fill(">" + title);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    try {
      await row.waitFor({ state: "visible", timeout: 4000 });
      await page.keyboard.press("Enter");
      return;
    } catch (e) { // extension not activated yet: close the palette and retry
      log(`"${title}" not in the palette yet (attempt ${attempt})`);
      await page.keyboard.press("Escape");
      await page.waitForTimeout(2000);
    }
  }
  throw new Error(`command not found in the palette: ${title}`);
}

const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The rendered (visible) lines of the active editor, in order. */
async function visibleEditorText(page) {
  const lines = page.locator(`${EDITOR} .view-lines .view-line`);
  const texts = await lines.allInnerTexts();
  const tops = await lines.evaluateAll((els) => els.map((e) => parseFloat(e.style.top) || 0));
  return texts.map((t, i) => [tops[i], t]).sort((a, b) => a[0] - b[0])
    .map(([, t]) => t.replace(/\u00a0/g, " ")).join("\n");
}

/** The whole text of the active editor, via select-all + copy (the editor's own clipboard path). */
async function fullEditorText(page) {
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await page.locator(`${EDITOR} .view-lines`).click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Control+C");
  await page.waitForTimeout(300);
  return page.evaluate(() => navigator.clipboard.readText());
}

async function toast(page, text, timeout = 30000) {
  return page.locator(".notifications-toasts .notification-toast", { hasText: text }).first().waitFor({ timeout });
}

/**
 * Waits for the result tab `tabName` and returns its full text; or, when the server does not
 * implement the method yet (JSON-RPC -32601), checks the error notification and returns undefined.
 */
async function resultOrNotImplemented(page, tabName, kind) {
  const tab = page.locator(".tabs-container .tab", { hasText: tabName }).first();
  const error = page.locator(".notifications-toasts .notification-toast", { hasText: "CodeGraph: distill failed" }).first();
  await Promise.race([tab.waitFor({ timeout: 180000 }), error.waitFor({ timeout: 180000 })]);
  if (await error.count()) {
    const message = (await error.innerText()).replace(/\s+/g, " ");
    await page.screenshot({ path: `${ART}/${kind}-error.png` });
    if (/code -32601\b/.test(message)) {
      log(`${kind}: server does not implement it yet; the error notification was shown: ${message}`);
      await error.locator(".codicon-notifications-clear, .codicon-close").first().click().catch(() => {});
      return undefined;
    }
    throw new Error(`${kind} answered an error (shown as a notification): ${message}`);
  }
  await tab.click();
  return fullEditorText(page);
}

/** The agent-ready pack (docs/distill.md): a title, a complete status, and its sections
 *  (each heading starts with the section's name; the rest of the line explains it). */
function assertPack(text) {
  assert.match(text, /^# Architecture/m, "no pack title");
  assert.match(text, /status:? \*\*complete\*\*/i, "pack status is not complete");
  for (const section of PACK_SECTIONS) {
    assert.match(text, new RegExp(`^## ${escapeRe(section)}`, "m"), `no "## ${section}" section`);
  }
}

async function statusBarText(page) {
  const item = page.locator("#codegraph\\.status, .statusbar-item[id*='codegraph']").first();
  return (await item.innerText().catch(() => "")).replace(/\s+/g, " ").trim();
}

async function main() {
  const results = { passed: 0, failed: 0 };
  const ctx = await chromium.launchPersistentContext(`${E}/tmp/chrome-profile-${process.pid}`, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    env: { ...process.env, XDG_CONFIG_HOME: `${E}/tmp/chrome-xdg/config`, XDG_CACHE_HOME: `${E}/tmp/chrome-xdg/cache` },
    viewport: { width: 1400, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
           "--no-first-run", "--disable-sync", "--disable-dev-shm-usage", "--disable-crash-reporter"],
  });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(CS_URL).origin });
  const page = ctx.pages()[0] || (await ctx.newPage());
  page.on("pageerror", (e) => log("pageerror:", e.message));
  let shot = 0;
  const screenshot = (name) => page.screenshot({ path: `${ART}/${String(++shot).padStart(2, "0")}-${name}.png` });

  // A failed step ends the run, unless it is `independent` (nothing after it builds on it).
  const step = async (name, fn, { independent = false } = {}) => {
    const t = Date.now();
    try {
      await fn();
      results.passed++;
      log(`PASS ${name} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
    } catch (e) {
      results.failed++;
      log(`FAIL ${name}: ${e && e.stack || e}`);
      await screenshot(`FAILED-${name.replace(/\W+/g, "_")}`).catch(() => {});
      if (!independent) throw e;
      await page.keyboard.press("Escape").catch(() => {});
    }
  };

  let exploreText = "";
  try {
    await step("workbench opens the fixture workspace", async () => {
      await page.goto(CS_URL);
      await page.waitForSelector(".monaco-workbench", { timeout: 60000 });
      await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60000 });
    });

    await step("status bar shows the index is ready", async () => {
      let text = "";
      for (let i = 0; i < 120 && !/CodeGraph: \d+ files/.test(text); i++) {
        await page.waitForTimeout(500);
        text = await statusBarText(page);
      }
      log("status bar:", JSON.stringify(text));
      assert.match(text, /CodeGraph: [1-9]\d* files/);
    });

    await step("Explore… from the palette opens the answer beside the editor", async () => {
      await runCommand(page, "CodeGraph: Explore…");
      const box = page.locator(".quick-input-widget input");
      await page.locator(".quick-input-widget", { hasText: "CodeGraph: Explore" }).waitFor({ state: "visible", timeout: 10000 });
      await box.fill(QUERY);
      await page.keyboard.press("Enter");
      const tab = page.locator(".tabs-container .tab", { hasText: `${QUERY}.md` }).first();
      await tab.waitFor({ timeout: 60000 });
      // Opened beside with preserveFocus: focus its group to read it.
      await tab.click();
      await page.locator(`${EDITOR} .view-lines`, { hasText: "## Flow" }).first().waitFor({ timeout: 15000 }).catch(() => {});
      const visible = await visibleEditorText(page);
      log("visible text (head):", JSON.stringify(visible.slice(0, 400)));
      assert.match(visible, /## Flow|####/);
      await screenshot("explore");
    });

    await step("the explore document has the flow and the function's source section", async () => {
      exploreText = await fullEditorText(page);
      log(`explore document: ${exploreText.length} chars`);
      assert.ok(exploreText.includes("## Flow"), "no ## Flow section");
      // The queried function's file is a section of its own, with a render mode.
      const header = new RegExp(`^#### ${escapeRe(EXPECT_FILE)} — .*\\b${escapeRe(QUERY)}\\b.* · (full|focused|skeleton|clusters)( \\(.*\\))?$`, "m");
      assert.match(exploreText, header);
      assert.match(exploreText, /^\d+\t/m, "no numbered source lines");
      assert.ok(exploreText.includes(EXPECT_SOURCE), `no "${EXPECT_SOURCE}" in the document`);
    });

    await step("the explore document is read-only", async () => {
      await page.locator(`${EDITOR} .view-lines`).click();
      await page.keyboard.press("Control+Home");
      await page.keyboard.type("XYZ");
      await page.waitForTimeout(500);
      const head = (await visibleEditorText(page)).split("\n")[0];
      assert.ok(!head.includes("XYZ"), `typing changed the document: ${head}`);
      assert.strictEqual(head, exploreText.split("\n")[0]);
      const dirty = await page.locator(".tabs-container .tab.active.dirty").count();
      assert.strictEqual(dirty, 0, "tab marked dirty");
    });

    await step("path:line references are links that open the source", async () => {
      await page.keyboard.press("Escape"); // the "Cannot edit in read-only editor" hover
      await page.mouse.move(5, 5);
      const links = page.locator(`${EDITOR} .detected-link`);
      await links.first().waitFor({ timeout: 15000 });
      // A wrapped line splits a link into pieces: take one shown whole (`dir/file.ext:line`).
      // Link decorations re-render (on a loaded machine, while we look): read them again until
      // one whole link has a place on screen.
      let texts = [], index = -1, box = null;
      for (let attempt = 0; attempt < 10 && !box; attempt++) {
        if (attempt) await page.waitForTimeout(500);
        texts = await links.allInnerTexts();
        index = texts.findIndex((t) => /^[\w./-]+\.\w+:\d+$/.test(t.trim()));
        if (index >= 0) box = await links.nth(index).boundingBox().catch(() => null);
      }
      assert.ok(index >= 0, `no whole path:line link among ${JSON.stringify(texts)}`);
      const linkText = texts[index].trim();
      log("first link:", JSON.stringify(linkText));
      // Link decorations re-render under the pointer: click the spot, not the element.
      assert.ok(box, "link not on screen");
      await page.keyboard.down("Control");
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.up("Control");
      const file = (linkText.match(/([^/\\:]+\.\w+)(?::\d+)?$/) || [])[1];
      assert.ok(file, `link text is no path: ${linkText}`);
      await page.locator(".tabs-container .tab.active", { hasText: file }).waitFor({ timeout: 15000 });
      const line = (linkText.match(/:(\d+)$/) || [])[1];
      if (line) { // the cursor is on the referenced line
        await page.locator(".statusbar-item", { hasText: `Ln ${line},` }).first().waitFor({ timeout: 10000 });
      }
      await screenshot("link-opened");
      // back to the result
      await page.locator(".tabs-container .tab", { hasText: `${QUERY}.md` }).first().click();
    });

    await step("Copy Pack to Chat puts the document text on the clipboard", async () => {
      await page.evaluate(() => navigator.clipboard.writeText("before"));
      const button = page.locator(".editor-actions [aria-label*='Copy Pack to Chat']");
      assert.ok(await button.count() > 0, "no Copy Pack button in the editor title");
      await runCommand(page, "CodeGraph: Copy Pack to Chat");
      await toast(page, "pack copied");
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      assert.strictEqual(clip, exploreText);
      await screenshot("copied");
    });

    await step("re-running a query refreshes its tab instead of opening another", async () => {
      const before = (await fs.promises.readFile(OUTPUT_LOG(), "utf8").catch(() => "")).split("codegraph/explore - (").length;
      await runCommand(page, "CodeGraph: Explore…");
      await page.locator(".quick-input-widget", { hasText: "CodeGraph: Explore" }).waitFor({ state: "visible", timeout: 10000 });
      await page.locator(".quick-input-widget input").fill(QUERY);
      await page.keyboard.press("Enter");
      let after = before;
      for (let i = 0; i < 40 && after <= before; i++) { // the LSP trace shows the request went out again
        await page.waitForTimeout(250);
        after = (await fs.promises.readFile(OUTPUT_LOG(), "utf8").catch(() => "")).split("codegraph/explore - (").length;
      }
      assert.ok(after > before, "no second codegraph/explore request in the trace");
      await page.waitForTimeout(500);
      assert.strictEqual(await page.locator(".tabs-container .tab", { hasText: `${QUERY}.md` }).count(), 1);
    }, { independent: true });

    if (process.env.E2E_CANCEL_QUERY) { // needs a server that is slow on this query (the stand-in: "slow:…")
      await step("cancelling a long request in the UI cancels it in the server", async () => {
        await runCommand(page, "CodeGraph: Explore…");
        await page.locator(".quick-input-widget", { hasText: "CodeGraph: Explore" }).waitFor({ state: "visible", timeout: 10000 });
        await page.locator(".quick-input-widget input").fill(process.env.E2E_CANCEL_QUERY);
        await page.keyboard.press("Enter");
        const progress = page.locator(".notifications-toasts .notification-toast", { hasText: "CodeGraph: exploring" }).first();
        await progress.waitFor({ timeout: 15000 });
        await screenshot("long-request");
        await progress.getByRole("button", { name: "Cancel" }).click();
        for (let i = 0; i < 20 && !fs.readFileSync(process.env.STANDIN_LOG, "utf8").includes("explore cancelled"); i++) {
          await page.waitForTimeout(250);
        }
        assert.ok(fs.readFileSync(process.env.STANDIN_LOG, "utf8").includes("explore cancelled"), "the server saw no cancellation");
      }, { independent: true });
    }

    await step("Distill Architecture opens the knowledge pack", async () => {
      await runCommand(page, "CodeGraph: Distill Architecture");
      const text = await resultOrNotImplemented(page, "architecture.md", "distill");
      if (text === undefined) return;
      log(`distill document: ${text.length} chars; head: ${JSON.stringify(text.slice(0, 300))}`);
      assertPack(text);
      assert.ok(text.includes(EXPECT_FILE), `pack does not mention ${EXPECT_FILE}`);
      await screenshot("distill");
    }, { independent: true });

    await step("Distill for a Question… opens a pack for that question", async () => {
      await runCommand(page, "Notifications: Clear All Notifications");
      await runCommand(page, "CodeGraph: Distill for a Question…");
      await page.locator(".quick-input-widget", { hasText: "CodeGraph: Distill for a Question" }).waitFor({ state: "visible", timeout: 10000 });
      await page.locator(".quick-input-widget input").fill(QUESTION);
      await page.keyboard.press("Enter");
      const text = await resultOrNotImplemented(page, `${QUESTION.replace(/[^\w.-]+/g, "_").replace(/^_+|_+$/g, "")}.md`, "distillQuestion");
      if (text === undefined) return;
      log(`question pack: ${text.length} chars; head: ${JSON.stringify(text.slice(0, 300))}`);
      assertPack(text);
      assert.ok(text.includes(QUESTION), "the pack does not state the question");
      await screenshot("distill-question");
    }, { independent: true });

    await step("Go to Symbol in Workspace lists functions from the index (workspace/symbol)", async () => {
      await page.keyboard.press("Escape");
      await page.keyboard.press("F1");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible", timeout: 15000 });
      await input.fill("#hndlreq"); // fuzzy: the server's matcher, not only VS Code's filter
      const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "handle_request" }).first();
      await row.waitFor({ state: "visible", timeout: 30000 });
      log("workspace symbol row:", JSON.stringify((await row.innerText()).replace(/\s+/g, " ")));
      await screenshot("workspace-symbol");
      await page.keyboard.press("Enter");
      await page.locator(".tabs-container .tab.active", { hasText: "service.py" }).waitFor({ timeout: 15000 });
    }, { independent: true });

    await step("Show Call Hierarchy lists a method's callers, a likely one labelled as such", async () => {
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible", timeout: 15000 });
      await input.fill("storage.py");
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "storage.py" }).first().waitFor({ timeout: 15000 });
      await page.keyboard.press("Enter");
      await page.locator(".tabs-container .tab.active", { hasText: "storage.py" }).waitFor({ timeout: 15000 });
      await page.locator(`${EDITOR} .view-lines`).click();
      await page.keyboard.press("Control+G");
      await input.waitFor({ state: "visible", timeout: 15000 });
      await input.fill(":9:10"); // `def save(…)` (the name)
      await page.keyboard.press("Enter");
      await runCommand(page, "Calls: Show Call Hierarchy");
      const row = page.locator(".monaco-list-row", { hasText: "handle_request" }).first();
      await row.waitFor({ state: "visible", timeout: 30000 });
      const text = (await row.innerText()).replace(/\s+/g, " ");
      log("call hierarchy row:", JSON.stringify(text));
      await screenshot("call-hierarchy");
      assert.match(text, /likely: receiver-name, 0\.30/, "the likely caller is not labelled");
      await page.keyboard.press("Escape");
    }, { independent: true });

    await step("Show Call Hierarchy on a function lists its proven caller", async () => {
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible", timeout: 15000 });
      await input.fill("service.py");
      await page.locator(".quick-input-list .monaco-list-row", { hasText: "service.py" }).first().waitFor({ timeout: 15000 });
      await page.keyboard.press("Enter");
      // the tab, then a click on it: focus may still sit in the view the previous step closed
      const tab = page.locator(".tabs-container .tab", { hasText: "service.py" }).first();
      await tab.waitFor({ timeout: 15000 });
      await tab.click();
      await page.locator(".tabs-container .tab.active", { hasText: "service.py" }).waitFor({ timeout: 15000 });
      await page.locator(`${EDITOR} .view-lines`).click();
      await page.keyboard.press("Control+G");
      await input.waitFor({ state: "visible", timeout: 15000 });
      await input.fill(":8:6"); // `def handle_request(…)`
      await page.keyboard.press("Enter");
      await runCommand(page, "Calls: Show Call Hierarchy");
      const row = page.locator(".monaco-list-row", { hasText: "main" }).filter({ hasText: "app/main.py" }).first();
      await row.waitFor({ state: "visible", timeout: 30000 });
      const text = (await row.innerText()).replace(/\s+/g, " ");
      log("call hierarchy row:", JSON.stringify(text));
      await screenshot("call-hierarchy-proven");
      assert.ok(!/likely/.test(text), `a proven caller is labelled likely: ${text}`);
      await page.keyboard.press("Escape");
    }, { independent: true });

    await step("a file written outside the editor is indexed (the watcher the server registered)", async () => {
      const name = "written_outside_the_editor";
      fs.writeFileSync(`${WS}/app/${name}.py`, `def ${name}():\n    return "seen by the watcher"\n`);
      let seen = false;
      for (let i = 0; i < 60 && !seen; i++) { // VS Code's own watcher reports it; the trace shows it
        await page.waitForTimeout(500);
        seen = (await fs.promises.readFile(OUTPUT_LOG(), "utf8").catch(() => "")).includes("workspace/didChangeWatchedFiles");
      }
      assert.ok(seen, "no workspace/didChangeWatchedFiles notification in the LSP trace");
      await runCommand(page, "CodeGraph: Explore…");
      await page.locator(".quick-input-widget", { hasText: "CodeGraph: Explore" }).waitFor({ state: "visible", timeout: 10000 });
      await page.locator(".quick-input-widget input").fill(name);
      await page.keyboard.press("Enter");
      const tab = page.locator(".tabs-container .tab", { hasText: `${name}.md` }).first();
      await tab.waitFor({ timeout: 60000 });
      await tab.click();
      const text = await fullEditorText(page);
      assert.ok(text.includes(`def ${name}():`), `the new file's function is not in the answer:\n${text.slice(0, 600)}`);
    }, { independent: true });

    await step("Restart Server restarts the server", async () => {
      await runCommand(page, "Notifications: Clear All Notifications");
      await runCommand(page, "CodeGraph: Restart Server");
      await toast(page, "CodeGraph: server restarted");
      let text = "";
      for (let i = 0; i < 60 && !/CodeGraph: \d+ files/.test(text); i++) {
        await page.waitForTimeout(500);
        text = await statusBarText(page);
      }
      assert.match(text, /CodeGraph: [1-9]\d* files/);
    }, { independent: true });

    await step("a server that cannot start is reported with a Show output action", async () => {
      // Changing codegraph.server.command (in the settings editor, as a user would) restarts the server.
      const settings = JSON.parse(fs.readFileSync(SETTINGS, "utf8"));
      settings["codegraph.server.command"] = ["/nonexistent/codegraph-lsp"];
      await runCommand(page, "Preferences: Open User Settings (JSON)");
      await page.locator(".tabs-container .tab.active", { hasText: "settings.json" }).waitFor({ timeout: 15000 });
      await page.evaluate((t) => navigator.clipboard.writeText(t), JSON.stringify(settings, null, 2));
      await page.locator(`${EDITOR} .view-lines`).click();
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Control+V");
      await page.keyboard.press("Control+S");
      const error = page.locator(".notifications-toasts .notification-toast", { hasText: "cannot start the language server" }).first();
      await error.waitFor({ timeout: 30000 });
      log("start error:", JSON.stringify((await error.innerText()).replace(/\s+/g, " ")));
      await screenshot("start-error");
      await error.getByRole("button", { name: "Show output" }).click();
      await page.locator(".part.panel .monaco-editor .view-lines", { hasText: "Cannot start the server" }).first()
        .waitFor({ timeout: 15000 });
      const text = await statusBarText(page);
      assert.match(text, /CodeGraph/);
      assert.ok(!/\d+ files/.test(text), `status bar still claims an index: ${text}`);
    }, { independent: true });
  } catch (e) {
    // counted in step()
  } finally {
    await ctx.close().catch(() => {});
  }
  console.log(`RESULT passed=${results.passed} failed=${results.failed}`);
  process.exit(results.failed ? 1 : 0);
}

main().catch((e) => { console.error("FAIL (driver)", e); console.log("RESULT passed=0 failed=1"); process.exit(1); });
