"""The agent-ready pack: the same tables rendered as one readable document.

Rendered from the delivered pack only, so markdown and JSON never disagree about what was
selected; the frame gate measures this text inside its response envelope.
"""

from __future__ import annotations

import posixpath

from ..render.guidance import LANGUAGES
from .roles import ROLE_ORDER, STAGE_OF

FENCE_LANG = {".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
              ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx", ".js": "javascript",
              ".jsx": "jsx", ".mjs": "javascript", ".cjs": "javascript"}


def _ref(pack: dict, i: int) -> str:
    s = pack["sources"][i]
    path = pack["files"][s["file"]]["path"]
    return f"S{i} `{path}:{s['lines'][0]}-{s['lines'][1]}` `{s['symbol']}`"


def _fence(body: str) -> str:
    ticks = 3
    while "`" * ticks in body:
        ticks += 1
    return "`" * ticks


def _dedent(body: str, col: int) -> str:
    """The body starts at its unit's column; continuation lines lose that much indentation."""
    if not col:
        return body
    first, *rest = body.split("\n")
    out = [first]
    for line in rest:
        strip = min(col, len(line) - len(line.lstrip(" \t")))
        out.append(line[strip:])
    return "\n".join(out)


ROLE_WORDS = {"TRIGGER_ENTRY": "entry point", "ASSEMBLY_INIT": "assembly (creates and wires parts)",
              "STATE_ORCHESTRATE": "core flow", "PERSISTENCE_SINK": "sink (where results leave)",
              "BOUNDARY": "error boundary", "AUXILIARY": "supporting code"}
STAGE_TITLES = {"entry": "Entry points", "assembly": "Assembly", "core": "Core flow", "sink": "Sinks",
                "boundary": "Error boundaries", "context": "Nearby code"}
STAGE_HEADINGS = (("TRIGGER_ENTRY", "Entry points", "where control enters: host interfaces, public API, commands, main functions"),
                  ("ASSEMBLY_INIT", "Assembly", "constructors, factories and builders that create and wire the parts"),
                  ("STATE_ORCHESTRATE", "Core flow", "the units the flow from the entries passes through"),
                  ("PERSISTENCE_SINK", "Sinks", "where results leave: responses, sockets, files, databases, callbacks"),
                  ("BOUNDARY", "Error boundaries", "error handling, cleanup and rejection around the main path"))
LANE_WORDS = {"skeleton": "main path", "boundary": "error boundary", "context": "nearby"}
STATUS_WORDS = {"complete": "complete", "partial": "partial (some code did not fit the size limit)",
                "incomplete": "incomplete (see the checks below)", "timeout": "stopped at the time limit"}
MAX_DIAGRAM_EDGES = 48


def _label(text: str) -> str:
    """A Mermaid node label: quotes, angle brackets and backticks as entity codes."""
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;").replace("`", "#96;")


def _named(s: dict) -> str:
    """A source as a reader knows it: a module statement by what it is (its `label`, the first line:
    `methods.forEach(function(method){…});`), anything else by its symbol."""
    return s.get("label") or s["symbol"]


def _written(s: dict) -> str:
    """A source's name in markdown text: a statement's label as code (its brackets and stars are code's, and a
    code span binds tighter than a link's brackets), a symbol as it is."""
    label = s.get("label")
    if not label:
        return s["symbol"]
    ticks = "``" if "`" in label else "`"
    return f"{ticks} {label} {ticks}" if ticks == "``" else f"`{label}`"


def _linked(s: dict, i: int) -> str:
    return f"[{_written(s)}](#{_anchor(i)})"


def _anchor(i: int) -> str:
    return f"s{i}"


def _diagram(pack: dict) -> list[str]:
    flow = pack.get("flow") or {}
    stages = flow.get("stages") or {}
    if not stages:
        return []
    lines = ["```mermaid", "flowchart LR"]
    shown: set[int] = set()
    order = [st for st in ("entry", "assembly", "core", "sink", "boundary") if st in stages]
    names = _node_names(pack, [i for st in order for i in stages[st]])
    for st in order:
        lines.append(f'  subgraph {st}["{STAGE_TITLES[st]}"]')
        for i in stages[st]:
            lines.append(f'    {_anchor(i)}["{_label(names[i])}"]')
            shown.add(i)
        lines.append("  end")
    edges = [(a, b, k) for a, b, k in flow.get("edges", []) if a in shown and b in shown][:MAX_DIAGRAM_EDGES]
    for a, b, k in edges:
        lines.append(f"  {_anchor(a)} {'-.->' if k == 'constructs' else '-->'} {_anchor(b)}")
    linked = {(x, y) for x, y, _ in edges}
    stage_of = {i: st for st in order for i in stages[st]}
    for x, y in zip(order, order[1:]):  # the lifecycle order where no proven call shows it
        if y != "boundary" and not any(stage_of.get(a) == x and stage_of.get(b) == y for a, b in linked):
            lines.append(f"  {x} ~~~ {y}")
    if "boundary" in stages:
        lines.append("  classDef errorBoundary stroke-dasharray: 5 5")
        lines.append("  class " + ",".join(_anchor(i) for i in stages["boundary"]) + " errorBoundary")
    for i in sorted(shown):
        lines.append(f'  click {_anchor(i)} href "#{_anchor(i)}"')
    lines.append("```")
    return lines


def _node_names(pack: dict, shown: list[int]) -> dict[int, str]:
    """Each chart node's name; where two nodes would read the same (`module.exports` of three CommonJS
    files, `Driver.new` of two modules), each says its file too, with as many directories as tell them apart."""
    names = {i: _named(pack["sources"][i]) for i in shown}
    by_name: dict[str, list[int]] = {}
    for i, name in names.items():
        by_name.setdefault(name, []).append(i)
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        paths = {i: pack["files"][pack["sources"][i]["file"]]["path"].split("/") for i in same}
        depth = 1
        while depth < max(len(p) for p in paths.values()) and len({"/".join(p[-depth:]) for p in paths.values()}) < len(set(map(tuple, paths.values()))):
            depth += 1
        for i in same:
            names[i] = f"{name} · {'/'.join(paths[i][-depth:])}"
    return names


def render_markdown(pack: dict) -> str:
    if _nothing(pack):  # no stage, chart or source to show: say why instead
        return "\n".join(_overview(pack) + _checks_facts_gaps(pack)) + "\n"
    out = _overview(pack) + _stages(pack) + _components(pack) + _checks_facts_gaps(pack) + _sources(pack)
    return "\n".join(out) + "\n"


def _nothing(pack: dict) -> bool:
    """Nothing was there to choose from (a deadline that stopped the analysis early is not that)."""
    return not pack["selection"]["units"] and pack["status"] != "timeout"


def _overview(pack: dict) -> list[str]:
    """Title, question, status line and the flowchart."""
    out: list[str] = []
    add = out.append
    add(f"# Architecture of {pack['project']}")
    add("")
    if pack.get("question"):
        add(f"Question: {pack['question']}")
        add("")
    sel = pack["selection"]
    if _nothing(pack):  # "complete" would claim a pack of nothing
        if pack["status"] != "complete":
            add(f"Status: **{STATUS_WORDS.get(pack['status'], pack['status'])}**.")
            add("")
        add("Nothing to distill here: no supported source files, or only tests, examples, docs and benchmarks, "
            f"which distill leaves out. codegraph reads {LANGUAGES}. Point it at a folder with such files.")
        return out
    # how much of the chosen code the pack carries: "32 pieces (65,625 bytes)" read as if all of it were here
    with_body = [src for src in pack["sources"] if "body" in src and "alias_of" not in src]
    shown = sum(src["bytes"] for src in with_body)
    carried = (f"{sel['units']} pieces of code ({sel['body_bytes']:,} bytes of source)" if len(with_body) >= sel["units"] else
               f"{sel['units']} pieces of code, {len(with_body)} of them with their bodies here ({shown:,} of "
               f"{sel['body_bytes']:,} bytes of source)")
    add(f"Status: **{_status_words(pack)}**{_coverage(pack)}. {carried}, chosen from the code's structure by weights fitted on other code bases (no language model). Arrows are "
        f"calls (solid) and constructions (dotted) the index proved; the left-to-right order of the groups is the "
        f"lifecycle, not a timeline. Snapshot `{pack['snapshot_id']}`.")
    diagram = _diagram(pack)
    if diagram:
        add("")
        out.extend(diagram)
    return out


def _status_words(pack: dict) -> str:
    """The status in words; a question pack incomplete only for the units its status line names (none of
    the requested checks failed) is not sent to the checks."""
    cov = pack.get("question_units")
    if (pack["status"] == "incomplete" and cov is not None and (not cov["count"] or cov.get("not_chosen"))
            and not cov.get("unread") and all(o["status"] == "satisfied" for o in pack["obligations"] if o["required"])):
        return "incomplete"
    return STATUS_WORDS.get(pack["status"], pack["status"])


def _coverage(pack: dict) -> str:
    """A question pack's status says what of the code the question points to it holds: ': the 4 units the
    question points to are here with their code', or which are not and why ('' for an overview)."""
    cov = pack.get("question_units")
    if cov is None:
        return ""
    n, k = cov["count"], cov["with_code"]
    if not n:
        return ": the question names no unit in scope and none ranks for it: the code below is an overview's choice"
    if k == n:
        return f": the {n} unit{'s' if n != 1 else ''} the question points to {'are' if n != 1 else 'is'} here with {'their' if n != 1 else 'its'} code"
    out = f": {k} of the {n} units the question points to {'is' if k == 1 else 'are'} here with {'its' if k == 1 else 'their'} code"
    if cov.get("left_out"):
        out += "; left out to fit the size limit: " + ", ".join(f"`{x}`" for x in cov["left_out"])
    if cov.get("not_chosen"):
        out += "; not chosen: " + ", ".join(f"`{x}`" for x in cov["not_chosen"])
    if cov.get("unread"):
        out += "; its source failed its check: " + ", ".join(f"`{x}`" for x in cov["unread"])
    return out


def _stages(pack: dict) -> list[str]:
    """One section per lifecycle stage, each unit with its reason. A stage whose chosen units did not fit
    says how many were left out; "none found" only where none was chosen."""
    out: list[str] = []
    add = out.append
    by_role: dict[str, list[int]] = {r: [] for r in ROLE_ORDER}
    for i, s in enumerate(pack["sources"]):
        if s.get("roles") and s["roles"][0] in by_role:
            by_role[s["roles"][0]].append(i)
    chosen = pack["selection"].get("stages", {})
    for role, title, what in STAGE_HEADINGS:
        refs = by_role[role]
        add(f"\n## {title}: {what}")
        for i in refs:
            s = pack["sources"][i]
            path = pack["files"][s["file"]]["path"]
            why = (s.get("why") or [""])[0]
            add(f"- {_linked(s, i)} `{path}:{s['lines'][0]}`" + (f": {why}" if why else ""))
        left = chosen.get(STAGE_OF[role], 0) - sum("alias_of" not in pack["sources"][i] for i in refs)
        ob = next((o for o in pack["obligations"] if o["id"] == f"role:{role}"), None)
        if left > 0:
            add(f"- {left}{' more' if refs else ''} found, left out to fit the size limit")
        elif refs:
            continue
        elif ob and ob["sources"]:  # chosen units carry the role besides their main one: shown in their stage
            add("- none as the main role; also a role of " + ", ".join(
                _linked(pack["sources"][i], i) for i in ob["sources"]))
        else:
            add("- none found" + (f" ({ob['reason']})" if ob else ""))
    return out


def _components(pack: dict) -> list[str]:
    if not pack["components"]:
        return []
    out = ["\n## Components (by directory; arrows are dependencies)"]
    name_of = {c["id"]: c["name"] for c in pack["components"]}
    for c in pack["components"]:
        deps = ", ".join(f"`{name_of[d]}`" for d in c["depends_on"] if d in name_of) or "none of the others"
        names = [_linked(pack["sources"][i], i) for i in c["sources"]]
        out.append(f"- `{c['name']}` ({len(names)}): " + ", ".join(names[:6]) + (" …" if len(names) > 6 else "") + f"; depends on {deps}")
    return out


def _fact_text(pack: dict, fact: dict) -> str:
    """A fact as a reader reads it: the module statements it names (`<registration@28>`) by their labels."""
    text = fact["text"]
    for i in fact.get("sources", ()):
        s = pack["sources"][i]
        if s.get("label"):
            text = text.replace(s["symbol"], _written(s))
    return text


def _checks_facts_gaps(pack: dict) -> list[str]:
    out: list[str] = []
    add = out.append
    asked = [o for o in pack["obligations"] if not o["id"].startswith("role:")]
    if asked:
        add("\n## Requested checks")
        for o in asked:
            req = "required" if o["required"] else "optional"
            add(f"- `{o['id']}` ({req}): **{o['status']}**, {o['reason']}")
    if pack["facts"]:
        add("\n## Facts (proven from the code)")
        for f in pack["facts"]:
            add(f"- {_fact_text(pack, f)}")
    gaps = [g for g in pack["gaps"] if g["count"]]  # a count of 0 is nothing the index missed
    if gaps:
        add("\n## What the index could not see")
        for g in gaps:
            add(f"- {g['text']} ({g['count']:,})")
    return out


def _sources(pack: dict) -> list[str]:
    """Every source with its roles, lane and code (or where to fetch the code left out)."""
    if not pack["sources"]:
        return []
    out = ["\n## Source"]
    add = out.append
    if any("body" not in s and "alias_of" not in s for s in pack["sources"]):
        add("\nA body left out to fit the size limit says so with its size: read it at its lines, or by the LSP "
            "request `codegraph/evidence`.")
    for i, s in enumerate(pack["sources"]):
        path = pack["files"][s["file"]]["path"]
        roles = ", ".join(ROLE_WORDS.get(r, r) for r in s["roles"])
        where = f"inside {_linked(pack['sources'][s['alias_of']], s['alias_of'])}" if "alias_of" in s \
            else LANE_WORDS.get(s["lane"], s["lane"])
        add(f'\n<a id="{_anchor(i)}"></a>')
        add(f"### {_written(s)} · `{path}:{s['lines'][0]}-{s['lines'][1]}`")
        add(f"{roles} · {where} · {s['bytes']:,} bytes")
        if "body" in s:
            fence = _fence(s["body"])
            lang = FENCE_LANG.get(posixpath.splitext(path)[1], "")
            add(f"{fence}{lang}\n{_dedent(s['body'], s.get('col', 0))}\n{fence}")
        elif "alias_of" not in s:
            add(body_left_out_note(s["bytes"]))
    return out


def body_left_out_note(size: int) -> str:
    """What the markdown says where a source's body was left out (the pack gate's size bound reads it too)."""
    # (where to read it is said once, at the top of the section; the CLI has no evidence request: its
    # reader reads the file)
    return f"(body left out: {size:,} bytes)"
