"""Name rules of the ranked graph: a bare or member name matched to definitions by locality
(`same-file`, `import-reach`, `same-package`, `unique-name`, `receiver-name`, `member-*`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..index.facts import CLASS_KINDS, Call, FileFacts, Unit
from ..languages import spec_for_path
from .rules import MAX_NAME_CANDIDATES, RULE_CONFIDENCE, _K_FACTOR, _dirname, _is_test, _norm, _secondary

if TYPE_CHECKING:  # pragma: no cover
    from ..index.index import RootIndex  # noqa: F401


_IDENT = re.compile(rb"[\w$]")
_ENTRY_LINE = re.compile(rb"[\w$]+[ \t]*:[ \t]*")  # the `key: ` of an object literal's entry
_RETURNED_OBJECT = re.compile(rb"return\s*\{[^;}]*(?<![\w$.])")  # `return { server, ` up to the name
_CALL_OR_KEY = re.compile(rb"\s*[(:]")


class NameRules:
    """Mixin of LikelyGraph: candidates by name, ranked by locality tier."""

    index: "RootIndex"

    def _receiver_name(self, facts: FileFacts, call: Call, last: str) -> list[tuple[Unit, float, str]]:
        """Receiver-name ↔ type-name: `session_interface.save_session` → `…SessionInterface.save_session`."""
        last = last.strip("_")
        if len(last) < 4 or not last.replace("_", "").isalnum():
            return []
        key = (_norm(last), call.name)
        hits = self._memo_rn.get(key)
        if hits is None:
            hits = self._memo_rn[key] = self._find_receiver_name(*key)
        if not hits:
            return []
        hits = self._best_tier(facts.path, hits)
        if not hits or len(hits) > MAX_NAME_CANDIDATES:
            return []
        conf = RULE_CONFIDENCE["receiver-name"] * _K_FACTOR[len(hits)]
        return [(m, conf, "receiver-name") for m in hits]

    def _find_receiver_name(self, key: str, name: str) -> list[Unit]:
        """Methods named `name` whose type (or a type below it that inherits them) is named like
        the receiver (normalized: `session_interface` ~ `SecureCookieSessionInterface`)."""
        table = self._method_owner_names.get(name)
        if table is None:
            units, sub = self.index.resolver.units, self.subtypes()
            table = []
            for m in self.by_name().get(name, ()):
                owner = units.get(m.parent) if m.is_callable and m.parent else None
                if owner is None or owner.kind not in CLASS_KINDS:
                    continue
                names = {_norm(owner.name)} | {_norm(units[x].name) for x in sub.get(owner.id, ()) if x in units}
                table.append((m, tuple(names)))
            self._method_owner_names[name] = table
        return [m for m, norms in table if any(n.endswith(key) or (len(n) >= 5 and key.endswith(n)) for n in norms)]

    # ---- references: functions handed over as values -----------------------------------------

    def _find_by_name(self, facts: FileFacts, call: Call) -> list[tuple[Unit, float, str]]:
        defs = self.by_name().get(call.name)
        if not defs:
            return []
        if call.construct:
            cands = [u for u in defs if u.kind in CLASS_KINDS]
        else:
            if call.receiver:  # a member call on something untyped: methods (a module's functions are resolved)
                cands = [u for u in defs if u.kind == "method"]
            else:  # a bare name: functions and types (a method named bare is resolved inside its type)
                # a function or type nested in a function is that function's local: a bare name
                # elsewhere cannot reach it (one in an enclosing scope the resolver binds), unless
                # the function hands it out (`return { server, listen }`)
                cands = [u for u in defs if (u.kind == "function" or u.kind in CLASS_KINDS) and not self._closure(u)]
        if not cands:
            return []
        total = len(cands)
        best = self._best_tier(facts.path, cands, with_tier=True)
        if not best:
            return []
        tier, hits = best
        if len(hits) > 1:
            hits = self._default_variant(hits)
        if len(hits) > MAX_NAME_CANDIDATES:
            return []
        if tier == 0:
            rule = "same-file"
        elif tier == 1:
            rule = "import-reach"
        elif total == 1 or len(hits) == total:
            rule = "unique-name" if tier >= 3 else "same-package"
        else:
            rule = "same-package" if tier == 2 else "unique-name"
        if tier >= 3 and total > MAX_NAME_CANDIDATES:
            return []
        if call.receiver:  # a member call on something untyped: often a library's or a builtin's method
            rule = "member-" + rule
            if rule not in RULE_CONFIDENCE:  # beyond the caller's file and its imports: measured noise (≤ 0.06)
                return []
        conf = RULE_CONFIDENCE[rule] * _K_FACTOR[len(hits)]
        out = []
        for u in hits:
            if u.kind in CLASS_KINDS:
                u = self.constructor(u) or u
            out.append((u, conf, rule))
        return out

    def _default_variant(self, hits: list[Unit]) -> list[Unit]:
        """Of a name one package defines once per build variant, each in a file of its own
        (`newPoller` in `poller_epoll.go`, `poller_kqueue.go`, `poller_windows.go`), the one
        definition a default build compiles (`spec.default_build`); else the candidates as they are."""
        if len({u.path for u in hits}) < len(hits):
            return hits
        built: list[Unit] = []
        memo = self._memo_default_build
        for u in hits:
            if u.path not in memo:
                spec = spec_for_path(u.path)
                memo[u.path] = spec.default_build(u.path, self.index.sources.get(u.path, b"")) if spec else None
            hit = memo[u.path]
            if hit is None:
                return hits
            if hit:
                built.append(u)
        return built if len(built) == 1 else hits

    def _closure(self, u: Unit) -> bool:
        """A definition local to the function it is nested in, which does not hand it out by name."""
        hit = self._memo_closure.get(u.id)
        if hit is None:
            hit = self._memo_closure[u.id] = self._find_closure(u)
        return hit

    def _find_closure(self, u: Unit) -> bool:
        units = self.index.resolver.units
        parent = units.get(u.parent) if u.parent else None
        if parent is None or not parent.is_callable:
            return False
        # an entry of an object literal under its own name (`return { server, listen }`, a
        # multi-line `{ …, getParamsMetadata, … }` returned through a local), which its user
        # destructures under that name (`const { listen } = …`); a function returned bare or
        # stored is bound to whatever name its user picks
        source = self.index.sources.get(parent.path, b"")
        word = u.name.encode()
        at = source.find(word, parent.sig_end_byte, parent.end_byte)
        while at >= 0:
            end = at + len(word)
            if not _IDENT.match(source, at - 1) if at else True:
                if _IDENT.match(source, end) is None:
                    line_start = source.rfind(b"\n", 0, at) + 1
                    line_end = source.find(b"\n", end)
                    line = source[line_start : line_end if line_end >= 0 else len(source)]
                    entry = line.strip().rstrip(b",").rstrip()
                    if entry == word or (entry.endswith(word) and _ENTRY_LINE.fullmatch(entry[: -len(word)])):
                        return False  # `  listen,` or `  key: listen,` alone on its line
                    back = source[max(parent.sig_end_byte, at - 400) : at]
                    opened = back.rfind(b"return")
                    if opened >= 0 and _RETURNED_OBJECT.fullmatch(back[opened:]) and _CALL_OR_KEY.match(source, end) is None:
                        return False
            at = source.find(word, end, parent.end_byte)
        return True

    def _best_tier(self, path: str, cands: list[Unit], with_tier: bool = False):
        """The candidates in the best locality tier (`_tier`). Test files never serve a non-test
        caller; main source beats examples/docs/benchmarks and compiled copies."""
        caller_test = _is_test(path)
        cands = [u for u in cands if caller_test or not _is_test(u.path)]
        if not cands:
            return None if with_tier else []
        # a caller in examples/ or a compiled copy may use its own kind of file: only a kind
        # below the caller's own ranks lower
        own = _secondary(path)
        ranks = [max(0, _secondary(u.path) - own) for u in cands]
        least = min(ranks)
        cands = [u for u, r in zip(cands, ranks) if r == least]
        seen = self._memo_tier.get(path)
        if seen is None:
            seen = self._memo_tier[path] = {}
        tiers = []
        for u in cands:  # many candidates share a file (methods of one name): one tier per file
            t = seen.get(u.path)
            if t is None:
                t = seen[u.path] = self._find_tier(path, u.path)
            tiers.append(t)
        best = min(tiers)
        hits = [u for t, u in zip(tiers, cands) if t == best]
        return (best, hits) if with_tier else hits

    def _tier(self, path: str, u: Unit) -> int:
        """Locality of a definition seen from `path`: same file (0), a file `path` imports (1),
        same directory or package (2), same top-level tree (3), anywhere (4)."""
        seen = self._memo_tier.get(path)
        if seen is None:
            seen = self._memo_tier[path] = {}
        hit = seen.get(u.path)
        if hit is None:
            hit = seen[u.path] = self._find_tier(path, u.path)
        return hit

    def _find_tier(self, path: str, other_path: str) -> int:
        if other_path == path:
            return 0
        if other_path in self.imported_files(path):
            return 1
        if _dirname(other_path) == _dirname(path):
            return 2
        files = self.index.files
        facts = files.get(path)
        if facts is not None and facts.package:
            other = files.get(other_path)
            if other is not None and other.package == facts.package and other.language == facts.language:
                return 2
        if other_path.split("/", 1)[0] == path.split("/", 1)[0]:
            return 3
        return 4

    # ---- incoming --------------------------------------------------------------------------
