"""A source's one-line reason is for a reader: true of the unit, for the role shown, checkable in the code.

What the reviewer found (express, requests, jinja2, click, gorilla/mux, toml, raft): a reason naming another
role ("an error boundary of the lifecycle walk" on an entry), reasons that say nothing ("a sizeable body",
"its file's rank", "drives 1 resolved owner and 1 held component"), a file's feature said of a one-line unit
("calls into many files"), boundary syntax named as what it is not ("error/cleanup syntax: try" of Rust's `?`),
module statements named `<registration@489>`, and build variants and overload stubs taking a place twice.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegraph.distill import features, ranker, roles, signals
from codegraph.distill.topology import build_model
from codegraph.requests import run_distill_frame
from test_distill import built  # one fixture index per name, shared
from test_likely_families import _build  # the same small-repository builder


class _Shares:
    """A ranker stand-in: its features' shares, largest first."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def raised_by(self, row):
        return [(float(len(self.names) - i), n) for i, n in enumerate(self.names)]


# ---- 1. a walk feature that names a role is a reason for that role only ----------------------------
def test_a_walk_pick_for_another_role_is_no_reason_for_the_role_shown() -> None:
    """express's entry `proto.handle` read "an error boundary of the lifecycle walk" (the walk picked it as a
    boundary); `init`, an assembly, read "a sink of the lifecycle walk"."""
    said = features.Said(pick=("boundary", "called from an error handler in `Layer.handle_error`"), down=35)
    why = ranker.reason(_Shares("plan_boundary", "log_bytes", "plan_pick", "sel_pagerank_rev"), [], "TRIGGER_ENTRY", said)
    assert why == "35 units downstream", why
    # for the role the walk picked it for, the walk's own reason says why
    why = ranker.reason(_Shares("plan_boundary", "plan_pick"), [], "BOUNDARY", said)
    assert why == "called from an error handler in `Layer.handle_error`", why
    # without the unit's facts, the feature's phrase: still for its own role only
    assert "sink" not in ranker.reason(_Shares("plan_sink", "sel_pagerank_rev"), [], "ASSEMBLY_INIT")


# ---- 2. reasons that say something a reader can check ------------------------------------------------
SAID_NOTHING = ("a sizeable body", "a short body", "its file's rank", "the size of its module", "a method",
                "a function", "a module statement", "its type is large", "its file is large", "reaches far",
                "central", "calls into many files", "called from many files", "resolved owner", "held component",
                "call result")


@pytest.mark.parametrize("name", ["go-reports", "py-service", "js-context-proto", "py-rule-family", "rs-spawned-tasks"])
def test_no_reason_in_a_pack_is_a_size_a_rank_or_a_count_alone(name: str) -> None:
    pack = run_distill_frame(built(name), {"format": "json"})["pack"]
    for s in pack["sources"]:
        for why in s["why"]:
            parts = [p.strip() for p in re.split(r"[;,]", why)]
            assert not [p for p in parts if p in SAID_NOTHING or any(w in p for w in SAID_NOTHING[-3:])], (s["symbol"], why)


def test_a_unit_calling_into_one_file_is_said_to_by_its_name() -> None:
    """gorilla/mux's `Router.Path` (`return r.NewRoute().Path(tpl)`) read "calls into many files": it calls into one."""
    said = features.Said(callee_files=("route.go",), callers=("Router.HandleFunc",))
    assert ranker.reason(_Shares("log_out_files", "pct_file", "module_share"), [], "ASSEMBLY_INIT", said) == \
        "calls into `route.go`"


def test_a_file_or_module_feature_is_never_a_reason() -> None:
    for name in ("pct_file", "file_in", "file_units", "module_share", "module_in", "pct_owner", "owner_in", "log_bytes", "k_method"):
        assert ranker.SAYS[name] is None, name
    said = features.Said(callers=("App.run", "main", "Cli.start", "serve"))
    # nothing concrete among the features: one fact about the unit, who calls it
    assert ranker.reason(_Shares("pct_file", "log_bytes", "module_share"), [], "STATE_ORCHESTRATE", said) == \
        "called by `App.run` and 3 more"


def test_an_orchestrator_names_what_it_drives(tmp_path: Path) -> None:
    """"drives 1 resolved owner and 1 held component, passes 1 call result on" left nothing to check."""
    index = _build(tmp_path, {
        "parser.py": "def parse(t):\n    return tok(t)\n\n\ndef tok(t):\n    return t\n",
        "store.py": "def save(x):\n    return log(x)\n\n\ndef log(x):\n    return x\n",
        "app.py": ("from parser import parse\nfrom store import save\n\n\n"
                   "def run(t):\n    tree = parse(t)\n    save(tree)\n    return tree.strip()\n")})
    model = build_model(index)
    why = roles.classify(index, model, [])["app.py::run"][roles.ORCHESTRATE][1]
    assert why == "drives `parse` and `save`", why


def test_a_sinks_reason_names_the_call_it_writes_through(tmp_path: Path) -> None:
    index = _build(tmp_path, {"store.py": "import sqlite3\n\n\ndef open_db(path):\n    return sqlite3.connect(path)\n"})
    model = build_model(index)
    why = roles.classify(index, model, [])["store.py::open_db"][roles.PERSIST][1]
    assert why == "calls `sqlite3.connect` (imported I/O)", why


def test_a_call_is_named_as_written_with_its_arguments_elided() -> None:
    src = b"x = String(value.type || 'a').replace(/x/, 'y')"
    call = signals.Call(None, "replace", "String(value.type || 'a')", 1, 4, len(src))
    assert signals.call_text(call, src) == "String(…).replace"
    src = b"fs::write(path, bytes)"
    assert signals.call_text(signals.Call(None, "write", "fs", 1, 0, len(src)), src) == "fs::write"


# ---- 3. boundary syntax said as what it is; handing an error on or cleaning up is no boundary --------------
RUST = {"Cargo.toml": "[package]\nname = \"t\"\n"}
GO = {"go.mod": "module t\n"}


@pytest.mark.parametrize("files,uid,said", [
    ({**GO, "config.go": (
        "package t\n\nimport \"fmt\"\n\nfunc ValidateConfig(n int) error {\n\tif n < 0 {\n"
        "\t\treturn fmt.Errorf(\"bad %d\", n)\n\t}\n\treturn nil\n}\n")},
     "config.go::ValidateConfig", "returns a new error"),
    ({**GO, "main.go": ("package main\n\nimport \"log\"\n\nfunc run() error { return nil }\n\n"
                        "func main() {\n\tif err := run(); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n")},
     "main.go::main", "handles `err != nil`"),
    ({**RUST, "src/lib.rs": ("pub fn port(s: &str) -> u16 {\n    match s.parse::<u16>() {\n        Ok(p) => p,\n"
                             "        Err(_) => 80,\n    }\n}\n")},
     "src/lib.rs::port", "handles `Err(…)` in a match"),
    ({"load.py": "def load(p):\n    try:\n        return open(p).read()\n    except OSError:\n        return None\n"},
     "load.py::load", "catches errors"),
    ({"check.py": "def check(n):\n    if n < 0:\n        raise ValueError(n)\n    return n\n"}, "check.py::check", "raises an error"),
])
def test_a_boundary_reason_says_what_its_syntax_is(tmp_path: Path, files: dict[str, str], uid: str, said: str) -> None:
    """"error/cleanup syntax: return" was said of raft's `ValidateConfig` (it returns a new error), "if, return"
    of `HasExistingState`."""
    index = _build(tmp_path, files)
    model = build_model(index)
    got = roles.boundary_roles(index, model, set(model.units))
    assert got[uid][1] == said, got[uid][1]


@pytest.mark.parametrize("files,uid", [
    ({**RUST, "src/lib.rs": ("pub fn expect(s: &str) -> Result<u32, std::num::ParseIntError> {\n"
                             "    let n = s.parse::<u32>()?;\n    Ok(n)\n}\n")}, "src/lib.rs::expect"),
    ({**GO, "open.go": ("package t\n\nimport \"os\"\n\nfunc Open(p string) (*os.File, error) {\n"
                        "\tf, err := os.Open(p)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\tdefer f.Sync()\n\treturn f, nil\n}\n")},
     "open.go::Open"),
    ({"fmt.py": "def wrap_text(f):\n    with f.indentation():\n        f.write('x')\n"}, "fmt.py::wrap_text"),
    ({"load.py": "def load(p):\n    f = open(p)\n    try:\n        return f.read()\n    finally:\n        f.close()\n"},
     "load.py::load"),
])
def test_handing_an_error_on_or_cleaning_up_is_no_boundary(tmp_path: Path, files: dict[str, str], uid: str) -> None:
    """"error/cleanup syntax: try" was said of toml's `Tokenizer.expect` (a `?`: the error handed on), "with"
    of click's `wrap_text` (an indentation context): a boundary catches, recovers, handles or raises an error."""
    index = _build(tmp_path, files)
    model = build_model(index)
    assert uid in model.units
    assert uid not in roles.boundary_roles(index, model, set(model.units))


def test_each_boundary_mark_is_said_as_what_it_is() -> None:
    mark = lambda t, a=0, b=10: signals.BoundaryMark("u", t, 2, a, b, 1, 1)  # noqa: E731
    assert roles.mark_phrases((mark("try_expression", 0, 17),), [], b"s.parse::<u32>()?") == ["propagates errors with `?`"]
    kotlin = b"try { f() } catch (e: Exception) { null }"
    assert roles.mark_phrases((mark("try_expression", 0, len(kotlin)),), [(12, len(kotlin))], kotlin) == ["catches errors"]
    assert roles.mark_phrases((mark("with_statement"),), [], b"") == ["runs a `with` block"]
    assert roles.mark_phrases((mark("if_statement", 0, 34),), [], b"if err != nil {\n\treturn nil, err\n}") == \
        ["hands `err` back"]
    assert roles.mark_phrases((mark("if_statement", 0, 35),), [], b"if err != nil {\n\tlog.Fatal(err)\n}") == \
        ["handles `err != nil`"]
    assert roles.mark_phrases((mark("defer_statement", 0, 30),), [], b"defer func() { recover() }()") == \
        ["recovers from a panic"]


# ---- 4. a module statement shown by what it is -----------------------------------------------------------
def test_a_module_statement_is_shown_by_its_first_line_beside_its_stable_symbol() -> None:
    index = built("js-proto-verbs")
    u = index.resolver.units["lib/core/Client.js::<registration@28>"]
    label = "['get', 'delete', 'head'].forEach(function aliasWithoutBody…"  # (a long first line is cut)
    assert roles.statement_label(u, index.sources[u.path]) == label
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    stmts = [s for s in pack["sources"] if s["symbol"].startswith("<")]
    assert stmts and all(s["label"] and not s["label"].startswith("<") for s in stmts), stmts
    md = run_distill_frame(index, {"format": "markdown"})["markdown"]
    assert "<registration@" not in md and "#lt;registration@" not in md
    assert f"[`{label}`](#s" in md and f"### `{label}` · `lib/core/Client.js:28-" in md, md[:3000]


def test_a_statement_label_never_shows_a_credential(tmp_path: Path) -> None:
    index = _build(tmp_path, {"settings.py": 'if __name__ == "__main__":\n    API_TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"\n'})
    u = next(u for u in index.resolver.units.values() if u.kind == "statement")
    label = roles.statement_label(u, index.sources[u.path])
    assert label == 'if __name__ == "__main__":…' and "ghp_" not in label, label
    src = b'API_TOKEN = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"\n'
    assert "ghp_" not in roles.statement_label(u._replace(start_byte=0, end_byte=len(src), start_line=1), src)


# ---- 5. a name takes one place: build variants and overload stubs ------------------------------------------
def test_a_name_defined_twice_in_a_file_takes_one_place() -> None:
    """toml's `Map.with_capacity` (two `#[cfg(…)]` variants) took two places with two bodies."""
    uids = ["src/map.rs::Map.with_capacity", "src/map.rs::Map.with_capacity#2", "src/map.rs::Map.new"]
    chosen = ranker.select([3.0, 2.0, 1.0], [120, 130, 80], uids, ["src/map.rs::Map"] * 3, ["method"] * 3)
    assert sorted(uids[i] for i in chosen) == ["src/map.rs::Map.new", "src/map.rs::Map.with_capacity#2"]


def test_an_overload_stub_gives_its_place_to_its_implementation() -> None:
    """jinja2's `Environment.compile`: two `@typing.overload` signatures and the implementation."""
    uids = ["env.py::Environment.compile", "env.py::Environment.compile#2", "env.py::Environment.compile#3"]
    chosen = ranker.select([5.0, 4.0, 1.0], [90, 95, 1400], uids, ["env.py::Environment"] * 3, ["method"] * 3)
    assert chosen == [2]


def test_a_unit_that_turns_an_error_into_another_is_a_boundary(tmp_path: Path) -> None:
    """A `?` alone hands an error on; `.map_err(…)?` turns it into the crate's own first (a boundary)."""
    index = _build(tmp_path, {**RUST, "src/lib.rs": (
        "pub struct Error;\n\npub fn port(s: &str) -> Result<u16, Error> {\n"
        "    let p = s.parse::<u16>().map_err(|_| Error)?;\n    Ok(p)\n}\n")})
    model = build_model(index)
    got = roles.boundary_roles(index, model, set(model.units))
    assert got["src/lib.rs::port"][1] == "turns errors with `map_err`, propagates errors with `?`", got


def test_the_callers_a_reason_names_are_the_codes_own_before_its_benchmarks_and_examples(tmp_path: Path) -> None:
    """"called by `DecompressorRegistryBenchmark.marshalOld` and 24 more" named a JMH benchmark first
    among the callers of a library's core method: the code's own callers come before those in examples,
    benchmarks and tests, which stay counted."""
    from types import SimpleNamespace

    index = _build(tmp_path, {
        "core/meta.py": "def put(k, v):\n    return {k: v}\n",
        "benchmarks/put_bench.py": "from core.meta import put\n\n\ndef bench_put():\n    put('a', 1)\n",
        "core/auth.py": "from core.meta import put\n\n\ndef headers(token):\n    return put('auth', token)\n",
    })
    model = build_model(index)
    plan = SimpleNamespace(out={}, picks=[], down={}, hosts={})
    uid = "core/meta.py::put"
    got = features.said(index, model, plan, {}, [uid], list(model.units))[uid]
    assert got.callers[0] == "headers" and "bench_put" in got.callers, got.callers
