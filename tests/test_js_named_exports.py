"""A module whose export is a named class or a named declaration (`module.exports = class Visitor
{…}`, `exports.Other = class Other {…}`, `export default class Visitor {…}`, `export default function
parse(…) {…}`): what imports it binds that definition, so a subclass's `this.visit()` and a call of
the import reach it."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "lib/visitor/index.js": "module.exports = class Visitor {\n  visit(node) { return node; }\n};\n",
    "lib/visitor/compiler.js": (
        "var Visitor = require('./');\n"
        "module.exports = class Compiler extends Visitor {\n  compile() { return this.visit(this.root); }\n};\n"
    ),
    "lib/nodes.js": "module.exports.Other = class Other {\n  run() {}\n};\n",
    "lib/use-nodes.js": "const nodes = require('./nodes');\nclass Mine extends nodes.Other {\n  go() { this.run(); }\n}\nmodule.exports = Mine;\n",
    "src/base.js": "export default class Base {\n  emit(e) { return e; }\n}\n",
    "src/parse.js": "export default function parse(text) { return text; }\n",
    "src/child.js": (
        "import Base from './base';\nimport parse from './parse';\n"
        "export class Child extends Base {\n  run() { return this.emit(parse('x')); }\n}\n"
    ),
}


def test_a_module_exporting_a_named_class_expression_binds_it_where_required(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/visitor/compiler.js", "visit") == "lib/visitor/index.js::Visitor.visit"
    assert target(index, "lib/use-nodes.js", "run") == "lib/nodes.js::Other.run"


def test_a_named_default_export_is_what_a_default_import_binds(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "src/child.js", "emit") == "src/base.js::Base.emit"
    assert target(index, "src/child.js", "parse") == "src/parse.js::parse"
