"""Stand-in for the codegraph LSP server (pygls 2.x): answers the four custom methods with
the shapes of protocol.md from a naive scan of the workspace's Python files. Only for
developing the VS Code test before the real server exists; run_e2e.sh uses it when
CODEGRAPH_LSP=standin."""
import ast
import asyncio
import hashlib
import logging
import re
import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

logging.basicConfig(filename=os.environ.get("STANDIN_LOG", os.devnull), level=logging.INFO)
logging.getLogger("pygls").setLevel(logging.WARNING)
server = LanguageServer("codegraph-standin", "0.0.1")
VERSION = 1


def root() -> Path:
    folders = list(server.workspace.folders.values())
    return Path(unquote(urlparse(folders[0].uri).path)) if folders else Path.cwd()


def py_files() -> list[Path]:
    return sorted(p for p in root().rglob("*.py") if ".git" not in p.parts)


def functions() -> dict[str, tuple[Path, ast.FunctionDef]]:
    out = {}
    for path in py_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                out.setdefault(node.name, (path, node))
    return out


def section(path: Path, node: ast.FunctionDef, mode: str) -> str:
    lines = path.read_text().splitlines()
    body = "\n".join(f"{n}\t{lines[n - 1]}" for n in range(node.lineno, node.end_lineno + 1))
    return f"#### {path.relative_to(root())} — {node.name} · {mode}\n```python\n{body}\n```\n"


def get(params, name, default=None):
    return getattr(params, name, default) if not isinstance(params, dict) else params.get(name, default)


@server.feature("codegraph/status")
def status(ls: LanguageServer, params):
    files = py_files()
    return {"indexVersion": VERSION, "ready": True, "roots": [{
        "rootUri": root().as_uri(), "files": len(files), "symbols": len(functions()), "resolvedEdges": 0,
        "unresolvedCalls": 0, "languages": {"python": len(files)}, "skipped": [], "lastUpdateMs": 1.5}]}


@server.feature("codegraph/explore")
async def explore(ls: LanguageServer, params):
    query = get(params, "query") or ""
    logging.info("explore %r", query)
    if query.startswith("slow:"):  # a long request, to cancel from the UI
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            logging.info("explore cancelled %r", query)
            raise
    if not query.strip():
        raise JsonRpcInvalidParams("query: must not be blank")
    funcs = functions()
    hits = [name for name in funcs if name in query] or list(funcs)[:1]
    spine = []
    for name in hits:
        path, node = funcs[name]
        spine.append((name, path, node))
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in funcs:
                spine.append((call.func.id, *funcs[call.func.id]))
    flow = [{"symbol": n, "path": str(p.relative_to(root())), "line": node.lineno} for n, p, node in spine]
    text = "## Flow\n" + "".join(f"{i}. {h['symbol']} — {h['path']}:{h['line']}\n" for i, h in enumerate(flow, 1))
    text += "\n" + "\n".join(section(p, node, "full") for _, p, node in spine)
    files = [{"path": h["path"], "mode": "full", "reason": "on-spine", "chars": 0, "symbols": [h["symbol"]]} for h in flow]
    return with_layout({"text": text, "flow": flow, "files": files, "stats": {"chars": len(text), "budget": 13000,
            "candidates": len(funcs), "skeletonized": 0, "elapsedMs": 1.0, "indexVersion": VERSION, "adaptive": True, "expectedRecall": 1.0}})


def with_layout(result: dict) -> dict:
    """Adds the layout the real server sends as data (docs/protocol.md: files[].textLine and
    ranges, refs), read off the text written here, so the client links the same way."""
    lines = result["text"].split("\n")
    paths = {f["path"] for f in result["files"]}
    for f in result["files"]:
        f.update(textLine=None, ranges=[])
    refs, current = [], None
    pending = list(result["files"])
    for t, line in enumerate(lines):
        if pending and line.startswith(f"#### {pending[0]['path']} "):
            current = pending.pop(0)
            current["textLine"] = t
            continue
        m = re.match(r"(\d+)\t", line)
        if m and current is not None:
            n, ranges = int(m.group(1)), current["ranges"]
            if ranges and ranges[-1]["end"] + 1 == n and ranges[-1]["textLine"] + n - ranges[-1]["start"] == t:
                ranges[-1]["end"] = n
            else:
                ranges.append({"textLine": t, "start": n, "end": n})
            continue
        if line.startswith("#"):
            current = None
        for m in re.finditer(r"(?<![^\s(`])([^\s(`]+):(\d+)(?!\d)", line):
            if m.group(1) in paths:
                refs.append({"textLine": t, "path": m.group(1), "line": int(m.group(2))})
    result["refs"] = refs
    return result


def distill(ls: LanguageServer, params):
    scenario, question = get(params, "scenario", "overview"), get(params, "question")
    logging.info("distill %r %r", scenario, question)
    if scenario == "query" and not question:
        raise JsonRpcInvalidParams("question: required for scenario 'query'")
    rel = [str(p.relative_to(root())) for p in py_files()]
    md = f"# Architecture knowledge pack: {root().name}\n\ncodegraph distill · {scenario} · status **complete**\n\n"
    md += f"Question: {question}\n\n" if question else ""
    md += "## Components and dependencies\n" + "".join(f"- `{r}`\n" for r in rel)
    md += "\n## Obligations\n\n## Facts\n\n## Sources\n"
    md += "".join(f"- {f} `{p.relative_to(root())}:{n.lineno}`\n" for f, (p, n) in functions().items())
    return {"markdown": md, "cacheKey": "standin", "status": "complete"}


if os.environ.get("STANDIN_NO_DISTILL") != "1":  # =1 plays a server without distill yet
    server.feature("codegraph/distill")(distill)


@server.feature("codegraph/evidence")
def evidence(ls: LanguageServer, params):
    blocks = []
    for src in get(params, "sources") or []:
        path, (start, end) = root() / get(src, "path"), get(src, "lines")
        if not path.is_file():
            blocks.append({"path": get(src, "path"), "lines": [start, end], "error": "not-found"})
        elif hashlib.sha256(path.read_bytes()).hexdigest() != get(src, "sha256"):
            blocks.append({"path": get(src, "path"), "lines": [start, end], "error": "content-modified"})
        else:
            text = "\n".join(path.read_text().splitlines()[start - 1:end])
            blocks.append({"path": get(src, "path"), "lines": [start, end], "text": text})
    return {"blocks": blocks}


if __name__ == "__main__":
    server.start_io()
