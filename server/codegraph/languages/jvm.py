"""Java and Kotlin: classes, interfaces, objects, annotations, packages and imports."""

from __future__ import annotations

import re

from tree_sitter import Node

from ..model.facts import Import
from .spec import Carrier, LanguageSpec, ModuleStatement, named_children, text, type_arguments

JAVA_DEFS = """
(class_declaration name: (identifier) @name) @class
(interface_declaration name: (identifier) @name) @interface
(annotation_type_declaration name: (identifier) @name) @interface
(enum_declaration name: (identifier) @name) @enum
(record_declaration name: (identifier) @name) @record
(method_declaration name: (identifier) @name) @method
(constructor_declaration name: (identifier) @name) @constructor
(compact_constructor_declaration name: (identifier) @name) @constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name value: (object_creation_expression (class_body)))) @object
(enum_constant name: (identifier) @name body: (class_body)) @object
"""
# An enum constant with a body (`QUEUE { @Override void send(…) {…} }`, Kotlin's `QUEUE { override fun … }`
# below) is an anonymous subclass of its enum, like an anonymous class a field holds: its methods are
# its own and override the enum's. Filed under the enum, each override was one more `Route.send`, and
# a call `route.send(m)` on a value of the enum's type had several declarations to choose from and
# stayed unknown.

JAVA_CALLS = """
(method_invocation object: (_) @receiver name: (identifier) @name) @call
(method_invocation !object name: (identifier) @name) @call
(object_creation_expression type: (type_identifier) @name) @construct
(object_creation_expression type: (generic_type (type_identifier) @name)) @construct
(object_creation_expression type: (scoped_type_identifier) @name) @construct
"""


def java_import(node: Node) -> list[Import]:
    line = node.start_point.row + 1
    path = text(next((c for c in node.children if c.type in ("scoped_identifier", "identifier")), None))
    if any(c.type == "asterisk" for c in node.children):
        return [Import(path, "*", "", line)]
    module, _, name = path.rpartition(".")
    return [Import(module, name, "", line)]


def java_supertypes(node: Node) -> list[tuple[str, str]]:
    if node.type == "field_declaration":  # `FACTORY = new Factory() {…}`: an anonymous subtype of Factory
        made = node.child_by_field_name("declarator").child_by_field_name("value")
        return [(text(made.child_by_field_name("type")), "extends")]
    if node.type == "enum_constant":  # `QUEUE { … }`: an anonymous subtype of its enum
        enum = node.parent.parent if node.parent is not None else None
        name = enum.child_by_field_name("name") if enum is not None and enum.type == "enum_declaration" else None
        return [(text(name), "extends")] if name is not None else []
    out: list[tuple[str, str]] = []
    superclass = node.child_by_field_name("superclass")
    if superclass is not None:
        out += [(text(t), "extends") for t in named_children(superclass)]
    interfaces = node.child_by_field_name("interfaces")
    for holder in [interfaces] + [c for c in node.children if c.type == "extends_interfaces"]:
        if holder is None:
            continue
        for type_list in named_children(holder):
            kind = "extends" if holder.type == "extends_interfaces" else "implements"
            out += [(text(t), kind) for t in named_children(type_list)]
    return out


def java_package(root: Node) -> str:
    for child in root.children:
        if child.type == "package_declaration":
            return text(next((c for c in child.children if c.type in ("scoped_identifier", "identifier")), None))
    return ""


def java_receiver(node: Node) -> str:
    """`this` in instance methods and constructors; a static method has no object of its own."""
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    if modifiers is not None and any(c.type == "static" for c in modifiers.children):
        return ""
    return "this"


_COMMENTS = frozenset({"line_comment", "block_comment", "comment", "multiline_comment"})


def java_arity(params: Node) -> tuple[int, ...]:
    """(fewest, most) arguments: each formal parameter takes one, a `T...` parameter any number."""
    count, variadic = 0, False
    for p in params.named_children:
        if p.type == "formal_parameter":
            count += 1
        elif p.type == "spread_parameter":
            variadic = True
        elif p.type not in _COMMENTS and p.type != "receiver_parameter":
            return ()  # a shape not known here: no overload is told apart by it
    return (count, -1) if variadic else (count, count)


def java_call_args(node: Node) -> int:
    """The arguments of `m(a, b)` / `new X(a, b)`."""
    args = node.child_by_field_name("arguments")
    return _count_arguments(args) if args is not None else -1


# what an argument tells about its type, for choosing among overloads of one count (`Call.arg_words`):
# a plain name (a parameter or local whose declared type the resolver looks up), `this`, a string
# (and, `_ARG_TYPED`, a type written: `:Foo`)
_ARG_WORD = {"identifier": None, "simple_identifier": None, "this": "this", "this_expression": "this", "string_literal": '"'}


_ARG_TYPED = frozenset({"object_creation_expression", "cast_expression"})  # Java: an argument whose type is written


def _type_name(node: Node) -> str:
    """A written type without its type arguments (`Map<K, V>` → `Map`, `a.B<C>` → `a.B`)."""
    written = node.text.decode("utf-8", "replace")
    cut = written.find("<")
    return (written[:cut] if cut >= 0 else written).strip()


def _arg_words(arguments: list[Node]) -> str:
    """`Call.arg_words` of these argument expressions: each one's word (`_ARG_WORD`) or "" for any
    other expression, comma-joined; "" when none says anything."""
    words = []
    for a in arguments:
        kind = a.type
        if kind in _ARG_TYPED:  # `new Foo(…)`, `(Foo) x`, `new Foo() {…}`: a Foo
            written = a.child_by_field_name("type")
            words.append(":" + _type_name(written) if written is not None else "")
            continue
        if kind not in _ARG_WORD:
            words.append("")
            continue
        word = _ARG_WORD[kind]
        words.append(word if word is not None else a.text.decode("utf-8", "replace"))
    return ",".join(words) if any(words) else ""


def java_arg_words(node: Node) -> str:
    """`Call.arg_words` of `m(a, b)` / `new X(a, b)`."""
    args = node.child_by_field_name("arguments")
    if args is None:
        return ""
    return _arg_words([c for c in args.named_children if c.type not in _COMMENTS])


def kotlin_arg_words(node: Node) -> str:
    """`Call.arg_words` of `f(a, b)`; nothing for a named or spread argument (they reorder what
    the positions mean) or a trailing lambda."""
    suffix = node.child(1)
    if suffix is None or suffix.type != "call_suffix" or suffix.child_count != 1 or suffix.child(0).type != "value_arguments":
        return ""
    exprs = []
    for arg in suffix.child(0).named_children:
        if arg.type in _COMMENTS:
            continue
        if arg.type != "value_argument" or arg.named_child_count != 1 or arg.child_count != 1:
            return ""  # `name = value`, `*spread`
        exprs.append(arg.named_child(0))
    return _arg_words(exprs)


def _count_arguments(args: Node) -> int:
    """The named children of an argument list `(a, b)` that are no comments. A list that is not
    `(`, then arguments with a comma between each two, then `)` (a comment among them, a trailing
    comma) is walked; any other is only counted (reading every call's children costs a tenth of a
    Kotlin file's extraction)."""
    count = args.named_child_count
    if args.child_count == 2 * count + 1 and (count != 1 or args.named_child(0).type not in _COMMENTS):
        return count
    return sum(1 for c in args.named_children if c.type not in _COMMENTS)


IO_MODULES = frozenset({"java.io", "java.nio.file", "java.sql", "javax.persistence", "jakarta.persistence", "java.nio.channels"})
_STATIC = re.compile(rb"\bstatic\b|@JvmStatic")


def java_main(u, facts, top: bool, signature) -> str:
    return "static `main` method" if _STATIC.search(signature()) else ""


def kotlin_main(u, facts, top: bool, signature) -> str:
    return "top-level `fun main`" if top else java_main(u, facts, top, signature)


_JAVA_SEQUENCES = frozenset({"List", "ArrayList", "LinkedList", "Collection", "Set", "HashSet", "LinkedHashSet", "TreeSet",
                             "SortedSet", "Iterable", "Queue", "Deque", "ArrayDeque", "Stream", "CopyOnWriteArrayList"})


def java_element(collection: str) -> str:
    """What a lambda over x's elements (`x.forEach(h -> …)`, `x.stream().map(h -> …)`) receives:
    `List<Step>`, `Step[]`, `Set<? extends Step>` → `Step`."""
    t = collection.strip()
    if t.endswith("[]"):
        return t[:-2].strip()
    args = type_arguments(t, _JAVA_SEQUENCES)
    arg = args[0] if len(args) == 1 else ""
    return arg[len("? extends "):].strip() if arg.startswith("? extends ") else "" if arg.startswith("?") else arg


# Java's carriers (spec.carriers): an `Optional` hands its value over by `get` and the `orElse` family
_OPTIONAL_UNWRAPS = frozenset({"get", "orElse", "orElseGet", "orElseThrow"})
JAVA_CARRIERS = (Carrier("Optional", _OPTIONAL_UNWRAPS | frozenset({
    "isPresent", "isEmpty", "ifPresent", "ifPresentOrElse", "map", "flatMap", "filter", "or", "stream", "equals",
    "hashCode", "toString"}), _OPTIONAL_UNWRAPS, frozenset({"filter", "or"})),)
JAVA = LanguageSpec(
    element_type=java_element,
    element_adapters=(".stream()", ".parallelStream()"),
    declared_fields=True,
    carriers=JAVA_CARRIERS,
    boundary_nodes=(("try_statement", 2), ("try_with_resources_statement", 2), ("throw_statement", 3)),
    io_modules=IO_MODULES,
    main_entry=java_main,
    name="java",
    is_public=lambda name, signature: re.search(rb"\bpublic\b", signature) is not None,
    catch_node="catch_clause",
    return_type_before_name=True,
    outside_imports="package",
    grammar="java",
    extensions=(".java",),
    host_contracts=(("Runnable", "run", "Runnable"),),
    definitions=JAVA_DEFS,
    calls=JAVA_CALLS,
    assignments="(variable_declarator name: (_) @target value: (_) @value)",
    # typed locals (@name, @type), and every other name a body binds (@local: `var`, loop, resource,
    # catch and pattern variables; a lambda's parameter is its own inside the lambda, `@scope`, and
    # of no known type in the rest of the method) — with them the
    # locals are complete, so a bare name that is none of them and no parameter is a field of `this`
    # (`complete_locals`)
    declarations="""
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local))
(enhanced_for_statement type: (_) @type name: (identifier) @name)
(method_invocation object: (_) @of name: (identifier) @_each
                   arguments: (argument_list . (lambda_expression parameters: [(identifier) @element (inferred_parameters . (identifier) @element)]) @scope)
                   (#match? @_each "^(forEach|map|filter|anyMatch|allMatch|noneMatch|flatMap|peek|removeIf)$"))
(enhanced_for_statement name: (identifier) @local)
(resource name: (identifier) @local)
(catch_formal_parameter name: (identifier) @local)
(lambda_expression parameters: (identifier) @untyped) @scope
(lambda_expression parameters: (inferred_parameters (identifier) @untyped)) @scope
(lambda_expression parameters: (formal_parameters (formal_parameter type: (_) @type name: (identifier) @name))) @scope
(instanceof_expression name: (identifier) @local)
""",
    complete_locals=True,
    members="""
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name))
(assignment_expression left: (field_access object: (this) @obj field: (identifier) @name) right: (_) @value)
""",
    refs="(method_reference) @ref",
    return_type=lambda node: node.child_by_field_name("type") if node.type == "method_declaration" else None,
    arity=java_arity,
    call_args=java_call_args,
    call_arg_words=java_arg_words,
    implicit_this=True,
    module_system="package",
    package_scope="declared",
    imports="(import_declaration) @import",
    parse_import=java_import,
    supertypes=java_supertypes,
    package=java_package,
    receiver_name=java_receiver,
    decorator_types=frozenset({"annotation", "marker_annotation"}),
    body_types=frozenset({"class_body", "interface_body", "enum_body", "block", "constructor_body", "annotation_type_body"}),
)

# tree-sitter-kotlin has almost no field names: patterns anchor on child order instead.
KOTLIN_DEFS = """
(class_declaration (type_identifier) @name) @class
(object_declaration (type_identifier) @name) @object
(function_declaration (simple_identifier) @name) @function
(secondary_constructor "constructor" @name) @constructor
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @variable)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @variable)
(enum_entry (simple_identifier) @name (class_body)) @object
"""

KOTLIN_CALLS = """
(call_expression . (simple_identifier) @name) @call
(call_expression . (navigation_expression (_) @receiver . (navigation_suffix (simple_identifier) @name))) @call
"""

# Standard-library functions whose lambda has a receiver: `x.apply { … }`, `x.run { … }` and
# `x.runCatching { … }` make `this` x, `with(x) { … }` too; a builder's `this` is a library object.
_RECEIVER_SCOPES = frozenset({"apply", "run", "runCatching"})
_LIBRARY_BUILDERS = frozenset({"buildString", "buildList", "buildSet", "buildMap"})


KOTLIN_RECEIVER_LAMBDAS = _RECEIVER_SCOPES | _LIBRARY_BUILDERS | {"with"}


def kotlin_lambda_receiver(call: Node, name: str, receiver: Node | None) -> tuple[int, int, str] | None:
    """The body of the lambda a call of a scope function or builder (`name`, one of
    `receiver_lambdas`) takes and what `this` is in it (`Call.within`): (body start, body end, the
    receiver as written or "?"); None when its `this` is the enclosing one."""
    suffix = call.child(call.child_count - 1) if call.child_count else None
    if suffix is None or suffix.type != "call_suffix":
        return None
    lam = arguments = None
    for part in suffix.named_children:
        if part.type == "annotated_lambda":
            lam = part
        elif part.type == "value_arguments":
            arguments = part
    body = next((c for c in lam.named_children if c.type == "lambda_literal"), None) if lam is not None else None
    if body is None:
        return None
    if receiver is not None:
        if name not in _RECEIVER_SCOPES or arguments is not None:
            return None  # `x.apply(key) { … }`: a function of the project's, not the scope function
        written = text(receiver).rstrip("!?").strip()
    elif name in _LIBRARY_BUILDERS:
        written = "?"
    elif name == "with":
        values = [c for c in arguments.named_children if c.type == "value_argument"] if arguments is not None else []
        written = text(values[0].named_child(0)).rstrip("!?").strip() if len(values) == 1 and values[0].named_child_count == 1 else "?"
    else:
        return None  # `run { … }`, `apply { … }` on the enclosing `this`
    return None if written == "this" else (body.start_byte, body.end_byte, written)


def kotlin_import(node: Node) -> list[Import]:
    line = node.start_point.row + 1
    path = text(next((c for c in node.children if c.type == "identifier"), None))
    alias_node = next((c for c in node.children if c.type == "import_alias"), None)
    alias = text(named_children(alias_node)[0]) if alias_node is not None and named_children(alias_node) else ""
    if any(c.type == "wildcard_import" for c in node.children) or text(node).rstrip().endswith("*"):
        return [Import(path, "*", "", line)]
    module, _, name = path.rpartition(".")
    return [Import(module, name, alias, line)]


def kotlin_arity(params: Node) -> tuple[int, ...]:
    """(fewest, most) arguments: a parameter with a default value may be left out, a `vararg`
    takes any number (as may every parameter after it, named)."""
    required = most = 0
    variadic = False
    owner = params.parent
    modifiers = next((c for c in owner.children if c.type == "modifiers"), None) if owner is not None else None
    inherits_defaults = modifiers is not None and "override" in text(modifiers).split()
    spread = False  # the parameter that follows is a `vararg`
    for p in params.named_children:
        if p.type == "parameter_modifiers":
            spread = "vararg" in text(p).split()
            variadic = variadic or spread
            continue
        if p.type != "parameter":
            continue  # a default value's expression, a comment
        most += 1
        after = p.next_sibling
        while after is not None and after.type in _COMMENTS:
            after = after.next_sibling
        if (after is None or after.type != "=") and not spread:
            required += 1
        spread = False
    # an override takes the default values of the declaration it overrides, unwritten here: the
    # resolver reads them there (a third element marks it)
    return (required, -1, 1) if variadic and inherits_defaults else (required, -1) if variadic else (required, most, 1) if inherits_defaults else (required, most)


def kotlin_call_args(node: Node) -> int:
    """The arguments of `f(a, b)`, a trailing lambda (`f(a) { … }`, `f { … }`) one more."""
    suffix = node.child(1)  # the callee, then the suffix
    if suffix is None or suffix.type != "call_suffix":
        return -1
    if suffix.child_count == 1:  # the usual shape: `(…)` or `{ … }` alone
        part = suffix.child(0)
        kind = part.type
        return _count_arguments(part) if kind == "value_arguments" else 1 if kind == "annotated_lambda" else -1
    count = 0
    for part in suffix.named_children:
        if part.type == "value_arguments":
            count += _count_arguments(part)
        elif part.type == "annotated_lambda":
            count += 1
        elif part.type != "type_arguments":
            return -1
    return count


def kotlin_supertypes(node: Node) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if node.type == "enum_entry":  # `QUEUE { override fun send(…) … }`: an anonymous subtype of its enum class
        enum = node.parent.parent if node.parent is not None else None
        name = next((c for c in enum.children if c.type == "type_identifier"), None) if enum is not None else None
        return [(text(name), "extends")] if name is not None else []
    if node.type == "property_declaration":  # `val cache = object : LruCache<K, V>(8) {…}`: the object's supertypes
        node = next((c for c in node.children if c.type == "object_literal"), node)
    for spec in node.children:
        if spec.type != "delegation_specifier":
            continue
        for part in named_children(spec):
            if part.type == "constructor_invocation":  # `: Base()` calls a superclass constructor
                out.append((text(next((c for c in part.children if c.type == "user_type"), part)), "extends"))
            elif part.type == "explicit_delegation":  # `: Lockable by delegate`
                out.append((text(next((c for c in part.children if c.type == "user_type"), part)), "implements"))
            elif part.type == "user_type":
                out.append((text(part), "implements"))
    return out


def kotlin_kind(node: Node, kind: str) -> str:
    if node.type == "property_declaration":
        # a member or top-level property worth a unit of its own (`val View.isShown: Boolean get() {…}`):
        # an anonymous object (`val cache = object : Lru(…) {…}`), a getter, or an initialiser over
        # several lines (`val x = run {…}`, a builder chain)
        if any(c.type == "object_literal" for c in node.children):
            return "object"
        nxt = node.next_named_sibling
        if nxt is not None and nxt.type in ("getter", "setter"):
            return "variable"
        if any(c.type in ("getter", "setter") for c in node.children):  # on the property's own line
            return "variable"
        return "variable" if node.end_point.row > node.start_point.row else ""
    if node.type != "class_declaration":
        return kind
    if any(c.type == "interface" for c in node.children):
        return "interface"
    modifiers = next((c for c in node.children if c.type == "modifiers"), None)
    # `enum class` is an anonymous `enum` keyword child in the pinned grammar; older ones put it in modifiers
    if any(c.type in ("enum", "enum_class_body") for c in node.children) or (modifiers is not None and "enum" in text(modifiers).split()):
        return "enum"
    return kind


def kotlin_package(root: Node) -> str:
    for child in root.children:
        if child.type == "package_header":
            return text(next((c for c in child.children if c.type == "identifier"), None))
    return ""


def kotlin_statements(root: Node) -> list[ModuleStatement]:
    out: list[ModuleStatement] = []
    for child in root.children:
        if child.type == "property_declaration" and any(c.type == "call_expression" for c in child.children):
            decl = next((c for c in child.children if c.type == "variable_declaration"), None)
            out.append((child, "wiring", text(decl)[:80]))
    return out


def kotlin_return_type(node: Node) -> Node | None:
    """`fun f(…): Foo` — the type after the parameter list (a receiver type comes before the name)."""
    seen_params = False
    for child in node.children:
        if child.type == "function_value_parameters":
            seen_params = True
        elif seen_params and child.type in ("user_type", "nullable_type"):
            return child
        elif child.type == "function_body":
            break
    return None


def kotlin_extension_type(node: Node) -> str:
    """`fun Buffer.readX()` → "Buffer" (`fun <T> List<T>?.f()` → "List"): the receiver type
    before the name, without type arguments or nullability."""
    for child in node.children:
        if child.type == "receiver_type":
            written = re.sub(r"<.*>", "", text(child)).strip().strip("()").rstrip("?").strip()
            return written if re.fullmatch(r"[\w.]+", written) else ""
        if child.type in ("simple_identifier", "function_value_parameters"):
            break
    return ""


# Two multiplatform spellings the Kotlin grammar rejects, and with them the rest of the file
# (okio's `ByteString`: its class body and every declaration after it became ERROR nodes).
# `actual val data: ByteArray` in a primary constructor: a platform modifier on a class parameter.
_PLATFORM_PARAMETER = re.compile(rb"\b(?:actual|expect)(?=[ \t]+va[lr]\b)")
# A top-level class whose primary constructor starts on a later line (`expect class Sink\n
# /** doc */\ninternal constructor(…)`): a top-level `constructor(` is nothing else.
_CLASS_GAP = re.compile(
    rb"^((?:[a-z]+[ \t]+)*class[ \t]+[A-Za-z_]\w*(?:[ \t]*<[^>{}()\n]*>)?)"
    rb"((?>\s|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)*\n)"
    rb"(?=(?:(?:@\w+(?:\([^()\n]*\))?|[a-z]+)[ \t]+)*constructor[ \t]*\()",
    re.M,
)
_INDENT = re.compile(rb"\n([ \t]+)")
MAX_HEADER_SCAN = 4000
# Kotlin 1.9's open-ended range operator (`0..<n`, `rangeUntil`), which the grammar predates: an
# ERROR node at each. `..` with a blank in place of `<` is the same expression to the extractor.
_RANGE_UNTIL = re.compile(rb"\.\.<")
# Annotations on a top-level property's accessor (`val Info.model: String\n  @SuppressLint("x")\n
# get() {…}`): followed by another declaration, the grammar reads them and the accessor as an
# expression, and the getter's code lands in no unit. Blanked, the accessor is read as one.
_ACCESSOR_ANNOTATIONS = re.compile(
    rb"(?m)^[ \t]+((?:@[\w.:]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*)+)"
    rb"(?=(?:\n[ \t]*)?(?:(?:private|protected|internal|public)[ \t]+)?[gs]et[ \t]*\()"
)


def kotlin_preprocess(source: bytes) -> bytes:
    """Same bytes and lines, spelled so the grammar parses them: `..<` is read as `..`; an
    accessor's annotations and a parameter's platform modifier are blanked; a primary
    constructor's line breaks (and the comments among them) are moved after it, into the
    indentation of the lines that follow (what follows keeps its line, only the constructor's own
    words report the class's line)."""
    if b"..<" in source:
        source = _RANGE_UNTIL.sub(b".. ", source)
    if b"@" in source and (b"get(" in source or b"set(" in source):
        source = _ACCESSOR_ANNOTATIONS.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + b" " * len(m.group(1)), source)
    if b"actual" not in source and b"expect" not in source and b"constructor" not in source:
        return source
    out = bytearray(_PLATFORM_PARAMETER.sub(lambda m: b" " * len(m.group(0)), source))
    for m in _CLASS_GAP.finditer(source):
        gap_start, gap_end = m.span(2)
        breaks = source.count(b"\n", gap_start, gap_end)
        slots = []
        for ind in _INDENT.finditer(source, gap_end, min(len(source), gap_end + MAX_HEADER_SCAN)):
            slots += range(*ind.span(1))
            if len(slots) >= breaks:
                break
        if len(slots) < breaks:
            continue
        out[gap_start:gap_end] = b" " * (gap_end - gap_start)
        for i in slots[:breaks]:
            out[i] = 0x0A
    return bytes(out)


_KOTLIN_SEQUENCES = frozenset({"List", "MutableList", "ArrayList", "Set", "MutableSet", "HashSet", "LinkedHashSet",
                               "Collection", "MutableCollection", "Iterable", "Sequence", "Array", "ArrayDeque"})


def kotlin_element(collection: str) -> str:
    """What `for (v in x)` walks in x's declared type: `List<Step>`, `Array<out Step>` → `Step`."""
    args = type_arguments(collection.strip().rstrip("?"), _KOTLIN_SEQUENCES)
    return args[0].rstrip("?") if len(args) == 1 else ""


# What a callback's one parameter receives: an element of the collection a call of one of these
# walks (`handlers.forEach { it.handle() }`, `xs.map { x -> x.name }`), or the value a scope
# function is called on (`c?.let { it.close() }`); any other lambda naming `it`, and a lambda's
# other untyped parameters, bind a name of no known type.
_KOTLIN_EACH = ("forEach|onEach|map|mapNotNull|flatMap|filter|filterNot|any|all|none|first|firstOrNull|last|lastOrNull"
                "|find|findLast|count|sumOf|sortedBy|sortedByDescending|groupBy|associateBy|associateWith|partition"
                "|takeWhile|dropWhile|single|singleOrNull|minByOrNull|maxByOrNull|minBy|maxBy")
_KOTLIN_SCOPES = "let|also|takeIf|takeUnless|use"
KOTLIN_DECLARATIONS = f"""
(property_declaration (variable_declaration (simple_identifier) @name [(user_type) (nullable_type)] @type))
(for_statement (variable_declaration . (simple_identifier) @element .) . (_) @of)
(call_expression (navigation_expression (_) @of (navigation_suffix (simple_identifier) @_each))
                 (call_suffix . (annotated_lambda (lambda_literal . (statements)) @implicit))
                 (#match? @_each "^({_KOTLIN_EACH})$"))
(call_expression (navigation_expression (_) @of (navigation_suffix (simple_identifier) @_each))
                 (call_suffix . (annotated_lambda (lambda_literal . (lambda_parameters . (variable_declaration . (simple_identifier) @element .) .)) @scope))
                 (#match? @_each "^({_KOTLIN_EACH})$"))
(call_expression (navigation_expression (_) @held (navigation_suffix (simple_identifier) @_scope))
                 (call_suffix . (annotated_lambda (lambda_literal . (statements)) @implicit))
                 (#match? @_scope "^({_KOTLIN_SCOPES})$"))
(lambda_literal . (statements)) @implicit
(lambda_literal (lambda_parameters (variable_declaration . (simple_identifier) @untyped))) @scope
(lambda_literal (lambda_parameters (multi_variable_declaration (variable_declaration . (simple_identifier) @untyped)))) @scope
(anonymous_function (function_value_parameters (parameter . (simple_identifier) @untyped))) @scope
(variable_declaration . (simple_identifier) @local)
(catch_block (simple_identifier) @local)
(property_declaration (variable_declaration . (simple_identifier) @holder .) [(call_expression) (navigation_expression)] @held)
"""
# Every name a body binds is recorded (`@local`: `val x = …`, `for ((k, v) in …)`, `when (val y = …)`,
# a catch's variable; a lambda's or an anonymous function's parameter is `@untyped`, its own inside
# the lambda, `@scope`; an untyped `val` a call or a read initialises holds it, `@holder`), so a bare name
# that is none of them and no parameter is a property of `this` (`complete_locals`).


KOTLIN = LanguageSpec(
    element_type=kotlin_element,
    preprocess=kotlin_preprocess,
    declared_fields=True,
    initialised_fields=True,
    boundary_nodes=(("try_expression", 2),),
    io_modules=IO_MODULES,
    main_entry=kotlin_main,
    name="kotlin",
    is_public=lambda name, signature: re.search(rb"\b(private|internal|protected)\b", signature) is None,
    catch_node="catch_block",
    signature_return=re.compile(rb"\)\s*:\s*([A-Za-z_]\w*)"),
    outside_imports="package",
    grammar="kotlin",
    extensions=(".kt", ".kts"),
    host_contracts=(("Runnable", "run", "Runnable"),),
    definitions=KOTLIN_DEFS,
    calls=KOTLIN_CALLS,
    assignments="(property_declaration (variable_declaration (simple_identifier) @target) (_) @value)",
    declarations=KOTLIN_DECLARATIONS,
    implicit_parameter="it",
    complete_locals=True,
    members="""
(class_body (property_declaration (variable_declaration (simple_identifier) @name [(user_type) (nullable_type)] @type)))
(class_parameter (simple_identifier) @name [(user_type) (nullable_type)] @type)
(class_body (property_declaration (variable_declaration (simple_identifier) @name) (call_expression) @value))
(class_body (property_declaration (variable_declaration (simple_identifier) @name)
  (property_delegate (call_expression (simple_identifier) @_lazy
    (call_suffix (annotated_lambda (lambda_literal (statements (call_expression) @value .)))))) (#eq? @_lazy "lazy")))
""",
    refs="""
(callable_reference) @ref
(value_argument (navigation_expression (_) @receiver (navigation_suffix "::" (simple_identifier) @name)) @ref)
""",
    return_type=kotlin_return_type,
    extension_type=kotlin_extension_type,
    arity=kotlin_arity,
    call_args=kotlin_call_args,
    call_arg_words=kotlin_arg_words,
    receiver_lambdas=KOTLIN_RECEIVER_LAMBDAS,
    lambda_receiver=kotlin_lambda_receiver,
    call_protocol=("invoke",),
    implicit_this=True,
    module_system="package",
    package_scope="declared",
    imports="(import_header) @import",
    parse_import=kotlin_import,
    supertypes=kotlin_supertypes,
    module_statements=kotlin_statements,
    package=kotlin_package,
    refine_kind=kotlin_kind,
    receiver_name=lambda node: "this",
    decorator_types=frozenset({"annotation"}),
    trailing_types=frozenset({"getter", "setter"}),
    # "{": a secondary constructor's statements follow its brace with no body node around them
    body_types=frozenset({"class_body", "function_body", "enum_class_body", "{"}),
)
