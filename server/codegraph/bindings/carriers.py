"""Carriers, a stage of resolution: values whose declared type is a generic type carrying another
(`Result<Conn, E>`, `Option<Arc<Conn>>`, `Promise<Conn>`, `Optional<Conn>`: the language's
`spec.carriers`). Compiled code calls a method the carrier does not define only on the value it
carries (`?`, `await` or a deref made the call possible), so such a call binds to the carried
type's member; a call of the carrier's own methods stays unknown, and `unwrap()` or `get()` hand the
carried value back. The Resolver inherits these (a mixin).

A carried value is the holder `("carried", "Option\\x1fArc\\x1f<unit id>")`: the carriers, outermost
first, and the carried type.
"""

from __future__ import annotations

from ..languages.spec import Carrier, last_segment, type_arguments
from ..model.facts import FileFacts, Unit
from .resolver_indexes import spec_of

CARRIED = "carried"
_SEP = "\x1f"
MAX_LAYERS = 4


def outer_and_carried(text: str) -> tuple[str, str] | None:
    """(`Result`, `Conn`) of `Result<Conn, Error>`: the generic's name and its first type argument
    that is no lifetime (`Cow<'a, Conn>`), without references, `dyn`/`impl` and trait bounds
    (`Box<dyn Handler + Send>` → `Handler`). None when `text` is no generic of one name."""
    outer = text[: text.find("<")].strip()
    for arg in type_arguments(text, frozenset({outer.replace("::", ".").rpartition(".")[2]})):
        if not arg or arg.startswith("'"):
            continue
        arg = arg[5:].lstrip() if arg.startswith("impl ") else arg
        return outer, _outside_bounds(arg)
    return None


def _outside_bounds(arg: str) -> str:
    """`Handler + Send` → `Handler`: a trait object's further bounds, outside type arguments."""
    depth = 0
    for i, ch in enumerate(arg):
        depth += (ch == "<") - (ch == ">")
        if ch == "+" and depth == 0:
            return arg[:i].strip()
    return arg.strip()


class Carriers:
    """Typing values through carriers, for the Resolver (a mixin)."""

    def _value_type(self, facts: FileFacts, text: str, scope: Unit | None, self_type: Unit | None = None) -> Unit | tuple[str, str] | None:
        """What a value whose type is written `text` in `facts` is: the type it names, or a carried
        value (`Result<Conn, E>` → the holder of a `Conn` carried by a `Result`); `self_type` is what
        `Self` names there."""
        found = self._resolve_type_text(facts, text, scope)
        carriers = spec_of(facts).carriers
        if not carriers or "<" not in text or (found is not None and not self._stands_in(found, carriers)):
            return found
        layers: list[str] = []
        while len(layers) < MAX_LAYERS:
            split = outer_and_carried(text)
            carrier = _named(carriers, last_segment(split[0].replace("::", "."))) if split is not None else None
            if carrier is None:
                break
            layers.append(carrier.name)
            text = split[1]
        if not layers:
            return found
        inner = self_type if text == "Self" else self._resolve_type_text(facts, text, scope)
        if not isinstance(inner, Unit) or not inner.is_type or inner.kind == "impl":
            return found
        return (CARRIED, _SEP.join((*layers, inner.id)))

    def _stands_in(self, t: Unit, carriers: tuple[Carrier, ...]) -> bool:
        """Whether a project type named like a carrier only stands for it: a crate's own alias
        (`pub type Result<T> = std::result::Result<T, Error>;`) has no field or member of its own."""
        return _named(carriers, t.name) is not None and not t.attrs and not self.members_of(t)

    def _carried_member(self, where: str, name: str, args: int = -1) -> Unit | None:
        """The target of a call `name` on a carried value: none when the outermost carrier defines
        the name, else the member of what it carries."""
        layers, inner = self._carried_parts(where)
        if inner is None:
            return None
        carriers = spec_of(self.files[inner.path]).carriers
        for layer in layers:
            carrier = _named(carriers, layer)
            if carrier is None or name in carrier.own:
                return None
        return self.find_member(inner, name, args)

    def _carried_result(self, holder: tuple[str, str], name: str) -> Unit | tuple[str, str] | None:
        """What a call of the outermost carrier's own method `name` hands back: the carried value
        (`unwrap`), the same carrier (`as_ref`), or nothing known."""
        layers, inner = self._carried_parts(holder[1])
        if inner is None:
            return None
        carrier = _named(spec_of(self.files[inner.path]).carriers, layers[0])
        if carrier is None:
            return None
        if name in carrier.unwraps:
            return (CARRIED, _SEP.join((*layers[1:], inner.id))) if len(layers) > 1 else inner
        return holder if name in carrier.keeps else None

    def _carried_parts(self, where: str) -> tuple[list[str], Unit | None]:
        *layers, inner_id = where.split(_SEP)
        inner = self.units.get(inner_id)
        return layers, inner if inner is not None and inner.path in self.files and layers else None


def _named(carriers: tuple[Carrier, ...], name: str) -> Carrier | None:
    return next((c for c in carriers if c.name == name), None)


def is_carried(holder: object) -> bool:
    return holder.__class__ is tuple and holder[0] == CARRIED
