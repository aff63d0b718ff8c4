"""The language server on a workspace with hostile configuration (fixtures/config): a lone `!` in a
nested .gitignore, reversed ranges, broken manifests of every kind. Through the real protocol the
index becomes ready, the skipped line is in the status, and explore and distill answer."""

from __future__ import annotations

import shutil

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import FIXTURES, SERVER_CMD, status_when_ready


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    for name in ("hostile-ignores", "hostile-manifests"):
        shutil.copytree(FIXTURES / "config" / name, root / name)
    (root / "hostile-manifests" / "package.json").write_bytes(b"[" * 100_000)  # nested past any parser's recursion
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options={"cacheDir": str(tmp_path_factory.mktemp("cache"))},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_hostile_configuration_reaches_ready_and_reports_the_line(client: LanguageClient):
    root = (await status_when_ready(client)).roots[0]
    assert root.files >= 8
    skipped = {s.path: s.reason for s in root.skipped}
    assert "'!'" in skipped["hostile-ignores/x/.gitignore:1"]
    assert skipped["hostile-ignores/x/local_tmp.py"] == ".gitignore"


async def test_explore_and_distill_answer_on_hostile_configuration(client: LanguageClient):
    await status_when_ready(client)
    explore = await client.protocol.send_request_async("codegraph/explore", {"query": "How does main reach run_loop?"})
    assert "run_loop" in explore.text
    distill = await client.protocol.send_request_async("codegraph/distill", {"format": "json"})
    assert distill.pack.sources
