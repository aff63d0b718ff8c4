"""A bundle a package ships beside its modules (`cdn.js`: every module's functions again, inside one
wrapper) and the second of two parallel builds (`es/` beside `lib/`) are copies: explore never shows
them, distill leaves them out of the architecture; the modules, a file that merely uses them, and a
library that defines one API in each of its modules are code of their own (graph/copies.py)."""

from __future__ import annotations

from pathlib import Path

from codegraph.distill.topology import build_model
from codegraph.graph.copies import bundle_copies, copy_files
from codegraph.index.index import RootIndex
from codegraph.requests import run_explore

NAMES = [f"step{i}Value" for i in range(12)]


def _package(root: Path) -> None:
    for i, name in enumerate(NAMES):  # one module per function, as the package is written
        (root / f"{name}.js").write_text(f"export function {name}(input) {{\n  return normalize(input) + {i};\n}}\n")
    (root / "normalize.js").write_text("export function normalize(input) {\n  return String(input).trim();\n}\n")
    body = "".join(f"  function {name}(input) {{\n    return normalize(input) + {i};\n  }}\n" for i, name in enumerate(NAMES))
    (root / "cdn.js").write_text("(function () {\n  function normalize(input) {\n    return String(input).trim();\n  }\n" + body + "  window.pkg = {};\n})();\n")
    uses = "".join(f"  out.push({name}(input));\n" for name in NAMES)
    (root / "pipeline.js").write_text("import { step0Value } from './step0Value.js';\n"
                                      f"export function runPipeline(input) {{\n  const out = [];\n{uses}  return out;\n}}\n")


def test_a_bundle_of_the_packages_own_modules_is_a_copy(tmp_path: Path):
    _package(tmp_path)
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert bundle_copies(u for f in index.files.values() for u in f.units) == {"cdn.js"}
    answer = run_explore(index, {"query": "How does step3Value normalize its input?", "maxOutputChars": 8000})
    assert "step3Value.js" in answer["text"] and "cdn.js" not in answer["text"]
    model = build_model(index)
    assert not any(u.path == "cdn.js" for u in model.units.values())
    assert any(u.path == "pipeline.js" for u in model.units.values())


def test_a_file_of_its_own_functions_is_no_copy(tmp_path: Path):
    _package(tmp_path)
    (tmp_path / "cdn.js").write_text("".join(f"function own{i}(x) {{\n  return x * {i};\n}}\n" for i in range(14)))
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert bundle_copies(u for f in index.files.values() for u in f.units) == frozenset()


def test_the_second_of_two_parallel_builds_is_a_copy(tmp_path: Path):
    for tree in ("es", "lib"):  # ES modules and CommonJS, module by module
        for name in ("container", "planner"):
            (tmp_path / tree / "planning").mkdir(parents=True, exist_ok=True)
            (tmp_path / tree / "planning" / f"{name}.js").write_text(
                f"export class {name.title()} {{\n  plan(x) {{ return x; }}\n  run(x) {{ return this.plan(x); }}\n}}\n")
    (tmp_path / "lib" / "planning" / "extra.js").write_text("export function extra() {\n  return 1;\n}\nexport function more() {}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"lib/planning/container.js", "lib/planning/planner.js"}


def test_a_library_of_one_api_per_module_is_no_bundle(tmp_path: Path):
    """Each module defines the same dozen names (`string`, `number`, `struct` … as a decoder, a guard,
    an encoder): every name is defined in many files, none is one module's own."""
    api = [f"api{i}" for i in range(12)]
    for module in [f"Module{j}" for j in range(12)]:
        (tmp_path / f"{module}.js").write_text("".join(f"export function {n}(x) {{\n  return x;\n}}\n" for n in api))
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == frozenset()


def test_a_bundles_variant_beside_it_is_a_copy_and_a_library_of_one_api_per_module_is_not(tmp_path: Path):
    """vue ships `dist/vue.esm-browser.js` and `dist/vue.runtime.esm-browser.js`, the full bundle
    less its compiler: the same functions, the same bodies, in two files of one directory. The
    smaller is a copy. Modules of one API each (`api0` … `api23` as a decoder, as a guard) share the
    names with bodies of their own: none is a copy."""
    runtime = "".join(f"function op{i}(x) {{\n  const y = x + {i};\n  return y;\n}}\n" for i in range(24))
    compiler = "".join(f"function compile{i}(t) {{\n  return t;\n}}\n" for i in range(10))
    (tmp_path / "browser").mkdir()  # (a package's `dist/` is read as its code only when it ships nothing else)
    (tmp_path / "browser" / "pkg.esm-browser.js").write_text(runtime + compiler)
    (tmp_path / "browser" / "pkg.runtime.esm-browser.js").write_text(runtime)
    for j, module in enumerate(("Decoder", "Guard", "Encoder")):
        body = "".join(f"export function api{i}(x) {{\n" + "  x = x + 1;\n" * (j + 1) + "  return x;\n}\n" for i in range(24))
        (tmp_path / f"{module}.js").write_text(body)
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"browser/pkg.runtime.esm-browser.js"}


def test_parallel_builds_one_level_down_are_copies_even_of_one_function(tmp_path: Path):
    """uuid ships `dist/esm/`, `dist/cjs/`, `dist/esm-browser/` and `dist/cjs-browser/`: the same
    modules, one function each, below directories named for module formats. ES modules are kept;
    a module whose browser build differs (its own md5) stays."""
    for tree in ("esm", "cjs", "esm-browser"):
        (tmp_path / "release" / tree).mkdir(parents=True)
        (tmp_path / "release" / tree / "v3.js").write_text("export function v3(name) {\n  return hash(name, 3);\n}\n")
        md5 = "createHash('md5')" if "browser" not in tree else "wordsToMd5(bytes)"
        (tmp_path / "release" / tree / "md5.js").write_text(f"export function md5(bytes) {{\n  return {md5};\n}}\n")
    (tmp_path / "release" / "esm-browser" / "md5.js").write_text("function md5ii(a) {\n  return a;\n}\nexport function md5(bytes) {\n  return md5ii(bytes);\n}\n")
    # a platform's own implementation under the same name, a body of its own: no twin
    (tmp_path / "platform" / "node").mkdir(parents=True)
    (tmp_path / "platform" / "browser").mkdir(parents=True)
    (tmp_path / "platform" / "node" / "fs.js").write_text("export function read(p) {\n  return require('fs').readFileSync(p);\n}\n")
    (tmp_path / "platform" / "browser" / "fs.js").write_text("export function read(p) {\n  const r = new XMLHttpRequest();\n  r.open('GET', p, false);\n  return r.send();\n}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {
        "release/cjs/v3.js", "release/esm-browser/v3.js", "release/cjs/md5.js"}


def test_a_second_build_in_a_format_directory_inside_the_first_is_a_copy(tmp_path: Path):
    """hono ships its ES modules in `dist/` and the same modules as CommonJS in `dist/cjs/`: the second
    build one directory below the first, in a directory named for its format. Explore showed each
    module twice (`dist/hono-base.js`, `dist/cjs/hono-base.js`). A module of one function is a twin
    too; a directory of another name inside the build (`dist/router/`) holds modules of its own."""
    for tree in ("release", "release/cjs"):
        (tmp_path / tree / "router").mkdir(parents=True)
        (tmp_path / tree / "base.js").write_text("export class Base {\n  route(p) { return p; }\n  fetch(r) { return this.route(r); }\n}\n")
        (tmp_path / tree / "compose.js").write_text("export function compose(fns) {\n  return fns;\n}\n")
    (tmp_path / "release" / "router" / "base.js").write_text("export class Base {\n  route(p) { return p; }\n  fetch(r) { return this.route(r); }\n}\n")
    (tmp_path / "release" / "router" / "compose.js").write_text("export function compose(fns) {\n  return fns;\n}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"release/cjs/base.js", "release/cjs/compose.js"}


def test_javascript_compiled_from_typescript_that_ships_too_is_a_copy(tmp_path: Path):
    """zod ships `src/v4/core/schemas.ts` and its compiled `v4/core/schemas.js` (the compiler's
    `outDir` is the package root); many packages `src/x.ts` and `lib/x.js`. Explore showed each
    schema twice, from the source and from the build. The JavaScript defines the source's classes and
    functions (its interfaces compile to nothing, its bodies lose their types): a copy. JavaScript of
    its own beside TypeScript (other names) is code."""
    source = ("export interface Def {\n  type: string;\n}\n"
              "export class Schema {\n  parse(input: unknown): unknown {\n    return this.check(input as string);\n  }\n"
              "  check(input: string): string {\n    return input;\n  }\n}\n"
              "export function object(shape: Def): Schema {\n  return new Schema();\n}\n")
    built = ("export class Schema {\n  parse(input) {\n    return this.check(input);\n  }\n"
             "  check(input) {\n    return input;\n  }\n}\nexport function object(shape) {\n  return new Schema();\n}\n")
    for rel, text in {"src/v4/core/schemas.ts": source, "v4/core/schemas.js": built, "src/util.ts": source,
                      "lib/util.js": built, "lib/own.js": "export function helper(a) {\n  return a;\n}\n",
                      "src/own.ts": "export function other(a: number) {\n  return a;\n}\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"v4/core/schemas.js", "lib/util.js"}
    answer = run_explore(index, {"query": "How does Schema.parse check its input?", "maxOutputChars": 8000})
    shown = {f["path"] for f in answer["files"]}
    assert "src/v4/core/schemas.ts" in shown and not shown & {"v4/core/schemas.js", "lib/util.js"}


def test_a_second_build_whose_files_take_the_other_formats_extension_is_a_copy(tmp_path: Path):
    """A package shipping CommonJS at its root and the same modules as ES modules in `esm/` writes them
    `.mjs` (declarations `.d.mts`): `store.js` and `esm/store.mjs`, `store.d.ts` and `esm/store.d.mts`
    are one module twice, and explore showed every module and declaration twice. A module of the ES
    build with no twin, and a declaration file's twin that is JavaScript, stay."""
    (tmp_path / "esm").mkdir()
    cjs = ("'use strict';\nfunction createStore(init) {\n  const api = { get: () => init, set: (v) => notify(v) };\n  return api;\n}\n"
           "function notify(v) {\n  return v;\n}\nexports.createStore = createStore;\n")
    esm = ("function createStore(init) {\n  const api = { get: () => init, set: (v) => notify(v) };\n  return api;\n}\n"
           "function notify(v) {\n  return v;\n}\nexport { createStore };\n")
    decl = ("export interface StoreApi<T> {\n  get(): T;\n  set(v: T): void;\n}\n"
            "export interface Mutators<S, A> {\n  slot: S;\n  arg: A;\n}\n"
            "export declare function createStore<T>(init: T): StoreApi<T>;\n")
    (tmp_path / "store.js").write_text(cjs)
    (tmp_path / "esm" / "store.mjs").write_text(esm)
    (tmp_path / "store.d.ts").write_text(decl)
    (tmp_path / "esm" / "store.d.mts").write_text(decl)
    (tmp_path / "esm" / "extra.mjs").write_text("export function extra(a) {\n  return a;\n}\nexport function more(b) {\n  return b;\n}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"esm/store.mjs", "esm/store.d.mts"}


def test_a_chunk_built_for_each_format_under_its_own_hash_is_a_copy(tmp_path: Path):
    """A bundler splitting shared code into chunks names each by a content hash, which differs per
    format: `shared/core.03887fc3.mjs` beside `shared/core.d8adb063.cjs` (or `raise-1db27a82.esm.js`
    beside `raise-4acdb210.cjs.js`) is one chunk twice, and explore showed both. The ES module one
    stays; chunks of other names, or of other code under the same name, stay too."""
    esm = ("class FetchError extends Error {\n  constructor(m) {\n    super(m);\n  }\n}\n"
           "function createFetchError(ctx) {\n  return new FetchError(ctx.message);\n}\n"
           "function detectResponseType(t) {\n  return t || 'json';\n}\nexport { FetchError, createFetchError, detectResponseType };\n")
    cjs = "'use strict';\n" + esm.replace("export { FetchError, createFetchError, detectResponseType };\n",
                                          "exports.FetchError = FetchError;\nexports.createFetchError = createFetchError;\n")
    other = "function parseWords(s) {\n  return s.split(' ');\n}\nfunction joinWords(w) {\n  return w.join(' ');\n}\nexport { parseWords, joinWords };\n"
    (tmp_path / "dist" / "shared").mkdir(parents=True)
    (tmp_path / "dist" / "shared" / "core.03887fc3.mjs").write_text(esm)
    (tmp_path / "dist" / "shared" / "core.d8adb063.cjs").write_text(cjs)
    (tmp_path / "dist" / "shared" / "words-1a2b3c4d.js").write_text(other)
    (tmp_path / "dist" / "shared" / "words-9f8e7d6c.js").write_text(other.replace("split(' ')", "split(',')\n    .map(String)"))
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert set(index.files) >= {"dist/shared/core.03887fc3.mjs", "dist/shared/core.d8adb063.cjs"}
    assert copy_files(u for f in index.files.values() for u in f.units) == {"dist/shared/core.d8adb063.cjs"}


def test_builds_named_for_a_language_level_are_parallel_builds(tmp_path: Path):
    """A TypeScript library built as `cjs/`, `esm2015/` and `esm5/` (the Angular package format;
    rxjs writes `_esm5/`): the same modules, one function each, below directories named for a module
    format and the language level it targets. One build is kept."""
    for tree in ("cjs", "esm2015", "esm5"):
        (tmp_path / tree / "decorators").mkdir(parents=True)
        (tmp_path / tree / "decorators" / "inject.js").write_text("export function Inject(token) {\n  return register(token);\n}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"cjs/decorators/inject.js", "esm5/decorators/inject.js"}


def _module(name: str, methods: int) -> str:
    body = "".join(f"  {name}.prototype.step{i} = function (input) {{\n    return input + {i};\n  }};\n" for i in range(methods))
    return f"function {name}() {{\n  this.ready = true;\n}}\n" + body


def test_a_bundle_that_carries_its_dependencies_too_is_a_copy(tmp_path: Path):
    """A test runner ships `runner.js`, one rollup bundle of its 12 modules and of the libraries and
    polyfills it needs (three times as many functions again, `Buffer$1` among them): the share of its
    functions named like the package's own falls short, but it repeats the modules' definitions body
    for body. A module repeating a few definitions of a few others stays."""
    (tmp_path / "lib").mkdir()
    names = [f"Part{i}" for i in range(12)]
    for name in names:
        (tmp_path / "lib" / f"{name.lower()}.js").write_text(_module(name, 9) + f"module.exports = {name};\n")
    polyfills = "".join(f"function helper{i}$1(a) {{\n  return a * {i};\n}}\n" for i in range(400))
    bundle = "(function () {\n" + "".join(_module(name, 9) for name in names) + polyfills + "})();\n"
    (tmp_path / "runner.js").write_text(bundle)
    (tmp_path / "lib" / "dialect.js").write_text(_module(names[0], 9) + _module(names[1], 9) + "module.exports = {};\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert copy_files(u for f in index.files.values() for u in f.units) == {"runner.js"}
