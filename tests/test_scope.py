"""Workspace scope: what is indexed, what is skipped, and that every skip says why."""

from __future__ import annotations

import json

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.index.index import RootIndex
from codegraph.workspace.scope import ScopeConfig

CODE = "def f():\n    return 1\n"


def write(root: Path, rel: str, data: str | bytes = CODE) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)


def indexed(root: Path, **config) -> RootIndex:
    index = RootIndex(root, ScopeConfig(**config), use_cache=False)
    index.build()
    return index


def skipped(index: RootIndex) -> dict[str, str]:
    return {row["path"]: row["reason"] for row in index.status()["skipped"]}


@pytest.fixture
def root(tmp_path):
    r = tmp_path / "ws"
    write(r, "app/main.py")
    return r


def test_plain_source_is_indexed(root):
    assert list(indexed(root).files) == ["app/main.py"]


def test_root_gitignore_skips_files_and_dirs_with_reason(root):
    write(root, ".gitignore", "scratch.py\ngenerated_dir/\n")
    write(root, "scratch.py")
    write(root, "generated_dir/x.py")
    s = skipped(indexed(root))
    assert s["scratch.py"] == ".gitignore"
    assert s["generated_dir/"] == ".gitignore"


def test_nested_gitignore_applies_below_its_directory_only(root):
    write(root, "pkg/.gitignore", "local_*.py\n")
    write(root, "pkg/local_tmp.py")
    write(root, "local_top.py")
    index = indexed(root)
    assert skipped(index)["pkg/local_tmp.py"] == ".gitignore"
    assert "local_top.py" in index.files


def test_gitignore_negation_keeps_a_file(root):
    write(root, ".gitignore", "*.py\n!app/main.py\n")
    write(root, "other.py")
    index = indexed(root)
    assert "app/main.py" in index.files and "other.py" not in index.files


def test_configured_excludes_skip_with_reason(root):
    write(root, "legacy/old.py")
    write(root, "app/gen_models.py")
    s = skipped(indexed(root, exclude=("legacy/", "gen_*.py")))
    assert s["legacy/"] == "excluded by configuration"
    assert s["app/gen_models.py"] == "excluded by configuration"


@pytest.mark.parametrize(
    "dirname", ["node_modules", ".venv", "venv", "build", "dist", "vendor", "_vendor", "vendored", "__pycache__", "target", "site-packages"]
)
def test_default_excluded_directories_are_skipped_with_reason(root, dirname):
    write(root, f"{dirname}/lib.py")
    index = indexed(root)
    assert f"{dirname}/lib.py" not in index.files
    assert skipped(index)[f"{dirname}/"]


def test_a_package_that_ships_only_its_build_is_indexed_from_it(tmp_path):
    """An npm package whose code is all in `dist/` (its package.json's main points there): the build
    is the code. With more than a few files outside, `dist/` stays out as build output."""
    r = tmp_path / "pkg"
    write(r, "package.json", '{"main": "./dist/source/index.js"}\n')
    write(r, "dist/source/index.js", "export function request(url) {\n  return fetch(url);\n}\n")
    write(r, "dist/source/core/options.js", "export function merge(a, b) {\n  return {...a, ...b};\n}\n")
    write(r, "node_modules/dep/index.js", "export function dep() {}\n")
    index = indexed(r)
    assert {"dist/source/index.js", "dist/source/core/options.js"} <= set(index.files)
    assert "dist/" not in skipped(index) and "node_modules/" in skipped(index)
    assert index.scope.check_abs(str(r / "dist/source/index.js"))[1] is None  # an editor's open file too
    for name in ("a", "b", "c", "d"):
        write(r, f"src/{name}.js", f"export function {name}() {{}}\n")
    index = indexed(r)
    assert skipped(index)["dist/"] == "build output" and not any(p.startswith("dist/") for p in index.files)
    assert index.scope.check_abs(str(r / "dist/source/index.js"))[1] == "build output"


def test_a_package_whose_files_outside_its_build_are_doors_into_it_is_indexed_from_the_build(tmp_path):
    """yargs ships its code in `build/lib/`; outside it, `index.cjs` (its main) requires
    `./build/index.cjs`, beside a few platform shims and module-format doors: eight small files,
    and before, the only ones indexed (every question answered "nothing matched"). Doors this small
    beside the build make the build the code; source beside its build (a `src/` as large as the
    `dist/` its main names) keeps the build out."""
    body = "".join(f"export function step{i}(argv) {{\n  return parse(argv, {i});\n}}\n" for i in range(40))
    r = tmp_path / "doors"
    write(r, "package.json", '{"main": "./index.cjs", "exports": {".": [{"import": "./index.mjs"}, "./index.cjs"]}}\n')
    write(r, "index.cjs", "const {Yargs} = require('./build/index.cjs');\nmodule.exports = Yargs;\n")
    for name in ("index.mjs", "yargs.mjs", "browser.mjs", "helpers/index.js", "helpers/helpers.mjs", "lib/platform-shims/esm.mjs"):
        write(r, name, "export * from './build/lib/yargs-factory.js';\n")
    write(r, "build/index.cjs", body)
    write(r, "build/lib/command.js", body.replace("step", "command"))
    write(r, "build/lib/yargs-factory.js", body.replace("step", "factory"))
    index = indexed(r)
    assert {"build/lib/command.js", "build/lib/yargs-factory.js", "index.mjs"} <= set(index.files)
    assert "build/" not in skipped(index)

    r = tmp_path / "compiled"
    write(r, "package.json", '{"main": "./dist/index.js"}\n')
    for name in ("index", "command", "factory", "parse", "usage"):
        write(r, f"src/{name}.ts", body.replace("step", name))
        write(r, f"dist/{name}.js", body.replace("step", name))
    index = indexed(r)
    assert skipped(index)["dist/"] == "build output" and "src/command.ts" in index.files

    r = tmp_path / "bundled"  # a little TypeScript compiled into a large bundle: still the source
    write(r, "package.json", '{"main": "./dist/index.js"}\n')
    for name in ("index", "command", "factory", "parse"):
        write(r, f"src/{name}.ts", f"export function {name}(argv) {{\n  return argv;\n}}\n")
    write(r, "dist/index.js", body * 3)
    index = indexed(r)
    assert skipped(index)["dist/"] == "build output" and "src/command.ts" in index.files


def test_declarations_beside_a_shipped_build_do_not_make_it_source(tmp_path):
    """vite ships its code in `dist/`, beside a `bin/` of two small scripts and twenty type
    declarations (`types/*.d.ts`, `client.d.ts`): the declarations describe the build, they are no
    code of their own. Counted as files outside, they kept `dist/` out and left 44 declarations indexed."""
    body = "".join(f"export function step{i}(argv) {{\n  return argv + {i};\n}}\n" for i in range(40))
    r = tmp_path / "pkg"
    write(r, "package.json", '{"bin": {"tool": "bin/tool.js"}, "exports": {".": "./dist/node/index.js"}}\n')
    write(r, "bin/tool.js", "import('../dist/node/cli.js');\n")
    write(r, "bin/open.js", "export function open(url) {\n  return url;\n}\n")
    for i in range(20):
        write(r, f"types/t{i}.d.ts", f"export interface T{i} {{\n  id: string;\n}}\n")
    write(r, "dist/node/index.js", body)
    write(r, "dist/node/cli.js", body.replace("step", "cli"))
    index = indexed(r)
    assert {"dist/node/index.js", "dist/node/cli.js", "types/t0.d.ts"} <= set(index.files)
    assert "dist/" not in skipped(index)



def test_a_gitignore_rule_for_build_output_leaves_a_package_named_like_it_below_a_jvm_source_root(root):
    """A Maven project's `.gitignore` says `target/` and `out` for its build output; the library's own
    `org.acme.aop.target` package is source all the same, and the other rules still apply inside it.
    Before: the package was skipped by `.gitignore`."""
    write(root, ".gitignore", "target/\nout\n*.tmp.java\n")
    write(root, "lib-aop/src/main/java/org/acme/aop/target/PoolingTargetSource.java", "package org.acme.aop.target;\n\nclass PoolingTargetSource {}\n")
    write(root, "lib-aop/src/main/java/org/acme/aop/target/Scratch.tmp.java", "class Scratch {}\n")
    write(root, "lib-aop/src/main/java/org/acme/aop/out/Printer.java", "package org.acme.aop.out;\n\nclass Printer {}\n")
    write(root, "lib-aop/src/main/java/org/acme/aop/target/.gitignore", "Local.java\n")
    write(root, "lib-aop/src/main/java/org/acme/aop/target/Local.java", "class Local {}\n")
    write(root, "lib-aop/target/classes/Out.java", "class Out {}\n")
    index = indexed(root)
    assert {"lib-aop/src/main/java/org/acme/aop/target/PoolingTargetSource.java", "lib-aop/src/main/java/org/acme/aop/out/Printer.java"} <= set(index.files)
    s = skipped(index)
    assert s["lib-aop/src/main/java/org/acme/aop/target/Scratch.tmp.java"] == ".gitignore"
    assert s["lib-aop/src/main/java/org/acme/aop/target/Local.java"] == ".gitignore"
    assert "lib-aop/target/classes/Out.java" not in index.files


def test_a_package_named_like_build_output_below_a_jvm_source_root_is_source(root):
    """`src/commonMain/kotlin/acme/ui/target/Target.kt` is the library's `acme.ui.target` package; the
    module's own `build/` and `target/` beside `src/` stay build output."""
    write(root, "lib/src/commonMain/kotlin/acme/ui/target/Target.kt", "package acme.ui.target\n\ninterface Target\n")
    write(root, "lib/src/main/java/com/acme/build/Builder.java", "package com.acme.build;\n\nclass Builder {}\n")
    write(root, "lib/build/generated/Gen.kt", "class Gen\n")
    write(root, "lib/target/classes/Out.java", "class Out {}\n")
    index = indexed(root)
    assert "lib/src/commonMain/kotlin/acme/ui/target/Target.kt" in index.files
    assert "lib/src/main/java/com/acme/build/Builder.java" in index.files
    s = skipped(index)
    assert s["lib/build/"] == "build output" and s["lib/target/"] == "build output"
    assert not any(k.startswith("lib/src/") for k in s)


def test_vcs_directory_is_never_indexed(root):
    write(root, ".git/hooks/x.py")
    assert list(indexed(root).files) == ["app/main.py"]


@pytest.mark.parametrize("name", ["package-lock.json", "yarn.lock", "Cargo.lock", "go.sum", "poetry.lock"])
def test_lockfiles_are_never_indexed(root, name):
    write(root, name, "{}\n")
    assert name not in indexed(root).files


@pytest.mark.parametrize("name", ["app.min.js", "bundle.bundle.js", "msg_pb2.py", "api.pb.go", "x.generated.ts"])
def test_minified_or_generated_names_are_skipped_with_reason(root, name):
    write(root, name, "var a=1;\n")
    assert skipped(indexed(root))[name] == "generated or minified"


@pytest.mark.parametrize("name", ["index.umd.js", "lib/zod.iife.js", "dist-free/index.global.js"])
def test_bundle_names_are_skipped_with_reason(root, name):
    write(root, name, "(function (global, factory) { factory(global); })(this, function (exports) {});\n")
    assert skipped(indexed(root))[name] == "generated or minified"


def test_a_module_format_copy_beside_its_js_is_skipped_with_reason(root):
    """A package built for ESM and CommonJS ships `parse.js` and `parse.mjs` (or `.cjs`): one is
    indexed; an `.mjs` or `.cjs` with no `.js` of its name is the source itself."""
    for rel in ("parse.js", "parse.mjs", "lib/index.js", "lib/index.cjs", "dist-free/index.mjs", "dist-free/index.cjs",
                "esm/only.mjs", "cli.cjs", "yup.js", "yup.esm.js", "lone.esm.js"):
        write(root, rel, "export function f() { return 1 }\n")
    index = indexed(root)
    s = skipped(index)
    copy = "module-format copy (the same module's .js, or its .mjs, is indexed)"
    assert s["parse.mjs"] == s["lib/index.cjs"] == s["dist-free/index.cjs"] == s["yup.esm.js"] == copy
    assert {"parse.js", "lib/index.js", "dist-free/index.mjs", "esm/only.mjs", "cli.cjs", "yup.js", "lone.esm.js"} <= set(index.files)


def test_a_commonjs_build_named_by_infix_beside_its_es_module_build_is_skipped(root):
    """A build tool naming each format by an infix writes `pkg.cjs.js` beside `pkg.esm.js` (and
    `pkg.development.cjs.js` beside `pkg.development.esm.js`) with no plain `pkg.js`: the ES module
    build is indexed, its CommonJS twin is a copy; a `.cjs.js` with no `.esm.js` is the code."""
    for rel in ("lib/pkg.cjs.js", "lib/pkg.esm.js", "lib/pkg.development.cjs.js", "lib/pkg.development.esm.js",
                "lib/only.cjs.js"):
        write(root, rel, "export function f() { return 1 }\n")
    index = indexed(root)
    s = skipped(index)
    copy = "module-format copy (the same module's .js, or its .mjs, is indexed)"
    assert s["lib/pkg.cjs.js"] == s["lib/pkg.development.cjs.js"] == copy
    assert {"lib/pkg.esm.js", "lib/pkg.development.esm.js", "lib/only.cjs.js"} <= set(index.files)


def test_a_module_format_copy_of_declarations_is_skipped_with_reason(root):
    """tsc, tsup and friends write each module's declarations once per format: `parse.d.ts` beside
    `parse.d.cts` (or `.d.mts`); one is indexed, and a `.d.cts` or `.d.mts` alone is the declaration."""
    for rel in ("parse.d.ts", "parse.d.cts", "lib/index.d.mts", "lib/index.d.cts", "only.d.cts", "esm.d.mts"):
        write(root, rel, "export declare function f(): number;\nexport declare class Parser {\n    run(): void;\n}\n")
    index = indexed(root)
    s = skipped(index)
    copy = "module-format copy (the same module's .d.ts, or its .d.mts, is indexed)"
    assert s["parse.d.cts"] == s["lib/index.d.cts"] == copy
    assert {"parse.d.ts", "lib/index.d.mts", "only.d.cts", "esm.d.mts"} <= set(index.files)


def test_a_build_whose_source_map_names_indexed_sources_is_a_compiled_copy(root):
    """A TypeScript package ships `src/` beside `lib/commonjs/` and `lib/module/`, each built file
    with its `.js.map` naming `../../src/…`: the build repeats the source. A map whose sources are
    not shipped, or are no workspace paths (`webpack://`), keeps its file: then it is the code."""
    ts = "export function useProgress(): number {\n  return 1\n}\n"
    js = "export function useProgress() {\n  return 1\n}\n//# sourceMappingURL=useProgress.js.map\n"
    write(root, "src/useProgress.tsx", ts)
    for build in ("lib/commonjs", "lib/module"):
        write(root, f"{build}/useProgress.js", js)
        write(root, f"{build}/useProgress.js.map", '{"version":3,"names":["useProgress"],"sources":["../../src/useProgress.tsx"],"mappings":"AAAA"}')
    write(root, "lib/module/only.js", js)
    write(root, "lib/module/only.js.map", '{"version":3,"sources":["../../src/only.tsx"],"mappings":"AAAA"}')
    write(root, "lib/module/packed.js", js)
    write(root, "lib/module/packed.js.map", '{"version":3,"sources":["webpack://pkg/./src/useProgress.tsx"],"mappings":""}')
    write(root, "lib/module/broken.js", js)
    write(root, "lib/module/broken.js.map", '{"version":3,"sources":')
    index = indexed(root)
    s = skipped(index)
    copy = "compiled copy (its source map's sources are indexed)"
    assert s["lib/commonjs/useProgress.js"] == s["lib/module/useProgress.js"] == copy
    assert {"src/useProgress.tsx", "lib/module/only.js", "lib/module/packed.js", "lib/module/broken.js"} <= set(index.files)


def test_a_build_whose_source_map_names_its_source_by_bare_name_is_a_compiled_copy(root):
    """react-native-builder-bob's Babel writes `lib/module/components/Hooks.js.map` naming only
    `"Hooks.tsx"`, with its text in `sourcesContent`: the source is the file of that name and text
    under a sibling of the build's directories (`src/components/Hooks.tsx`). A same-named file of
    other text, or a map without the text, proves no copy."""
    ts = "export function useProgress(): number {\n  return 1\n}\n"
    js = "export function useProgress() {\n  return 1\n}\n//# sourceMappingURL=Hooks.js.map\n"
    def bare_map(content):
        return json.dumps({"version": 3, "sources": ["Hooks.tsx"], "sourcesContent": [content] if content is not None else None, "mappings": "AAAA"})
    write(root, "src/components/Hooks.tsx", ts)
    write(root, "src/Top.tsx", ts)
    for build in ("lib/commonjs", "lib/module"):
        write(root, f"{build}/components/Hooks.js", js)
        write(root, f"{build}/components/Hooks.js.map", bare_map(ts))
    write(root, "lib/module/Top.js", js)
    write(root, "lib/module/Top.js.map", bare_map(ts).replace("Hooks.tsx", "Top.tsx"))
    write(root, "lib/module/other/Hooks.js", js)
    write(root, "lib/module/other/Hooks.js.map", bare_map(ts + "// changed\n"))
    write(root, "lib/module/plain/Hooks.js", js)
    write(root, "lib/module/plain/Hooks.js.map", bare_map(None))
    index = indexed(root)
    s = skipped(index)
    copy = "compiled copy (its source map's sources are indexed)"
    assert s["lib/commonjs/components/Hooks.js"] == s["lib/module/components/Hooks.js"] == s["lib/module/Top.js"] == copy
    assert {"src/components/Hooks.tsx", "lib/module/other/Hooks.js", "lib/module/plain/Hooks.js"} <= set(index.files)


def test_a_crate_cargo_vendor_copied_is_vendored_code(root):
    """`cargo vendor` writes `.cargo-checksum.json` into each crate it copies (a Python sdist of a
    Rust extension ships them below `include/cargo/`): their code is dependencies', at any path.
    The root itself being such a crate (a registry copy opened on its own) is the code."""
    write(root, "src/lib.rs", "pub fn dumps() {}\n")
    write(root, "include/cargo/serde_json-1.0.107/.cargo-checksum.json", '{"files":{},"package":"x"}')
    write(root, "include/cargo/serde_json-1.0.107/src/ser.rs", "pub fn to_vec() {}\n")
    write(root, "include/cargo/notes/src/keep.rs", "pub fn keep() {}\n")
    index = indexed(root)
    assert skipped(index)["include/cargo/serde_json-1.0.107/"] == "vendored code (a crate cargo vendor copied)"
    assert index.scope.file_reason("include/cargo/serde_json-1.0.107/src/ser.rs") == "inside an excluded directory"
    assert {"src/lib.rs", "include/cargo/notes/src/keep.rs"} <= set(index.files)
    assert "include/cargo/serde_json-1.0.107/src/ser.rs" not in index.files
    crate = root / "include/cargo/serde_json-1.0.107"
    assert "src/ser.rs" in indexed(crate).files


def test_a_python_package_named_like_build_output_is_source(root):
    """A directory holding `__init__.py` is a package that code imports: an installer's own
    `_internal/operations/build/`, a project whose import name is `coverage` or `build` (the whole
    package was skipped as build output). What setuptools writes, `build/lib/pkg/`, stays out."""
    write(root, "src/tool/operations/build/__init__.py", "")
    write(root, "src/tool/operations/build/wheel.py", "def build_wheel():\n    return 1\n")
    write(root, "coverage/__init__.py", "")
    write(root, "coverage/control.py", "class Coverage:\n    pass\n")
    write(root, "build/lib/tool/__init__.py", "")
    write(root, "build/lib/tool/copy.py", CODE)
    index = indexed(root)
    assert {"src/tool/operations/build/wheel.py", "coverage/control.py"} <= set(index.files)
    assert skipped(index)["build/"] == "build output"
    assert not any(p.startswith("build/") for p in index.files)
    assert index.scope.file_reason("src/tool/operations/build/wheel.py") is None
    assert index.scope.file_reason("build/lib/tool/copy.py") == "inside an excluded directory"


def test_a_site_sphinx_built_is_build_output(root):
    """Sphinx's HTML builder writes `.buildinfo` (or at least `searchindex.js`) beside its theme's
    `_static/` scripts; an sdist that ships its built docs (in `docs/_build/html/`, or straight into
    `docs/`) ships those scripts, which are no code of the project. A hand-written `_static/` script
    of a docs source tree without the marks stays."""
    write(root, "pkg/core.py")
    write(root, "docs/_build/html/.buildinfo", "# Sphinx build info version 1\n")
    write(root, "docs/_build/html/_static/doctools.js", "const Documentation = { init() {} };\n")
    write(root, "site/searchindex.js", "Search.setIndex({})\n")
    write(root, "site/_static/searchtools.js", "function query() {}\n")
    write(root, "docs/_static/custom.js", "function toggle() {}\n")
    index = indexed(root)
    s = skipped(index)
    assert s["docs/_build/html/"] == s["site/"] == "build output (a site Sphinx built)"
    assert index.scope.file_reason("site/_static/searchtools.js") == "inside an excluded directory"
    assert {"pkg/core.py", "docs/_static/custom.js"} <= set(index.files)
    assert not any(p.startswith(("site/", "docs/_build/")) for p in index.files)


def test_generated_header_is_skipped_with_reason(root):
    write(root, "models.py", "# Code generated by protoc. DO NOT EDIT.\n" + CODE)
    assert skipped(indexed(root))["models.py"] == "generated (marked in header)"


def test_a_generated_bundle_the_package_publishes_is_its_code(root):
    """A package that ships only its bundled build (the source not shipped) says in the bundle's banner that it
    was generated from `./src/`: the file its package.json publishes is the package's code all the same. A
    generated file the package.json does not name stays out."""
    banner = "/**\n * DO NOT EDIT THIS FILE\n * The code in this file is generated from files in ./src/\n */\n"
    write(root, "package.json", '{"name": "mdlib", "module": "./lib/mdlib.esm.js", "exports": {".": "./lib/mdlib.esm.js"}}')
    write(root, "lib/mdlib.esm.js", banner + "export function lex(src) {\n  return src.split(' ');\n}\n")
    write(root, "lib/extra.js", banner + "export function other() {\n  return 1;\n}\n")
    index = indexed(root)
    assert "lib/mdlib.esm.js" in index.files
    assert skipped(index)["lib/extra.js"] == "generated (marked in header)"


def test_generated_mark_after_a_license_block_is_skipped(root):
    write(root, "api.go", "/*\n * License text.\n */\n\n// Code generated by a tool. DO NOT EDIT.\n\npackage api\n")
    assert skipped(indexed(root))["api.go"] == "generated (marked in header)"


@pytest.mark.parametrize("header", [
    "// Copyright 2012 The Go Authors.\n\n//go:build ignore\n// +build ignore\n\n",
    "// +build ignore\n\n",
])
def test_a_go_program_kept_out_of_every_build_is_skipped_with_reason(root, header):
    """x/net's `publicsuffix/gen.go` is `//go:build ignore`, `package main`: a generator run by
    hand (`go run gen.go`), in no package the directory builds; distill took its `main1` for a
    sink of the library. A constraint on platforms or tags is no such mark."""
    write(root, "publicsuffix/gen.go", header + "package main\n\nfunc main() {}\n")
    write(root, "publicsuffix/list_linux.go", "//go:build linux && !ignore\n\npackage publicsuffix\n\nfunc List() {}\n")
    write(root, "publicsuffix/doc.go", "package publicsuffix\n\n// A comment naming //go:build ignore is no constraint.\nfunc Doc() {}\n")
    index = indexed(root)
    assert skipped(index)["publicsuffix/gen.go"] == "not built (Go's //go:build ignore)"
    assert {"publicsuffix/list_linux.go", "publicsuffix/doc.go"} <= set(index.files)


@pytest.mark.parametrize("header", [
    "// Copyright 2015 The Authors.\n//\n// Licensed under the Apache License.\n\n//go:build gofuzz\n\n",
    "// +build gofuzz\n\n",
    "//go:build gofuzz && !appengine\n\n",
])
def test_a_go_fuzzing_harness_built_only_under_gofuzz_is_skipped_with_reason(root, header):
    """go-fuzz builds the files tagged `gofuzz` (`func FuzzParse(data []byte) int`); no build of the
    package does: a harness, which explore's flow opened with (`FuzzClient` → `client.parse`). A
    library about fuzzing (`fuzz.go` untagged) and a constraint merely naming the tag stay code."""
    write(root, "server/fuzz.go", header + "package server\n\nfunc FuzzClient(data []byte) int { return 0 }\n")
    write(root, "gofuzz/fuzz.go", "package gofuzz\n\nfunc New() {}\n")
    write(root, "server/pool.go", "//go:build !gofuzz || linux\n\npackage server\n\nfunc Pool() {}\n")
    index = indexed(root)
    assert skipped(index)["server/fuzz.go"] == "fuzzing harness (Go's //go:build gofuzz)"
    assert {"gofuzz/fuzz.go", "server/pool.go"} <= set(index.files)


def test_a_library_definition_flow_typed_installed_is_vendored(root):
    """flow-typed writes a dependency's type definitions into the project (`flow-typed/npm/chai_v4.x.x.js`,
    `declare module "chai" {…}`) under its signature line: the dependency's types, not the project's
    code (a WebAssembly toolchain's 23 such files held most of its syntax errors). Naming the tool is no mark."""
    write(root, "types/npm/chai_v4.x.x.js", "// flow-typed signature: 5ebfab521cce28c691a4fdfe8992f4e2\n"
          "// flow-typed version: da30fe6876/chai_v4.x.x/flow_>=v0.25.0\n\ndeclare module \"chai\" {\n  declare function expect(v: any): any;\n}\n")
    write(root, "src/libdefs.js", "// Installs definitions (see the flow-typed signature: line they open with).\nexport function install() {}\n")
    index = indexed(root)
    assert skipped(index)["types/npm/chai_v4.x.x.js"] == "vendored code (a library definition flow-typed installed)"
    assert "src/libdefs.js" in index.files


@pytest.mark.parametrize("header", [
    "/*\n* CODE GENERATED AUTOMATICALLY WITH github.com/acme/tool/_codegen\n* THIS FILE MUST NOT BE EDITED BY HAND\n */\n",
    "// Generated by the protocol buffer compiler.  DO NOT EDIT!\n",
    "///\n/// Equal.kt\n/// This file was generated by a bridge tool. DO NOT MODIFY THIS FILE.\n///\n",
])
def test_other_generators_marks_are_generated_headers(root, header):
    """testify ships `require/require_forward.go`, generated from `assert/`: its header says so in
    words the Go convention's `Code generated … DO NOT EDIT.` does not use, and every assertion
    showed twice."""
    write(root, "require_forward.go", header + "\npackage require\n\nfunc Equal() {}\n")
    assert skipped(indexed(root))["require_forward.go"] == "generated (marked in header)"


@pytest.mark.parametrize("header", [
    "# file generated by setuptools_scm\n# don't change, don't track in version control\n",
    "\n# This file was generated by 'versioneer.py' (0.19) from\n# revision-control system data.\n",
])
def test_a_version_file_a_build_tool_wrote_is_generated(root, header):
    """setuptools_scm and versioneer write the package's `_version.py` into the sdist; their
    headers say so in words of their own. Naming another file so generated marks no file."""
    write(root, "pkg/_version.py", header + "version = '1.0'\n\ndef get_versions():\n    return {}\n")
    write(root, "pkg/lock.py", "# Reads the lock file generated by pip-compile.\n" + CODE)
    index = indexed(root)
    assert skipped(index)["pkg/_version.py"] == "generated (marked in header)"
    assert "pkg/lock.py" in index.files


def test_generated_words_in_an_items_doc_comment_do_not_skip_the_file(root):
    write(root, "help.rs", "use std::fmt;\n\n/// An auto-generated help writer\npub struct Help {}\n")
    assert "help.rs" in indexed(root).files


def test_minified_content_is_skipped_with_reason(root):
    write(root, "lib.js", "var a=" + "1+" * 15000 + "1;\n")
    assert skipped(indexed(root))["lib.js"].startswith("minified")


def test_a_small_minified_javascript_module_is_skipped_and_wrapped_code_is_not(root):
    """lit-html ships each module minified under its license comment (`static.js`: 996 bytes in nine
    lines) beside its readable build in `development/`: too small for the average-line rule, and
    distill named the minified `n` the package's entry point. Most of its bytes are in one line
    over 500 chars; hand-written code wraps (a long line or two in a file of its own stays)."""
    header = "/**\n * @license\n * Copyright 2017 Google LLC\n * SPDX-License-Identifier: BSD-3-Clause\n */\n"
    minified = "import{html as t}from'./lit-html.js';" + "".join(f"const a{i}=t=>t+{i};" for i in range(40)) + "export{a0 as n};\n"
    write(root, "static.js", header + minified + "//# sourceMappingURL=static.js.map\n")
    write(root, "development/static.js", "export function n(t) {\n  return t;\n}\n")
    long_line = "export const PATTERN = /" + "a|" * 300 + "b/;\n"
    write(root, "pattern.js", long_line + "".join(f"export function f{i}(x) {{\n  return PATTERN.test(x) + {i};\n}}\n" for i in range(20)))
    write(root, "tables.py", "__all__ = [" + ", ".join(f"'name{i}'" for i in range(80)) + "]\n")
    index = indexed(root)
    assert skipped(index)["static.js"].startswith("minified")
    assert {"development/static.js", "pattern.js", "tables.py"} <= set(index.files)


def test_files_over_max_file_bytes_are_skipped_with_reason(root):
    write(root, "big.py", CODE * 50)
    s = skipped(indexed(root, max_file_bytes=200))
    assert s["big.py"].startswith("larger than maxFileBytes")


def test_a_hand_written_module_over_a_megabyte_is_indexed_by_default(root):
    # before: the default limit was 1,000,000 bytes, and a single-file library's 1.2 MB core (all of
    # its parser) was skipped as too large, leaving its plugins and examples to answer for it
    body = "".join(f"def step_{i}(request):\n    \"\"\"Step {i} of the parse.\"\"\"\n    return request.next({i}) or step_{i + 1}\n\n\n" for i in range(14_000))
    write(root, "core.py", body)
    assert len(body) > 1_100_000
    index = indexed(root)
    assert "core.py" not in skipped(index) and any(u.name == "step_13999" for u in index.files["core.py"].units)


def test_binary_file_with_source_extension_is_skipped_with_reason(root):
    write(root, "blob.py", b"\x00\x01\x02binary" * 10)
    s = skipped(indexed(root))
    assert "binary" in s["blob.py"]


def test_undecodable_file_is_skipped_with_reason(root):
    write(root, "latin.py", "x = 'caf\xe9'\n".encode("latin-1"))
    assert "UTF-8" in skipped(indexed(root))["latin.py"]


def test_declared_encoding_is_honoured(root):
    write(root, "latin.py", "# -*- coding: latin-1 -*-\ndef caf\xe9():\n    pass\n".encode("latin-1"))
    index = indexed(root)
    assert [u.name for u in index.files["latin.py"].units] == ["café"]


def test_symlink_leaving_the_root_is_refused_with_reason(root, tmp_path):
    outside = tmp_path / "outside"
    write(outside, "secret_code.py")
    os.symlink(outside / "secret_code.py", root / "link.py")
    os.symlink(outside, root / "linkdir")
    index = indexed(root)
    s = skipped(index)
    assert s["link.py"] == "symlink leaves the workspace"
    assert s["linkdir"] == "symlink leaves the workspace"
    assert all("secret_code" not in p for p in index.files)


def test_symlink_inside_the_root_is_indexed(root):
    os.symlink(root / "app/main.py", root / "alias.py")
    assert "alias.py" in indexed(root).files


@pytest.mark.parametrize("name", [".env", ".env.local", "id_rsa", "id_ed25519", "server.pem", "tls.key", "credentials.json", "secrets.yaml", "prod.tfvars"])
def test_secret_files_are_never_indexed_and_say_why(root, name):
    write(root, name, "AWS_SECRET_ACCESS_KEY=abc\n")
    index = indexed(root)
    assert name not in index.files
    assert skipped(index)[name] == "secret-bearing file"


def test_secret_file_with_a_source_extension_is_never_indexed(root):
    write(root, ".ssh/config.py", "password = 'x'\n")
    write(root, "credentials.py.pem", "x\n")
    index = indexed(root)
    assert list(index.files) == ["app/main.py"]


def test_secret_never_appears_in_status(root):
    write(root, ".env", "TOKEN=supersecretvalue\n")
    assert "supersecretvalue" not in repr(indexed(root).status())


def test_every_skip_has_a_reason_in_status(root, tmp_path):
    write(root, ".gitignore", "ignored.py\n")
    write(root, "ignored.py")
    write(root, "node_modules/x.js")
    write(root, "app.min.js")
    write(root, ".env")
    write(root, "blob.py", b"\x00" * 10)
    status = indexed(root).status()
    assert status["skippedTotal"] == len(status["skipped"]) == 5
    assert all(row["reason"] for row in status["skipped"])


def test_cli_index_prints_every_skip_reason(root):
    write(root, ".gitignore", "ignored.py\n")
    write(root, "ignored.py")
    write(root, "node_modules/x.js")
    write(root, "app.min.js")
    write(root, ".env")
    write(root, "blob.py", b"\x00" * 10)
    out = subprocess.run([sys.executable, "-m", "codegraph.cli", "index", str(root), "--no-cache"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    for reason in (".gitignore", "dependencies (node_modules)", "generated or minified", "secret-bearing file", "binary"):
        assert reason in out.stdout, reason
    assert "skipped     5" in out.stdout


def test_cli_index_json_lists_skipped_paths_with_reasons(root):
    write(root, ".env")
    out = subprocess.run([sys.executable, "-m", "codegraph.cli", "index", str(root), "--no-cache", "--json"], capture_output=True, text=True, timeout=60)
    import json

    data = json.loads(out.stdout)
    assert {"path": ".env", "reason": "secret-bearing file"} in data["skipped"]


@pytest.mark.parametrize("path", [
    "src/balance/test.rs", "src/tests.rs", "shop/tests.py",
    # Gradle / Kotlin Multiplatform test source sets: `<sourceSet>Test`
    "core/src/commonTest/kotlin/app/FakeLoader.kt", "core/src/androidUnitTest/kotlin/app/LoaderCheck.kt", "src/jvmTest/kotlin/Fake.kt",
    # test support kept outside test folders: a helpers module, a Go testutil package, a Gradle module
    "lib/test-helpers/src/main/java/lib/TestingUtils.java", "internal/testutil/env.go", "internal/test-utils/src/Fakes.kt",
    "lib-testing-support/src/commonMain/kotlin/lib/TestingCommon.kt", "core/src/testFixtures/java/core/Stub.java",
    # test-suite modules: one, or one per area, with test code in their main source set
    "testsuite/src/main/java/io/lib/testsuite/SocketEchoCase.java", "testsuite-http2/src/main/java/Case.java",
    "storage/driver/testsuites/testsuites.go",
    # a package's private test folders, and a library's pytest plugin beside its modules
    "src/lib/_tests/test_sync.py", "src/lib/_core/_tests/tutil.py", "lib/_testing/asserters.py",
    "lib/pytest_plugin.py", "src/_lib_pytestplugin.py", "lib/contrib/pytest.py",
    # JavaScript tests in either module system, and tsd's type tests beside the code or in `test-d/`
    "src/core.test.mjs", "lib/parse.spec.cts", "src/run.test.mts", "index.test-d.ts", "test-d/core.test-d.ts", "test-d/globals.ts",
])
def test_conventional_test_module_files_are_tests(path):
    from codegraph.workspace.scope import is_test_path

    assert is_test_path(path)


@pytest.mark.parametrize("path", [
    "okhttp-tests/src/main/java/okhttp3/AutobahnTester.java", "platform-tooling-support-tests/src/main/java/support/Helper.java",
    "server-it/src/main/java/org/lib/system/InstanceManager.java", "plugin/src/it/simple-project/src/main/java/Demo.java",
    "crates/ui_tests/src/lib.rs",
])
def test_a_build_modules_named_for_its_tests_are_tests(path):
    """A module a build names `<lib>-tests` or `<lib>-it` keeps its harness in its main source set (an
    integration-test launcher, a TLS check), and the Maven invoker plugin runs the projects in `src/it/`:
    test code, like `testsuite/`."""
    from codegraph.workspace.scope import is_test_path

    assert is_test_path(path)


@pytest.mark.parametrize("path", ["src/features/ab-tests/Variant.tsx", "lib/edit-it.js", "src/it/messages.json", "commit/src/main.rs",
                                  "credit/src/lib.rs"])
def test_a_word_ending_in_tests_or_it_outside_a_module_is_not_a_test(path):
    from codegraph.workspace.scope import is_test_path

    assert not is_test_path(path)


@pytest.mark.parametrize("path", ["src/testing_utils.rs", "src/contest.rs", "shop/attests.py", "src/test_helpers.rs", "core/src/commonMain/kotlin/app/Loader.kt",
                                  "contest-utils/score.py", "latest_support/feed.go", "src/attestkit/sign.rs",
                                  "suites/report.py", "lib/testsuiteparser/parse.go", "src/latest.mjs", "lib/test-dir.js",
                                  # the test runner's own source is no test support
                                  "src/_pytest/python.py", "src/pytest/__init__.py", "src/lib/_testbed.py"])
def test_names_that_only_contain_test_are_not_tests(path):
    from codegraph.workspace.scope import is_test_path

    assert not is_test_path(path)


def test_a_generated_mark_written_as_a_value_marks_nothing(root):
    write(root, "marks.py", 'MARK = re.compile(rb"@generated|DO NOT EDIT")\n' + CODE)
    assert "marks.py" not in skipped(indexed(root))


GRPC_STUB = """package io.lib.health;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 */
@javax.annotation.Generated(
    value = "by gRPC proto compiler",
    comments = "Source: health.proto")
public final class HealthGrpc {
  private HealthGrpc() {}
}
"""

LOMBOK_STYLE = """package io.lib;

import javax.annotation.Generated;

public class Point {
  @Generated("by hand, for coverage tools")
  public int hashCode() { return 1; }
}
"""


def test_a_jvm_type_annotated_as_generated_is_generated_code(root):
    """Code generators for Java annotate the type they write (`@javax.annotation.Generated`, gRPC's
    stubs under `src/generated/`, OpenAPI's models) rather than comment it: the stubs were indexed as
    the project's code. The annotation on a member, below the type's declaration, marks no file."""
    write(root, "api/src/generated/main/grpc/io/lib/health/HealthGrpc.java", GRPC_STUB)
    write(root, "model/Pet.kt", "package model\n\n@Generated(\"openapi\")\ndata class Pet(val id: Long)\n")
    write(root, "src/main/java/io/lib/Point.java", LOMBOK_STYLE)
    index = indexed(root)
    reasons = skipped(index)
    assert reasons["api/src/generated/main/grpc/io/lib/health/HealthGrpc.java"].startswith("generated")
    assert reasons["model/Pet.kt"].startswith("generated")
    assert "src/main/java/io/lib/Point.java" in index.files


def test_external_is_vendored_at_the_root_only(root):
    """A top-level `external/` holds dependencies checked out into the project; a nested one
    (`src/interfaces/external/`) is the project's own code about something external."""
    write(root, "external/dep/lib.py")
    write(root, "src/interfaces/external/http.py")
    index = indexed(root)
    assert skipped(index)["external/"] == "vendored code"
    assert "src/interfaces/external/http.py" in index.files
    assert index.scope.file_reason("src/interfaces/external/http.py") is None
    assert index.scope.file_reason("external/dep/lib.py") == "inside an excluded directory"
