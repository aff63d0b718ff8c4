"""Language-aware syntax signals: registrations, I/O interfaces, error and cleanup boundaries.

These are *signals*, never proof: a registration does not prove the host activates it, an
I/O call does not prove persistence at run time. Tiers: 1 = binding-backed, 2 = explicit
syntax, 3 = heuristic candidate.
"""

from __future__ import annotations

import marshal
import re
from dataclasses import dataclass
from functools import lru_cache

from ..index.facts import Call, FileFacts, Unit
from ..languages import BY_NAME

# Decorators / annotations / attributes that register a handler with a framework or host.
REGISTRATION_DECORATOR = re.compile(
    r"^(@|#\[)\s*(?:[\w.]+\.)?(route|get|post|put|patch|delete|head|options|websocket|api_route|command|group|task|"
    r"shared_task|on|on_event|listener|handler|event|callback|subscribe|middleware|exception_handler|hook|register|"
    r"receiver|app\.\w+|(Get|Post|Put|Patch|Delete|Request)Mapping|Scheduled|EventListener|KafkaListener|"
    r"RabbitListener|GET|POST|PUT|DELETE|PATCH|Path|Command)\b"
)
# Calls in a top-level statement that register something with a host (`app.use(...)`, `app.get(...)`).
REGISTRATION_CALLS = frozenset({
    "use", "get", "post", "put", "patch", "delete", "all", "route", "listen", "on", "command", "register",
    "add_url_rule", "include_router", "mount", "subscribe", "add_command", "add_typer", "add_route",
    "add_api_route", "register_blueprint", "handle", "HandleFunc", "Handle", "ListenAndServe", "parse", "run",
})

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


OUTPUT_TYPE = re.compile(r"(?i)(response|writer|stream|socket|channel|output|sink)$")


@lru_cache(maxsize=8192)
def output_like(text: str, declared: bool = False) -> bool:
    """A parameter's declared type (or, untyped, its name) says it is an output (OUTPUT_PARAM). A declared
    type is read by its words only: the short names (`w`, `out`) are a parameter's, and a type `W` is a
    generic parameter, not a writer."""
    return (OUTPUT_TYPE if declared else OUTPUT_PARAM).search(text) is not None


def output_tier(param_names: tuple[str, ...], calls: list[Call], param_types: tuple[str, ...] = ()) -> str:
    """The output parameter a unit writes to ('' when none): a write on (or a call of) one of its parameters."""
    params = {p.lstrip("*&") for p in param_names} - {"self", "this", ""}
    if not calls:
        return ""
    outputs: set[str] = set()
    if params:  # (most units take only their object, or nothing)
        typed = dict(zip((p.lstrip("*&") for p in param_names), param_types))
        outputs = {p for p in params if (output_like(typed[p], True) if typed.get(p) else output_like(p))}
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


def io_locals(facts: FileFacts) -> frozenset[str]:
    """Local names bound by imports of the language's I/O modules (`import sqlite3`,
    `import {promises as fs} from "fs"`); how an import names a module is the spec's module system."""
    spec = BY_NAME.get(facts.language)
    if spec is None or not spec.io_modules:
        return frozenset()
    mods, system = spec.io_modules, spec.module_system
    out: set[str] = set()
    for imp in facts.imports:
        if system == "package":  # `java.nio.file.Files` is in `java.nio.file`
            hit = any(imp.module == m or imp.module.startswith(m + ".") for m in mods)
        elif system == "crate":  # `use std::fs` or `use std::{fs}`
            hit = imp.module in mods or f"{imp.module}::{imp.name}" in mods
        elif system == "python":  # `import os.path` binds `os`
            hit = imp.module in mods or imp.module.replace("::", ".").split(".")[0] in mods
        else:
            hit = imp.module in mods
        if not hit:
            continue
        if imp.name in ("", "*"):
            out.add(imp.alias or (imp.module.split(".")[0] if system == "python" else imp.module.rsplit("/", 1)[-1]))
        else:
            out.add(imp.alias or imp.name)
    return frozenset(x for x in out if x)


_TIERED = WRITE_NAMES | READ_NAMES | RESOURCE_NAMES | NETWORK_NAMES | {"open"}  # the names a tier reads


def persistence_tier(calls: list[Call], io_names: frozenset[str], io_fields: frozenset[str]) -> int:
    """Best persistence tier of a unit's calls (0 = none)."""
    return persistence_call(calls, io_names, io_fields)[0]


def persistence_call(calls: list[Call], io_names: frozenset[str], io_fields: frozenset[str]) -> tuple[int, Call | None]:
    """Best persistence tier of a unit's calls (0 = none) and the first call that has it: the call a
    reason names, so a reader can check it (`writes through `fs.writeFileSync``)."""
    best, first = 0, None
    for c in calls:
        if c.name not in _TIERED and c.name not in io_names:  # most calls: no rule below can hold
            continue
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
        if best == 0 or tier < best:
            best, first = tier, c
        if best == 1:  # the best tier there is: the other calls cannot change it
            break
    return best, first


CALLEE = re.compile(rb"[^(\n{<!]*")


def call_text(c: Call, source: bytes) -> str:
    """A call's callee as a reader finds it in the body (`self.conn.commit`, `fs::write`, `w.Write`): its text
    up to the arguments when that ends with the name, else `receiver.name`."""
    m = CALLEE.match(source, c.start_byte, c.end_byte)
    text = "".join(m.group(0).decode("utf-8", "replace").strip().removeprefix("new ").split()) if m else ""
    if text.endswith(c.name) and 0 < len(text) <= 60:
        return text
    receiver = c.receiver
    while "(" in receiver and (elided := ARGS.sub("\x00", receiver)) != receiver:  # innermost arguments first
        receiver = elided
    receiver = receiver.replace("\x00", "(…)")  # `String(value.type || 'a').replace` → `String(…).replace`
    if len(receiver) > 40:
        receiver = "…" + receiver[-39:]
    return f"{receiver}.{c.name}" if receiver else c.name


ARGS = re.compile(r"\([^()]*\)")  # a call's arguments


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


def boundary_marks(facts: FileFacts) -> list[BoundaryMark]:
    """Boundary syntax of one file, each mark owned by its innermost enclosing callable/statement, by start
    (outer first): read from the facts (index/extract.py `_distill_marks`), no parse."""
    if not facts.distill_marks:
        return []
    units = facts.units
    return [BoundaryMark(units[owner].id, *rest) for owner, *rest in marshal.loads(facts.distill_marks)[1]]


def error_regions(facts: FileFacts | None) -> list[tuple[int, int]]:
    """The (start, end) bytes of one file's error handlers (the language's `catch_node`), sorted."""
    return marshal.loads(facts.distill_marks)[0] if facts is not None and facts.distill_marks else []


def is_registration_decorator(text: str) -> bool:
    return bool(REGISTRATION_DECORATOR.match(text.strip()))
