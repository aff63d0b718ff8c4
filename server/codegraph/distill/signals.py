"""Language-aware syntax signals: registrations, I/O interfaces, error and cleanup boundaries.

These are *signals*, never proof: a registration does not prove the host activates it, an
I/O call does not prove persistence at run time. Tiers: 1 = binding-backed, 2 = explicit
syntax, 3 = heuristic candidate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Query, QueryCursor

from ..index.extract import compiled, parse
from ..index.facts import Call, FileFacts, Unit

# Decorators / annotations / attributes that register a handler with a framework or host.
REGISTRATION_DECORATOR = re.compile(
    r"^(@|#\[)\s*(?:[\w.]+\.)?(route|get|post|put|patch|delete|head|options|websocket|api_route|command|group|task|"
    r"shared_task|on|on_event|listener|handler|event|callback|subscribe|middleware|exception_handler|hook|register|"
    r"receiver|app\.\w+|(Get|Post|Put|Patch|Delete|Request)Mapping|Scheduled|EventListener|KafkaListener|"
    r"RabbitListener|GET|POST|PUT|DELETE|PATCH|Path|Command)\b"
)
ASYNC_MAIN_ATTR = re.compile(r"^#\[\s*(tokio|actix_web|actix_rt|async_std|rocket)::main\b")
# Calls in a top-level statement that register something with a host (`app.use(...)`, `app.get(...)`).
REGISTRATION_CALLS = frozenset({
    "use", "get", "post", "put", "patch", "delete", "all", "route", "listen", "on", "command", "register",
    "add_url_rule", "include_router", "mount", "subscribe", "add_command", "add_typer", "add_route",
    "add_api_route", "register_blueprint", "handle", "HandleFunc", "Handle", "ListenAndServe", "parse", "run",
})

IO_MODULES = {
    # Serialization modules (json, yaml, pickle, tomllib, marshal) are not here: turning a
    # string into values is parsing, not persistence; their file forms (`dump`, `load`)
    # still count through the write/read names below.
    "python": {"sqlite3", "shelve", "csv", "os", "io", "shutil", "pathlib", "tempfile", "sqlalchemy",
               "psycopg2", "psycopg", "pymysql", "redis", "boto3", "gzip", "zipfile", "tarfile", "dbm",
               "aiofiles", "asyncpg", "pymongo", "socket"},
    "go": {"os", "io", "io/ioutil", "bufio", "database/sql", "encoding/gob", "encoding/csv", "path/filepath", "net"},
    "js": {"fs", "fs/promises", "node:fs", "node:fs/promises", "better-sqlite3", "sqlite3", "pg", "mysql2", "redis",
           "ioredis", "mongodb", "mongoose", "level", "knex", "typeorm", "prisma", "@prisma/client"},
    "rust": {"std::fs", "std::io", "tokio::fs", "tokio::io", "rusqlite", "sqlx", "diesel", "sled", "fs", "io"},
    "jvm": {"java.io", "java.nio.file", "java.sql", "javax.persistence", "jakarta.persistence", "java.nio.channels"},
}
WRITE_NAMES = frozenset({
    "write", "writelines", "write_text", "write_bytes", "save", "commit", "execute", "executemany", "executescript", "insert",
    "insert_one", "insert_many", "update_one", "update_many", "upsert", "flush", "fsync", "sync", "dump", "persist", "store",
    "rollback", "Exec", "ExecContext", "Commit", "Rollback", "WriteFile", "writeFile", "writeFileSync", "appendFile",
    "appendFileSync", "createWriteStream", "Write", "WriteString", "Encode", "Sync", "Flush", "executeUpdate", "saveAll",
    "Fprintf", "Fprintln", "replace", "rename", "unlink", "mkdir", "makedirs", "copyfile", "set", "hset", "put_object",
})
READ_NAMES = frozenset({
    "read", "read_text", "read_bytes", "load", "fetchone", "fetchall", "fetchmany", "Query", "QueryRow",
    "QueryContext", "Scan", "readFile", "readFileSync", "ReadFile", "ReadAll", "Decode", "executeQuery", "find_one",
    "readdir", "readdirSync", "get_object", "hget",
})
# Calls that send a request over the network (the platform's own clients).
NETWORK_NAMES = frozenset({"fetch", "urlopen", "sendall", "Dial", "DialContext", "RoundTrip", "newCall", "sendto"})
RESOURCE_NAMES = frozenset({
    "open", "connect", "cursor", "close", "Open", "OpenFile", "Create", "Close", "createConnection", "getConnection",
    "NewWriter", "NewReader", "create_engine", "Session", "begin", "transaction",
})

# Calls that hand a result to an output the caller passed in (`send(message)` in an ASGI app,
# `w.Write(b)` on a Go ResponseWriter, `res.end()`): where results leave.
OUTPUT_NAMES = frozenset({"send", "sendall", "write", "Write", "WriteHeader", "WriteString", "writeHead", "end",
                          "setHeader", "set_cookie", "set_header", "append", "removeHeader",
                          "flush", "Flush", "start_response", "emit", "onNext", "onSuccess", "onError", "resolve", "reject"})


# A parameter that is an output by its declared type (or, untyped, by its name): a response, a
# writer, a stream, a socket. Mutating calls on it hand results out of the unit.
OUTPUT_PARAM = re.compile(r"(?i)(response|writer|stream|socket|channel|output|sink)$|^(res|resp|w|out)$")
QUERY_CALL = re.compile(r"^(get|is|has|can|to|as|read)[A-Z_]|^(get|is|has|len|size|read)$")


def output_tier(param_names: tuple[str, ...], calls: list[Call], param_types: tuple[str, ...] = ()) -> str:
    """The output parameter a unit writes to ('' when none): a write on (or a call of) one of its parameters."""
    params = {p.lstrip("*&") for p in param_names} - {"self", "this", ""}
    if not calls:
        return ""
    typed = dict(zip((p.lstrip("*&") for p in param_names), param_types))
    outputs = {p for p in params if OUTPUT_PARAM.search(typed.get(p, "") or p)}
    for c in calls:
        written = c.name in OUTPUT_NAMES
        if not (written or outputs):
            continue  # neither rule below can hold: the cheap test first
        root = c.receiver.split(".")[0].split("::")[0] if c.receiver else c.name
        if written and root in params:
            return root
        if c.receiver == root and root in outputs and not QUERY_CALL.search(c.name):
            return root
        last = c.receiver.rsplit(".", 1)[-1] if written and c.receiver else ""
        if last and last not in params and OUTPUT_PARAM.search(last):
            return c.receiver  # `res.end(body)`, `ctx.res.setHeader(...)`: written to the response it holds
    return ""


# Syntax that bounds the main path: (node type, tier). Handling and cleanup are explicit
# syntax (2); bare rejection (raise/throw/`?`/`if err != nil`) is a weaker candidate (3).
BOUNDARY_NODES = {
    "python": {"try_statement": 2, "with_statement": 2, "raise_statement": 3},
    "typescript": {"try_statement": 2, "throw_statement": 3},
    "tsx": {"try_statement": 2, "throw_statement": 3},
    "javascript": {"try_statement": 2, "throw_statement": 3},
    "java": {"try_statement": 2, "try_with_resources_statement": 2, "throw_statement": 3},
    "kotlin": {"try_expression": 2},
    "go": {"defer_statement": 2, "if_statement": 4, "return_statement": 3},
    "rust": {"try_expression": 3},
}


def io_family(language: str) -> str:
    if language in ("typescript", "tsx", "javascript"):
        return "js"
    if language in ("java", "kotlin"):
        return "jvm"
    return language


def io_locals(facts: FileFacts) -> frozenset[str]:
    """Local names bound by imports of I/O modules (`import sqlite3`, `import {promises as fs} from "fs"`)."""
    mods = IO_MODULES.get(io_family(facts.language), set())
    out: set[str] = set()
    for imp in facts.imports:
        module = imp.module.replace("::", ".") if facts.language != "rust" else imp.module
        hit = imp.module in mods or module.split(".")[0] in mods and facts.language == "python"
        if facts.language in ("java", "kotlin"):
            hit = any(imp.module == m or imp.module.startswith(m + ".") for m in mods)
        if facts.language == "rust":
            hit = imp.module in mods or f"{imp.module}::{imp.name}" in mods
        if not hit:
            continue
        if imp.name in ("", "*"):
            out.add(imp.alias or (imp.module.split(".")[0] if facts.language == "python" else imp.module.rsplit("/", 1)[-1]))
        else:
            out.add(imp.alias or imp.name)
    return frozenset(x for x in out if x)


def persistence_tier(calls: list[Call], io_names: frozenset[str], io_fields: frozenset[str]) -> int:
    """Best persistence tier of a unit's calls (0 = none)."""
    best = 0
    for c in calls:
        io_name = c.name in WRITE_NAMES or c.name in READ_NAMES or c.name in RESOURCE_NAMES
        if io_name and ((c.receiver.split(".")[0].split("::")[0] if c.receiver else c.name) in io_names
                        or c.receiver in io_fields):
            tier = 1  # bound to an imported I/O interface (or a field holding one)
        elif not c.receiver and c.name in io_names:
            tier = 1  # `from json import dump` … `dump(...)`
        elif (c.name in WRITE_NAMES and c.receiver) or (not c.receiver and c.name == "open") or c.name in NETWORK_NAMES:
            tier = 2
        elif (c.name in READ_NAMES or c.name in RESOURCE_NAMES) and c.receiver:
            tier = 3
        else:
            continue
        best = tier if best == 0 else min(best, tier)
    return best


def io_fields(unit: Unit, calls: list[Call], io_names: frozenset[str], source: bytes) -> set[str]:
    """Fields assigned from an I/O interface in this unit: `self.conn = sqlite3.connect(...)`."""
    out = set()
    lines: list[bytes] | None = None  # split only when a call is on an I/O name
    for c in calls:
        root = c.receiver.split(".")[0] if c.receiver else ""
        if root not in io_names:
            continue
        if lines is None:
            lines = source.split(b"\n")
        if c.line - 1 >= len(lines):
            continue
        m = re.match(rb"\s*((?:self|this|" + re.escape(unit.receiver.encode() or b"self") + rb")\.\w+)\s*(?::[^=]*)?=[^=]", lines[c.line - 1])
        if m:
            out.add(m.group(1).decode("utf-8", "replace"))
    return out


@dataclass(frozen=True, slots=True)
class BoundaryMark:
    unit: str
    node_type: str
    tier: int
    start_byte: int
    end_byte: int
    start_line: int
    end_line: int


_queries: dict[str, Query] = {}
GO_NEW_ERROR = re.compile(rb"\b(?:fmt\.Errorf|errors\.New)\s*\(|&?\w*Error\s*\{")


def boundary_marks(facts: FileFacts, source: bytes) -> list[BoundaryMark]:
    """Boundary syntax of one file, each mark owned by its innermost enclosing callable/statement."""
    types = BOUNDARY_NODES.get(facts.language)
    if not types:
        return []
    c = compiled(facts.language)
    query = _queries.get(facts.language)
    if query is None:
        pattern = " ".join(f"({t}) @b" for t in sorted(types))
        query = _queries.setdefault(facts.language, Query(c.language, pattern))
    tree = parse(facts.language, source)
    owners = sorted((u for u in facts.units if u.is_callable or u.kind == "statement"), key=lambda u: (u.start_byte, -u.end_byte))
    marks = []
    for node in sorted(QueryCursor(query).captures(tree.root_node).get("b", []), key=lambda n: n.start_byte):
        tier = types[node.type]
        if node.type == "if_statement":  # Go: only `if err != nil` rejects (it hands the error on: the weakest mark)
            cond = node.child_by_field_name("condition")
            if cond is None or b"!= nil" not in (cond.text or b""):
                continue
        elif node.type == "return_statement":  # Go: `return fmt.Errorf(…)` makes a new error, as `raise` does
            if not GO_NEW_ERROR.search(node.text or b""):
                continue
        elif node.type == "defer_statement" and b"recover()" not in (node.text or b""):
            tier = 4  # Go: a deferred cleanup; only `recover()` catches
        owner = None
        for u in owners:  # innermost = last containing unit in (start, -end) order
            if u.start_byte <= node.start_byte and node.end_byte <= u.end_byte:
                owner = u
        if owner is None:
            continue
        end_row, end_col = node.end_point
        marks.append(BoundaryMark(owner.id, node.type, tier, node.start_byte, node.end_byte,
                                  node.start_point.row + 1, end_row if end_col == 0 and end_row > node.start_point.row else end_row + 1))
    return marks


def is_registration_decorator(text: str) -> bool:
    return bool(REGISTRATION_DECORATOR.match(text.strip()))


def is_async_main(text: str) -> bool:
    return bool(ASYNC_MAIN_ATTR.match(text.strip()))
