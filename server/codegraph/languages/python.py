"""Python: classes, functions, decorators, imports, main guards and module-level wiring."""

from __future__ import annotations

import re

from tree_sitter import Node

from ..model.facts import Import
from .spec import LanguageSpec, ModuleStatement, named_children, text, type_arguments

DEFINITIONS = """
(class_definition name: (identifier) @name) @class
(function_definition name: (identifier) @name) @function
"""

CALLS = """
(call function: (identifier) @name) @call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @call
"""

IMPORTS = """
(import_statement) @import
(import_from_statement) @import
"""


def parse_import(node: Node) -> list[Import]:
    line = node.start_point.row + 1
    out: list[Import] = []
    if node.type == "import_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                out.append(Import(text(child.child_by_field_name("name")), "", text(child.child_by_field_name("alias")), line))
            else:
                out.append(Import(text(child), "", "", line))
        return out
    module_node = node.child_by_field_name("module_name")
    level = 0
    module = text(module_node)
    if module_node is not None and module_node.type == "relative_import":
        prefix = next((c for c in module_node.children if c.type == "import_prefix"), None)
        level = len(text(prefix))
        dotted = next((c for c in module_node.children if c.type == "dotted_name"), None)
        module = text(dotted)
    if any(c.type == "wildcard_import" for c in node.children):
        return [Import(module, "*", "", line, level)]
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            out.append(Import(module, text(child.child_by_field_name("name")), text(child.child_by_field_name("alias")), line, level))
        else:
            out.append(Import(module, text(child), "", line, level))
    return out


def supertypes(node: Node) -> list[tuple[str, str]]:
    args = node.child_by_field_name("superclasses")
    if args is None:
        return []
    return [(text(a), "extends") for a in named_children(args) if a.type in ("identifier", "attribute", "subscript")]


def receiver_name(node: Node) -> str:
    """`self`/`cls` of a method: its first parameter, unless it is a staticmethod."""
    parent = node.parent
    if parent is not None and parent.type == "decorated_definition":
        if any(c.type == "decorator" and b"staticmethod" in c.text for c in parent.children):
            return ""
    params = node.child_by_field_name("parameters")
    # a comment may open the list (`def url_for(  # type: ignore[override]` above `self,`)
    first = next((p for p in named_children(params) if p.type != "comment"), None) if params is not None else None
    if first is None:
        return ""
    if first.type == "identifier":
        return text(first)
    inner = first.child_by_field_name("name") or (first.named_child(0) if first.named_child_count else None)
    return text(inner) if inner is not None and inner.type == "identifier" else ""


def _statement_expr(node: Node) -> Node | None:
    """The expression a top-level statement is made of. Grammars that hide
    `expression_statement` (tree-sitter-python 0.25 in the pack) put the call or
    assignment directly under the module."""
    if node.type == "expression_statement":
        return named_children(node)[0] if named_children(node) else None
    return node if node.type in ("call", "assignment") else None


def _first_call(node: Node) -> Node | None:
    """The call an expression statement is made of (`app.register(x)`, `x = make()`)."""
    expr = _statement_expr(node)
    if expr is None:
        return None
    if expr.type == "call":
        return expr
    if expr.type == "assignment":
        right = expr.child_by_field_name("right")
        if right is not None and right.type == "call":
            return right
    return None


# Module-level code under a condition, a guard or a loop runs at import like the rest
# (`if not PYPY: register(…)`, `try: x = load() except ImportError: x = fallback()`): the calls and
# assignments its blocks hold are the module's statements, each on its own, so a definition kept
# in such a block (`try: … except ImportError: def f(…)`) stays the module's own name.
_GUARDED = ("if_statement", "try_statement", "with_statement", "for_statement")
_CLAUSES = ("elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause")
_MAX_GUARD_DEPTH = 4


def _guarded_blocks(node: Node) -> list[Node]:
    """The blocks a module-level compound statement holds, its clauses' too."""
    out: list[Node] = []
    for child in node.children:
        if child.type == "block":
            out.append(child)
        elif child.type in _CLAUSES:
            out.extend(_guarded_blocks(child))
    return out


# A module-level dict whose entries are functions (`READERS = {"json": read_json, "csv": read_csv}`)
# is a lookup table: code calls its entries by key (`READERS[kind](…)`), not by name.
MIN_TABLE_ENTRIES = 2
_ENTRY_VALUES = frozenset({"identifier", "attribute", "lambda"})


def _table_name(node: Node) -> str:
    """The name a module-level assignment of a lookup table binds, "" for any other statement."""
    expr = _statement_expr(node)
    if expr is None or expr.type != "assignment":
        return ""
    left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
    if left is None or right is None or left.type != "identifier" or right.type != "dictionary":
        return ""
    entries = sum(1 for pair in right.named_children
                  if pair.type == "pair" and (v := pair.child_by_field_name("value")) is not None and v.type in _ENTRY_VALUES)
    return text(left)[:80] if entries >= MIN_TABLE_ENTRIES else ""


def module_statements(root: Node) -> list[ModuleStatement]:
    out: list[ModuleStatement] = []
    _statements_of(root.children, out, 0)
    return out


def _statements_of(children: list[Node], out: list[ModuleStatement], depth: int) -> None:
    for child in children:
        if child.type == "if_statement" and depth == 0:
            cond = text(child.child_by_field_name("condition"))
            if "__name__" in cond and "__main__" in cond:
                out.append((child, "main_guard", "__main__"))
                continue
        if child.type in _GUARDED and depth < _MAX_GUARD_DEPTH:
            for block in _guarded_blocks(child):
                _statements_of(block.children, out, depth + 1)
        elif child.type in ("expression_statement", "call", "assignment"):
            table = _table_name(child)
            if table:
                out.append((child, "table", table))
                continue
            call = _first_call(child)
            if call is None:
                continue
            expr = _statement_expr(child)
            if expr.type == "assignment":
                out.append((child, "wiring", text(expr.child_by_field_name("left"))[:80]))
            else:
                out.append((child, "registration", text(call.child_by_field_name("function"))[:80]))


MEMBERS = """
(class_definition body: (block (expression_statement (assignment left: (identifier) @name type: (type) @type))))
(class_definition body: (block (assignment left: (identifier) @name type: (type) @type)))
(assignment left: (attribute object: (identifier) @obj attribute: (identifier) @name) right: (_) @value)
(assignment left: (attribute object: (identifier) @obj attribute: (identifier) @name) type: (type) @type)
"""

_ATTR_REF = "(attribute object: (_) @receiver attribute: (identifier) @name) @ref"
REFS = "\n".join(
    f"({holder} {ref})"
    for holder in ("argument_list", "keyword_argument value:", "assignment right:", "pair value:", "list", "tuple")
    for ref in (_ATTR_REF, "(identifier) @bare")
)


def python_module(path: str) -> list[str]:
    """Dotted module names a Python file can be imported as (src-layout roots included)."""
    if not path.endswith((".py", ".pyi")):
        return []
    parts = path.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    names = [".".join(parts)] if parts else []
    for i, part in enumerate(parts[:-1]):
        # a directory no import can name (`project-python/`, `pkg-core/`, `azure-storage-blob/`)
        # is no package: what it holds is imported from it, an import root like `src/`
        if part in _ROOTS or not part.isidentifier():
            names.append(".".join(parts[i + 1 :]))
    return [n for n in names if n]


_ROOTS = ("src", "lib", "server", "python", "source")


def python_module_rank(path: str, module: str) -> int:
    """How many leading directories a module name drops from its file's path, a root no import
    can name ranked after every conventional one: `lib/yaml/__init__.py` owns `yaml` before an
    example's `examples/pygments-lexer/yaml.py`, `src/pkg/x.py` owns `pkg.x` before
    `examples-app/pkg/x.py`."""
    parts = path.rsplit(".", 1)[0].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    dropped = max(len(parts) - len(module.split(".")), 0)
    above = parts[dropped - 1] if dropped else ""
    return dropped + (1000 if above and above not in _ROOTS and not above.isidentifier() else 0)


IO_MODULES = frozenset({
    "sqlite3", "shelve", "csv", "os", "io", "shutil", "pathlib", "tempfile", "sqlalchemy", "psycopg2", "psycopg", "pymysql",
    "redis", "boto3", "gzip", "zipfile", "tarfile", "dbm", "aiofiles", "asyncpg", "pymongo", "socket",
})


def python_public(name: str, signature: bytes) -> bool:
    """Public: no leading underscore (`__call__` is the object's own call)."""
    return not name.startswith("_") or name == "__call__"


_PY_SEQUENCES = frozenset({"list", "List", "Sequence", "MutableSequence", "Iterable", "Iterator", "Collection", "set", "Set",
                           "frozenset", "FrozenSet", "AbstractSet", "MutableSet", "deque", "Deque", "tuple", "Tuple"})


def python_element(collection: str) -> str:
    """What `for v in x` walks in x's annotation: `list[Step]`, `Sequence["Step"]`, `tuple[Step, ...]`
    → `Step` (a tuple of several types, a dict: unknown)."""
    args = type_arguments(collection, _PY_SEQUENCES, "[]")
    if len(args) == 2 and args[1] == "...":
        return args[0]
    return args[0] if len(args) == 1 else ""


_PY_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "DefaultDict",
                          "ChainMap", "Counter"})


def python_index(collection: str) -> str:
    """What `x[i]` reads in x's annotation: a sequence's element (`list[Step]`, `tuple[Step, ...]`), a
    mapping's value (`dict[str, Route]`, `Mapping[str, "Route"]` → `Route`); a tuple of several types:
    unknown."""
    values = type_arguments(collection, _PY_MAPPINGS, "[]")
    if values:
        return values[1] if len(values) == 2 else ""
    args = type_arguments(collection, _PY_SEQUENCES - _UNINDEXED, "[]")
    if len(args) == 2 and args[1] == "...":
        return args[0]
    return args[0] if len(args) == 1 else ""


_UNINDEXED = frozenset({"Iterable", "Iterator", "Collection", "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet"})


def python_entered(item: Node) -> str:
    """`with E as x`: x holds what `E.__enter__()` returns; `async with`, `E.__aenter__()`'s."""
    statement = item.parent.parent if item.parent is not None else None
    return ".__aenter__()" if statement is not None and (statement.text or b"").startswith(b"async") else ".__enter__()"


_SCOPES = frozenset({"function_definition", "class_definition", "lambda"})


def python_returns_self(node: Node) -> bool:
    """A method whose every `return` hands back its first parameter (`return self`), with one at least."""
    params = node.child_by_field_name("parameters")
    first = next((c for c in params.named_children), None) if params is not None else None
    body = node.child_by_field_name("body")
    if first is None or first.type != "identifier" or body is None:
        return False
    wanted = b"return " + (first.text or b"")
    if wanted not in (body.text or b""):  # most bodies: no walk (a tenth of a file's extraction otherwise)
        return False
    found, stack = False, list(body.named_children)
    while stack:
        cur = stack.pop()
        if cur.type == "return_statement":
            if b" ".join((cur.text or b"").split()) != wanted:
                return False
            found = True
        elif cur.type not in _SCOPES:
            stack.extend(cur.named_children)
    return found


SPEC = LanguageSpec(
    element_type=python_element,
    index_type=python_index,
    value_views=(".values()",),
    pair_views=(".items()",),
    counted_walks=("enumerate",),
    annotated_fields=True,
    encoding_declaration=True,
    boundary_nodes=(("try_statement", 2), ("with_statement", 2), ("raise_statement", 3)),
    io_modules=IO_MODULES,
    is_public=python_public,
    class_param="cls",
    public_through_type=True,
    param_hosts=((("environ", "start_response"), "WSGI application callable (environ, start_response)"),
                 (("scope", "receive", "send"), "ASGI application callable (scope, receive, send)")),
    catch_node="except_clause",
    signature_return=re.compile(rb"->\s*['\"]?(?:[\w.]+\[)?([A-Za-z_][\w.]*)"),
    outside_imports="root",
    module_system="python",
    import_path_strings=True,
    module_names=python_module,
    module_rank=python_module_rank,
    import_binds="first",
    members=MEMBERS,
    call_protocol=("__call__",),
    file_scoped_names=True,
    refs=REFS,
    assignments="(assignment left: (_) @target right: (_) @value)",
    declarations="""
(assignment left: (identifier) @name type: (type) @type)
(for_statement left: (identifier) @element right: (_) @of)
(for_statement left: (pattern_list . (identifier) @_pair . (identifier) @element .) right: (_) @of)
(lambda parameters: (lambda_parameters (identifier) @untyped)) @scope
(with_item value: (as_pattern . (_) @held alias: (as_pattern_target (identifier) @holder))) @_enter
""",
    entered=python_entered,
    returns_self=python_returns_self,
    name="python",
    grammar="python",
    extensions=(".py", ".pyi"),
    definitions=DEFINITIONS,
    calls=CALLS,
    imports=IMPORTS,
    parse_import=parse_import,
    supertypes=supertypes,
    module_statements=module_statements,
    receiver_name=receiver_name,
    wrapper_types=frozenset({"decorated_definition"}),
    decorator_types=frozenset({"decorator"}),
    body_types=frozenset({"block"}),
    stub_decorators=frozenset({"@overload", "@typing.overload", "@t.overload", "@typing_extensions.overload"}),
)
