"""The byte patterns and limits the walk reads code with (shared by the graph, the plan and its stages)."""

from __future__ import annotations

import re


# `obj.attr = Foo(`: written from the dot (a literal first lets the scan skip ahead); the byte
# before it must be a word byte, checked per hit (the same matches as `\b\w+\.(\w+)…`).
# (possessive `++`/`*+`: the next byte is never one the shorter match could use, so the same matches; no backtracking
# through every `obj.name` of a file: half the time over a code base's sources)
ATTR_FROM_CONSTRUCT = re.compile(rb"\.(\w++)\s*+=\s*+(?:new\s+|await\s+)?([A-Z]\w*+)\s*+[(<{]")
WORD_BYTE = re.compile(rb"\w")
# `.name` read as a value: not called, not assigned, not followed by `.` or `[` (within 40 bytes, as _scan reads it)
MEMBER_READ = re.compile(rb"\.([A-Za-z0-9_]++)(?![ \t\n\r\x0b\x0c]{0,39}[(=.\[])")
# a body whose last expression builds a struct (`… Connection { conn, fallback } }`): its value, returned
TAIL_STRUCT = re.compile(rb"[;{}]\s*([A-Z]\w*)\s*\{[^;]*\}\s*\}\s*$")
RETURNS_NEW = re.compile(rb"\breturn\s+(?:new\s+|&)?([A-Z]\w*)\s*[({<]")  # `return new Foo(`, `return &Foo{`
# `self.f = g(`, `this.f = new G(`: matched from the dot (a literal: the scan skips ahead), the
# `self`/`this` before it checked per hit (`_fields_from_calls`: the matches of `\b(?:self|this)\.(\w+)…`).
FIELD_FROM_CALL = re.compile(rb"\.(\w++)\s*+=\s*+(?:new\s+|await\s+)?((?:self\.|this\.)?\w++)\s*+\(")  # (possessive: as above)
FIELD_FROM_PARAM = re.compile(rb"\b(?:self|this)\.(\w+)\s*=\s*(\w+)\s*;?\s*$", re.M)
LIKELY_MAX = 3
QUOTED_NAME = re.compile(rb"""['\"]([A-Za-z_$][\w$]*)['\"]""")
WIRED_NAMES_MIN = 3  # a registration naming this many members of the flow wires them (one or two may be labels)
# Types that only hold one value of their type argument: a field declared `Option<Conn>` holds a Conn
VALUE_WRAPPERS = frozenset({"Option", "Box", "Arc", "Rc", "Pin", "RefCell", "Cell", "Mutex", "RwLock", "Optional"})
QUALIFIED_NEW = re.compile(rb"new\s+([A-Za-z_$][\w$]*)\.[\w$.]*[\w$]")  # `new pkg.Type.Inner(`: its first qualifier
FAMILY_MAX = 24
# a receiver as a callable's first parameter (Rust `self`, `&self`, `&'a mut self`, `mut self: Pin<…>`)
RECEIVER_PARAM = re.compile(rb"\s*(?:&\s*)?(?:'\w+\s+)?(?:mut\s+)?self\b")
# the ranked graph's rules that follow a built future or a future held in a declared field (`_poll_chain`), and
# the confidence they must reach: its typed rules (0.95), a built future's `poll` (0.9, 0.81 when the
# construction itself was guessed), a field destructured from the object (0.8)
POLL_CHAIN_RULES = frozenset({"built-protocol", "field-type", "field-binding"})
POLL_CHAIN_CONFIDENCE = 0.8
MAX_DEPTH = 12
CAPS = {"entry": 4, "assembly": 6, "core": 13, "sink": 5, "boundary": 4}
TOTAL = 30
# error syntax named in a body (`try`, `catch`, `except`, `recover()`, `throw`, `raise`, Go's new errors): a
# cheap filter before the language's own boundary syntax is parsed
ERROR_WORDS = re.compile(rb"\b(?:try|catch|except|recover|throw|raise|Errorf)\b|\berrors\.New\b")
QUERY_REACH = 16  # a query (`is…`, `has…`, `get…`) setting fewer units in motion answers a question: a helper
FEW_CALLEES = 8  # a unit that calls more distinct units than this sets the flow in motion: not a writer
MAX_OUTER_BYTES = 12_000  # a closure's enclosing function is read whole up to this size
SMALL_TYPE_BYTES = 4_000  # a type this small is read whole in the place of its picked members
WHOLE_TYPE_BYTES = 8_000  # a larger one only when that saves places, up to this size …
WHOLE_TYPE_EXTRA = 2_000  # … and at most this much larger than the members it stands for
