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
