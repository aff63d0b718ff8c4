"""How the walk reads a call the index left unresolved: what the caller knows (its owner type, what its
locals and fields hold, its language) and which units the call may then mean — at most `LIKELY_MAX`
callables by name, the caller's own type first."""

from __future__ import annotations

from typing import NamedTuple
import bisect
import re

from ...index.facts import CALLABLE_KINDS, CLASS_KINDS, Unit
from ...languages import BY_NAME
from .patterns import FAMILY_MAX, LIKELY_MAX, MEMBER_READ, WORD_BYTE
from .units import _held_type, _outermost, _owner_type, _without_views


NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")  # (byte values)


class _Caller(NamedTuple):
    """What a caller knows when its unresolved calls are read (see `Flow._caller_context`)."""
    u: Unit
    owner: str | None
    me: set[str]
    local_type: dict[str, str]
    foreign: set[str]
    outside: set[str]
    views: frozenset[str]
    implicit_this: bool
    jvm: bool
    own_blocks: set[str]
    params: frozenset[str]
    class_param: str


class CallReading:
    """Flow's reading of calls the index left unresolved: what a caller knows, and which units a call may mean."""

    def _caller_context(self, src: str) -> "_Caller":
        """What a caller knows when its unresolved calls are read: its owner type (a closure's is its method's)
        and that type's blocks, the names that mean itself, what its locals hold (`x = Foo(...)`, `x =
        make_foo()` with `-> Foo`: x holds a Foo; `t := template.New(…)`: t holds what an imported package
        built), and its language's knowledge."""
        m, types, returns = self.m, self._types, self.returns
        u = m.units[src]
        owner = u.parent
        while owner and m.units[owner].kind in CALLABLE_KINDS:  # a closure's `this`/`self` is its method's
            owner = m.units[owner].parent
        me = {"self", "this", u.receiver} - {""}
        local_type: dict[str, str] = {}
        foreign: set[str] = set()
        mods, outside, views, implicit_this, jvm, class_param = self._file_context(u.path)
        own_blocks = self._blocks.get((m.units[owner].path, m.units[owner].name), {owner}) if owner else set()
        called: dict[str, list[str]] | None = None  # name → the caller's edges to units of that name, built on first use
        for c in m.calls.get(src, ()):
            if not c.assigned_to:  # every rule below reads what a call's result is assigned to
                continue
            if called is None:  # one pass over the edges, not one per assigned call
                called = {}
                for d in self.out[src]:
                    called.setdefault(m.units[d].name, []).append(d)
            if (c.receiver in mods and c.assigned_to not in local_type
                    and c.name not in called):
                foreign.add(c.assigned_to)
            elif jvm and c.construct and not c.receiver and self._outside_type(u.path, c, outside):
                foreign.add(c.assigned_to)  # `builder = new Headers.Builder()`: an outside package's object
            if c.assigned_to not in local_type:
                if c.name in types and (c.construct or c.name[:1].isupper()):
                    local_type[c.assigned_to] = c.name
                else:
                    f = [d for d in called.get(c.name, ()) if d in returns]
                    if len(f) == 1:
                        local_type[c.assigned_to] = returns[f[0]]
        if outside:  # a parameter declared with an outside type (`headers: &mut HeaderMap`): an outside object
            for n, t in zip(u.param_names, u.param_types):
                if t and self._outside_text(u.path, t):
                    foreign.add(n.lstrip("*&"))
        params, up = set(u.param_names), u.parent  # its own parameters and those of the functions around it
        while up and m.units[up].kind in CALLABLE_KINDS:
            params.update(m.units[up].param_names)
            up = m.units[up].parent
        params = frozenset(p.lstrip("*&") for p in params)
        return _Caller(u, owner, me, local_type, foreign, outside, views, implicit_this, jvm, own_blocks, params, class_param)

    def _file_context(self, path: str) -> tuple[set[str], set[str], frozenset[str], bool, bool, str]:
        """What every caller in a file shares (read once per file): the names bound to outside modules and
        imported from outside packages, and its language's self views, implicit `this`, package imports and
        class parameter."""
        got = self._file_contexts.get(path)
        if got is None:
            spec = BY_NAME.get(self.index.files[path].language)
            got = self._file_contexts[path] = (
                self.modules(path), self.outside_names(path), spec.self_views if spec is not None else frozenset(),
                spec is not None and spec.implicit_this,
                spec is not None and spec.outside_imports == "package",  # where `new pkg.Type()` names a package
                spec.class_param if spec is not None else "")
        return got

    def _call_targets(self, src: str, ctx: "_Caller", c) -> tuple:
        """The call as read (a `fn.call(this, …)` is a call of fn, `self.as_mut().poll_next()` a call on self),
        and the units it likely runs: none for an outside package's object or type."""
        u = ctx.u
        if c.name in ("call", "apply", "bind") and c.receiver.isidentifier() and c.receiver in self._by_name:
            c = c._replace(name=c.receiver, receiver="")  # JS `fn.call(this, …)` calls fn
        if ctx.views and "(" in c.receiver:  # `self.as_mut().poll_next(cx)`: a call on self
            c = c._replace(receiver=_without_views(c.receiver, ctx.views))
        if (c.receiver in ctx.foreign or c.receiver.split(".")[0] in ctx.outside) and not c.construct:
            return c, []  # a method of an outside package's object is not ours to guess
        if not c.construct and c.receiver.count(".") == 1 and self._outside_member(ctx, "".join(c.receiver.split())):
            return c, []  # `head.headers.get(k)` with `headers: http::HeaderMap` declared: an outside object
        if ctx.jvm and (c.construct and not c.receiver or c.receiver.startswith("new ")) and self._outside_type(u.path, c, ctx.outside):
            return c, []  # `new vendor.kit.Ticket.Maker()` (and calls on it): an outside package's type, not ours
        if (not c.receiver and ctx.owner and ctx.class_param and c.name == ctx.class_param
                and u.param_names[:1] == (ctx.class_param,)):  # `cls(…)` in a class method builds its own type
            return c._replace(construct=True), [self.ctor_of.get(ctx.owner, ctx.owner)]
        if c.construct or (c.name[:1].isupper() and c.name in self._types and not self._by_name.get(c.name)):
            tt = self._types.get(c.name, [])
            return c, [self.ctor_of.get(t, t) for t in tt] if len(tt) <= LIKELY_MAX else []
        return c, self._method_targets(src, ctx, c)

    def _method_targets(self, src: str, ctx: "_Caller", c) -> list[str]:
        """The callables a (non-constructing) call likely runs: its own type's method for a call on itself;
        on some other object, the one of that name, or those of the type the receiver holds, or one family."""
        m, u, owner, me = self.m, ctx.u, ctx.owner, ctx.me
        root = c.receiver if c.receiver in me else ("." if c.receiver else "")  # own member, other object, bare
        named = self._by_name.get(c.name, [])
        groups = self._name_groups(c.name) if len(named) > 1 else None  # a common name (`get`: hundreds of
        # definitions) is split once by parent, file and kind, not filtered again for every call of it
        if not c.receiver:  # a bare call runs what was handed in (`send(message)`), else a function: a type's
            if c.name in ctx.params:  # method only where a bare name can mean the object's member
                return []
            if not ctx.implicit_this:
                named = groups[2] if groups else [d for d in named
                                                  if not (m.units[d].parent and m.units[m.units[d].parent].kind in CLASS_KINDS)]
        if root in me:
            if groups is None:
                same = [d for d in named if d != src and (m.units[d].parent in ctx.own_blocks if owner else m.units[d].path == u.path)]
            else:
                same = [d for d in (self._in_blocks(groups, ctx.own_blocks) if owner else groups[1].get(u.path, ())) if d != src]
            if not same and owner in self._outside_base:  # `self.get(…)` on a `dict` subclass: inherited from outside,
                ancestors = self._ancestors(owner)  # unless a base in scope has it
                named = [d for d in named if m.units[d].parent in ancestors]
            if not same and c.name in ctx.views:  # `self.as_mut()` its type does not define: the language's
                named = []
            named = same or named
        elif not c.receiver and owner and ctx.implicit_this and c.name != u.name:  # `run(request)` in a method: this.run
            same = self._in_blocks(groups, ctx.own_blocks) if groups else [d for d in named if m.units[d].parent in ctx.own_blocks]
            named = same or named
        # a member call on some other object names its target only when the name is unique
        typed = []
        held = self._held_by_receiver(ctx, c.receiver)
        if held:  # `self.store.save()` where the constructor stored a `store: SqliteStore` parameter
            typed = [d for d in named if m.units[d].parent and m.units[m.units[d].parent].name == held]
            named = typed + [d for d in named if self.family_of.get(d) == held and d not in typed] if typed else named
        if len(named) <= (FAMILY_MAX if held and typed else LIKELY_MAX if root != "." or held else 1):
            return named
        if len(named) <= FAMILY_MAX:
            fams = {self.family_of.get(d, "") for d in named}
            if len(fams) == 1 and "" not in fams:  # one family of implementations: dispatch may reach any
                return named
        return []

    def _name_groups(self, name: str) -> tuple[dict[str | None, list[str]], dict[str, list[str]], list[str]]:
        """The callables of that name by parent, by file, and those no type holds; each list in flow order
        (as `_by_name` is). Built on first use of the name."""
        got = self._groups.get(name)
        if got is None:
            units = self.m.units
            by_parent: dict[str | None, list[str]] = {}
            by_path: dict[str, list[str]] = {}
            free: list[str] = []
            for d in self._by_name[name]:
                du = units[d]
                by_parent.setdefault(du.parent, []).append(d)
                by_path.setdefault(du.path, []).append(d)
                if not (du.parent and units[du.parent].kind in CLASS_KINDS):
                    free.append(d)
            got = self._groups[name] = (by_parent, by_path, free)
        return got

    def _in_blocks(self, groups: tuple, blocks: set[str]) -> list[str]:
        """The callables of a name held by one of these blocks, in flow order."""
        by_parent = groups[0]
        if len(blocks) == 1:
            return list(by_parent.get(next(iter(blocks)), ()))
        found = [d for b in blocks for d in by_parent.get(b, ())]
        return sorted(found, key=self.m.order.__getitem__)

    def _outside_member(self, ctx: "_Caller", receiver: str) -> bool:
        """`x.f` where x is the object itself or a parameter whose declared type is a type of the code base, and
        that type declares the field f with a type its file imports from outside the code base."""
        m = self.m
        head, f = receiver.split(".")
        if head in ctx.me:
            base = m.units[ctx.owner].name if ctx.owner else ""
        else:
            t = dict(zip(ctx.u.param_names, ctx.u.param_types)).get(head, "")
            base = _held_type(t) if t else ""
        if not base or base not in self._types:
            return False
        if self._outside_fields is None:
            out: set[tuple[str, str]] = set()
            for name, ts in self._types.items():
                for t in ts:
                    tu = m.units[t]
                    for field, text in tu.attrs:
                        if self._outside_text(tu.path, text):
                            out.add((name, field))
            self._outside_fields = out
        return (base, f) in self._outside_fields

    def _outside_text(self, path: str, text: str) -> bool:
        """A declared type that is no type of the code base and that its file imports from outside, or names
        with a path that starts outside (`http::HeaderMap`, `vendor.Kit` with `vendor` imported)."""
        held = _held_type(text)
        if not held or held in self._types:
            return False
        outside = self.outside_names(path)
        if held in outside:
            return True
        t = text.strip().lstrip("*&").removeprefix("mut ").strip()
        head = re.split(r"::|\.|<", t, maxsplit=1)[0].strip()
        if head == t or not head:
            return False
        spec = BY_NAME.get(self.index.files[path].language)
        if spec is not None and spec.outside_imports == "crate":
            return head not in self._crates()
        return head in outside

    def _held_by_receiver(self, ctx: "_Caller", receiver: str) -> str | None:
        """The type of the code base the receiver holds: a field of the caller's own type, a local, a bare
        field its type declares, or an attribute only ever assigned one type; else falsy."""
        m, u, owner = self.m, ctx.u, ctx.owner
        parts = receiver.split(".")
        held = self._field_type.get((owner or "", parts[1])) if len(parts) == 2 and parts[0] in ctx.me else ctx.local_type.get(receiver)
        if not held and owner and ctx.implicit_this and len(parts) == 1 and receiver not in u.param_names:
            # a bare field its type declares (Java `planner.plan(args)` with
            # `private final Planner planner;`)
            if self._declared is None:
                self._declared = self._declared_fields(self._types)
            held = self._declared.get((m.units[owner].path, m.units[owner].name, receiver), "")
        if not held and len(parts) >= 2:  # an attribute that is only ever assigned one type
            held = self._attr_type.get(parts[-1])
        if not held and len(parts) == 1 and receiver in self._types and receiver not in ctx.params:
            held = receiver  # `AxiosError.from(…)`: a call on the type itself (a static or class method)
        return held

    def _declared_fields(self, types: dict[str, list[str]]) -> dict[tuple[str, str, str], str]:
        """(file, type name, field) → the type of the code base its declaration holds, seen through the
        wrappers that only hold one value (`Option<ProtoServer<…>>`, `Arc<Pool>`, `*node`). Keyed by file
        and name, so a Rust `impl` block finds the fields of its struct."""
        m = self.m
        out: dict[tuple[str, str, str], str] = {}
        for t in sorted({t for ts in types.values() for t in ts}, key=m.order.__getitem__):
            tu = m.units[t]
            for field, text in tu.attrs:
                held = _held_type(text)
                if held in types:
                    out.setdefault((tu.path, tu.name, field), held)
        return out

    def _named_by_owner(self, src: str, targets: list[str], base_of: dict[str, str]) -> list[str]:
        """The targets whose type (or, for a closure, whose function) the caller's own type names in its
        code (`Router(…)`, `layers = [ErrorGuard, …]`, `self.app = wrap(endpoint)`): what that object
        wires in is what its handed-on call runs. A named subtype counts for its bases (`TextResponse(…)`
        runs `Response.__call__`)."""
        m = self.m
        scope = _owner_type(m, src) or _outermost(m, src)
        u = m.units[scope]
        named = set(re.findall(r"[A-Za-z_]\w*", self.index.sources[u.path][u.start_byte : u.end_byte].decode("utf-8", "replace")))
        for name in tuple(named):
            seen = {name}
            while name in base_of and base_of[name] not in seen:
                name = base_of[name]
                seen.add(name)
                named.add(name)
        return [d for d in targets if m.units[d].parent and m.units[_outermost(m, d, stop_at_type=True)].name in named]

    def _scan(self, names: dict[str, list[str]], member: bool = False, body_only: bool = False) -> list[tuple[str, set]]:
        """Where each file's names are used as values, not called (`self.add` stored, `run(cb)`), per
        innermost enclosing callable. `member`: only as `obj.name`, found as (obj, name). Plain byte
        searches for the few names in question: no per-file pattern to compile, no pass over every word."""
        m = self.m
        if self._callables_by_path is None:  # the scans share it: each file's callables in scope, outermost first
            by_path: dict[str, list[Unit]] = {}
            for uid in self.arch:
                u = m.units[uid]
                if u.kind in CALLABLE_KINDS:
                    by_path.setdefault(u.path, []).append(u)
            # ties (one span, two units) by id: the architecture is a set, whose order differs between processes
            self._callables_by_path = {path: sorted(us, key=lambda u: (u.start_byte, -u.end_byte, u.id)) for path, us in by_path.items()}
        out: list[tuple[str, set]] = []
        for path in sorted(names.keys() & self._callables_by_path.keys()):
            units = self._callables_by_path[path]
            scan = self._scan_member_reads if member else self._scan_values
            found = scan(self.index.sources[path], units, names[path], body_only)
            out += sorted(found.items(), key=lambda x: m.order[x[0]])
        return out

    @staticmethod
    def _innermost(units: list[Unit], starts: list[int], pos: int, body_only: bool) -> int:
        """The index of the innermost unit holding this position (in its body, with `body_only`), or -1."""
        i = bisect.bisect_right(starts, pos) - 1
        while i >= 0 and not (units[i].start_byte <= pos < units[i].end_byte
                              and (not body_only or pos >= units[i].sig_end_byte)):
            i -= 1
        return i

    def _scan_member_reads(self, src: bytes, units: list[Unit], names: list[str], body_only: bool) -> dict[str, set]:
        """One pass over the file's member reads (not calls, stores or chains), then the names: uid →
        {(obj, name)} for each `obj.name` read inside that unit."""
        starts = [u.start_byte for u in units]
        lo, hi = units[0].start_byte, max(u.end_byte for u in units)
        found: dict[str, set] = {}
        wanted = {n.encode() for n in names}  # compared as bytes: a hit is ASCII, no decode per member read
        for hit in MEMBER_READ.finditer(src, lo):
            pos = hit.start()
            if hit.end() > hi:
                if pos >= hi:
                    break
                continue
            name = hit.group(1)
            if name not in wanted or pos == 0 or not WORD_BYTE.match(src, pos - 1):
                continue  # `obj.name`: a word byte before the dot
            i = self._innermost(units, starts, pos, body_only)
            if i >= 0:
                j = pos
                while j > 0 and src[j - 1] in NAME_BYTES:
                    j -= 1
                found.setdefault(units[i].id, set()).add((src[j:pos], name))
        return found

    def _scan_values(self, src: bytes, units: list[Unit], names: list[str], body_only: bool) -> dict[str, set]:
        """Each name as a whole word that is not called nor a member (`run(cb)`, `[cb]`): uid → {name}."""
        starts = [u.start_byte for u in units]
        lo, hi = units[0].start_byte, max(u.end_byte for u in units)
        found: dict[str, set] = {}
        for name in names:
            needle = name.encode()
            pos = src.find(needle, lo, hi)
            while pos != -1:
                end = pos + len(needle)
                before = src[pos - 1 : pos] if pos else b""
                after = src[end : end + 1]
                rest = src[end : end + 40].lstrip()
                ok = not (after.isalnum() or after == b"_") and not rest.startswith(b"(")
                ok = ok and not (before.isalnum() or before in (b"_", b"."))
                if ok:
                    i = self._innermost(units, starts, pos, body_only)
                    if i >= 0:
                        found.setdefault(units[i].id, set()).add(name)
                pos = src.find(needle, end, hi)
        return found

    # ---- reach over the condensation (bitsets) ------------------------------------------
