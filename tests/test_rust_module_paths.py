"""A Rust path through a module of the crate: a module imported by name (`use crate::proto;`,
`use crate::frame::{self, Reason}`), a path from the crate root or the current module
(`crate::frame::Headers`, `self::headers::make()`), a sub-module of a module (`proto::streams::Streams`)
(bindings/imports.py `_rooted_path`, languages/systems.py `rust_import`)."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
    "src/lib.rs": "mod proto;\nmod frame;\nmod client;\n",
    "src/client.rs": """
    use crate::proto;
    use crate::frame::{self, Reason};
    pub struct SendRequest { inner: proto::Streams, deep: proto::streams::Streams }
    impl SendRequest {
        pub fn a(&self) -> usize { self.inner.count() }
        pub fn b(&self, h: &frame::Headers) -> bool { h.is_end() }
        pub fn c(&self, h: &crate::frame::Headers) -> bool { h.is_end() }
        pub fn d(&self) -> bool { crate::frame::headers::make().is_end() }
        pub fn e(&self) -> usize { self.deep.count() }
        pub fn f(&self) -> Reason { Reason }
    }
    """,
    "src/proto/mod.rs": "pub mod streams;\npub(crate) use self::streams::Streams;\n",
    "src/proto/streams.rs": "pub struct Streams { n: usize }\nimpl Streams { pub fn count(&self) -> usize { self.n } }\n",
    "src/frame/mod.rs": """
    pub mod headers;
    pub struct Reason;
    pub use self::headers::Headers;
    pub fn fresh() -> bool { self::headers::make().is_end() }
    """,
    "src/frame/headers.rs": """
    pub struct Headers { e: bool }
    impl Headers { pub fn is_end(&self) -> bool { self.e } }
    pub fn make() -> Headers { Headers { e: true } }
    """,
}


def test_rust_module_paths_bind_through_the_crates_modules(tmp_path):
    index = index_of(tmp_path, FILES)
    streams, is_end = "src/proto/streams.rs::Streams.count", "src/frame/headers.rs::Headers.is_end"
    assert target(index, "src/client.rs", "count", 0) == streams  # a field typed `proto::Streams`
    assert target(index, "src/client.rs", "count", 1) == streams  # `proto::streams::Streams`
    assert target(index, "src/client.rs", "is_end", 0) == is_end  # `&frame::Headers`, `frame` of `{self, …}`
    assert target(index, "src/client.rs", "is_end", 1) == is_end  # `&crate::frame::Headers`
    assert target(index, "src/client.rs", "make") == "src/frame/headers.rs::make"  # `crate::frame::headers::make()`
    assert target(index, "src/client.rs", "is_end", 2) == is_end
    assert target(index, "src/frame/mod.rs", "make") == "src/frame/headers.rs::make"  # `self::headers::make()`
    imports = {(i.module, i.name) for i in index.files["src/client.rs"].imports}
    assert imports == {("crate", "proto"), ("crate", "frame"), ("crate::frame", "Reason")}


def test_a_use_of_super_in_the_files_test_module_names_the_files_own_definition(tmp_path):
    """`mod tests { use super::Builder; }` imports the file's own `Builder`: no second binding of the
    name that would leave every `Builder` of the file unknown (the import is read as the file's
    module reads it, `self::Builder`; `super::super::X` there is the file's `super::X`)."""
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": "mod walk;\npub struct Root;\n",
        "src/walk.rs": """
        pub struct Inner { n: u32 }
        impl Inner { pub fn build(&self) -> u32 { self.n } }
        pub struct Builder { inner: Inner }
        impl Builder { pub fn run(&self) -> u32 { self.inner.build() } }
        #[cfg(test)]
        mod tests {
            use super::Builder;
            use super::super::Root;
            mod deep { use super::super::Inner; }
        }
        """,
    })
    assert target(index, "src/walk.rs", "build") == "src/walk.rs::Inner.build"
    imports = sorted((i.module, i.name) for i in index.files["src/walk.rs"].imports)
    assert imports == [("self", "Builder"), ("self", "Inner"), ("super", "Root")]


def test_a_glob_import_of_a_crate_module_binds_its_names(tmp_path):
    """`use self::ast::*;` binds what the module defines or passes on, when no nearer name and no
    other glob has it; `crate::spawn()` names the crate root's function (bindings/resolve.py `_lookup`)."""
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod parser;\npub mod other;\npub fn spawn() -> u32 { 1 }\n",
        "src/parser/mod.rs": """
        pub mod ast;
        use self::ast::*;
        use crate::other::*;
        pub fn parse() -> u32 { Expr::new().eval() + crate::spawn() + shared() }
        """,
        "src/parser/ast.rs": """
        pub struct Expr { n: u32 }
        impl Expr { pub fn new() -> Expr { Expr { n: 0 } } pub fn eval(&self) -> u32 { self.n } }
        pub fn shared() -> u32 { 1 }
        """,
        "src/other.rs": "pub fn shared() -> u32 { 2 }\n",
    })
    path = "src/parser/mod.rs"
    assert target(index, path, "new") == "src/parser/ast.rs::Expr.new"
    assert target(index, path, "eval") == "src/parser/ast.rs::Expr.eval"
    assert target(index, path, "spawn") == "src/lib.rs::spawn"
    assert target(index, path, "shared") is None  # two globs have it: which one, unknown
