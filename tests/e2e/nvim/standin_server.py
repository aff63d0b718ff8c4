"""Stand-in codegraph server for developing the Neovim client without the real engine.

Answers the four custom methods with the shapes of `protocol.md` (fake content; explore
finds `def <query>` / `class <query>` in the workspace's .py files and renders them in the
real text layout). Select it in the e2e test with CODEGRAPH_E2E_STANDIN=1.
"""

import logging
import os
import re
import sys
from pathlib import Path

from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

logging.basicConfig(stream=sys.stderr, level=logging.WARNING)

server = LanguageServer("codegraph-standin", "0.0.1")


def _get(params, name, default=None):
    if isinstance(params, dict):
        return params.get(name, default)
    return getattr(params, name, default)


def _root(ls: LanguageServer) -> Path:
    folders = list(ls.workspace.folders.values())
    uri = folders[0].uri if folders else ls.workspace.root_uri
    return Path(uri.removeprefix("file://"))


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if ".git" not in p.parts)


@server.feature("codegraph/explore")
def explore(ls: LanguageServer, params):
    query = _get(params, "query")
    if not isinstance(query, str) or not query.strip():
        raise JsonRpcInvalidParams("query: must be a non-blank string of 1-4000 chars")
    max_chars = _get(params, "maxOutputChars", 13000)
    if not isinstance(max_chars, int) or not 1000 <= max_chars <= 400000:
        raise JsonRpcInvalidParams("maxOutputChars: must be an int in 1000..400000")
    root = _root(ls)
    flow, files, sections = [], [], []
    pattern = re.compile(rf"^\s*(def|class)\s+{re.escape(query.strip())}\b")
    for path in _files(root):
        lines = path.read_text().splitlines()
        rel = path.relative_to(root).as_posix()
        for i, line in enumerate(lines):
            if pattern.match(line):
                flow.append({"symbol": query, "path": rel, "line": i + 1})
                body = [f"{n + 1}\t{lines[n]}" for n in range(len(lines))]
                sections.append(f"#### {rel} — {query} · full\n```python\n" + "\n".join(body) + "\n```")
                files.append({"path": rel, "mode": "full", "reason": "on-spine", "chars": 0, "symbols": [query]})
    text = "## Flow\n" + "".join(f"{i + 1}. {f['symbol']} — {f['path']}:{f['line']}\n" for i, f in enumerate(flow))
    text = (text + "\n" + "\n\n".join(sections))[:max_chars]
    return with_layout({"text": text, "flow": flow, "files": files,
            "stats": {"chars": len(text), "budget": max_chars, "candidates": len(files),
                      "skeletonized": 0, "elapsedMs": 1.0, "indexVersion": 1, "adaptive": True, "expectedRecall": 1.0}})


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


@server.feature("codegraph/distill")
def distill(ls: LanguageServer, params):
    scenario = _get(params, "scenario", "overview")
    question = _get(params, "question")
    if scenario == "query" and not question:
        raise JsonRpcInvalidParams("question: required when scenario is 'query'")
    names = [p.relative_to(_root(ls)).as_posix() for p in _files(_root(ls))]
    md = "# Knowledge pack\n\n## Scenario\n" + (question or "overview") + "\n\n## Files\n"
    md += "".join(f"- {n}:1\n" for n in names)
    if _get(params, "format", "json") == "markdown":
        return {"markdown": md, "cacheKey": "standin", "status": "ok"}
    return {"pack": {"files": names}}


@server.feature("codegraph/status")
def status(ls: LanguageServer, params):
    root = _root(ls)
    n = len(_files(root))
    return {"indexVersion": 1, "ready": True,
            "roots": [{"rootUri": root.as_uri(), "files": n, "symbols": 0, "resolvedEdges": 0,
                       "unresolvedCalls": 0, "languages": {"python": n}, "skipped": [],
                       "lastUpdateMs": 1.0}]}


@server.feature("codegraph/evidence")
def evidence(ls: LanguageServer, params):
    return {"blocks": []}


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    server.start_io()
