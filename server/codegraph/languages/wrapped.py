"""The one function a call wraps into the value a name holds: `const Input = forwardRef((props, ref)
=> …)`, `const Card = memo(function Card() {…})`, `var start = once(function () {…})`,
`const save = debounce(() => …, 100)`. The name then holds that function (its parameters and body,
a call of the name reaches it), not a wiring statement.

Only a call handed the function first, by a bare name or a namespace's member: a value computed
with a callback is no function (`list.filter((x) => …)`, `names.reduce((o, n) => …, {})`,
`Object.getOwnPropertyDescriptor(function () {}, 'length')`), and neither is what a timer or a
subscription hands back (`setInterval(() => …, 1000)`, `store.subscribe(() => …)`).
"""

from __future__ import annotations

from tree_sitter import Node

_FUNCTION_ARGUMENTS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
# what a call of these hands back is a handle, a result or a copy, not the function it was given
_NOT_WRAPPERS = frozenset({
    "setTimeout", "setInterval", "setImmediate", "requestAnimationFrame", "requestIdleCallback", "queueMicrotask",
    "map", "filter", "reduce", "reduceRight", "forEach", "find", "findIndex", "findLast", "findLastIndex", "some",
    "every", "sort", "flatMap", "then", "catch", "finally", "subscribe", "on", "addListener", "addEventListener",
})
_BUILTIN_OBJECTS = frozenset({"Object", "Reflect", "Array", "Promise", "process", "console", "window", "document", "globalThis"})


def wrapped_function(call: Node) -> Node | None:
    """The function a call wraps (see the module's doc); None for any other value."""
    if call.type != "call_expression":
        return None
    args, callee = call.child_by_field_name("arguments"), call.child_by_field_name("function")
    given = args.named_children if args is not None and args.type == "arguments" else []
    if not given or given[0].type not in _FUNCTION_ARGUMENTS or any(a.type in _FUNCTION_ARGUMENTS for a in given[1:]):
        return None
    if callee is not None and callee.type == "member_expression":
        owner, name = callee.child_by_field_name("object"), callee.child_by_field_name("property")
        if owner is None or owner.type != "identifier" or owner.text.decode() in _BUILTIN_OBJECTS:
            return None
        callee = name
    if callee is None or callee.type not in ("identifier", "property_identifier") or callee.text.decode() in _NOT_WRAPPERS:
        return None
    return given[0]
