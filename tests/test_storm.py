"""A typing storm through the real protocol: 1,000 random incremental edits at full speed over
several open files, explore and distill interleaved. No request fails, and the final index equals
a fresh index of the final texts (status counts and explore output). Edits sent while the first
index is still being built are not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import RawClient, sample, write_repo
from storm import TALLY, _compare, _open_all, _storm


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
