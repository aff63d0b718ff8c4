-- Defines the :Codegraph* commands as soon as the plugin is on the runtimepath.
-- The server starts only after require("codegraph").setup({...}).
if vim.g.loaded_codegraph then return end
vim.g.loaded_codegraph = true
if vim.fn.has("nvim-0.7") == 0 then
  vim.api.nvim_err_writeln("codegraph.nvim needs Neovim 0.7 or newer")
  return
end
require("codegraph")._define_commands()
