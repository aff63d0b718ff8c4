"""`this` in JavaScript functions of no class: the object a function is a member of is named where
it is defined (an object literal's entry, a function assigned to a member), and `this.m()` inside
it reaches that object's one member `m`. An arrow function has no `this` of its own, and a function
nested in another is no member of the object the outer one belongs to."""

from __future__ import annotations

from test_bindings import index_of, target

LITERAL = """
module.exports = {
  get header() { return this.req.headers; },
  set header(val) { this.req.headers = val; },
  host() {
    const proxy = this.app.proxy;
    return this.get('Host');
  },
  get(field) { return this.header[field]; },
  later: function () { return this.get('X'); },
  arrow: () => this.get('Y'),
};
"""

ASSIGNED = """
var app = exports = module.exports = {};
app.init = function init() {
  this.settings = {};
  this.defaultConfiguration();
};
app.defaultConfiguration = function () {
  this.set('env', 'dev');
  this.missing();
};
app.set = function set(setting, val) { this.settings[setting] = val; return this; };
app.quick = () => this.set('x', 1);
"""

PROTOTYPE = """
function Layer(path) { this.path = path; }
Layer.create = function (path) { return this.check(path); };
Layer.check = function (path) { return path; };
Layer.prototype.match = function (path) { return this.handle(path) && this.check(path); };
Layer.prototype.handle = function (path) { return this.path === path; };
"""

NESTED = """
function makeApi() {
  function helper() { return 1; }
  return {
    run() { return this.helper(); },
  };
}
const table = {
  one() { return this.two(); },
  two() { return 2; },
};
function other() {
  const table = { two() { return 3; } };
  return table;
}
"""


def test_this_in_an_object_literal_entry_reaches_the_literal_s_member(tmp_path):
    index = index_of(tmp_path, {"lib/request.js": LITERAL})
    assert target(index, "lib/request.js", "get", 0) == "lib/request.js::get"  # in a method
    assert target(index, "lib/request.js", "get", 1) == "lib/request.js::get"  # in `k: function`
    assert target(index, "lib/request.js", "get", 2) is None  # an arrow's `this` is the module's


def test_this_in_a_function_assigned_to_a_member_reaches_the_object_s_member(tmp_path):
    index = index_of(tmp_path, {"lib/application.js": ASSIGNED})
    assert target(index, "lib/application.js", "defaultConfiguration") == "lib/application.js::app.defaultConfiguration"
    assert target(index, "lib/application.js", "set", 0) == "lib/application.js::app.set"
    assert target(index, "lib/application.js", "missing") is None
    assert target(index, "lib/application.js", "set", 1) is None  # an arrow function


def test_this_in_a_prototype_method_reaches_prototype_methods_and_in_a_static_one_statics(tmp_path):
    index = index_of(tmp_path, {"lib/layer.js": PROTOTYPE})
    assert target(index, "lib/layer.js", "check", 0) == "lib/layer.js::Layer.check"  # in `Layer.create`
    assert target(index, "lib/layer.js", "handle") == "lib/layer.js::Layer.handle"
    assert target(index, "lib/layer.js", "check", 1) is None  # a static is no member of an instance


def test_a_literal_in_a_function_is_no_member_of_that_function_and_same_names_elsewhere_do_not_count(tmp_path):
    index = index_of(tmp_path, {"lib/api.js": NESTED})
    assert target(index, "lib/api.js", "helper") is None
    assert target(index, "lib/api.js", "two") == "lib/api.js::table.two"


INTERNALS = """
'use strict';
const internals = {};
exports.route = function (options) {
    const rules = internals.rules(options.rules);
    return internals.config.apply(rules) && helpers.trim(options.path) && Layer.create(rules);
};
exports.other = function (internals) {
    return internals.rules(1);  // a parameter: whatever the caller hands in
};
internals.rules = function (rules) {
    return rules && Layer.prototype.handle(rules) ? new Layer(rules).handle(rules) : null;
};
internals.config = {};
const helpers = {
    trim(text) { return text.trim(); },
};
function Layer(path) { this.path = path; }
Layer.create = function (path) { return new Layer(path); };
Layer.prototype.handle = function (path) { return this.path === path; };
function setup() {
    const local = {};
    local.run = function () { return 1; };
}
function use() { return local.run() + Layer.handle(1); }
"""


def test_a_call_on_an_object_the_module_fills_reaches_its_function(tmp_path):
    """hapi keeps each module's helpers on `const internals = {}` (`internals.rules = function …`) and
    calls them `internals.rules(…)`: a member of an object the module fills at its top level, as
    provable as a bare name of the module. An object literal's entry and a function assigned to a
    function (`Layer.create`) too; not a prototype's method through the function, not an object filled
    inside a function, not a parameter of that name."""
    index = index_of(tmp_path, {"lib/route.js": INTERNALS})
    path = "lib/route.js"
    assert target(index, path, "rules", 0) == "lib/route.js::internals.rules"
    assert target(index, path, "rules", 1) is None
    assert target(index, path, "apply") is None  # `internals.config` holds no function of the module
    assert target(index, path, "trim", 0) == "lib/route.js::helpers.trim"
    assert target(index, path, "create") == "lib/route.js::Layer.create"
    assert target(index, path, "handle", 2) is None  # `Layer.handle`: the prototype's, not the function's
    assert target(index, path, "run") is None


# ---- compiled ES modules (TypeScript's CommonJS output) ------------------------------------

UTILS = """
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isFunction = exports.ContextUtils = void 0;
class ContextUtils {
    static create() { return new ContextUtils(); }
    getArgs() { return []; }
}
exports.ContextUtils = ContextUtils;
const isFunction = (val) => typeof val === 'function';
exports.isFunction = isFunction;
function hidden() { return 1; }
"""
CREATOR = """
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const context_utils_1 = require("./context-utils");
class Creator extends context_utils_1.ContextUtils {
    constructor() {
        super();
        this.utils = new context_utils_1.ContextUtils();
        context_utils_1.ContextUtils.create();
        (0, context_utils_1.isFunction)(this.utils) && this.getArgs();
        context_utils_1.hidden();
    }
}
exports.Creator = Creator;
"""


def test_a_compiled_es_module_s_exports_bind_through_require(tmp_path):
    index = index_of(tmp_path, {"lib/context-utils.js": UTILS, "lib/creator.js": CREATOR})
    path = "lib/creator.js"
    assert target(index, path, "ContextUtils") == "lib/context-utils.js::ContextUtils"  # `new m_1.ContextUtils()`
    assert target(index, path, "create") == "lib/context-utils.js::ContextUtils.create"
    assert target(index, path, "isFunction") == "lib/context-utils.js::isFunction"  # `(0, m_1.isFunction)(…)`
    assert target(index, path, "getArgs") == "lib/context-utils.js::ContextUtils.getArgs"  # through the supertype
    assert target(index, path, "hidden") is None  # not exported


def test_adding_an_export_alias_re_resolves_its_importers(tmp_path):
    before = UTILS.replace("exports.isFunction = isFunction;\n", "")
    index = index_of(tmp_path, {"lib/context-utils.js": before, "lib/creator.js": CREATOR})
    assert target(index, "lib/creator.js", "isFunction") is None
    index.open_document("lib/context-utils.js", before.lstrip("\n"))
    index.set_document("lib/context-utils.js", UTILS.lstrip("\n").encode(), None)
    assert target(index, "lib/creator.js", "isFunction") == "lib/context-utils.js::isFunction"


# ---- a module's own value: `export default Name;`, `module.exports = Name;` ------------------

def test_a_default_import_binds_the_definition_a_module_exports_by_name(tmp_path):
    index = index_of(tmp_path, {
        "lib/AxError.js": "export const CODE = 1;\nclass AxError extends Error {\n  static from(e) { return new AxError(e); }\n}\nexport default AxError;\n",
        "lib/store.js": "function Store() {}\nStore.prototype.get = function () {};\nmodule.exports = Store;\n",
        "lib/request.js": "function Request() {}\nfunction build() {}\nmodule.exports = Request;\nmodule.exports.build = build;\n",
        "lib/main.js": (
            "import AxError from './AxError.js';\nconst Store = require('./store');\nconst Request = require('./request');\n"
            "function main() {\n  const s = new Store();\n  Request.build();\n  throw AxError.from(new AxError('x'));\n}\n"
        ),
    })
    path = "lib/main.js"
    assert target(index, path, "Store") == "lib/store.js::Store"
    assert target(index, path, "from") == "lib/AxError.js::AxError.from"
    assert target(index, path, "AxError") == "lib/AxError.js::AxError"
    assert target(index, path, "build") == "lib/request.js::build"  # members added to the exports stay its members


def test_the_names_an_exported_object_literal_holds_bind_through_the_module(tmp_path):
    index = index_of(tmp_path, {
        "lib/ast-utils.js": "function isId(n) { return !!n; }\nfunction other() {}\nmodule.exports = {\n  ...base,\n  isId,\n  check: other,\n  inline(n) { return isId(n); },\n};\n",
        "lib/utils.js": "export function named() {}\nconst findKey = (o, k) => k;\nexport default {\n  findKey,\n  ...more,\n  size: named,\n};\n",
        "lib/rule.js": (
            "const astUtils = require('./ast-utils');\nimport utils from './utils.js';\nimport * as ns from './utils.js';\n"
            "function create() {\n  astUtils.isId(1); astUtils.check(); astUtils.inline(2);\n  utils.findKey({}, 'a'); utils.size(); utils.named(); ns.named();\n}\n"
        ),
    })
    path = "lib/rule.js"
    assert target(index, path, "isId") == "lib/ast-utils.js::isId"
    assert target(index, path, "check") == "lib/ast-utils.js::other"
    assert target(index, path, "inline") == "lib/ast-utils.js::inline"
    assert target(index, path, "findKey") is None  # the spread after it may replace it
    assert target(index, path, "size") == "lib/utils.js::named"
    assert target(index, path, "named", 0) is None  # the default object holds no `named`
    assert target(index, path, "named", 1) == "lib/utils.js::named"  # the namespace does


def test_a_compiled_barrel_passes_on_its_modules_exports(tmp_path):
    index = index_of(tmp_path, {
        "lib/pipes/pipes-consumer.js": '"use strict";\nexports.PipesConsumer = void 0;\nclass PipesConsumer {}\nexports.PipesConsumer = PipesConsumer;\nclass Hidden {}\n',
        "lib/pipes/index.js": '"use strict";\nconst tslib_1 = require("tslib");\ntslib_1.__exportStar(require("./pipes-consumer"), exports);\n',
        "lib/router.js": 'const pipes_1 = require("./pipes");\nfunction make() {\n  new pipes_1.PipesConsumer();\n  new pipes_1.Hidden();\n}\n',
    })
    assert target(index, "lib/router.js", "PipesConsumer") == "lib/pipes/pipes-consumer.js::PipesConsumer"
    assert target(index, "lib/router.js", "Hidden") is None  # not exported



KEYS_BARREL = """"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
var _consumer = require("./pipes-consumer");
Object.keys(_consumer).forEach(function (key) {
  if (key === "default" || key === "__esModule") return;
  if (key in exports && exports[key] === _consumer[key]) return;
  Object.defineProperty(exports, key, {
    enumerable: true,
    get: function () {
      return _consumer[key];
    }
  });
});
var other = require("./other");
Object.keys(other).forEach(function (k) { console.log(k); });
"""


def test_a_barrel_copying_a_modules_keys_onto_exports_passes_them_on(tmp_path):
    """Babel's and Rollup's CommonJS output of `export * from './x'`: `var _x = require('./x');
    Object.keys(_x).forEach(function (key) { … Object.defineProperty(exports, key, …) })`. A loop
    over a module's keys that never touches `exports` passes nothing on."""
    index = index_of(tmp_path, {
        "lib/pipes/pipes-consumer.js": '"use strict";\nclass PipesConsumer {}\nexports.PipesConsumer = PipesConsumer;\n',
        "lib/pipes/other.js": '"use strict";\nclass Other {}\nexports.Other = Other;\n',
        "lib/pipes/index.js": KEYS_BARREL,
        "lib/router.js": 'const pipes_1 = require("./pipes");\nfunction make() {\n  new pipes_1.PipesConsumer();\n  new pipes_1.Other();\n}\n',
    })
    assert target(index, "lib/router.js", "PipesConsumer") == "lib/pipes/pipes-consumer.js::PipesConsumer"
    assert target(index, "lib/router.js", "Other") is None  # the second loop exports nothing

SELF_ALIAS = """
function Server(options) { this.options = options; }
Server.prototype.handle = function handle(req, res) {
  var self = this;
  res.once('finish', function () {
    self.finish(req, res);
  });
  self.route(req);
};
Server.prototype.inner = function inner(req) {
  function done() {
    var self = this;
    self.finish(req);
  }
  return done;
};
Server.prototype.shadowed = function shadowed(self) {
  self.finish();
};
Server.prototype.finish = function finish(req, res) { return res; };
Server.prototype.route = function route(req) { return req; };

class Pool {
  drain() {
    const that = this;
    [1, 2].forEach(function (n) { that.release(n); });
  }
  release(n) { return n; }
}
"""


def test_a_local_holding_this_calls_the_objects_own_members(tmp_path):
    """`var self = this;` at the top of a method, then `self.m()` in the callbacks it hands out (the
    idiom of JavaScript before arrow functions): `self` is the method's `this`. A local so named in a
    nested function of its own, or a parameter, is no alias of the method's object."""
    index = index_of(tmp_path, {"server.js": SELF_ALIAS})
    assert target(index, "server.js", "finish", 0) == "server.js::Server.finish"
    assert target(index, "server.js", "route") == "server.js::Server.route"
    assert target(index, "server.js", "release") == "server.js::Pool.release"
    assert target(index, "server.js", "finish", 1) is None  # `done`'s own `this`
    assert target(index, "server.js", "finish", 2) is None  # a parameter named self


CONSTRUCTOR = """
function Server(options) {
  this.options = options;
  this.setup(options);
  this.create(options);
}
Server.prototype.setup = function setup(options) { return options; };
Server.create = function (options) { return new Server(options); };

function helper() {
  this.setup();
}
"""


def test_this_in_a_constructor_function_calls_its_prototype_methods(tmp_path):
    """`function Server() { this.setup(); }` with `Server.prototype.setup = function`: a function called
    with `new` has the instance as `this`, whose methods are the prototype's (not the function's own
    statics, `Server.create`); a function with no prototype methods has no known `this`."""
    index = index_of(tmp_path, {"server.js": CONSTRUCTOR})
    assert target(index, "server.js", "setup", 0) == "server.js::Server.setup"
    assert target(index, "server.js", "create") is None
    assert target(index, "server.js", "setup", 1) is None


PROTOTYPE_LITERAL = """
function Compiler() {}
Compiler.prototype = {
  compile: function (program) { return this.accept(program); },
  accept(node) { return this.visit(node); },
  visit: function (node) { return node; },
};
Compiler.prototype.extra = function () { return this.compile(null); };
exports.run = function () { return new Compiler().compile({}); };
"""


def test_the_entries_of_an_object_assigned_to_a_prototype_are_its_methods(tmp_path):
    # `T.prototype = { m: function … }` is written as often as `T.prototype.m = function …`: both are T's methods
    index = index_of(tmp_path, {"lib/compiler.js": PROTOTYPE_LITERAL})
    units = {u.qualname: u.kind for u in index.files["lib/compiler.js"].units}
    assert units["Compiler.compile"] == units["Compiler.accept"] == units["Compiler.extra"] == "method"
    assert target(index, "lib/compiler.js", "accept") == "lib/compiler.js::Compiler.accept"  # in the literal
    assert target(index, "lib/compiler.js", "compile", 0) == "lib/compiler.js::Compiler.compile"  # from `T.prototype.m`
