"""The language server through the real protocol: pytest-lsp drives `python -m codegraph.lsp`."""

from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import SERVER_CMD

SAMPLE = '''"""A tiny service."""


class Store:
    def save(self, item):
        return item


def run():
    store = Store()
    return store.save(1)


if __name__ == "__main__":
    run()
'''


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    (root / "app.py").write_text(SAMPLE)
    (root / "util.py").write_text("def helper():\n    return 1\n")
    cache = tmp_path_factory.mktemp("cache")
    lsp_client.root = root
    lsp_client.progress_seen = []
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True)),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options={"cacheDir": str(cache)},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def _status(client: LanguageClient) -> dict:
    for _ in range(200):
        result = await client.protocol.send_request_async("codegraph/status", {})
        if result.ready:
            return result
        await asyncio.sleep(0.05)
    raise AssertionError("index never became ready")


async def test_status_counts_files_and_symbols(client: LanguageClient):
    status = await _status(client)
    root = status.roots[0]
    assert root.files == 2
    assert root.symbols == 4  # Store, Store.save, run, helper
    assert root.resolvedEdges >= 2  # run → Store (constructs), run → ... at least construct + main guard call
    assert root.languages.python == 2


async def test_progress_begin_and_end_reported(client: LanguageClient):
    await _status(client)
    kinds = [getattr(v, "kind", None) for values in client.progress_reports.values() for v in values]
    assert "begin" in kinds and "end" in kinds


async def test_did_change_adding_a_method_shows_in_status(client: LanguageClient):
    before = (await _status(client)).roots[0].symbols
    uri = (client.root / "app.py").as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SAMPLE)))
    insert_at = types.Position(line=6, character=0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(insert_at, insert_at), text="    def load(self, key):\n        return key\n\n")],
        )
    )
    for _ in range(100):
        after = (await _status(client)).roots[0].symbols
        if after == before + 1:
            break
        await asyncio.sleep(0.05)
    assert after == before + 1


async def test_a_gitignore_change_reported_by_the_watcher_takes_files_out(client: LanguageClient):
    assert (await _status(client)).roots[0].files == 2
    gitignore = client.root / ".gitignore"
    gitignore.write_text("util.py\n")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=gitignore.as_uri(), type=types.FileChangeType.Created)]))
    for _ in range(100):
        root = (await _status(client)).roots[0]
        if root.files == 1:
            break
        await asyncio.sleep(0.05)
    assert root.files == 1 and root.symbols == 3
    assert {"path": "util.py", "reason": ".gitignore"} in [{"path": s.path, "reason": s.reason} for s in root.skipped]


@pytest.mark.parametrize(
    "params, field",
    [
        ({}, "query"),
        ({"query": 42}, "query"),
        ({"query": "   "}, "query"),
        ({"query": "x", "maxOutputChars": 10}, "maxOutputChars"),
        ({"query": "x", "maxOutputChars": "big"}, "maxOutputChars"),
        ({"query": "x", "adaptive": "yes"}, "adaptive"),
        ({"query": "x", "rootUri": "file:///nowhere"}, "rootUri"),
    ],
)
async def test_malformed_explore_params_get_invalid_params(client: LanguageClient, params: dict, field: str):
    await _status(client)
    with pytest.raises(Exception) as info:
        await client.protocol.send_request_async("codegraph/explore", params)
    assert getattr(info.value, "code", None) == -32602
    assert field in str(info.value)
    assert (await _status(client)).ready  # still serving


async def test_explore_through_the_protocol_sees_the_next_edit(client: LanguageClient):
    await _status(client)
    result = await client.protocol.send_request_async("codegraph/explore", {"query": "How does run use Store.save?"})
    assert "def run():" in result.text and result.stats.chars == len(result.text)
    uri = (client.root / "util.py").as_uri()
    original = "def helper():\n    return 1\n"
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=original)))
    end = types.Position(line=2, character=0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(end, end), text="\n\ndef brand_new_helper_fn():\n    zebra_quokka = helper()\n    return zebra_quokka\n")],
        )
    )
    for _ in range(100):
        result = await client.protocol.send_request_async("codegraph/explore", {"query": "brand_new_helper_fn"})
        if "def brand_new_helper_fn" in result.text:
            break
        await asyncio.sleep(0.05)
    assert "def brand_new_helper_fn" in result.text
    # in plain words too, which only its body says: the word index carried to the new version has them
    result = await client.protocol.send_request_async("codegraph/explore", {"query": "Where is the zebra quokka computed?"})
    assert "def brand_new_helper_fn" in result.text


async def test_explore_text_is_byte_identical_to_the_cli(client: LanguageClient):
    import subprocess
    import sys

    await _status(client)
    query = "How does run construct Store and call Store.save?"
    result = await client.protocol.send_request_async("codegraph/explore", {"query": query})
    cli = subprocess.run(
        [sys.executable, "-m", "codegraph.cli", "explore", str(client.root), query, "--no-cache"],
        capture_output=True, check=True,
    )
    assert cli.stdout.decode("utf-8") == result.text + "\n"


async def test_workspace_folders_added_and_removed_are_indexed_and_dropped(client: LanguageClient, tmp_path):
    await _status(client)
    other = tmp_path / "other"
    other.mkdir()
    (other / "lib.py").write_text("def one():\n    return 1\n\n\ndef two():\n    return one()\n")
    first = types.WorkspaceFolder(uri=client.root.as_uri(), name="ws")
    added = types.WorkspaceFolder(uri=other.as_uri(), name="other")
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(added=[added], removed=[])))
    for _ in range(100):
        roots = (await _status(client)).roots
        if len(roots) == 2:
            break
        await asyncio.sleep(0.05)
    assert {(r.rootUri, r.files, r.symbols) for r in roots} >= {(other.as_uri(), 1, 2)}
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(added=[], removed=[first])))
    for _ in range(100):
        roots = (await _status(client)).roots
        if len(roots) == 1:
            break
        await asyncio.sleep(0.05)
    assert [r.rootUri for r in roots] == [other.as_uri()]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD))
async def watching_client(lsp_client: LanguageClient, tmp_path_factory):
    """A client that lets servers register file watchers (VS Code, Neovim 0.10+ when enabled)."""
    root = tmp_path_factory.mktemp("ws")
    (root / "app.py").write_text(SAMPLE)
    lsp_client.root = root
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        lsp_client.registrations.extend(params.registrations)

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True))),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")],
            initialization_options={"noCache": True},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_the_server_asks_a_capable_client_to_watch_sources_and_gitignore(watching_client: LanguageClient):
    await _status(watching_client)
    for _ in range(100):
        if watching_client.registrations:
            break
        await asyncio.sleep(0.05)
    (registration,) = watching_client.registrations
    assert registration.method == "workspace/didChangeWatchedFiles"
    globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in _watchers(registration.register_options)]
    assert "**/.gitignore" in globs
    assert any(g.startswith("**/*.{") and "py" in g[5:-1].split(",") and "rs" in g[5:-1].split(",") for g in globs)


def _watchers(options) -> list:
    return options["watchers"] if isinstance(options, dict) else options.watchers



async def test_a_question_that_matches_nothing_says_why_and_what_to_try(client: LanguageClient):
    # before: "## Flow\n\nNo named symbol matched; files are ranked by relevance to the question." and nothing else
    await _status(client)
    result = await client.protocol.send_request_async("codegraph/explore", {"query": "how does it work?"})
    assert result.files == [] and result.flow == []
    assert "No symbol or call flow matched “how does it work?”" in result.text
    assert "Indexed: 2 supported files" in result.text
    assert "Try naming a function, class or file" in result.text
    assert "- `Store` (class) — app.py:4" in result.text  # the closest candidates, with where they are
    assert len(result.text) == result.stats.chars <= result.stats.budget
