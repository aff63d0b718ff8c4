"""What a JavaScript definition written outside a class belongs to: the object a function is assigned
to (`T.prototype.m = function`), the name an object literal is held by (`const api = { f() {} }`),
the CommonJS exports object (`exports.f = …`, `module.exports = { f() {} }`), and the type a
TypeScript function declares its `this` to be (`function find(this: Cheerio<T>, …)`)."""

from __future__ import annotations

from tree_sitter import Node

from .spec import text

COMMONJS_EXPORTS = ("module.exports", "exports")


def without_exports(owner: str) -> str:
    """`exports.helpers` → `helpers`, `module.exports` → "": a CommonJS export is named by its own
    name (`exports.isStream = function …` is `isStream`, as every JavaScript tool names it), not by
    the exports object it is assigned to (`commonjs_export_of` keeps that)."""
    for prefix in COMMONJS_EXPORTS:
        if owner == prefix:
            return ""
        if owner.startswith(prefix + "."):
            return owner[len(prefix) + 1 :]
    return owner


def object_holder(obj: Node) -> str:
    """The name an object literal is held by: `module.exports.helpers = {…}` → `helpers`, `const api =
    {…}` → `api`, `module.exports = {…}` → `module.exports`, `export default {…}` → `default`; "" when
    nothing names it."""
    holder = obj.parent
    while holder is not None and holder.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        holder = holder.parent
    if holder is None:
        return ""
    if holder.type == "assignment_expression":  # `T.prototype = { m: function … }`: T's methods, as `T.prototype.m = …`
        left = text(holder.child_by_field_name("left"))[:120]
        return left if left in COMMONJS_EXPORTS else without_exports(left.removesuffix(".prototype"))
    if holder.type == "variable_declarator":
        return text(holder.child_by_field_name("name"))[:120]
    if holder.type == "export_statement":
        return "default"
    if holder.type == "arguments":
        return _argument_holder(obj, holder)
    return ""


# what may stand between a module's top and a call whose arguments name an object's holder
_TOP_WRAPPERS = frozenset({"variable_declarator", "lexical_declaration", "variable_declaration", "assignment_expression",
                           "expression_statement", "export_statement", "parenthesized_expression"})


def _argument_holder(obj: Node, args: Node) -> str:
    """An object literal handed to a call at a module's top level, the idiom of classes made by a
    library (`export var Map = Evented.extend({ setView: function … })`, `View = Base.extend({…})`) and
    of mixins (`Map.include({…})`, `Object.assign(Store.prototype, {…})`): its entries are filed under
    what holds the call's value, else under the object the call fills (its first argument when the
    literal comes second, or the receiver of a call given the literal first). "" when nothing names it (`register('x', {…})`) and
    when the call's value is what the module exports (a class, not its exports)."""
    call = args.parent
    node = call.parent if call is not None and call.type == "call_expression" else None
    while node is not None and node.type in _TOP_WRAPPERS:
        node = node.parent
    if node is None or node.type != "program":
        return ""
    held = object_holder(call)
    if held or call.parent.type != "expression_statement":
        return "" if held in COMMONJS_EXPORTS else held
    given = args.named_children
    callee = call.child_by_field_name("function")
    if given[0] == obj:
        target = callee.child_by_field_name("object") if callee is not None and callee.type == "member_expression" else None
    else:  # the literal right after what it fills; not a descriptor (`Object.defineProperty(T.prototype, 'x', {get() {…}})`)
        target = given[0] if len(given) > 1 and given[1] == obj else None
    if target is None or target.type not in ("identifier", "member_expression"):
        return ""
    name = text(target)[:120]
    return name if name in COMMONJS_EXPORTS else without_exports(name.removesuffix(".prototype"))


def assigned_owner(node: Node) -> str:
    """`T.prototype.m = function` → `T`: what a member-assigned function belongs to; an entry of an
    object literal belongs to the name holding the object (its name is no name of the module's
    scope). A CommonJS export (`exports.f = …`, `module.exports.f = …`) belongs to nothing: it is
    the module's `f`. "" for any other definition."""
    if node.type in ("pair", "method_definition") and node.parent is not None and node.parent.type == "object":
        holder = object_holder(node.parent)
        return "" if holder in COMMONJS_EXPORTS else holder  # `module.exports = { f() {} }`: the module's `f`
    if node.type != "assignment_expression":
        return ""
    left = node.child_by_field_name("left")
    obj = left.child_by_field_name("object") if left is not None else None
    if obj is None:
        return ""
    owner = text(obj)[:120]
    base = owner.removesuffix(".prototype")
    # `module.exports.prototype.m = function`: a method of what the module exports, as before
    return base if base != owner and base in COMMONJS_EXPORTS else without_exports(base)


def commonjs_export_of(node: Node) -> str:
    """`exports.f = …` → `exports`, `module.exports.f = …` → `module.exports`: the exports object a
    definition is assigned onto (`Unit.assigned_to`; its qualname is `f`); an entry of the object
    `module.exports = { f() {}, g: … }` is assigned onto `module.exports` too; "" for any other definition."""
    if node.type in ("pair", "method_definition") and node.parent is not None and node.parent.type == "object":
        holder = object_holder(node.parent)
        return holder if holder in COMMONJS_EXPORTS else ""
    if node.type != "assignment_expression":
        return ""
    left = node.child_by_field_name("left")
    obj = left.child_by_field_name("object") if left is not None else None
    owner = text(obj) if obj is not None else ""
    return owner if owner in COMMONJS_EXPORTS else ""


def prototype_entry(node: Node) -> bool:
    """An entry of the object a prototype is assigned (`T.prototype = { m: function … }`) or given
    (`T.prototype = Object.assign(new Base(), { m: function … })`, `Object.assign(T.prototype, {…})`): a method."""
    obj = node.parent if node.type == "pair" else None
    holder = obj.parent if obj is not None and obj.type == "object" else None
    if holder is not None and holder.type == "arguments" and holder.named_children[0] != obj:
        call = holder.parent
        if text(call.child_by_field_name("function")) != "Object.assign":
            return False
        if text(holder.named_children[0]).endswith(".prototype"):
            return True
        holder = call.parent
    return holder is not None and holder.type == "assignment_expression" and text(holder.child_by_field_name("left")).endswith(".prototype")


_NO_THIS = frozenset({"void", "any", "unknown", "object", "never", "this"})


def declared_this(node: Node) -> str:
    """The type a TypeScript function declares its `this` (a first parameter `this: Cheerio<T>`: a
    mixin's method, a handler a caller binds) without type arguments, "" when none: inside, `this`
    is one, as inside an extension function (`Unit.ext_type`)."""
    if node.type not in ("function_declaration", "function_expression", "generator_function_declaration"):
        return ""
    params = node.child_by_field_name("parameters")
    first = params.named_children[0] if params is not None and params.named_children else None
    pattern = first.child_by_field_name("pattern") if first is not None and first.type == "required_parameter" else None
    annotation = first.child_by_field_name("type") if pattern is not None and pattern.type == "this" else None
    written = text(annotation).lstrip(":").strip().split("<", 1)[0].strip() if annotation is not None else ""
    return written if written.replace(".", "").replace("_", "").replace("$", "").isalnum() and written not in _NO_THIS else ""
