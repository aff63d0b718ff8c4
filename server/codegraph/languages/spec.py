"""What a language is to codegraph: a grammar, tree-sitter queries and a few hooks.

Queries find the nodes (they run in C, so a 3,000-line file costs no Python walk);
hooks turn the few matched nodes into facts where a query cannot say enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NamedTuple

from tree_sitter import Node

from ..model.facts import Import
from .wrapped import wrapped_function

# (node, stmt_kind, name) for a module-level statement worth a unit of its own
ModuleStatement = tuple[Node, str, str]
# A call found among a macro's tokens: (start byte, end byte, line, callee name, receiver text)
MacroCall = tuple[int, int, int, str, str]


def text(node: Node | None) -> str:
    if node is None:
        return ""
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


# a reference or pointer to a type (`&'a mut Serializer`, `*const T`) or a trait object (`dyn Read`)
_INDIRECTION = re.compile(r"^(?:&\s*(?:'\w+\s*)?(?:mut\s+)?|\*\s*(?:const|mut)\s+|dyn\s+)+")


def last_segment(name: str) -> str:
    """`okhttp3.Interceptor<T>` → `Interceptor`; `crate::a::B` → `B`; Rust's `&'b mut Deserializer<'a>`
    → `Deserializer`: methods of an impl for a reference to a type are called on that type's values
    (auto-referencing), and `self` in them reaches the type's other methods."""
    name = _INDIRECTION.sub("", name.strip())
    for opener in "<[(+":  # `+`: a trait object's further bounds (`dyn Error + Send`)
        cut = name.find(opener)
        if cut > 0:
            name = name[:cut]
    name = name.replace("::", ".").strip()
    return name.rsplit(".", 1)[-1].strip() if name else ""


def type_arguments(written: str, names: frozenset[str], brackets: str = "<>") -> list[str]:
    """The type arguments of a generic type written `Name<A, B>` (or `Name[A, B]`) whose name's last
    segment is one of `names`, each without references, lifetimes, variance and quotes; [] for any
    other type (`Vec<Step>` → ["Step"], `typing.Sequence["Step"]` → ["Step"])."""
    written = _INDIRECTION.sub("", written.strip())
    opener, closer = brackets
    start = written.find(opener)
    if start <= 0 or not written.endswith(closer) or written[:start].replace("::", ".").rpartition(".")[2] not in names:
        return []
    args, depth, begin = [], 0, start + 1
    for i in range(start + 1, len(written) - 1):
        ch = written[i]
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(written[begin:i])
            begin = i + 1
    args.append(written[begin:-1])
    out = []
    for arg in args:
        arg = _INDIRECTION.sub("", arg.strip())
        for variance in ("out ", "in "):
            arg = arg[len(variance):].lstrip() if arg.startswith(variance) else arg
        quoted = len(arg) > 1 and arg[0] == arg[-1] and arg[0] in "\"'"  # a forward reference, not a lifetime
        out.append(arg[1:-1] if quoted else arg)
    return out


def named_children(node: Node) -> list[Node]:
    return [c for c in node.children if c.is_named]


class Carrier(NamedTuple):
    """A generic type that carries the value of its first type argument (`Option<Conn>` carries a
    `Conn`): its own methods (a call of one is the carrier's, never the value's), and those of them
    that hand back the carried value (`unwrap`, `get`) or the carrier itself (`as_ref`, `clone`)."""

    name: str
    own: frozenset[str]
    unwraps: frozenset[str] = frozenset()
    keeps: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    grammar: str  # tree-sitter-language-pack name
    extensions: tuple[str, ...]
    # Captures: the definition node is captured as its kind (@class, @function, …), its name as @name.
    definitions: str
    # Captures: @call or @construct on the expression, @name on the callee's last identifier,
    # optional @receiver on what precedes it.
    calls: str
    # Captures @import on import statements; `parse_import` turns each into Import records.
    imports: str
    parse_import: Callable[[Node], list[Import]]
    # (class node) -> [(supertype text, extends|implements)]
    supertypes: Callable[[Node], list[tuple[str, str]]] = lambda node: []
    module_statements: Callable[[Node], list[ModuleStatement]] = lambda root: []
    package: Callable[[Node], str] = lambda root: ""
    # Adjusts a captured kind (Kotlin `interface` is a class_declaration with a keyword).
    refine_kind: Callable[[Node, str], str] = lambda node, kind: kind
    # Node types whose child a definition can be, included in its span (decorators, export).
    wrapper_types: frozenset[str] = frozenset()
    # Sibling node types just before a definition that belong to it (Rust attributes, TS decorators).
    leading_types: frozenset[str] = frozenset()
    # The qualname of a definition that is its file's default export (`module.exports = function …`):
    # a default import of the file binds to it
    default_export: str = ""
    # Sibling node types just after a definition that belong to it (Kotlin property getters/setters).
    trailing_types: frozenset[str] = frozenset()
    decorator_types: frozenset[str] = frozenset()
    body_types: frozenset[str] = frozenset()  # the signature ends where one of these begins
    comment_types: frozenset[str] = frozenset({"comment", "line_comment", "block_comment"})
    # (callable node) -> qualifying type name for definitions outside their type (Go receivers)
    receiver_type: Callable[[Node], str] = lambda node: ""
    # (callable node) -> the type an extension function extends (Kotlin `fun Buffer.readX()`), ""
    extension_type: Callable[[Node], str] = lambda node: ""
    # (definition node) -> the object it is assigned onto when its qualname leaves it out
    # (`Unit.assigned_to`: a CommonJS export's `exports`), ""
    assigned_to: Callable[[Node], str] = lambda node: ""
    # (parameter list node) -> (fewest, most) arguments a call may pass, most -1 when unbounded
    # (`Unit.arity`); () when the language's overloads are not told apart
    arity: Callable[[Node], tuple[int, ...]] = lambda params: ()
    # (call node) -> how many arguments it passes (`Call.args`), -1 when not counted
    call_args: Callable[[Node], int] = lambda node: -1
    # (call node) -> what its arguments say about their types (`Call.arg_words`), "" when nothing
    call_arg_words: Callable[[Node], str] = lambda node: ""
    # Names of functions that may take a lambda with receiver (Kotlin `apply`, `with`, `buildString`),
    # and (call node, name, receiver node or None) -> (body start, body end, what `this` is in the
    # lambda's body: the receiver as written, "?" when unnamed) for `Call.within` of the calls in
    # it; None when the call takes none or its `this` is the enclosing one
    receiver_lambdas: frozenset[str] = frozenset()
    lambda_receiver: Callable[[Node, str, "Node | None"], "tuple[int, int, str] | None"] = lambda call, name, receiver: None
    # A file may declare its encoding in its first two lines (PEP 263: `# -*- coding: latin-1 -*-`)
    encoding_declaration: bool = False
    # Decorators (as written, `@…`) that make a definition a typing stub its name is not bound to
    # at run time (Python's `@overload` signatures above the implementation): of several
    # definitions of one name in one scope, the one without them is what a call reaches
    stub_decorators: frozenset[str] = frozenset()
    # How an attribute that compiles a definition only in some builds begins (Rust's `#[cfg(`): of
    # several definitions of one name in one scope, each so gated and with the same parameters, one
    # is compiled into any build (`#[cfg(unix)]` / `#[cfg(windows)]`, a feature and its absence), and
    # the first stands for them all
    build_variant_attribute: str = ""
    # Rewrites source bytes before parsing, keeping every byte offset (same length, same newlines):
    # works around constructs the pinned grammar cannot parse (TypeScript variance annotations).
    preprocess: Callable[[bytes], bytes] = lambda source: source
    # (decoded source) -> the name of a sibling spec that reads this file instead, "" for this one (a
    # Flow-annotated JavaScript file is read as TSX: Flow's annotations are TypeScript's syntax)
    dialect: Callable[[bytes], str] = lambda source: ""
    # (callable node) -> the name its own object goes by inside it ("self", "this", Go receiver)
    receiver_name: Callable[[Node], str] = lambda node: ""
    # receiver_name is asked of functions too, not only of methods: a JavaScript function assigned
    # to a member or held by an object literal's entry (`app.init = function`, `{ f: function }`)
    # has the object it is called on as `this` (an arrow function has none of its own)
    function_receiver: bool = False
    # (receiver node, a cache for the file) -> the byte span of the function whose own object a
    # local the receiver starts with holds (JavaScript's `var self = this;`), or None
    this_alias: "Callable[[Node, dict], tuple[int, int] | None] | None" = None
    # (root node) -> `FileFacts.export_aliases`: what a module exports by naming a local name
    # (JavaScript: `exports.X = Y;`, `module.exports = { X: Y }`, `export default Y;`)
    export_aliases: Callable[[Node], tuple[tuple[str, str], ...]] = lambda root: ()
    # (root node) -> (a module-level constructor's name, its base as written) of each statement that
    # makes the constructor's instances inherit the base's methods without class syntax
    # (JavaScript: `util.inherits(T, Base)`, `T.prototype = Object.create(Base.prototype)`)
    prototype_bases: Callable[[Node], list[tuple[str, str]]] = lambda root: []
    # (source) -> `FileFacts.platform_variant`: the file's own head says it is built for some
    # platforms or tags only (Go's `//go:build darwin`), as a file name's `_darwin` suffix does
    platform_variant: Callable[[bytes], bool] = lambda source: False
    # (path, source) -> whether a default build compiles the file (Go: linux/amd64, by the name's
    # suffix and the build constraint), None where the language has no build variants: of a name
    # one package defines once per platform variant, a bare call runs the default build's
    default_build: Callable[[str, bytes], "bool | None"] = lambda path, source: None
    # Captures @target (the bound name) and @value on statements that initialise a plain local
    # (`x = Foo()`, `val x = Foo()`): calls found under @value type the local for bindings.
    assignments: str = ""
    # Captures @name and @type on local variables declared with a type (`Foo x = …`, `let x: Foo`,
    # `val x: Foo`, `var x Foo`, `x: Foo = …`): member calls on them bind to that type.
    declarations: str = ""
    # Captures @macro on macro invocations whose arguments the grammar leaves as unparsed tokens
    # (Rust token trees); `macro_calls` finds the calls among them.
    macros: str = ""
    # (macro node) -> [MacroCall] for the calls written inside a macro's arguments
    macro_calls: Callable[[Node], list["MacroCall"]] = lambda node: []
    # Members of a type with what they hold (the ranked graph types `self.x.m()` with them):
    # @name + @type on declared fields (`x: Foo`, `private final Foo x`, Go/Rust struct fields,
    # constructor properties), or @obj + @name + @value on assignments to an attribute of the
    # object itself (`self.x = Foo()`, `this.x = new X()`); @obj must be self/this/the receiver.
    members: str = ""
    # Captures @ref on a function or method handed over as a value (a callback argument, an
    # element of an array or table, the right side of an assignment, `this::m`), with @name
    # and optional @receiver; without @name the text splits at its last `::`. A plain name
    # alone is captured @bare (one capture: most are locals, dropped at once).
    refs: str = ""
    # Bare names bind only to what the file defines or imports (no package scope): a bare
    # reference to any other name is a local, not a function, and is not recorded
    file_scoped_names: bool = False
    # File name endings of compiled or declaration copies that ship beside the sources (`.d.ts`,
    # bundles): the ranked graph prefers a definition in a source file over one in these
    copy_suffixes: tuple[str, ...] = ()
    # A bare name inside a type's method can denote one of its fields (Java, Kotlin: no `this.`)
    implicit_this: bool = False
    # A field's declared type is what it holds for the object's whole life (static typing): a call
    # on `self.conn` / `r.log` binds through it (Go, Rust, Java, Kotlin, TypeScript; not Python,
    # where an annotation is a hint and `self.x = param` is all the index sees of many members)
    declared_fields: bool = False
    # A property declared with no type but an initialiser has its initialiser's type, fixed at compile
    # time (TypeScript's `private readonly log = new Logger()`, Kotlin's `private val cache = LruCache()`):
    # a call through it binds through the type a construction or a declared return type gives
    initialised_fields: bool = False
    # No declared types, but a class's member holds what every assignment of it in the class makes
    # (JavaScript: `this.lexer = new Lexer(…)` in the constructor, no other value written to it
    # anywhere in the class): a call through it binds through that type, as through an initialiser's
    assigned_fields: bool = False
    # The extractor records every local name a body binds (typed or not, in `local_types`): a bare
    # receiver that is no local and no parameter is a field of `this`, bound through its declared
    # type (Java; Kotlin's untyped locals and lambda parameters are not all recorded yet)
    complete_locals: bool = False
    # Methods an object runs when it is called like a function (`obj(…)` → `__call__`, `invoke`)
    call_protocol: tuple[str, ...] = ()
    # (trait/interface name, method): constructing a type that implements it hands the method to
    # a runtime that calls it later (Rust: a `Future` built here is `poll`ed by the executor)
    construct_protocol: tuple[tuple[str, str], ...] = ()
    # How code awaits a value after the call that makes it (Rust `serve(svc).await`): a question
    # that writes it names the awaited value's protocol method (its type's `Future::poll`)
    await_suffix: str = ""
    # A local named like a field of its method's own type, with no type of its own, holds that
    # field: it was destructured from self (Rust `match self.project() { Proj::H1 { h1 } => … }`,
    # `let Self { conn, .. } = self`)
    field_bindings: bool = False
    # A type alias declared in a file: group 1 its name, group 2 what it stands for (Rust
    # `type Http1Dispatcher<T> = proto::Dispatcher<…>;`)
    type_alias: "re.Pattern[bytes] | None" = None
    # Contracts a runtime calls a library through: (interface or trait, the method the host calls,
    # how a reader knows the contract). Distill takes their implementations as entry surfaces.
    host_contracts: tuple[tuple[str, str, str], ...] = ()
    # Implementing is structural (Go): a type implements every interface its method set covers, no
    # `implements` clause needed (families: `graph/structural.py`; a host contract's method by its name)
    structural_hosts: bool = False
    # Member calls that hand the receiver function over rather than name a method of it
    # (`dispatch.bind(this)`, `fn.call(ctx)`): the ranked graph records a reference to it.
    value_calls: frozenset[str] = frozenset()
    # The name that denotes the enclosing type's supertype in a call (`super(…)` in a
    # constructor, `super.close()`): the ranked graph follows it to the supertype's member
    super_name: str = ""
    # Calls that hand back a view of their receiver, not another object (Rust's pinned
    # `self.as_mut()`, a `pin_project` `self.project()`): when the receiver's type does not define
    # the name, the ranked graph reads the call's result as the receiver itself.
    self_views: frozenset[str] = frozenset()
    # Calls that hand back their one argument wrapped, not another object (Rust's `Pin::new(x)`,
    # `Box::pin(x)`): a method called on the result is a method of the argument's type.
    wrapper_calls: tuple[str, ...] = ()
    # Generic types that carry one value and leave its methods callable on them (Rust's `Result`,
    # `Option`, `Box`, `Arc`; TypeScript's `Promise`; Java's `Optional`): in compiled code a method
    # the carrier does not define, called on a carried value, is the carried type's (`?`, `await`
    # or a deref made the call possible). The resolver types values through them (bindings/carriers.py).
    carriers: tuple[Carrier, ...] = ()
    # (a collection's declared type as written) -> the type of the elements a loop over it walks
    # (`[]*Handler` → `*Handler`, `Vec<Step>`, `list[Step]`, `Step[]` → `Step`), "" when unknown
    element_type: Callable[[str], str] = lambda collection: ""
    # (a collection's declared type as written) -> what the one name a loop binds holds where the
    # language gives each item's first part to it (Go's `for k := range m`: a map's key, a channel's
    # element; a slice's index: ""); declarations mark such a loop `@_first`
    first_type: Callable[[str], str] = lambda collection: ""
    # Calls that hand a collection's elements over unchanged (Rust's `x.iter()`): a loop over one walks x
    element_adapters: tuple[str, ...] = ()
    # (a collection's declared type as written) -> the type of what an index into it reads (`xs[i]`,
    # `m[key]`: Go's `[]*Handler`, `map[string]*Route` → `Handler`, `Route`), "" when unknown
    index_type: Callable[[str], str] = lambda collection: ""
    # Calls whose walk yields what an index reads, not what a loop over the collection walks (Python's
    # `routes.values()`: a dict's values, where `for k in routes` walks its keys)
    value_views: tuple[str, ...] = ()
    # Calls whose walk yields (key, value) pairs (Python's `routes.items()`): the second of two names
    # a loop binds from each (`for name, route in …`) is what an index reads
    pair_views: tuple[str, ...] = ()
    # Functions whose walk yields (position, element) pairs (Python's `enumerate(steps)`): the second
    # of two names a loop binds from each is an element of their first argument
    counted_walks: tuple[str, ...] = ()
    # Fields typed by annotation where the language declares none (Python's class-body `handlers:
    # list[Handler]`, `self._routes: dict[str, Route] = {}`, a typed parameter `__init__` stores): they
    # type the collections walked and indexed through them (`for h in self._handlers`,
    # `self._routes[k]`), not every read of a field
    annotated_fields: bool = False
    # The name a lambda of one parameter binds without declaring it (Kotlin's `it`): the declarations'
    # `@implicit` captures are such lambdas (index/members.py)
    implicit_parameter: str = ""
    # What a context manager's `as` name holds, as a call on the managed value (Python's `with E as x`:
    # `E.__enter__()`, `async with`: `E.__aenter__()`), given the `@_enter` node of a declaration
    entered: Callable[[Node], str] = lambda node: ""
    # Whether a method's every return hands back its own object (`return self`, at least one): it
    # declares its class as its result where it declares none (a context manager's `__enter__`, a builder)
    returns_self: Callable[[Node], bool] = lambda node: False
    # (callable node) -> the node of its declared return type, None when it declares none
    return_type: Callable[[Node], "Node | None"] = lambda node: node.child_by_field_name("return_type") or node.child_by_field_name("result")
    # The declared type of a module-level variable's definition node (Go's `var v *Viper`, `var Logger
    # Logging = NullLogger{}`), kept in the unit's `returns`: what the package's calls on it reach
    variable_type: Callable[[Node], "Node | None"] = lambda node: None

    # ---- what distill reads of the language ---------------------------------------------------
    # Syntax that bounds the main path: (node type, tier). Handling and cleanup are explicit
    # syntax (2); bare rejection (raise/throw/`?`) is a weaker candidate (3).
    boundary_nodes: tuple[tuple[str, int], ...] = ()
    # (boundary node, its tier) -> the tier it has here, 0 when it marks nothing (Go: only
    # `if err != nil` rejects, `return fmt.Errorf(…)` makes an error, only `recover()` catches)
    boundary_tier: Callable[[Node, int], int] = lambda node, tier: tier
    # Modules whose import makes calls on them input/output: persistence signals. Parsing
    # modules (json, yaml, pickle) are not here: turning a string into values is not persistence.
    io_modules: frozenset[str] = frozenset()
    # Calls of the language's own library that turn an error into another, or a missing value into
    # an error, or catch a promise's (Rust `map_err`, a promise's `catch`): a unit that only hands
    # errors on is a boundary when it makes one of these (distill's `boundary_roles`)
    error_translators: frozenset[str] = frozenset()
    # (decorator or attribute text) -> it makes its function the runtime's entry (`#[tokio::main]`)
    entry_attribute: Callable[[str], bool] = lambda text: False
    # (unit named `main`, its file's facts, top-level?, its signature) -> why it is the program's
    # entry, "" when it is not
    main_entry: Callable[[object, object, bool, Callable[[], bytes]], str] = lambda u, facts, top, signature: ""

    # ---- how bindings/ (resolve.py and resolver_indexes.py) treats the language's names -------
    # How an import names what it imports: "python" (dotted modules, relative levels), "path"
    # (a relative file path: `import_candidates` says which files it may mean), "crate" (Rust
    # paths from the crate root), "directory" (Go: an import path names a package directory),
    # "package" (Java, Kotlin: a declared package and a type in it); "" nothing resolvable.
    module_system: str = ""
    # Strings name definitions by their import path, loaded later (`'pkg.mod:attr'`, `'pkg.mod.Class'`:
    # Python's plugins and settings; graph/paths.py draws `import-path` references for them)
    import_path_strings: bool = False
    # (file path) -> the module names other files import it by (Python: every dotted name,
    # src-layout roots included; Rust: its crate path)
    module_names: Callable[[str], list[str]] = lambda path: []
    # (file path, one of its module names) -> how firmly the path names it: of two files claiming
    # one module name, the lower rank owns it (the first path in order breaks a tie)
    module_rank: Callable[[str, str], int] = lambda path, module: 0
    # (importer's directory joined with a relative import) -> the files it may mean, in order
    import_candidates: Callable[[str], list[str]] = lambda base: [base]
    # Top-level names files share without an import: "directory" (Go packages), "declared"
    # (the package clause: Java, Kotlin); "" only the file's own
    package_scope: str = ""
    # Where a type's members may be defined: "file", "directory" (Go: methods anywhere in the
    # package), "crate" (Rust: `impl` blocks anywhere in the crate)
    member_scope: str = "file"
    # The local name a plain module import binds: "first" dotted segment (`import a.b` binds
    # `a`: Python), else the "last" path segment (`import "x/y"` binds `y`)
    import_binds: str = "last"
    # `impl Trait for Type` blocks in the type's file carry the type's supertypes (Rust)
    impl_blocks: bool = False
    # a callable's listed results make one tuple value (Rust `-> (A, B)`): a call taken whole is
    # none of them; taken apart (`let (a, b) = f()`), each local holds its own
    tuple_results: bool = False

    # ---- how distill/flow.py reads the language ------------------------------------------------
    # (name, signature bytes) -> public by the language's own convention (syntax, not naming taste)
    is_public: Callable[[str, bytes], bool] = lambda name, signature: not name.startswith("_")
    # Group 1 names a type that a statement gives a member at load time (`Axios.prototype[m] = …`):
    # module-level code that does so assembles that type
    runtime_members: "re.Pattern[bytes] | None" = None
    # (file source) -> the names a module file exports, None when the file has no export syntax (a script,
    # where every top-level name is shared): a top-level function the file does not export is private
    exported_names: Callable[[bytes], "frozenset[str] | None"] = lambda source: None
    # The parameter through which a class method receives its own class (Python's `cls`): calling it
    # (`cls(…)`) builds the method's type
    class_param: str = ""
    # A method is public only when its type is too (Go: an exported method of an unexported type;
    # Python: a public method of a `_Private` class)
    public_through_type: bool = False
    # Whether a module declared inside a file lets its public members out, by its declaration
    # (Rust: only a `pub mod`; `pub(crate) mod parsing { pub fn … }` keeps them in the crate);
    # None where a module's members are public by their own syntax alone
    module_public: "Callable[[bytes], bool] | None" = None
    # A parameter typed by a type parameter is a value of the one trait that bounds it (Rust:
    # `fn f<C: Consumer>(c: &C)`, `where C: Consumer`), of no known type when unbounded or bounded twice
    bounded_generics: bool = False
    # Kinds of type a bare call never makes (Rust: `Err(e)` is no call of an `enum Err` in scope, a
    # trait is never called); a call of such a name is something else (a prelude's variant)
    uncallable_kinds: frozenset[str] = frozenset()
    marker_bounds: frozenset[str] = frozenset()  # bounds of no behaviour of the value's own (Rust's `Send`)
    # Host contracts a callable implements by its parameter names (Python's WSGI and ASGI application
    # callables): (the parameter names, how a reader knows the contract), the first that fits wins
    param_hosts: tuple[tuple[tuple[str, ...], str], ...] = ()
    # The node type of an error handler (`except_clause`, `catch_clause`), or a node pattern (Rust: a match
    # arm taking `Err(…)`); "" when the language has none
    catch_node: str = ""
    # Group 1 is the declared return type's name in a callable's signature (`-> Foo`, `): Foo`);
    # None when it is not written after the parameters
    signature_return: "re.Pattern[bytes] | None" = None
    # The declared return type precedes the callable's name (Java: `Foo make(…)`)
    return_type_before_name: bool = False
    # How distill tells an import from outside the code base: "root" (its first segment names no
    # directory or file of the code base: Python, JavaScript, TypeScript), "package" (its package
    # path is no directory of the code base, and `new pkg.Type()` names a package: Java, Kotlin);
    # "crate" (a path that does not start with `crate`, `self`, `super` or a crate the code base's
    # Cargo manifests declare: Rust); "" it does not tell
    outside_imports: str = ""
    # The language has no constructor syntax: a type's function without a receiver parameter that
    # returns the type itself (`fn new(…) -> Self`) is its constructor by convention (distill)
    self_constructors: bool = False
    # How a member is written after its type or trait for a reader (`Handler.handle`, `Future::poll`)
    member_separator: str = "."


_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression"})


def held_value(node: Node) -> Node | None:
    """The value a declarator holds, out of its parentheses and casts: `const f = ((a) => …) as F`
    → the arrow function, whose parameters and body are the unit's; so is the one function a call
    wraps (`const Input = forwardRef((props, ref) => …)`)."""
    value = node.child_by_field_name("value")
    while value is not None and value.type in _WRAPPERS and value.named_children:
        value = value.named_children[0]
    return (wrapped_function(value) or value) if value is not None else None
