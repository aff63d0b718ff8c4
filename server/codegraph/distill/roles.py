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
from .manifests import DeclaredEntry
from .signals import (
    REGISTRATION_CALLS,
    boundary_marks,
    io_fields,
    io_locals,
    is_registration_decorator,
    output_tier,
    persistence_tier,
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
    if comps >= 2 or (ctor and comps >= 1):
        _put(roles, u.id, ASSEMBLY, 1, f"constructs or obtains {_counted((comps, 'resolved component'))}")
    elif ctor and (fields := len(FIELD_STORE.findall(source[u.start_byte : u.end_byte]))
                   + len(PARAM_PROPERTY.findall(_signature(u, source)))) >= 2:  # read only for a constructor
        _put(roles, u.id, ASSEMBLY, 2, f"constructor storing {fields} fields")
    elif len(built) == 1 and not producers:
        _put(roles, u.id, ASSEMBLY, 3, "constructs one resolved component (factory candidate)")


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
    said = [f"{'drives' if tier == 1 else 'calls'} {_counted((len(inner), 'resolved owner'), (len(held), 'held component'))}"] if inner or held else []
    said += [f"passes {_counted((len(flowed), 'call result'))} on"] if flowed else []
    _put(roles, u.id, ORCHESTRATE, tier, ", ".join(said))


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
            tier = persistence_tier(model.calls.get(uid, []), io, fields)
            if tier:
                _put(roles, uid, PERSIST, tier, "calls a read/write interface" + (" bound by import" if tier == 1 else ""))
    _declared(roles, model, entries)
    return roles


def boundary_roles(index, model: Model, uids: set[str]) -> dict[str, tuple[int, str, tuple]]:
    """BOUNDARY for the given units only: uid → (tier, reason, marks)."""
    out: dict[str, tuple[int, str, tuple]] = {}
    for path in sorted({model.units[u].path for u in uids}):
        for m in boundary_marks(index.files[path]):
            if m.unit not in uids:
                continue
            tier, why, marks = out.get(m.unit, (9, "", ()))
            out[m.unit] = (min(tier, m.tier), why, marks + (m,))
    for uid, (tier, _, marks) in list(out.items()):
        kinds = sorted({m.node_type.replace("_statement", "").replace("_expression", "").replace("_", " ") for m in marks})
        out[uid] = (tier, "error/cleanup syntax: " + ", ".join(kinds), marks)
    return out


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
