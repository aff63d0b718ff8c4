"""Kotlin: a property delegated to `lazy { … }` holds what its lambda's last expression makes
(`private val cache by lazy { Cache() }`), as `private val cache = Cache()` does (languages/jvm.py
members): `cache.put(e)` in a method reaches `Cache.put` — a proven call, as the property's type is its
initialiser's (`spec.initialised_fields`)."""

from __future__ import annotations

from codegraph.graph.likely import likely_graph
from test_bindings import index_of

BUS = """
package p

class Cache {
  fun put(e: String) {}
}
class Journal {
  fun put(e: String) {}
}

class Bus {
  private val cache by lazy { Cache() }
  private val journal by lazy(LazyThreadSafetyMode.NONE) {
    val j = Journal()
    j
  }
  fun post(e: String) {
    cache.put(e)
    journal.put(e)
  }
}
"""


def test_a_lazy_property_holds_what_its_lambda_makes(tmp_path):
    index = index_of(tmp_path, {"p/Bus.kt": BUS})
    bus = next(u for u in index.files["p/Bus.kt"].units if u.qualname == "Bus")
    assert ("cache", "Cache()") in bus.attrs
    assert not any(name == "journal" for name, _ in bus.attrs)  # its lambda ends in no call: unknown
    out = [(e.dst, e.rule, e.line) for e in likely_graph(index).out("p/Bus.kt::Bus.post")]
    assert ("p/Bus.kt::Cache.put", "resolved", 17) in out
    assert not any(dst == "p/Bus.kt::Journal.put" and line == 18 and rule == "attr-type" for dst, rule, line in out)
