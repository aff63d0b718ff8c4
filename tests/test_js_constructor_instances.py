"""What `new T(…)` makes when T is a constructor function (its module gives T's prototype methods):
an instance whose calls reach those methods, whether the call is chained (`new Parser(s).parse()`)
or made on a local the construction initialised (`const p = new Parser(s); p.parse()`)."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "lib/parser.js": (
        "function Parser(str) { this.str = str; }\nParser.prototype.parse = function () { return this.str; };\n"
        "function helper() { return 1; }\nmodule.exports = { Parser, helper };\n"
    ),
    "lib/use.js": (
        "const { Parser, helper } = require('./parser');\n"
        "function run(s) {\n  const p = new Parser(s);\n  p.parse();\n  new Parser(s).parse();\n"
        "  const h = helper();\n  return h.parse();\n}\nmodule.exports = run;\n"
    ),
}


def test_a_constructor_function_s_instance_reaches_its_prototype_methods(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/use.js", "parse", 0) == "lib/parser.js::Parser.parse"
    assert target(index, "lib/use.js", "parse", 1) == "lib/parser.js::Parser.parse"


def test_a_plain_function_s_result_is_no_instance(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/use.js", "parse", 2) is None
