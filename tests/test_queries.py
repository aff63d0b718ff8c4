"""The graph's queries through the real language server (pytest-lsp over stdio): workspace and
document symbols, the call hierarchy (proven and likely apart, families as one item, call-site
ranges, unsaved buffers), and codegraph/symbols|calls|impact's rules (errors that name the field,
a missing symbol answered with the closest names).

Fixtures: fixtures/lang/<language>/ (one per language; their expected.json lists every proven
call, which the call hierarchy must show both ways) and fixtures/queries/py-shop (likely edges,
a family of overrides, a test that reaches the code only through calls).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import FIXTURES, SERVER_CMD
from test_transports import ENV, _keep_results_raw

LANGS = sorted(p.name for p in (FIXTURES / "lang").iterdir() if (p / "expected.json").is_file())
SHOP = "py-shop"
pytestmark = pytest.mark.asyncio(loop_scope="module")  # one server for the module: it indexes nine folders


@pytest_lsp.fixture(scope="module", loop_scope="module", config=ClientServerConfig(server_command=SERVER_CMD, server_env=ENV))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    """One server, one workspace folder per language fixture and the shop."""
    base = tmp_path_factory.mktemp("ws")
    roots = {}
    for lang in LANGS:
        roots[lang] = base / lang
        shutil.copytree(FIXTURES / "lang" / lang, roots[lang])
    roots[SHOP] = base / SHOP
    shutil.copytree(FIXTURES / "queries" / SHOP, roots[SHOP])
    lsp_client.roots = roots
    _keep_results_raw(lsp_client)
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=r.as_uri(), name=n) for n, r in roots.items()],
        initialization_options={"noCache": True}))
    lsp_client.server_capabilities = result.capabilities
    yield
    await lsp_client.shutdown_session()


def _name_position(root: Path, unit: dict) -> types.Position:
    """Where the unit's name is written (the line that names it), as an LSP position (ASCII fixtures)."""
    path, _, qual = unit["id"].partition("::")
    name = qual.split("#")[0].rsplit(".", 1)[-1]
    line = (root / path).read_text().split("\n")[unit["name_line"] - 1]
    return types.Position(line=unit["name_line"] - 1, character=max(line.find(name), 0))


async def _prepare(client: LanguageClient, root: Path, path: str, pos: types.Position) -> types.CallHierarchyItem:
    items = await client.text_document_prepare_call_hierarchy_async(types.CallHierarchyPrepareParams(
        text_document=types.TextDocumentIdentifier(uri=(root / path).as_uri()), position=pos))
    assert items, (path, pos)
    return items[0]


async def test_the_server_advertises_the_views_it_serves_and_no_others(client: LanguageClient):
    caps = client.server_capabilities
    assert caps.workspace_symbol_provider and caps.document_symbol_provider and caps.call_hierarchy_provider
    assert not caps.definition_provider and not caps.references_provider and not caps.hover_provider


@pytest.mark.parametrize("lang", LANGS)
async def test_the_call_hierarchy_shows_every_proven_call_of_the_language_fixture_both_ways(client: LanguageClient, lang: str):
    root = client.roots[lang]
    gold = json.loads((root / "expected.json").read_text())
    units = {u["id"]: u for u in gold["units"]}
    calls = [e for e in gold["edges"] if e["kind"] == "calls" and units.get(e["src"], {}).get("kind") != "statement" and e["dst"] in units]
    assert calls, lang
    for edge in calls:
        src, dst = units[edge["src"]], units[edge["dst"]]
        target = await _prepare(client, root, dst["id"].split("::")[0], _name_position(root, dst))
        assert target.data["id"] == dst["id"], (lang, target.data, dst["id"])
        incoming = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=target))
        proven = [c for c in incoming if c.from_.data["id"] == src["id"] and not c.from_.detail.startswith("likely")]
        assert proven, (lang, edge)
        assert edge["line"] - 1 in {r.start.line for r in proven[0].from_ranges}, (lang, edge)
        caller = await _prepare(client, root, src["id"].split("::")[0], _name_position(root, src))
        outgoing = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=caller))
        assert any(c.to.data["id"] == dst["id"] and not c.to.detail.startswith("likely") for c in outgoing), (lang, edge)


async def test_likely_callers_are_labelled_with_their_rule_and_confidence_and_listed_after_proven_ones(client: LanguageClient):
    root = client.roots[SHOP]
    item = await _prepare(client, root, "shop/cart.py", types.Position(line=13, character=9))  # def total
    assert item.data["id"] == "shop/cart.py::Cart.total"
    incoming = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=item))
    shown = [(c.from_.name, c.from_.detail) for c in incoming]
    assert shown[0] == ("checkout", "shop/checkout.py"), shown
    assert shown[1][0] == "test_total" and shown[1][1].startswith("likely: receiver-name, 0.30"), shown
    assert [r.start.line for r in incoming[1].from_ranges] == [11]
    # the range is the callee's name at the site: `cart.total()` → `total`
    text = (root / "tests/test_cart.py").read_text().split("\n")[11]
    r = incoming[1].from_ranges[0]
    assert text[r.start.character:r.end.character] == "total"


async def test_a_call_that_may_dispatch_to_overrides_is_one_family_item_whose_calls_are_its_members(client: LanguageClient):
    root = client.roots[SHOP]
    item = await _prepare(client, root, "shop/cart.py", types.Position(line=13, character=9))
    outgoing = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=item))
    names = [(c.to.name, c.to.detail) for c in outgoing]
    assert names[0] == ("price_of", "shop/pricing.py"), names
    families = [c for c in outgoing if c.to.data.get("family")]
    assert len(families) == 1, names
    family = families[0].to
    assert family.detail.startswith("likely: family-dispatch") and "2 implementations" in family.detail
    assert not any(c.to.name in ("apply",) and "family-dispatch" in c.to.detail for c in outgoing), "no separate guesses"
    members = await client.call_hierarchy_outgoing_calls_async(types.CallHierarchyOutgoingCallsParams(item=family))
    assert sorted(c.to.data["id"] for c in members) == ["shop/pricing.py::Fixed.apply", "shop/pricing.py::Percent.apply"]
    assert all(c.to.detail.startswith("likely: family-dispatch") for c in members)


async def test_prepare_on_a_call_site_names_the_proven_callee(client: LanguageClient):
    root = client.roots[SHOP]
    line = (root / "shop/checkout.py").read_text().split("\n")[14]  # return f"total: {checkout(items)}"
    item = await _prepare(client, root, "shop/checkout.py", types.Position(line=14, character=line.index("checkout(") + 2))
    assert item.data["id"] == "shop/checkout.py::checkout"


async def test_the_call_hierarchy_follows_unsaved_buffers(client: LanguageClient):
    root = client.roots[SHOP]
    uri = (root / "shop/checkout.py").as_uri()
    text = (root / "shop/checkout.py").read_text()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=text + "\n\ndef express(items: list[str]) -> str:\n    return receipt(items)\n")))
    item = await _prepare(client, root, "shop/checkout.py", types.Position(line=13, character=5))
    assert item.data["id"] == "shop/checkout.py::receipt"
    incoming = await client.call_hierarchy_incoming_calls_async(types.CallHierarchyIncomingCallsParams(item=item))
    assert [c.from_.name for c in incoming] == ["express"]
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="express"))
    assert [s.name for s in symbols] == ["express"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def test_workspace_symbols_are_fuzzy_camel_case_aware_across_languages_with_tests_last(client: LanguageClient):
    async def names(query: str) -> list[str]:
        found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
        return [f"{s.container_name}:{s.name}" if s.container_name and "/" not in s.container_name else s.name for s in found]

    assert (await names("totalArea"))[:1] == ["totalArea"]  # exact first
    assert "totalArea" in await names("tA")  # word initials
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="total"))
    paths = [s.location.uri for s in found]
    assert paths and "/tests/" in paths[-1] and not any("/tests/" in p for p in paths[:-1]), paths
    languages = {s.location.uri.split("/ws")[1].split("/")[1] for s in await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="area"))}
    assert languages >= {"python", "typescript", "java", "kotlin", "go", "rust"}, languages
    assert await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")) == []


async def test_document_symbols_are_the_files_units_as_a_tree(client: LanguageClient):
    root = client.roots[SHOP]
    tree = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=(root / "shop/pricing.py").as_uri())))
    shape = [(s.name, [c.name for c in s.children or []]) for s in tree]
    assert shape == [("price_of", []), ("Discount", ["apply"]), ("Percent", ["__init__", "apply"]), ("Fixed", ["apply"])]
    assert tree[1].kind == types.SymbolKind.Class and tree[1].children[0].kind == types.SymbolKind.Method
    assert tree[0].selection_range.start == types.Position(line=5, character=4)


# ---- codegraph/symbols|calls|impact: the rules -------------------------------------------------
async def _request(client: LanguageClient, method: str, params: dict) -> dict:
    return await client.protocol.send_request_async(f"codegraph/{method}", {**params, "rootUri": client.roots[SHOP].as_uri()})


async def test_a_symbol_that_names_nothing_is_refused_with_the_closest_names(client: LanguageClient):
    with pytest.raises(JsonRpcException) as refused:
        await _request(client, "calls", {"symbol": "Cart.totl"})
    assert refused.value.code == -32602 and refused.value.data["field"] == "symbol"
    assert "names no function, method or type" in refused.value.message and "closest: Cart.total" in refused.value.message


async def test_bad_impact_input_names_the_item(client: LanguageClient):
    with pytest.raises(JsonRpcException) as refused:
        await _request(client, "impact", {"changes": ["shop/cart.py:2", "shop/nowhere.py"]})
    assert refused.value.data["field"] == "changes[1]"
    with pytest.raises(JsonRpcException) as refused:
        await _request(client, "calls", {"symbol": "checkout", "depth": 9})
    assert refused.value.data["field"] == "depth"


async def test_impact_finds_the_tests_that_reach_a_change_through_calls(client: LanguageClient):
    result = await _request(client, "impact", {"changes": ["shop/pricing.py:7"]})
    assert [u["qualname"] for u in result["changed"]] == ["price_of"]
    assert [(u["qualname"], u["distance"], u["proven"]) for u in result["impacted"]] == [
        ("Cart.total", 1, True), ("checkout", 2, True), ("receipt", 3, True)]
    assert [(u["qualname"], u["proven"], u["confidence"]) for u in result["tests"]] == [("test_total", False, 0.3)]
    proven_only = await _request(client, "impact", {"changes": ["shop/pricing.py:7"], "likely": False})
    assert proven_only["tests"] == []
    assert result["text"].index("## Callers, proven") < result["text"].index("test_total")


async def test_calls_keep_proven_and_likely_apart_and_stay_within_the_budget(client: LanguageClient):
    result = await _request(client, "calls", {"symbol": "Cart.total", "direction": "callees"})
    assert [(e["callee"]["qualname"], e["proven"], e["rule"]) for e in result["edges"]] == [
        ("price_of", True, "calls"), ("Discount.apply", False, "field-type"), ("Discount.apply", False, "family-dispatch")]
    assert [m["qualname"] for m in result["edges"][2]["family"]] == ["Percent.apply", "Fixed.apply"]
    lines = result["text"].split("\n")
    assert "proven: calls" in lines[1] and "likely: field-type, 0.95" in lines[2] and "family of Discount.apply" in lines[3]
    small = await _request(client, "symbols", {"query": "a", "maxOutputChars": 1000})
    assert len(small["text"]) <= 1000 and small["stats"]["shown"] == len(small["symbols"])


async def test_impact_finds_tests_that_live_beside_the_code_by_their_mark(tmp_path: Path):
    """Rust keeps unit tests in the file they test (`#[cfg(test)] mod tests`): the mark, not the path, says test."""
    from codegraph import service
    from codegraph.service import IndexOptions, Workspace

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(
        "pub fn area(side: f64) -> f64 {\n    side * side\n}\n\n"
        "pub fn report() -> String {\n    format!(\"{}\", area(2.0))\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn area_of_two() {\n        assert_eq!(area(2.0), 4.0);\n    }\n}\n")
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    workspace.add_root(tmp_path.as_uri())
    workspace.build_now()
    result = workspace.answer_now("impact", {"changes": ["src/lib.rs:2"]})
    workspace.close()
    assert [u["qualname"] for u in result["impacted"]] == ["report"]
    assert [u["qualname"] for u in result["tests"]] == ["tests.area_of_two"]


async def test_a_rust_path_names_the_unit_its_dotted_name_does(client: LanguageClient):
    """`Square::new` is how a Rust reader names the method, `crate::shapes::Square::new` with its
    module path in front: both name the unit `Square.new` (they were refused as unit ids)."""
    rust = client.roots["rust"].as_uri()

    async def callers(symbol: str) -> list[str]:
        result = await client.protocol.send_request_async("codegraph/calls", {"symbol": symbol, "rootUri": rust})
        return [e["caller"]["qualname"] for e in result["edges"]]

    dotted = await callers("Square.new")
    assert "Square.doubled" in dotted
    assert await callers("Square::new") == dotted
    assert await callers("crate::shapes::Square::new") == dotted
    with pytest.raises(JsonRpcException) as refused:
        await callers("src/shapes.rs::Square.neww")  # a unit id whose name is off stays an error
    assert refused.value.data["field"] == "symbol" and "closest: Square.new" in refused.value.message


async def test_an_extension_function_is_named_by_the_type_it_extends(tmp_path: Path):
    """Kotlin's `fun Path.source()` is what a reader calls `Path.source`; its qualified name is `source`."""
    from codegraph import service
    from codegraph.service import IndexOptions, Workspace

    (tmp_path / "Io.kt").write_text(
        "package io\n\nclass Path(val name: String)\n\nfun Path.source(): String = name\n\n"
        "fun read(p: Path): String {\n    return p.source()\n}\n")
    workspace = Workspace(service.CLI, IndexOptions(use_cache=False))
    workspace.add_root(tmp_path.as_uri())
    workspace.build_now()
    result = workspace.answer_now("calls", {"symbol": "Path.source"})
    workspace.close()
    assert [e["callee"]["qualname"] for e in result["edges"]] == ["source"]
    assert [e["caller"]["qualname"] for e in result["edges"]] == ["read"]
