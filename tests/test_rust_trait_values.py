"""A Rust value known only by its trait: `&dyn Consumer`, `impl Consumer`, a type parameter one trait
bounds (`fn f<C: Consumer>(c: &C)`, `where C: Consumer + Send`) is a value of that trait, its calls the
trait's declarations as a Java interface's are (index/members.py `_type_name`, `generic_bounds`); a
type parameter of no bound is of no type of its name. A bare call of an enum's or a trait's name makes
neither (`Err(e)` beside a crate's own `enum Err`: the prelude's variant; `spec.uncallable_kinds`)."""

from __future__ import annotations

from test_bindings import index_of, target

CARGO = '[package]\nname = "x"\nversion = "0.1.0"\n'


def test_values_of_a_trait_call_its_declarations(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": CARGO,
        "src/lib.rs": """
        pub trait Consumer { fn consume(&self) -> u8; }
        pub struct Item;
        impl Item { pub fn consume(&self) -> u8 { 2 } }
        pub fn a<C: Consumer>(c: &C) -> u8 { c.consume() }
        pub fn b(c: impl Consumer) -> u8 { c.consume() }
        pub fn d(c: &mut dyn Consumer) -> u8 { c.consume() }
        pub fn e<C>(c: &C) -> u8 where C: Consumer + Send + 'static { c.consume() }
        pub fn f<Item>(c: Item) -> u8 { c.consume() }
        pub fn g<C: Consumer + Clone + Into<u8>>(c: C) -> u8 { c.consume() }
        """,
    })
    for n in range(4):
        assert target(index, "src/lib.rs", "consume", n) == "src/lib.rs::Consumer.consume"
    assert target(index, "src/lib.rs", "consume", 4) is None  # a type parameter named like a struct
    assert target(index, "src/lib.rs", "consume", 5) is None  # two behaviours bound it: which one, unknown


def test_a_bare_call_of_an_enums_name_is_no_construction(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": CARGO,
        "src/lib.rs": "pub mod internal;\npub mod comb;\n",
        "src/internal.rs": "pub enum Err<E> { Error(E), Failure(E) }\npub struct Wrap(pub u8);\n",
        "src/comb.rs": """
        use crate::internal::{Err, Wrap};
        pub fn f(x: Result<u8, u8>) -> Result<u8, u8> { match x { Ok(v) => Ok(v), Err(e) => Err(e) } }
        pub fn g() -> Wrap { Wrap(1) }
        """,
    })
    assert target(index, "src/comb.rs", "Err") is None
    assert target(index, "src/comb.rs", "Wrap") == "src/internal.rs::Wrap"


def test_a_field_of_a_type_parameter_is_a_value_of_the_impls_bound(tmp_path):
    """`struct Map<C> { base: C }` and `impl<C: Consumer> Consumer for Map<C> { … self.base.consume() }`:
    the field holds a value of the trait that bounds its type parameter in that impl."""
    index = index_of(tmp_path, {
        "Cargo.toml": CARGO,
        "src/lib.rs": """
        pub trait Consumer { fn consume(&self) -> u8; fn full(&self) -> bool { false } }
        pub struct Map<C, F> { base: C, op: F }
        impl<C: Consumer, F> Consumer for Map<C, F> { fn consume(&self) -> u8 { self.base.consume() } }
        impl<C, F> Map<C, F> where C: Consumer + Send { pub fn full(&self) -> bool { self.base.full() } }
        impl<C, F> Map<C, F> { pub fn other(&self) -> u8 { self.base.consume() } }
        """,
    })
    assert target(index, "src/lib.rs", "consume", 0) == "src/lib.rs::Consumer.consume"
    assert target(index, "src/lib.rs", "full") == "src/lib.rs::Consumer.full"
    assert target(index, "src/lib.rs", "consume", 1) is None  # no bound in that impl
