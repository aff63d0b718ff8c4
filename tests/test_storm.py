"""A typing storm through the real protocol: 1,000 random incremental edits at full speed over
several open files, explore and distill interleaved. No request fails, and the final index equals
a fresh index of the final texts (status counts and explore output). Edits sent while the first
index is still being built are not lost."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.requests import run_explore
from codegraph.workspace.scope import ScopeConfig
from corpus.hostile import RawClient, sample, write_repo

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


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "ws"
    root.mkdir()
    texts = {}
    for i in range(4):
        body = sample("python", 5).decode().replace("def f", f"def helper_{i}").replace("return f", "return helper_")
        texts[f"mod{i}.py"] = body
    texts["web.ts"] = sample("typescript", 4).decode()
    for rel, text in texts.items():
        (root / rel).write_text(text)
    (root / "stable.py").write_text("def helper_9(x):\n    return x\n")
    return root, texts


@pytest.mark.parametrize("seed", [6, 11])
def test_a_thousand_edits_with_interleaved_requests_leave_an_exact_index(workspace, tmp_path: Path, seed: int):
    root, texts = workspace
    client = RawClient(root, {"noCache": True}, stderr_path=tmp_path / "server.log")
    try:
        client.wait_ready()
        _open_all(client, root, texts)
        pending = _storm(client, root, texts, 1_000, seed=seed, interleave=True)
        for msg_id in pending:
            response = client.wait(msg_id, timeout=120)
            TALLY["requests"] += 1
            if response is None or "error" in response:
                TALLY["failed"] += 1
            assert response is not None and "result" in response, response
        _compare(client, root, texts, tmp_path)
        assert client.proc.poll() is None
    finally:
        client.close()


def test_edits_sent_during_the_first_index_are_not_lost(tmp_path: Path):
    root = tmp_path / "big"
    root.mkdir()
    write_repo(root, 400)
    texts = {"early.py": "def early_0():\n    return 0\n"}
    (root / "early.py").write_text(texts["early.py"])
    client = RawClient(root, {"noCache": True}, stderr_path=tmp_path / "server.log")
    try:
        _open_all(client, root, texts)  # straight after `initialized`: the first index is still running
        _storm(client, root, texts, 200, seed=7, interleave=False)
        first = client.request("codegraph/status", {})["result"]
        assert not first["ready"], "the first index finished before the edits: make the workspace bigger"
        client.wait_ready()
        _compare(client, root, texts, tmp_path)
    finally:
        client.close()


def test_a_lone_carriage_return_ends_a_line_as_lsp_says():
    # before: sync counted only \n, so every edit below a lone \r (old Mac endings, pasted text)
    # landed on the wrong line and the index silently diverged from the editor
    from codegraph.lsp.sync import Change, apply_changes

    text = "ab\rcd\r\nef\n"
    assert apply_changes(text, [Change("X", (1, 1, 1, 1))])[0] == "ab\rcXd\r\nef\n"
    assert apply_changes(text, [Change("Y", (2, 0, 2, 0))])[0] == "ab\rcd\r\nYef\n"
    assert apply_changes(text, [Change("Z", (1, 9, 1, 9))])[0] == "ab\rcdZ\r\nef\n"  # past the end clamps before the terminator


def teardown_module(module) -> None:
    print(f"\nstorm: {TALLY['edits']} edits, {TALLY['requests']} interleaved requests ({TALLY['failed']} failed), "
          f"{TALLY['mismatches']} mismatches")
