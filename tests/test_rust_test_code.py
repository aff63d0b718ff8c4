"""Rust test code beside the library code: `#[test]` functions and `#[cfg(test)]` items outside a
`mod tests` are test code too (the compiler builds them only for `cargo test`)."""

from __future__ import annotations

import pytest

from codegraph.index.extract import extract_source
from codegraph.index.index import RootIndex
from codegraph.model.facts import in_test_module
from codegraph.requests import run_explore

REDIRECT = b"""pub struct Policy { max: usize }

impl Policy {
    /// Whether a redirect after `previous` hops is followed.
    pub fn check(&self, previous: &[String]) -> bool {
        previous.len() < self.max
    }

    #[cfg(test)]
    fn limit_for_tests(&self) -> usize {
        self.max
    }

    #[cfg(any(test, feature = "blocking"))]
    pub fn limit(&self) -> usize {
        self.max
    }
}

#[test]
fn test_redirect_policy_limit() {
    let policy = Policy { max: 10 };
    let previous: Vec<String> = (0..9).map(|i| format!("http://a.b/c/{}", i)).collect();
    assert!(policy.check(&previous));
    assert_eq!(policy.limit_for_tests(), 10);
}

#[tokio::test(flavor = "multi_thread")]
async fn test_redirect_policy_check_async() {
    assert!(Policy { max: 1 }.check(&[]));
}

#[cfg(all(test, feature = "cookies"))]
fn redirect_policy_check_helper() -> Policy {
    Policy { max: 2 }
}

#[cfg(not(test))]
fn redirect_policy_check_release() -> bool {
    Policy { max: 3 }.check(&[])
}
"""


def _units():
    facts, _, _ = extract_source("src/redirect.rs", "rust", REDIRECT)
    return {u.qualname: u for u in facts.units}


@pytest.mark.parametrize("name, test", [
    ("Policy.check", False),
    ("Policy.limit_for_tests", True),  # #[cfg(test)]
    ("Policy.limit", False),  # any(test, …): built without tests too
    ("test_redirect_policy_limit", True),  # #[test]
    ("test_redirect_policy_check_async", True),  # #[tokio::test(…)]
    ("redirect_policy_check_helper", True),  # all(test, …)
    ("redirect_policy_check_release", False),  # not(test)
])
def test_a_rust_items_own_test_attribute_makes_it_test_code(name, test):
    assert in_test_module(_units()[name]) is test


def test_explore_leaves_rust_test_functions_beside_the_code_out(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "redirect.rs").write_bytes(REDIRECT)
    (tmp_path / "src" / "lib.rs").write_text("mod redirect;\npub use redirect::Policy;\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    text = run_explore(index, {"query": "How does the redirect policy check the redirect limit?"})["text"]
    assert "pub fn check" in text
    for name in ("fn test_redirect_policy_limit", "fn test_redirect_policy_check_async", "fn redirect_policy_check_helper"):
        assert name not in text


def test_a_pub_fn_in_a_private_inline_module_is_no_public_entry(tmp_path):
    """`pub(crate) mod parsing { pub fn … }` (syn's idiom): the `pub` reaches the module's
    neighbours, not the crate's users; distill's entries are what a user of the crate calls."""
    from codegraph.distill.surfaces import is_public_api
    from codegraph.distill.topology import build_model

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text("mod expr;\npub use expr::parse_expr;\n")
    (tmp_path / "src" / "expr.rs").write_text(
        "pub fn parse_expr(s: &str) -> usize {\n    parsing::unary(s) + api::binary(s)\n}\n\n"
        "pub(crate) mod parsing {\n    pub fn unary(s: &str) -> usize {\n        s.len()\n    }\n\n"
        "    pub fn ambiguous(s: &str) -> usize {\n        unary(s) + 1\n    }\n}\n\n"
        "pub mod api {\n    pub fn binary(s: &str) -> usize {\n        s.len() * 2\n    }\n\n"
        "    mod inner {\n        pub fn hidden() -> usize {\n            1\n        }\n    }\n}\n")
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    model = build_model(index)
    public = {u.qualname for u in model.units.values() if u.is_callable and is_public_api(index, model, u)}
    assert public == {"parse_expr", "api.binary"}


@pytest.mark.parametrize("name, test", [
    ("Policy.check", False),
    ("Policy.limit", False),  # any(test, …): tracing-subscriber's ExtensionsInner::new was listed as a test
    ("redirect_policy_check_release", False),  # not(test)
    ("test_redirect_policy_limit", True),
    ("test_redirect_policy_check_async", True),
    ("redirect_policy_check_helper", True),
])
def test_symbols_and_impact_read_a_cfg_the_way_the_compiler_does(name, test):
    from codegraph.query.symbols import is_test_unit

    assert is_test_unit(_units()[name]) is test


NESTED = b"""pub struct Registry { spans: Vec<u64> }

impl Registry {
    pub fn enter(&mut self, id: u64) { self.spans.push(id) }
}

#[cfg(test)]
impl Registry {
    fn span_count_for_tests(&self) -> usize { self.spans.len() }
}

#[cfg(all(test, feature = "alloc"))]
pub(crate) mod test_util {
    pub fn registry_with_spans() -> super::Registry {
        super::Registry { spans: vec![1, 2] }
    }

    pub mod deeper {
        pub fn empty_registry() -> super::super::Registry { super::super::Registry { spans: vec![] } }
    }
}

mod tests {
    fn helper() {}
}
"""


def test_items_of_a_test_only_module_or_impl_are_test_code():
    """A `#[cfg(test)]` on a module or an impl removes everything in it from a normal build:
    tracing-subscriber's `#[cfg(all(test, feature = "alloc"))] mod test_util` helpers were library code."""
    from codegraph.query.symbols import is_test_unit

    facts, _, _ = extract_source("src/registry.rs", "rust", NESTED)
    units = {u.qualname: u for u in facts.units}
    for name in ("Registry.span_count_for_tests", "test_util.registry_with_spans", "test_util.deeper", "test_util.deeper.empty_registry"):
        assert in_test_module(units[name]) and is_test_unit(units[name]), name
    assert not in_test_module(units["Registry.enter"]) and not is_test_unit(units["Registry.enter"])
    assert units["test_util.registry_with_spans"].decorators == ('#[cfg(all(test, feature = "alloc"))]',)  # the module's, once
