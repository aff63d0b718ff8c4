"""Shared test helpers: fixture paths and an LSP client fixture over the real stdio server."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# helpers shared with the benches live in bench/ (hostile.py, storm.py, planted.py): a bench runs
# with the README's install, which has no test extras
sys.path.insert(0, str(REPO / "bench"))
FIXTURES = REPO / "fixtures"
SERVER_CMD = [sys.executable, "-m", "codegraph.lsp"]


_fixture_indexes: dict[Path, object] = {}


def fixture_index(root: Path):
    """A fixture repository's index, built once per test session (uncached on disk, one worker):
    the property tests ask many questions of the same small repositories."""
    if root not in _fixture_indexes:
        from codegraph.index.index import RootIndex

        idx = RootIndex(root, use_cache=False)
        idx.build(workers=1)
        _fixture_indexes[root] = idx
    return _fixture_indexes[root]


@pytest.fixture
def workspace(tmp_path: Path):
    """Copies a fixture folder into a temp dir, so tests can edit files freely."""

    def make(name: str) -> Path:
        dst = tmp_path / Path(name).name
        shutil.copytree(FIXTURES / name, dst)
        return dst

    return make


async def status_when_ready(client):
    """`codegraph/status` once the language server's first index is ready (pytest-lsp client)."""
    for _ in range(400):
        result = await client.protocol.send_request_async("codegraph/status", {})
        if result.ready:
            return result
        await asyncio.sleep(0.05)
    raise AssertionError("index never became ready")
