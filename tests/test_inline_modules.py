"""A module declared inside a file (a TypeScript `namespace`, a Rust `mod`) is a unit whose members
are named through it, and its items see each other by their bare names (bindings/resolve.py)."""

from __future__ import annotations

from test_bindings import index_of, target

NAMESPACE = """
export namespace Router {
  export function route(path: string): Handler { return new Handler(path); }
  export class Handler {
    constructor(public path: string) {}
    handle(): void { log(this.path); }
  }
}
function log(s: string) {}
export function main() { const h = Router.route("/a"); h.handle(); }
export function merged(x: number) { return x; }
export namespace merged { export const unit = 1; }
export function callMerged() { return merged(1); }
"""


def test_typescript_namespace_members_are_named_through_it(tmp_path):
    index = index_of(tmp_path, {"router.ts": NAMESPACE, "use.ts": 'import { Router } from "./router";\nexport function other() { return Router.route("/b"); }\n'})
    names = {u.qualname: u.kind for u in index.files["router.ts"].units}
    assert names["Router"] == "object"
    assert {"Router.route", "Router.Handler", "Router.Handler.handle"} <= set(names)
    assert "route" not in names and "Handler" not in names
    assert target(index, "router.ts", "Handler") == "router.ts::Router.Handler"  # a sibling by its bare name
    assert target(index, "router.ts", "log") == "router.ts::log"  # the file's scope around it
    assert target(index, "router.ts", "route") == "router.ts::Router.route"
    assert target(index, "use.ts", "route") == "router.ts::Router.route"


def test_a_namespace_merged_with_a_function_leaves_calls_to_the_function(tmp_path):
    index = index_of(tmp_path, {"router.ts": NAMESPACE})
    assert target(index, "router.ts", "merged") == "router.ts::merged"


def test_rust_items_of_an_inline_module_see_each_other(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": """
        mod a {
            pub fn f() { g(); }
            fn g() {}
            pub struct S;
            impl S { pub fn m(&self) { g(); } }
        }
        pub fn top() { a::f(); }
        """,
    })
    assert target(index, "src/lib.rs", "g") == "src/lib.rs::a.g"
    assert target(index, "src/lib.rs", "g", 1) == "src/lib.rs::a.g"


def test_a_supertype_is_named_from_the_scope_around_its_type(tmp_path):
    """`interface BlockStatement extends Statement` inside a namespace names the namespace's
    `Statement`; a Java nested class extending a sibling (`CyclicFactory extends Factory`, both in
    one outer class) names the sibling, whose `getSource()` its methods then call, not the outer
    class's method of that name."""
    index = index_of(tmp_path, {
        "types.d.ts": """
        declare namespace hbs {
          namespace AST {
            interface Statement { type: string; }
            interface BlockStatement extends Statement { body: string; }
          }
        }
        """,
        "p/Binding.java": """
        package p;
        abstract class Binding {
          Object getSource() { return null; }
          abstract static class Factory {
            Object getSource() { return this; }
          }
          abstract static class CyclicFactory extends Factory {
            Object provision() { return getSource(); }
          }
        }
        """,
    })
    extends = {(e.src, e.dst) for b in index.bindings.values() for e in b.edges if e.kind == "extends"}
    assert ("types.d.ts::hbs.AST.BlockStatement", "types.d.ts::hbs.AST.Statement") in extends
    assert ("p/Binding.java::Binding.CyclicFactory", "p/Binding.java::Binding.Factory") in extends
    assert target(index, "p/Binding.java", "getSource") == "p/Binding.java::Binding.Factory.getSource"
