"""What a JavaScript constructor function's instances inherit, as plain JavaScript writes it without
`class … extends`: `util.inherits(Dot, Base)`, `Dot.prototype = Object.create(Base.prototype)`,
`Dot.prototype = new Base()`, `AtRule.prototype = Object.assign(new Node(), {…})`,
`Object.setPrototypeOf(Dot.prototype, Base.prototype)`, `Dot.prototype.__proto__ = Base.prototype`,
and TypeScript's ES5 output `var Dot = (function (_super) { __extends(Dot, _super); … }(Base))`.
Each gives (the constructor's name, the base as written): the constructor's supertype, whose
prototype methods `this.m()` inside the constructor's methods reaches when its own prototype has none."""

from __future__ import annotations

import re

from tree_sitter import Node

from .spec import text

# where module-level wiring sits: the module's statements, and those of a function a module-level
# expression calls at once (an ES5 class's IIFE, a UMD wrapper); not an `if`'s, a loop's or a
# method's body
_DESCEND = frozenset({
    "program", "expression_statement", "variable_declaration", "lexical_declaration", "variable_declarator",
    "parenthesized_expression", "call_expression", "arguments", "function_expression", "function", "arrow_function",
    "statement_block", "assignment_expression", "export_statement", "sequence_expression",
})
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_SETS_PROTOTYPE = ("Object.setPrototypeOf", "Reflect.setPrototypeOf")


def _named(node: Node | None) -> str:
    """`Base` of `Base`, `Base.prototype`, `new Base(…)`, `Object.create(Base.prototype, …)`,
    `Object.assign(new Base(), {…})`; "" of anything else."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node is None:
        return ""
    if node.type == "new_expression":
        node = node.child_by_field_name("constructor")
    elif node.type == "call_expression" and text(node.child_by_field_name("function")) in ("Object.create", "Object.assign"):
        args = node.child_by_field_name("arguments")
        return _named(args.named_children[0]) if args is not None and args.named_children else ""
    written = text(node).removesuffix(".prototype") if node is not None and node.type in ("identifier", "member_expression") else ""
    return written if _DOTTED.fullmatch(written) else ""


def _prototype_of(node: Node | None) -> str:
    """`T` of `T.prototype`, "" otherwise."""
    if node is None or node.type != "member_expression" or text(node.child_by_field_name("property")) != "prototype":
        return ""
    obj = node.child_by_field_name("object")
    return text(obj) if obj is not None and obj.type == "identifier" else ""


def _passed_for(param: Node) -> str:
    """The argument given for parameter `param` of a function called where it is written
    (`(function (_super) { … }(Base))` → `Base`), "" when none."""
    func = param.parent
    while func is not None and func.type not in ("function_expression", "function", "arrow_function"):
        func = func.parent
    if func is None:
        return ""
    params = func.child_by_field_name("parameters")
    names = [text(p) for p in params.named_children] if params is not None else []
    call = func.parent
    while call is not None and call.type == "parenthesized_expression":
        call = call.parent
    if call is None or call.type != "call_expression" or text(param) not in names:
        return ""
    args = call.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    at = names.index(text(param))
    return _named(given[at]) if at < len(given) else ""


def _from_call(call: Node) -> tuple[str, str] | None:
    callee = text(call.child_by_field_name("function"))
    args = call.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    if len(given) != 2:
        return None
    if callee in _SETS_PROTOTYPE:
        sub = _prototype_of(given[0])
        return (sub, _named(given[1])) if sub and _prototype_of(given[1]) else None
    last = callee.rsplit(".", 1)[-1]
    if last not in ("inherits", "__extends") or given[0].type != "identifier":
        return None
    base = _passed_for(given[1]) if last == "__extends" and given[1].type == "identifier" else ""
    return text(given[0]), base or _named(given[1])


def _from_assignment(expr: Node) -> tuple[str, str] | None:
    left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
    sub = _prototype_of(left)
    if not sub and left is not None and left.type == "member_expression" and text(left.child_by_field_name("property")) == "__proto__":
        sub = _prototype_of(left.child_by_field_name("object"))  # `T.prototype.__proto__ = Base.prototype`
    if not sub or right is None or right.type == "object":
        return None
    if right.type in ("identifier", "member_expression") and _prototype_of(right) == "":
        return None  # `T.prototype = proto`: a value, no constructor named
    return sub, _named(right)


def prototype_bases(root: Node) -> list[tuple[str, str]]:
    """(constructor, base as written) of each statement of the module's wiring that makes a
    constructor's prototype inherit another's."""
    out: list[tuple[str, str]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found = None
        if node.type == "call_expression":
            found = _from_call(node)
        elif node.type == "assignment_expression":
            found = _from_assignment(node)
        if found is not None and found[0] and found[1] and found[0] != found[1] and found not in out:
            out.append(found)
        stack.extend(c for c in reversed(node.named_children) if c.type in _DESCEND)
    return out
