"""A barrel that re-exports every module of a package (`internal.ts`: `export * from './m0'`, …)
while each module imports its neighbours' names back from the barrel: the re-export graph is one
big cycle. Following a name through it visits each (module, name) once per lookup, never once per
path through the cycle (which is exponential in the number of modules importing the name)."""

from __future__ import annotations

from codegraph.bindings import imports as imports_mod
from test_bindings import index_of, target

MODULES = 14


def _barrel_package() -> dict[str, str]:
    files = {"src/internal.ts": "".join(f"export * from './m{i}'\n" for i in range(MODULES))}
    for i in range(MODULES):
        others = ", ".join(f"f{j}" for j in range(MODULES) if j != i)
        uses = "\n".join(f"  f{j}()" for j in range(MODULES) if j != i)
        files[f"src/m{i}.ts"] = (f"import {{ {others}, missing }} from './internal'\n"
                                 f"export function f{i}() {{\n{uses}\n  missing()\n}}\n")
    files["src/main.ts"] = "import { f3 } from './internal'\nexport function run() { f3() }\n"
    return files


def test_names_through_a_cyclic_barrel_resolve_in_bounded_work(tmp_path, monkeypatch):
    calls = {"n": 0}
    original = imports_mod.ImportBindings._passed_on

    def counting(self, path, name, depth):
        calls["n"] += 1
        if calls["n"] > 200_000:
            raise AssertionError("re-export lookups grow with the paths through the barrel's cycle")
        return original(self, path, name, depth)

    monkeypatch.setattr(imports_mod.ImportBindings, "_passed_on", counting)
    index = index_of(tmp_path, _barrel_package())
    assert target(index, "src/main.ts", "f3") == "src/m3.ts::f3"
    assert target(index, "src/m0.ts", "f5") == "src/m5.ts::f5"
    assert target(index, "src/m2.ts", "missing") is None  # defined nowhere: stays unknown
    assert calls["n"] < 40 * MODULES * MODULES  # about MODULES per lookup of each of MODULES² names
