"""A Rust method whose receiver is typed (`self: Pin<&mut Self>`) has `self` as its receiver
(languages/systems.py `rust_receiver_name`)."""

from __future__ import annotations

from test_bindings import index_of, target


def test_rust_typed_self_receiver_binds_calls_on_self(tmp_path):
    """`self: Pin<&mut Self>` (a Future's or a Stream's `poll`), `mut self: Box<Self>`, `self: &Arc<Self>`:
    a parameter named `self` is the method's receiver as `&mut self` is."""
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": """
        use std::pin::Pin;
        use std::sync::Arc;
        pub struct Conn { n: u32 }
        impl Conn {
            pub fn helper(&self) -> u32 { self.n }
            pub fn a(self: Pin<&mut Self>) -> u32 { self.helper() }
            pub fn b(mut self: Box<Self>) -> u32 { self.helper() }
            pub fn c(self: &Arc<Self>) -> u32 { self.helper() }
            pub fn free(conn: Conn) -> u32 { conn.helper() }
        }
        """,
    })
    for n in range(4):
        assert target(index, "src/lib.rs", "helper", n) == "src/lib.rs::Conn.helper"
    units = {u.qualname: u for u in index.files["src/lib.rs"].units}
    assert units["Conn.a"].receiver == "self" and units["Conn.free"].receiver == ""
