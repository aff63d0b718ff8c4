"""A bundle a package ships beside its modules (`cdn.js`: every module's functions again, inside one
wrapper) is a copy: explore never shows it, distill leaves it out of the architecture; the modules
and a file that merely uses them are code of their own (graph/copies.py)."""

from __future__ import annotations

from pathlib import Path

from codegraph.distill.topology import build_model
from codegraph.graph.copies import bundle_copies
from codegraph.index.index import RootIndex
from codegraph.requests import run_explore

NAMES = [f"step{i}Value" for i in range(12)]


def _package(root: Path) -> None:
    for i, name in enumerate(NAMES):  # one module per function, as the package is written
        (root / f"{name}.js").write_text(f"export function {name}(input) {{\n  return normalize(input) + {i};\n}}\n")
    (root / "normalize.js").write_text("export function normalize(input) {\n  return String(input).trim();\n}\n")
    body = "".join(f"  function {name}(input) {{\n    return normalize(input) + {i};\n  }}\n" for i, name in enumerate(NAMES))
    (root / "cdn.js").write_text("(function () {\n  function normalize(input) {\n    return String(input).trim();\n  }\n" + body + "  window.pkg = {};\n})();\n")
    uses = "".join(f"  out.push({name}(input));\n" for name in NAMES)
    (root / "pipeline.js").write_text("import { step0Value } from './step0Value.js';\n"
                                      f"export function runPipeline(input) {{\n  const out = [];\n{uses}  return out;\n}}\n")


def test_a_bundle_of_the_packages_own_modules_is_a_copy(tmp_path: Path):
    _package(tmp_path)
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert bundle_copies(u for f in index.files.values() for u in f.units) == {"cdn.js"}
    answer = run_explore(index, {"query": "How does step3Value normalize its input?", "maxOutputChars": 8000})
    assert "step3Value.js" in answer["text"] and "cdn.js" not in answer["text"]
    model = build_model(index)
    assert not any(u.path == "cdn.js" for u in model.units.values())
    assert any(u.path == "pipeline.js" for u in model.units.values())


def test_a_file_of_its_own_functions_is_no_copy(tmp_path: Path):
    _package(tmp_path)
    (tmp_path / "cdn.js").write_text("".join(f"function own{i}(x) {{\n  return x * {i};\n}}\n" for i in range(14)))
    index = RootIndex(tmp_path, use_cache=False)
    index.build()
    assert bundle_copies(u for f in index.files.values() for u in f.units) == frozenset()
