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


def test_some_and_ok_patterns_hold_what_their_value_carries(tmp_path):
    """`if let Some(c) = self.conn.take() { c.send() }`, `match self.checkout() { Some(c) => c.send(), … }`,
    `while let Some(c) = …`: `c` holds the value's carried type in that block or arm; outside it the
    name keeps its own binding (`let r = self.range(); if let Some(r) = … { … }; r.min()`)."""
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": """
        pub struct Conn { n: u8 }
        impl Conn { pub fn send(&self) -> u8 { self.n } }
        pub struct Range { n: u8 }
        impl Range { pub fn next(&self) -> Option<Conn> { None } pub fn min(&self) -> u8 { self.n } }
        pub struct Pool { conn: Option<Conn>, last: Result<Conn, u8> }
        impl Pool {
            pub fn checkout(&self) -> Option<Conn> { None }
            pub fn range(&self) -> Range { Range { n: 1 } }
            pub fn a(&mut self) -> u8 { if let Some(c) = self.conn.take() { c.send() } else { 0 } }
            pub fn d(&self) -> u8 { match self.checkout() { Some(c) => c.send(), None => 0 } }
            pub fn e(&self, c: u8) -> u8 { match &self.last { Ok(c) => c.send(), Err(_) => c } }
            pub fn f(&mut self) { while let Some(c) = self.checkout() { c.send(); } }
            pub fn g(&self) -> u8 { let r = self.range(); if let Some(r) = self.checkout() { r.send(); } r.min() }
            pub fn h(&mut self) -> u8 { if let Some(ref mut c) = self.conn { c.send() } else { 0 } }
            pub fn k(&self) -> u8 { match self.conn { Some(ref c) => c.send(), None => 0 } }
        }
        """,
    })
    for n in range(7):  # (`Some(ref mut c)`, `Some(ref c)`: the same)
        assert target(index, "src/lib.rs", "send", n) == "src/lib.rs::Conn.send"
    assert target(index, "src/lib.rs", "min") == "src/lib.rs::Range.min"


def test_struct_patterns_type_the_names_they_bind(tmp_path):
    """`Value::Named { ref inner, other: o, .. } => inner.decor()`: a field of a struct-like variant
    (the enum's attrs hold `Named.inner`); `Conn { state, rest: r } => state.decor()`: a struct's field."""
    index = index_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
        "src/lib.rs": """
        pub struct Array { n: u8 }
        impl Array { pub fn decor(&self) -> u8 { 2 } }
        pub struct Item { n: u8 }
        impl Item { pub fn decor(&self) -> u8 { 3 } }
        pub struct Conn { state: Item, rest: Array }
        pub enum Value { Named { inner: Array, other: Item }, Other { inner: Item } }
        impl Value {
            pub fn decor(&self) -> u8 {
                match self {
                    Value::Named { ref inner, other: o, .. } => inner.decor() + o.decor(),
                    Value::Other { inner } => inner.decor(),
                }
            }
        }
        pub fn f(c: &Conn) -> u8 { match c { Conn { state, rest: r } => state.decor() + r.decor() } }
        """,
    })
    array, item = "src/lib.rs::Array.decor", "src/lib.rs::Item.decor"
    assert [target(index, "src/lib.rs", "decor", n) for n in range(5)] == [array, item, item, item, array]
