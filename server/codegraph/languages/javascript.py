"""TypeScript, TSX and JavaScript (with JSX): one family of grammars, three specs."""

from __future__ import annotations

import re

from tree_sitter import Node

from ..model.facts import Import
from .js_exports import OWN_THIS, anonymous_class, export_aliases
from .js_prototypes import prototype_bases
from .js_holders import assigned_owner, commonjs_export_of, declared_this, object_holder, prototype_entry
from .spec import Carrier, LanguageSpec, ModuleStatement, held_value, named_children, text, type_arguments, wrapped_function

_COMMON_DEFS = """
(class_declaration name: (_) @name) @class
(class name: (_) @name) @class
(function_declaration name: (_) @name) @function
(generator_function_declaration name: (_) @name) @function
(method_definition name: (_) @name) @method
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @function
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (_)) @variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name value: (_)) @variable)))
(assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @function
(assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] property: (property_identifier) @name)
  right: (class !name)) @class
(variable_declarator name: (identifier) @name value: (class !name)) @class
(program (expression_statement (assignment_expression right: (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function))))
(program (_ (variable_declarator value: (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function))))
(program (export_statement declaration: (_ (variable_declarator value: (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function)))))
(export_statement value: (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function))
(program (expression_statement (call_expression arguments: (arguments (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function)))))
(program (expression_statement (assignment_expression right: (call_expression arguments: (arguments (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function))))))
(program (_ (variable_declarator value: (call_expression arguments: (arguments (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function))))))
(program (export_statement declaration: (_ (variable_declarator value: (call_expression arguments: (arguments (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function)))))))
(program (export_statement value: (call_expression arguments: (arguments (object (pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @function)))))
(program (export_statement "default" @name value: [(function_expression !name) (generator_function !name) (arrow_function)] @function))
(program (export_statement "default" @name value: (class !name) @class))
(program (export_statement "default" @name value: (call_expression arguments: (arguments . [(arrow_function) (function_expression) (generator_function)] @function))))
(program (variable_declaration (variable_declarator name: (identifier) @name value: (call_expression arguments: (arguments [(arrow_function) (function_expression)]))) @function))
"""
# A named class expression is a class too (`module.exports = class Application extends Emitter {…}`):
# its methods are its members, and `this.m()` inside them resolves through it. An anonymous one is
# named by what holds it, as a function assigned there is: `const Toolkit = class {…}` (the name the
# language gives it), `internals.Route = class {…}` (`internals.Route`, as `internals.f = function`).
# `a.b = function …` and friends above: functions assigned to members (`exports.f`,
# `module.exports.f`, `T.prototype.m`) and entries of a module-level or exported object literal, also
# one handed to a call at the top (`var Map = Evented.extend({…})`, `Map.include({…})`: js_holders.py).
# An anonymous function or class a module exports by default (`export default function (api) {…}`) is
# the module's `default`: what a default import of the module binds; so is the one function a default
# export wraps (`export default declare((api, options) => {…})`, a compiler plugin's factory). A name holding the one function
# a call wraps (`const Input = forwardRef((props, ref) => …)`, `var run = once(function () {…})`) is
# that function (spec.held_value), not a wiring statement.
# Not `this.x = function`: the qualname would make it a nested name of the enclosing function.
# Class fields may hold a wrapped arrow too (`x = wrap((…) => {…})`).

_TS_DEFS = _COMMON_DEFS + """
(abstract_class_declaration name: (_) @name) @class
(interface_declaration name: (_) @name) @interface
(enum_declaration name: (_) @name) @enum
(public_field_definition name: (_) @name value: [(arrow_function) (function_expression)]) @method
(public_field_definition name: (_) @name value: (call_expression arguments: (arguments [(arrow_function) (function_expression)]))) @method
(abstract_method_signature name: (_) @name) @method
(interface_body (method_signature name: (_) @name) @method)
(class_body (method_signature name: (_) @name) @method)
(function_signature name: (_) @name) @function
(internal_module name: [(identifier) (nested_identifier)] @name) @object
(module name: [(identifier) (nested_identifier)] @name) @object
"""

_JS_DEFS = _COMMON_DEFS + """
(field_definition property: (_) @name value: [(arrow_function) (function_expression)]) @method
(field_definition property: (_) @name value: (call_expression arguments: (arguments [(arrow_function) (function_expression)]))) @method
"""

# `(0, m_1.f)(…)`: compiled ES modules call an imported function so (its `this` left undefined)
CALLS = """
(call_expression function: (identifier) @name) @call
(call_expression function: (super) @name) @call
(call_expression function: (member_expression object: (super) @receiver property: (_) @name)) @call
(call_expression function: (member_expression object: (_) @receiver property: (_) @name)) @call
(new_expression constructor: (identifier) @name) @construct
(call_expression function: (parenthesized_expression (sequence_expression . (number) . (member_expression object: (_) @receiver property: (_) @name) .))) @call
(new_expression constructor: (member_expression object: (_) @receiver property: (_) @name)) @construct
"""

# JSX: rendering a component is calling it (`<Button />`, `<ui.Card>`); lowercase names
# are intrinsic elements (`<div>`), not references.
JSX_CALLS = CALLS + """
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @call
(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @call
(jsx_self_closing_element name: (member_expression object: (_) @receiver property: (_) @name)) @call
(jsx_opening_element name: (member_expression object: (_) @receiver property: (_) @name)) @call
"""

IMPORTS = "(import_statement) @import"
# `export { a, b as c } from './x'`, `export * from './x'`: a module passing another's names on
IMPORTS += "\n(export_statement source: (string)) @import"
# TypeScript's CommonJS output of `export * from './x'`: `tslib_1.__exportStar(require("./x"), exports)`
IMPORTS += """
(call_expression
  function: [(identifier) (member_expression property: (property_identifier))] @fn
  arguments: (arguments . (call_expression function: (identifier) @req arguments: (arguments . (string) .)) . (identifier) @to .)
  (#match? @fn "__exportStar$") (#eq? @req "require") (#eq? @to "exports")) @import
"""
# Babel's and Rollup's CommonJS output of `export * from './x'`: `var _x = require('./x');
# Object.keys(_x).forEach(function (key) { … Object.defineProperty(exports, key, …) })`
IMPORTS += """
(call_expression
  function: (member_expression
    object: (call_expression function: (member_expression object: (identifier) @obj property: (property_identifier) @keys)
                             arguments: (arguments . (identifier) .))
    property: (property_identifier) @each)
  (#eq? @obj "Object") (#eq? @keys "keys") (#eq? @each "forEach")) @import
"""
# CommonJS: `const x = require('./x')`, `const { a, b: c } = require('./x')`
IMPORTS += """
(variable_declarator name: (_) value: (call_expression function: (identifier) @fn arguments: (arguments . (string) .)) (#eq? @fn "require")) @import
"""
# TypeScript's and Babel's CommonJS output of `import x from './x'` and `import * as x from './x'`:
# `var x_1 = tslib_1.__importDefault(require("./x"))`, `var _x = _interopRequireWildcard(require("./x"))`
# bind the module's namespace (its default export is `x_1.default`)
_INTEROP = "(__importDefault|__importStar|_interopRequireDefault|_interopRequireWildcard)$"
IMPORTS += f"""
(variable_declarator name: (identifier) value: (call_expression
  function: [(identifier) (member_expression property: (property_identifier))] @interop
  arguments: (arguments . (call_expression function: (identifier) @fn arguments: (arguments . (string) .)) .))
  (#match? @interop "{_INTEROP}") (#eq? @fn "require")) @import
"""


def _unquote(s: str) -> str:
    return s.strip().strip("'\"`")


def _parse_require(node: Node) -> list[Import]:
    """`const x = require('./x')` binds the module's export (a default); `const { a, b: c } =
    require('./x')` binds its named exports; `var x_1 = __importDefault(require('./x'))` its namespace."""
    line = node.start_point.row + 1
    value = node.child_by_field_name("value")
    args = value.child_by_field_name("arguments") if value is not None else None
    if value is not None and text(value.child_by_field_name("function")) != "require":  # `__importDefault(require('./x'))`
        inner = args.named_children[0] if args is not None and args.named_children else None
        source = inner.child_by_field_name("arguments").named_children[0] if inner is not None else None
        target = node.child_by_field_name("name")
        return [Import(_unquote(text(source)), "", text(target), line)] if source is not None and target is not None else []
    source = next((c for c in args.children if c.type == "string"), None) if args is not None else None
    target = node.child_by_field_name("name")
    if source is None or target is None:
        return []
    module = _unquote(text(source))
    if target.type == "identifier":
        return [Import(module, "default", text(target), line)]
    out: list[Import] = []
    for part in named_children(target) if target.type == "object_pattern" else []:
        if part.type == "shorthand_property_identifier_pattern":
            out.append(Import(module, text(part), "", line))
        elif part.type == "pair_pattern" and part.child_by_field_name("value") is not None and part.child_by_field_name("value").type == "identifier":
            out.append(Import(module, text(part.child_by_field_name("key")), text(part.child_by_field_name("value")), line))
    return out


def _parse_reexport(node: Node) -> list[Import]:
    """`export { a, b as c } from './x'` imports a and b (as c), `export * from './x'` all of x's
    names (a star import), `export * as ns from './x'` the module as ns: what the resolver follows
    through a package's index file."""
    line = node.start_point.row + 1
    module = _unquote(text(node.child_by_field_name("source")))
    out: list[Import] = []
    for part in node.children:
        if part.type == "*":
            out.append(Import(module, "*", "", line))
        elif part.type == "namespace_export":
            ident = next((c for c in part.children if c.type in ("identifier", "string")), None)
            if ident is not None:
                out.append(Import(module, "", _unquote(text(ident)), line))
        elif part.type == "export_clause":
            for spec in part.children:
                name = spec.child_by_field_name("name") if spec.type == "export_specifier" else None
                if name is not None and name.type == "identifier":
                    alias = spec.child_by_field_name("alias")
                    out.append(Import(module, text(name), text(alias) if alias is not None and alias.type == "identifier" else "", line))
    return out


def _parse_export_star(node: Node) -> list[Import]:
    """`__exportStar(require("./x"), exports)` passes on all of x's names, as `export * from './x'`."""
    inner = node.child_by_field_name("arguments").named_children[0]
    source = inner.child_by_field_name("arguments").named_children[0]
    return [Import(_unquote(text(source)), "*", "", node.start_point.row + 1)]


def _parse_keys_reexport(node: Node) -> list[Import]:
    """`Object.keys(_x).forEach(function (key) { … exports … })` at a module's top, with `var _x =
    require('./x')` there: x's names passed on, as `export * from './x'`. A loop that never names
    `exports` copies nothing onto the module."""
    local = text(node.child_by_field_name("function").child_by_field_name("object").child_by_field_name("arguments").named_children[0])
    holder = node.parent.parent if node.parent is not None else None
    if "exports" not in text(node.child_by_field_name("arguments")) or holder is None or holder.type != "program":
        return []
    for d in (d for stmt in named_children(holder) if stmt.type in _DECLARATIONS for d in named_children(stmt)):
        value = d.child_by_field_name("value")
        if text(d.child_by_field_name("name")) == local and text(value.child_by_field_name("function") if value else None) == "require" and _parse_require(d):
            return [Import(_parse_require(d)[0].module, "*", "", node.start_point.row + 1)]
    return []


def parse_import(node: Node) -> list[Import]:
    if node.type == "variable_declarator":
        return _parse_require(node)
    if node.type == "call_expression" and text(node.child_by_field_name("function")).endswith("forEach"):
        return _parse_keys_reexport(node)
    if node.type == "call_expression":
        return _parse_export_star(node)
    if node.type == "export_statement":
        return _parse_reexport(node)
    line = node.start_point.row + 1
    module = _unquote(text(node.child_by_field_name("source")))
    clause = next((c for c in node.children if c.type == "import_clause"), None)
    if clause is None:
        return [Import(module, "", "", line)]
    out: list[Import] = []
    for part in named_children(clause):
        if part.type == "identifier":
            out.append(Import(module, "default", text(part), line))
        elif part.type == "namespace_import":
            ident = next((c for c in part.children if c.type == "identifier"), None)
            out.append(Import(module, "", text(ident), line))
        elif part.type == "named_imports":
            for spec in part.children:
                if spec.type == "import_specifier":
                    out.append(Import(module, text(spec.child_by_field_name("name")), text(spec.child_by_field_name("alias")), line))
    return out


_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
# Module-level constants worth a unit: re-exported API (`export const run: Sig = internal.run`)
# and values built by a call (`export const layer = Layer.make(...)`); plain literals are not.
_VARIABLE_VALUES = frozenset({"identifier", "member_expression", "call_expression", "new_expression", "as_expression", "satisfies_expression", "await_expression"})



def refine_kind(node: Node, kind: str) -> str:
    if prototype_entry(node):
        return "method"
    if node.type in _FUNCTION_VALUES and node.parent is not None and node.parent.type == "arguments":  # `export default declare((api) => {…})`
        return kind if wrapped_function(node.parent.parent) == node else ""
    if node.type == "pair" and node.parent.parent is not None and node.parent.parent.type == "arguments" and not object_holder(node.parent):
        return ""  # an entry of an object handed to a call that names no holder (`register('x', {…})`)
    if kind == "class" or (kind == "variable" and anonymous_class(held_value(node))):
        return "class"  # `const Foo = class {…}` at module level is captured as a constant too
    if node.type == "assignment_expression":  # `T.prototype.m = function`: a method of T
        left = node.child_by_field_name("left")
        return "method" if text(left.child_by_field_name("object")).endswith(".prototype") else "function"
    if kind != "variable":
        return "" if node.type == "variable_declarator" and held_value(node).type not in _FUNCTION_VALUES else kind
    value = node.child_by_field_name("value")
    if value is not None and held_value(node).type in _FUNCTION_VALUES:  # also `((…) => {…}) as F`
        return "function"
    return "variable" if value is not None and value.type in _VARIABLE_VALUES else ""




def receiver_name(node: Node) -> str:
    """"this" for a callable whose own `this` is the object it is called on: a method, and a
    `function` assigned to a member (`app.init = function`, `T.prototype.m = function`) or held
    by an object literal's entry (`{ f: function () {} }`); "" for an arrow function (its `this`
    is the enclosing one's) and a function declared or held by a variable (called bare)."""
    if node.type == "assignment_expression":
        value = node.child_by_field_name("right")
    elif node.type == "pair":
        value = node.child_by_field_name("value")
    elif node.type in ("variable_declarator", "function_declaration", "generator_function_declaration"):
        return ""
    else:
        return "this"
    return "this" if value is not None and value.type in OWN_THIS else ""


_FUNCTION_NODES = frozenset({"function_declaration", "function_expression", "function", "generator_function",
                             "generator_function_declaration", "method_definition", "arrow_function"})
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})


def _bound_names(function: Node) -> dict[str, bool]:
    """The names a function binds itself — its parameters, the variables and functions its body
    declares at its top — each True when it is a variable holding `this` (`var self = this;`)."""
    out: dict[str, bool] = {}
    params = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if params is not None:
        if params.type == "identifier":
            out[text(params)] = False
        for p in named_children(params):
            pattern = p.child_by_field_name("pattern") or p
            if pattern.type == "identifier":
                out[text(pattern)] = False
    body = function.child_by_field_name("body")
    for stmt in named_children(body) if body is not None and body.type == "statement_block" else ():
        if stmt.type in _DECLARATIONS:
            for d in named_children(stmt):
                name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
                if d.type == "variable_declarator" and name is not None and name.type == "identifier":
                    out[text(name)] = out.get(text(name), True) and value is not None and value.type == "this"
        elif stmt.type in ("function_declaration", "generator_function_declaration") and stmt.child_by_field_name("name") is not None:
            out[text(stmt.child_by_field_name("name"))] = False
    return out


def this_alias(receiver: Node, cache: dict) -> tuple[int, int] | None:
    """The byte span of the function whose `this` a receiver's first name holds: `self` in
    `self.finish()` (or `self.res.end()`) where the nearest function binding `self` declares it
    `var self = this;` (`const that = this`) — the idiom of callbacks before arrow functions. None
    when the nearest binding of the name is anything else (a parameter, another value)."""
    head = receiver
    while head.type == "member_expression":
        head = head.child_by_field_name("object")
        if head is None:
            return None
    if head.type != "identifier":
        return None
    name, node = text(head), receiver.parent
    while node is not None:
        if node.type in _FUNCTION_NODES:
            bound = cache.get(node.id)
            if bound is None:
                bound = cache[node.id] = _bound_names(node)
            if name in bound:
                return (node.start_byte, node.end_byte) if bound[name] else None
        node = node.parent
    return None


def supertypes(node: Node) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if node.type in ("assignment_expression", "variable_declarator"):  # an anonymous class held by a name
        node = node.child_by_field_name("right") or held_value(node) or node
    for child in node.children:
        if child.type == "class_heritage":
            for clause in named_children(child):
                if clause.type == "extends_clause":
                    out += [(text(v), "extends") for v in clause.children_by_field_name("value")]
                elif clause.type == "implements_clause":
                    out += [(text(t), "implements") for t in named_children(clause)]
                else:  # JavaScript: `class A extends B` has the expression directly
                    out.append((text(clause), "extends"))
        elif child.type == "extends_type_clause":
            out += [(text(t), "extends") for t in child.children_by_field_name("type")]
    return out


def _statement_call(node: Node) -> tuple[str, str] | None:
    """(stmt_kind, name) when a top-level statement registers or wires something through a call."""
    if node.type == "expression_statement":
        expr = named_children(node)[0] if named_children(node) else None
        while expr is not None and expr.type == "await_expression":
            expr = named_children(expr)[0] if named_children(expr) else None
        if expr is not None and expr.type in ("call_expression", "new_expression"):
            callee = expr.child_by_field_name("function") or expr.child_by_field_name("constructor")
            return "registration", text(callee)[:80]
        if expr is not None and expr.type == "assignment_expression":
            right = expr.child_by_field_name("right")
            if right is not None and right.type in ("call_expression", "new_expression"):
                return "wiring", text(expr.child_by_field_name("left"))[:80]
    if node.type in ("lexical_declaration", "variable_declaration"):
        for decl in node.children:
            if decl.type == "variable_declarator":
                value = decl.child_by_field_name("value")
                while value is not None and value.type == "await_expression":
                    value = named_children(value)[0] if named_children(value) else None
                if value is not None and value.type in ("call_expression", "new_expression") and wrapped_function(value) is None:
                    return "wiring", text(decl.child_by_field_name("name"))[:80]  # not `memo(function Card() {…})`: a function
                while value is not None and value.type in ("as_expression", "satisfies_expression"):
                    value = named_children(value)[0] if named_children(value) else None  # `{…} as const`
                if value is not None and value.type == "object" and _function_entries(value) >= MIN_TABLE_ENTRIES:
                    return "table", text(decl.child_by_field_name("name"))[:80]
    return None


# A module-level object whose entries are functions (`const strategies = { url: fromRequest,
# headers: (a, b) => … }`) is a lookup table: code calls its entries by key, not by name.
MIN_TABLE_ENTRIES = 2
_ENTRY_VALUES = frozenset({"identifier", "arrow_function", "function_expression", "function"})


def _function_entries(obj: Node) -> int:
    """How many entries of an object literal hold a function or a name (`k: f`, `f`, `k: (a) => …`)."""
    return sum(
        1 for pair in obj.children
        if pair.type == "shorthand_property_identifier"
        or (pair.type == "pair" and pair.child_by_field_name("value") is not None and pair.child_by_field_name("value").type in _ENTRY_VALUES)
    )


def module_statements(root: Node) -> list[ModuleStatement]:
    out: list[ModuleStatement] = []
    for child in root.children:
        inner = child
        if child.type == "export_statement":
            inner = child.child_by_field_name("declaration") or child
        found = _statement_call(inner)
        if found is not None:
            out.append((child, found[0], found[1]))
    return out


# The pinned TypeScript grammar predates variance annotations (`interface Box<out A>`) and
# const type parameters (`<const T>`), and reads a call signature that starts a line in an
# overload list (`{ <A>(f: F): G \n <A>(self: S, f: F): G }`) as a comparison. Both make it
# drop whole files (185 of effect 4.1's 572). We blank the modifiers and turn the indentation
# space before such a signature into the `;` separator: same length, same lines, same offsets.
# (a comment may stand before the modifier: `<\n  /** @ts-ignore Cast variance */\n  out T extends …`)
_VARIANCE = re.compile(rb"(?<=[<,])((?:\s|/\*(?:[^*]|\*(?!/))*\*/|//[^\n]*(?=\n))*)((?:in\s+out|out|in|const)\s+)(?=[A-Za-z_$])")
_LINE_CALL_SIGNATURE = re.compile(rb"(?<=[^\s=(,:|&{;])(?<!=>)(\r?\n)([ \t]+)(?=<(?:[A-Za-z_$][^\n]*>\s*\(|[ \t]*\r?\n))")


def _blank_variance(source: bytes) -> bytes:
    return _VARIANCE.sub(lambda m: m.group(1) + b" " * len(m.group(2)), source)


# after these (comments between them and the signature skipped) a signature needs no separator: a
# second one (`{ /** doc */ ; <T>(…)`, `…;\n // note\n ; <T>(…)`) is itself an error
_SEPARATED = frozenset(b"=(,:|&{;")


def _previous_code_byte(source: bytes, at: int) -> int:
    """The last byte before `at` that is code: whitespace, block comments and lines holding only a
    line comment skipped; 0 at the start of the file."""
    i = at
    while i > 0:
        if source[i - 1] in b" \t\r\n":
            i -= 1
        elif source.endswith(b"*/", 0, i) and (opened := source.rfind(b"/*", 0, i - 2)) >= 0:
            i = opened
        elif source[(line := source.rfind(b"\n", 0, i) + 1) : i].lstrip().startswith(b"//"):
            i = line
        else:
            return source[i - 1]
    return 0


# The pinned grammar reads an import type (`import("./m").Options`) as an expression, so what may
# follow a type but not an expression — type arguments (`import("./m").Cls<A, "register">`), an
# array (`import("./m").Value[]`), a union in parentheses (`(import("./m").Policy | undefined)[]`),
# as tsc writes into every `.d.ts` whose declarations name another module's type — ends the
# statement in an error, and the definitions with it. The `import(…)` becomes a name of the same
# length (`import______.Cls<A>` is a qualified type); a dynamic import that is called
# (`import("./m").then(…)`, `.then<T>(…)`) stays an expression.
_IMPORT_TYPE = re.compile(rb"""(?<![\w$.])import\((?:"[^"\\\n]*"|'[^'\\\n]*')\)(?=\s*\.\s*[A-Za-z_$])""")
_MEMBER_CHAIN = re.compile(rb"(?:\s*\.\s*[A-Za-z_$][\w$]*)+\s*")
_CALLED = re.compile(rb"\s*\(")
_TYPE_ARGS_WINDOW = 65536  # a declared table's column types run for hundreds of lines


def _closing_angle(source: bytes, at: int) -> int:
    """The index after the `>` that closes the `<` before `at` (`=>` not counted); -1 if none, or
    if a bracket opened before the `<` closes first (a comparison, not type arguments)."""
    depth, nested = 1, 0
    for i in range(at, min(len(source), at + _TYPE_ARGS_WINDOW)):
        c = source[i]
        if c == 0x3C:  # <
            depth += 1
        elif c == 0x3E and source[i - 1] != 0x3D:  # > but not =>
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in b"([{":
            nested += 1
        elif c in b")]}":
            nested -= 1
            if nested < 0:
                return -1
    return -1


def _name_import_types(source: bytes) -> bytes:
    if b"import(" not in source:
        return source

    def named(m: re.Match) -> bytes:
        after = _MEMBER_CHAIN.match(source, m.end()).end()  # type: ignore[union-attr]  # the lookahead saw one member
        if source[after : after + 1] == b"<":
            after = _closing_angle(source, after + 1)
            if after < 0:
                return m.group(0)
        if _CALLED.match(source, after):  # `import("./m").then(…)`, `.then<T>(…)`: a call
            return m.group(0)
        return b"import" + b"_" * (len(m.group(0)) - 6)

    return _IMPORT_TYPE.sub(named, source)


# The grammar also takes `using` for the start of a `using` declaration wherever a parameter or an
# element may stand (`findProviders(using: any, …)`, `constructor(private using: Token)`), and
# loses the class around it. Such a `using`, inside `(` or `[` and followed by what ends a
# parameter or element, becomes a name of the same length; a property key (`{ using: 1 }`) stays.
_USING = re.compile(rb"(?<![\w$.])using(?=\s*(?:\?\s*)?[:,)=\]])(?!\s*==)")


def _enclosing_opener(source: bytes, at: int) -> int:
    """The bracket byte that encloses `at` (0 when none is found nearby)."""
    depth = 0
    for i in range(at - 1, max(-1, at - 4096), -1):
        c = source[i]
        if c in b")]}":
            depth += 1
        elif c in b"([{":
            if depth == 0:
                return c
            depth -= 1
    return 0


def _name_using_parameters(source: bytes) -> bytes:
    if b"using" not in source:
        return source
    return _USING.sub(lambda m: b"usin_" if _enclosing_opener(source, m.start()) in b"([" else m.group(0), source)


# A tuple element's label may be a type's keyword (`[context: Arg, object: Arg, string: Arg]`, as
# command reply typings spell fields); the grammar reads the keyword as the element's type. The
# label becomes a name of the same length: only the element's type says anything.
_KEYWORD_LABEL = re.compile(rb"(?<![\w$.])(?:any|bigint|boolean|never|number|object|string|symbol|undefined|unknown|void)(?=\s*\??\s*:)")


def _name_keyword_labels(source: bytes) -> bytes:
    return _KEYWORD_LABEL.sub(
        lambda m: b"_" * len(m.group(0)) if _previous_code_byte(source, m.start()) in b"[," and _enclosing_opener(source, m.start()) == 0x5B
        else m.group(0), source)


# TypeScript 5.0's type-only re-export of a whole module (`export type * from './x'`, `export type
# * as ns from …`) is newer than the grammar: blanking `type` leaves the re-export it is for the index.
_TYPE_STAR_EXPORT = re.compile(rb"(?<![\w$.])(export\s+)type(?=\s*\*)")


def _blank_type_star_exports(source: bytes) -> bytes:
    if b"type" not in source:
        return source
    return _TYPE_STAR_EXPORT.sub(lambda m: m.group(1) + b"    ", source)


def tsx_preprocess(source: bytes) -> bytes:
    return _name_keyword_labels(_name_using_parameters(_name_import_types(_blank_variance(_blank_type_star_exports(source)))))


def typescript_preprocess(source: bytes) -> bytes:
    source = tsx_preprocess(source)
    return _LINE_CALL_SIGNATURE.sub(
        lambda m: m.group(0) if _previous_code_byte(source, m.start()) in _SEPARATED else m.group(1) + b";" + m.group(2)[1:], source)


_MEMBER_REF = "(member_expression object: (_) @receiver property: (property_identifier) @name) @ref"
REFS = "\n".join(
    f"({holder} {ref})"
    for holder in ("arguments", "array", "pair value:", "assignment_expression right:")
    for ref in (_MEMBER_REF, "(identifier) @bare")
)
# A function chosen as a fallback value (`table[key] || fallback`, `has ? table[key] : fallback`)
REFS += """
(ternary_expression consequence: (identifier) @bare)
(ternary_expression alternative: (identifier) @bare)
(binary_expression operator: "||" right: (identifier) @bare)
(binary_expression operator: "??" right: (identifier) @bare)
(object (shorthand_property_identifier) @bare)
"""
_THIS_MEMBERS = "(assignment_expression left: (member_expression object: (this) @obj property: (property_identifier) @name) right: (_) @value)\n"
# `this.queues = { request: new Queue(), … }`: each entry built there is a member `queues.request`
_THIS_MEMBERS += "(assignment_expression left: (member_expression object: (this) @obj property: (property_identifier) @outer) right: (object (pair key: (property_identifier) @name value: (new_expression) @value)))\n"
TS_MEMBERS = _THIS_MEMBERS + """
(public_field_definition name: (_) @name type: (type_annotation) @type)
(public_field_definition name: (_) @name value: (new_expression) @value)
(required_parameter (accessibility_modifier) pattern: (identifier) @name type: (type_annotation) @type)
"""
JS_MEMBERS = _THIS_MEMBERS + "(field_definition property: (_) @name value: (new_expression) @value)\n"

# What an extension-less relative import may name, in order of preference
MODULE_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


def import_candidates(base: str) -> list[str]:
    """`./x` is x, x.ts, …, x/index.ts, …; `./x.js` written in TypeScript may be x.ts."""
    if not base:  # the workspace root: its index only
        return [f"index{e}" for e in MODULE_EXTENSIONS]
    stem = base.rsplit(".", 1)[0] if base.endswith((".js", ".jsx", ".mjs", ".cjs")) else base
    return [base] + [stem + e for e in MODULE_EXTENSIONS] + [f"{base}/index{e}" for e in MODULE_EXTENSIONS]


IO_MODULES = frozenset({
    "fs", "fs/promises", "node:fs", "node:fs/promises", "better-sqlite3", "sqlite3", "pg", "mysql2", "redis", "ioredis",
    "mongodb", "mongoose", "level", "knex", "typeorm", "prisma", "@prisma/client",
})


def js_public(name: str, signature: bytes) -> bool:
    """Public: no leading `_` or `#`, and not declared `private` or `protected`."""
    return not name.startswith(("_", "#")) and re.search(rb"\b(private|protected)\b", signature) is None


# `Type.prototype.name = …`, `Type.prototype[name] = …`: a member added to a type when the module loads
RUNTIME_MEMBERS = re.compile(rb"\b([A-Z][\w$]*)\.prototype(?:\.[\w$]+|\[[^\]\n]+\])\s*=(?!=)")

# `export function f`, `export default class C`, `export const x`, `export default f;`
_EXPORT_DECL = re.compile(rb"^[ \t]*export\s+(?:default\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|abstract\s+class)\s*([A-Za-z_$][\w$]*)", re.M)
_EXPORT_NAME = re.compile(rb"^[ \t]*(?:export\s+default|module\.exports\s*=)\s*([A-Za-z_$][\w$]*)\s*;?\s*$", re.M)
# `export { a, b as c }`, `export default { a, b: c }`, `module.exports = { a, b: c }`
_EXPORT_LIST = re.compile(rb"^[ \t]*(?:export(?:\s+default)?|module\.exports\s*=)\s*\{([^{}]*)\}", re.M)
_EXPORT_MEMBER = re.compile(rb"^[ \t]*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*)?", re.M)
_LIST_ITEM = re.compile(rb"([A-Za-z_$][\w$]*)\s*(?:(?:as|:)\s*([A-Za-z_$][\w$]*))?")
_ANY_EXPORT = re.compile(rb"^[ \t]*(?:export\b|module\.exports\b|exports\.)", re.M)


def js_exported_names(source: bytes) -> "frozenset[str] | None":
    """The local names a module file exports (ES `export`, CommonJS `module.exports`/`exports.x`); None
    when it has no export syntax at all (a script: its top-level names are shared)."""
    if not _ANY_EXPORT.search(source):
        return None
    names = {m.group(1) for m in _EXPORT_DECL.finditer(source)} | {m.group(1) for m in _EXPORT_NAME.finditer(source)}
    for m in _EXPORT_LIST.finditer(source):
        for item in _LIST_ITEM.finditer(m.group(1)):
            names.add(item.group(1))
            if item.group(2):
                names.add(item.group(2))
    for m in _EXPORT_MEMBER.finditer(source):
        names.update(n for n in m.groups() if n)
    return frozenset(n.decode("utf-8", "replace") for n in names)


TS_RETURN = re.compile(rb"\)\s*:\s*(?:Promise<)?([A-Za-z_]\w*)")

_COMMON = dict(
    boundary_nodes=(("try_statement", 2), ("throw_statement", 3)),
    error_translators=frozenset({"catch"}),  # `promise.catch(…)`
    io_modules=IO_MODULES,
    is_public=js_public,
    runtime_members=RUNTIME_MEMBERS,
    exported_names=js_exported_names,
    catch_node="catch_clause",
    outside_imports="root",
    module_system="path",
    import_candidates=import_candidates,
    refs=REFS,
    copy_suffixes=(".d.ts", ".d.cts", ".d.mts", ".min.js", ".cjs", ".mjs"),
    file_scoped_names=True,
    value_calls=frozenset({"bind", "call", "apply"}),
    super_name="super",
    assignments="(variable_declarator name: (_) @target value: (_) @value)",
    refine_kind=refine_kind,
    calls=CALLS,
    imports=IMPORTS,
    parse_import=parse_import,
    supertypes=supertypes,
    module_statements=module_statements,
    receiver_name=receiver_name,
    this_alias=this_alias,
    function_receiver=True,
    export_aliases=export_aliases,
    prototype_bases=prototype_bases,
    receiver_type=assigned_owner,
    assigned_to=commonjs_export_of,
    default_export="module.exports",
    wrapper_types=frozenset({"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}),
    leading_types=frozenset({"decorator"}),
    decorator_types=frozenset({"decorator"}),
    body_types=frozenset({"class_body", "statement_block", "interface_body", "enum_body", "object_type"}),
)

# typed locals, and the typed parameters of the anonymous functions a callable holds
# (`items.forEach((it: Item) => it.run())`): a call inside on the parameter sees its type;
# their untyped parameters are locals too; each function's own inside it (`@scope`), of no
# known type in the rest of the callable
_TS_DECLARATIONS = """
(call_expression function: (member_expression object: (_) @of property: (property_identifier) @_each)
                 arguments: (arguments . [(arrow_function parameter: (identifier) @element) @scope
                                          (arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @element !type))) @scope
                                          (function_expression parameters: (formal_parameters . (required_parameter pattern: (identifier) @element !type))) @scope])
                 (#match? @_each "^(forEach|map|filter|some|every|find|findIndex|findLast|findLastIndex|flatMap)$"))
(for_in_statement left: (identifier) @element operator: "of" right: (_) @of)
(variable_declarator name: (identifier) @name type: (type_annotation) @type)
(variable_declarator name: (identifier) @holder !type value: (member_expression) @held)
(arrow_function parameters: (formal_parameters [(required_parameter pattern: (identifier) @name type: (type_annotation) @type)
                                                (optional_parameter pattern: (identifier) @name type: (type_annotation) @type)])) @scope
(function_expression parameters: (formal_parameters [(required_parameter pattern: (identifier) @name type: (type_annotation) @type)
                                                     (optional_parameter pattern: (identifier) @name type: (type_annotation) @type)])) @scope
(arrow_function parameter: (identifier) @untyped) @scope
(arrow_function parameters: (formal_parameters [(required_parameter pattern: (identifier) @untyped !type)
                                                (optional_parameter pattern: (identifier) @untyped !type)])) @scope
(function_expression parameters: (formal_parameters [(required_parameter pattern: (identifier) @untyped !type)
                                                     (optional_parameter pattern: (identifier) @untyped !type)])) @scope
"""
# TypeScript's carriers (spec.carriers): a promise (`await` hands its value over) and the type
# operators that keep a type's methods
TS_CARRIERS = (
    Carrier("Promise", frozenset({"then", "catch", "finally"})),
    *(Carrier(name, frozenset()) for name in ("Readonly", "NonNullable", "Required", "Partial")),
)
_TS_SEQUENCES = frozenset({"Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "IterableIterator"})


def ts_element(collection: str) -> str:
    """What `for (const v of x)` walks in x's declared type: `Step[]`, `readonly Step[]`,
    `Array<Step>`, `Set<Step>` → `Step` (a Map yields pairs: unknown)."""
    t = collection.strip()
    t = t[9:].lstrip() if t.startswith("readonly ") else t
    if t.endswith("[]"):
        return t[:-2].strip()
    args = type_arguments(t, _TS_SEQUENCES)
    return args[0] if len(args) == 1 else ""


TYPESCRIPT = LanguageSpec(
    name="typescript", grammar="typescript", extensions=(".ts", ".mts", ".cts"), definitions=_TS_DEFS, preprocess=typescript_preprocess,
    declarations=_TS_DECLARATIONS, members=TS_MEMBERS, signature_return=TS_RETURN, declared_fields=True, initialised_fields=True, carriers=TS_CARRIERS, element_type=ts_element,
    extension_type=declared_this, **_COMMON
)
_JSX = {**_COMMON, "calls": JSX_CALLS}
# In TSX a line may well start with `<Tag>(`: the call signature rewrite is not safe there.
TSX = LanguageSpec(
    name="tsx", grammar="tsx", extensions=(".tsx",), definitions=_TS_DEFS, preprocess=tsx_preprocess, declarations=_TS_DECLARATIONS, members=TS_MEMBERS,
    signature_return=TS_RETURN, declared_fields=True, initialised_fields=True, carriers=TS_CARRIERS, element_type=ts_element, extension_type=declared_this, **_JSX
)
# The comments and blank lines a file opens with (a `#!` line too): where Flow's `@flow` mark sits
_HEADER = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/|#![^\n]*)*", re.S)


def flow_dialect(source: bytes) -> str:
    """A JavaScript file its opening comments mark `@flow` carries Flow's type annotations, which the
    JavaScript grammar cannot read (over half of such files' bytes fell in syntax errors) and the TSX
    grammar can: it is read as TSX."""
    return "tsx" if b"@flow" in source[:4096] and re.search(rb"@flow\b", _HEADER.match(source, 0, 65536).group(0)) else ""


JAVASCRIPT = LanguageSpec(
    name="javascript", grammar="javascript", extensions=(".js", ".jsx", ".mjs", ".cjs"), definitions=_JS_DEFS, members=JS_MEMBERS, dialect=flow_dialect,
    assigned_fields=True, **_JSX
)
