"""A name a Rust pattern of an enum variant binds holds the payload the enum declares at that
position (`Value::String(ref f) => f.decor()`, `if let Value::Array(a) = self { a.len() }`), in
that arm or block only (index/members.py `_variant_bindings`, bindings/elements.py `_variant_payload`)."""

from __future__ import annotations

from test_bindings import index_of, target


def test_enum_variant_patterns_type_the_names_they_bind(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": """
        pub struct Formatted<T> { v: T }
        impl<T> Formatted<T> { pub fn decor(&self) -> u8 { 1 } }
        pub struct Array { n: u8 }
        impl Array { pub fn decor(&self) -> u8 { 2 } pub fn len(&self) -> usize { 0 } }
        pub struct Item { n: u8 }
        impl Item { pub fn len(&self) -> usize { 3 } }
        pub enum Value { String(Formatted<String>), Array(Array), Pair(u8, #[allow(x)] Array) }
        impl Value {
            pub fn decor(&self) -> u8 {
                match *self {
                    Value::String(ref f) => f.decor(),
                    Value::Array(ref f) => f.decor(),
                    Self::Pair(_, ref mut a) => a.decor(),
                }
            }
            pub fn len(&self, a: Item) -> usize {
                if let Value::Array(a) = self { a.len() } else { a.len() }
            }
        }
        """,
    })
    path = "src/lib.rs"
    assert target(index, path, "decor", 0) == "src/lib.rs::Formatted.decor"
    assert target(index, path, "decor", 1) == "src/lib.rs::Array.decor"
    assert target(index, path, "decor", 2) == "src/lib.rs::Array.decor"  # `Self::Pair(_, ref mut a)`: position 1
    assert target(index, path, "len", 0) == "src/lib.rs::Array.len"  # the `if let` block's own `a`
    assert target(index, path, "len", 1) == "src/lib.rs::Item.len"  # the parameter `a` in the `else`
