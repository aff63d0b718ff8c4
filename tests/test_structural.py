"""Types that implement a contract by shape (`graph/structural.py`): a Go interface's method set,
a Python `typing.Protocol`. A family for reading, never a proof."""

from __future__ import annotations

from codegraph.graph.structural import structural_implementers
from test_likely_families import _build  # a small repository written and indexed

GO = {
    "go.mod": "module example.com/s\n\ngo 1.21\n",
    "store/store.go": """package store

// Store keeps values by key.
type Store interface {
	Get(key string) (string, bool)
	Put(key, value string) error
}

// Full embeds the others and lists nothing of its own.
type Full interface {
	Store
}
""",
    "store/mem.go": """package store

type Mem struct{ m map[string]string }

func (s *Mem) Get(key string) (string, bool) { v, ok := s.m[key]; return v, ok }
func (s *Mem) Put(key, value string) error  { s.m[key] = value; return nil }
""",
    "store/disk.go": """package store

type Disk struct{ dir string }

func (s Disk) Get(key string) (string, bool) { return s.dir + key, true }
func (s Disk) Put(key, value string) error  { return nil }
func (s Disk) Sync()                        {}
""",
    # Get only: half of the method set
    "store/cache.go": """package store

type Cache struct{}

func (c *Cache) Get(key string) (string, bool) { return "", false }
""",
    # Put with another number of parameters: not the interface's Put
    "store/log.go": """package store

type Log struct{}

func (l *Log) Get(key string) (string, bool) { return "", false }
func (l *Log) Put(line string) error        { return nil }
""",
    "store/mem_test.go": """package store

type fakeStore struct{}

func (f *fakeStore) Get(key string) (string, bool) { return "", false }
func (f *fakeStore) Put(key, value string) error  { return nil }
""",
}


def test_a_go_interface_is_implemented_by_every_type_whose_method_set_covers_it(tmp_path):
    idx = _build(tmp_path, GO)
    found = structural_implementers(idx)
    # the whole method set, by name and number of parameters; a test's fake is no family member
    assert found == {"store/store.go::Store": {"store/mem.go::Mem", "store/disk.go::Disk"}}
    # the interface's methods are units of the interface: a call through it binds to them
    assert set(idx.resolver.members_of(idx.resolver.units["store/store.go::Store"])) == {"Get", "Put"}


def test_a_python_protocol_is_implemented_by_classes_defining_its_public_methods(tmp_path):
    idx = _build(tmp_path, {
        "app/proto.py": "from typing import Protocol\n\n\nclass Sink(Protocol):\n    def write(self, data: bytes) -> None: ...\n",
        "app/file.py": "class FileSink:\n    def write(self, data):\n        open('x', 'ab').write(data)\n",
        "app/other.py": "class Reader:\n    def read(self):\n        return b''\n",
    })
    assert structural_implementers(idx) == {"app/proto.py::Sink": {"app/file.py::FileSink"}}


def test_the_table_follows_the_index_version(tmp_path):
    idx = _build(tmp_path, GO)
    assert "store/cache.go::Cache" not in structural_implementers(idx)["store/store.go::Store"]
    path = tmp_path / "store/cache.go"
    path.write_text(path.read_text() + "func (c *Cache) Put(key, value string) error { return nil }\n")
    idx.refresh_path("store/cache.go")
    assert "store/cache.go::Cache" in structural_implementers(idx)["store/store.go::Store"]


def test_go_families_are_read_beside_the_flow_not_dispatched_to(tmp_path):
    """Explore's gate and distill's walk read a Go interface's shape implementers as its family; the
    ranked graph's dispatch edges follow declared relations only (dispatching every call through a
    small interface to each type that satisfies it led flows into sibling bodies)."""
    from codegraph.graph.structural import dispatch_subtypes, families
    from codegraph.graph.likely import likely_graph

    idx = _build(tmp_path, GO)
    # `Full` embeds `Store`: a declared relation, in both; `Mem` and `Disk` implement it by shape
    assert families(idx)["store/store.go::Store"] == {"store/store.go::Full", "store/mem.go::Mem", "store/disk.go::Disk"}
    assert dispatch_subtypes(idx)["store/store.go::Store"] == {"store/store.go::Full"}
    assert likely_graph(idx).subtypes()["store/store.go::Store"] == {"store/store.go::Full"}


def test_a_method_added_to_a_go_interface_binds_the_calls_through_it(tmp_path):
    idx = _build(tmp_path, {
        "go.mod": "module x\n\ngo 1.21\n",
        "a/store.go": "package a\n\ntype Store interface {\n\tGet(k string) string\n}\n",
        "a/use.go": 'package a\n\nfunc Use(s Store) {\n\ts.Get("k")\n\ts.Put("k", "v")\n}\n',
    })

    def calls() -> set[str]:
        return {e.dst for b in idx.bindings.values() for e in b.edges if e.kind == "calls"}

    assert calls() == {"a/store.go::Store.Get"}
    (tmp_path / "a/store.go").write_text("package a\n\ntype Store interface {\n\tGet(k string) string\n\tPut(k, v string)\n}\n")
    idx.refresh_path("a/store.go")
    idx.settle()
    assert calls() == {"a/store.go::Store.Get", "a/store.go::Store.Put"}


def test_a_supertype_without_behaviour_heads_no_family(tmp_path):
    """Three classes implement an options shape (properties only) and a contract with a method. The
    contract's implementers are interchangeable; the options shape's are not: it gives them nothing
    to do alike, so a file that defines it or implements it is no family file."""
    from codegraph.graph.structural import families

    idx = _build(tmp_path, {
        "src/options.ts": "export interface TraceOptions {\n  verbose?: boolean;\n  label?: string;\n}\n\n"
                          "export interface Runner {\n  run(): void;\n}\n",
        **{f"src/{name.lower()}.ts": f'import {{ TraceOptions, Runner }} from "./options";\n\n'
                                      f"export class {name} implements TraceOptions, Runner {{\n"
                                      f"  verbose = false;\n  run(): void {{\n    console.log(\"{name}\");\n  }}\n}}\n"
           for name in ("Effect", "Computed", "Watcher")},
    })
    found = families(idx)
    assert found.get("src/options.ts::Runner") == {f"src/{n.lower()}.ts::{n}" for n in ("Effect", "Computed", "Watcher")}
    assert "src/options.ts::TraceOptions" not in found
