"""Hostile requests through the real protocol: every method × malformed params gets a JSON-RPC
error naming the field and the rule (-32602) or a well-formed result, and the server keeps serving."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile import RawClient, sample

METHODS = ("codegraph/explore", "codegraph/distill", "codegraph/status", "codegraph/evidence",
           "codegraph/symbols", "codegraph/calls", "codegraph/impact")
FIELDS = {
    "codegraph/explore": ("query", "maxOutputChars", "adaptive", "includeTests", "rootUri"),
    "codegraph/distill": ("scenario", "question", "obligations", "budgetBytes", "format", "deadlineMs", "rootUri"),
    "codegraph/status": ("rootUri",),
    "codegraph/evidence": ("sources", "maxBytes", "rootUri"),
    "codegraph/symbols": ("query", "limit", "maxOutputChars", "rootUri"),
    "codegraph/calls": ("symbol", "direction", "depth", "likely", "maxOutputChars", "rootUri"),
    "codegraph/impact": ("changes", "depth", "likely", "maxOutputChars", "rootUri"),
}
QUERIES = ("codegraph/symbols", "codegraph/calls", "codegraph/impact")
ALLOWED_ERRORS = {-32602, -32803}  # InvalidParams; RequestFailed (a pack that cannot fit the cap)
TALLY = {"tried": 0, "unhandled": 0}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("ws")
    (root / "app.py").write_bytes(sample("python", 12))
    (root / "web.ts").write_bytes(sample("typescript", 6))
    (root / "outside_secret.txt").write_text("nothing\n")
    client = RawClient(root, {"noCache": True}, stderr_path=root.parent / "server.log")
    client.root = root
    client.wait_ready()
    yield client
    client.close()
    print(f"\nhostile requests: {TALLY['tried']} tried, {TALLY['unhandled']} unhandled errors")


def check_response(method: str, params, response: dict | None) -> None:
    """A well-formed result, or an allowed error whose message names a field and its rule."""
    TALLY["tried"] += 1
    try:
        assert response is not None, f"no answer to {method} {json.dumps(params)[:200]}"
        if "error" in response:
            err = response["error"]
            assert err["code"] in ALLOWED_ERRORS, err
            if err["code"] == -32602:
                data = err.get("data") or {}
                assert data.get("field") and data.get("rule"), err
                assert f"`{data['field']}`" in err["message"] and data["rule"] in err["message"]
            return
        result = response["result"]
        assert isinstance(result, dict)
        if method == "codegraph/explore":
            assert isinstance(result["text"], str) and isinstance(result["files"], list)
            assert len(result["text"]) <= result["stats"]["budget"]
        elif method == "codegraph/distill":
            assert "pack" in result or ("markdown" in result and result["status"] in ("complete", "incomplete", "timeout"))
        elif method in QUERIES:
            assert isinstance(result["text"], str) and len(result["text"]) <= result["stats"]["budget"]
        elif method == "codegraph/status":
            assert isinstance(result["roots"], list) and isinstance(result["ready"], bool)
        else:
            assert isinstance(result["blocks"], list)
            for block in result["blocks"]:
                assert ("text" in block) != ("error" in block)
    except AssertionError:
        TALLY["unhandled"] += 1
        raise


MALFORMED = [
    ("codegraph/explore", {}, "query"),
    ("codegraph/explore", {"query": None}, "query"),
    ("codegraph/explore", {"query": 7}, "query"),
    ("codegraph/explore", {"query": ""}, "query"),
    ("codegraph/explore", {"query": "x" * 4001}, "query"),
    ("codegraph/explore", {"query": "q", "maxOutputChars": -5}, "maxOutputChars"),
    ("codegraph/explore", {"query": "q", "maxOutputChars": 10**30}, "maxOutputChars"),
    ("codegraph/explore", {"query": "q", "maxOutputChars": 1.5}, "maxOutputChars"),
    ("codegraph/explore", {"query": "q", "maxOutputChars": True}, "maxOutputChars"),
    ("codegraph/explore", {"query": "q", "includeTests": "no"}, "includeTests"),
    ("codegraph/explore", {"query": "q", "rootUri": "https://example.com/"}, "rootUri"),
    ("codegraph/explore", {"query": "q", "rootUri": "file:///etc"}, "rootUri"),
    ("codegraph/explore", {"query": "q", "rootUri": ["file:///"]}, "rootUri"),
    ("codegraph/explore", {"query": "q", "maxChars": 5000}, "maxChars"),  # unknown keys are refused, as over MCP
    ("codegraph/explore", {"query": "q", "": 1}, '""'),
    ("codegraph/explore", [1, 2, 3], "params"),
    ("codegraph/explore", "query", "params"),
    ("codegraph/distill", {"scenario": "everything"}, "scenario"),
    ("codegraph/distill", {"scenario": "query"}, "question"),
    ("codegraph/distill", {"scenario": "query", "question": "   "}, "question"),
    ("codegraph/distill", {"scenario": "overview", "question": "why?"}, "question"),  # (a question alone implies "query")
    ("codegraph/distill", {"budgetBytes": -1}, "budgetBytes"),
    ("codegraph/distill", {"budgetBytes": 2**70}, "budgetBytes"),
    ("codegraph/distill", {"format": "html"}, "format"),
    ("codegraph/distill", {"deadlineMs": 0}, "deadlineMs"),
    ("codegraph/distill", {"obligations": "all"}, "obligations"),
    ("codegraph/distill", {"obligations": [{"id": "a"}]}, "obligations[0].witnessSets"),
    ("codegraph/distill", {"obligations": [{"id": "a", "witnessSets": [["no-separator"]]}]}, "obligations[0].witnessSets[0]"),
    ("codegraph/distill", {"obligations": [{"id": "a", "witnessSets": [[1]]}]}, "obligations[0].witnessSets[0]"),
    ("codegraph/distill", {"rootUri": 3}, "rootUri"),
    ("codegraph/status", {"rootUri": "file:///nowhere"}, "rootUri"),
    ("codegraph/status", {"rootUri": {"a": 1}}, "rootUri"),
    ("codegraph/evidence", {}, "sources"),
    ("codegraph/evidence", {"sources": []}, "sources"),
    ("codegraph/evidence", {"sources": [{"path": "app.py"}]}, "sources[0].lines"),
    ("codegraph/evidence", {"sources": [{"path": "app.py", "lines": [5, 1], "sha256": "0" * 64}]}, "sources[0].lines"),
    ("codegraph/evidence", {"sources": [{"path": "app.py", "lines": [1, 2], "sha256": "xyz"}]}, "sources[0].sha256"),
    ("codegraph/evidence", {"sources": [{"path": "", "lines": [1, 2], "sha256": "0" * 64}]}, "sources[0].path"),
    ("codegraph/evidence", {"sources": [{"path": "app.py", "lines": [1, 2], "sha256": "0" * 64}], "maxBytes": -3}, "maxBytes"),
    ("codegraph/evidence", {"sources": ["app.py"]}, "sources[0]"),
    ("codegraph/symbols", {"query": "  "}, "query"),
    ("codegraph/symbols", {"query": "f", "limit": 0}, "limit"),
    ("codegraph/calls", {}, "symbol"),
    ("codegraph/calls", {"symbol": "no_such_unit"}, "symbol"),
    ("codegraph/calls", {"symbol": "app.py"}, "symbol"),
    ("codegraph/calls", {"symbol": "f1", "direction": "up"}, "direction"),
    ("codegraph/calls", {"symbol": "f1", "likely": "yes"}, "likely"),
    ("codegraph/impact", {"changes": "app.py"}, "changes"),
    ("codegraph/impact", {"changes": ["app.py", 3]}, "changes[1]"),
    ("codegraph/impact", {"changes": ["../outside_secret.txt"]}, "changes[0]"),
    ("codegraph/impact", {"changes": ["app.py:99999"]}, "changes[0]"),
]


@pytest.mark.parametrize("method, params, field", MALFORMED, ids=[f"{m.split('/')[1]}-{f}-{i}" for i, (m, _, f) in enumerate(MALFORMED)])
def test_malformed_params_name_the_field_and_rule(server: RawClient, method: str, params, field: str):
    response = server.request(method, params)
    check_response(method, params, response)
    assert response["error"]["code"] == -32602, response
    assert response["error"]["data"]["field"] == field
    assert server.request("codegraph/status", {})["result"]["ready"]


@pytest.mark.parametrize("path", ["../outside_secret.txt", "/etc/passwd", "file:///etc/passwd", "a/../../x.py", "app.py/..",
                                  "./app.py", "C:\\Windows\\win.ini", "\\\\server\\share", "app.py\x00.txt", "~/.ssh/id_rsa"])
def test_evidence_outside_the_workspace_is_refused_per_block(server: RawClient, path: str):
    params = {"sources": [{"path": path, "lines": [1, 1], "sha256": "0" * 64}]}
    response = server.request("codegraph/evidence", params)
    check_response("codegraph/evidence", params, response)
    assert response["result"]["blocks"] == [{"path": path, "lines": [1, 1], "error": "outside-scope"}]


def test_params_keys_pygls_would_rename_or_choke_on_still_get_an_answer(server: RawClient):
    # before: a `type_name` key that is not a valid identifier made pygls drop the request (no answer)
    for params in ({"query": "f3", "type_name": "1 bad"}, {"query": "f3", "class": 1, "_x": 2, "1": 3},
                   {"query": "f3", "nested": {"jsonrpc": "2.0"}}, {"query": {"jsonrpc": "2.0", "id": 1, "method": "x"}}):
        response = server.request("codegraph/explore", params, timeout=15)
        check_response("codegraph/explore", params, response)


def test_undecodable_bodies_do_not_take_the_server_down(server: RawClient):
    for raw in (b'{"query": "\xff\xfe"}', b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", b'{"query": NaN}', b"{", b"null"):
        msg_id = server.send_request("codegraph/explore", None, raw_params=raw)
        server.wait(msg_id, timeout=1)  # JSON the server cannot parse has no id to answer; it must just survive
    response = server.request("codegraph/status", {})
    assert response["result"]["ready"] and server.proc.poll() is None


def test_a_huge_request_is_refused_and_the_server_keeps_serving(server: RawClient):
    params = {"query": "x" * 3_000_000}
    response = server.request("codegraph/explore", params, timeout=60)
    check_response("codegraph/explore", params, response)
    assert response["error"]["data"]["field"] == "query"
    params = {"sources": [{"path": "app.py", "lines": [1, 2], "sha256": "0" * 64}] * 10_000}
    response = server.request("codegraph/evidence", params, timeout=60)
    check_response("codegraph/evidence", params, response)


# ---- property test: random params for every method --------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
SELECTOR = st.sampled_from(["app.py::f1", "app.py::nope", "../x.py::f", "/etc/passwd::x", "web.ts::f2", "::", "a::b::c"])
FIELD_VALUE = {
    "query": st.text(max_size=60) | JSON,
    "symbol": st.sampled_from(["f1", "app.py::f1", "app.py:3", "web.ts::f2", "::", "a.b", "app.py"]) | st.text(max_size=30) | JSON,
    "direction": st.sampled_from(["callers", "callees", "up"]) | JSON,
    "depth": st.integers(-2, 10) | JSON,
    "limit": st.integers(-2, 600) | JSON,
    "likely": st.booleans() | JSON,
    "changes": st.lists(st.sampled_from(["app.py", "app.py:2", "app.py:1-9", "web.ts:3", "app.py:0", "../x.py", "app.py:-1", ""])
                        | JSON, max_size=3) | JSON,
    "question": st.text(max_size=60) | JSON,
    "maxOutputChars": st.integers(-10, 500_000) | JSON,
    "budgetBytes": st.integers(-10, 40_000) | JSON,
    "maxBytes": st.integers(-10, 200_000) | JSON,
    "deadlineMs": st.integers(-10, 5_000) | JSON,
    "adaptive": st.booleans() | JSON,
    "includeTests": st.booleans() | JSON,
    "scenario": st.sampled_from(["overview", "query", "", "Overview"]) | JSON,
    "format": st.sampled_from(["json", "markdown", "md"]) | JSON,
    "rootUri": st.sampled_from([None, "file:///", "file:///etc", "http://x", "", "file://" + "/x" * 40]) | JSON,
    "obligations": st.lists(st.fixed_dictionaries(
        {"id": st.text(max_size=5) | JSON},
        optional={"required": st.booleans() | JSON, "evidence": st.sampled_from(["direct_syntax", "resolved_static", "nope"]),
                  "witnessSets": st.lists(st.lists(SELECTOR | JSON, max_size=3), max_size=3) | JSON}), max_size=3) | JSON,
    "sources": st.lists(st.fixed_dictionaries(
        {"path": st.sampled_from(["app.py", "web.ts", "../outside_secret.txt", "/etc/passwd", ".env", "nope.py"]) | JSON},
        optional={"lines": st.lists(st.integers(-2, 30), max_size=3) | JSON,
                  "sha256": st.sampled_from(["0" * 64, "f" * 64, "xyz"]) | JSON}), max_size=3) | JSON,
}


@st.composite
def method_and_params(draw):
    method = draw(st.sampled_from(METHODS))
    fields = draw(st.lists(st.sampled_from(FIELDS[method] + ("query", "sources", "unknown")), unique=True, max_size=5))
    params = {f: draw(FIELD_VALUE.get(f, JSON)) for f in fields}
    if draw(st.integers(0, 20)) == 0:
        return method, draw(JSON)  # not even an object
    return method, params


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=method_and_params())
def test_random_params_get_a_field_naming_error_or_a_well_formed_result(server: RawClient, case):
    method, params = case
    response = server.request(method, params, timeout=60)
    check_response(method, params, response)


def test_server_is_still_healthy_after_everything(server: RawClient):
    status = server.request("codegraph/status", {})["result"]
    assert status["ready"] and status["roots"][0]["files"] == 2
    assert server.proc.poll() is None
