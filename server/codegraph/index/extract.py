"""Source bytes → syntax tree → FileFacts, for any language spec.

Everything here is iterative and bounded: queries do the tree search in C, and the few
Python loops run over matched nodes only, so deep nesting cannot hit a recursion limit.
Parsing has a deadline (hostile input such as 50,000 unclosed brackets can keep tree-sitter's
error recovery busy for minutes), and anything unexpected in extraction becomes a SourceError,
so one file can only ever be skipped, never fail the index.
"""

from __future__ import annotations

import codecs
import hashlib
import marshal
import re
import threading
import time
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
from operator import itemgetter

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from ..languages import BY_NAME, LanguageSpec
from ..languages.spec import held_value, last_segment, named_children, text
from ..model.facts import MAX_RECEIVER, Call, FileFacts, Import, Supertype, Unit, referenced_names, rust_test_attribute
from .members import _assigned_calls, _param_names, _parameters, _refs, _result_types, _type_name, _with_attrs, _with_local_types, generic_bounds

KINDS = ("class", "interface", "trait", "struct", "enum", "object", "record", "impl", "function", "method", "constructor", "variable")
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
PARSE_TIMEOUT_S = 5.0  # a real source file parses in well under a second; past this it is hostile
MAX_ERROR_WIDTH = 20_000  # tokens in one ERROR node; past this the query walk is the hostile part
_READ_CHUNK = 16_384  # node.text re-reads through the callback: small chunks keep that cheap
DIRECT_PARSE_BYTES = 128 * 1024  # larger inputs parse through the deadline-checked callback
_local = threading.local()  # Parser objects are not thread-safe: one per thread and language


class SourceError(Exception):
    """A file that cannot be indexed; the message is the reason users see."""


@dataclass(frozen=True)
class Compiled:
    spec: LanguageSpec
    language: Language
    definitions: Query  # kept separately for the capture-contract tests
    calls: Query
    # All fact queries in one (definitions, calls, assignments, macros, declarations, members,
    # refs, imports): a single walk of the tree; pattern indexes tell them apart.
    combined: Query
    n_definitions: int
    n_calls: int
    n_assignments: int
    n_macros: int
    n_declarations: int
    n_members: int = 0
    n_refs: int = 0
    n_syntax: int = 0  # the last patterns: what distill reads of the tree (`_syntax_patterns`)


@lru_cache(maxsize=None)
def grammar(language: str) -> Language:
    """The language's grammar alone, loaded once per process: enough to parse and run a small query
    (compiling every fact query costs more than a request that only parses a few files)."""
    from tree_sitter_language_pack import get_language

    return get_language(BY_NAME[language].grammar)


@lru_cache(maxsize=None)
def compiled(language: str) -> Compiled:
    """Compiles a spec's queries once per process (raises QueryError on grammar drift)."""
    spec = BY_NAME[language]
    lang = grammar(language)
    definitions, calls = Query(lang, spec.definitions), Query(lang, spec.calls)
    assignments = Query(lang, spec.assignments).pattern_count if spec.assignments else 0
    macros = Query(lang, spec.macros).pattern_count if spec.macros else 0
    declarations = Query(lang, spec.declarations).pattern_count if spec.declarations else 0
    members = Query(lang, spec.members).pattern_count if spec.members else 0
    refs = Query(lang, spec.refs).pattern_count if spec.refs else 0
    syntax = _syntax_patterns(spec, lang)
    combined = Query(
        lang, "\n".join((spec.definitions, spec.calls, spec.assignments, spec.macros, spec.declarations, spec.members, spec.refs,
                         spec.imports, syntax))
    )
    return Compiled(
        spec, lang, definitions, calls,
        combined, definitions.pattern_count, calls.pattern_count, assignments, macros, declarations, members, refs,
        Query(lang, syntax).pattern_count if syntax else 0,
    )


def _syntax_patterns(spec: LanguageSpec, lang: Language) -> str:
    """Patterns for distill's error handlers (`catch_node`) and boundary syntax (`boundary_nodes`): read in the
    one walk and kept in the facts, so that distill parses no file. A node type the grammar lacks is left out."""
    patterns = [f"({t}) @boundary_mark" for t, _ in spec.boundary_nodes]
    if spec.catch_node:
        patterns.insert(0, f"({spec.catch_node}) @error_region")
    ok = []
    for pattern in patterns:
        try:
            Query(lang, pattern)
            ok.append(pattern)
        except Exception:  # grammar drift: no such node type
            continue
    return "\n".join(ok)


def _parser(language: str) -> Parser:
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = Parser(grammar(language))
    return parser


def decode_source(raw: bytes, language: str) -> bytes:
    """Returns UTF-8 bytes (BOM removed); other encodings only when the file declares them."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    if b"\x00" in raw[:8192]:
        raise SourceError("binary (NUL bytes)")
    if raw.isascii():  # most source files: valid UTF-8 without building a str of the whole file
        return raw
    try:
        raw.decode("utf-8")
        return raw
    except UnicodeDecodeError:
        pass
    if BY_NAME[language].encoding_declaration:
        for line in raw.split(b"\n", 2)[:2]:
            m = _CODING.match(line)
            if m:
                try:
                    return raw.decode(m.group(1).decode("ascii")).encode("utf-8")
                except (LookupError, UnicodeError) as exc:  # UnicodeEncodeError: a codec that yields lone surrogates
                    raise SourceError(f"undecodable with declared encoding {m.group(1).decode('ascii', 'replace')}") from exc
    raise SourceError("not UTF-8 and no encoding declaration")


def parse(language: str, source: bytes, old_tree: Tree | None = None, timeout_s: float | None = None) -> Tree:
    """Parses within a deadline; py-tree-sitter honours progress_callback only with a read callback."""
    source = BY_NAME[language].preprocess(source)
    limit = PARSE_TIMEOUT_S if timeout_s is None else timeout_s
    deadline = time.monotonic() + limit
    parser = _parser(language)

    def read(offset: int, _point: object) -> bytes:
        return source[offset : offset + _READ_CHUNK]

    def over_time(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    if len(source) <= DIRECT_PARSE_BYTES and timeout_s is None:
        # Ordinary files parse in milliseconds; the callback route (the only one with a deadline)
        # costs a second parse, so only large inputs take it.
        return parser.parse(source, old_tree) if old_tree is not None else parser.parse(source)
    try:
        if old_tree is not None:
            tree = parser.parse(read, old_tree, progress_callback=over_time)
        else:
            tree = parser.parse(read, progress_callback=over_time)
    except ValueError as exc:  # raised when the progress callback aborts
        tree = None
        if time.monotonic() <= deadline:
            parser.reset()
            raise SourceError(f"parser failed ({exc})") from exc
    if tree is None:
        parser.reset()  # an aborted parse would otherwise resume on the next file
        raise SourceError(f"parse timed out after {limit:g} s")
    # A callback-parsed tree has no source of its own: every node.text would call `read` and
    # copy a chunk. Re-parsing the bytes with it as the old tree reuses every node (~1 ms).
    return parser.parse(source, tree)


_new_tuple = tuple.__new__


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _line(node: Node) -> int:
    return node.start_point.row + 1


def _end_line(node: Node) -> int:
    # A node ending at column 0 ends on the previous line (its trailing newline).
    row, col = node.end_point
    return row if col == 0 and row > node.start_point.row else row + 1


def _span_node(spec: LanguageSpec, node: Node) -> Node:
    """Widens a definition to the wrappers that belong to it (decorators, `export`, `const`)."""
    cur = node
    while (parent := cur.parent) is not None and parent.type in spec.wrapper_types:  # .parent walks from the root
        if parent.type in ("lexical_declaration", "variable_declaration", "type_declaration", "const_declaration", "var_declaration") and len(named_children(parent)) != 1:
            break
        cur = parent
    return cur


def _leading(spec: LanguageSpec, node: Node) -> list[Node]:
    out: list[Node] = []
    prev = node.prev_named_sibling
    while prev is not None and prev.type in spec.leading_types:
        out.append(prev)
        prev = prev.prev_named_sibling
    out.reverse()
    return out


def _decorators(spec: LanguageSpec, span: Node, node: Node, leading: list[Node]) -> tuple[str, ...]:
    found: list[Node] = list(leading)
    for holder in (span, node) if span is not node else (node,):
        for child in holder.named_children:
            if child.type in spec.decorator_types:
                found.append(child)
            elif child.type == "modifiers":
                found += [c for c in child.children if c.type in spec.decorator_types]
    seen: dict[int, str] = {}
    for d in found:
        seen.setdefault(d.start_byte, text(d).splitlines()[0][:120] if text(d) else "")
    return tuple(seen[k] for k in sorted(seen))


def _body(spec: LanguageSpec, node: Node) -> Node | None:
    body = node.child_by_field_name("body")
    if body is None:
        # `const f = () => {…}` holds its function as `value`; `T.prototype.m = function () {…}` as `right`
        value = held_value(node) or node.child_by_field_name("right")
        if value is not None:
            body = value.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.children if c.type in spec.body_types), None)
    return body


def _doc(spec: LanguageSpec, span: Node, body: Node | None) -> str:
    if body is not None and body.type == "block":
        # not named_children[0]: that wraps every statement of the body
        first = body.named_child(0) if body.named_child_count else None
        if first is not None and first.type == "expression_statement" and first.named_child_count == 1:
            first = first.named_child(0)  # older grammars wrap the docstring; the pinned one does not
        if first is not None and first.type == "string":
            lines = [ln.strip() for ln in text(first).strip("\"'rbuRBU").strip("\"'").splitlines() if ln.strip()]
            return lines[0][:160] if lines else ""
    prev = span.prev_named_sibling
    if prev is not None and prev.type in spec.comment_types and prev.end_point.row >= span.start_point.row - 1:
        for ln in text(prev).splitlines():
            cleaned = ln.strip().lstrip("/*#!").strip().rstrip("*/").strip()
            if cleaned:
                return cleaned[:160]
    return ""



def extract(path: str, language: str, source: bytes, tree: Tree, digest: str, size: int) -> FileFacts:
    """FileFacts of one parsed file; any failure on a hostile tree is a SourceError (the file is skipped)."""
    try:
        return _extract(path, language, source, tree, digest, size)
    except SourceError:
        raise
    except (RecursionError, MemoryError) as exc:
        raise SourceError(f"extraction failed ({type(exc).__name__})") from exc
    except Exception as exc:  # a hook meeting a tree shape it never saw must not stop the index
        raise SourceError(f"extraction failed ({type(exc).__name__}: {str(exc)[:120]})") from exc


def _error_stats(root: Node) -> tuple[int, int]:
    """(ERROR and MISSING nodes, children of the widest ERROR node), visiting only subtrees that
    contain an error (the error query takes seconds on hostile trees)."""
    count = widest = 0
    stack = [(root, False)] if root.has_error else []
    while stack:
        node, in_error = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        if node.is_error:
            widest = max(widest, node.child_count)
        in_error = in_error or node.is_error  # inside an ERROR node, has_error does not mark nested ones
        stack.extend((child, in_error) for child in node.children if in_error or child.has_error)
    return count, widest


class _Matches(NamedTuple):
    """The combined query's matches, by what the pattern captures (each a list of capture dicts)."""

    definitions: list
    calls: list
    assignments: list
    macros: list
    declarations: list
    members: list
    refs: list
    imports: list
    syntax: list


class _Entry(NamedTuple):
    """One definition or module-level statement, before it becomes a Unit."""

    start_byte: int  # where the unit starts: its leading decorators or comments included
    neg_end: int  # -end_byte: sorting on (start_byte, neg_end) puts outer units first
    node: Node
    kind: str
    name_node: Node | None
    span: Node  # the node whose end is the unit's end
    leading: list  # decorators / annotations before it
    start: Node  # the node the unit starts at
    end: Node  # the node the unit ends at: the span, or a sibling that belongs to it (a getter)


def _extract(path: str, language: str, source: bytes, tree: Tree, digest: str, size: int) -> FileFacts:
    c = compiled(language)
    spec = c.spec
    root = tree.root_node
    errors, matches = _match(c, root)
    # 1. definitions, outermost first, with their parents from span containment
    units, supertypes = _units(path, source, spec, root, matches.definitions)
    supertypes += _prototype_supertypes(spec, root, units, supertypes)
    if matches.declarations:
        units = _with_local_types(units, matches.declarations, spec.implicit_parameter, keep_outer=not spec.complete_locals,
                                  entered=spec.entered)
    if matches.members:
        units = _with_attrs(units, matches.members, spec.assigned_fields)
    # 2. calls, each attributed to its innermost enclosing unit
    calls = _calls(spec, units, matches)
    # 3. imports, and the names a file-scoped language refers to
    imports = _imports(spec, matches.imports)
    refs: list[Call] = []
    if matches.refs:
        bound = None
        if spec.file_scoped_names:
            bound = frozenset(u.name for u in units if u.kind != "statement") | frozenset(
                imp.alias or imp.name for imp in imports if imp.name not in ("", "*")
            )
        refs = _refs(units, matches.refs, bound)

    return FileFacts(
        path=path,
        language=language,
        sha256=digest,
        size=size,
        lines=source.count(b"\n") + (0 if source.endswith(b"\n") or not source else 1),
        units=tuple(units),
        calls=tuple(calls),
        imports=tuple(imports),
        supertypes=tuple(supertypes),
        package=spec.package(root),
        parse_errors=errors,
        referenced=referenced_names(calls, imports, supertypes, refs),
        refs=tuple(refs),
        distill_marks=_distill_marks(spec, units, matches.syntax),
        export_aliases=spec.export_aliases(root),
        platform_variant=spec.platform_variant(source),
    )


def _prototype_supertypes(spec: LanguageSpec, root: Node, units: list[Unit], known: list[Supertype]) -> list[Supertype]:
    """The supertypes a module gives its constructor functions by wiring their prototypes
    (`spec.prototype_bases`), each on the module-level unit of the constructor's name."""
    out: list[Supertype] = []
    for name, base in spec.prototype_bases(root):
        owner = [u for u in units if u.qualname == name and u.parent is None and (u.is_callable or u.is_type)]
        if len(owner) == 1:
            sup = Supertype(owner[0].id, last_segment(base), base[:200], "extends")
            if sup not in known and sup not in out:
                out.append(sup)
    return out


def _distill_marks(spec: LanguageSpec, units: list[Unit], found: list) -> bytes:
    """`FileFacts.distill_marks`: the error handlers' spans, sorted, and the boundary marks by start (outer first),
    each owned by the innermost enclosing callable or statement (a unit index), with its node type, tier, bytes
    and lines; marshal bytes, b"" when none."""
    regions = sorted((n.start_byte, n.end_byte) for caps in found for n in caps.get("error_region", ()))
    nodes = sorted((n for caps in found for n in caps.get("boundary_mark", ())), key=lambda n: (n.start_byte, -n.end_byte))
    types = dict(spec.boundary_nodes)
    owners = sorted((i for i, u in enumerate(units) if u.is_callable or u.kind == "statement"),
                    key=lambda i: (units[i].start_byte, -units[i].end_byte))
    starts, ends = [units[i].start_byte for i in owners], [units[i].end_byte for i in owners]
    # before[k]: the last owner before k that ends after it; those between end within k (a stack pass), so the
    # search for an owner skips them: a step per enclosing level, not per sibling (hostile files have 10,000s)
    before, stack = [], []
    for k, end in enumerate(ends):
        while stack and ends[stack[-1]] <= end:
            stack.pop()
        before.append(stack[-1] if stack else -1)
        stack.append(k)
    marks = []
    for node in nodes:
        tier = spec.boundary_tier(node, types[node.type])
        if not tier:
            continue
        at = bisect_right(starts, node.start_byte) - 1  # the innermost owner is the last one in order that holds it
        while at >= 0 and ends[at] < node.end_byte:
            at = before[at]
        if at < 0:
            continue
        marks.append((owners[at], node.type, tier, node.start_byte, node.end_byte, _line(node), _end_line(node)))
    return marshal.dumps((regions, marks)) if regions or marks else b""


def _match(c: Compiled, root: Node) -> tuple[int, _Matches]:
    """(syntax errors, the combined query's matches split by pattern group); raises SourceError
    for a tree too broken or too slow to query."""
    deadline = time.monotonic() + PARSE_TIMEOUT_S  # query walks are slow on pathologically deep trees
    # No progress_callback here: py-tree-sitter 0.26 segfaults with one on ordinary files
    # (seen on Django 5.2.8); deep trees are bounded before this point (parse deadline, size).
    errors, widest_error = _error_stats(root)
    if widest_error > MAX_ERROR_WIDTH:  # query time grows with its square: 130,000 unclosed `[` took 12 s
        raise SourceError(f"syntax error spanning {widest_error:,} tokens (over {MAX_ERROR_WIDTH:,}): too broken to index")
    matched = QueryCursor(c.combined).matches(root)
    if time.monotonic() > deadline:
        raise SourceError(f"extraction timed out after {PARSE_TIMEOUT_S:g} s")
    out = _Matches([], [], [], [], [], [], [], [], [])
    syntax_start = c.combined.pattern_count - c.n_syntax
    calls_end = c.n_definitions + c.n_calls
    assignments_end = calls_end + c.n_assignments
    declarations_end = assignments_end + c.n_macros + c.n_declarations
    for pattern, caps in matched:
        if pattern >= syntax_start:
            out.syntax.append(caps)
        elif pattern < c.n_definitions:
            out.definitions.append(caps)
        elif pattern < calls_end:
            out.calls.append(caps)
        elif pattern < assignments_end:
            out.assignments.append(caps)
        elif pattern < assignments_end + c.n_macros:
            out.macros.append(caps)
        elif pattern < declarations_end:
            out.declarations.append(caps)
        elif pattern < declarations_end + c.n_members:
            out.members.append(caps)
        elif pattern < declarations_end + c.n_members + c.n_refs:
            out.refs.append(caps)
        else:
            out.imports.append(caps)
    return errors, out


def _entries(spec: LanguageSpec, root: Node, def_matches: list) -> tuple[list[_Entry], dict[int, tuple]]:
    """Definitions and module-level statements in source order, outer first; and per node id
    its (node, kind, name node) — for a statement (node, statement kind, label)."""
    raw_defs: dict[int, tuple] = {}
    for caps in def_matches:
        name_nodes = caps.get("name")
        kind_key = next((k for k in caps if k != "name"), None)
        if not name_nodes or kind_key is None:
            continue
        node = caps[kind_key][0]
        raw_defs.setdefault(node.id, (node, kind_key, name_nodes[0]))
    entries = []
    for node, kind, name_node in raw_defs.values():
        span = _span_node(spec, node)
        leading = _leading(spec, span)
        start = leading[0] if leading else span
        refined = spec.refine_kind(node, kind)
        if not refined:
            continue  # the spec declines this capture (e.g. a constant holding a plain literal)
        end = span
        while spec.trailing_types and (nxt := end.next_named_sibling) is not None and nxt.type in spec.trailing_types:
            end = nxt
        entries.append(_Entry(start.start_byte, -end.end_byte, node, refined, name_node, span, leading, start, end))
    statements = spec.module_statements(root)
    statement_spans = {(stmt.start_byte, stmt.end_byte) for stmt, _, _ in statements}
    # A module-level statement that is also a constant definition stays one unit: the statement.
    entries = [e for e in entries if not (e.kind == "variable" and (e.start.start_byte, e.span.end_byte) in statement_spans)]
    for stmt, stmt_kind, label in statements:
        entries.append(_Entry(stmt.start_byte, -stmt.end_byte, stmt, "statement", None, stmt, [], stmt, stmt))
        raw_defs[stmt.id] = (stmt, stmt_kind, label)
    entries.sort(key=lambda e: (e.start_byte, e.neg_end))
    return entries, raw_defs


def _units(path: str, source: bytes, spec: LanguageSpec, root: Node, def_matches: list) -> tuple[list[Unit], list[Supertype]]:
    entries, raw_defs = _entries(spec, root, def_matches)
    units: list[Unit] = []
    supertypes: list[Supertype] = []
    stack: list[Unit] = []
    used_ids: dict[str, int] = {}
    type_units: dict[str, str] = {}  # type name → unit id in this file (Go receivers)
    for start_byte, neg_end, node, kind, name_node, span, leading, start, end in entries:
        while stack and stack[-1].end_byte <= start_byte:
            stack.pop()
        parent = stack[-1] if stack else None
        receiver_bound = False
        if kind == "statement":
            _, stmt_kind, label = raw_defs[node.id]
            name = label if isinstance(label, str) else ""
            qualname = f"<{stmt_kind}@{_line(node)}>"
        else:
            stmt_kind = ""
            name = text(name_node)
            if kind == "impl":
                name = last_segment(name)
            qual_parent = parent.qualname if parent is not None and parent.kind != "statement" else ""
            receiver = spec.receiver_type(node)
            if receiver:
                qual_parent = receiver
            qualname = f"{qual_parent}.{name}" if qual_parent else name
            if kind == "function" and parent is not None and parent.is_type:
                kind = "method"
            if receiver and parent is None:
                receiver_bound = True
                parent_id = type_units.get(receiver)
                parent = next((u for u in units if u.id == parent_id), None) if parent_id else None
        uid = f"{path}::{qualname}"
        n = used_ids.get(uid, 0) + 1
        used_ids[uid] = n
        if n > 1:
            uid = f"{uid}#{n}"
        unit = _unit(source, spec, _Entry(start_byte, neg_end, node, kind, name_node, span, leading, start, end),
                     path, uid, name, qualname, stmt_kind, parent)
        if parent is not None and parent.decorators and kind != "statement" and not receiver_bound:
            unit = _with_test_cfg(unit, parent)
        units.append(unit)
        stack.append(unit)
        if unit.is_type:
            type_units.setdefault(name, uid)
            for sup_text, sup_kind in spec.supertypes(node):
                sup_name = last_segment(sup_text)
                if sup_name:
                    supertypes.append(Supertype(uid, sup_name, sup_text[:200], sup_kind))
    return units, supertypes


def _with_test_cfg(unit: Unit, parent: Unit) -> Unit:
    """A Rust item inside a test-only module or impl (`#[cfg(test)] mod test_util { … }`) carries
    that attribute too, unless its own attributes already make it test code (`#[test]`): the
    compiler removes it with its container, whatever its own name."""
    inherited = next((d for d in parent.decorators if rust_test_attribute(d)), None)
    if inherited is None or any(rust_test_attribute(d) for d in unit.decorators):
        return unit
    return unit._replace(decorators=(*unit.decorators, inherited))


def _arity(params: Node) -> int:
    """How many parameters a list declares: Go's `a, b int` is one declaration of two."""
    return sum(max(1, len(p.children_by_field_name("name"))) for p in params.named_children)


def _unit(source: bytes, spec: LanguageSpec, e: _Entry, path: str, uid: str, name: str, qualname: str, stmt_kind: str,
          parent: Unit | None) -> Unit:
    """One Unit: spans, signature end, parameters, decorators, doc."""
    node, kind, name_node, span, leading, start = e.node, e.kind, e.name_node, e.span, e.leading, e.start
    body = _body(spec, node) if kind != "statement" else None
    sig_end = body.start_byte if body is not None and body.start_byte > node.start_byte else node.end_byte
    if kind in ("class", "struct", "interface", "trait", "enum", "record", "object") and body is not None and body.type not in spec.body_types and body.type != "block":
        sig_end = node.end_byte
    sig_text_end = sig_end
    while sig_text_end > node.start_byte and source[sig_text_end - 1 : sig_text_end] in (b" ", b"\t", b"\n", b"\r"):
        sig_text_end -= 1
    # newlines from the node's own first line: only the signature is scanned
    sig_end_line = node.start_point.row + 1 + source.count(b"\n", node.start_byte, sig_text_end)
    params = _parameters(node) if kind in ("function", "method", "constructor") else None
    param_names, param_types = _param_names(params) if params is not None else ((), ())
    if spec.bounded_generics and param_types:  # `c: &C` with `C: Consumer`: a value of the bound
        bounds = generic_bounds(node, spec.marker_bounds)
        param_types = tuple(bounds.get(t, t) for t in param_types)
    elif spec.bounded_generics and kind == "impl":  # `impl<C: Consumer> … for Map<C>`: its fields of type C
        bounds = generic_bounds(node, spec.marker_bounds)
        param_names, param_types = tuple(bounds), tuple(bounds.values())
    return Unit(
        id=uid,
        path=path,
        name=name,
        qualname=qualname,
        kind=kind,
        start_byte=start.start_byte,
        end_byte=-e.neg_end,
        start_line=_line(start),
        end_line=_end_line(e.end),
        name_line=_line(name_node) if name_node is not None and kind != "impl" else _line(node),
        sig_end_line=max(sig_end_line, _line(node)),
        sig_end_byte=sig_text_end,
        parent=parent.id if parent is not None else None,
        decorators=_decorators(spec, span, node, leading) if kind != "statement" else (),
        doc=_doc(spec, span, body) if kind != "statement" else "",
        stmt_kind=stmt_kind,
        params=_arity(params) if params is not None else -1,
        arity=spec.arity(params) if params is not None else (),
        param_names=param_names,
        param_types=param_types,
        receiver=spec.receiver_name(node) if kind in ("method", "constructor") or (kind == "function" and spec.function_receiver) else "",
        returns=(_type_name(spec.return_type(node)) or (parent.name if kind == "method" and parent is not None and parent.is_type
                                                         and spec.returns_self(node) else "") if kind in ("function", "method")
                 else _type_name(spec.variable_type(node)) if kind == "variable" and parent is None else ""),
        results=_result_types(spec.return_type(node)) if kind in ("function", "method") else (),
        ext_type=spec.extension_type(node) if kind in ("function", "method") else "",
        assigned_to=spec.assigned_to(node) if kind != "statement" else "",
    )


def _calls(spec: LanguageSpec, units: list[Unit], matches: _Matches) -> list[Call]:
    """Calls (and constructions), each attributed to its innermost enclosing unit by a sweep
    over the units' sorted spans."""
    call_rows = []
    for caps in matches.calls:
        name_nodes = caps.get("name")
        node = (caps.get("call") or caps.get("construct") or [None])[0]
        if not name_nodes or node is None:
            continue
        receiver = caps.get("receiver")
        call_rows.append((node.start_byte, node, name_nodes[0], receiver[0] if receiver else None, "construct" in caps))
    # calls among macro tokens come as finished rows: (start, None, MacroCall, None, False)
    for caps in matches.macros:
        for node in caps.get("macro", []):
            call_rows.extend((row[0], None, row, None, False) for row in spec.macro_calls(node))
    call_rows.sort(key=itemgetter(0))
    calls: list[Call] = []
    assigned = _assigned_calls(matches.assignments)
    ordered = sorted(units, key=lambda u: (u.start_byte, -u.end_byte))
    open_stack: list[Unit] = []
    i = 0
    seen_calls: set[int] = set()
    alias_cache: dict = {}  # function node id → the names it binds (spec.this_alias)
    # lambdas with a receiver seen so far (rows are in source order: a scope function's call comes
    # before the calls in its lambda): (body start, body end, receiver)
    scopes: list[tuple[int, int, str]] = []
    receiver_lambdas = spec.receiver_lambdas
    for start_byte, node, name_node, receiver_node, construct in call_rows:
        if node is not None:
            if node.id in seen_calls:
                continue
            seen_calls.add(node.id)
        while i < len(ordered) and ordered[i].start_byte <= start_byte:
            while open_stack and open_stack[-1].end_byte <= ordered[i].start_byte:
                open_stack.pop()
            open_stack.append(ordered[i])
            i += 1
        while open_stack and open_stack[-1].end_byte <= start_byte:
            open_stack.pop()
        caller = open_stack[-1].id if open_stack else None
        if node is None:  # a call among a macro's tokens
            _, end_byte, line, name, receiver = name_node
            calls.append(_new_tuple(Call, (caller, name, receiver, line, start_byte, end_byte, False, "", "", -1, "", "")))
            continue
        name = name_node.text.decode("utf-8", "replace")
        if construct:
            name = last_segment(name)
        receiver = receiver_node.text.decode("utf-8", "replace")[:MAX_RECEIVER] if receiver_node is not None else ""
        if spec.this_alias is not None and receiver and receiver_node is not None and open_stack and not receiver.startswith("this"):
            receiver = _this_alias(spec, receiver_node, receiver, open_stack[-1], alias_cache)
        if name in receiver_lambdas:
            scope = spec.lambda_receiver(node, name, receiver_node)
            if scope is not None:
                scopes.append(scope)
        local, rest = assigned.get(node.id, _UNASSIGNED)
        within = _within(scopes, start_byte, open_stack[-1].start_byte if open_stack else -1) if scopes else ""
        # tuple.__new__: the generated NamedTuple __new__ costs more than the rest of the row
        calls.append(
            _new_tuple(Call, (caller, name, receiver, node.start_point.row + 1, start_byte, node.end_byte, construct, text(local) if local is not None else "", rest,
                              spec.call_args(node), within, spec.call_arg_words(node)))
        )
    return calls


def _this_alias(spec: LanguageSpec, receiver_node: Node, receiver: str, caller: Unit, cache: dict) -> str:
    """The receiver with `this` for a first name holding the caller's own `this` (`self.finish` →
    `this.finish` where the caller said `var self = this;`); unchanged otherwise. The function
    holding the alias must be the caller itself (its span ends where the caller's does), not a
    function nested in it."""
    span = spec.this_alias(receiver_node, cache)
    if span is None or not (caller.start_byte <= span[0] and caller.end_byte - 2 <= span[1] <= caller.end_byte):
        return receiver
    return "this" + receiver[len(receiver.split(".", 1)[0]):]


def _within(scopes: list[tuple[int, int, str]], at: int, unit_start: int) -> str:
    """The receiver of the innermost lambda with receiver around the call at `at` (`Call.within`):
    "" when none, or when the call's unit begins inside it (a local function, an object: their own
    `this` comes first); "?" inside two of them (the inner receiver, written in the outer one's
    scope, may be a member of the outer one)."""
    around = [s for s in scopes if s[0] <= at < s[1]]
    if not around:
        return ""
    inner = max(around)
    if unit_start >= inner[0]:
        return ""
    return inner[2] if len(around) == 1 else "?"


_UNASSIGNED = (None, "")


def _imports(spec: LanguageSpec, import_matches: list) -> list[Import]:
    imports: list[Import] = []
    for caps in import_matches:
        for node in caps.get("import", []):
            try:
                imports.extend(spec.parse_import(node))
            except (AttributeError, IndexError, ValueError):
                continue
    return imports


def reading_language(language: str, source: bytes) -> str:
    """The spec that reads a file of `language` with this source: its own, or the dialect it names
    (a Flow-annotated JavaScript file is read as TSX); the file's facts carry that language."""
    return BY_NAME[language].dialect(source) or language


def extract_source(path: str, language: str, raw: bytes) -> tuple[FileFacts, bytes, Tree]:
    """Decodes, parses and extracts one file; raises SourceError with a reason users can read."""
    source = decode_source(raw, language)
    language = reading_language(language, source)
    tree = parse(language, source)
    return extract(path, language, source, tree, sha256(raw), len(raw)), source, tree
