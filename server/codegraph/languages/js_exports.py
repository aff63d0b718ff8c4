"""What a JavaScript module exports by naming a definition or a local name (`FileFacts.export_aliases`):
`exports.Store = Store;`, `module.exports = { a, b: c }`, `export default Store;`, `module.exports =
class Visitor {…}`, `export default class Base {…}`."""

from __future__ import annotations

from tree_sitter import Node

from .js_holders import COMMONJS_EXPORTS, without_exports
from .spec import text

OWN_THIS = frozenset({"function_expression", "function", "generator_function"})


def anonymous_class(value: Node | None) -> bool:
    return value is not None and value.type == "class" and value.child_by_field_name("name") is None


def _object_aliases(obj: Node, prefix: str) -> list[tuple[str, str]]:
    """(prefix + key, name) of an object literal's entries that hold a plain name: `{ a, b: c }`.
    A spread may bring any key: only the entries after the last one count, and a key given twice none."""
    entries = obj.named_children
    spreads = [i for i, e in enumerate(entries) if e.type == "spread_element"]
    if spreads:
        entries = entries[spreads[-1] + 1 :]
    out: list[tuple[str, str]] = []
    for entry in entries:
        if entry.type == "shorthand_property_identifier":
            out.append((prefix + text(entry), text(entry)))
        elif entry.type == "pair":
            key, value = entry.child_by_field_name("key"), entry.child_by_field_name("value")
            if key is not None and value is not None and key.type == "property_identifier" and value.type == "identifier":
                out.append((prefix + text(key), text(value)))
    keys = [k for k, _ in out]
    return [(k, v) for k, v in out if keys.count(k) == 1]


# a default export that declares a name: `export default class Visitor {…}`, `export default function parse(…) {…}`
_NAMED_DECLARATIONS = frozenset({"class_declaration", "abstract_class_declaration", "function_declaration", "generator_function_declaration"})


def _passed_on(expr: Node | None) -> tuple[str, str] | None:
    """(X, `x_1.Y`) of `Object.defineProperty(exports, "X", { enumerable: true, get: function () { return
    x_1.Y; } })`: how TypeScript and Babel compile `export { Y as X } from './x'` to CommonJS."""
    if expr is None or expr.type != "call_expression" or text(expr.child_by_field_name("function")) != "Object.defineProperty":
        return None
    args = expr.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    if len(given) != 3 or text(given[0]) != "exports" or given[1].type != "string" or given[2].type != "object":
        return None
    getter = next((p.child_by_field_name("value") for p in given[2].named_children
                   if p.type == "pair" and text(p.child_by_field_name("key")) == "get"), None)
    body = getter.child_by_field_name("body") if getter is not None and getter.type in OWN_THIS else None
    returned = body.named_children[0] if body is not None and len(body.named_children) == 1 else None
    value = returned.named_children[0] if returned is not None and returned.type == "return_statement" and returned.named_children else None
    if value is None or value.type != "member_expression" or value.child_by_field_name("object").type != "identifier":
        return None
    name = text(given[1])[1:-1]
    return (name, text(value)) if name.isidentifier() else None


def export_aliases(root: Node) -> tuple[tuple[str, str], ...]:
    """(X, Y) of each module-level `exports.X = Y;` / `module.exports.X = Y;`, Y a plain name: how
    compiled ES modules export (`exports.Store = Store;`), and (X, Y) of `module.exports = { X: Y }`
    (`{ Y }` too); ("", Y) of `module.exports = Y;` and `export default Y;`: the module's own value,
    what a default import binds; ("default.X", Y) of `export default { X: Y }`: that value's members.
    A named class or declaration exported so is its name: ("", Visitor) of `module.exports = class
    Visitor {…}` and of `export default class Visitor {…}`, (X, Y) of `exports.X = class Y {…}`; (X,
    `x_1.Y`) of a compiled re-export (`_passed_on`)."""
    out: list[tuple[str, str]] = []
    for stmt in root.children:
        if stmt.type == "export_statement":
            value = stmt.child_by_field_name("value")
            default = any(c.type == "default" for c in stmt.children)
            declared = stmt.child_by_field_name("declaration")
            named = declared.child_by_field_name("name") if declared is not None and declared.type in _NAMED_DECLARATIONS else None
            if value is not None and value.type == "identifier" and default:
                out.append(("", text(value)))
            elif named is not None and default:  # `export default class Visitor {…}`: the definition is named Visitor
                out.append(("", text(named)))
            elif value is not None and value.type == "object":
                out += _object_aliases(value, "default.")
            continue
        expr = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
        passed = _passed_on(expr)
        if passed is not None:
            out.append(passed)
            continue
        chain = []  # `exports = module.exports = createApplication;`: every target of one value
        while expr is not None and expr.type == "assignment_expression":
            chain.append(expr)
            expr = expr.child_by_field_name("right")
        if not chain or expr is None:
            continue
        right, innermost = expr, chain[-1].child_by_field_name("left")
        if right.type == "identifier":
            local = text(right)
        elif right.type == "object":
            local = ""
        elif right.type == "class" and right.child_by_field_name("name") is not None:
            local = text(right.child_by_field_name("name"))  # `module.exports = class Visitor {…}`: the class Visitor
        elif (anonymous_class(right) or right.type in OWN_THIS) and innermost is not None and innermost.type == "member_expression":
            local = without_exports(text(innermost)[:120])  # `… = internals.Route = class {…}`: that definition
            if not local:
                continue  # `module.exports = class {…}`: the definition is the export (`module.exports`)
        else:
            continue
        for link in chain:
            left = link.child_by_field_name("left")
            if left is None or left.type != "member_expression":
                continue
            if right.type == "object":
                if text(left) == "module.exports":
                    out += _object_aliases(right, "")
                continue
            obj, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
            if text(left) == "module.exports":
                out.append(("", local))
            elif obj is not None and prop is not None and prop.type == "property_identifier" and text(obj) in COMMONJS_EXPORTS and (right.type in ("identifier", "class") or local != text(prop)):
                out.append((text(prop), local))
    return tuple(out)
