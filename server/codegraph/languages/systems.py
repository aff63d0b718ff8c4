"""Go and Rust: receivers and impl blocks put methods on types defined elsewhere in the file."""

from __future__ import annotations

import re

from tree_sitter import Node, Parser
from tree_sitter_language_pack import get_language

from ..model.facts import Import
from .go_build import default_build as go_default_build, platform_variant as go_platform_variant
from .spec import Carrier, LanguageSpec, MacroCall, ModuleStatement, last_segment, named_children, text, type_arguments

GO_DEFS = """
(function_declaration name: (identifier) @name) @function
(method_declaration name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name type: (struct_type)) @struct
(type_spec name: (type_identifier) @name type: (interface_type)) @interface
(method_elem name: (field_identifier) @name) @method
(type_alias name: (type_identifier) @name) @struct
(type_spec name: (type_identifier) @name type: [(function_type) (slice_type) (map_type) (array_type) (channel_type) (pointer_type) (type_identifier) (qualified_type) (generic_type)]) @struct
(source_file (const_declaration (const_spec name: (identifier) @name) @variable))
(source_file (var_declaration (var_spec name: (identifier) @name) @variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @variable)))
"""
# A type alias (`type Config = base.Config`, `type any = interface{}`) is a unit of the same kind; the
# ranked graph reads its members through what it stands for (`type_alias`).
# Defined types of other shapes (`type HandlerFunc func(…)`, `type Routes map[…]…`) carry methods
# like structs do: the same kind. Package-level consts and vars are units; a block of several
# is a statement holding them.

GO_CALLS = """
(call_expression function: (identifier) @name) @call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @call
(composite_literal type: (type_identifier) @name) @construct
(composite_literal type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name)) @construct
(call_expression function: (index_expression operand: (identifier) @name index: [(identifier) (selector_expression)])) @call
(call_expression function: (index_expression operand: (selector_expression operand: (_) @receiver field: (field_identifier) @name) index: [(identifier) (selector_expression)])) @call
(type_conversion_expression type: (generic_type type: (type_identifier) @name)) @call
(type_conversion_expression type: (generic_type type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name))) @call
(composite_literal type: (generic_type type: (type_identifier) @name)) @construct
(composite_literal type: (generic_type type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name))) @construct
"""
# Generics: an instantiation with one type argument reads as an index (`NewSet[string]()`), and
# with one argument as a conversion (`Map[int](xs)`, `objects[T](values)`): calls as written
# without the type arguments; `&node[T]{…}` constructs node. (`fns[i]()` reads like the first:
# a call named after a variable binds no callable.)

# Locals declared with a type: `var x Foo`, and named results (`func (c *Command) ExecuteC() (cmd
# *Command, err error)`), which the body uses as locals. Only a declaration's own results: a
# function literal's are the literal's, not its enclosing callable's.
_CHANNEL = re.compile(r"^(?:<-\s*)?chan\b\s*(?:<-)?\s*")


def go_element(collection: str) -> str:
    """What `for _, v := range x` walks in x's declared type: a slice's or an array's element, a map's
    value (`[]*Handler`, `[4]Handler`, `map[string]*Handler` → `Handler`); what a receive from a
    channel gets (`job := <-s.jobs` with `jobs chan *Job`, `<-chan Job`, `chan<- Job` → `Job`)."""
    t = collection.strip().lstrip("*")
    channel = _CHANNEL.match(t)
    if channel:
        return t[channel.end() :].strip().lstrip("*")
    if t.startswith("map["):
        depth = 0
        for i, ch in enumerate(t):
            depth += (ch == "[") - (ch == "]")
            if ch == "]" and depth == 0:
                return t[i + 1 :].strip().lstrip("*")
        return ""
    if t.startswith("["):
        close = t.find("]")
        return t[close + 1 :].strip().lstrip("*") if close > 0 else ""
    return ""


def go_first(collection: str) -> str:
    """What the one name of `for k := range x` holds in x's declared type: a map's key, a channel's
    element (`map[*Conn]bool` → `Conn`, `chan *Job` → `Job`); a slice's or an array's index: ""."""
    t = collection.strip().lstrip("*")
    if _CHANNEL.match(t):
        return go_element(t)
    if t.startswith("map["):
        depth = 0
        for i, ch in enumerate(t):
            depth += (ch == "[") - (ch == "]")
            if ch == "]" and depth == 0:
                return t[4:i].strip().lstrip("*")
    return ""


GO_DECLARATIONS = """
(short_var_declaration left: (expression_list . (identifier) @holder .) right: (expression_list . [(selector_expression) (unary_expression operand: [(selector_expression) (index_expression)]) (index_expression) (slice_expression)] @held .) (#not-match? @held "^<-"))
(short_var_declaration left: (expression_list . (identifier) @holder (identifier) .) right: (expression_list . (index_expression) @held .))
(short_var_declaration left: (expression_list . (identifier) @holder) right: (expression_list . (call_expression) @held .) (#not-match? @held "^(new|make)[(]"))
(for_statement (range_clause left: (expression_list (_) (identifier) @element) right: (_) @of))
(for_statement (range_clause left: (expression_list . (identifier) @element .) right: (_) @of) @_first)
(short_var_declaration left: (expression_list . (identifier) @element) right: (expression_list . (unary_expression operator: "<-" operand: (_) @of) .))
(receive_statement left: (expression_list . (identifier) @element) right: (unary_expression operator: "<-" operand: (_) @of))
(var_spec name: (identifier) @element !type value: (expression_list . (unary_expression operator: "<-" operand: (_) @of) .))
(var_spec name: (identifier) @name type: (_) @type)
(short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . (composite_literal type: [(slice_type) (map_type) (array_type)] @type) .))
(short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . (call_expression function: (identifier) @_make arguments: (argument_list . [(slice_type) (map_type) (channel_type)] @type)) .) (#eq? @_make "make"))
(var_spec name: (identifier) @name !type value: (expression_list . (call_expression function: (identifier) @_make arguments: (argument_list . [(slice_type) (map_type) (channel_type)] @type)) .) (#eq? @_make "make"))
(function_declaration result: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type)))
(method_declaration result: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type)))
(func_literal parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type))) @scope
(type_switch_statement alias: (expression_list . (identifier) @name .) (type_case . type: (_) @type . (statement_list)) @scope)
(short_var_declaration left: (expression_list . (identifier) @name) right: (expression_list . (type_assertion_expression type: (_) @type)))
(var_spec name: (identifier) @name value: (expression_list . (type_assertion_expression type: (_) @type)))
(short_var_declaration left: (expression_list . (identifier) @name) right: (expression_list . (call_expression function: (identifier) @_new arguments: (argument_list . [(type_identifier) (qualified_type)] @type .)) (#eq? @_new "new")))
(var_spec name: (identifier) @name value: (expression_list . (call_expression function: (identifier) @_new arguments: (argument_list . [(type_identifier) (qualified_type)] @type .)) (#eq? @_new "new")))
"""
# A local a call initialises holds the call's result (`cmds := c.Commands()`, `root, err := c.Root()`: the
# first), which the resolver reads through the callee's declared result.
# A slice or a map a literal or the builtin `make` makes has the type they name: `hs := []*Handler{}`,
# `routes := make(map[string]*Route)`, `jobs := make(chan *Job, 8)`.
# A local initialised by a field read or by an element read holds it: `conn := s.conn`, `h :=
# s.handlers[i]`, `root := t[i].root`, `v, ok := m[key]` (the first name; `ok` is a bool), `xs := s.handlers[1:]`.
# A receive holds an element of the channel (`job := <-s.jobs`, `case job, ok := <-s.jobs:`, `var job =
# <-ch`: the first name; `ok` is a bool); the one name of a range holds a map's key or a channel's
# element (`for c := range s.conns`, `for job := range s.jobs`: FIRST_OF; a slice's index is none).
# A type assertion types what it declares: `c := pool.Get().(*Context)`, `w, ok := v.(Writer)` (the
# first name; `ok` is a bool); so does the builtin `new`: `b := new(Buffer)`. A type switch's variable
# has a case's one type inside that case (`switch v := x.(type) { case *Conn: v.Close() }`: the case's
# span, as a function literal's parameter has; `case A, B:` and `default:` leave it unknown).


def go_import(node: Node) -> list[Import]:
    line = node.start_point.row + 1
    alias = text(node.child_by_field_name("name"))
    return [Import(text(node.child_by_field_name("path")).strip('"`'), "", alias, line)]


def go_supertypes(node: Node) -> list[tuple[str, str]]:
    """Embedded interfaces and embedded struct fields: the Go spelling of "is a"."""
    body = node.child_by_field_name("type")
    out: list[tuple[str, str]] = []
    if body is None:
        return out
    if body.type == "interface_type":
        for elem in named_children(body):
            if elem.type in ("type_elem", "constraint_elem") and len(named_children(elem)) == 1:
                out.append((text(elem), "extends"))
    elif body.type == "struct_type":
        for fields in named_children(body):
            for decl in named_children(fields):
                if decl.type == "field_declaration" and decl.child_by_field_name("name") is None:
                    out.append((text(decl.child_by_field_name("type")).lstrip("*"), "extends"))
    return out


def go_package(root: Node) -> str:
    for child in root.children:
        if child.type == "package_clause":
            return text(named_children(child)[0]) if named_children(child) else ""
    return ""


def go_receiver(node: Node) -> str:
    if node.type != "method_declaration":
        return ""
    receiver = node.child_by_field_name("receiver")
    for param in named_children(receiver) if receiver is not None else []:
        return last_segment(text(param.child_by_field_name("type")).lstrip("*"))
    return ""


def go_receiver_name(node: Node) -> str:
    receiver = node.child_by_field_name("receiver") if node.type == "method_declaration" else None
    for param in named_children(receiver) if receiver is not None else []:
        return text(param.child_by_field_name("name"))
    return ""


def rust_receiver_name(node: Node) -> str:
    """`self` for a method: `&self`, `mut self`, and a typed receiver (`self: Pin<&mut Self>`,
    `mut self: Box<Self>`, `self: &Arc<Self>`: a Future's or a Stream's `poll`), a parameter named `self`."""
    params = node.child_by_field_name("parameters")
    first = next((c for c in params.named_children if c.type not in ("attribute_item", "line_comment", "block_comment")), None) if params is not None else None
    if first is not None and first.type == "parameter":
        pattern = first.child_by_field_name("pattern")
        return "self" if pattern is not None and pattern.type == "self" else ""
    return "self" if first is not None and first.type == "self_parameter" else ""


def go_statements(root: Node) -> list[ModuleStatement]:
    out: list[ModuleStatement] = []
    for child in root.children:
        if child.type == "var_declaration" and "(" in text(child):
            spec = next((c for c in child.children if c.type == "var_spec"), None)
            out.append((child, "wiring", text(spec.child_by_field_name("name") if spec else None)[:80]))
        elif child.type == "const_declaration" and sum(c.type == "const_spec" for c in child.children) > 1:
            spec = next(c for c in child.children if c.type == "const_spec")
            out.append((child, "constants", text(spec.child_by_field_name("name"))[:80]))
    return out


GO_NEW_ERROR = re.compile(rb"\b(?:fmt\.Errorf|errors\.New)\s*\(|&?\w*Error\s*\{")


def go_boundary_tier(node: Node, tier: int) -> int:
    if node.type == "if_statement":  # only `if err != nil` rejects (it hands the error on: the weakest mark)
        cond = node.child_by_field_name("condition")
        return tier if cond is not None and b"!= nil" in (cond.text or b"") else 0
    if node.type == "return_statement":  # `return fmt.Errorf(…)` makes a new error, as `raise` does
        return tier if GO_NEW_ERROR.search(node.text or b"") else 0
    if node.type == "defer_statement" and b"recover()" not in (node.text or b""):
        return 4  # a deferred cleanup; only `recover()` catches
    return tier


def go_main(u, facts, top: bool, signature) -> str:
    return "`func main` in package main" if top and u.kind == "function" and facts.package == "main" else ""


GO = LanguageSpec(
    declared_fields=True,
    boundary_nodes=(("defer_statement", 2), ("if_statement", 4), ("return_statement", 3)),
    boundary_tier=go_boundary_tier,
    io_modules=frozenset({"os", "io", "io/ioutil", "bufio", "database/sql", "encoding/gob", "encoding/csv", "path/filepath", "net"}),
    main_entry=go_main,
    platform_variant=go_platform_variant,
    default_build=go_default_build,
    is_public=lambda name, signature: name[:1].isupper(),
    public_through_type=True,
    signature_return=re.compile(rb"\)\s*\(?\*?([A-Za-z_]\w*)(?:\s*,\s*error\))?\s*\{?\s*$"),
    module_system="directory",
    package_scope="directory",
    member_scope="directory",
    name="go",
    grammar="go",
    extensions=(".go",),
    host_contracts=(("Handler", "ServeHTTP", "http.Handler"),),
    structural_hosts=True,
    definitions=GO_DEFS,
    calls=GO_CALLS,
    # `x := f()`, and `var x = f()` (in a function, or a package's own instance: `var std = New()`)
    assignments="(short_var_declaration left: (_) @target right: (_) @value) (var_spec name: (identifier) @target value: (_) @value)",
    declarations=GO_DECLARATIONS,
    element_type=go_element,
    first_type=go_first,
    variable_type=lambda node: node.child_by_field_name("type"),  # `var v *Viper` at the package level
    index_type=go_element,  # `xs[i]`, `m[key]`: a slice's or an array's element, a map's value
    # an embedded field is a member named after its type: `e.Group.Use()`, `s.Mutex.Lock()`
    members="""
(field_declaration name: (field_identifier) @name type: (_) @type)
(field_declaration !name type: (type_identifier) @name @type)
(field_declaration !name type: (qualified_type name: (type_identifier) @name) @type)
""",
    refs="""
(argument_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @ref)
(argument_list (identifier) @bare)
""",
    imports="(import_spec) @import",
    parse_import=go_import,
    supertypes=go_supertypes,
    module_statements=go_statements,
    package=go_package,
    receiver_type=go_receiver,
    receiver_name=go_receiver_name,
    wrapper_types=frozenset({"type_declaration", "const_declaration", "var_declaration"}),
    body_types=frozenset({"block", "field_declaration_list", "interface_type"}),
    # `type Config = base.Config`; an alias unit of a `type ( … )` group starts at its name (`^`: only
    # the start of a unit's own text, never a line of a file's)
    type_alias=re.compile(rb"(?:(?<![\w.])type\s+|^)([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\])?\s*=\s*([^\n;{}/]+)"),
)

RUST_DEFS = """
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(enum_item name: (type_identifier) @name) @enum
(trait_item name: (type_identifier) @name) @trait
(union_item name: (type_identifier) @name) @struct
(impl_item type: (_) @name) @impl
(mod_item name: (identifier) @name body: (declaration_list)) @object
(source_file (type_item name: (type_identifier) @name) @struct)
(mod_item body: (declaration_list (type_item name: (type_identifier) @name) @struct))
(source_file (macro_definition name: (identifier) @name) @function)
(declaration_list (macro_definition name: (identifier) @name) @function)
"""
# A type alias of a module (`pub type Result<T> = std::result::Result<T, Error>;`) is a type a reader
# points at, like Go's `type Config = base.Config`: a unit whose members are its target's (`type_alias`);
# an associated type in an impl or a trait (`type Item = u8;`) is no unit.
# A `macro_rules!` definition of a module is a callable a reader points at (`m!(…)`), a unit like a
# function: its invocations are not linked to it (macros have a namespace and scoping of their own).
# One defined inside a function is not: it expands where that function invokes it, so it is no step
# the function runs as a closure is (the flow follows a nested callable as part of its body).

RUST_CALLS = """
(call_expression function: (identifier) @name) @call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @call
(call_expression function: (generic_function function: (identifier) @name)) @call
(call_expression function: (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @call
(struct_expression name: (type_identifier) @name) @construct
"""


# Rust's carriers (spec.carriers): `Result` and `Option` (their methods, and the extension traits'
# `context` most crates add) and the pointers a method call derefs through. A lock's guard is left
# out: `lock()` hands back a `LockResult` here, a guard there, a future in async crates.
_SUM_UNWRAPS = frozenset({"unwrap", "expect", "unwrap_or", "unwrap_or_else", "unwrap_or_default", "unwrap_unchecked",
                          "get_or_insert", "get_or_insert_with", "get_or_insert_default", "insert"})
_SUM_KEEPS = frozenset({"as_ref", "as_mut", "as_deref", "as_deref_mut", "take", "replace", "clone", "cloned", "copied",
                        "filter", "inspect", "inspect_err", "or", "or_else", "xor", "map_err", "context", "with_context"})
_SUM_OWN = _SUM_UNWRAPS | _SUM_KEEPS | frozenset({
    "is_ok", "is_err", "is_ok_and", "is_err_and", "ok", "err", "map", "map_or", "map_or_else", "iter", "iter_mut", "and",
    "and_then", "transpose", "flatten", "unwrap_err", "expect_err", "into_ok", "into_err", "is_some", "is_none",
    "is_some_and", "is_none_or", "ok_or", "ok_or_else", "take_if", "zip", "unzip", "as_pin_ref", "as_pin_mut", "eq", "ne",
    "cmp", "partial_cmp", "hash", "fmt", "into_iter", "into", "try_into", "to_owned", "as_slice"})
_DEREF_UNWRAPS = frozenset({"as_ref", "as_mut", "deref", "deref_mut", "borrow", "borrow_mut", "get_mut", "get_ref", "into_inner"})
_DEREF_OWN = _DEREF_UNWRAPS | frozenset({"clone", "downgrade", "upgrade", "as_ptr", "into_raw", "leak", "eq", "ne", "cmp",
                                         "partial_cmp", "hash", "fmt", "set", "into", "to_owned", "ptr_eq", "strong_count",
                                         "weak_count", "try_unwrap", "into_pin", "pin", "new", "replace", "take", "swap"})
_RUST_SEQUENCES = frozenset({"Vec", "VecDeque", "LinkedList", "HashSet", "BTreeSet", "BinaryHeap", "IndexSet", "Option"})


def rust_element(collection: str) -> str:
    """What `for v in x` walks in x's declared type: `Vec<Step>`, `&[Step]`, `[Step; 4]` → `Step`
    (a map yields pairs: unknown)."""
    t = collection.strip().lstrip("&").strip()
    t = t[4:].lstrip() if t.startswith("mut ") else t
    if t.startswith("[") and t.endswith("]"):
        return t[1:-1].split(";")[0].strip()
    args = type_arguments(t, _RUST_SEQUENCES)
    return args[0] if args else ""


RUST_CARRIERS = (
    *(Carrier(name, _SUM_OWN, _SUM_UNWRAPS, _SUM_KEEPS) for name in ("Result", "Option")),
    *(Carrier(name, _DEREF_OWN, _DEREF_UNWRAPS, frozenset({"clone"})) for name in ("Box", "Arc", "Rc", "Pin", "RefCell", "Cow")),
)


# Calls that hand back their one argument wrapped (`Pin::new(x).poll(cx)` polls x)
RUST_WRAPPERS = ("Pin::new", "Pin::new_unchecked", "Box::pin", "Box::new")
# Macros whose arguments are patterns, not expressions: `Foo(x)` there matches a value, it calls nothing.
_PATTERN_MACROS = frozenset({"matches", "assert_matches", "debug_assert_matches"})
_PATH_SEGMENTS = frozenset({"identifier", "self", "super", "crate"})
_DECLARES = frozenset({"fn", "struct", "enum", "union", "trait", "mod", "type", "!"})  # `fn f(..)`, `m!(..)`


def rust_macro_calls(macro: Node) -> list[MacroCall]:
    """Calls written among a macro's argument tokens (`assert_eq!(a.len(), compute(x))`): a name
    right before a parenthesised token tree, receiver = the `.`/`::` chain of plain names before
    it. A chain that starts after something else (`f().g()`, `x[0].g()`) keeps a receiver that
    binds nothing. Token trees nest; the walk is iterative and linear in the tokens."""
    name = macro.child_by_field_name("macro")
    if name is None or last_segment(text(name)) in _PATTERN_MACROS:
        return []
    out: list[MacroCall] = []
    stack = [c for c in macro.children if c.type == "token_tree"]
    while stack:
        tokens = stack.pop().children
        for i, tok in enumerate(tokens):
            if tok.type != "token_tree":
                continue
            stack.append(tok)
            at = _before_turbofish(tokens, i - 1)  # `self.get::<T>(id)`: the name before `::<…>`
            callee = tokens[at] if at >= 0 else None
            if callee is None or callee.type != "identifier" or tok.child_count == 0 or tok.child(0).type != "(":
                continue
            if at > 0 and tokens[at - 1].type in _DECLARES:
                continue
            chain, j = _macro_chain(tokens, at - 1)
            receiver = "".join(reversed(chain))[:-2 if chain and chain[0].endswith("::") else -1] if chain else ""
            start = tokens[j + 1] if chain else callee
            out.append((start.start_byte, tok.end_byte, callee.start_point.row + 1, text(callee), receiver[:120]))
    return out


_ANGLES = {">": 1, ">>": 2, "<": -1, "<<": -2}


def _before_turbofish(tokens: list[Node], j: int) -> int:
    """The index of the token a call's arguments follow: `j` itself, or — when `j` closes generic
    arguments written as a turbofish (`name::<T, Vec<U>>`) — the name before them."""
    if j < 0 or tokens[j].type not in (">", ">>"):
        return j
    depth, k = 0, j
    while k >= 0:
        depth += _ANGLES.get(tokens[k].type, 0)
        if depth <= 0:
            break
        k -= 1
    return k - 2 if depth == 0 and k >= 2 and tokens[k - 1].type == "::" else j


def _macro_chain(tokens: list[Node], j: int) -> tuple[list[str], int]:
    """The receiver chain before a call among macro tokens, last step first, and the index just
    before it. A step is a plain name or a call of one (`self.as_mut().poll(cx)` → `as_mut()`,
    `self`: written like the same call outside a macro, arguments left out); a chain that starts
    after anything else (an index, a literal) keeps that start, which binds nothing."""
    chain: list[str] = []
    while j >= 1 and tokens[j].type in (".", "::"):
        sep, prev = tokens[j].type, tokens[j - 1]
        if prev.type in _PATH_SEGMENTS:
            chain.append(text(prev) + sep)
            j -= 2
        elif (j >= 2 and prev.type == "token_tree" and prev.child_count and prev.child(0).type == "("
              and tokens[j - 2].type == "identifier"):
            wrapper = j >= 4 and tokens[j - 3].type == "::" and f"{text(tokens[j - 4])}::{text(tokens[j - 2])}" in RUST_WRAPPERS
            chain.append(text(tokens[j - 2]) + (text(prev) if wrapper else "()") + sep)  # `Pin::new(x)` keeps x
            j -= 3
        else:
            chain.append(text(prev) + sep)
            j -= 2
            break
    return chain, j


def rust_import(node: Node) -> list[Import]:
    """Flattens `use a::{b, c::d as e, f::*}` into one record per bound name, without recursion."""
    line = node.start_point.row + 1
    out: list[Import] = []
    inline = _inline_modules(node)
    arg = node.child_by_field_name("argument")
    stack: list[tuple[str, Node]] = [("", arg)] if arg is not None else []
    while stack:
        prefix, cur = stack.pop()
        join = (lambda p, s: f"{p}::{s}" if p and s else p or s)
        if cur.type == "scoped_use_list":
            path = join(prefix, text(cur.child_by_field_name("path")))
            lst = cur.child_by_field_name("list")
            stack += [(path, c) for c in named_children(lst)] if lst is not None else []
        elif cur.type == "use_list":
            stack += [(prefix, c) for c in named_children(cur)]
        elif cur.type == "use_as_clause":
            full = _named_module(join(prefix, text(cur.child_by_field_name("path"))))
            module, _, name = full.rpartition("::")
            out.append(Import(module, name, text(cur.child_by_field_name("alias")), line))
        elif cur.type == "use_wildcard":
            inner = named_children(cur)
            out.append(Import(join(prefix, text(inner[0]) if inner else ""), "*", "", line))
        elif cur.type in ("scoped_identifier", "identifier", "crate", "self", "super"):
            full = _named_module(join(prefix, text(cur)))
            module, _, name = full.rpartition("::")
            out.append(Import(module, name, "", line))
    return [imp._replace(module=_from_file_module(imp.module, inline)) for imp in out] if inline else out


def _inline_modules(node: Node) -> list[str]:
    """The inline modules (`mod tests { … }`) a `use` sits in within its file, outermost first."""
    names, cur = [], node.parent
    while cur is not None:
        if cur.type == "mod_item":
            names.append(text(cur.child_by_field_name("name")))
        cur = cur.parent
    return names[::-1]


def _from_file_module(module: str, inline: list[str]) -> str:
    """A `use` path written in an inline module, as the file's module reads it: `super::X` in a
    file's `mod tests { … }` is the file's own `self::X`, in `mod a { mod b { … } }` it is
    `self::a::X`, and `super::super::X` in `mod tests` is the file's `super::X`."""
    steps = 0
    while module == "super" or module.startswith("super::"):
        module, steps = module[7:], steps + 1
    if not steps:
        return module
    if steps > len(inline):
        return "::".join(["super"] * (steps - len(inline)) + ([module] if module else []))
    return "::".join(["self", *inline[: len(inline) - steps]] + ([module] if module else []))


def _named_module(full: str) -> str:
    """`a::b::self` (`use a::b::{self, C}`) imports the module `a::b` under its own name `b`."""
    return full[: -len("::self")] if full.endswith("::self") else full


def rust_supertypes(node: Node) -> list[tuple[str, str]]:
    if node.type == "impl_item":
        trait = node.child_by_field_name("trait")
        return [(text(trait), "implements")] if trait is not None else []
    if node.type == "trait_item":
        bounds = node.child_by_field_name("bounds")
        return [(text(b), "extends") for b in named_children(bounds)] if bounds is not None else []
    return []


def rust_statements(root: Node) -> list[ModuleStatement]:
    out: list[ModuleStatement] = []
    for child in root.children:
        if child.type in ("static_item", "const_item") and "(" in text(child.child_by_field_name("value")):
            out.append((child, "wiring", text(child.child_by_field_name("name"))[:80]))
        elif child.type == "macro_invocation":
            out.append((child, "registration", text(child.child_by_field_name("macro"))[:80]))
    return out


# Items written inside an item-level macro (`pin_project! { pub struct Server … }`,
# `cfg_server! { impl … }`) are a token tree to the grammar: the index would have no struct and
# no impl there. Blanking the macro's name and its outer braces (same length, same lines, same
# offsets) lets the grammar read the items as the compiler will see them.
_ITEM_MACRO = re.compile(rb"(?m)^[ \t]*((?:[A-Za-z_]\w*::)*([A-Za-z_]\w*)![ \t]*\{)")
# Items may open with comments (line or block), and with a macro definition or another item macro
# (`cfg_rt! { cfg_net! { … } }`, `cfg_io_util! { macro_rules! read_impl { … } pub trait … }`).
_ITEM_START = re.compile(
    rb"\s*(?:(?://[^\n]*|/\*.*?\*/)\s*)*"
    rb"(?:#!?\[|pub\b|struct\b|enum\b|impl\b|fn\b|mod\b|use\b|trait\b|type\b|const\b|static\b|async\b|unsafe\b|extern\b|macro_rules!"
    rb"|(?:[A-Za-z_]\w*::)*[A-Za-z_]\w*![ \t]*\{)",
    re.S,
)
_NOT_ITEM_MACROS = frozenset({b"macro_rules", b"quote", b"quote_spanned", b"lazy_static"})


def _closing_brace(source: bytes, open_at: int) -> int:
    """Index of the brace or bracket matching the one at source[open_at] (`{` or `[`), skipping
    strings and comments; -1 if none."""
    opener = source[open_at]
    closer = 0x7D if opener == 0x7B else 0x5D  # } for {, ] for [
    depth, i, n = 0, open_at, len(source)
    while i < n:
        c = source[i]
        if c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i
        elif c == 0x22:  # "…": skip the string
            i += 1
            while i < n and source[i] != 0x22:
                i += 2 if source[i] == 0x5C else 1
        elif c == 0x2F and source[i + 1 : i + 2] == b"/":  # line comment
            i = source.find(b"\n", i)
            if i < 0:
                return -1
        elif c == 0x2F and source[i + 1 : i + 2] == b"*":
            i = source.find(b"*/", i + 2)
            if i < 0:
                return -1
            i += 1
        i += 1
    return -1


_RUST_PARSER: list[Parser] = []


def _parses_as_items(body: bytes) -> bool:
    if not _RUST_PARSER:
        _RUST_PARSER.append(Parser(get_language("rust")))
    return not _RUST_PARSER[0].parse(body).root_node.has_error


# `cfg_if! { if #[cfg(a)] { items } else if #[cfg(b)] { items } else { items } }` (the cfg-if
# crate): each branch's items are what the compiler sees on some target. Blanking the chain's
# keywords, conditions and braces leaves every branch's items in place, twins like `#[cfg]` ones.
_CFG_IF_SPACE = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_CFG_IF_HEAD = re.compile(rb"if\s*#\s*\[")
_CFG_IF_ELSE = re.compile(rb"else\b\s*")


def _cfg_if_blanks(source: bytes, start: int, end: int) -> list[tuple[int, int]] | None:
    """The spans to blank in a cfg_if body source[start:end] (its `if #[cfg(…)] {`, `} else {`
    and closing braces), or None when the body is not such a chain."""
    spans: list[tuple[int, int]] = []
    i, expect_if = _CFG_IF_SPACE.match(source, start, end).end(), True
    while i < end:
        head = i
        if not expect_if:
            m = _CFG_IF_ELSE.match(source, i, end)
            if m is None:
                return None
            i = m.end()
        m = _CFG_IF_HEAD.match(source, i, end)
        if m is not None:
            close = _closing_brace(source, m.end() - 1)
            if close < 0 or close >= end:
                return None
            i = _CFG_IF_SPACE.match(source, close + 1, end).end()
        elif expect_if:
            return None
        if i >= end or source[i] != 0x7B:
            return None
        close = _closing_brace(source, i)
        if close < 0 or close >= end:
            return None
        spans += [(head, i + 1), (close, close + 1)]
        i = _CFG_IF_SPACE.match(source, close + 1, end).end()
        if m is None:  # a final `else { … }`
            break
        expect_if = False
    return spans if i >= end and spans else None


def rust_preprocess(source: bytes) -> bytes:
    if b"! {" not in source and b"!{" not in source:
        return source
    out = bytearray(source)
    for m in _ITEM_MACRO.finditer(source):
        if m.group(2) == b"cfg_if":
            _blank_cfg_if(source, out, m)
            continue
        if m.group(2) in _NOT_ITEM_MACROS or not _ITEM_START.match(source, m.end()):
            continue
        close = _closing_brace(source, m.end() - 1)
        body = _flag_structs_respelled(source[m.end() : close]) if close > 0 else b""
        if close < 0 or not _parses_as_items(body):
            continue  # a macro with a syntax of its own (`fn f() { … } ?= default`) stays a token tree
        out[m.start(1) : m.end(1)] = b" " * (m.end(1) - m.start(1))
        out[m.end() : close] = body
        out[close] = 0x20
    return bytes(out)


# The bitflags idiom (`bitflags! { pub struct Flags: u32 { const A = 1; … } }`, and the wrappers crates
# write around it) declares a struct with a representation type and constants for a body, which is
# no Rust syntax: the whole macro stayed a token tree and the crate's flag types had no unit. The
# type and the body blanked (same bytes, same lines), it reads as the empty struct it declares.
_FLAG_STRUCT = re.compile(rb"\bstruct\s+[A-Za-z_]\w*(\s*:\s*[^{};<>()]+?)\s*\{")


def _flag_structs_respelled(body: bytes) -> bytes:
    if b"struct" not in body or b":" not in body:
        return body
    out = bytearray(body)
    for m in _FLAG_STRUCT.finditer(body):
        close = _closing_brace(body, m.end() - 1)
        if close > 0:
            out[m.start(1) : m.end(1)] = b" " * (m.end(1) - m.start(1))
            out[m.end() : close] = re.sub(rb"[^\n]", b" ", body[m.end() : close])
    return bytes(out)


def _blank_cfg_if(source: bytes, out: bytearray, m: re.Match) -> None:
    close = _closing_brace(source, m.end() - 1)
    spans = _cfg_if_blanks(source, m.end(), close) if close > 0 else None
    if spans is None:
        return
    body = bytearray(source[m.end() : close])
    for a, b in spans:
        body[a - m.end() : b - m.end()] = re.sub(rb"[^\n]", b" ", source[a:b])  # lines stay where they are
    if not _parses_as_items(bytes(body)):
        return
    for a, b in [(m.start(1), m.end(1)), (close, close + 1), *spans]:
        out[a:b] = re.sub(rb"[^\n]", b" ", source[a:b])
def rust_module(path: str) -> list[str]:
    """A Rust file's module path from its crate root (`src/a/mod.rs` → `crate::a`)."""
    parts = path[:-3].split("/")
    if "src" in parts:
        parts = parts[parts.index("src") + 1 :]
    if parts and parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return ["::".join(["crate", *parts])]


RUST_ENTRY_ATTRIBUTE = re.compile(r"^#\[\s*(tokio|actix_web|actix_rt|async_std|rocket)::main\b")


def rust_main(u, facts, top: bool, signature) -> str:
    return "`fn main`" if top and u.kind == "function" else ""


def rust_boundary_tier(node: Node, tier: int) -> int:
    """A match arm handles an error only when it matches `Err(…)`; `?` hands one on."""
    if node.type == "match_arm":
        pattern = node.child_by_field_name("pattern")
        return tier if pattern is not None and (pattern.text or b"").lstrip().startswith(b"Err(") else 0
    return tier


# Rust has no catch: the arm of a `match` that takes an `Err(…)` is where an error is handled
RUST_ERROR_ARM = 'match_arm pattern: (match_pattern (tuple_struct_pattern type: (identifier) @_err (#eq? @_err "Err")))'

# `pub` and the qualifiers Rust allows before `fn`, in their order: const, async, unsafe, extern "ABI"
RUST_PUBLIC_FN = re.compile(rb'\bpub\s+(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+(?:"[^"\n]*"\s*)?)?fn\b')

RUST = LanguageSpec(
    declared_fields=True,
    error_translators=frozenset({"map_err", "ok_or_else", "ok_or"}),  # (`or_else`, `unwrap_or_else` serve options as often)
    boundary_nodes=(("try_expression", 3), ("match_arm", 2)),
    boundary_tier=rust_boundary_tier,
    catch_node=RUST_ERROR_ARM,
    io_modules=frozenset({"std::fs", "std::io", "tokio::fs", "tokio::io", "rusqlite", "sqlx", "diesel", "sled", "fs", "io"}),
    entry_attribute=lambda text: bool(RUST_ENTRY_ATTRIBUTE.match(text.strip())),
    main_entry=rust_main,
    is_public=lambda name, signature: RUST_PUBLIC_FN.search(signature) is not None,
    module_public=lambda signature: re.search(rb"\bpub\s+mod\b", signature) is not None,
    bounded_generics=True,
    uncallable_kinds=frozenset({"enum", "trait"}),
    marker_bounds=frozenset({"Send", "Sync", "Unpin", "Sized", "Copy", "Clone", "Debug", "Default", "Eq", "PartialEq", "Hash", "Ord", "PartialOrd", "'static"}),
    signature_return=re.compile(rb"->\s*(?:Result<|Option<)?&?(?:mut\s+)?([A-Za-z_]\w*)"),
    member_separator="::",
    module_system="crate",
    module_names=rust_module,
    member_scope="crate",
    impl_blocks=True,
    tuple_results=True,
    name="rust",
    grammar="rust",
    extensions=(".rs",),
    build_variant_attribute="#[cfg(",
    preprocess=rust_preprocess,
    definitions=RUST_DEFS,
    calls=RUST_CALLS,
    macros="(macro_invocation (token_tree)) @macro",
    macro_calls=rust_macro_calls,
    assignments="(let_declaration pattern: (_) @target value: (_) @value)",
    declarations="""
(let_declaration pattern: (identifier) @name type: (_) @type)
(let_declaration pattern: (identifier) @holder !type value: [(field_expression) (reference_expression value: (field_expression))] @held)
(closure_expression parameters: (closure_parameters (identifier) @untyped)) @scope
(for_expression pattern: (identifier) @element value: (_) @of)
(match_arm pattern: (match_pattern [(tuple_struct_pattern type: (scoped_identifier) @variant) (struct_pattern type: (_) @variant)] @bind)) @scope
(if_expression condition: (let_condition pattern: (struct_pattern type: (_) @variant) @bind) consequence: (_) @scope)
(if_expression condition: (let_condition pattern: (tuple_struct_pattern type: (identifier) @_wrap . [(identifier) @holder (ref_pattern [(identifier) @holder (mut_pattern (identifier) @holder)]) (mut_pattern (identifier) @holder)] .) value: (_) @held) consequence: (_) @scope (#match? @_wrap "^(Some|Ok)$"))
(while_expression condition: (let_condition pattern: (tuple_struct_pattern type: (identifier) @_wrap . [(identifier) @holder (ref_pattern [(identifier) @holder (mut_pattern (identifier) @holder)]) (mut_pattern (identifier) @holder)] .) value: (_) @held) body: (_) @scope (#match? @_wrap "^(Some|Ok)$"))
(match_expression value: (_) @held body: (match_block (match_arm pattern: (match_pattern . (tuple_struct_pattern type: (identifier) @_wrap . [(identifier) @holder (ref_pattern [(identifier) @holder (mut_pattern (identifier) @holder)]) (mut_pattern (identifier) @holder)] .) .)) @scope) (#match? @_wrap "^(Some|Ok)$"))
(if_expression condition: (let_condition pattern: (tuple_struct_pattern type: (scoped_identifier) @variant) @bind) consequence: (_) @scope)
(while_expression condition: (let_condition pattern: (tuple_struct_pattern type: (scoped_identifier) @variant) @bind) body: (_) @scope)
(call_expression function: (field_expression value: (_) @of field: (field_identifier) @_each)
                 arguments: (arguments . (closure_expression parameters: (closure_parameters . (identifier) @element)) @scope)
                 (#match? @_each "^(for_each|try_for_each|map|filter|filter_map|flat_map|any|all|find|find_map|inspect|position|take_while|skip_while|max_by_key|min_by_key)$"))
""",
    construct_protocol=(("Future", "poll"), ("Stream", "poll_next")),
    outside_imports="crate",
    self_constructors=True,
    await_suffix=".await",
    field_bindings=True,
    # (an alias unit's text opens with its attributes and visibility: `#[cfg(unix)] pub(crate) type Fd = …;`)
    type_alias=re.compile(rb"(?:#\[[^\n]*\]\s*)*(?:pub(?:\([\w:\s]*\))?\s+)?(?<![\w:])type\s+([A-Za-z_]\w*)\s*(?:<[^=;{}]*>)?\s*=\s*([^;{}]+);"),
    self_views=frozenset({"as_mut", "as_ref", "get_mut", "get_ref", "project", "project_ref", "borrow", "borrow_mut", "clone"}),
    wrapper_calls=RUST_WRAPPERS,
    carriers=RUST_CARRIERS,
    element_type=rust_element,
    element_adapters=(".iter()", ".iter_mut()", ".into_iter()"),
    host_contracts=(("Future", "poll", "Future"), ("Service", "call", "tower Service"), ("Stream", "poll_next", "Stream")),
    members="""
(field_declaration name: (field_identifier) @name type: (_) @type)
(enum_variant name: (identifier) @variant body: (ordered_field_declaration_list) @payload)
(enum_variant name: (identifier) @variant body: (field_declaration_list (field_declaration name: (field_identifier) @field type: (_) @payload)))
""",
    refs="""
(arguments (identifier) @bare)
(arguments (scoped_identifier path: (_) @receiver name: (identifier) @name) @ref)
""",
    imports="(use_declaration) @import",
    parse_import=rust_import,
    supertypes=rust_supertypes,
    module_statements=rust_statements,
    receiver_name=rust_receiver_name,
    leading_types=frozenset({"attribute_item"}),
    decorator_types=frozenset({"attribute_item"}),
    body_types=frozenset({"block", "field_declaration_list", "declaration_list", "enum_variant_list"}),
)
