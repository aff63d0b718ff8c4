"""CommonJS exports by assignment are named by their own name, as every JavaScript tool names them:
`exports.isStream = function …` is the unit `isStream` (it was `exports.isStream`, and every file
exporting an `isStream` shared the qualified name `exports.isStream`). It stays what `require`
returns a member of, and never becomes a name of its module's scope."""

from __future__ import annotations

from codegraph.index.index import RootIndex
from test_bindings import index_of  # the same small-repository builder


def targets(index: RootIndex, path: str, name: str) -> list[str | None]:
    """The resolved target of each call named `name` in `path`, in call order (None: unknown)."""
    facts, bindings = index.files[path], index.bindings[path]
    edges = iter(e for e in bindings.edges if e.kind in ("calls", "constructs"))
    unresolved = set(bindings.unresolved)
    out = []
    for i, call in enumerate(facts.calls):
        dst = None if i in unresolved else next(edges).dst
        if call.name == name:
            out.append(dst)
    return out


STREAM = """
exports.isStream = function (x) {
  return x !== null && typeof x.pipe === 'function';
};
exports.isReadable = function (x) {
  return exports.isStream(x) && isStream(x.source);
};
"""
CHECK = """
module.exports.isStream = (x) => x instanceof Object;
module.exports.helpers = {
  trim(text) { return text.trim(); },
};
function Thing() {}
Thing.prototype.run = function () { return 1; };
"""
MAIN = """
const stream = require('./stream');
const { isStream } = require('./check');
const check = require('./check');
function main(x) {
  return stream.isStream(x) && isStream(x) && check.isStream(x);
}
"""


def test_a_commonjs_export_is_named_by_its_own_name_and_binds_through_require(tmp_path):
    index = index_of(tmp_path, {"lib/stream.js": STREAM, "lib/check.js": CHECK, "lib/main.js": MAIN})
    units = {u.id: u for f in ("lib/stream.js", "lib/check.js") for u in index.files[f].units if u.kind != "statement"}
    assert sorted((u.id, u.name, u.qualname, u.kind) for u in units.values()) == [
        ("lib/check.js::Thing", "Thing", "Thing", "function"),
        ("lib/check.js::Thing.run", "run", "Thing.run", "method"),  # `T.prototype.m = function`: untouched
        ("lib/check.js::helpers.trim", "trim", "helpers.trim", "method"),
        ("lib/check.js::isStream", "isStream", "isStream", "function"),
        ("lib/stream.js::isReadable", "isReadable", "isReadable", "function"),
        ("lib/stream.js::isStream", "isStream", "isStream", "function"),
    ]
    assert units["lib/stream.js::isStream"].assigned_to == "exports"
    assert units["lib/check.js::isStream"].assigned_to == "module.exports"
    # two files exporting `isStream`: two units, and each file's importers reach their own
    assert targets(index, "lib/main.js", "isStream") == ["lib/stream.js::isStream", "lib/check.js::isStream", "lib/check.js::isStream"]
    # the module's own `exports.isStream()` is the export; a bare `isStream()` names no binding of the module
    assert targets(index, "lib/stream.js", "isStream") == ["lib/stream.js::isStream", None]


def test_the_default_export_keeps_its_name(tmp_path):
    """`module.exports = function query() {…}` and `module.exports = class App {…}` as before."""
    index = index_of(tmp_path, {
        "lib/query.js": "module.exports = function query(options) {\n  return options;\n};\n",
        "lib/app.js": "module.exports = class App {\n  listen() { return 1; }\n};\n",
        "lib/main.js": "const query = require('./query');\nconst App = require('./app');\nfunction main() { query({}); return new App(); }\n",
    })
    assert [u.qualname for u in index.files["lib/query.js"].units] == ["module.exports"]
    assert [u.qualname for u in index.files["lib/app.js"].units] == ["App", "App.listen"]
    assert targets(index, "lib/main.js", "query") == ["lib/query.js::module.exports"]


def test_a_definition_turned_into_an_export_rebinds_its_importers(tmp_path):
    """`function join` becoming `exports.join = function join`: the same name and kind, but now what
    `helper.join()` reaches, so the importer is resolved again."""
    index = index_of(tmp_path, {
        "lib/helper.js": "function join(t) { return t; }\nexports.split = function split(t) { return t; };\n",
        "lib/main.js": "const helper = require('./helper');\nfunction main(t) { return helper.join(t); }\n",
    })
    assert targets(index, "lib/main.js", "join") == [None]
    (tmp_path / "lib" / "helper.js").write_text("exports.join = function join(t) { return t; };\nexports.split = function split(t) { return t; };\n")
    index.refresh_path("lib/helper.js")
    assert targets(index, "lib/main.js", "join") == ["lib/helper.js::join"]


EXPORTS_OBJECT = """
function a(x) { return x; }
module.exports = {
  a,
  b: function (y) { return y; },
  c() { return 1; },
  d: (z) => z,
};
"""
USES = """
const m = require('./m');
const { b, c } = require('./m');
function main() {
  m.b(1); m.c(); b(2); c(); m.a(3);
  return require('./m').d(4) + require('./m').a(5);
}
"""


def test_the_entries_of_module_exports_are_named_by_their_own_names(tmp_path):
    """`module.exports = { b: function …, c() {} }`: the entries are the module's `b` and `c`
    (they were `module.exports.b`), assigned onto `module.exports`, and reached through `m.b()`, a
    destructured require and `require('./m').d()`."""
    index = index_of(tmp_path, {"lib/m.js": EXPORTS_OBJECT, "lib/main.js": USES})
    units = [(u.qualname, u.kind, u.assigned_to) for u in index.files["lib/m.js"].units if u.kind != "statement"]
    assert units == [("a", "function", ""), ("b", "function", "module.exports"), ("c", "method", "module.exports"), ("d", "function", "module.exports")]
    assert targets(index, "lib/main.js", "b") == ["lib/m.js::b", "lib/m.js::b"]
    assert targets(index, "lib/main.js", "c") == ["lib/m.js::c", "lib/m.js::c"]
    assert targets(index, "lib/main.js", "d") == ["lib/m.js::d"]


ROUTE = """
'use strict';
const internals = {};
exports = module.exports = internals.Route = class {
    constructor(route) {
        this._assert(route.path, 'Missing path');
    }
    _assert(condition, message) { if (!condition) { throw new Error(message); } }
    rebuild() { return this._assert(true, 'never'); }
};
internals.Route.Payload = class extends Stream.Readable {
    _read() { return this.push(null); }
};
"""
TOOLKIT = """
exports.Manager = class {
    make() { const Toolkit = class { go() { return this.stop(); } stop() {} }; return new Toolkit(); }
};
"""
APPLICATION = """
exports = module.exports = createApplication;
function createApplication() { return {}; }
"""
SERVER = """
const Route = require('./route');
const { Manager } = require('./toolkit');
const create = require('./application');
function main() {
  const app = create();
  new Manager().make();
  return new Route({ path: '/' }).rebuild();
}
"""


def test_an_anonymous_class_is_named_by_what_holds_it_and_a_chained_export_binds(tmp_path):
    """hapi writes every class as `exports = module.exports = internals.Route = class {…}`: an
    anonymous class expression, which was no unit (its methods were bare `constructor`, `_assert`,
    and `this._assert()` reached nothing). It is named by what holds it, as a function assigned there
    is; `const Toolkit = class {…}` by its variable, as the language names it. A chain of assignments
    exports its value through each link (`exports = module.exports = createApplication`, express)."""
    index = index_of(tmp_path, {"lib/route.js": ROUTE, "lib/toolkit.js": TOOLKIT, "lib/application.js": APPLICATION, "lib/server.js": SERVER})
    units = {u.qualname: u for f in ("lib/route.js", "lib/toolkit.js") for u in index.files[f].units if u.kind != "statement"}
    assert {q: u.kind for q, u in units.items()} == {
        "internals.Route": "class", "internals.Route.constructor": "method", "internals.Route._assert": "method",
        "internals.Route.rebuild": "method", "internals.Route.Payload": "class", "internals.Route.Payload._read": "method",
        "Manager": "class", "Manager.make": "method", "Manager.make.Toolkit": "class",
        "Manager.make.Toolkit.go": "method", "Manager.make.Toolkit.stop": "method",
    }
    assert [s.text for s in index.files["lib/route.js"].supertypes] == ["Stream.Readable"]
    assert targets(index, "lib/route.js", "_assert") == ["lib/route.js::internals.Route._assert"] * 2
    assert targets(index, "lib/toolkit.js", "stop") == ["lib/toolkit.js::Manager.make.Toolkit.stop"]
    assert targets(index, "lib/server.js", "Route") == ["lib/route.js::internals.Route"]
    assert targets(index, "lib/server.js", "rebuild") == ["lib/route.js::internals.Route.rebuild"]
    assert targets(index, "lib/server.js", "make") == ["lib/toolkit.js::Manager.make"]
    assert targets(index, "lib/server.js", "create") == ["lib/application.js::createApplication"]


def test_a_function_assigned_to_a_member_has_its_parameters(tmp_path):
    """`exports.f = function (a, b)`, `T.prototype.m = function (x)`: the function is the assignment's
    right side, and its parameters were not read (no names, no arity): a parameter did not shadow the
    module's names of the same spelling."""
    index = index_of(tmp_path, {"lib/m.js": (
        "exports.f = function (a, { b }, ...rest) { return a; };\n"
        "function T() {}\n"
        "T.prototype.m = function (x) { return x; };\n"
        "T.make = (y, z) => y + z;\n")})
    params = {u.qualname: (u.param_names, u.params) for u in index.files["lib/m.js"].units}
    assert params["f"] == (("a", "rest"), 3)
    assert params["T.m"] == (("x",), 1) and params["T.make"] == (("y", "z"), 2)
