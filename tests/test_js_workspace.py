"""A monorepo's own packages by name (`import { ref } from '@scope/reactivity'`): found through a
tsconfig's `paths`, else the package.json `name` of a workspace package, and followed through the
package's index file that re-exports them (`export { ref } from './ref'`, `export * from './x'`)."""

from __future__ import annotations

import json

from test_bindings import index_of  # the same small-repository builder
from test_commonjs_names import targets

REF = "export function ref(v) { return { v } }\nexport function unref(r) { return r.v }\n"
EFFECT = "export class Effect { run() { return 1 } }\nexport function effect(fn) { return new Effect() }\n"
INDEX = "export { ref, unref as unwrap } from './ref'\nexport * from './effect'\nexport * as shared from './shared'\n"
SHARED = "export function isObject(x) { return x !== null }\n"
USER = """
import { ref, unwrap, effect } from '@scope/reactivity'
import * as reactivity from '@scope/reactivity'
import { missing } from '@scope/reactivity'
import { thing } from 'outside-package'
export function setup() {
  ref(1); unwrap(2); effect(3); reactivity.ref(4); reactivity.shared.isObject(5)
  missing(); thing()
}
"""


def _repo(tmp_path, extra: dict[str, str]) -> dict[str, str]:
    return {
        "packages/reactivity/src/ref.ts": REF,
        "packages/reactivity/src/effect.ts": EFFECT,
        "packages/reactivity/src/shared.ts": SHARED,
        "packages/reactivity/src/index.ts": INDEX,
        "packages/runtime/src/setup.ts": USER,
        **extra,
    }


def _check(index) -> None:
    user = "packages/runtime/src/setup.ts"
    assert targets(index, user, "ref") == ["packages/reactivity/src/ref.ts::ref", "packages/reactivity/src/ref.ts::ref"]
    assert targets(index, user, "unwrap") == ["packages/reactivity/src/ref.ts::unref"]
    assert targets(index, user, "effect") == ["packages/reactivity/src/effect.ts::effect"]
    assert targets(index, user, "isObject") == ["packages/reactivity/src/shared.ts::isObject"]
    assert targets(index, user, "missing") == [None]
    assert targets(index, user, "thing") == [None]


def test_a_workspace_package_by_its_package_json_name(tmp_path):
    # `main` names built output, not in the index: the conventional src/index.ts is the entry
    pkg = json.dumps({"name": "@scope/reactivity", "main": "dist/reactivity.cjs.js", "types": "dist/reactivity.d.ts"})
    index = index_of(tmp_path, _repo(tmp_path, {"packages/reactivity/package.json": pkg}))
    _check(index)


def test_a_workspace_package_through_tsconfig_paths(tmp_path):
    tsconfig = '{\n  // comments and trailing commas, as tsconfig allows\n  "compilerOptions": {"baseUrl": ".", "paths": {"@scope/*": ["packages/*/src"],},},\n}\n'
    index = index_of(tmp_path, _repo(tmp_path, {"tsconfig.json": tsconfig}))
    _check(index)


def test_without_a_workspace_a_bare_name_stays_outside(tmp_path):
    index = index_of(tmp_path, _repo(tmp_path, {}))
    assert targets(index, "packages/runtime/src/setup.ts", "ref") == [None, None]


def test_a_package_by_name_is_the_code_it_runs_not_its_declarations(tmp_path):
    """`main: lib.js` beside `types: lib.d.ts`: `require('lib')` runs lib.js."""
    index = index_of(tmp_path, {
        "package.json": json.dumps({"name": "lib", "main": "lib.js", "types": "lib.d.ts"}),
        "lib.js": "exports.run = function run(x) { return x; };\n",
        "lib.d.ts": "export declare function run(x: number): number;\n",
        "test/use.js": "const lib = require('lib');\nfunction main() { return lib.run(1); }\n",
    })
    assert targets(index, "test/use.js", "run") == ["lib.js::run"]


def test_a_relative_import_of_a_package_directory_is_its_main(tmp_path):
    """A package's tests and examples require the package by its directory (`require('..')`,
    `require('../')`): Node reads that directory's package.json `main` (`pino.js`, `fastify.js`:
    no index file). Before, the root directory normalized to "." and nothing was found."""
    index = index_of(tmp_path, {
        "package.json": json.dumps({"name": "logger", "main": "logger.js"}),
        "logger.js": "function logger(opts) { return opts }\nmodule.exports = logger\n",
        "sub/package.json": json.dumps({"main": "./impl.js"}),
        "sub/impl.js": "exports.run = function run(x) { return x; };\n",
        "lib/index.js": "exports.help = function help() { return 1; };\n",
        "examples/use.js": (
            "const logger = require('..')\nconst again = require('../')\nconst sub = require('../sub')\n"
            "const lib = require('../lib')\n"
            "function main() { logger(1); again(2); sub.run(3); lib.help() }\n"
        ),
    })
    use = "examples/use.js"
    assert targets(index, use, "logger") == ["logger.js::logger"]
    assert targets(index, use, "again") == ["logger.js::logger"]
    assert targets(index, use, "run") == ["sub/impl.js::run"]
    assert targets(index, use, "help") == ["lib/index.js::help"]
