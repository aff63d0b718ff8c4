"""What distill's pack says in words: true at every budget, never repeated, counts in their number,
and an honest answer where there is nothing to distill."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegraph.distill import ranker
from codegraph.distill.roles import ASSEMBLY, classify
from codegraph.distill.topology import build_model
from codegraph.index.index import RootIndex
from codegraph.requests import RequestFailed, run_distill_frame
from codegraph.workspace.scope import ScopeConfig
from test_distill import built  # one fixture index per name, shared

STAGES = ("Entry points", "Assembly", "Core flow", "Sinks", "Error boundaries")


def sections(md: str) -> dict[str, list[str]]:
    """Each lifecycle stage's list lines."""
    out = {}
    for title in STAGES:
        body = md.split(f"\n## {title}:", 1)[1].split("\n## ", 1)[0]
        out[title] = [line for line in body.split("\n")[1:] if line.strip()]
    return out


def smallest(index: RootIndex, fmt: str) -> int:
    with pytest.raises(RequestFailed) as err:
        run_distill_frame(index, {"format": fmt, "budgetBytes": 600})
    return int(re.search(r"needs (\d+) bytes", str(err.value)).group(1))


# ---- trimmed roles are said left out, not "none found" ----------------------------------------------
@pytest.mark.parametrize("name", ["py-service", "py-wsgi-lib"])
def test_a_stage_whose_units_did_not_fit_says_so(name: str) -> None:
    index = built(name)
    full = run_distill_frame(index, {"format": "json"})["pack"]
    main = {s["roles"][0] for s in full["sources"] if "alias_of" not in s}
    at_least = run_distill_frame(index, {"format": "markdown", "budgetBytes": smallest(index, "markdown")})
    assert at_least["status"] == "partial"
    md = at_least["markdown"]
    words = {"TRIGGER_ENTRY": "Entry points", "ASSEMBLY_INIT": "Assembly", "STATE_ORCHESTRATE": "Core flow",
             "PERSISTENCE_SINK": "Sinks", "BOUNDARY": "Error boundaries"}
    for title, lines in sections(md).items():
        assert lines, f"{title}: an empty heading"  # every stage says something
        if any(words.get(r) == title for r in main):  # the full pack shows units of this stage: none is "none found"
            assert not any("none found" in line for line in lines), (title, lines)
            assert re.fullmatch(r"- \d+ found, left out to fit the size limit", lines[-1]), (title, lines)


def test_a_stage_never_says_none_found_beside_units_that_carry_its_role() -> None:
    """A role a chosen unit carries besides its main one (go-router's sinks) points at those units."""
    md = run_distill_frame(built("go-router"), {"format": "markdown"})["markdown"]
    for title, lines in sections(md).items():
        assert not any("none found" in line and "carry this role" in line for line in lines), (title, lines)


def test_the_left_out_body_note_names_a_request_a_cli_user_can_make_sense_of() -> None:
    """Where to read a body left out is said once, at the top of the Source section; each source
    left out says only its size (26 copies of the sentence took room five more bodies need)."""
    md = run_distill_frame(built("py-service"), {"format": "markdown", "budgetBytes": 3000})["markdown"]
    notes = [line for line in md.split("\n") if line.startswith("(body left out:")]
    assert notes
    for note in notes:
        assert re.fullmatch(r"\(body left out: [\d,]+ bytes\)", note), note
    source = md[md.index("## Source"):]
    assert source.count("LSP request `codegraph/evidence`") == 1 and "read it at its lines" in source


def test_the_json_pack_counts_the_selection_per_stage() -> None:
    pack = run_distill_frame(built("py-service"), {"format": "json", "budgetBytes": smallest(built("py-service"), "json")})["pack"]
    sel = pack["selection"]
    assert len(pack["sources"]) < sel["units"] == sum(sel["stages"].values())
    assert set(sel["stages"]) <= {"entry", "assembly", "core", "sink", "boundary", "context"}


def test_skipped_files_point_at_a_command_the_cli_has(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def main():\n    return 1\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 400)
    index = RootIndex(tmp_path, ScopeConfig(max_file_bytes=1000), use_cache=False)
    index.build()
    md = run_distill_frame(index, {"format": "markdown"})["markdown"]
    assert "- files outside the index (`codegraph index --list-skipped` lists them; over LSP, `codegraph/status`) (1)" in md, md


# ---- one-line reasons never repeat a phrase ---------------------------------------------------------
class _Shares:
    """A ranker stand-in: its features' shares, largest first."""

    def __init__(self, *names: str) -> None:
        self.names = names

    def raised_by(self, row):
        return [(float(len(self.names) - i), n) for i, n in enumerate(self.names)]


@pytest.mark.parametrize("names,said", [
    # (a body's size says nothing a reader can use: never a reason)
    (("plan_assembly", "plan_pick", "log_bytes"), "assembly on the lifecycle walk"),
    (("sel_pct_pagerank_rev", "sel_pagerank_rev", "pct_pagerank_rev", "sel_pct_in"), "its reach; its callers"),
    (("sel_pct_pagerank_rev", "sel_pct_pagerank_rev"), "its reach"),
    (("plan_rank", "plan_pick"), "early on the lifecycle walk"),
])
def test_a_reason_says_each_thing_once(names, said) -> None:
    assert ranker.reason(_Shares(*names), [], "ASSEMBLY_INIT") == said


@pytest.mark.parametrize("name", ["py-wsgi-lib", "js-class-export", "go-kv", "ts-error-ends"])
def test_no_reason_in_a_pack_repeats_a_phrase(name: str) -> None:
    pack = run_distill_frame(built(name), {"format": "json"})["pack"]
    for s in pack["sources"]:
        for why in s["why"]:
            parts = [p.strip() for p in why.split(";")]
            assert len(parts) == len(set(parts)), why
            assert why.count("lifecycle walk") <= 1, why


# ---- counts agree in number ------------------------------------------------------------------------
def test_one_component_is_one_component(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(
        "class Store:\n    def save(self, x):\n        return x\n\n\n"
        "class App:\n    def __init__(self):\n        self.store = Store()\n\n    def run(self):\n        self.store.save(1)\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    model = build_model(index)
    roles = classify(index, model, [])
    why = roles[next(u for u in model.units if u.endswith("App.__init__"))][ASSEMBLY][1]
    assert why == "constructs or obtains `Store`", why  # (named, not counted: nothing to agree in number)


@pytest.mark.parametrize("name", ["py-wsgi-lib", "py-roles", "go-reports", "rs-inline-tests"])
def test_no_text_in_a_pack_counts_one_in_the_plural(name: str) -> None:
    md = run_distill_frame(built(name), {"format": "markdown", "budgetBytes": 24576})["markdown"]
    text = md.split("\n## Source")[0]
    assert not re.search(r"\b1 [a-z ]*?(units|components|fields|callers|owners|results|candidates|calls)\b|\(s\)", text), \
        [line for line in text.split("\n") if re.search(r"\b1 [a-z ]*?s\b|\(s\)", line)]


# ---- nothing to distill ----------------------------------------------------------------------------
def test_an_empty_folder_says_there_is_nothing_to_distill(tmp_path: Path) -> None:
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    result = run_distill_frame(index, {"format": "markdown"})
    md = result["markdown"]
    assert "Nothing to distill here" in md and "Python" in md, md
    assert "complete" not in md and "```mermaid" not in md and "none found" not in md, md
    assert "(0)" not in md, md  # no gap that counts nothing
    pack = run_distill_frame(index, {"format": "json"})["pack"]
    assert pack["selection"]["units"] == 0 and pack["sources"] == [] and pack["status"] == "complete"
    assert {"status", "selection", "sources", "flow", "obligations", "gaps", "facts", "components"} <= set(pack)


def test_a_reason_names_only_what_the_unit_has():
    """A feature with a negative weight raises the score of the units that lack it: "outside the
    library's code" was the reason of koa's `response.attachment`, which is library code."""
    model = ranker.shipped()
    means = [m for _, m in model._a]
    for i, name in enumerate(model.names):
        w = model._a[i][0]
        if w < 0 and name in ranker.SAYS:
            row = list(means)
            row[i] = 0.0  # lacks it: below the mean, so its share is positive
            assert ranker.SAYS[name] not in ranker.reason(model, row).split("; "), name


def test_the_status_line_says_how_many_bodies_the_pack_carries():
    """"32 pieces of code (65,625 bytes of source)" read as if the pack held all of it, where 7 bodies
    were there and 25 named only (flask): the line says how many carry their body."""
    md = run_distill_frame(built("py-service"), {"format": "markdown", "budgetBytes": 6000})["markdown"]
    status = next(line for line in md.splitlines() if line.startswith("Status:"))
    m = re.search(r"(\d+) pieces of code, (\d+) of them with their bodies here", status)
    assert m, status
    units, bodies = int(m.group(1)), int(m.group(2))
    assert 0 < bodies < units and md.count("\n<a id=") - md.count("(body left out:") == bodies  # sources with a body
