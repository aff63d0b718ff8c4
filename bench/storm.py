"""The typing storm's moving parts: random LSP edits, the storm itself, and the check that the
served index equals a fresh index of the final texts. Shared by tests/test_storm.py and
bench/bench_hardening.py; needs only the package (no test extras)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from codegraph.index.index import RootIndex
from codegraph.requests import run_explore
from codegraph.workspace.scope import ScopeConfig
from hostile import RawClient

SNIPPETS = ["def storm_{k}(x):\n    return helper_{j}(x)\n", "class Storm{k}:\n    def run(self):\n        return storm_{j}(self)\n",
            "é", "😀", "\r\n", "(", ")", ":", "\n    ", "# comment {k}\n", "'", '"""', "x = Storm{j}()\n", "    "]
QUERIES = ["storm helper run", "Storm.run", "helper_3"]
COUNT_KEYS = ("files", "symbols", "resolvedEdges", "unresolvedCalls", "languages")
TALLY = {"edits": 0, "mismatches": 0, "requests": 0, "failed": 0}


_EOL = re.compile(r"\r\n|\r|\n")  # LSP: \r\n, \r and \n all end a line (editors count a lone \r)


def _position(text: str, offset: int) -> dict:
    """The LSP position (UTF-16 columns) of a code-point offset."""
    ends = [m.end() for m in _EOL.finditer(text, 0, offset)]
    col_text = text[ends[-1] if ends else 0 : offset]
    return {"line": len(ends), "character": len(col_text.encode("utf-16-le")) // 2}


def _not_inside_crlf(text: str, offset: int) -> int:
    return offset + 1 if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n" else offset


def _random_edit(rng: random.Random, text: str, k: int) -> tuple[str, dict]:
    """A new text and the LSP content change that produces it from `text`."""
    if rng.random() < 0.01:
        new = text + f"\ndef full_{k}():\n    return 1\n"
        return new, {"text": new}
    start = _not_inside_crlf(text, rng.randint(0, len(text)))  # no LSP position can say "between \r and \n"
    if rng.random() < 0.4 and text:
        end = _not_inside_crlf(text, min(len(text), start + rng.randint(1, 40)))
    else:
        end = start
    insert = rng.choice(SNIPPETS).format(k=k, j=rng.randint(0, 9)) if rng.random() < 0.8 else ""
    change = {"range": {"start": _position(text, start), "end": _position(text, end)}, "text": insert}
    return text[:start] + insert + text[end:], change


def _fresh(root: Path, texts: dict[str, str], tmp: Path) -> RootIndex:
    """A fresh index of the final texts: the workspace on disk with the open buffers written over it."""
    import shutil

    copy = tmp / "fresh"
    shutil.copytree(root, copy)
    for rel, text in texts.items():
        (copy / rel).write_bytes(text.encode("utf-8", "surrogatepass"))
    index = RootIndex(copy, ScopeConfig(), use_cache=False)
    index.build(workers=1)
    return index


def _wait_for(client: RawClient, expected: dict, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    while True:
        got = client.request("codegraph/status", {})["result"]["roots"][0]
        if all(got[k] == expected[k] for k in COUNT_KEYS) or time.monotonic() > end:
            return got
        time.sleep(0.1)


def _storm(client: RawClient, root: Path, texts: dict[str, str], n_edits: int, seed: int, interleave: bool) -> list[int]:
    rng = random.Random(seed)
    versions = {rel: 1 for rel in texts}
    pending: list[int] = []
    names = sorted(texts)
    for k in range(n_edits):
        rel = rng.choice(names)
        texts[rel], change = _random_edit(rng, texts[rel], k)
        versions[rel] += 1
        client.notify("textDocument/didChange", {"textDocument": {"uri": (root / rel).as_uri(), "version": versions[rel]},
                                                 "contentChanges": [change]})
        TALLY["edits"] += 1
        if interleave and k % 40 == 0:
            pending.append(client.send_request("codegraph/explore", {"query": rng.choice(QUERIES)}))
            if k % 200 == 0:
                pending.append(client.send_request("codegraph/distill", {"format": rng.choice(["json", "markdown"])}))
    return pending


def _open_all(client: RawClient, root: Path, texts: dict[str, str]) -> None:
    for rel, text in texts.items():
        language = "typescript" if rel.endswith(".ts") else "python"
        client.notify("textDocument/didOpen", {"textDocument": {"uri": (root / rel).as_uri(), "languageId": language, "version": 1, "text": text}})


def _compare(client: RawClient, root: Path, texts: dict[str, str], tmp: Path) -> None:
    fresh = _fresh(root, texts, tmp)
    expected = fresh.status()
    got = _wait_for(client, expected)
    mismatched = [k for k in COUNT_KEYS if got[k] != expected[k]]
    for query in QUERIES:
        served = client.request("codegraph/explore", {"query": query})["result"]
        local = run_explore(fresh, {"query": query})
        if served["text"] != local["text"] or served["files"] != local["files"]:
            mismatched.append(f"explore {query!r}")
    TALLY["mismatches"] += len(mismatched)
    assert not mismatched, f"served index differs from a fresh index of the final texts: {mismatched}\nserved {got}\nfresh {expected}"
