"""The conservative resolver: provable targets become edges, everything else stays unknown.

Each test writes a tiny repository, indexes it, and checks one behaviour by the call's
(file, line, callee) → target unit id, or that the call stayed unresolved.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from codegraph.index.index import RootIndex


def index_of(root: Path, files: dict[str, str]) -> RootIndex:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")
    index = RootIndex(root, use_cache=False)
    index.build()
    return index


def target(index: RootIndex, path: str, name: str, occurrence: int = 0) -> str | None:
    """The resolved target of the n-th call named `name` in `path`, None when it stayed unknown."""
    facts = index.files[path]
    bindings = index.bindings[path]
    # call edges are written in call order, one per call that is not unresolved
    call_edges = iter(e for e in bindings.edges if e.kind in ("calls", "constructs"))
    unresolved = set(bindings.unresolved)
    seen = 0
    for i, call in enumerate(facts.calls):
        dst = None if i in unresolved else next(call_edges).dst
        if call.name == name:
            if seen == occurrence:
                return dst
            seen += 1
    raise AssertionError(f"no call {name!r} #{occurrence} in {path}: {[c.name for c in facts.calls]}")


# ---- shadowing ----------------------------------------------------------------------------


def test_nested_function_shadows_module_function(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        def helper():
            return 1

        def outer():
            def helper():
                return 2
            return helper()
    """})
    assert target(index, "m.py", "helper") == "m.py::outer.helper"


def test_name_both_imported_and_defined_in_the_file_stays_unknown(tmp_path):
    index = index_of(tmp_path, {
        "a.py": "def run():\n    return 1\n",
        "b.py": "from a import run\n\ndef run():\n    return 2\n\ndef main():\n    return run()\n",
    })
    assert target(index, "b.py", "run") is None


def test_parameter_shadowing_an_import_stays_unknown(tmp_path):
    index = index_of(tmp_path, {
        "a.py": "def make():\n    return 1\n",
        "b.py": "from a import make\n\ndef apply(make):\n    return make()\n",
    })
    assert target(index, "b.py", "make") is None


def test_method_name_does_not_shadow_module_function_for_bare_python_calls(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        def size():
            return 0

        class Box:
            def size(self):
                return 1

            def total(self):
                return size()
    """})
    # Python methods are not in scope by bare name inside the class
    assert target(index, "m.py", "size") == "m.py::size"


# ---- imports and aliases ----------------------------------------------------------------------


def test_from_import_alias_resolves_to_the_original(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/shapes.py": "def make_square():\n    return 1\n",
        "main.py": "from pkg.shapes import make_square as sq\n\ndef main():\n    return sq()\n",
    })
    assert target(index, "main.py", "sq") == "pkg/shapes.py::make_square"


def test_original_name_is_not_bound_by_an_aliased_import(tmp_path):
    index = index_of(tmp_path, {
        "shapes.py": "def make_square():\n    return 1\n",
        "main.py": "from shapes import make_square as sq\n\ndef main():\n    return make_square()\n",
    })
    assert target(index, "main.py", "make_square") is None


def test_module_alias_attribute_call_resolves(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/util.py": "def helper():\n    return 1\n",
        "main.py": "import pkg.util as u\n\ndef main():\n    return u.helper()\n",
    })
    assert target(index, "main.py", "helper") == "pkg/util.py::helper"


def test_relative_import_resolves_within_the_package(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "def f():\n    return 1\n",
        "pkg/b.py": "from .a import f\n\ndef g():\n    return f()\n",
    })
    assert target(index, "pkg/b.py", "f") == "pkg/a.py::f"


def test_typescript_named_import_alias_resolves(tmp_path):
    index = index_of(tmp_path, {
        "src/a.ts": "export function make(): number { return 1; }\n",
        "src/b.ts": "import { make as build } from './a';\nexport function main() { return build(); }\n",
    })
    assert target(index, "src/b.ts", "build") == "src/a.ts::make"


def test_commonjs_destructured_require_resolves(tmp_path):
    """`const { parse, format: render } = require('./util')` binds like a named import; a
    require of a package outside the index binds nothing."""
    index = index_of(tmp_path, {
        "lib/util.js": "function parse(text) { return text; }\nfunction format(value) { return String(value); }\nmodule.exports = { parse, format };\n",
        "lib/main.js": "const { parse, format: render } = require('./util');\nconst { join } = require('node:path');\n"
        "function main(text) { return render(parse(join(text))); }\nmodule.exports = main;\n",
    })
    assert target(index, "lib/main.js", "parse") == "lib/util.js::parse"
    assert target(index, "lib/main.js", "render") == "lib/util.js::format"
    assert target(index, "lib/main.js", "join") is None


def test_a_named_class_expression_is_a_class_whose_this_calls_resolve(tmp_path):
    """`module.exports = class Application extends Emitter {…}` (and `const X = class Y {…}`)
    defines a class: its methods are `Application.listen`, and `this.callback()` inside them is
    the class's own `callback` — not ownerless functions and unknown calls."""
    index = index_of(tmp_path, {
        "lib/app.js": "module.exports = class Application {\n  listen() { return this.callback(); }\n  callback() { return 1; }\n};\n",
        "src/view.ts": "export const View = class Panel {\n  draw(): number { return this.size(); }\n  size(): number { return 2; }\n};\n",
    })
    assert [u.qualname for u in index.files["lib/app.js"].units if u.kind != "statement"] == ["Application", "Application.listen", "Application.callback"]
    assert target(index, "lib/app.js", "callback") == "lib/app.js::Application.callback"
    assert target(index, "src/view.ts", "size") == "src/view.ts::Panel.size"


def test_rust_use_alias_resolves(tmp_path):
    index = index_of(tmp_path, {
        "src/util.rs": "pub fn helper() -> u32 { 1 }\n",
        "src/main.rs": "mod util;\nuse crate::util::helper as h;\nfn main() { h(); }\n",
    })
    assert target(index, "src/main.rs", "h") == "src/util.rs::helper"


def test_rust_name_a_module_passes_on_resolves_to_its_definition(tmp_path):
    """`use crate::builder::Command` where `builder/mod.rs` only says `pub use command::Command`
    (a path from the module itself, to its child `mod command;`) or `pub use self::arg::*`: the
    importer reaches the definition, and the type a field declares is the struct."""
    index = index_of(tmp_path, {
        "src/lib.rs": "mod builder;\nmod parser;\n",
        "src/builder/mod.rs": "mod command;\nmod arg;\npub use command::Command;\npub use self::arg::*;\n",
        "src/builder/command.rs": "pub struct Command { n: u32 }\nimpl Command {\n    pub fn find(&self) -> u32 { self.n }\n}\n",
        "src/builder/arg.rs": "pub struct Arg;\nimpl Arg {\n    pub fn new() -> Self { Arg }\n}\n",
        "src/parser/mod.rs": (
            "use crate::builder::{Arg, Command};\n"
            "pub struct Validator<'cmd> { cmd: &'cmd Command }\n"
            "impl<'cmd> Validator<'cmd> {\n    pub fn check(&self) -> u32 { Arg::new(); self.cmd.find() }\n}\n"
        ),
    })
    assert target(index, "src/parser/mod.rs", "new") == "src/builder/arg.rs::Arg.new"
    assert target(index, "src/parser/mod.rs", "find") == "src/builder/command.rs::Command.find"


def test_a_re_export_added_to_a_module_later_rebinds_its_importers(tmp_path):
    """An edit to a module's imports alone defines nothing, yet changes what its importers bind:
    `pub use` in a Rust `mod.rs`, `export { f } from './f'` in a JavaScript index, `from .api
    import get` in a Python package's `__init__.py`."""
    index = index_of(tmp_path, {
        "src/lib.rs": "mod api;\nmod app;\n",
        "src/api/mod.rs": "mod fetch;\n",
        "src/api/fetch.rs": "pub fn get() -> u32 { 1 }\n",
        "src/app.rs": "use crate::api::get;\nfn main() { get(); }\n",
        "web/index.js": "",
        "web/f.js": "export function f() { return 1; }\n",
        "web/main.js": "import { f } from './index';\nfunction main() { return f(); }\n",
        "pkg/__init__.py": "",
        "pkg/api.py": "def get():\n    return 1\n",
        "app.py": "from pkg import get\n\ndef main():\n    return get()\n",
    })
    assert target(index, "src/app.rs", "get") is None
    assert target(index, "web/main.js", "f") is None
    assert target(index, "app.py", "get") is None
    (tmp_path / "src" / "api" / "mod.rs").write_text("mod fetch;\npub use fetch::get;\n")
    index.refresh_path("src/api/mod.rs")
    (tmp_path / "web" / "index.js").write_text("export { f } from './f';\n")
    index.refresh_path("web/index.js")
    (tmp_path / "pkg" / "__init__.py").write_text("from .api import get\n")
    index.refresh_path("pkg/__init__.py")
    assert target(index, "src/app.rs", "get") == "src/api/fetch.rs::get"
    assert target(index, "web/main.js", "f") == "web/f.js::f"
    assert target(index, "app.py", "get") == "pkg/api.py::get"
    (tmp_path / "src" / "api" / "mod.rs").write_text("mod fetch;\n")
    index.refresh_path("src/api/mod.rs")
    (tmp_path / "web" / "index.js").write_text("")
    index.refresh_path("web/index.js")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    index.refresh_path("pkg/__init__.py")
    assert target(index, "src/app.rs", "get") is None
    assert target(index, "web/main.js", "f") is None
    assert target(index, "app.py", "get") is None


def test_a_typed_parameter_of_an_anonymous_function_types_the_calls_on_it(tmp_path):
    """`func(cmd *Command, args []string) { cmd.Help() }` inside a Go function, `(it: Item) =>
    it.run()` in TypeScript: the parameter's declared type proves the call, inside that function
    (each anonymous function's parameters its own); outside it the name is what the function binds
    it to there (`var r *Mux` beside `go func(r *Command) {…}`)."""
    index = index_of(tmp_path, {
        "cmd.go": (
            "package cli\n\ntype Command struct{ name string }\n\n"
            "func (c *Command) Help() error { return nil }\n\n"
            "func Register(add func(f func(cmd *Command, args []string))) {\n"
            "\tadd(func(cmd *Command, args []string) {\n\t\tcmd.Help()\n\t})\n}\n\n"
            "type Mux struct{}\n\nfunc (m *Mux) Use() {}\n\n"
            "func Shadowed() {\n\tvar r *Mux\n\tr.Use()\n\tgo func(r *Command) { r.Help() }(nil)\n}\n"
        ),
        "a.ts": (
            "export class Item { run(): number { return 1 } }\n"
            "export class Other { run(): number { return 2 } }\n"
            "export function all(items: Item[]) {\n"
            "  items.forEach((it: Item, i?: number) => it.run())\n"
            "  items.map(function (x: Item) { return x.run() })\n"
            "}\n"
            "export function mixed(items: Item[], others: Other[]) {\n"
            "  items.forEach((y: Item) => y.run())\n"
            "  others.forEach(y => y.run())\n"
            "}\n"
        ),
    })
    assert target(index, "cmd.go", "Help") == "cmd.go::Command.Help"
    assert target(index, "a.ts", "run") == "a.ts::Item.run"
    assert target(index, "a.ts", "run", 1) == "a.ts::Item.run"
    # `y` is an Item in one arrow and an element of `others` in the other: each arrow's own
    assert target(index, "a.ts", "run", 2) == "a.ts::Item.run"
    assert target(index, "a.ts", "run", 3) == "a.ts::Other.run"
    # `r` is a *Command in the literal, its own there; outside it, the *Mux declared
    assert target(index, "cmd.go", "Use") == "cmd.go::Mux.Use"
    assert target(index, "cmd.go", "Help", 1) == "cmd.go::Command.Help"


def test_rust_associated_function_of_a_type_two_modules_name_alike(tmp_path):
    """A crate is one member scope for Rust (impl blocks may sit in any of its files): two modules'
    `ResponseFuture` pooled their `new`s, and `ResponseFuture::new(rx)` stayed unknown while the
    unique `ResponseFuture::failed` beside it was proven."""
    index = index_of(tmp_path, {
        "src/lib.rs": "mod buffer;\nmod limit;\n",
        "src/buffer/mod.rs": "mod future;\nmod service;\n",
        "src/buffer/future.rs": "pub struct ResponseFuture { x: u32 }\nimpl ResponseFuture {\n    pub fn new(x: u32) -> Self { ResponseFuture { x } }\n"
                                "    pub fn failed() -> Self { ResponseFuture { x: 0 } }\n}\n",
        "src/buffer/service.rs": "use super::future::ResponseFuture;\npub fn call(ok: bool) -> ResponseFuture {\n"
                                 "    if ok { ResponseFuture::new(1) } else { ResponseFuture::failed() }\n}\n",
        "src/limit/mod.rs": "pub struct ResponseFuture;\nimpl ResponseFuture { pub fn new() -> Self { ResponseFuture } }\n",
    })
    assert target(index, "src/buffer/service.rs", "new") == "src/buffer/future.rs::ResponseFuture.new"
    assert target(index, "src/buffer/service.rs", "failed") == "src/buffer/future.rs::ResponseFuture.failed"


def test_rust_impl_for_a_reference_puts_its_methods_on_the_type(tmp_path):
    """`impl<'de, 'b> de::Deserializer<'de> for &'b mut Deserializer<'a>` (serde's pattern): its
    methods are the type's (`Deserializer.deserialize_any`, not `&'b mut Deserializer.…`), and
    `self.tables()` in them is the inherent method on `Deserializer` — it was a name-only guess."""
    index = index_of(tmp_path, {
        "src/lib.rs": "mod de;\n",
        "src/de.rs": (
            "pub trait Visit { fn deserialize_any(self) -> u32; }\n"
            "pub struct Deserializer<'a> { input: &'a str }\n"
            "impl<'a> Deserializer<'a> {\n    pub fn tables(&mut self) -> u32 { self.input.len() as u32 }\n}\n"
            "impl<'a, 'b> Visit for &'b mut Deserializer<'a> {\n    fn deserialize_any(self) -> u32 { self.tables() }\n}\n"
        ),
    })
    assert "src/de.rs::Deserializer.deserialize_any" in index.resolver.units
    assert target(index, "src/de.rs", "tables") == "src/de.rs::Deserializer.tables"


def test_kotlin_import_alias_resolves(tmp_path):
    index = index_of(tmp_path, {
        "a/Util.kt": "package com.a\n\nfun helper(): Int = 1\n",
        "b/Main.kt": "package com.b\n\nimport com.a.helper as h\n\nfun main() { h() }\n",
    })
    assert target(index, "b/Main.kt", "h") == "a/Util.kt::helper"


def test_go_import_alias_resolves_package_function(tmp_path):
    index = index_of(tmp_path, {
        "go.mod": "module example.com/x\n",
        "util/util.go": "package util\n\nfunc Helper() int { return 1 }\n",
        "main.go": 'package main\n\nimport u "example.com/x/util"\n\nfunc main() { u.Helper() }\n',
    })
    assert target(index, "main.go", "Helper") == "util/util.go::Helper"


# ---- cycles -----------------------------------------------------------------------------------


def test_import_cycle_resolves_both_directions(tmp_path):
    index = index_of(tmp_path, {
        "a.py": "from b import pong\n\ndef ping():\n    return pong()\n",
        "b.py": "from a import ping\n\ndef pong():\n    return ping()\n",
    })
    assert target(index, "a.py", "pong") == "b.py::pong"
    assert target(index, "b.py", "ping") == "a.py::ping"


def test_supertype_cycle_terminates_and_stays_unknown(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        class A(B):
            def run(self):
                return self.missing()

        class B(A):
            pass
    """})
    assert target(index, "m.py", "missing") is None


def test_java_supertype_cycle_terminates(tmp_path):
    index = index_of(tmp_path, {
        "p/A.java": "package p;\nclass A extends B { void run() { missing(); } }\n",
        "p/B.java": "package p;\nclass B extends A { }\n",
    })
    assert target(index, "p/A.java", "missing") is None


# ---- conditional definitions ---------------------------------------------------------------------


def test_conditional_definitions_leave_the_call_unknown(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        import sys

        if sys.platform == "win32":
            def open_file():
                return 1
        else:
            def open_file():
                return 2

        def main():
            return open_file()
    """})
    assert target(index, "m.py", "open_file") is None


def test_try_except_fallback_definition_leaves_the_call_unknown(tmp_path):
    index = index_of(tmp_path, {
        "fast.py": "def dumps(x):\n    return x\n",
        "m.py": "try:\n    from fast import dumps\nexcept ImportError:\n    def dumps(x):\n        return str(x)\n\ndef main():\n    return dumps(1)\n",
    })
    # two candidate bindings (the import and the fallback def): neither is provable
    assert target(index, "m.py", "dumps") is None


def test_redefined_class_leaves_construction_unknown(tmp_path):
    index = index_of(tmp_path, {"m.py": "class A:\n    pass\n\nclass A:\n    pass\n\nx = A()\n"})
    assert target(index, "m.py", "A") is None


# ---- dynamic calls ----------------------------------------------------------------------------


def test_getattr_and_subscript_calls_never_get_a_target(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        def handler():
            return 1

        HANDLERS = {"h": handler}

        def dispatch(obj, name):
            getattr(obj, name)()
            HANDLERS[name]()
            fn = HANDLERS.get(name)
            return fn()
    """})
    edges = [e for e in index.bindings["m.py"].edges if e.kind in ("calls", "constructs")]
    assert edges == []


def test_call_on_a_parameter_receiver_stays_unknown(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        class Engine:
            def start(self):
                return 1

        def run(engine):
            return engine.start()
    """})
    assert target(index, "m.py", "start") is None


def test_attribute_of_self_stays_unknown(tmp_path):
    index = index_of(tmp_path, {"m.py": """
        class Engine:
            def start(self):
                return 1

        class Car:
            def __init__(self):
                self.engine = Engine()

            def go(self):
                return self.engine.start()
    """})
    assert target(index, "m.py", "start") is None


def test_a_python_method_whose_parameter_list_opens_with_a_comment_binds_self(tmp_path):
    """A type checker's comment after the `(` of a multi-line signature is the list's first node,
    not the method's `self`: `self.m()` in that method stayed unknown."""
    index = index_of(tmp_path, {"m.py": """
        class Resource:
            def url_for(  # type: ignore[override]
                self,
                *,
                filename: str,
            ) -> str:
                return self._digest(filename)

            @staticmethod
            def _digest(name: str) -> str:
                return name
    """})
    assert target(index, "m.py", "_digest") == "m.py::Resource._digest"


def test_a_call_through_a_declared_field_binds_in_statically_typed_languages(tmp_path):
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\n",
        "raft/log.go": "package raft\n\ntype raftLog struct{}\n\nfunc (l *raftLog) append() {}\n",
        "raft/raft.go": "package raft\n\ntype raft struct {\n\tlog *raftLog\n}\n",
        "raft/step.go": "package raft\n\nfunc (r *raft) step() { r.log.append() }\n",  # a third file
        "src/lib.rs": "struct Conn;\nimpl Conn {\n    fn poll(&self) {}\n}\n"
                      "struct Server {\n    conn: Conn,\n}\nimpl Server {\n    fn run(&self) { self.conn.poll(); }\n}\n",
        "web/app.ts": "class Store {\n  save(): void {}\n}\n"
                      "class App {\n  private store: Store;\n  private made = new Store();\n"
                      "  run(): void { this.store.save(); this.made.save(); }\n}\n",
    })
    assert target(index, "raft/step.go", "append") == "raft/log.go::raftLog.append"
    assert target(index, "src/lib.rs", "poll") == "src/lib.rs::Conn.poll"
    assert target(index, "web/app.ts", "save", 0) == "web/app.ts::Store.save"
    assert target(index, "web/app.ts", "save", 1) == "web/app.ts::Store.save"  # initialised by a construction: its type


def test_a_call_through_a_declared_field_of_a_typed_parameter_or_of_a_field_binds(tmp_path):
    # `p.openElements.pop()` with `p: Parser<T>`: the parameter's type declares the field's; so do
    # `this.stack.top.peek()` and Go's `c.buf.flush()` with `c *conn`, field by field
    index = index_of(tmp_path, {
        "lib/parser.ts": "class Stack<T> {\n  pop(): void {}\n  top: Entry;\n}\nclass Entry {\n  peek(): void {}\n}\n"
                         "export class Parser<T> {\n  openElements: Stack<T>;\n  made = new Stack();\n"
                         "  run(): void { this.openElements.top.peek(); }\n}\n"
                         "function endTag<T>(p: Parser<T>): void {\n  p.openElements.pop();\n  p.made.pop();\n  p.missing.pop();\n}\n",
        "go.mod": "module example.com/m\n",
        "srv/conn.go": "package srv\n\ntype buffer struct{}\n\nfunc (b *buffer) flush() {}\n\ntype conn struct {\n\tbuf *buffer\n}\n\n"
                       "func serve(c *conn) { c.buf.flush() }\n",
    })
    assert target(index, "lib/parser.ts", "pop", 0) == "lib/parser.ts::Stack.pop"
    assert target(index, "lib/parser.ts", "pop", 1) == "lib/parser.ts::Stack.pop"  # initialised by a construction: its type
    assert target(index, "lib/parser.ts", "pop", 2) is None  # no such field
    assert target(index, "lib/parser.ts", "peek") == "lib/parser.ts::Entry.peek"
    assert target(index, "srv/conn.go", "flush") == "srv/conn.go::buffer.flush"


def test_a_java_field_used_without_this_binds_unless_a_local_shadows_it(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Store.java": "package a;\n\npublic class Store {\n    public void save() {}\n}\n",
        "src/a/App.java": "package a;\n\nimport java.util.List;\n\npublic class App {\n    private Store store;\n\n"
                          "    void run() {\n        store.save();\n"
                          "        new Runnable() {\n            public void run() { store.save(); }\n        };\n    }\n\n"
                          "    void each(List<Object> xs) {\n        xs.forEach(store -> store.save());\n    }\n\n"
                          "    void other() {\n        var store = make();\n        store.save();\n    }\n\n"
                          "    Object make() { return null; }\n}\n",
    })
    assert target(index, "src/a/App.java", "save", 0) == "src/a/Store.java::Store.save"
    assert target(index, "src/a/App.java", "save", 1) == "src/a/Store.java::Store.save"  # the outer class's field
    assert target(index, "src/a/App.java", "save", 2) is None  # the lambda's parameter (an `Object` element), not the field
    assert target(index, "src/a/App.java", "save", 3) is None  # a `var` local


def test_javascript_computed_member_call_is_not_fabricated(tmp_path):
    index = index_of(tmp_path, {"src/a.js": "function go() {}\nconst table = { go };\nexport function main(k) { table[k](); go(); }\n"})
    edges = [e.dst for e in index.bindings["src/a.js"].edges if e.kind == "calls"]
    assert edges == ["src/a.js::go"]


# ---- a unique name elsewhere is not proof ------------------------------------------------------


def test_unique_function_name_in_another_file_without_import_is_not_proof(tmp_path):
    index = index_of(tmp_path, {
        "a.py": "def very_unique_helper():\n    return 1\n",
        "b.py": "def main():\n    return very_unique_helper()\n",
    })
    assert target(index, "b.py", "very_unique_helper") is None


def test_unique_method_name_on_unknown_receiver_is_not_proof(tmp_path):
    index = index_of(tmp_path, {
        "a.py": "class Only:\n    def very_unique_method(self):\n        return 1\n",
        "b.py": "def main(x):\n    return x.very_unique_method()\n",
    })
    assert target(index, "b.py", "very_unique_method") is None


def test_typescript_unique_export_without_import_is_not_proof(tmp_path):
    index = index_of(tmp_path, {
        "src/a.ts": "export function veryUnique(): void {}\n",
        "src/b.ts": "export function main() { veryUnique(); }\n",
    })
    assert target(index, "src/b.ts", "veryUnique") is None


def test_go_function_in_another_package_without_import_is_not_proof(tmp_path):
    index = index_of(tmp_path, {
        "a/a.go": "package a\n\nfunc VeryUnique() {}\n",
        "b/b.go": "package b\n\nfunc Main() { VeryUnique() }\n",
    })
    assert target(index, "b/b.go", "VeryUnique") is None


def test_go_function_in_the_same_package_directory_resolves(tmp_path):
    index = index_of(tmp_path, {
        "a/one.go": "package a\n\nfunc Helper() {}\n",
        "a/two.go": "package a\n\nfunc Main() { Helper() }\n",
    })
    assert target(index, "a/two.go", "Helper") == "a/one.go::Helper"


def test_go_method_in_another_file_than_its_type_binds_its_receiver(tmp_path):
    # Go spreads a type's methods over its package's files; the receiver is typed all the same
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\n",
        "srv/server.go": "package srv\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n",
        "srv/handlers.go": "package srv\n\nfunc (s *Server) Handle() { s.Start(); s.Stop() }\n",
        "other/other.go": "package other\n\ntype Server struct{}\n\nfunc (s *Server) Stop() {}\n",
    })
    assert target(index, "srv/handlers.go", "Start") == "srv/server.go::Server.Start"
    assert target(index, "srv/handlers.go", "Stop") is None  # another package's Server is not this one


def test_kotlin_bare_call_binds_the_extension_of_the_implicit_receiver(tmp_path):
    # two imported extensions share a name; `this` decides which one a bare call means
    index = index_of(tmp_path, {
        "src/app/internal/Common.kt": "package app.internal\n\nimport app.Sink\nimport app.Buffer\n\n"
                                      "fun Sink.commonFlush() {}\n\nfun Buffer.commonFlush() {}\n",
        "src/app/Sink.kt": "package app\n\nimport app.internal.commonFlush\n\n"
                           "class Sink {\n    fun flush() = commonFlush()\n}\n\n"
                           "class Buffer {\n    fun flush() = commonFlush()\n}\n\n"
                           "class Pipe {\n    fun flush() = commonFlush()\n}\n\n"
                           "class Own {\n    fun commonFlush() {}\n    fun flush() = commonFlush()\n}\n",
    })
    assert target(index, "src/app/Sink.kt", "commonFlush", 0) == "src/app/internal/Common.kt::commonFlush"
    assert target(index, "src/app/Sink.kt", "commonFlush", 1) == "src/app/internal/Common.kt::commonFlush#2"
    assert target(index, "src/app/Sink.kt", "commonFlush", 2) is None  # extends neither: no proof
    assert target(index, "src/app/Sink.kt", "commonFlush", 3) == "src/app/Sink.kt::Own.commonFlush"  # a member wins


def test_kotlin_multiplatform_code_binds_the_declaration_of_its_own_source_set(tmp_path):
    # `expect` in commonMain, an `actual` per platform source set: each compiles against its own
    index = index_of(tmp_path, {
        "lib/src/commonMain/kotlin/p/Buffer.kt": "package p\n\nexpect class Buffer() {\n    fun clear()\n}\n",
        "lib/src/jvmMain/kotlin/p/Buffer.kt": "package p\n\nactual class Buffer {\n    actual fun clear() {}\n}\n",
        "lib/src/nativeMain/kotlin/p/Buffer.kt": "package p\n\nactual class Buffer {\n    actual fun clear() {}\n}\n",
        "lib/src/commonMain/kotlin/p/Use.kt": "package p\n\nfun common(): Buffer = Buffer()\n",
        "lib/src/jvmMain/kotlin/p/Use.kt": "package p\n\nfun jvm() {\n    val b: Buffer = Buffer()\n    b.clear()\n}\n",
        "lib/src/jsMain/kotlin/p/Use.kt": "package p\n\nfun js() = Buffer()\n",
    })
    assert target(index, "lib/src/commonMain/kotlin/p/Use.kt", "Buffer") == "lib/src/commonMain/kotlin/p/Buffer.kt::Buffer"
    assert target(index, "lib/src/jvmMain/kotlin/p/Use.kt", "Buffer") == "lib/src/jvmMain/kotlin/p/Buffer.kt::Buffer"
    assert target(index, "lib/src/jvmMain/kotlin/p/Use.kt", "clear") == "lib/src/jvmMain/kotlin/p/Buffer.kt::Buffer.clear"
    assert target(index, "lib/src/jsMain/kotlin/p/Use.kt", "Buffer") is None  # no variant of its own: no proof which


def test_java_class_in_another_package_without_import_is_not_proof(tmp_path):
    index = index_of(tmp_path, {
        "x/Widget.java": "package x;\npublic class Widget {}\n",
        "y/Main.java": "package y;\nclass Main { void run() { new Widget(); } }\n",
    })
    assert target(index, "y/Main.java", "Widget") is None


def test_java_class_in_the_same_package_resolves(tmp_path):
    index = index_of(tmp_path, {
        "x/Widget.java": "package x;\npublic class Widget {}\n",
        "x/Main.java": "package x;\nclass Main { void run() { new Widget(); } }\n",
    })
    assert target(index, "x/Main.java", "Widget") == "x/Widget.java::Widget"


# ---- fixed resolver bugs -------------------------------------------------------------------


def test_java_new_inside_the_class_constructs_the_class_not_its_constructor(tmp_path):
    index = index_of(tmp_path, {"p/Box.java": "package p;\nclass Box {\n  Box() {}\n  static Box of() { return new Box(); }\n}\n"})
    edges = [(e.kind, e.dst) for e in index.bindings["p/Box.java"].edges if e.kind in ("calls", "constructs")]
    assert edges == [("constructs", "p/Box.java::Box")]


def test_rust_struct_with_impl_blocks_is_still_a_unique_name(tmp_path):
    index = index_of(tmp_path, {"src/lib.rs": """
        pub struct Point { x: i32 }
        impl Point {
            pub fn new() -> Self { Point { x: 0 } }
        }
        pub fn origin() -> Point { Point::new() }
    """})
    assert target(index, "src/lib.rs", "Point") == "src/lib.rs::Point"
    assert target(index, "src/lib.rs", "new") == "src/lib.rs::Point.new"


def test_rust_trait_default_method_resolves_through_impl_trait_for_type(tmp_path):
    index = index_of(tmp_path, {"src/lib.rs": """
        pub trait Greet { fn hello(&self) -> u8 { 1 } }
        pub struct P;
        impl Greet for P {}
        pub fn run() { let p = P {}; p.hello(); }
    """})
    assert target(index, "src/lib.rs", "hello") == "src/lib.rs::Greet.hello"


def test_typescript_parameter_shadowing_a_namespace_import_stays_unknown(tmp_path):
    index = index_of(tmp_path, {
        "src/reg.ts": "export function register(n: string): void {}\n",
        "src/main.ts": "import * as reg from './reg';\nexport function run(reg: any) { reg.register('x'); }\n",
    })
    assert target(index, "src/main.ts", "register") is None


# ---- declared parameter types ---------------------------------------------------------------


def test_a_parameter_with_a_declared_type_binds_its_member_calls(tmp_path):
    index = index_of(tmp_path, {
        "store.py": "class Store:\n    def save(self, item):\n        return item\n",
        "app.py": """
            from store import Store

            def keep(store: Store, other: "Store", maybe: Optional[Store], either: Store | int, plain):
                store.save(1)
                other.save(2)
                maybe.save(3)
                either.save(4)
                plain.save(5)

            def shadowed(store: Store):
                def inner(store):
                    return store.save(6)
                return inner
        """,
    })
    assert [target(index, "app.py", "save", i) for i in range(6)] == [
        "store.py::Store.save", "store.py::Store.save", "store.py::Store.save",
        None,  # a union is no single type (`Store | None` is)
        None,  # no declared type
        None,  # the inner parameter (untyped) shadows the outer one
    ]


def test_typed_parameters_bind_in_go_and_typescript(tmp_path):
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\n",
        "srv/server.go": "package srv\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n\nfunc Run(s *Server, n int) { s.Serve() }\n",
        "web/handler.ts": "export class Handler { handle(): void {} }\n",
        "web/app.ts": "import { Handler } from './handler'\n\nexport function run(h: Handler, x: unknown) { h.handle() }\n",
    })
    assert target(index, "srv/server.go", "Serve") == "srv/server.go::Server.Serve"
    assert target(index, "web/app.ts", "handle") == "web/handler.ts::Handler.handle"


def test_locals_declared_with_a_type_bind_their_member_calls(tmp_path):
    index = index_of(tmp_path, {
        "src/main/java/p/Store.java": "package p;\n\npublic class Store { public void save() {} }\n",
        "src/main/java/p/App.java": """
            package p;

            public class App {
                void run() {
                    Store s = Factory.make();
                    s.save();
                    var v = Factory.make();
                    v.save();
                }

                void twice(boolean c) {
                    if (c) { Store s = null; s.save(); } else { Other s = null; s.save(); }
                }
            }
        """,
        "web/store.ts": "export class Store { save(): void {} }\n",
        "web/app.ts": "import { Store } from './store'\n\nexport function run() {\n  const s: Store | undefined = make()\n  s.save()\n}\n",
        "app.py": "from store import Store\n\ndef run():\n    s: Store = make()\n    s.save()\n",
        "store.py": "class Store:\n    def save(self):\n        return 1\n",
    })
    assert target(index, "src/main/java/p/App.java", "save", 0) == "src/main/java/p/Store.java::Store.save"
    assert target(index, "src/main/java/p/App.java", "save", 1) is None  # `var`: no declared type
    assert target(index, "src/main/java/p/App.java", "save", 2) is None  # two declarations disagree
    assert target(index, "web/app.ts", "save") == "web/store.ts::Store.save"
    assert target(index, "app.py", "save") == "store.py::Store.save"


def test_go_named_results_and_multi_value_assignments_bind_their_member_calls(tmp_path):
    """A named result is a local its signature types (`(cmd *Command, err error)`); the first name
    of `x, err := f()` holds f's first declared result, when f is proven and lists its results.
    A callee outside the code base proves nothing."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\n",
        "cmd/command.go": """
            package cmd

            import "example.com/ext/other"

            type Command struct{}

            func (c *Command) execute(a []string) error { return nil }

            func (c *Command) Find(args []string) (*Command, []string, error) { return c, args, nil }

            func New(name string) (*Command, error) { return &Command{}, nil }

            func Named() (made *Command) { return }

            func (c *Command) ExecuteC() (cmd *Command, err error) {
                cmd.execute(nil)
                found, flags, err := c.Find(nil)
                found.execute(flags)
                made, err := New("x")
                made.execute(nil)
                one := Named()
                one.execute(nil)
                p, q := Named(), Named()
                p.execute(nil)
                q.execute(nil)
                w, err := other.Make()
                w.execute(nil)
                return
            }
        """,
    })
    path, execute = "cmd/command.go", "cmd/command.go::Command.execute"
    assert [target(index, path, "execute", i) for i in range(7)] == [
        execute,  # a named result
        execute,  # the first of `(*Command, []string, error)`
        execute,  # the first of `(*Command, error)`
        execute,  # a single named result: `(made *Command)`
        execute, execute,  # `p, q := f(), g()`: one value each
        None,  # the callee is outside the code base: no proof
    ]


def test_go_later_results_of_a_multi_value_assignment_bind_their_member_calls(tmp_path):
    """`_, t, err := f()`: each name holds its position of f's declared results, when f is proven."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\n",
        "srv/srv.go": """
            package srv

            type Addr struct{}

            func (a Addr) String() string { return "" }

            type Trans struct{}

            func (t *Trans) Close() error { return nil }

            func NewTrans() (Addr, *Trans, error) { return Addr{}, &Trans{}, nil }

            func Use() {
                _, t, err := NewTrans()
                t.Close()
                a, t2, _ := NewTrans()
                a.String()
                t2.Close()
                _ = err
            }
        """,
    })
    go = "srv/srv.go"
    assert target(index, go, "Close", 0) == target(index, go, "Close", 1) == "srv/srv.go::Trans.Close"
    assert target(index, go, "String") == "srv/srv.go::Addr.String"


def test_rust_tuple_destructuring_binds_each_local_to_its_position_of_the_return_type(tmp_path):
    """`let (a, mut b) = f()`, f declared `-> (A, B)`: each local holds its position's type (`_`
    is a position too). A tuple taken whole (`let t = f()`) is none of its members."""
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Sender;
            pub struct Receiver;
            impl Sender {
                pub fn send(&self) {}
            }
            impl Receiver {
                pub fn recv(&mut self) {}
            }
            pub fn channel() -> (Sender, Receiver) {
                (Sender, Receiver)
            }
            pub fn run() {
                let (tx, mut rx) = channel();
                tx.send();
                rx.recv();
                let (_, mut only) = channel();
                only.recv();
                let whole = channel();
                whole.send();
            }
        """,
    })
    rs = "src/lib.rs"
    assert target(index, rs, "send", 0) == "src/lib.rs::Sender.send"
    assert target(index, rs, "recv", 0) == target(index, rs, "recv", 1) == "src/lib.rs::Receiver.recv"
    assert target(index, rs, "send", 1) is None  # a tuple taken whole


def test_commonjs_exports_by_assignment_bind_through_require(tmp_path):
    """`exports.f = function …` and `module.exports.f = …` are what `require` returns: a member call
    on the required module (`lib.compile()`), a destructured name, and the module's own
    `module.exports.f()` / `exports.f()` bind to them; a wrapper that takes `exports` as a
    parameter hands in another object (unknown), and a name the module does not export stays unknown."""
    index = index_of(tmp_path, {
        "lib/helper.js": "exports.split = function split(text) { return text.split(' '); };\n"
        "module.exports.trim = (t) => t.trim();\n"
        "exports.both = function both(t) { return exports.split(module.exports.trim(t)); };\n",
        "lib/main.js": "const helper = require('./helper');\nconst { trim } = require('./helper');\n"
        "function main(text) { return helper.split(trim(text)) + helper.missing(text); }\n"
        "function wrap(exports) { return exports.split('x'); }\n",
    })
    assert target(index, "lib/main.js", "split") == "lib/helper.js::split"
    assert target(index, "lib/main.js", "trim") == "lib/helper.js::trim"
    assert target(index, "lib/main.js", "missing") is None
    assert target(index, "lib/main.js", "split", 1) is None
    assert target(index, "lib/helper.js", "split", 1) == "lib/helper.js::split"  # the first is `text.split`
    assert target(index, "lib/helper.js", "trim", 1) == "lib/helper.js::trim"


def test_a_commonjs_export_added_later_rebinds_its_importers(tmp_path):
    """Adding `exports.f` to a module re-resolves the files that call `mod.f()`."""
    index = index_of(tmp_path, {
        "lib/helper.js": "exports.split = function split(text) { return text; };\n",
        "lib/main.js": "const helper = require('./helper');\nfunction main(t) { return helper.join(t); }\n",
    })
    assert target(index, "lib/main.js", "join") is None
    (tmp_path / "lib" / "helper.js").write_text("exports.split = function split(text) { return text; };\nexports.join = function join(t) { return t; };\n")
    index.refresh_path("lib/helper.js")
    assert target(index, "lib/main.js", "join") == "lib/helper.js::join"
    (tmp_path / "lib" / "helper.js").write_text("exports.split = function split(text) { return text; };\n")
    index.refresh_path("lib/helper.js")
    assert target(index, "lib/main.js", "join") is None


def test_a_receiver_that_is_a_call_binds_through_what_the_call_declares_it_returns(tmp_path):
    """`new Builder().name("x").build()` and `store.open().save()`: a construction is its type, a
    proven call of a method that declares one named return type is that type, link by link. A
    generic return (`List<Step>` → `get(0)`) and a method with no declared type stay unknown."""
    index = index_of(tmp_path, {
        "src/com/ex/Store.java": "package com.ex;\npublic class Store {\n  public Store open() { return this; }\n  public void save(String s) {}\n"
        "  public java.util.List<Step> steps() { return null; }\n}\n",
        "src/com/ex/Step.java": "package com.ex;\npublic class Step { public void apply() {} }\n",
        "src/com/ex/Builder.java": "package com.ex;\npublic class Builder {\n  public Builder name(String n) { return this; }\n  public Store build() { return new Store(); }\n}\n",
        "src/com/ex/Engine.java": "package com.ex;\npublic class Engine {\n  private final Store store = null;\n"
        "  void run() {\n    new Builder().name(\"x\").build().save(\"y\");\n    store.open().save(\"z\");\n    store.steps().get(0).apply();\n  }\n}\n",
        "app/models.py": "class Row:\n    def save(self):\n        return 1\n\n\ndef load() -> Row:\n    return Row()\n\n\ndef guess():\n    return Row()\n",
        "app/views.py": "from app.models import load, guess\n\n\ndef show():\n    load().save()\n    return guess().save()\n",
    })
    engine = "src/com/ex/Engine.java"
    assert target(index, engine, "name") == "src/com/ex/Builder.java::Builder.name"
    assert target(index, engine, "build") == "src/com/ex/Builder.java::Builder.build"
    assert target(index, engine, "save") == "src/com/ex/Store.java::Store.save"  # on what build() returns
    assert target(index, engine, "save", 1) == "src/com/ex/Store.java::Store.save"  # on what open() returns
    assert target(index, engine, "apply") is None  # through a generic container
    assert target(index, "app/views.py", "save") == "app/models.py::Row.save"  # `-> Row`
    assert target(index, "app/views.py", "save", 1) is None  # no declared return type


def test_nested_types_and_on_demand_imports_bind_in_java(tmp_path):
    """A parameter typed with a nested type of the enclosing class (`Pair p` in `Engine`) is that
    type; `import static com.ex.util.Checks.*` brings the class's members and `import com.ex.model.*`
    the package's types, below a name the file or its single imports bind."""
    index = index_of(tmp_path, {
        "src/com/ex/util/Checks.java": "package com.ex.util;\npublic final class Checks {\n  public static String describe(Object o) { return \"\"; }\n}\n",
        "src/com/ex/model/Item.java": "package com.ex.model;\npublic class Item { public void touch() {} }\n",
        "src/com/ex/app/Engine.java": "package com.ex.app;\nimport static com.ex.util.Checks.*;\nimport com.ex.model.*;\n"
        "public class Engine {\n  record Pair(String left) { String joined() { return left; } }\n"
        "  static String join(Pair p) { return p.joined(); }\n"
        "  String run(Object o) { new Item().touch(); return describe(o); }\n}\n",
    })
    engine = "src/com/ex/app/Engine.java"
    assert target(index, engine, "joined") == "src/com/ex/app/Engine.java::Engine.Pair.joined"
    assert target(index, engine, "describe") == "src/com/ex/util/Checks.java::Checks.describe"
    assert target(index, engine, "Item") == "src/com/ex/model/Item.java::Item"
    assert target(index, engine, "touch") == "src/com/ex/model/Item.java::Item.touch"


def test_a_static_import_of_an_overloaded_method_binds_by_the_count_of_arguments(tmp_path):
    """`import static com.ex.Utils.parameterError` of a class's static overloads `parameterError(cause,
    p, message, args...)` and `parameterError(p, message, args...)`: a call passing two arguments can
    only mean the second (as `Utils.parameterError(p, "…")` already did); four could mean either by
    their count, and a Throwable first is the first's."""
    index = index_of(tmp_path, {
        "src/com/ex/Utils.java": "package com.ex;\nfinal class Utils {\n"
        "  static RuntimeException parameterError(Throwable cause, int p, String message, Object... args) { return null; }\n"
        "  static RuntimeException parameterError(int p, String message, Object... args) { return null; }\n}\n",
        "src/com/ex/Factory.java": "package com.ex;\nimport static com.ex.Utils.parameterError;\n"
        "final class Factory {\n  void build(int p, Throwable t) {\n    if (p < 0) throw parameterError(p, \"bad\");\n"
        "    throw parameterError(t, p, \"bad\", p);\n  }\n}\n",
    })
    factory = "src/com/ex/Factory.java"
    assert target(index, factory, "parameterError") == "src/com/ex/Utils.java::Utils.parameterError#2"
    # four arguments: both counts admit them, and the first argument's declared type chooses
    assert target(index, factory, "parameterError", 1) == "src/com/ex/Utils.java::Utils.parameterError"


def test_rust_definitions_gated_by_cfg_are_one_declarations_build_variants(tmp_path):
    """`#[cfg(feature = "color")] fn new()` beside `#[cfg(not(feature = "color"))] fn new()`, and
    `#[cfg(unix)]` / `#[cfg(windows)]` functions: any build compiles one of each pair, so a call binds
    to the first (it stands for both); two definitions of one name with no gate stay unknown, and so
    do gated ones whose parameters differ."""
    index = index_of(tmp_path, {
        "src/lib.rs": "pub struct Styled { p: u8 }\n\nimpl Styled {\n"
        "    #[cfg(feature = \"color\")]\n    pub const fn new() -> Self { Self { p: 1 } }\n"
        "    #[cfg(not(feature = \"color\"))]\n    pub const fn new() -> Self { Self { p: 0 } }\n"
        "    pub fn push(&mut self, s: &str) {}\n    pub fn push(&mut self, s: &str, t: &str) {}\n}\n\n"
        "#[cfg(unix)]\nfn status(code: i32) -> i32 { code }\n\n"
        "#[cfg(windows)]\nfn status(code: i32) -> i32 { -code }\n\n"
        "#[cfg(unix)]\nfn open(path: &str) {}\n\n#[cfg(windows)]\nfn open(path: &[u16]) {}\n\n"
        "pub fn usage() -> Styled {\n    let mut s = Styled::new();\n    s.push(\"x\");\n    let _ = status(1);\n    open(\"p\");\n    s\n}\n",
    })
    assert target(index, "src/lib.rs", "new") == "src/lib.rs::Styled.new"
    assert target(index, "src/lib.rs", "status") == "src/lib.rs::status"
    assert target(index, "src/lib.rs", "push") is None  # no gate: two definitions, which one unknown
    assert target(index, "src/lib.rs", "open") is None  # gated, but their parameters differ


def test_a_receiver_cut_at_the_recorded_length_binds_nothing(tmp_path):
    """A receiver is recorded up to a cap (120 characters); a longer one is cut and may end where a
    shorter expression would: `store.open("…")` of `store.open("…").other()`, whose `save` is
    Store's, not Other's. No proof rests on a cut receiver."""
    arg = '"' + "x" * 106 + '"'  # `store.open("x…x")` is exactly 120 characters
    index = index_of(tmp_path, {
        "src/com/ex/Store.java": "package com.ex;\npublic class Store {\n  public Store open(String s) { return this; }\n"
        "  public Other other() { return null; }\n  public void save() {}\n}\n",
        "src/com/ex/Other.java": "package com.ex;\npublic class Other {\n  public void save() {}\n}\n",
        "src/com/ex/Engine.java": "package com.ex;\npublic class Engine {\n  private final Store store = null;\n"
        f"  void run() {{\n    store.open({arg}).other().save();\n    store.open(\"short\").other().save();\n  }}\n}}\n",
    })
    engine = "src/com/ex/Engine.java"
    assert len(index.files[engine].calls[2].receiver) == 120  # the first `save`'s receiver, cut
    assert target(index, engine, "save") is None
    assert target(index, engine, "save", 1) == "src/com/ex/Other.java::Other.save"


def test_a_kotlin_bare_call_in_a_type_with_overloads_of_that_name_is_one_of_them(tmp_path):
    """`inflate(x)` in a class with two `inflate` members is one of them (the one taking one
    argument), never the package's `fun Source.inflate()`: a member of the name shadows every outer
    definition."""
    index = index_of(tmp_path, {
        "Inflate.kt": "package demo\n\ninterface Source {\n    fun read()\n}\n\nfun Source.inflate(): Source = this\n",
        "InflaterTest.kt": (
            "package demo\n\nclass InflaterTest {\n    fun inflate() {\n        inflate(null)\n    }\n\n"
            "    private fun inflate(s: Source?): Int = 1\n}\n\nfun Source.twice() {\n    inflate()\n}\n"
        ),
    })
    assert target(index, "InflaterTest.kt", "inflate", 0) == "InflaterTest.kt::InflaterTest.inflate#2"
    assert target(index, "InflaterTest.kt", "inflate", 1) == "Inflate.kt::inflate"


def test_calls_on_a_modules_own_instance_are_proven(tmp_path):
    """A module's instance made at its top (`default = Registry()`, `const reg = new Registry()`, Go's
    `var std = New()`) and called in the module's functions: proven like a local's, in three
    languages. Not where the name is assigned twice, nor where a parameter of that name shadows it."""
    index = index_of(tmp_path, {
        "pkg/core.py": """
            class Registry:
                def register(self, x):
                    return x

            def make() -> Registry:
                return Registry()

            def register(x):
                return default.register(x)

            def via_factory(x):
                return made.register(x)

            def shadowed(default):
                return default.register(1)

            def twice(x):
                return other.register(x)

            default = Registry()
            made = make()
            other = Registry()
            other = make()
        """,
        "web/reg.js": """
            class Registry {
              register (x) { return x }
            }
            const reg = new Registry()
            function register (x) { return reg.register(x) }
            module.exports = { register }
        """,
        "go.mod": "module example.com/logx\n\ngo 1.20\n",
        "logx/logger.go": """
            package logx

            type Logger struct{ level int }

            func New() *Logger { return &Logger{} }

            func (l *Logger) SetLevel(v int) { l.level = v }

            var (
            	std = New()
            )

            func SetLevel(v int) { std.SetLevel(v) }
        """,
    })
    calls = [target(index, "pkg/core.py", "register", n) for n in range(4)]
    assert calls == ["pkg/core.py::Registry.register", "pkg/core.py::Registry.register", None, None]
    assert target(index, "pkg/core.py", "Registry", 1) == "pkg/core.py::Registry"  # the edges stay in call order
    assert target(index, "web/reg.js", "register") == "web/reg.js::Registry.register"
    assert target(index, "logx/logger.go", "SetLevel") == "logx/logger.go::Logger.SetLevel"


def test_go_type_assertions_and_embedded_fields_type_the_calls_on_them(tmp_path):
    """`c := pool.Get().(*Session)` declares c a *Session, and `e.Mux.Use()` reaches the embedded
    field's type: both are how Go code commonly holds a value, and both calls stayed unknown."""
    index = index_of(tmp_path, {
        "mux.go": (
            "package web\n\nimport \"sync\"\n\n"
            "type Session struct{}\n\nfunc (c *Session) clear() {}\n\n"
            "type Mux struct{}\n\nfunc (g *Mux) Use() {}\n\n"
            "type Router struct {\n\tMux\n\t*sync.Mutex\n\tpool sync.Pool\n}\n\n"
            "func (e *Router) Serve(v interface{}) {\n"
            "\tc := e.pool.Get().(*Session)\n\tc.clear()\n"
            "\tw, ok := v.(*Session)\n\tif ok {\n\t\tw.clear()\n\t}\n"
            "\te.Mux.Use()\n}\n"
        ),
    })
    assert target(index, "mux.go", "clear") == "mux.go::Session.clear"
    assert target(index, "mux.go", "clear", 1) == "mux.go::Session.clear"
    assert target(index, "mux.go", "Use") == "mux.go::Mux.Use"


def test_go_address_of_a_composite_literal_types_the_local(tmp_path):
    """`s := &Server{addr: a}` is how Go code makes most values: the local holds what the literal
    constructs, as `s := Server{}` did, also where a closure captures it; a package's own instance
    made so (`var std = &Logger{}`) too."""
    index = index_of(tmp_path, {
        "server.go": (
            "package web\n\ntype Server struct{ addr string }\n\nfunc (s *Server) listen() {}\n\n"
            "type Logger struct{}\n\nfunc (l *Logger) Print() {}\n\nvar std = &Logger{}\n\n"
            "func Start(a string) *Server {\n\ts := &Server{addr: a}\n\ts.listen()\n"
            "\tgo func() {\n\t\ts.listen()\n\t}()\n\treturn s\n}\n\n"
            "func Print() {\n\tstd.Print()\n}\n"
        ),
    })
    assert target(index, "server.go", "listen") == "server.go::Server.listen"
    assert target(index, "server.go", "listen", 1) == "server.go::Server.listen"
    assert target(index, "server.go", "Print") == "server.go::Logger.Print"


def test_go_builtin_new_types_the_local(tmp_path):
    """`b := new(Buffer)` (and `var b = new(Buffer)`) holds a *Buffer: the calls on it were unknown."""
    index = index_of(tmp_path, {
        "buf.go": (
            "package buf\n\ntype Buffer struct{ b []byte }\n\nfunc (b *Buffer) Grow(n int) {}\n\n"
            "func Make() *Buffer {\n\tb := new(Buffer)\n\tb.Grow(8)\n\tvar c = new(Buffer)\n\tc.Grow(1)\n\treturn b\n}\n"
        ),
    })
    assert target(index, "buf.go", "Grow") == "buf.go::Buffer.Grow"
    assert target(index, "buf.go", "Grow", 1) == "buf.go::Buffer.Grow"


# ---- typing stubs -------------------------------------------------------------------------


def test_a_call_of_an_overloaded_python_function_reaches_its_implementation(tmp_path):
    """`@overload` signatures above an implementation are typing stubs: at run time the name is
    bound to the last, undecorated definition. Typed libraries overload much of their API, and
    every call of it stayed unknown (three definitions of one name). Two implementations of a
    name (`if`/`else` branches), or stubs alone, still prove nothing."""
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/api.py": """
            import typing
            from typing import overload

            @overload
            def parse(x: int) -> int: ...
            @overload
            def parse(x: str) -> str: ...
            def parse(x):
                return x

            class Conv:
                @typing.overload
                def structure(self, o: int) -> int: ...
                @typing.overload
                def structure(self, o: str) -> str: ...
                def structure(self, o):
                    return o

                def go(self):
                    return self.structure(1)

            if typing.TYPE_CHECKING:
                def pick(x): ...
            else:
                def pick(x):
                    return x

            @overload
            def only(x: int) -> int: ...
            @overload
            def only(x: str) -> str: ...

            def use():
                return pick(1), only(1)
        """,
        "pkg/use.py": """
            from .api import parse, Conv

            def main():
                Conv().structure(2)
                return parse(1)
        """,
    })
    assert target(index, "pkg/use.py", "parse") == "pkg/api.py::parse#3"
    assert target(index, "pkg/use.py", "structure") == "pkg/api.py::Conv.structure#3"
    assert target(index, "pkg/api.py", "structure") == "pkg/api.py::Conv.structure#3"
    assert target(index, "pkg/api.py", "pick") is None
    assert target(index, "pkg/api.py", "only") is None


def test_a_name_a_python_package_passes_on_resolves_to_its_definition(tmp_path):
    """A package's `__init__.py` passes on what it imports (`from .client import Client`,
    `from .api import *`, `from . import sub`): `from pkg import Client`, `pkg.get()` and
    `pkg.sub.f()` reach the definitions, as JavaScript's `export … from` and Rust's `pub use` do
    (a typed package's own tests, examples and sibling packages call it so; most stayed unknown).
    A star import passes on no `_private` name."""
    index = index_of(tmp_path, {
        "pkg/__init__.py": """
            from .api import *
            from . import sub
            from .client import Client as PublicClient
            from .api import _explicit
        """,
        "pkg/api.py": """
            def get():
                return 1

            def _explicit():
                return 2

            def _hidden():
                return 3
        """,
        "pkg/client.py": "class Client:\n    def send(self):\n        return 1\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "def helper():\n    return 2\n",
        "app.py": """
            import pkg
            from pkg import get, PublicClient, _hidden, _explicit

            def main():
                pkg.get()
                get()
                PublicClient().send()
                _hidden()
                _explicit()
        """,
    })
    assert target(index, "app.py", "get") == "pkg/api.py::get"
    assert target(index, "app.py", "get", 1) == "pkg/api.py::get"
    assert target(index, "app.py", "PublicClient") == "pkg/client.py::Client"
    assert target(index, "app.py", "send") == "pkg/client.py::Client.send"
    assert target(index, "app.py", "_hidden") is None
    assert target(index, "app.py", "_explicit") == "pkg/api.py::_explicit"


def test_a_python_package_below_a_directory_no_import_can_name_resolves_from_there(tmp_path):
    """A directory whose name is no identifier (`project-python/`, `pkg-core/`) is no package: a
    monorepo keeps a project below it as an import root, like `src/`; its imports stayed unknown."""
    index = index_of(tmp_path, {
        "project-python/pkg/__init__.py": "",
        "project-python/pkg/core.py": """
            def run():
                return 1
        """,
        "project-python/tests/common.py": """
            from pkg.core import run

            def check():
                return run()
        """,
    })
    assert target(index, "project-python/tests/common.py", "run") == "project-python/pkg/core.py::run"


def test_a_module_below_a_directory_no_import_can_name_never_takes_a_conventional_roots_name(tmp_path):
    """An example beside a library (`examples/lexer-plugin/yaml.py`) names itself like the library's
    package below `lib/`: the library keeps the name, however the paths sort."""
    index = index_of(tmp_path, {
        "lib/yaml/__init__.py": """
            def load(s):
                return s
        """,
        "examples/lexer-plugin/yaml.py": """
            def load(s):
                return s
        """,
        "lib/app.py": """
            import yaml

            def main():
                return yaml.load(1)
        """,
    })
    assert target(index, "lib/app.py", "load") == "lib/yaml/__init__.py::load"
