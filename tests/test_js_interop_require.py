"""TypeScript's and Babel's CommonJS output imports through a helper: `var node_1 =
tslib_1.__importDefault(require("./node"))`, `var _util = _interopRequireWildcard(require("./util"))`.
The name binds the module's namespace, as `import * as` does: `node_1.default` is the module's
default export and `_util.f` its export `f`."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "lib/node.js": (
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
        "var Node = (function () {\n  function Node() {}\n  Node.compare = function (a, b) { return a === b; };\n"
        "  Node.prototype.getIndex = function () { return 0; };\n  return Node;\n}());\nexports.default = Node;\n"
    ),
    "lib/util.js": '"use strict";\nexports.clean = clean;\nfunction clean(s) { return s.trim(); }\n',
    "lib/quoted.js": (
        '"use strict";\nvar tslib_1 = require("tslib");\nvar node_1 = tslib_1.__importDefault(require("./node"));\n'
        'var _util = _interopRequireWildcard(require("./util"));\n'
        "function same(a, b) { return node_1.default.compare(a, b); }\n"
        "function tidy(s) { return _util.clean(s); }\n"
        "module.exports = { same: same, tidy: tidy };\n"
    ),
}


def test_a_name_bound_through_an_interop_helper_reaches_the_module_s_exports(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/quoted.js", "compare") == "lib/node.js::Node.compare"
    assert target(index, "lib/quoted.js", "clean") == "lib/util.js::clean"
