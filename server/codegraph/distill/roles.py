"""Roles from syntax and resolved bindings, each with a discrete signal tier and a reason.

Multi-label. Never from file names or degree: a unit's roles do not change when more
callers appear. Language-defined entry conventions (Go `func main` in package main, Rust
`fn main`, JVM `static main`, Python's `__init__`) are syntax, not name heuristics.
"""

from __future__ import annotations

import re
from typing import Callable

from ..index.facts import CALLABLE_KINDS, Unit
from ..languages import BY_NAME
from ..render.markdown import redact_lines
from .manifests import DeclaredEntry
from .signals import (
    NETWORK_NAMES,
    READ_NAMES,
    REGISTRATION_CALLS,
    WRITE_NAMES,
    boundary_marks,
    call_text,
    error_regions,
    io_fields,
    io_locals,
    is_registration_decorator,
    output_tier,
    persistence_call,
)
from .topology import Model

ENTRY, ASSEMBLY, ORCHESTRATE, PERSIST, BOUNDARY, AUX = (
    "TRIGGER_ENTRY", "ASSEMBLY_INIT", "STATE_ORCHESTRATE", "PERSISTENCE_SINK", "BOUNDARY", "AUXILIARY",
)
ROLE_ORDER = (ENTRY, ASSEMBLY, ORCHESTRATE, PERSIST, BOUNDARY)
SKELETON_ROLES = (ENTRY, ASSEMBLY, ORCHESTRATE, PERSIST)
# the lifecycle stage a unit's main role puts it in (any other: "context")
STAGE_OF = {ENTRY: "entry", ASSEMBLY: "assembly", ORCHESTRATE: "core", PERSIST: "sink", BOUNDARY: "boundary"}
FIELD_STORE = re.compile(rb"^\s*(?:self|this)\.\w+\s*(?::[^=\n]*)?=[^=]", re.M)
PARAM_PROPERTY = re.compile(rb"\b(?:private|public|protected|readonly)\s+\w+\s*[:?]")
# `x = f(...)`, `x, err := f(...)`, `const x = await new F(...)`: a local receiving a call's result
FLOW = re.compile(rb"^\s*(?:(?:const|let|var|val|auto)\s+)?(\w+)(?:\s*,\s*\w+)*\s*(?::[^=\n]*)?:?=\s*(?:await\s+|new\s+|&)*[\w.]+\s*[({]", re.M)
RAISES = re.compile(rb"^\s*(raise|throw|panic)\b")

Roles = dict[str, dict[str, tuple[int, str]]]  # unit id → role → (tier, reason)


def _counted(*counts: tuple[int, str]) -> str:
    """`3 resolved owners and 1 held component`: the counts that are not 0, each noun in its number."""
    return " and ".join(f"{k} {noun}{'' if k == 1 else 's'}" for k, noun in counts if k)


def named(names: list[str]) -> str:
    """`a` and `b`, or `a` and 3 more: what a reason names, so a reader can find it in the body; the first in
    full, the rest counted when there are more than two (a reason is a line, the frame's bytes are for code)."""
    if len(names) > 2:
        return f"`{names[0]}` and {len(names) - 1} more"
    return " and ".join(f"`{n}`" for n in names)


LABEL_WIDTH = 60


def statement_label(u: Unit, source: bytes) -> str:
    """What a module statement is, for a reader: its first line, trimmed, and when it runs on, `…` and its closing
    line if that is only brackets (`methods.forEach(function(method){…})`); credential lines redacted. Its
    symbol (`<registration@489>`) stays the pack's stable name: this is a label beside it."""
    lines = [line.strip() for line in source[u.start_byte : u.end_byte].decode("utf-8", "replace").split("\n")]
    lines = [" ".join(line.split()) for line in redact_lines(lines, u.start_line) if line]
    if not lines:
        return u.qualname
    first = lines[0]
    if len(first) > LABEL_WIDTH:
        return first[: LABEL_WIDTH - 1].rstrip() + "…"
    if len(lines) > 1:
        last = lines[-1]
        return first + "…" + (last if len(last) <= 4 and not any(ch.isalnum() for ch in last) else "")
    return first


def _display(model: Model, ref: str) -> str:
    """A unit (or a file, for code outside any type) as a reader finds it: a constructor by its type's name."""
    u = model.units.get(ref)
    if u is None:
        return ref.rsplit("/", 1)[-1]
    if (u.kind == "constructor" or u.name in ("__init__", "constructor")) and u.parent in model.units:
        return model.units[u.parent].qualname
    return u.qualname


def _put(roles: Roles, uid: str, role: str, tier: int, why: str) -> None:
    cur = roles.setdefault(uid, {}).get(role)
    if cur is None or tier < cur[0]:
        roles[uid][role] = (tier, why)


def _signature(u: Unit, source: bytes) -> bytes:
    return source[u.start_byte : max(u.sig_end_byte, u.start_byte)]


def _entry(roles: Roles, model: Model, index, u: Unit, source: bytes) -> None:
    # Tier 1 is kept for entries a manifest declares and the index binds; language-defined
    # entry syntax (main guard, func main, static main) is an explicit syntax signal.
    if u.kind == "statement":
        if u.stmt_kind == "main_guard":
            _put(roles, u.id, ENTRY, 2, "main guard" + (" calling resolved units" if model.out.get(u.id) else ""))
        elif u.stmt_kind == "registration":
            last = re.split(r"[.:]", u.name.split("(")[0])[-1] if u.name else ""
            called = u.name.rsplit(".", 1)[-1] if "." in u.name else ""
            if last in REGISTRATION_CALLS or called in REGISTRATION_CALLS:
                _put(roles, u.id, ENTRY, 3, f"registration call `{u.name[:60]}` (a signal, not proof of activation)")
        return
    if u.kind not in CALLABLE_KINDS or not (u.decorators or u.name == "main"):
        return  # (the rules below read a decorator or a `main`)
    facts = index.files[u.path]
    spec = BY_NAME.get(facts.language)
    for deco in u.decorators:
        if spec is not None and spec.entry_attribute(deco):
            _put(roles, u.id, ENTRY, 2, f"runtime entry attribute `{deco[:60]}`")
        elif is_registration_decorator(deco):
            _put(roles, u.id, ENTRY, 2, f"handler registration `{deco[:60]}` (a signal, not proof of activation)")
    if u.name == "main" and spec is not None:
        top = u.parent is None or index.resolver.units.get(u.parent, u).kind == "statement"
        why = spec.main_entry(u, facts, top, lambda: _signature(u, source))
        if why:
            _put(roles, u.id, ENTRY, 2, why)


def _declared(roles: Roles, model: Model, entries: list[DeclaredEntry]) -> None:
    for e in entries:
        where = f"`{e.name}` → `{e.target}` ({e.manifest})"
        if e.unit and e.unit in model.units:
            _put(roles, e.unit, ENTRY, 1, f"declared entry {where}")
        elif e.path:
            units = [u for u in model.units.values() if u.path == e.path]
            stmts = [u for u in units if u.kind == "statement"]
            for u in stmts:
                _put(roles, u.id, ENTRY, 1, f"statement of declared entry file {where}")
            if not stmts:
                for u in units:
                    if u.kind in CALLABLE_KINDS and u.parent is None:
                        _put(roles, u.id, ENTRY, 2, f"top-level callable of declared entry file {where}")


def _constructs_any(model: Model, d: str, memo: dict[str, bool]) -> bool:
    """d constructs some resolved unit (read once per callee, not once per caller)."""
    got = memo.get(d)
    if got is None:
        got = memo[d] = any(model.kinds.get((d, x)) == "constructs" for x in model.out.get(d, ()))
    return got


def _assembly(roles: Roles, model: Model, u: Unit, source: bytes, lines_of: Callable[[], list[bytes]],
              makers: dict[str, bool]) -> None:
    out = model.out.get(u.id, ())
    if u.kind == "statement":
        if u.stmt_kind == "wiring":
            _put(roles, u.id, ASSEMBLY, 1 if out else 2, "module-level wiring" + (" of resolved components" if out else ""))
        elif u.stmt_kind == "registration" and out:
            _put(roles, u.id, ASSEMBLY, 2, "module-level registration of resolved units")
        return
    ctor = u.kind == "constructor" or (u.kind == "method" and u.name in ("__init__", "constructor"))
    if u.kind not in CALLABLE_KINDS or not (out or ctor):
        return  # nothing built and no constructor: none of the rules below can hold
    built = {d for d in out if model.kinds.get((u.id, d)) == "constructs"}
    if built:  # a construction on a `raise` line builds an error, not a component
        # (a call on one line: a macro's call records the line of its name, which a chain may start before)
        call_at = {c.line: c.start_byte for c in model.calls.get(u.id, ()) if source.find(b"\n", c.start_byte, c.end_byte) < 0}
        built = {d for d in built if not RAISES.match(_line(source, model.lines[(u.id, d)], call_at, lines_of))}
    producers = {d for d in out if d not in built and _constructs_any(model, d, makers)}
    comps = len(built | producers)
    if comps >= 2 or (ctor and comps >= 1):  # named, built ones first: what a reader looks for in the body
        parts = [_display(model, d) for d in sorted(built, key=model.order.__getitem__)]
        parts += [_display(model, d) for d in sorted(producers, key=model.order.__getitem__)]
        _put(roles, u.id, ASSEMBLY, 1, f"constructs or obtains {named(list(dict.fromkeys(parts)))}")
    elif ctor and (fields := len(FIELD_STORE.findall(source[u.start_byte : u.end_byte]))
                   + len(PARAM_PROPERTY.findall(_signature(u, source)))) >= 2:  # read only for a constructor
        _put(roles, u.id, ASSEMBLY, 2, f"constructor storing {fields} fields")
    elif len(built) == 1 and not producers:
        _put(roles, u.id, ASSEMBLY, 3, f"constructs {named([_display(model, next(iter(built)))])}")  # (a factory candidate)


def _line(source: bytes, line: int, call_at: dict[int, int], lines_of: Callable[[], list[bytes]]) -> bytes:
    """The text of a 1-based line: around a call that starts on it (`call_at`: line → its start byte), so
    the file is not split; else from the file's lines (b"" past its end)."""
    start = call_at.get(line)
    if start is not None:
        end = source.find(b"\n", start)
        return source[source.rfind(b"\n", 0, start) + 1 : end if end >= 0 else len(source)]
    lines = lines_of()
    return lines[line - 1] if line <= len(lines) else b""


def _lines(lines_by_path: dict[str, list[bytes]], path: str, source: bytes) -> list[bytes]:
    got = lines_by_path.get(path)
    if got is None:
        got = lines_by_path[path] = source.split(b"\n")
    return got


def _flowed(u: Unit, source: bytes) -> set[str]:
    """Locals that receive a call's result inside the unit (`app = build_app(...)`): values passed between calls."""
    body = source[u.start_byte : u.end_byte]
    return {m.decode("utf-8", "replace") for m in FLOW.findall(body)}


def _orchestrate(roles: Roles, model: Model, u: Unit, source: bytes) -> None:
    """Several resolved components driven, values passed between calls, held components used.

    Calls to leaf helpers (resolved callees that call nothing resolved) count once at most,
    so a utility used everywhere never makes its callers look like orchestrators.
    """
    if not (u.kind in CALLABLE_KINDS or u.stmt_kind == "main_guard") or not (u.id in model.out or u.id in model.calls):
        return  # (a unit that calls nothing drives nothing)
    units, out = model.units, model.out
    inner: set[str] = set()  # the owners of the callables it calls that call something themselves
    leaves = False  # it calls a leaf helper
    for d in out.get(u.id, ()):
        du = units[d]
        if du.kind in CALLABLE_KINDS:
            if out.get(d):
                inner.add(du.parent or du.path)
            else:
                leaves = True
    me = {"self", "this", u.receiver} - {""}
    held: set[str] = set()  # `self.x` receivers: held components used
    plain: set[str] = set()  # plain-name receivers
    assigned: set[str] = set()
    for c in model.calls.get(u.id, ()):  # one pass over the calls for the three sets
        r = c.receiver
        if r:
            if "." not in r:
                plain.add(r)
            elif r.count(".") == 1 and r.split(".")[0] in me:
                held.add(r)
        if c.assigned_to:
            assigned.add(c.assigned_to)
    # locals that receive a call's result (the extractor records them), then used as receivers
    flowed = assigned & plain
    n = len(inner) + len(held) + len(flowed)
    if n < 2:
        return
    tier = 1 if n + int(leaves) >= 3 and len(inner) + len(flowed) >= 1 else 2
    # what it drives by name (the owners, then the held components), and the results it passes on: a
    # count ("drives 1 resolved owner and 1 held component") left the reader nothing to check
    driven = _driven(model, u.id, inner)
    # (a held receiver that is a call on the unit's own object, `self.eat_spanned(…)`, is named where nothing else is)
    driven += sorted(h for h in map(_held, held) if "(" not in h) or ([] if driven or flowed else sorted(map(_held, held)))
    # (what it passes on only where it drives nothing by name: a reason is one line)
    said = f"{'drives' if tier == 1 else 'calls'} {named(list(dict.fromkeys(driven)))}" if driven else f"passes {named(sorted(flowed))} on"
    _put(roles, u.id, ORCHESTRATE, tier, said)


def _driven(model: Model, uid: str, owners: set[str]) -> list[str]:
    """What an orchestrator drives, by name (in the code base's order): of each owner it drives, the first unit it
    calls there — the call a reader finds in the body (`Parser.parse_tuple`, not `Parser` nor its file)."""
    out, units = model.out, model.units
    first: dict[str, str] = {}
    for d in sorted(out.get(uid, ()), key=model.order.__getitem__):
        du = units[d]
        owner = du.parent or du.path
        if owner in owners and out.get(d):
            first.setdefault(owner, d)
    return [_display(model, d) for d in first.values()]


def _held(receiver: str) -> str:
    """A held component as named in a reason: `self.tokens`, a call's arguments elided (`self.float(…)`)."""
    at = receiver.find("(")
    return receiver if at < 0 else receiver[:at] + "(…)"


def classify(index, model: Model, entries: list[DeclaredEntry]) -> Roles:
    """Roles of every in-scope unit except BOUNDARY (that one attaches to the backbone later)."""
    roles: Roles = {}
    io_by_path: dict[str, frozenset[str]] = {}
    fields_by_owner: dict[str, set[str]] = {}
    for uid, u in model.units.items():  # first pass: fields that hold an I/O resource, per class
        if u.parent and u.kind in CALLABLE_KINDS:
            io = io_by_path[u.path] if u.path in io_by_path else io_by_path.setdefault(u.path, io_locals(index.files[u.path]))
            if io:
                fields_by_owner.setdefault(u.parent, set()).update(io_fields(u, model.calls.get(uid, []), io, index.sources[u.path]))
    lines_by_path: dict[str, list[bytes]] = {}  # split once per file, and only for a construction line no call starts on
    owner_fields: dict[str, frozenset[str]] = {}
    makers: dict[str, bool] = {}  # callee → constructs something (the assembly rule's producers)
    for uid, u in model.units.items():
        source = index.sources[u.path]
        _entry(roles, model, index, u, source)
        _assembly(roles, model, u, source, lambda: _lines(lines_by_path, u.path, source), makers)
        _orchestrate(roles, model, u, source)
        if u.kind in CALLABLE_KINDS or u.kind == "statement":
            io = io_by_path[u.path] if u.path in io_by_path else io_by_path.setdefault(u.path, io_locals(index.files[u.path]))
            owner = u.parent or ""
            fields = owner_fields.get(owner)
            if fields is None:  # one frozenset per owner, not one per unit
                fields = owner_fields[owner] = frozenset(fields_by_owner.get(owner, ()))
            tier, call = persistence_call(model.calls.get(uid, []), io, fields)
            if tier and call is not None:
                _put(roles, uid, PERSIST, tier, _io_reason(tier, call, source))
    _declared(roles, model, entries)
    return roles


def _io_reason(tier: int, call, source: bytes) -> str:
    """The read/write call a sink's signal saw, by name (`writes through `fs.writeFileSync``): tier 1 is bound
    to an imported I/O module, the others are read from the call's name alone."""
    verb = ("writes through" if call.name in WRITE_NAMES else "reads through" if call.name in READ_NAMES
            else "sends through" if call.name in NETWORK_NAMES else "calls")
    return f"{verb} `{call_text(call, source)}`" + (" (imported I/O)" if tier == 1 else "")


def boundary_roles(index, model: Model, uids: set[str]) -> dict[str, tuple[int, str, tuple]]:
    """BOUNDARY for the given units only: uid → (tier, reason, marks). A boundary catches, recovers, handles,
    translates or raises an error; a unit whose marks only hand one on as it came (Rust's `?`, Go's
    `if err != nil { return err }`) or only clean up (`with`, `try`/`finally`, a bare `defer`) is none: toml's
    `Tokenizer.expect` (a `?`) and click's `wrap_text` (an indentation `with`) were shown as error boundaries."""
    out: dict[str, tuple[int, str, tuple]] = {}
    for path in sorted({model.units[u].path for u in uids}):
        for m in boundary_marks(index.files[path]):
            if m.unit not in uids:
                continue
            tier, why, marks = out.get(m.unit, (9, "", ()))
            out[m.unit] = (min(tier, m.tier), why, marks + (m,))
    for uid, (tier, _, marks) in list(out.items()):
        path = model.units[uid].path
        facts = index.files[path]
        said = mark_phrases(marks, error_regions(facts), index.sources.get(path, b""))
        if all(p in WEAK_MARKS for p in said):  # it only hands an error on or cleans up: no boundary,
            turned = _translates(model.calls.get(uid, ()), facts.language)
            if not turned:
                del out[uid]
                continue
            said = [f"turns errors with `{turned}`", *said]  # unless it turns one into another (`map_err`)
        out[uid] = (tier, ", ".join(said[:2]), marks)
    return out


# What each boundary mark is, in a reader's words, by its node type (each is one language's: a Go `return`
# is marked only when it makes a new error, a `match_arm` only when it matches `Err(…)`); a `try` is said
# by what it holds (`mark_phrases`). "error/cleanup syntax: try" was said of Rust's `?`, which only hands an
# error on.
MARK_SAYS = {
    "match_arm": "handles `Err(…)` in a match", "return_statement": "returns a new error",
    "with_statement": "runs a `with` block", "raise_statement": "raises an error", "throw_statement": "throws an error",
    "try_with_resources_statement": "closes its resources (try-with-resources)",
}


# marks that alone make no boundary (`boundary_roles`); measured on the fit split: recall and roles unchanged
WEAK_MARKS = frozenset({"propagates errors with `?`", "hands `err` back", "defers a cleanup", "runs a `with` block",
                        "cleans up in `finally`"})
def _translates(calls, language: str) -> str:
    """The first call of a unit's that turns an error into another (`map_err`; the language spec's
    `error_translators`), '' when none."""
    spec = BY_NAME.get(language)
    names = spec.error_translators if spec is not None else frozenset()
    return next((c.name for c in calls if c.name in names), "")


# `if err != nil { return err }`, `{ return nil, err }`: the error handed back as it came, nothing done with it
HANDS_BACK = re.compile(rb"\s*return\s+(?:[^,{}()\n]+,\s*)*err\s*")


def _hands_back(text: bytes) -> bool:
    """A Go `if err != nil` block that only returns the error unchanged (an `else`, a call, any other statement:
    something is done with it)."""
    start, end = text.find(b"{"), text.rfind(b"}")
    return 0 <= start < end and HANDS_BACK.fullmatch(text, start + 1, end) is not None


def mark_phrases(marks: tuple, catches: list[tuple[int, int]], source: bytes) -> list[str]:
    """What a unit's boundary marks are, strongest first, each kind once: a `try` that holds an error handler
    "catches errors", one that does not only cleans up, Rust's `expr?` (a `try_expression` ending in `?`)
    hands the error on; Go's `if err != nil` handles it unless it only returns it, its `defer` recovers only
    with `recover()`."""
    said: dict[str, int] = {}
    for m in sorted(marks, key=lambda m: (m.tier, m.start_byte)):
        t, text = m.node_type, source[m.start_byte : m.end_byte]
        if t == "try_expression" and text.rstrip().endswith(b"?"):
            phrase = "propagates errors with `?`"
        elif t in ("try_statement", "try_expression"):
            held = any(m.start_byte <= s and e <= m.end_byte for s, e in catches)
            phrase = "catches errors" if held else "cleans up in `finally`"
        elif t == "if_statement":  # (only `if err != nil` is marked)
            phrase = "hands `err` back" if _hands_back(text) else "handles `err != nil`"
        elif t == "defer_statement":
            phrase = "recovers from a panic" if b"recover()" in text else "defers a cleanup"
        else:
            phrase = MARK_SAYS.get(t) or t.replace("_statement", "").replace("_", " ")
        said.setdefault(phrase, m.tier)
    return list(said)


def output_sinks(model: Model, known: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """Units that write results to an output their caller handed in (a response, a send callable)."""
    out: dict[str, tuple[int, str]] = {}
    for uid in sorted(model.calls, key=model.order.__getitem__):
        u = model.units[uid]
        if u.kind not in CALLABLE_KINDS or (uid in known and known[uid][0] == 1):
            continue
        name = output_tier(u.param_names, model.calls[uid], u.param_types)
        if name:
            out[uid] = (1, f"writes results to `{name}`, the output its caller hands in")
    return out
