"""What the question and the flow point at beyond calls: names spelled in code, members added
at load time, awaited protocols, wiring statements, the state and registries a flow passes
through, the implementations a flow call dispatches to."""

from __future__ import annotations



import re
from collections import defaultdict

from ..graph.likely import CTOR_NAMES, likely_graph
from ..index.facts import Unit
from ..index.index import RootIndex
from ..languages import BY_NAME
from .flow import Flow
from .relevance import NameTable, path_prior
from .tables import MIN_SIBLINGS, MIN_WIRED_NAMES, Derived, derived, per_version


MAX_DATA_READERS = 4  # a data name more callables mention is too common to point anywhere


def _readers_of_data_names(index: RootIndex, q, excluded) -> list[Unit]:
    """A name the question writes in code form that no definition has (a settings key such as
    `ITEM_PIPELINES`, a constant) is found where code spells it out: the few callables whose
    bodies mention it exactly are what reads or writes it."""
    out: list[Unit] = []
    for token in q.data_names:
        pattern = _spelled(token)
        found: dict[str, Unit] = {}
        for path, source in index.sources.items():
            if excluded(path) or token.encode() not in source or path_prior(path) < 1.0:
                continue
            units = [u for u in index.files[path].units if u.is_callable]
            for m in pattern.finditer(source):
                inner = [u for u in units if u.start_byte <= m.start() < u.end_byte]
                if inner:
                    u = max(inner, key=lambda u: u.start_byte)  # the innermost callable
                    found[u.id] = u
        if 0 < len(found) <= MAX_DATA_READERS:
            out += sorted(found.values(), key=lambda u: u.id)
    return out


def _members_added_at_load(index: RootIndex, q) -> None:
    """`axios.get(…)` where `get` is no method written in a class but one a module-level
    statement adds to `Axios` when it loads (`Axios.prototype[m] = …` for m in 'get', …): that
    statement is what the question names."""
    for token in list(q.named):
        head, _, name = token.rpartition(".")
        if not head.isidentifier() or not head[:1].islower() or len(head) < 4:
            continue
        found = []
        for path, facts in index.files.items():
            spec = BY_NAME.get(facts.language)
            if spec is None or spec.runtime_members is None:
                continue
            source = index.sources.get(path, b"")
            for u in facts.units:
                hit = spec.runtime_members.search(source, u.start_byte, u.end_byte) if u.kind == "statement" and u.parent is None else None
                if hit and hit.group(1).decode().lower().endswith(head.lower()) and _spelled(name).search(source, u.start_byte, u.end_byte):
                    found.append(u)
        if 0 < len(found) <= 3:
            q.named[token] = found


def _awaited(index: RootIndex, q) -> None:
    """`serve(make_svc).await` in the question: awaiting the call's result runs the protocol
    method of the type it returns (`Server::poll`), which the question names as much as `serve`."""
    likely = likely_graph(index)
    for token, units in list(q.named.items()):
        suffixes = {BY_NAME[index.files[u.path].language].await_suffix for u in units if u.path in index.files} - {""}
        name = re.escape(re.split(r"[.:#]+", token)[-1])
        if not any(re.search(rf"\b{name}\s*(?:\([^()]*\))?\s*{re.escape(s)}\b", q.text) for s in suffixes):
            continue
        found = {m.id: m for u in units for m in likely.returned_protocol(u)}
        if 0 < len(found) <= 3:
            q.named[token + suffixes.pop()] = list(found.values())


def _receivers_built_by_calls(index: RootIndex, q, names: NameTable) -> None:
    """`axios.get(…)` where `axios` is a module variable a call builds (`const axios =
    createInstance(defaults)`): the function that builds it is where that object comes from,
    and it stands for the receiver among the question's words."""
    likely = likely_graph(index)
    units = index.resolver.units
    for token in list(q.named):
        head = token.rpartition(".")[0]
        held = q.weak.get(head) or (names.assigned.get(head, []) if head.isidentifier() and head not in names.by_name else [])
        if not held or any(u.kind != "statement" or u.stmt_kind != "wiring" or u.parent is not None for u in held):
            continue
        builders = {e.dst: units[e.dst] for s in held for e in likely.out(s.id) if e.confidence >= 0.9 and e.dst in units and units[e.dst].is_callable}
        if 0 < len(builders) <= 2:
            q.weak[head] = sorted(builders.values(), key=lambda u: u.id)


def _spelled(name: str) -> re.Pattern[bytes]:
    """`name` as a whole identifier in source bytes (not inside a longer name)."""
    return re.compile(rb"(?<![\w$])" + re.escape(name.encode()) + rb"(?![\w$])")


def _ambiguity(q) -> dict[str, int]:
    """How many definitions the question's words for each unit point at (1 = exactly this one)."""
    out: dict[str, int] = {}
    for hits in list(q.named.values()) + list(q.weak.values()):
        for u in hits:
            out[u.id] = min(out.get(u.id, len(hits)), len(hits))
    return out


def _wiring(index: RootIndex, d: Derived, flow: Flow, excluded) -> set[str]:
    """Module-level calls that name three or more of the flow's callables as strings
    (`delegate(proto, 'response').method('set').access('body')…`): they wire those members up,
    and since nothing calls them and they call nothing of the code base, no flow reaches them."""
    units = index.resolver.units
    names = {units[uid].name for uid in set(flow.spine) | set(flow.periphery) if uid in units and units[uid].is_callable}
    return {uid for uid, spelled in d.registrations.items() if len(spelled & names) >= MIN_WIRED_NAMES and not excluded(units[uid].path)}


_SELF_READ = re.compile(rb"\b(?:self|this)\.(\w+)\s*[(\[]|\bin\s+(?:self|this)\.(\w+)\b")


_SELF_FILL = rb"\b(?:self|this)\.%s(?:\[[^\]\n]*\])?\.(?:append|appendleft|insert|extend|add|push|unshift|put|set)\s*\(|\b(?:self|this)\.%s\[[^\]\n]*\]\s*=(?!=)"


MAX_STATE_WRITERS = 4  # more methods writing one member: shared state, not the flow's setup


_TYPE_TEST = re.compile(rb"\b(?:isinstance|issubclass|except|type|class)\b")  # on the line before the name


def _protocols_of_classes_handed_over(index: RootIndex, flow: Flow) -> set[str]:
    """A class a spine body hands over as a value (`Middleware(ServerErrorMiddleware, …)`,
    a factory registered for later) is built and run later through its call protocol
    (`__call__`): that method is where the flow goes on, though no call names it. Type tests
    (`isinstance(x, T)`, `except T`) and base lists (`class A(T):`) hand over nothing."""
    units = index.resolver.units
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        facts = index.files.get(u.path) if u is not None and u.is_callable else None
        spec = BY_NAME.get(facts.language) if facts is not None else None
        if facts is None or spec is None or not spec.call_protocol:
            continue
        source = index.sources.get(u.path, b"")
        for ref in facts.refs:
            if ref.caller != uid or ref.receiver:
                continue
            line_start = source.rfind(b"\n", 0, ref.start_byte) + 1
            if _TYPE_TEST.search(source, line_start, ref.start_byte):
                continue
            t = index.resolver._lookup(facts, u, ref.name)
            if not isinstance(t, Unit) or not t.is_type:
                continue
            for pname in spec.call_protocol:
                out |= {m.id for m in index.resolver.members_of(t).get(pname, ()) if m.parent == t.id and m.is_callable}
    return out - flow.spine


def _state_writers(index: RootIndex, flow: Flow) -> set[str]:
    """Where the state a spine method runs comes from: a member the core calls, indexes or
    iterates (`for m in self.methods[name]`, `self.handlers[key](…)`) is built by the methods
    of the same object that fill it (`self.methods[name].append(…)` in `_add_middleware`,
    `self.handlers[k] = h`). No call joins them — the flow passes through data — so they are
    found by the member's name, in the core method's class, its supertypes and the subtypes the
    flow runs in, when the object calls them while it is built. "How is the chain assembled" is
    answered there."""
    units = index.resolver.units
    resolver = index.resolver
    core_types = {units[uid].parent for uid in flow.spine if uid in units and units[uid].parent}
    ancestors = {tid: _ancestors(resolver, units[tid]) for tid in sorted(core_types) if tid in units}
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        if u is None or not u.is_callable or u.parent not in ancestors:
            continue
        owner = units[u.parent]
        source = index.sources.get(u.path, b"")
        read = {(m.group(1) or m.group(2)).decode() for m in _SELF_READ.finditer(source, u.sig_end_byte, u.end_byte)}
        read = {name for name in read if not (resolver.find_member(owner, name) or owner).is_callable}  # `self.m()`: a method, no member
        if not read:
            continue
        family = ancestors[owner.id] | {units[t] for t, above in ancestors.items() if owner in above}
        for name in sorted(read):
            pattern = re.compile(_SELF_FILL % ((re.escape(name.encode()),) * 2))
            writers: set[str] = set()
            for t in sorted(family, key=lambda t: t.id):
                tsrc = index.sources.get(t.path, b"")
                for hit in pattern.finditer(tsrc, t.start_byte, t.end_byte):
                    writers |= {m.id for m in index.files[t.path].units
                                if m.parent == t.id and m.is_callable and m.kind != "constructor" and m.name not in CTOR_NAMES
                                and m.id != uid and m.sig_end_byte <= hit.start() < m.end_byte}
            if len(writers) <= MAX_STATE_WRITERS:
                out |= {w for w in writers - flow.spine if _called_at_construction(index, family, units[w])}
    return out


_MODULE_READ = rb"\b%s\s*\[|\b(?:range|in|of)\s+%s\b"


_MODULE_FILL = rb"\b%s(?:\[[^\]\n]*\])?\.(?:append|appendleft|insert|extend|add|push|unshift|put|set)\s*\(|\b%s\[[^\]\n]*\]\s*=(?!=)|\b%s\s*=\s*append\(\s*%s\b"


def _registry_writers(index: RootIndex, flow: Flow) -> set[str]:
    """A module-level table a spine function reads by key or iterates (Go's
    `completionFn = flagCompletionFunctions[flag]`, a registry dict) is filled by the functions
    of its package that set its entries (`flagCompletionFunctions[flag] = f` in
    `RegisterFlagCompletionFunc`): the flow passes through the table, no call joins them, so
    they are found by the variable's name, as `_state_writers` finds an object's fillers."""
    units = index.resolver.units
    by_dir = per_version(derived(index), "files_by_dir", lambda: _files_by_dir(index))
    out: set[str] = set()
    for uid in sorted(flow.spine):
        u = units.get(uid)
        if u is None or not u.is_callable:
            continue
        source = index.sources.get(u.path, b"")
        paths = by_dir.get(u.path.rpartition("/")[0], [])
        tables = {t.name for p in paths for t in index.files[p].units
                  if t.kind == "statement" and t.parent is None and t.name.isidentifier()}
        for name in sorted(tables):
            key = re.escape(name.encode())
            if not re.search(_MODULE_READ % (key, key), source[u.sig_end_byte : u.end_byte]):
                continue
            fill = re.compile(_MODULE_FILL % (key, key, key, key))
            writers: set[str] = set()
            for p in paths:
                psrc = index.sources.get(p, b"")
                for hit in fill.finditer(psrc):
                    inner = [m for m in index.files[p].units if m.is_callable and m.sig_end_byte <= hit.start() < m.end_byte]
                    if inner and not _in_prose(psrc, max(inner, key=lambda m: m.start_byte).start_byte, hit.start()):
                        writers.add(max(inner, key=lambda m: m.start_byte).id)
            writers.discard(uid)
            if len(writers) <= MAX_STATE_WRITERS:
                out |= writers - flow.spine
    return out


def _files_by_dir(index: RootIndex) -> dict[str, list[str]]:
    by_dir: dict[str, list[str]] = defaultdict(list)
    for path in index.files:
        by_dir[path.rpartition("/")[0]].append(path)
    return {k: sorted(v) for k, v in by_dir.items()}


def _members_added_to_the_core(index: RootIndex, flow: Flow) -> set[str]:
    """A module-level statement that adds members to a type of the spine when its module loads
    (`Axios.prototype[method] = function (url, config) { return this.request(mergeConfig(…)) }`)
    and whose members call the spine: the type's methods made at run time, a way into the flow
    no definition shows (the language's `runtime_members`)."""
    units = index.resolver.units
    core = [units[uid] for uid in sorted(flow.spine) if uid in units]
    types = {units[u.parent].name for u in core if u.parent in units}
    calls = re.compile(rb"\b(?:%s)\s*\(" % b"|".join(re.escape(u.name.encode()) for u in core if u.is_callable)) if core else None
    out: set[str] = set()
    if calls is None:
        return out
    for path, spec, statements in per_version(derived(index), "runtime_statements", lambda: _runtime_statements(index)):
        source = index.sources.get(path, b"")
        for u in statements:
            if u.id in flow.spine:
                continue
            hit = spec.runtime_members.search(source, u.start_byte, u.end_byte)
            if hit and hit.group(1).decode() in types and calls.search(source, hit.end(), u.end_byte):
                out.add(u.id)
    return out


def _runtime_statements(index: RootIndex) -> list[tuple[str, object, list[Unit]]]:
    """(path, language spec, its module-level statements) of the files whose language adds
    members at run time: all `_members_added_to_the_core` reads of a version."""
    out = []
    for path, facts in index.files.items():
        spec = BY_NAME.get(facts.language)
        if spec is not None and spec.runtime_members is not None:
            out.append((path, spec, [u for u in facts.units if u.kind == "statement" and u.parent is None]))
    return out


def _in_prose(source: bytes, start: int, at: int) -> bool:
    """Whether `at` lies in a comment line or a docstring (an odd number of triple quotes since
    the callable's start): an example written there (`session['value'] = 42`) fills nothing."""
    line = source[source.rfind(b"\n", 0, at) + 1 : at].lstrip()
    if line.startswith((b"#", b"//", b"*", b"/*", b">>>")):
        return True
    return (source.count(b'"""', start, at) + source.count(b"'''", start, at)) % 2 == 1


def _called_at_construction(index: RootIndex, types: set[Unit], m: Unit) -> bool:
    """The object fills the member while it is built (`for mw in middlewares:
    self._add_middleware(mw)` in `__init__`): the flow's setup. A filler only the object's users
    call later (a `before_request` decorator) is their registration, not how the flow is
    assembled."""
    call = re.compile(rb"\b(?:self|this)\.%s\s*\(" % re.escape(m.name.encode()))
    for t in types:
        source = index.sources.get(t.path, b"")
        for c in index.files[t.path].units:
            if c.parent == t.id and (c.kind == "constructor" or c.name in CTOR_NAMES) and call.search(source, c.start_byte, c.end_byte):
                return True
    return False


def _ancestors(resolver, t: Unit) -> set[Unit]:
    seen: dict[str, Unit] = {t.id: t}
    frontier = [t]
    while frontier:
        frontier = [s for cur in frontier for s in resolver.supertypes_of(cur) if s.id not in seen]
        seen.update((s.id, s) for s in frontier)
    return set(seen.values())


def _statements_they_use(index: RootIndex, facts, shown: set[str]) -> set[str]:
    """The module variables a shown module-level statement names, in its own file
    (`current_app = LocalProxy(_cv_app, …)` → `_cv_app = ContextVar(…)`)."""
    statements = [u for u in facts.units if u.kind == "statement" and u.parent is None and u.name.isidentifier()]
    source = index.sources.get(facts.path, b"")
    out: set[str] = set()
    for u in statements:
        if u.id not in shown:
            continue
        body = source[u.start_byte : u.end_byte]
        out |= {v.id for v in statements if v.id not in shown and _spelled(v.name).search(body)}
    return out


def _family_members_by_name(index: RootIndex, d: Derived) -> tuple[list[Unit], dict[str, list[Unit]]]:
    """The family bases (MIN_SIBLINGS or more implementers), and member name → the bases that have it."""
    units = index.resolver.units
    families = [units[t] for t, impls in d.implementers.items() if len(impls) >= MIN_SIBLINGS and t in units]
    by_member: dict[str, list[Unit]] = defaultdict(list)
    for fam in families:
        for name in index.resolver.members_of(fam):
            by_member[name].append(fam)
    return families, dict(by_member)


def _dispatch_targets(index: RootIndex, d: Derived, flow: Flow) -> dict[str, float]:
    """Implementations reached by polymorphic dispatch from the spine.

    An unknown call on the spine whose name is a member of a supertype with MIN_SIBLINGS or
    more implementers (`interceptor.intercept(chain)`) makes every implementation's method
    relevant: they are the siblings the agent would otherwise open one by one.
    """
    units = index.resolver.units
    out: dict[str, float] = {}
    if not flow.spine:
        return out
    families, by_member = per_version(d, "family_members_by_name", lambda: _family_members_by_name(index, d))
    if not families:
        return out
    for uid in sorted(flow.spine):
        u = units.get(uid)
        facts = index.files.get(u.path) if u else None
        if facts is None:
            continue
        # a spine method of a family base is overridden by its siblings (`self.as_sql()`)
        owner = units.get(u.parent) if u.parent else None
        if owner is not None and len(d.implementers.get(owner.id, ())) >= MIN_SIBLINGS:
            for impl_id in sorted(d.implementers[owner.id]):
                impl = units.get(impl_id)
                for m in (index.resolver.members_of(impl).get(u.name, []) if impl else [])[:1]:
                    out[m.id] = max(out.get(m.id, 0.0), 1.5)
        for idx in index.bindings[u.path].unresolved:
            call = facts.calls[idx]
            if call.caller != uid or call.name not in by_member:
                continue
            for fam in by_member[call.name]:
                # Only a name specific to the family says the call dispatches into it:
                # `chain.proceed()` does, `cache.get()` (hundreds of `get`s) does not.
                family_defs = 1 + sum(
                    1 for impl_id in d.implementers[fam.id] if units.get(impl_id) and index.resolver.members_of(units[impl_id]).get(call.name)
                )
                if len(d.names.by_name.get(call.name, ())) - family_defs > 2:
                    continue
                for impl_id in sorted(d.implementers[fam.id]):
                    impl = units.get(impl_id)
                    method = index.resolver.members_of(impl).get(call.name, []) if impl else []
                    for m in method[:1]:
                        out[m.id] = max(out.get(m.id, 0.0), 1.5)
    return out
