-- codegraph: a thin Neovim client for the codegraph language server.
--
-- Runs on Neovim 0.7 and newer.  Version seams (keep them in this file's helpers):
--   * vim.lsp.start is 0.8+; 0.7 uses vim.lsp.start_client + vim.lsp.buf_attach_client;
--   * client:request / client:stop method syntax is 0.11+; older versions use client.request;
--   * vim.lsp.get_clients is 0.10+; older versions use vim.lsp.get_active_clients;
--   * client:cancel_request is 0.11+; older versions use client.cancel_request.
local M = {}

local NAME = "codegraph"
local HAS_011 = vim.fn.has("nvim-0.11") == 1
local uv = vim.uv or vim.loop

local defaults = {
  cmd = { "codegraph-lsp" },
  -- The languages the server indexes: the protocol's list (server/codegraph/model/protocol.json;
  -- tests/test_protocol.py checks this table against it).
  filetypes = {
    "python", "typescript", "typescriptreact", "javascript", "javascriptreact",
    "java", "kotlin", "go", "rust",
  },
  root_markers = {
    ".git", "pyproject.toml", "setup.py", "setup.cfg", "package.json", "tsconfig.json",
    "go.mod", "Cargo.toml", "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle",
  },
  -- string or function(bufnr) -> string|nil; overrides root_markers when set.
  root_dir = nil,
  init_options = {},
  cmd_env = nil,
  on_attach = nil,
  capabilities = nil,
  -- Let the server register file watchers, so files changed on disk (a branch switch, a
  -- generator) reach the index. nil = when Neovim can watch (0.10+) and, on Linux, has the
  -- efficient inotifywait backend; true/false to decide yourself.
  watch_files = nil,
  explore = { maxOutputChars = nil, adaptive = nil, includeTests = nil },
  distill = { budgetBytes = nil },
  -- "vertical", "horizontal" or "auto" (vertical when the editor is wide enough).
  split = "auto",
  -- Buffer-local keys in result buffers: close, and jump to a `path:line` reference.
  keys = { close = "q", jump = { "gd", "<CR>" } },
  -- Indexing progress ($/progress) as notifications when it begins and ends; false = only
  -- through require("codegraph").statusline().
  progress = true,
}

M.config = vim.deepcopy(defaults)

-- State: which client serves which root (0.7 has no built-in reuse), which clients have
-- finished `initialize`, requests waiting for that, and what every result buffer shows.
local clients_by_root = {}
local ready = {}
local pending = {}
local results = {}   -- result bufnr -> { text, kind, root, client_id, name }
local buffers_by_name = {}
local last = nil     -- the most recent result, for :CodegraphCopyPack outside a result buffer
local last_client_id = nil
local warned_missing_cmd = false
local progress = {}  -- client id -> { title, message, percentage, done } of the server's indexing
local inflight = {}  -- request id -> { client_id, label } of explore/distill requests awaiting an answer
local cancelled = {} -- request ids the user cancelled: their late answers are dropped

-- ---------------------------------------------------------------------------------------
-- Small helpers

local function notify(msg, level)
  vim.notify("codegraph: " .. msg, level or vim.log.levels.INFO)
end

local function echo(msg)
  vim.api.nvim_echo({ { "codegraph: " .. msg } }, false, {})
end

local function request(client, method, params, handler, bufnr)
  if HAS_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function stop(client)
  if HAS_011 then client:stop() else client.stop() end
end

local function cancel_request(client, id)
  if HAS_011 then return client:cancel_request(id) end
  return client.cancel_request(id)
end

-- Statuslines that show M.statusline() refresh; `User CodegraphProgress` autocommands run.
local function redraw_statusline()
  pcall(vim.cmd, "redrawstatus")
  if vim.fn.exists("#User#CodegraphProgress") == 1 then
    pcall(vim.cmd, "doautocmd <nomodeline> User CodegraphProgress")
  end
end

local function all_clients()
  local list = {}
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ name = NAME })
  else
    for _, c in pairs(vim.lsp.get_active_clients()) do
      if c.name == NAME then table.insert(list, c) end
    end
  end
  return list
end

local function client_is_attached(client, bufnr)
  if client.attached_buffers then return client.attached_buffers[bufnr] == true end
  return vim.lsp.buf_is_attached(bufnr, client.id)
end

local function is_dir(path)
  local stat = uv.fs_stat(path)
  return stat ~= nil and stat.type == "directory"
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

local function normalize(path)
  path = vim.fn.fnamemodify(path, ":p")
  if #path > 1 then path = path:gsub("/+$", "") end
  return path
end

-- ---------------------------------------------------------------------------------------
-- Roots and clients

local function find_root(bufnr)
  local cfg = M.config
  if type(cfg.root_dir) == "function" then
    local r = cfg.root_dir(bufnr)
    return r and normalize(r) or nil
  elseif type(cfg.root_dir) == "string" then
    return normalize(cfg.root_dir)
  end
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == "" then return nil end
  fname = normalize(fname)
  local dir = dirname(fname)
  while true do
    for _, marker in ipairs(cfg.root_markers) do
      if exists(dir .. "/" .. marker) then return dir end
    end
    local parent = dirname(dir)
    if parent == dir then break end
    dir = parent
  end
  -- No marker: the working directory if the file lives under it, else the file's folder.
  local cwd = normalize(uv.cwd())
  if fname:sub(1, #cwd + 1) == cwd .. "/" then return cwd end
  return dirname(fname)
end

local function flush_pending(client_id, client)
  local queue = pending[client_id] or {}
  pending[client_id] = nil
  for _, fn in ipairs(queue) do fn(client) end
end

local function watches_files(cfg)
  if vim.fn.has("nvim-0.10") == 0 then return false end -- no client-side watcher before 0.10
  if cfg.watch_files ~= nil then return cfg.watch_files end
  return vim.fn.has("linux") == 0 or vim.fn.executable("inotifywait") == 1
end

local function client_capabilities(cfg)
  if not watches_files(cfg) then return cfg.capabilities end
  return vim.tbl_deep_extend("force", vim.lsp.protocol.make_client_capabilities(), cfg.capabilities or {},
    { workspace = { didChangeWatchedFiles = { dynamicRegistration = true } } })
end

-- $/progress from the server (its first index): kept per client for M.statusline() and,
-- with `progress = true`, notified when it begins and ends. Neovim's own handler runs too,
-- so other progress displays keep working.
local function on_progress(err, result, ctx, config)
  local default = vim.lsp.handlers["$/progress"]
  if default then pcall(default, err, result, ctx, config) end
  local value = type(result) == "table" and result.value or nil
  if err or type(value) ~= "table" then return end
  local id = ctx.client_id
  local p = progress[id] or {}
  if value.kind == "begin" then
    p = { title = value.title or "indexing", message = value.message, percentage = value.percentage, done = false }
    if M.config.progress then
      local client = vim.lsp.get_client_by_id(id)
      local root = client and client.config and client.config.root_dir
      notify("indexing " .. (root and vim.fn.fnamemodify(root, ":t") or "the workspace") .. " …")
    end
  elseif value.kind == "report" then
    p.message = value.message or p.message
    p.percentage = value.percentage or p.percentage
  elseif value.kind == "end" then
    p.done = true
    p.message = value.message or "done"
    p.percentage = 100
    if M.config.progress then notify(p.message) end
  end
  progress[id] = p
  redraw_statusline()
end

local function make_config(root)
  local cfg = M.config
  return {
    name = NAME,
    cmd = cfg.cmd,
    cmd_env = cfg.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") } },
    init_options = cfg.init_options,
    capabilities = client_capabilities(cfg),
    on_attach = cfg.on_attach,
    handlers = { ["$/progress"] = on_progress },
    on_init = function(client)
      ready[client.id] = true
      flush_pending(client.id, client)
    end,
    on_exit = function(code, signal, client_id)
      ready[client_id] = nil
      progress[client_id] = nil
      for rid, entry in pairs(inflight) do
        if entry.client_id == client_id then inflight[rid] = nil end -- never to be answered
      end
      for r, id in pairs(clients_by_root) do
        if id == client_id then clients_by_root[r] = nil end
      end
      local queue = pending[client_id]
      pending[client_id] = nil
      vim.schedule(function()
        if queue and #queue > 0 then
          notify("server exited before it was ready (code " .. tostring(code) .. ")", vim.log.levels.ERROR)
        elseif code ~= 0 and signal ~= 15 then
          notify("server exited with code " .. tostring(code), vim.log.levels.WARN)
        end
      end)
    end,
  }
end

local function check_cmd()
  local exe = M.config.cmd and M.config.cmd[1]
  if exe and vim.fn.executable(exe) == 1 then return true end
  if not warned_missing_cmd then
    warned_missing_cmd = true
    notify("cannot start the server: `" .. tostring(exe) .. "` is not executable. "
      .. "Install codegraph (pip install -e . in its repository) or pass setup({ cmd = {...} }).",
      vim.log.levels.ERROR)
  end
  return false
end

--- Start (or reuse) the server for the buffer's root and attach the buffer.
--- Returns the client id, or nil.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then return nil end
  local root = find_root(bufnr)
  if not root or not is_dir(root) then return nil end
  if not check_cmd() then return nil end

  local client_id
  if vim.lsp.start then
    local ok, id = pcall(vim.lsp.start, make_config(root), { bufnr = bufnr })
    if not ok then
      notify("cannot start the server: " .. tostring(id), vim.log.levels.ERROR)
      return nil
    end
    client_id = id
  else
    client_id = clients_by_root[root]
    if client_id and not vim.lsp.get_client_by_id(client_id) then client_id = nil end
    if not client_id then
      local ok, id = pcall(vim.lsp.start_client, make_config(root))
      if not ok or not id then
        notify("cannot start the server: " .. tostring(id), vim.log.levels.ERROR)
        return nil
      end
      client_id = id
    end
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  if client_id then
    clients_by_root[root] = client_id
    last_client_id = client_id
  end
  return client_id
end

-- The client a command should talk to: the current buffer's, the one that produced the
-- current result buffer, else the most recently used one.
local function current_client()
  local bufnr = vim.api.nvim_get_current_buf()
  for _, c in ipairs(all_clients()) do
    if client_is_attached(c, bufnr) then return c end
  end
  local info = results[bufnr]
  if info and info.client_id then
    local c = vim.lsp.get_client_by_id(info.client_id)
    if c then return c end
  end
  if vim.bo[bufnr].buftype == "" and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
    local id = M.attach(bufnr)
    if id then return vim.lsp.get_client_by_id(id) end
  end
  if last_client_id then
    local c = vim.lsp.get_client_by_id(last_client_id)
    if c then return c end
  end
  return all_clients()[1]
end

local function attached_buffer(client)
  if client.attached_buffers then
    for b, on in pairs(client.attached_buffers) do
      if on and vim.api.nvim_buf_is_valid(b) then return b end
    end
  end
  return nil
end

-- Send `method` once the client has finished `initialize`; `on_result(result, client)`
-- runs on success, JSON-RPC errors become a notification.
local function call(method, params, on_result, label)
  local client = current_client()
  if not client then
    notify("no server running; open a file of a supported language first", vim.log.levels.ERROR)
    return
  end
  last_client_id = client.id
  local function send(c)
    local rid
    local ok, id = request(c, method, params, function(err, result)
      if rid then
        inflight[rid] = nil
        if cancelled[rid] then cancelled[rid] = nil; return end -- answered before the cancel arrived
      end
      redraw_statusline()
      if type(err) == "table" and err.code == -32800 then return end -- RequestCancelled
      if err then
        local msg = type(err) == "table" and (err.message or vim.inspect(err)) or tostring(err)
        local code = type(err) == "table" and err.code and (" [" .. tostring(err.code) .. "]") or ""
        notify(method .. " failed: " .. msg .. code, vim.log.levels.ERROR)
        return
      end
      if result == nil then
        notify(method .. " returned no result", vim.log.levels.ERROR)
        return
      end
      on_result(result, c)
    end, attached_buffer(c))
    if not ok then
      notify(method .. " could not be sent: the server is not running", vim.log.levels.ERROR)
    elseif label and id then
      rid = id
      inflight[id] = { client_id = c.id, label = label }
      redraw_statusline()
    end
  end
  if ready[client.id] or client.initialized then
    send(client)
  else
    pending[client.id] = pending[client.id] or {}
    table.insert(pending[client.id], send)
  end
end

local function inflight_count()
  local n = 0
  for _ in pairs(inflight) do n = n + 1 end
  for _, queue in pairs(pending) do n = n + #queue end
  return n
end

-- ---------------------------------------------------------------------------------------
-- Result buffers

local function split_lines(text)
  text = text:gsub("\r\n", "\n")
  if text:sub(-1) == "\n" then text = text:sub(1, -2) end
  return vim.split(text, "\n", { plain = true })
end

local function result_window()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if results[vim.api.nvim_win_get_buf(win)] then return win end
  end
  return nil
end

local function open_split()
  local how = M.config.split
  if how == "auto" then how = vim.o.columns >= 160 and "vertical" or "horizontal" end
  vim.cmd(how == "vertical" and "botright vsplit" or "botright split")
  return vim.api.nvim_get_current_win()
end

local function show(name, text, info)
  local buf = buffers_by_name[name]
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    buf = vim.api.nvim_create_buf(false, true)
    buffers_by_name[name] = buf
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "wipe"
    vim.bo[buf].swapfile = false
    pcall(vim.api.nvim_buf_set_name, buf, name)
    local keys = M.config.keys or {}
    if keys.close then
      vim.keymap.set("n", keys.close, M.close, { buffer = buf, silent = true, desc = "Close CodeGraph result" })
    end
    local jump = type(keys.jump) == "string" and { keys.jump } or (keys.jump or {})
    for _, lhs in ipairs(jump) do
      vim.keymap.set("n", lhs, M.jump, { buffer = buf, silent = true, desc = "Open path:line under cursor" })
    end
    vim.api.nvim_create_autocmd("BufWipeout", {
      buffer = buf,
      callback = function()
        results[buf] = nil
        if buffers_by_name[name] == buf then buffers_by_name[name] = nil end
      end,
    })
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, split_lines(text))
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  if vim.bo[buf].filetype ~= "markdown" then vim.bo[buf].filetype = "markdown" end

  info.text = text
  info.name = name
  results[buf] = info
  last = info

  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    win = result_window() or open_split()
    vim.api.nvim_win_set_buf(win, buf)
  end
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_win_set_cursor(win, { 1, 0 })
  return buf
end

local function root_of(client)
  return client.config and client.config.root_dir or uv.cwd()
end

-- ---------------------------------------------------------------------------------------
-- Public API (the commands are thin wrappers)

--- Explore `query`; `opts` may override maxOutputChars, adaptive, includeTests.
function M.explore(query, opts)
  query = vim.trim(query or "")
  if query == "" then
    notify("nothing to explore: give a query or put the cursor on a name", vim.log.levels.WARN)
    return
  end
  local params = { query = query }
  for k, v in pairs(M.config.explore or {}) do params[k] = v end
  for k, v in pairs(opts or {}) do params[k] = v end
  echo("exploring " .. query .. " … (:CodegraphCancel stops it)")
  call("codegraph/explore", params, function(result, client)
    if type(result.text) ~= "string" then
      notify("codegraph/explore returned no text", vim.log.levels.ERROR)
      return
    end
    show("codegraph://explore/" .. query:gsub("%s+", " "):sub(1, 80), result.text,
      { kind = "explore", root = root_of(client), client_id = client.id, result = result })
    local s = result.stats or {}
    echo(string.format("explore: %s chars, %d files%s", tostring(s.chars or #result.text),
      #(result.files or {}), s.elapsedMs and string.format(", %.0f ms", s.elapsedMs) or ""))
  end, "explore " .. query)
end

--- Distill the architecture (no question) or the part relevant to `question`.
function M.distill(question, opts)
  question = vim.trim(question or "")
  local params = { format = "markdown" }
  if question == "" then
    params.scenario = "overview"
  else
    params.scenario = "query"
    params.question = question
  end
  for k, v in pairs(M.config.distill or {}) do params[k] = v end
  for k, v in pairs(opts or {}) do params[k] = v end
  echo((question == "" and "distilling the architecture" or ("distilling for: " .. question))
    .. " … (:CodegraphCancel stops it)")
  call("codegraph/distill", params, function(result, client)
    if type(result.markdown) ~= "string" then
      notify("codegraph/distill returned no markdown", vim.log.levels.ERROR)
      return
    end
    local name = question == "" and "codegraph://distill/overview"
      or ("codegraph://distill/" .. question:gsub("%s+", " "):sub(1, 80))
    show(name, result.markdown,
      { kind = "distill", root = root_of(client), client_id = client.id, result = result })
    echo("distill: " .. tostring(result.status or "done") .. ", " .. #result.markdown .. " bytes")
  end, question == "" and "distill" or ("distill " .. question))
end

--- Cancel every explore/distill request still waiting for its answer (like the Cancel
--- button of VS Code's progress notification). Returns how many were cancelled.
function M.cancel()
  local labels = {}
  for rid, entry in pairs(inflight) do
    local c = vim.lsp.get_client_by_id(entry.client_id)
    if c then pcall(cancel_request, c, rid) end -- sends $/cancelRequest
    cancelled[rid] = true
    inflight[rid] = nil
    table.insert(labels, entry.label)
  end
  for client_id, queue in pairs(pending) do -- not sent yet: the server is still starting
    for _ = 1, #queue do table.insert(labels, "a request waiting for the server to start") end
    pending[client_id] = nil
  end
  if #labels == 0 then
    notify("nothing to cancel")
  else
    table.sort(labels)
    notify("cancelled " .. table.concat(labels, ", "))
  end
  redraw_statusline()
  return #labels
end

--- A short status for 'statusline' / 'winbar': indexing progress of the current buffer's
--- server, or the requests in flight; "" when there is nothing to say.
--- Example: vim.o.statusline = "%f %= %{v:lua.require'codegraph'.statusline()}"
function M.statusline()
  local busy = inflight_count()
  if busy > 0 then return "codegraph: working (" .. busy .. ", :CodegraphCancel)" end
  local bufnr = vim.api.nvim_get_current_buf()
  local chosen
  for _, c in ipairs(all_clients()) do
    if progress[c.id] and (chosen == nil or client_is_attached(c, bufnr)) then chosen = progress[c.id] end
  end
  if not chosen then return "" end
  if chosen.done then return "codegraph: " .. (chosen.message or "ready") end
  local pct = chosen.percentage and (" " .. chosen.percentage .. "%") or ""
  return "codegraph: indexing" .. pct
end

--- Copy the current result buffer's text (else the last result) to `+` and `"`.
function M.copy_pack()
  local info = results[vim.api.nvim_get_current_buf()] or last
  if not info then
    notify("nothing to copy yet: run :CodegraphExplore or :CodegraphDistill first", vim.log.levels.WARN)
    return
  end
  local lines = split_lines(info.text)
  vim.fn.setreg('"', lines, "l")
  if vim.fn.has("clipboard") == 1 then
    pcall(vim.fn.setreg, "+", lines, "l")
    echo("copied " .. vim.fn.strchars(info.text) .. " characters to the clipboard (+) and the unnamed register")
  else
    echo("copied " .. vim.fn.strchars(info.text) .. " characters to the unnamed register (no clipboard provider)")
  end
end

local function format_status(result)
  local out = { string.format("index version %s, %s", tostring(result.indexVersion),
    result.ready and "ready" or "indexing") }
  for _, r in ipairs(result.roots or {}) do
    local root = vim.uri_to_fname(r.rootUri or "file:///?")
    if r.error then -- a workspace folder without an index, and why
      table.insert(out, root .. ": not indexed: " .. tostring(r.error))
    else
      local langs = {}
      for lang, n in pairs(r.languages or {}) do table.insert(langs, lang .. " " .. tostring(n)) end
      table.sort(langs)
      -- `skipped` lists only the first 50; `skippedTotal` counts them all.
      local skipped = tonumber(r.skippedTotal) or #(r.skipped or {})
      table.insert(out, string.format("%s: %s files, %s symbols, %s resolved edges, %s unresolved calls%s%s",
        root, tostring(r.files), tostring(r.symbols), tostring(r.resolvedEdges), tostring(r.unresolvedCalls),
        #langs > 0 and (" (" .. table.concat(langs, ", ") .. ")") or "",
        skipped > 0 and (", " .. skipped .. " skipped") or ""))
    end
  end
  return table.concat(out, "\n")
end
M._format_status = format_status -- for tests

--- Report the index state of the server for the current buffer.
function M.status()
  if #all_clients() == 0 and not current_client() then
    notify("no server running", vim.log.levels.WARN)
    return
  end
  call("codegraph/status", vim.empty_dict(), function(result)
    notify(format_status(result), vim.log.levels.INFO)
  end)
end

--- Close the current result window (or wipe the buffer if it is the last window).
function M.close()
  if #vim.api.nvim_tabpage_list_wins(0) > 1 then
    vim.api.nvim_win_close(0, false)
  else
    vim.cmd("bwipeout")
  end
end

-- The reference at the cursor of an explore answer, from the layout the server sends as data
-- (docs/protocol.md): `files[i].textLine` is the 0-based line of a section's header,
-- `files[i].ranges` the runs of shown source lines ({textLine, start, end}), `refs` every
-- `path:line` written in the prose ({textLine, path, line}). Nothing here reads the markdown:
-- only a known `path:line` is looked up on its line, to pick the one under the cursor.
local function explore_reference(result, row, col)
  local t = row - 1
  local line = vim.api.nvim_get_current_line()
  local best
  local init = 1
  for _, ref in ipairs(result.refs or {}) do
    if ref.textLine == t then
      local spelled = ref.path .. ":" .. tostring(ref.line)
      local s, e = line:find(spelled, init, true)
      local found = { path = ref.path, line = ref.line }
      best = best or found
      if s then
        init = e + 1
        if col + 1 >= s and col + 1 <= e then return found end
      end
    end
  end
  if best then return best end
  for _, file in ipairs(result.files or {}) do
    if file.textLine == t then return { path = file.path, line = 1 } end
    for _, r in ipairs(file.ranges or {}) do
      if t >= r.textLine and t <= r.textLine + r["end"] - r.start then
        return { path = file.path, line = r.start + t - r.textLine }
      end
    end
  end
  return nil
end

-- Find a `path:line` reference at the cursor of a distill pack (it carries no layout data: its
-- byte budget counts the whole answer); in a code block, the line number that
-- starts the line plus the file of the nearest `#### path — …` heading above it.
local function reference_at_cursor()
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_get_current_line()
  local best
  local init = 1
  while true do
    local s, e, path, lnum = line:find("([%w%._%-/\\@%+~]+%.[%w]+):(%d+)", init)
    if not s then break end
    local ref = { path = path, line = tonumber(lnum) }
    if not best then best = ref end
    if col + 1 >= s and col + 1 <= e then best = ref; break end
    init = e + 1
  end
  if best then return best end
  local lnum = line:match("^%s*(%d+)\t")
  if lnum then
    local lines = vim.api.nvim_buf_get_lines(0, 0, row, false)
    for i = #lines, 1, -1 do
      local path = lines[i]:match("^####%s+(.-)%s+—") or lines[i]:match("^####%s+(%S+)")
      if path then return { path = path, line = tonumber(lnum) } end
    end
  end
  local path = line:match("^####%s+(.-)%s+—") or line:match("^####%s+(%S+)")
  if path then return { path = path, line = 1 } end
  return nil
end

-- The buffer of the file `path`, or nil. (vim.fn.bufnr(path) is no exact lookup: its argument
-- is also a pattern matched anywhere in a name, so "cart.py" finds "cart.pyi" too.)
local function file_buffer(path)
  local want = vim.fn.resolve(normalize(path))
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(b)
    if name ~= "" and vim.bo[b].buftype == "" and vim.fn.resolve(normalize(name)) == want then return b end
  end
  return nil
end

-- Whether `win` may show another buffer without losing unsaved changes (E37 otherwise).
local function can_leave(win)
  local b = vim.api.nvim_win_get_buf(win)
  if not vim.bo[b].modified or vim.o.hidden or vim.bo[b].bufhidden == "hide" then return true end
  return #vim.fn.win_findbuf(b) > 1
end

-- Show `path` at `line` in a source window of this tab: one that already shows the file, else
-- the first that can switch (else a split above one), else a split above the result. A buffer of
-- the file that is already open (maybe modified) is shown as it is: `:edit` on it would reload it
-- from disk, which fails with E37 when it has unsaved changes.
local function open_at(path, line)
  local here = vim.api.nvim_get_current_win()
  local buf = file_buffer(path)
  local target, fallback
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local b = vim.api.nvim_win_get_buf(win)
    if win ~= here and not results[b] and vim.bo[b].buftype == "" then
      if buf and b == buf then target = win; break end
      if not target and can_leave(win) then target = win end
      fallback = fallback or win
    end
  end
  if target then
    vim.api.nvim_set_current_win(target)
  else
    if fallback then vim.api.nvim_set_current_win(fallback) end
    vim.cmd("aboveleft split")
  end
  if buf and vim.api.nvim_buf_is_loaded(buf) then
    if vim.api.nvim_get_current_buf() ~= buf then vim.api.nvim_win_set_buf(0, buf) end
  else
    vim.cmd("edit " .. vim.fn.fnameescape(path))
  end
  local max = vim.api.nvim_buf_line_count(0)
  vim.api.nvim_win_set_cursor(0, { math.max(1, math.min(line, max)), 0 })
  vim.cmd("normal! zz")
end

local function jump()
  local info = results[vim.api.nvim_get_current_buf()]
  local ref
  if info and info.kind == "explore" and type(info.result) == "table" and info.result.refs then
    local row, col = unpack(vim.api.nvim_win_get_cursor(0))
    ref = explore_reference(info.result, row, col)
  else
    ref = reference_at_cursor()
  end
  if not ref then
    notify("no path:line reference under the cursor", vim.log.levels.WARN)
    return
  end
  local path = ref.path
  if not path:match("^/") and info and info.root then path = info.root .. "/" .. path end
  if not exists(path) then
    notify("file not found: " .. path, vim.log.levels.WARN)
    return
  end
  local ok, err = pcall(open_at, path, ref.line)
  if not ok then
    err = tostring(err)
    notify("cannot open " .. path .. ":" .. tostring(ref.line) .. ": " .. (err:match("(E%d+:.*)$") or err),
      vim.log.levels.ERROR)
  end
end

--- Open the `path:line` reference under the cursor of a result buffer. Failures are notified.
function M.jump()
  local ok, err = pcall(jump)
  if not ok then notify("jump failed: " .. tostring(err), vim.log.levels.ERROR) end
end

--- Stop every codegraph server and re-attach the open buffers.
function M.restart()
  for _, c in ipairs(all_clients()) do stop(c) end
  clients_by_root = {}
  vim.defer_fn(function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
        M.attach(b)
      end
    end
  end, 500)
end

-- ---------------------------------------------------------------------------------------
-- Commands and setup

local function visual_selection(opts)
  local s, e = vim.fn.getpos("'<"), vim.fn.getpos("'>")
  if s[2] ~= opts.line1 or e[2] ~= opts.line2 then
    return table.concat(vim.api.nvim_buf_get_lines(0, opts.line1 - 1, opts.line2, false), "\n")
  end
  local lines = vim.api.nvim_buf_get_lines(0, s[2] - 1, e[2], false)
  if #lines == 0 then return "" end
  if vim.fn.visualmode() == "v" then
    local last_line = lines[#lines]
    local tail = last_line:sub(e[3]):match("^[%z\1-\127\194-\244][\128-\191]*") or ""
    lines[#lines] = last_line:sub(1, e[3] - 1) .. tail
    lines[1] = lines[1]:sub(s[3])
  end
  return table.concat(lines, "\n")
end

local function define_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd("CodegraphExplore", function(opts)
    local query = opts.args
    if query == "" then
      query = opts.range > 0 and visual_selection(opts) or vim.fn.expand("<cword>")
    end
    M.explore(query)
  end, { nargs = "*", range = true, desc = "CodeGraph: explore a symbol or question" })
  cmd("CodegraphDistill", function(opts) M.distill(opts.args) end,
    { nargs = "*", desc = "CodeGraph: distill the architecture, or for a question" })
  cmd("CodegraphCopyPack", function() M.copy_pack() end,
    { nargs = 0, desc = "CodeGraph: copy the result to the clipboard" })
  cmd("CodegraphStatus", function() M.status() end, { nargs = 0, desc = "CodeGraph: index status" })
  cmd("CodegraphRestart", function() M.restart() end, { nargs = 0, desc = "CodeGraph: restart the server" })
  cmd("CodegraphCancel", function() M.cancel() end,
    { nargs = 0, desc = "CodeGraph: cancel the explore/distill requests still running" })
end
M._define_commands = define_commands

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  -- Lists replace the defaults rather than merging index by index.
  for _, key in ipairs({ "cmd", "filetypes", "root_markers" }) do
    if opts and opts[key] then M.config[key] = opts[key] end
  end
  warned_missing_cmd = false
  define_commands()
  local group = vim.api.nvim_create_augroup("codegraph", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args) M.attach(args.buf) end,
  })
  -- Buffers opened before setup (lazy loading) get attached too.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.attach(b)
    end
  end
end

return M
