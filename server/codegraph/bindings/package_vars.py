"""A package's own variables declared with a type (Go's `var v *Viper`, `var Logger Logging =
NullLogger{}`): what the package's functions call on one reaches its declared type's member (an
interface's method for an interface), as a local's declared type does. Only a call on the bare name,
in a function that binds no parameter, local or lambda parameter of that name (a local the index
records); the variable is the one of its name in the package (`Unit.returns` holds its type).
"""

from __future__ import annotations

from ..model.bindings import Edge
from ..model.facts import CLASS_KINDS, SPANNED, FileFacts, Unit
from .resolver_indexes import package_key


class PackageVariables:
    """Mixed into the Resolver: reads its `packages`, `units` and `files`."""

    def _package_var_calls(self, facts: FileFacts, local_types: dict, unresolved: list[int]) -> dict[int, Edge]:
        """The edge of each unresolved call on a package variable declared with a type, by its index."""
        pkg = package_key(facts)
        names = self.packages.get(pkg) if pkg is not None else None
        found: dict[int, Edge] = {}
        if not names:
            return found
        for idx in unresolved:
            call = facts.calls[idx]
            held = [u for u in names.get(call.receiver, ()) if u.kind == "variable"] if call.receiver.isidentifier() else ()
            caller = self.units.get(call.caller) if call.caller else None
            if len(held) != 1 or not held[0].returns or caller is None or caller.kind in ("statement", "variable"):
                continue
            if self._binds_locally(caller, call.receiver, local_types) or _lambda_parameter(caller, call.receiver):
                continue
            where = self.files.get(held[0].path)
            t = self._value_type(where, held[0].returns, None) if where is not None else None
            target = self._member_of(t, call.name, call.args) if t.__class__ is Unit else None
            if target.__class__ is Unit and target.kind != "statement":
                kind = "constructs" if target.kind in CLASS_KINDS else "calls"
                found[idx] = Edge(call.caller, target.id, kind, call.line, facts.path)
        return found


def _lambda_parameter(caller: Unit, name: str) -> bool:
    """Whether a lambda in `caller` declares a parameter `name` (recorded under its span), or `name`
    is the receiver of the method (`func (v *Other) Get() { v.m() }`)."""
    prefix = name + SPANNED
    return caller.receiver == name or any(n.startswith(prefix) for n, _ in caller.local_types)
