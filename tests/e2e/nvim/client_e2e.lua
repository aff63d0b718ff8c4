-- Headless end-to-end test of nvim-client against a real codegraph server.
-- Driven by tests/e2e/test_neovim.py; runs on Neovim 0.7 and 0.11:
--   nvim --headless --clean -i NONE -n -c "luafile tests/e2e/nvim/client_e2e.lua"
-- Inputs come from CODEGRAPH_E2E_* environment variables; every step writes
-- "PASS <step>" or "FAIL <step>: <why>" to CODEGRAPH_E2E_OUT, and any failure ends
-- with `cquit 1`.

local env = function(name, default)
  local v = os.getenv(name)
  if v == nil or v == "" then
    if default == nil then error("missing environment variable " .. name) end
    return default
  end
  return v
end

local OUT = env("CODEGRAPH_E2E_OUT")
local PLUGIN = env("CODEGRAPH_E2E_PLUGIN")
local CMD = vim.fn.json_decode(env("CODEGRAPH_E2E_CMD"))
local WS = env("CODEGRAPH_E2E_WS")
local FILE = env("CODEGRAPH_E2E_FILE")          -- relative to WS, contains a call of SYMBOL
local SYMBOL = env("CODEGRAPH_E2E_SYMBOL")      -- a function defined in the workspace
local SOURCE = env("CODEGRAPH_E2E_SOURCE")      -- a line of SYMBOL's source, e.g. "def f(x):"
local QUESTION = env("CODEGRAPH_E2E_QUESTION", "how is the order total computed")
local CACHE = env("CODEGRAPH_E2E_CACHE", "")
local WAIT_MS = tonumber(env("CODEGRAPH_E2E_WAIT_MS", "60000"))

local report = {}
local failed = false
local function record(line)
  table.insert(report, line)
  io.stdout:write(line .. "\n")
  vim.fn.writefile(report, OUT)
end

local v = vim.version()
record(string.format("INFO nvim %d.%d.%d", v.major, v.minor, v.patch))

-- Capture notifications: errors must surface here, and the test asserts on them.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = tostring(msg), level = level or vim.log.levels.INFO })
  io.stderr:write("notify[" .. tostring(level) .. "]: " .. tostring(msg) .. "\n")
end
local function notes_since(n, level)
  local out = {}
  for i = n + 1, #notes do
    if level == nil or notes[i].level == level then table.insert(out, notes[i].msg) end
  end
  return out
end

local function step(name, fn)
  local ok, err = pcall(fn)
  if ok then
    record("PASS " .. name)
  else
    failed = true
    record("FAIL " .. name .. ": " .. tostring(err):gsub("\n", " | "))
  end
  return ok
end

local function check(cond, msg)
  if not cond then error(msg, 2) end
end

local function buf_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

-- Wait until the current buffer is named `name` (a result buffer), or an error is
-- notified since note index `since`.
local function wait_for_result(name, since)
  local ok = vim.wait(WAIT_MS, function()
    return vim.api.nvim_buf_get_name(0) == name or #notes_since(since, vim.log.levels.ERROR) > 0
  end, 50)
  local errors = notes_since(since, vim.log.levels.ERROR)
  check(#errors == 0, "error notified: " .. table.concat(errors, " / "))
  check(ok, "no result buffer " .. name .. " within " .. WAIT_MS .. " ms (current: "
    .. vim.api.nvim_buf_get_name(0) .. ")")
  return vim.api.nvim_get_current_buf()
end

local function codegraph_clients(buf)
  local list = {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, c in pairs(all) do
    if c.name == "codegraph" and (buf == nil or vim.lsp.buf_is_attached(buf, c.id)) then
      table.insert(list, c)
    end
  end
  return list
end

local function finish()
  for _, c in ipairs(codegraph_clients()) do
    if vim.fn.has("nvim-0.11") == 1 then c:stop() else c.stop() end
  end
  vim.wait(5000, function() return #codegraph_clients() == 0 end, 50)
  record(failed and "RESULT FAIL" or "RESULT PASS")
  if failed then vim.cmd("cquit 1") else vim.cmd("qall!") end
end

-- ----------------------------------------------------------------------------------
if vim.lsp.log and vim.lsp.log.set_level then vim.lsp.log.set_level("warn") else vim.lsp.set_log_level("warn") end
vim.opt.runtimepath:prepend(PLUGIN)
vim.cmd("runtime plugin/codegraph.lua")
vim.o.columns = 200
vim.o.lines = 50

local src_buf
local attached = step("attach", function()
  check(vim.fn.exists(":CodegraphExplore") == 2, "plugin/codegraph.lua did not define :CodegraphExplore")
  local init_options = {}
  if CACHE ~= "" then init_options.cacheDir = CACHE end
  -- watch_files forced on: the machine may lack inotifywait (then Neovim polls directories)
  require("codegraph").setup({ cmd = CMD, init_options = init_options, watch_files = true })
  vim.cmd("edit " .. vim.fn.fnameescape(WS .. "/" .. FILE))
  src_buf = vim.api.nvim_get_current_buf()
  check(vim.bo.filetype == "python", "filetype is " .. vim.bo.filetype)
  local ok = vim.wait(15000, function() return #codegraph_clients(src_buf) > 0 end, 50)
  check(ok, "no codegraph client attached to " .. FILE .. "; notes: "
    .. table.concat(notes_since(0), " / "))
  local client = codegraph_clients(src_buf)[1]
  check(vim.fn.resolve(client.config.root_dir) == vim.fn.resolve(WS),
    "root_dir " .. tostring(client.config.root_dir) .. " ~= " .. WS)
end)
if not attached then return finish() end

-- Explore right away: the request must wait for `initialize` and the first index.
local explore_buf
step("explore-command", function()
  local since = #notes
  vim.cmd("CodegraphExplore " .. SYMBOL)
  explore_buf = wait_for_result("codegraph://explore/" .. SYMBOL, since)
  local text = buf_text(explore_buf)
  check(text:find(SOURCE, 1, true), "result lacks the source line " .. vim.inspect(SOURCE)
    .. "; got: " .. text:sub(1, 600))
  check(vim.bo[explore_buf].buftype == "nofile", "buftype " .. vim.bo[explore_buf].buftype)
  check(vim.bo[explore_buf].bufhidden == "wipe", "bufhidden " .. vim.bo[explore_buf].bufhidden)
  check(vim.bo[explore_buf].modifiable == false, "result buffer is modifiable")
  check(vim.bo[explore_buf].filetype == "markdown", "filetype " .. vim.bo[explore_buf].filetype)
  check(#vim.api.nvim_tabpage_list_wins(0) == 2, "result is not in a split")
end)

-- The first index reported $/progress: notified when it began and ended, and shown by statusline().
step("indexing-progress", function()
  local cg = require("codegraph")
  local ok = vim.wait(10000, function() return cg.statusline():find("files indexed", 1, true) ~= nil end, 50)
  check(ok, "statusline() never said the index is done: " .. vim.inspect(cg.statusline()))
  check(cg.statusline():match("^codegraph: %d+ files indexed$"), "statusline() is " .. vim.inspect(cg.statusline()))
  local began, ended = false, false
  for _, n in ipairs(notes) do
    if n.msg:match("^codegraph: indexing .+ …$") then began = true end
    if n.msg:match("^codegraph: %d+ files indexed$") then ended = true end
  end
  check(began and ended, "progress notifications missing (began " .. tostring(began) .. ", ended "
    .. tostring(ended) .. "): " .. table.concat(notes_since(0), " / "))
end)

step("copy-pack", function()
  check(explore_buf and vim.api.nvim_get_current_buf() == explore_buf, "not in the explore buffer")
  vim.cmd("CodegraphCopyPack")
  local lines = vim.api.nvim_buf_get_lines(explore_buf, 0, -1, false)
  local reg = vim.fn.getreg('"')
  check(reg == table.concat(lines, "\n") .. "\n", "unnamed register differs from the buffer ("
    .. #reg .. " vs " .. #table.concat(lines, "\n") + 1 .. " chars)")
  check(vim.deep_equal(vim.fn.getreg('"', 1, 1), lines), "unnamed register lines differ")
end)

step("jump-to-source", function()
  check(explore_buf and vim.api.nvim_buf_is_valid(explore_buf), "no explore buffer")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(explore_buf))
  local lines = vim.api.nvim_buf_get_lines(explore_buf, 0, -1, false)
  local row, lnum
  for i, l in ipairs(lines) do
    local n = l:match("^(%d+)\t")
    if n and l:find(SOURCE, 1, true) then row, lnum = i, tonumber(n); break end
  end
  check(row, "no numbered code line with the source in the result")
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  vim.cmd('execute "normal \\<CR>"')
  check(vim.api.nvim_get_current_buf() ~= explore_buf, "<CR> did not leave the result buffer")
  check(vim.api.nvim_win_get_cursor(0)[1] == lnum, "cursor at line "
    .. vim.api.nvim_win_get_cursor(0)[1] .. ", expected " .. lnum)
  check(vim.api.nvim_get_current_line():find(SOURCE, 1, true), "jumped to "
    .. vim.api.nvim_buf_get_name(0) .. ":" .. lnum .. " which is not the source")
end)

step("jump-from-flow", function()
  check(explore_buf and vim.api.nvim_buf_is_valid(explore_buf), "no explore buffer")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(explore_buf))
  local row, path, lnum
  for i, l in ipairs(vim.api.nvim_buf_get_lines(explore_buf, 0, -1, false)) do
    if l:match("^####") then break end
    local p, n = l:match("([%w_%-%./]+%.py):(%d+)")
    if p then row, path, lnum = i, p, tonumber(n); break end
  end
  if not row then
    record("INFO jump-from-flow: no path:line in the flow section, nothing to follow")
    return
  end
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  vim.cmd("normal gd")
  local name = vim.api.nvim_buf_get_name(0)
  check(name:sub(-#path) == path, "gd opened " .. name .. ", expected " .. path)
  check(vim.api.nvim_win_get_cursor(0)[1] == lnum, "gd put the cursor at line "
    .. vim.api.nvim_win_get_cursor(0)[1] .. ", expected " .. lnum)
end)

-- A file's `#### path` heading opens that file at its top; the plugin finds it in the layout
-- the server sends as data (files[].textLine), not in the markdown.
step("jump-from-heading", function()
  check(explore_buf and vim.api.nvim_buf_is_valid(explore_buf), "no explore buffer")
  vim.api.nvim_set_current_win(vim.fn.bufwinid(explore_buf))
  local row, path
  for i, l in ipairs(vim.api.nvim_buf_get_lines(explore_buf, 0, -1, false)) do
    path = l:match("^####%s+(%S+)")
    if path then row = i; break end
  end
  check(row, "no #### heading in the explore result")
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  vim.cmd("normal gd")
  local name = vim.api.nvim_buf_get_name(0)
  check(name:sub(-#path) == path, "gd on the heading opened " .. name .. ", expected " .. path)
  check(vim.api.nvim_win_get_cursor(0)[1] == 1, "gd on the heading put the cursor at line "
    .. vim.api.nvim_win_get_cursor(0)[1] .. ", expected 1")
end)

step("q-closes", function()
  check(explore_buf and vim.api.nvim_buf_is_valid(explore_buf), "no explore buffer")
  local win = vim.fn.bufwinid(explore_buf)
  check(win ~= -1, "explore buffer not shown")
  vim.api.nvim_set_current_win(win)
  vim.cmd("normal q")
  check(not vim.api.nvim_buf_is_valid(explore_buf), "q did not close/wipe the result buffer")
end)

step("explore-word-under-cursor", function()
  vim.api.nvim_set_current_buf(src_buf)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  check(vim.fn.search("\\<" .. SYMBOL .. "\\>") > 0, SYMBOL .. " not found in " .. FILE)
  local since = #notes
  vim.cmd("CodegraphExplore")
  local buf = wait_for_result("codegraph://explore/" .. SYMBOL, since)
  check(buf_text(buf):find(SOURCE, 1, true), "word-under-cursor result lacks the source")
  vim.cmd("normal q")
end)

step("explore-visual-selection", function()
  vim.api.nvim_set_current_buf(src_buf)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  check(vim.fn.search("\\<" .. SYMBOL .. "\\>") > 0, SYMBOL .. " not found in " .. FILE)
  vim.cmd('execute "normal! viw\\<Esc>"')
  local since = #notes
  vim.cmd("'<,'>CodegraphExplore")
  local buf = wait_for_result("codegraph://explore/" .. SYMBOL, since)
  check(buf_text(buf):find(SOURCE, 1, true), "visual-selection result lacks the source")
  vim.cmd("normal q")
end)

step("distill-overview", function()
  vim.api.nvim_set_current_buf(src_buf)
  local since = #notes
  vim.cmd("CodegraphDistill")
  local buf = wait_for_result("codegraph://distill/overview", since)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  check(#table.concat(lines, "\n") > 0, "empty distill result")
  local heading = false
  for _, l in ipairs(lines) do if l:match("^#") then heading = true end end
  check(heading, "the pack has no markdown heading: " .. table.concat(lines, "\n"):sub(1, 400))
  check(vim.bo[buf].filetype == "markdown", "filetype " .. vim.bo[buf].filetype)
  vim.cmd("CodegraphCopyPack")
  check(vim.fn.getreg('"') == table.concat(lines, "\n") .. "\n", "copy of the pack differs")
  vim.cmd("normal q")
end)

step("distill-question", function()
  vim.api.nvim_set_current_buf(src_buf)
  local since = #notes
  vim.cmd("CodegraphDistill " .. QUESTION)
  local buf = wait_for_result("codegraph://distill/" .. QUESTION, since)
  check(#buf_text(buf) > 0, "empty distill result")
  vim.cmd("normal q")
end)

step("status", function()
  vim.api.nvim_set_current_buf(src_buf)
  local since = #notes
  vim.cmd("CodegraphStatus")
  local ok = vim.wait(WAIT_MS, function() return #notes_since(since) > 0 end, 50)
  check(ok, "no status notification")
  local msg = table.concat(notes_since(since), "\n")
  check(#notes_since(since, vim.log.levels.ERROR) == 0, "status failed: " .. msg)
  check(msg:find("files", 1, true), "status lacks a file count: " .. msg)
end)

-- The standard LSP views of the index, through Neovim's own functions (no plugin code).
local symbol_def = nil -- { filename, lnum } of SYMBOL, from workspace/symbol
step("workspace-symbol", function()
  vim.api.nvim_set_current_buf(src_buf)
  vim.fn.setqflist({}, "r")
  vim.lsp.buf.workspace_symbol(SYMBOL)
  local ok = vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
  check(ok, "workspace_symbol() filled no quickfix list")
  for _, item in ipairs(vim.fn.getqflist()) do
    if item.text:find(SYMBOL, 1, true) and symbol_def == nil then
      symbol_def = { filename = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum }
    end
  end
  check(symbol_def, "no " .. SYMBOL .. " among the workspace symbols: " .. vim.inspect(vim.fn.getqflist()))
  vim.cmd("cclose")
end)

step("incoming-calls", function()
  check(symbol_def, "no definition of " .. SYMBOL .. " (workspace-symbol failed)")
  vim.cmd("edit " .. vim.fn.fnameescape(symbol_def.filename))
  vim.wait(WAIT_MS, function() return #codegraph_clients(0) > 0 end, 50)
  vim.api.nvim_win_set_cursor(0, { symbol_def.lnum, 0 })
  check(vim.fn.search("\\<" .. SYMBOL .. "\\>", "c", symbol_def.lnum) > 0, "the definition line does not name " .. SYMBOL)
  vim.fn.setqflist({}, "r")
  vim.lsp.buf.incoming_calls()
  local ok = vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
  check(ok, "incoming_calls() filled no quickfix list; notes: " .. table.concat(notes_since(0), " / "))
  local files = {}
  for _, item in ipairs(vim.fn.getqflist()) do table.insert(files, vim.api.nvim_buf_get_name(item.bufnr)) end
  local found = false
  for _, f in ipairs(files) do if f:sub(-#FILE) == FILE then found = true end end
  check(found, "no caller in " .. FILE .. " among " .. vim.inspect(files))
  vim.cmd("cclose")
  vim.api.nvim_set_current_buf(src_buf)
end)

if vim.fn.has("nvim-0.10") == 1 then
  step("file-written-outside-is-indexed", function()
    -- the server registered watchers; Neovim reports the new file, the next answer has it
    local name = "written_outside_the_editor"
    local f = assert(io.open(WS .. "/" .. name .. ".py", "w"))
    f:write("def " .. name .. "():\n    return 'seen by the watcher'\n")
    f:close()
    vim.api.nvim_set_current_buf(src_buf)
    local found = vim.wait(WAIT_MS, function()
      local since = #notes
      vim.cmd("CodegraphExplore " .. name)
      local buf = wait_for_result("codegraph://explore/" .. name, since)
      local hit = buf_text(buf):find("def " .. name .. "():", 1, true) ~= nil
      vim.cmd("bwipeout " .. buf)
      vim.api.nvim_set_current_buf(src_buf)
      return hit
    end, 1000)
    check(found, "the file written on disk never reached the index")
  end)
else
  record("SKIP file-written-outside-is-indexed: Neovim " .. tostring(vim.version().minor) .. " has no file watcher")
end

step("server-error-notifies", function()
  vim.api.nvim_set_current_buf(src_buf)
  local since = #notes
  require("codegraph").explore(SYMBOL, { maxOutputChars = 5 })
  local ok = vim.wait(WAIT_MS, function()
    return #notes_since(since, vim.log.levels.ERROR) > 0
  end, 50)
  check(ok, "invalid maxOutputChars did not notify an error")
  local msg = table.concat(notes_since(since, vim.log.levels.ERROR), "\n")
  check(msg:find("maxOutputChars", 1, true), "error does not name the field: " .. msg)
end)

step("cancel", function()
  vim.api.nvim_set_current_buf(src_buf)
  local cg = require("codegraph")
  check(vim.fn.exists(":CodegraphCancel") == 2, "no :CodegraphCancel command")
  local since = #notes
  cg.explore(SYMBOL)
  check(cg.statusline():find("working (1, :CodegraphCancel)", 1, true),
    "statusline() does not show the request in flight: " .. vim.inspect(cg.statusline()))
  -- Cancelled in the same tick it was sent: whatever the server answers (its result, or
  -- RequestCancelled) arrives after the cancel and must be dropped.
  vim.cmd("CodegraphCancel")
  local msg = table.concat(notes_since(since), " / ")
  check(msg:find("cancelled explore " .. SYMBOL, 1, true), "no cancel notification: " .. msg)
  check(cg.statusline():match("^codegraph: %d+ files indexed$"), "statusline() after cancel: " .. vim.inspect(cg.statusline()))
  vim.wait(2000, function() return vim.api.nvim_buf_get_name(0) == "codegraph://explore/" .. SYMBOL end, 50)
  check(vim.api.nvim_buf_get_name(0) ~= "codegraph://explore/" .. SYMBOL, "the cancelled request opened its result")
  check(#notes_since(since, vim.log.levels.ERROR) == 0, "error after cancel: "
    .. table.concat(notes_since(since, vim.log.levels.ERROR), " / "))
  check(cg.cancel() == 0, "a second cancel found requests to cancel")
  -- the server is still serving
  since = #notes
  vim.cmd("CodegraphExplore " .. SYMBOL)
  local buf = wait_for_result("codegraph://explore/" .. SYMBOL, since)
  check(buf_text(buf):find(SOURCE, 1, true), "explore after a cancel lacks the source")
  vim.cmd("normal q")
end)

step("restart", function()
  vim.api.nvim_set_current_buf(src_buf)
  local old = codegraph_clients(src_buf)[1]
  check(old, "no client before restart")
  vim.cmd("CodegraphRestart")
  local ok = vim.wait(15000, function()
    local c = codegraph_clients(src_buf)[1]
    return c ~= nil and c.id ~= old.id
  end, 50)
  check(ok, "no new client attached after :CodegraphRestart")
  local since = #notes
  vim.cmd("CodegraphExplore " .. SYMBOL)
  local buf = wait_for_result("codegraph://explore/" .. SYMBOL, since)
  check(buf_text(buf):find(SOURCE, 1, true), "explore after restart lacks the source")
end)

-- The source file open with unsaved changes: explore sees them (didChange), and gd on one of its
-- lines goes into that buffer as it is (`:edit` on it would fail with E37), keeping the changes.
step("jump-into-unsaved-buffer", function()
  local win
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.bo[vim.api.nvim_win_get_buf(w)].buftype == "" then win = w; break end
  end
  check(win, "no source window")
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_set_current_buf(src_buf)
  local saved = vim.api.nvim_buf_get_lines(src_buf, 0, -1, false)
  local probe = "codegraph_unsaved_probe"
  vim.api.nvim_buf_set_lines(src_buf, -1, -1, false, { "", "", "def " .. probe .. "():", "    return 42" })
  local def_line = #saved + 3
  check(vim.bo[src_buf].modified, "the edit did not modify the buffer")
  vim.wait(300) -- past the didChange debounce of newer Neovims
  local since = #notes
  vim.cmd("CodegraphExplore " .. probe)
  local buf = wait_for_result("codegraph://explore/" .. probe, since)
  local row, lnum
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local n = l:match("^(%d+)\t")
    if n and l:find("def " .. probe, 1, true) then row, lnum = i, tonumber(n); break end
  end
  check(row, "the result lacks the unsaved function: " .. buf_text(buf):sub(1, 600))
  check(lnum == def_line, "the unsaved function is at line " .. lnum .. ", expected " .. def_line)
  vim.api.nvim_win_set_cursor(0, { row, 0 })
  since = #notes
  vim.cmd("normal gd")
  check(#notes_since(since, vim.log.levels.ERROR) == 0, "gd notified an error: "
    .. table.concat(notes_since(since, vim.log.levels.ERROR), " / "))
  check(vim.api.nvim_get_current_buf() == src_buf, "gd opened " .. vim.api.nvim_buf_get_name(0)
    .. ", expected the modified buffer of " .. FILE)
  check(vim.api.nvim_win_get_cursor(0)[1] == def_line, "gd put the cursor at line "
    .. vim.api.nvim_win_get_cursor(0)[1] .. ", expected " .. def_line)
  check(vim.bo[src_buf].modified, "the buffer lost its unsaved changes")
  check(vim.api.nvim_get_current_line() == "def " .. probe .. "():", "the cursor line is "
    .. vim.inspect(vim.api.nvim_get_current_line()))
  vim.api.nvim_buf_set_lines(src_buf, 0, -1, false, saved)
  vim.bo[src_buf].modified = false
end)

finish()
