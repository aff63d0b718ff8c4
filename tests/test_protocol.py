"""One declaration of the protocol, `server/codegraph/model/protocol.json`, and every side held to it.

The server reads its limits and tiers from the declaration, but these tests check what each side
*does or says*, so a field, limit or language added on one side only fails here:

- the server's validation at every declared bound (the service, as every transport calls it);
- the server's answers over the real language server: exactly the declared fields, of the declared kinds;
- the MCP tool schemas: the declared params, nothing more;
- the VS Code client: lsp_ext.ts (every interface, field, optionality, type, method, enum, limit in a
  field's comment, the language list) and package.json (languages, settings' limits);
- the Neovim plugin: its filetypes, the request options it passes, the result fields it reads;
- the languages the index parses.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import FIXTURES, REPO, SERVER_CMD
from codegraph import service
from codegraph.languages import SPECS
from codegraph.model import protocol
from codegraph.model.fields import InvalidParams, RequestFailed
from codegraph.service import IndexOptions, Workspace
from test_transports import ENV, _keep_results_raw

P = protocol.PROTOCOL
REQUESTS = ("explore", "distill", "evidence", "status", "symbols", "calls", "impact")
LSP_EXT = REPO / "vscode-client" / "src" / "lsp_ext.ts"
PACKAGE_JSON = REPO / "vscode-client" / "package.json"
NVIM = REPO / "nvim-client" / "lua" / "codegraph" / "init.lua"


def declared_fields(type_name: str) -> dict[str, tuple[str, bool]]:
    """field → (TypeScript type, optional) of a declared result type."""
    return {name.rstrip("?"): (ts, name.endswith("?")) for name, ts in P["types"][type_name].items()}


# ---- the server's validation ------------------------------------------------------------------
@pytest.fixture(scope="module")
def answer(tmp_path_factory):
    """Answers a request the way every transport does (the service), on a one-file workspace."""
    root = tmp_path_factory.mktemp("proto")
    (root / "app.py").write_text("def main():\n    return helper()\n\n\ndef helper():\n    return 1\n")
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    workspace.add_root(root.as_uri())
    workspace.build_now()
    yield workspace.answer_now
    workspace.close()


# a valid request of each kind, which the bound under test is added to
BASE = {"explore": {"query": "main"}, "distill": {"scenario": "query", "question": "main", "format": "json"},
        "evidence": {"sources": [{"path": "app.py", "lines": [1, 2], "sha256": "0" * 64}]}, "status": {},
        "symbols": {"query": "main"}, "calls": {"symbol": "main"}, "impact": {"changes": ["app.py:2"]}}


def _at_bounds(name: str, schema: dict) -> list[tuple[object, bool]]:
    """(value, accepted?) at each declared bound of one field."""
    if schema["type"] == "integer":
        lo, hi = schema["minimum"], schema["maximum"]
        return [(lo, True), (hi, True), (lo - 1, False), (hi + 1, False)]
    if schema["type"] == "string" and "maxLength" in schema:
        return [("x" * schema["maxLength"], True), ("x" * (schema["maxLength"] + 1), False)]
    if schema["type"] == "string" and "enum" in schema:
        return [(value, True) for value in schema["enum"]] + [("bogus", False)]
    if schema["type"] == "array" and name == "sources":
        one = BASE["evidence"]["sources"][0]
        return [([one] * schema["maxItems"], True), ([one] * (schema["maxItems"] + 1), False), ([], False)]
    if schema["type"] == "array" and name == "changes":
        return [(["app.py:2"] * schema["maxItems"], True), (["app.py:2"] * (schema["maxItems"] + 1), False), ([], False)]
    if schema["type"] == "array":
        return [([], True), ([{}] * (schema["maxItems"] + 1), False)]
    return [(True, True), (False, True), ("yes", False)]  # boolean


@pytest.mark.parametrize("request_name", REQUESTS)
def test_the_server_refuses_exactly_outside_the_declared_bounds(answer, request_name):
    for name, schema in protocol.params(request_name).items():
        for value, accepted in _at_bounds(name, schema):
            params = {**BASE[request_name], name: value}
            if name == "scenario" and value == "overview":
                params.pop("question")
            if accepted:
                try:
                    answer(request_name, params)
                except RequestFailed:  # understood, but e.g. no pack fits 512 bytes: not refused as invalid
                    pass
                except InvalidParams as looked_up:  # valid, but names no unit of the index (the lookup, not the bound)
                    assert looked_up.rule.startswith("names no"), (request_name, name, looked_up)
            else:
                with pytest.raises(InvalidParams) as refused:
                    answer(request_name, params)
                assert refused.value.field == name, (request_name, name, value, refused.value)


def test_the_default_explore_budget_is_the_declared_tier(answer):
    assert answer("explore", {"query": "main"})["stats"]["budget"] == P["requests"]["explore"]["budgetTiers"][0]["maxOutputChars"]
    from codegraph.requests import default_explore_budget

    below = 0
    for tier in P["requests"]["explore"]["budgetTiers"]:
        assert default_explore_budget(below) == tier["maxOutputChars"]
        below = tier["filesBelow"]


def test_the_requests_take_exactly_the_declared_fields(answer):
    for request_name in REQUESTS:
        assert service.FIELDS[request_name] == tuple(protocol.params(request_name))
        with pytest.raises(InvalidParams, match="is not a parameter"):
            answer(request_name, {**BASE[request_name], "undeclared": 1})
    assert service.LSP.routing == tuple(P["routing"])


def test_the_declared_languages_are_the_indexed_ones():
    from codegraph.render.markdown import FENCE_LANG

    declared = sorted(ext for exts in protocol.LANGUAGES.values() for ext in exts)
    assert declared == sorted(ext for spec in SPECS for ext in spec.extensions)
    assert declared == sorted(FENCE_LANG), "every indexed file's code block names its language"


# ---- the server's answers --------------------------------------------------------------------
def check_shape(value, ts: str, where: str) -> None:
    """`value` is of the declared TypeScript type: a declared object has exactly its fields."""
    if ts.endswith(" | null"):
        if value is not None:
            check_shape(value, ts.removesuffix(" | null"), where)
        return
    if ts.endswith("[]"):
        assert isinstance(value, list), where
        for n, item in enumerate(value):
            check_shape(item, ts[:-2], f"{where}[{n}]")
        return
    kinds = {"number": (int, float), "string": str, "boolean": bool}
    if ts in kinds:
        assert isinstance(value, kinds[ts]) and (ts == "boolean" or not isinstance(value, bool)), (where, value)
        return
    if ts not in P["types"]:
        return  # opaque (the pack) or a union lsp_ext.ts spells out
    fields = declared_fields(ts)
    assert isinstance(value, dict), where
    assert set(value) <= set(fields), f"{where}: {sorted(set(value) - set(fields))} not declared in protocol.json types.{ts}"
    missing = {f for f, (_, optional) in fields.items() if not optional} - set(value)
    assert not missing, f"{where}: the server did not send {sorted(missing)}"
    for name, item in value.items():
        check_shape(item, fields[name][0], f"{where}.{name}")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_CMD, server_env=ENV))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws") / "py-service"
    shutil.copytree(FIXTURES / "distill" / "py-service", root)
    _keep_results_raw(lsp_client)
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), workspace_folders=[lsp.WorkspaceFolder(uri=root.as_uri(), name="ws")],
        initialization_options={"noCache": True}))
    yield
    await lsp_client.shutdown_session()


async def test_the_servers_answers_have_exactly_the_declared_fields(client: LanguageClient):
    send = client.protocol.send_request_async
    answers = {
        "status": await send("codegraph/status", {}),
        "explore": await send("codegraph/explore", {"query": "How does SqliteStore.save persist a note?"}),
        "explore (nothing matched)": await send("codegraph/explore", {"query": "zqxj vwkp"}),
        "distill json": await send("codegraph/distill", {"format": "json"}),
        "distill markdown": await send("codegraph/distill", {"format": "markdown"}),
    }
    pack = answers["distill json"]["pack"]
    source = pack["sources"][0]
    cited = pack["files"][source["file"]]
    answers["evidence"] = await send("codegraph/evidence", {"sources": [{"path": cited["path"], "lines": source["lines"], "sha256": cited["sha256"]}]})
    answers["symbols"] = await send("codegraph/symbols", {"query": "save"})
    answers["calls"] = await send("codegraph/calls", {"symbol": "SqliteStore.save", "depth": 2})
    answers["calls (callees)"] = await send("codegraph/calls", {"symbol": "SqliteStore.save", "direction": "callees"})
    answers["impact"] = await send("codegraph/impact", {"changes": ["notes/store.py:16"]})
    assert answers["symbols"]["symbols"] and answers["calls"]["edges"] and answers["calls (callees)"]["edges"] and answers["impact"]["impacted"]
    result_type = {"symbols": "SymbolsResult", "calls": "CallsResult", "calls (callees)": "CallsResult", "impact": "ImpactResult","status": "StatusResult", "explore": "ExploreResult", "explore (nothing matched)": "ExploreResult",
                   "distill json": "DistillJsonResult", "distill markdown": "DistillMarkdownResult", "evidence": "EvidenceResult"}
    for name, result in answers.items():
        check_shape(result, result_type[name], name)
    assert answers["explore"]["files"] and answers["explore"]["refs"], "the fixture question shows files and names call sites"
    assert answers["status"]["roots"][0]["skippedTotal"] >= 0
    check_shape(service.not_ready_status(["file:///w"], (1, 2, "parsing")), "StatusResult", "not ready")
    assert "progress" in service.not_ready_status(["file:///w"], (1, 2, "parsing"))


def test_the_explore_layout_places_every_section_line_and_reference():
    """The layout data (files[].textLine/ranges, refs) says where the text shows what, exactly."""
    from codegraph.requests import run_explore

    root = FIXTURES / "distill" / "py-service"
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    index = workspace.add_root(root.as_uri())
    workspace.build_now()
    for query in ("How does SqliteStore.save persist a note?", "main", "zqxj vwkp"):
        for budget in (1000, 3000, 13000):
            result = run_explore(index, {"query": query, "maxOutputChars": budget})
            lines = result["text"].split("\n")
            numbered = 0
            for f in result["files"]:
                assert lines[f["textLine"]].startswith(f"#### {f['path']} "), (query, f["path"])
                source = (root / f["path"]).read_text().split("\n")
                for r in f["ranges"]:
                    for n in range(r["start"], r["end"] + 1):
                        number, _, shown = lines[r["textLine"] + n - r["start"]].partition("\t")
                        assert int(number) == n and (shown == source[n - 1] or "redacted" in shown), (f["path"], n)
                        numbered += 1
            assert numbered == sum(1 for line in lines if re.match(r"\d+\t", line)), "every shown source line is in a range"
            for ref in result["refs"]:
                assert f"{ref['path']}:{ref['line']}" in lines[ref["textLine"]], ref
            for hop in result["hops"]:
                written = f"called at {hop['path']}:{hop['line']}"
                if any(written in line for line in lines):
                    assert any(ref["path"] == hop["path"] and ref["line"] == hop["line"] for ref in result["refs"]), hop
    workspace.close()


# ---- the MCP tool schemas ----------------------------------------------------------------------
def _without(schema, keys=("description",)):
    if isinstance(schema, dict):
        return {k: _without(v, keys) for k, v in schema.items() if k not in keys}
    if isinstance(schema, list):
        return [_without(v, keys) for v in schema]
    return schema


def test_the_mcp_tool_schemas_are_the_declared_params():
    pytest.importorskip("mcp")
    from codegraph.mcp_server import REQUEST_OF, TOOLS

    for tool in TOOLS:
        request_name = REQUEST_OF[tool["name"]]
        schema = _without(tool["inputSchema"])
        assert schema.pop("additionalProperties") is False
        assert schema.pop("required", []) == P["requests"][request_name]["required"]
        properties = schema.pop("properties")
        assert schema == {"type": "object"}
        if request_name == "distill":  # the one transport default (service.TRANSPORTS) the schema states
            assert properties["format"].pop("default") == service.MCP.distill_format
        assert properties == protocol.params(request_name), tool["name"]


# ---- the VS Code client ------------------------------------------------------------------------
def ts_interfaces(source: str) -> dict[str, dict[str, tuple[str, bool, str]]]:
    """interface → field → (type, optional, the doc comment above it)."""
    out = {}
    for name, body in re.findall(r"export interface (\w+) \{\n(.*?)\n\}", source, re.S):
        fields, doc = {}, ""
        for line in body.split("\n"):
            stripped = line.strip()
            if stripped.startswith(("/**", "*")):
                doc += " " + stripped
                continue
            m = re.match(r"(\w+)(\??): (.+);$", stripped)
            if m:
                fields[m.group(1)] = (m.group(3), m.group(2) == "?", doc)
                doc = ""
        out[name] = fields
    return out


def ts_unions(source: str) -> dict[str, list[str]]:
    return {name: re.findall(r'"([^"]+)"', union) for name, union in re.findall(r'export type (\w+) = ((?:"[^"]*"(?: \| )?)+);', source)}


def test_lsp_ext_types_every_declared_result_field():
    interfaces = ts_interfaces(LSP_EXT.read_text())
    for type_name in P["types"]:
        assert type_name in interfaces, f"lsp_ext.ts has no interface {type_name}"
        typed = {f: (ts, optional) for f, (ts, optional, _) in interfaces[type_name].items()}
        assert typed == declared_fields(type_name), f"lsp_ext.ts {type_name} differs from protocol.json"


def test_lsp_ext_types_every_request_with_the_declared_params_and_limits():
    source = LSP_EXT.read_text()
    interfaces, unions = ts_interfaces(source), ts_unions(source)
    fmt = "{:,}".format
    for request_name in REQUESTS:
        declared = P["requests"][request_name]
        params = f"{request_name.capitalize()}Params"
        assert f'new lc.RequestType<{params}, {declared["result"]}, void>("{declared["method"]}")' in source
        fields = interfaces[params]
        assert list(fields) == [*protocol.params(request_name), *P["routing"]], params
        for name, schema in protocol.params(request_name).items():
            ts, optional, doc = fields[name]
            assert optional == (name not in declared["required"]), (params, name)
            if "enum" in schema:
                assert unions[ts] == schema["enum"], (params, name)
            if schema["type"] == "integer":
                assert f"{fmt(schema['minimum'])}–{fmt(schema['maximum'])}" in doc, f"{params}.{name}'s comment states other limits"
            if schema["type"] == "string" and "maxLength" in schema:
                assert f"{schema['minLength']}–{fmt(schema['maxLength'])} characters" in doc, (params, name)
    tiers = " / ".join(fmt(t["maxOutputChars"]) for t in P["requests"]["explore"]["budgetTiers"])
    assert tiers in interfaces["ExploreParams"]["maxOutputChars"][2]


def test_lsp_ext_and_package_json_list_the_declared_languages():
    literal = re.search(r"export const LANGUAGES = \[(.*?)\];", LSP_EXT.read_text()).group(1)
    assert re.findall(r'"([^"]+)"', literal) == list(protocol.LANGUAGES)
    package = json.loads(PACKAGE_JSON.read_text())
    events = package["activationEvents"]
    assert sorted(e.split(":", 1)[1] for e in events if e.startswith("onLanguage:")) == sorted(protocol.LANGUAGES)
    glob = next(e for e in events if e.startswith("workspaceContains:"))
    assert sorted(re.search(r"\{(.*)\}", glob).group(1).split(",")) == sorted(ext[1:] for exts in protocol.LANGUAGES.values() for ext in exts)


def test_package_json_settings_state_the_declared_limits():
    settings = json.loads(PACKAGE_JSON.read_text())["contributes"]["configuration"]["properties"]
    fmt = "{:,}".format
    explore, distill = P["requests"]["explore"], P["requests"]["distill"]
    budget = settings["codegraph.explore.maxOutputChars"]
    assert (budget["minimum"], budget["maximum"]) == protocol.bounds("explore", "maxOutputChars")
    assert " / ".join(fmt(t["maxOutputChars"]) for t in explore["budgetTiers"]) in budget["markdownDescription"]
    assert f"{fmt(protocol.bounds('explore', 'maxOutputChars')[0])}–{fmt(protocol.bounds('explore', 'maxOutputChars')[1])}" in budget["markdownDescription"]
    cap = settings["codegraph.distill.budgetBytes"]
    assert cap["minimum"] == protocol.bounds("distill", "budgetBytes")[0]
    for release in distill["releaseCaps"].values():
        assert fmt(release) in cap["markdownDescription"]
    size, setting = P["initializationOptions"]["maxFileBytes"], settings["codegraph.maxFileBytes"]
    assert (setting["minimum"], setting["maximum"]) == (size["minimum"], size["maximum"])
    assert f"{fmt(size['minimum'])}–{fmt(size['maximum'])}" in setting["markdownDescription"]
    assert fmt(size["default"]) in setting["markdownDescription"]


# ---- the Neovim plugin -------------------------------------------------------------------------
def test_the_neovim_plugin_attaches_to_the_declared_languages_and_sends_declared_options():
    source = NVIM.read_text()
    filetypes = re.search(r"\n  filetypes = \{(.*?)\},", source, re.S).group(1)
    assert sorted(re.findall(r'"([^"]+)"', filetypes)) == sorted(protocol.LANGUAGES)
    for request_name in ("explore", "distill"):
        options = re.search(rf"\n  {request_name} = \{{(.*?)\}},", source).group(1)
        assert set(re.findall(r"(\w+) = nil", options)) <= set(protocol.params(request_name)), request_name


def test_the_neovim_plugin_reads_only_declared_result_fields():
    source = NVIM.read_text()
    declared = {f for t in P["types"] for f in declared_fields(t)}
    read = set(re.findall(r"\bresult\.(\w+)", source)) | set(re.findall(r"\b(?:file|ref|r|s)\.(\w+)\b", source))
    lua_locals = {"config", "id", "uri", "name", "kind", "value"}  # fields of Neovim's own tables
    assert read - declared - lua_locals == set(), "init.lua reads result fields protocol.json does not declare"
