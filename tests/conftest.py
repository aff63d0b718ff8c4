"""Shared test helpers: fixture paths and an LSP client fixture over the real stdio server."""

from __future__ import annotations

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


@pytest.fixture
def workspace(tmp_path: Path):
    """Copies a fixture folder into a temp dir, so tests can edit files freely."""

    def make(name: str) -> Path:
        dst = tmp_path / Path(name).name
        shutil.copytree(FIXTURES / name, dst)
        return dst

    return make
