"""Where a unit sits among the others: the type or callable holding it, the interfaces it implements, what
its type can set in motion, how many files name a type."""

from __future__ import annotations

from functools import lru_cache
import re

from ...index.facts import CALLABLE_KINDS, CLASS_KINDS
from ...languages import BY_NAME
from ..topology import Model
from .patterns import VALUE_WRAPPERS


def _held_type(text: str) -> str:
    """The named type a declaration holds: `Option<Foo<T>>` → `Foo`, `&mut pkg::Bar` → `Bar`."""
    t = text.strip().lstrip("*&").removeprefix("mut ").strip()
    while True:
        head, _, rest = t.partition("<")
        if head.strip() in VALUE_WRAPPERS and rest:
            t = rest.rsplit(">", 1)[0].split(",", 1)[0].strip().lstrip("*&")
            continue
        return re.split(r"::|\.", head.strip())[-1]


def _without_views(receiver: str, views: frozenset[str]) -> str:
    """A receiver without the steps that only view it (`self.as_mut().project().conn` →
    `self.conn`): a pinned or projected `self` is still the object itself."""
    parts = receiver.split(".")
    kept = parts[:1] + [p for p in parts[1:] if not (p.strip().endswith("()") and p.strip()[:-2] in views)]
    return ".".join(kept)


@lru_cache(maxsize=16)
def _host_methods(language: str) -> dict[str, str]:
    """Interface or trait name → the method a host calls through it (languages/* specs)."""
    spec = BY_NAME.get(language)
    return {name: method for name, method, _ in spec.host_contracts} if spec is not None else {}


def _outermost(model: Model, uid: str, stop_at_type: bool = False) -> str:
    """The outermost callable holding a unit (itself when none); `stop_at_type`: the type holding it, if any."""
    while (parent := model.units[uid].parent) and (model.units[parent].kind in CALLABLE_KINDS or model.units[parent].kind in CLASS_KINDS):
        if model.units[parent].kind in CLASS_KINDS:
            return parent if stop_at_type else uid
        uid = parent
    return uid


def _holders(model: Model, uid: str) -> set[str]:
    """The units a unit is nested in (`Retrofit.Builder` is held by `Retrofit`)."""
    out, parent = set(), model.units[uid].parent if uid else None
    while parent:
        out.add(parent)
        parent = model.units[parent].parent
    return out


def _owner_type(model: Model, uid: str) -> str:
    """The type holding a unit ("" when none); each unit's is walked once per model (the plan asks ~30,000 times)."""
    got = model.owner_types.get(uid)
    if got is None:
        parent = model.units[uid].parent
        while parent and model.units[parent].kind not in CLASS_KINDS:
            parent = model.units[parent].parent
        got = model.owner_types[uid] = parent or ""
    return got


def _implementations(index, model: Model, arch: set[str], ordered: list[str]) -> dict[str, tuple[str, bool]]:
    """Methods implementing an interface: uid → (interface.method, is a host contract).

    Interfaces declared in scope count when they are public; a few runtime contracts
    (`Future::poll`, `Service::call`) are host interfaces even though they are declared elsewhere."""
    declared: dict[str, set[str]] = {}
    for uid, u in model.units.items():
        if u.parent and uid in arch and model.units[u.parent].kind in ("interface", "trait") and u.kind in CALLABLE_KINDS:
            declared.setdefault(model.units[u.parent].name, set()).add(u.name)
    supers: dict[str, set[str]] = {}
    for path in sorted({model.units[x].path for x in arch}):
        for st in index.files[path].supertypes:
            supers.setdefault(st.unit, set()).add(st.name)
    out: dict[str, tuple[str, bool]] = {}
    for uid in ordered:  # arch in stable order
        u = model.units[uid]
        if not (u.kind in CALLABLE_KINDS and u.parent and u.parent in supers):
            continue
        for name in sorted(supers[u.parent]):
            if _host_methods(index.files[u.path].language).get(name) == u.name:
                spec = BY_NAME.get(index.files[u.path].language)
                out[uid] = (f"{name}{spec.member_separator if spec is not None else '.'}{u.name}", True)
                break
            if u.name in declared.get(name, ()):
                out.setdefault(uid, (f"{name}.{u.name}", False))
    return out


def _type_reach(model: Model, flow, owners: set[str]) -> dict[str, int]:
    """What an object can set in motion: the reach of its methods and of the methods of every
    type it constructs, transitively (an application object builds its router, and so on)."""
    methods: dict[str, list[str]] = {}
    for y in flow.ordered:
        t = _owner_type(model, y)
        if t:
            methods.setdefault(t, []).append(y)
    builds: dict[str, set[str]] = {}
    for t, ms in methods.items():
        for y in ms:
            for d in flow.out.get(y, ()):
                if (y, d) in flow.constructs:
                    builds.setdefault(t, set()).add(d if model.units[d].kind in CLASS_KINDS else _owner_type(model, d))
    own: dict[str, int] = {}  # a type's methods and what lies downstream of them: one int per type, built once

    def type_bits(t: str) -> int:
        b = own.get(t)
        if b is None:
            b = 0
            for y in methods.get(t, ()):
                b |= flow.reach_bits[y]
            own[t] = b
        return b

    out: dict[str, int] = {}
    for owner in sorted(owners):
        seen, stack, bits = {owner}, [owner], 0
        while stack:
            t = stack.pop()
            bits |= type_bits(t)
            for b in sorted(builds.get(t, set()) - seen - {""}):
                seen.add(b)
                stack.append(b)
        out[owner] = bits.bit_count()
    return out


def _referenced_types(index, model: Model, arch: set[str]) -> dict[str, int]:
    """How many other files in scope name a type (imports, constructions, calls): the application
    object a host runs is built by its user, so nothing else in scope refers to it."""
    by_name: dict[str, list[str]] = {}
    for uid in arch:
        u = model.units[uid]
        if u.kind in CLASS_KINDS:
            by_name.setdefault(u.name, []).append(uid)
    files: dict[str, set[str]] = {}
    for path in sorted({model.units[x].path for x in arch}):
        f = index.files[path]
        names = {i.name or i.alias for i in f.imports} | {c.name for c in f.calls} | {c.receiver.split(".")[0] for c in f.calls}
        for n in names:
            for t in by_name.get(n, ()):
                if model.units[t].path != path and not path.rsplit("/", 1)[-1].startswith(("__init__.", "index.", "mod.", "lib.")):
                    files.setdefault(t, set()).add(path)
    return {t: len(v) for t, v in files.items()}
