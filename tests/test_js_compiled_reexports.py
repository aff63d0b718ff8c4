"""TypeScript and Babel compile `export { X } from './x'` to CommonJS as a getter on the exports
object: `Object.defineProperty(exports, "X", { enumerable: true, get: function () { return x_1.X; } })`.
A module requiring the barrel reaches what the getter returns, as it would through `export … from`."""

from __future__ import annotations

from test_bindings import index_of, target

HEAD = '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\n'
FILES = {
    "lib/x.js": HEAD + "exports.X = void 0;\nclass X { run() {} }\nexports.X = X;\nfunction helper() {}\nexports.helper = helper;\n",
    "lib/index.js": HEAD + (
        'exports.tool = exports.X = void 0;\nvar x_1 = require("./x");\n'
        'Object.defineProperty(exports, "X", { enumerable: true, get: function () { return x_1.X; } });\n'
        'Object.defineProperty(exports, "tool", { enumerable: true, get: function () { return x_1.helper; } });\n'
    ),
    "lib/use.js": (
        'const index_1 = require("./index");\nconst { tool } = require("./index");\n'
        "function go() { new index_1.X().run(); (0, index_1.tool)(); tool(); }\nmodule.exports = go;\n"
    ),
}


def test_a_compiled_re_export_reaches_what_its_getter_returns(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/use.js", "run") == "lib/x.js::X.run"
    assert target(index, "lib/use.js", "tool", 0) == "lib/x.js::helper"
    assert target(index, "lib/use.js", "tool", 1) == "lib/x.js::helper"
