"""Named symbols that the question writes in code form: which definitions a name points at when
several share it (overloads that hand over to a sibling, a function and methods called alike)."""

from __future__ import annotations

from codegraph.explore.engine import explore, understand
from codegraph.explore.model import ExploreRequest
from codegraph.explore.relevance import NameTable, parse_query
from codegraph.explore.tables import derived
from codegraph.index.index import RootIndex


def built_index(root) -> RootIndex:
    idx = RootIndex(root, use_cache=False)
    idx.build()
    return idx


REGISTRY_JAVA = """\
package demo;

import java.util.*;

public final class Registry {
  private final List<Factory> factories = new ArrayList<>();
  private final Map<Object, Adapter> cache = new HashMap<>();

  public Adapter adapter(Class<?> type) {
    return adapter(type, Collections.emptySet());
  }

  public Adapter adapter(Class<?> type, String qualifier) {
    return adapter(type, Collections.singleton(qualifier), null);
  }

  public Adapter adapter(Class<?> type, Set<String> qualifiers) {
    return adapter(type, qualifiers, null);
  }

  public Adapter adapter(Class<?> type, String... qualifiers) {
    if (qualifiers.length == 0) {
      throw new IllegalArgumentException("no qualifiers");
    }
    return adapter(type, new HashSet<>(Arrays.asList(qualifiers)));
  }

  public Adapter adapter(Class<?> type, Set<String> qualifiers, String fieldName) {
    Object key = Arrays.asList(type, qualifiers);
    Adapter cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    for (Factory factory : factories) {
      Adapter made = factory.create(type, qualifiers, this);
      if (made != null) {
        cache.put(key, made);
        return made;
      }
    }
    throw new IllegalArgumentException("No adapter for " + type + " " + fieldName);
  }
}
"""

FACTORY_JAVA = """\
package demo;

import java.util.Set;

public interface Factory {
  Adapter create(Class<?> type, Set<String> qualifiers, Registry registry);
}
"""

ADAPTER_JAVA = """\
package demo;

public abstract class Adapter {
  public abstract Object read(String json);
}
"""


def _registry(root):
    (root / "Registry.java").write_text(REGISTRY_JAVA)
    (root / "Factory.java").write_text(FACTORY_JAVA)
    (root / "Adapter.java").write_text(ADAPTER_JAVA)
    return built_index(root)


def test_a_named_overloaded_method_points_at_the_overloads_that_do_the_work(tmp_path):
    """`Registry.adapter` has five overloads; three only fill in a default and call a sibling
    (`return adapter(type, Collections.emptySet());`). The name points at the two that do more:
    the one that checks before handing over and the one that looks the adapter up."""
    idx = _registry(tmp_path)
    q = parse_query("How does `Registry.adapter` find an adapter for a type?", idx.files, derived(idx).names)
    assert sorted(u.start_line for u in q.named["Registry.adapter"]) == [21, 28]


def test_the_overload_that_does_the_work_anchors_the_flow_and_is_shown(tmp_path):
    """Five overloads were five definitions, too many to anchor the flow: the lookup itself was
    neither a flow anchor nor shown first. Now it is both."""
    idx = _registry(tmp_path)
    req = ExploreRequest("How does `Registry.adapter` find an adapter for a type?", 3000)
    front = understand(idx, req, lambda: None)
    assert 28 in {u.start_line for u in front.strong if u.qualname == "Registry.adapter"}
    out = explore(idx, req, lambda: None)
    assert "for (Factory factory : factories) {" in out["text"]


def test_without_the_sources_every_overload_stays_named(tmp_path):
    """A name table built without the files' text cannot tell a door from the work: it keeps
    every overload, as before."""
    idx = _registry(tmp_path)
    q = parse_query("How does `Registry.adapter` work?", idx.files, NameTable(idx.files))
    assert len(q.named["Registry.adapter"]) == 5


DE_RS = """\
pub struct Deserializer<R> {
    read: R,
}

impl<'a> Deserializer<StrRead<'a>> {
    pub fn from_str(s: &'a str) -> Self {
        Deserializer { read: StrRead::new(s) }
    }
}

pub struct StrRead<'a> {
    s: &'a str,
}

impl<'a> StrRead<'a> {
    pub fn new(s: &'a str) -> Self {
        StrRead { s }
    }
}

pub struct Number {
    n: u64,
}

impl std::str::FromStr for Number {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(|n| Number { n }).map_err(|_| ())
    }
}

pub fn from_str<'a, T>(s: &'a str) -> Result<T, ()> {
    from_trait(StrRead::new(s))
}

fn from_trait<T>(read: StrRead) -> Result<T, ()> {
    let _ = read;
    Err(())
}
"""


def test_a_bare_name_in_code_form_names_the_function_of_that_name(tmp_path):
    """`from_str` names the crate's function, not the methods called alike (they are named by
    their owner: `Deserializer::from_str`, `Number::from_str`); written as a method ("the
    `from_str()` method", `.from_str(…)`) it names the methods still."""
    (tmp_path / "de.rs").write_text(DE_RS)
    idx = built_index(tmp_path)
    names = derived(idx).names
    q = parse_query("How does `from_str` parse a JSON object?", idx.files, names)
    assert [u.qualname for u in q.named["from_str"]] == ["from_str"]
    q = parse_query("What does the `from_str()` method do?", idx.files, names)
    assert len(q.named["from_str"]) == 3
    q = parse_query("What does `Number::from_str` do?", idx.files, names)
    assert [u.qualname for u in q.named["Number::from_str"]] == ["Number.from_str"]


def test_a_function_that_hands_over_to_its_namesake_method_leaves_the_method_named(tmp_path):
    """Go's package-level wrapper (`func SetName(in string) { v.SetName(in) }`) calls the method
    that does the work: both stay named. A name many types define (`Lookup`) is theirs, not a
    package helper's."""
    (tmp_path / "go.mod").write_text("module demo\n\ngo 1.21\n")
    (tmp_path / "conf.go").write_text(
        "package demo\n\nvar v = New()\n\ntype Conf struct {\n\tname string\n}\n\n"
        "func New() *Conf {\n\treturn &Conf{}\n}\n\n"
        "func SetName(in string) { v.SetName(in) }\n\n"
        "func (c *Conf) SetName(in string) {\n\tif in != \"\" {\n\t\tc.name = in\n\t}\n}\n\n"
        "func Lookup(key string) string { return key }\n\n"
        + "".join(f"type T{i} struct{{}}\n\nfunc (t T{i}) Lookup(key string) string {{\n\treturn key\n}}\n\n" for i in range(4))
    )
    idx = built_index(tmp_path)
    names = derived(idx).names
    q = parse_query("What does `SetName(\"x\")` do?", idx.files, names)
    assert sorted(u.qualname for u in q.named["SetName"]) == ["Conf.SetName", "SetName"]
    q = parse_query("Who calls `Lookup`?", idx.files, names)
    assert len(q.named["Lookup"]) == 5


def test_a_plain_word_equal_to_a_name_keeps_its_methods(tmp_path):
    """"retry" in prose is no code-form choice between a module's helper and the task's method:
    both stay what the word may mean."""
    (tmp_path / "backend.py").write_text("def retry(fun):\n    return fun\n")
    (tmp_path / "task.py").write_text("class Task:\n    def retry(self, exc=None):\n        raise exc\n")
    idx = built_index(tmp_path)
    q = parse_query("How does a task retry when it fails?", idx.files, derived(idx).names)
    assert sorted(u.qualname for u in q.weak["retry"]) == ["Task.retry", "retry"]
