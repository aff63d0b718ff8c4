"""A constructor function inherits without `class … extends` in plain JavaScript and in
TypeScript's ES5 output: `util.inherits(Dot, Base)`, `Dot.prototype = Object.create(Base.prototype)`,
`Dot.prototype = new Base()`, `AtRule.prototype = Object.assign(new Node(), {…})`,
`__extends(Child, _super)` in an IIFE given the base. `this.m()` inside the constructor or its
prototype methods reaches the base's prototype method when the constructor's own prototype has none."""

from __future__ import annotations

from test_bindings import index_of, target

BASE = """
function Base(runner) { this.runner = runner; }
Base.prototype.epilogue = function () { return 1; };
Base.prototype.done = function () { return 2; };
module.exports = Base;
"""

FILES = {
    "lib/base.js": BASE,
    "lib/dot.js": (
        "var Base = require('./base');\nvar inherits = require('util').inherits;\n"
        "function Dot(runner) {\n  Base.call(this, runner);\n  this.epilogue();\n}\ninherits(Dot, Base);\n"
        "Dot.prototype.done = function () { this.epilogue(); return this.done(); };\nmodule.exports = Dot;\n"
    ),
    "lib/at.js": (
        "var Base = require('./base');\nvar At = function () {};\n"
        "At.prototype = Object.assign(new Base(), {\n  gen: function () { return this.epilogue(); },\n});\n"
        "module.exports = At;\n"
    ),
    "lib/created.js": (
        "var Base = require('./base');\nfunction Created() { Base.call(this); }\n"
        "Created.prototype = Object.create(Base.prototype);\n"
        "Created.prototype.gen = function () { return this.epilogue(); };\nmodule.exports = Created;\n"
    ),
    "lib/visitor.js": "function Visitor() {}\nVisitor.prototype = {\n  accept: function (n) { return n; },\n};\nexport default Visitor;\n",
    "lib/printer.js": (
        "import Visitor from './visitor';\nexport function Printer() {}\nPrinter.prototype = new Visitor();\n"
        "Printer.prototype.Program = function (p) { return this.accept(p); };\n"
    ),
    "lib/node.js": (
        "var Node = (function () {\n  function Node() {}\n  Node.prototype.getIndex = function () { return 0; };\n"
        "  return Node;\n}());\nexports.Node = Node;\n"
    ),
    "lib/leaf.js": (
        'var tslib_1 = require("tslib");\nvar node_1 = require("./node");\n'
        "var Leaf = (function (_super) {\n  tslib_1.__extends(Leaf, _super);\n  function Leaf() { return _super.call(this) || this; }\n"
        "  Leaf.prototype.at = function () { return this.getIndex(); };\n  return Leaf;\n}(node_1.Node));\nexports.Leaf = Leaf;\n"
    ),
    "lib/reporters/base.js": "exports = module.exports = Reporter;\nexports.color = function (s) { return s; };\nfunction Reporter() {}\nReporter.prototype.epilogue = function () {};\n",
    "lib/reporters/spec.js": (
        "var Reporter = require('./base');\nvar inherits = require('../utils').inherits;\n"
        "function Spec(runner) {\n  var self = this;\n  runner.once('end', function () { self.epilogue(); });\n}\ninherits(Spec, Reporter);\n"
    ),
    "lib/alone.js": "function Alone() {}\nAlone.prototype.gen = function () { return this.epilogue(); };\nmodule.exports = Alone;\n",
}


def test_this_in_a_constructor_that_inherits_reaches_the_base_s_prototype_method(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/dot.js", "epilogue", 0) == "lib/base.js::Base.epilogue"  # in the constructor
    assert target(index, "lib/dot.js", "epilogue", 1) == "lib/base.js::Base.epilogue"  # in a prototype method
    assert target(index, "lib/dot.js", "done") == "lib/dot.js::Dot.done"  # its own method first
    assert target(index, "lib/created.js", "epilogue") == "lib/base.js::Base.epilogue"
    assert target(index, "lib/at.js", "epilogue") == "lib/base.js::Base.epilogue"
    # a base module whose own value is the constructor, with its statics beside it
    assert target(index, "lib/reporters/spec.js", "epilogue") == "lib/reporters/base.js::Reporter.epilogue"


def test_a_prototype_made_from_a_base_instance_or_an_es5_class_inherits_its_methods(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/printer.js", "accept") == "lib/visitor.js::Visitor.accept"
    assert target(index, "lib/leaf.js", "getIndex") == "lib/node.js::Node.getIndex"


def test_a_constructor_that_inherits_nothing_leaves_an_unknown_method_unknown(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/alone.js", "epilogue") is None
