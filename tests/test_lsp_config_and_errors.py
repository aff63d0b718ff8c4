"""What the language server tells the user about its configuration and its refusals:

- a workspace folder it cannot index stays a folder: status lists it with the reason, a request
  for it (named or by default) fails with -32803 naming the reason, the user is told once;
- initializationOptions: editor language ids, the valid entries of a list kept, types checked,
  every problem shown once (window/showMessage) and logged, the options declared in
  model/protocol.json and documented in docs/protocol.md;
- an expected request error (-32602, -32803) is one INFO line in the log, not an ERROR with a
  traceback (editors show the log as the server's output); an unexpected one keeps its traceback;
- evidence refuses an unknown field inside a source, naming it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import FIXTURES, REPO, SERVER_CMD, status_when_ready
from hostile import RawClient
from codegraph import service
from codegraph.lsp import server as lsp_server
from codegraph.lsp.server import LANGUAGE_NAMES, OPTIONS, ExpectedErrorsAreNotCrashes, JsonRpcRequestFailed, parse_options
from codegraph.model import protocol
from codegraph.model.fields import InvalidParams, RequestFailed
from codegraph.service import IndexOptions, Workspace
from codegraph.workspace.scope import DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES_BOUNDS

APP = "def main():\n    return helper()\n\n\ndef helper():\n    return 1\n"


# ---- a workspace folder that cannot be indexed ------------------------------------------------
@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    """Three folders: one that does not exist (first), one of a virtual file system, one indexed."""
    base = tmp_path_factory.mktemp("ws")
    good = base / "good"
    good.mkdir()
    (good / "app.py").write_text(APP)
    missing = base / "missing"
    lsp_client.folders = {"missing": missing.as_uri(), "virtual": "vscode-vfs://github/acme/shop", "good": good.as_uri()}
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=uri, name=name) for name, uri in lsp_client.folders.items()],
        initialization_options={"noCache": True}))
    yield
    await lsp_client.shutdown_session()


async def test_a_folder_that_cannot_be_indexed_stays_listed_and_its_requests_say_why(client: LanguageClient):
    folders = client.folders
    status = await status_when_ready(client)
    roots = {r.rootUri: r for r in status.roots}
    assert list(roots) == list(folders.values()), "every folder, in the workspace's order"
    assert "does not exist" in roots[folders["missing"]].error and roots[folders["missing"]].files == 0
    assert "only local folders" in roots[folders["virtual"]].error
    assert roots[folders["good"]].files == 1 and not hasattr(roots[folders["good"]], "error")

    send = client.protocol.send_request_async
    for params in ({"query": "main"}, {"query": "main", "rootUri": folders["missing"]}):  # by default: the first folder
        with pytest.raises(JsonRpcException) as failed:
            await send("codegraph/explore", params)
        assert failed.value.code == -32803 and "does not exist" in failed.value.message, params
    with pytest.raises(JsonRpcException) as failed:
        await send("codegraph/symbols", {"query": "main", "rootUri": folders["virtual"]})
    assert failed.value.code == -32803 and "only local folders" in failed.value.message
    assert (await send("codegraph/explore", {"query": "main", "rootUri": folders["good"]})).files
    one = await send("codegraph/status", {"rootUri": folders["missing"]})
    assert [r.rootUri for r in one.roots] == [folders["missing"]] and "does not exist" in one.roots[0].error

    shown = [m.message for m in client.messages if m.type == types.MessageType.Warning]
    assert len(shown) == 1 and "does not exist" in shown[0] and "only local folders" in shown[0], shown


async def test_a_folder_added_later_that_cannot_be_indexed_is_listed_with_its_reason(client: LanguageClient, tmp_path: Path):
    await status_when_ready(client)
    gone = (tmp_path / "gone").as_uri()
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(added=[types.WorkspaceFolder(uri=gone, name="gone")], removed=[])))
    for _ in range(100):
        roots = {r.rootUri: r for r in (await client.protocol.send_request_async("codegraph/status", {})).roots}
        if gone in roots:
            break
        await asyncio.sleep(0.05)
    assert "does not exist" in roots[gone].error
    with pytest.raises(JsonRpcException) as failed:
        await client.protocol.send_request_async("codegraph/calls", {"symbol": "main", "rootUri": gone})
    assert failed.value.code == -32803
    client.workspace_did_change_workspace_folders(types.DidChangeWorkspaceFoldersParams(
        event=types.WorkspaceFoldersChangeEvent(added=[], removed=[types.WorkspaceFolder(uri=gone, name="gone")])))
    for _ in range(100):
        roots = {r.rootUri for r in (await client.protocol.send_request_async("codegraph/status", {})).roots}
        if gone not in roots:
            break
        await asyncio.sleep(0.05)
    assert gone not in roots


def test_every_transport_refuses_a_folder_without_an_index_the_same_way(tmp_path: Path):
    """The service decides (the CLI and MCP check their one root before they start, so only the
    language server meets such folders, but a request on one reads the same everywhere)."""
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    missing = (tmp_path / "missing").as_uri()
    assert workspace.add_root(missing) is None
    workspace.build_now()
    with pytest.raises(RequestFailed, match="does not exist"):
        workspace.answer_now(service.EXPLORE, {"query": "main"})
    [root] = workspace.answer_now(service.STATUS, {})["roots"]
    assert root["rootUri"] == missing and "does not exist" in root["error"]
    with pytest.raises(InvalidParams, match="must be one of the workspace folders"):
        Workspace(service.LSP).select_folder({"rootUri": missing})
    waiting = Workspace(service.LSP)
    waiting.add_root(missing)
    assert "does not exist" in waiting._status({})["roots"][0]["error"], "also while the first index is built"


# ---- initializationOptions ----------------------------------------------------------------------
def test_languages_take_editor_language_ids_and_keep_the_valid_entries():
    opts, problems = parse_options({"languages": ["python", "typescriptreact", "javascriptreact"]})
    assert opts.languages == {"python", "tsx", "javascript"} and problems == []
    opts, problems = parse_options({"languages": ["python", "cobol", 3]})
    assert opts.languages == {"python"}
    [problem] = problems
    assert '"cobol", 3 are not a language' in problem and "indexing python" in problem and "typescriptreact" in problem
    opts, [problem] = parse_options({"languages": ["cobol"]})
    assert opts.languages is None and "indexing all" in problem
    assert set(protocol.LANGUAGES) <= set(LANGUAGE_NAMES), "every editor language id the clients attach to"


@pytest.mark.parametrize("value", ["false", "true", 0, 1, [], {}])
def test_no_cache_must_be_a_boolean(value):
    opts, [problem] = parse_options({"noCache": value})
    assert opts.use_cache and problem.startswith("noCache must be a boolean"), problem
    assert parse_options({"noCache": True})[0].use_cache is False
    assert parse_options({"noCache": False})[0].use_cache is True
    assert parse_options({"noCache": None}) == parse_options({}), "null counts as absent"


def test_the_options_are_declared_and_documented():
    declared = protocol.PROTOCOL["initializationOptions"]
    assert declared is OPTIONS
    for key in declared:  # each declared option is taken (no "unknown option" problem)
        assert not any("unknown option" in p for p in parse_options({key: None})[1])
    assert parse_options({"bogus": 1})[1] == [f"unknown option 'bogus' ignored (options: {', '.join(declared)})"]
    size = declared["maxFileBytes"]
    assert (size["minimum"], size["maximum"]) == MAX_FILE_BYTES_BOUNDS and size["default"] == DEFAULT_MAX_FILE_BYTES
    lo, hi = MAX_FILE_BYTES_BOUNDS
    assert parse_options({"maxFileBytes": lo})[0].max_file_bytes == lo and parse_options({"maxFileBytes": hi})[0].max_file_bytes == hi
    assert parse_options({"maxFileBytes": lo - 1})[0].max_file_bytes == DEFAULT_MAX_FILE_BYTES
    lifecycle = (REPO / "docs" / "protocol.md").read_text().split("## Lifecycle", 1)[1].split("\n## ", 1)[0]
    for key in declared:
        assert f"`{key}`" in lifecycle, f"docs/protocol.md Lifecycle does not document {key}"
    assert f"{lo:,}–{hi:,}" in lifecycle
    for name in LANGUAGE_NAMES:
        assert f"`{name}`" in lifecycle, f"docs/protocol.md Lifecycle does not name the language {name}"


def test_option_problems_reach_the_user_once_and_the_valid_values_apply(tmp_path: Path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "view.tsx").write_text("export function View() {\n  return helper();\n}\n")
    (root / "main.go").write_text("package main\n\nfunc main() {}\n")
    options = {"languages": ["python", "typescriptreact", "cobol"], "noCache": "false", "maxFileBytes": 500, "colour": "red"}
    client = RawClient(root, options, stderr_path=tmp_path / "server.log")
    try:
        status = client.wait_ready()
        assert status["roots"][0]["languages"] == {"python": 1, "tsx": 1}, "the valid entries of `languages` apply"
        shown = [n["params"] for n in client.notifications if n["method"] == "window/showMessage"]
    finally:
        client.close()
    assert len(shown) == 1 and shown[0]["type"] == types.MessageType.Warning, shown
    message = shown[0]["message"]
    for expected in ("maxFileBytes must be between 1,000 and 100,000,000 (got 500)", "noCache must be a boolean",
                     '"cobol" is not a language', "unknown option 'colour'"):
        assert expected in message, message
    log = (tmp_path / "server.log").read_text()
    assert "initializationOptions: noCache must be a boolean" in log


# ---- expected request errors are not crashes in the log -----------------------------------------
def test_refused_and_failed_requests_log_one_info_line_without_a_traceback(tmp_path: Path):
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "distill" / "py-service", root)
    client = RawClient(root, {"noCache": True}, stderr_path=tmp_path / "server.log")
    try:
        client.wait_ready()
        refused = client.request("codegraph/explore", {"query": "x", "maxOutputChars": 5})
        assert refused["error"]["code"] == -32602
        failed = client.request("codegraph/distill", {"format": "json", "budgetBytes": 512})
        assert failed["error"]["code"] == -32803, failed
        assert client.request("codegraph/status", {})["result"]["ready"]
    finally:
        client.close()
    log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in log and " ERROR " not in log, log
    assert re.search(r"INFO codegraph\.lsp: request \d+ answered with error -32602: invalid params: `maxOutputChars`", log), log
    assert re.search(r"INFO codegraph\.lsp: request \d+ answered with error -32803: ", log), log


def _record(exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        return logging.getLogger("pygls.protocol.json_rpc").makeRecord(
            "pygls.protocol.json_rpc", logging.ERROR, __file__, 1, 'Exception occurred for message "%s"', ("7",), sys.exc_info())


def test_only_the_expected_errors_are_demoted(caplog):
    installed = logging.getLogger("pygls.protocol.json_rpc").filters
    assert any(isinstance(f, ExpectedErrorsAreNotCrashes) for f in installed), "installed when the server module loads"
    demote = ExpectedErrorsAreNotCrashes()
    with caplog.at_level(logging.INFO, logger="codegraph.lsp"):
        assert demote.filter(_record(JsonRpcInvalidParams("invalid params: `x` is bad"))) is False
        assert demote.filter(_record(JsonRpcRequestFailed("knowledge pack not delivered"))) is False
        assert demote.filter(_record(RuntimeError("a bug"))) is True, "an unexpected exception keeps its ERROR and traceback"
        assert demote.filter(_record(JsonRpcException("internal"))) is True
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "codegraph.lsp"] == [
        ("INFO", "request 7 answered with error -32602: invalid params: `x` is bad"),
        ("INFO", "request 7 answered with error -32803: knowledge pack not delivered")]
    assert lsp_server.log.name == "codegraph.lsp"


# ---- evidence: a source's fields ---------------------------------------------------------------
def test_evidence_refuses_an_unknown_field_inside_a_source(tmp_path: Path):
    (tmp_path / "app.py").write_text(APP)
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    workspace.add_root(tmp_path.as_uri())
    workspace.build_now()
    source = {"path": "app.py", "lines": [1, 2], "sha256": "0" * 64}
    assert workspace.answer_now(service.EVIDENCE, {"sources": [source]})["blocks"]
    for extra, field in (({"extra": 1}, "sources[1].extra"), ({"line": [1, 2]}, "sources[1].line"), ({" ": 1}, 'sources[1]." "')):
        with pytest.raises(InvalidParams) as refused:
            workspace.answer_now(service.EVIDENCE, {"sources": [source, {**source, **extra}]})
        assert refused.value.field == field and refused.value.rule == "is not a field of a source (fields: path, lines, sha256)"
    items = protocol.param("evidence", "sources")["items"]
    assert items["additionalProperties"] is False and set(items["properties"]) == {"path", "lines", "sha256"}
