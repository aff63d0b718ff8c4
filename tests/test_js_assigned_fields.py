"""A JavaScript class's member holds the type every assignment of it in the class makes: `this.lexer
= new Lexer(…)` in the constructor, and `this.lexer.peek()` in a method reaches Lexer's `peek`. A
member the class assigns two different values (a state it swaps, a value handed in) holds neither:
a call through it stays unknown. Clearing it (`this.lexer = null`) writes no other type."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "lib/lexer.js": "class Lexer {\n  peek() { return 1; }\n}\nmodule.exports = Lexer;\n",
    "lib/states.js": "class Idle { handle() {} }\nclass Running { handle() {} }\nmodule.exports = { Idle, Running };\n",
    "lib/parser.js": (
        "const Lexer = require('./lexer');\nconst { Idle, Running } = require('./states');\n"
        "class Parser {\n"
        "  constructor(str) { this.lexer = new Lexer(str); this.state = new Idle(); this.conn = new Lexer(); }\n"
        "  next() { return this.lexer.peek(); }\n"
        "  run() { this.state = new Running(); this.state.handle(); }\n"
        "  use(conn) { this.conn = conn; return this.conn.peek(); }\n"
        "  close() { this.lexer = null; }\n"
        "}\nmodule.exports = Parser;\n"
    ),
}


def test_a_member_one_construction_assigns_binds_calls_through_its_class(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/parser.js", "peek", 0) == "lib/lexer.js::Lexer.peek"


def test_a_member_assigned_different_values_binds_nothing(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/parser.js", "handle") is None
    assert target(index, "lib/parser.js", "peek", 1) is None
