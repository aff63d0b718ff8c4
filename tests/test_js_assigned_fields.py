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


CONSTRUCTOR = {
    "lib/core.js": "function Core() {}\nCore.prototype.process = function (s) { return s; };\nmodule.exports = Core;\n",
    "lib/index.js": (
        "var Core = require('./core');\n"
        "function MarkdownIt() {\n  this.core = new Core();\n  this.core.process('x');\n}\n"
        "MarkdownIt.prototype.parse = function (src) { return this.core.process(src); };\n"
        "MarkdownIt.prototype.swap = function () { this.other = new Core(); this.other = {}; return this.other.process(1); };\n"
        "module.exports = MarkdownIt;\n"
    ),
}


def test_a_member_a_constructor_function_assigns_binds_calls_in_its_prototype_methods(tmp_path):
    index = index_of(tmp_path, CONSTRUCTOR)
    assert target(index, "lib/index.js", "process", 0) == "lib/core.js::Core.process"  # in the constructor
    assert target(index, "lib/index.js", "process", 1) == "lib/core.js::Core.process"  # in a prototype method
    assert target(index, "lib/index.js", "process", 2) is None  # assigned two values
