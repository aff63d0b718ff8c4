"""The house keeps its floors: every import of the package, read from the source with `ast`
(function-level and type-checking imports included), runs to the same stage or down, never up
and never sideways between stages on one floor; no import cycles; the bottom floor imports
nothing of the project. docs/architecture.md draws the same floors."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "codegraph"

# Bottom to top. A stage is a package or a module under codegraph/; stages on one floor are
# siblings and import nothing of each other.
FLOORS: list[tuple[str, ...]] = [
    ("model",),  # data types, request errors and field readers, canonical JSON
    ("languages",),  # one spec per language
    ("workspace",),  # which files are in scope
    ("bindings",),  # what resolution proves, and the graph of it
    ("index",),  # per-file facts, the cache, RootIndex
    ("graph",),  # the ranked graph for selection (likely targets)
    ("render",),  # markdown helpers, redaction, guidance
    ("explore", "distill", "query"),  # the two engines, and the graph's queries
    ("framing",),  # the language server's frame: the unit distill's budgets are counted in
    ("requests",),  # the request runners
    ("service",),  # the workspace service
    ("lsp", "mcp_server"),  # the servers
    ("cli",),  # the command line, which also starts either server
    ("__init__",),  # the package's version
]
FLOOR_OF = {stage: level for level, stages in enumerate(FLOORS) for stage in stages}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports (a package counts as its __init__)."""
    package = name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            candidates = [target] + [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        for candidate in candidates:
            for module in (candidate, f"{candidate}.__init__"):
                if module in modules and module != name and module != "codegraph.__init__":
                    found.add(module)
    return found


def _stage(module: str) -> str:
    return module.split(".")[1]  # codegraph.index.facts → index, codegraph.cli → cli


GRAPH = {name: _imports(name, path, _modules()) for name, path in _modules().items()}


def test_every_module_has_a_floor():
    assert {_stage(m) for m in GRAPH} <= set(FLOOR_OF), sorted({_stage(m) for m in GRAPH} - set(FLOOR_OF))


def test_imports_run_down_never_up_or_sideways():
    wrong = []
    for src, targets in GRAPH.items():
        for dst in targets:
            a, b = _stage(src), _stage(dst)
            if a != b and FLOOR_OF[b] >= FLOOR_OF[a]:
                wrong.append(f"{src} -> {dst}")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_bottom_floor_imports_nothing_of_the_project():
    assert not {dst for src, targets in GRAPH.items() if _stage(src) == "model" for dst in targets if _stage(dst) != "model"}


def test_no_import_cycles():
    seen: dict[str, int] = {}  # 1: on the current path, 2: done
    cycle: list[str] = []

    def visit(path: list[str]) -> bool:
        node = path[-1]
        seen[node] = 1
        for nxt in sorted(GRAPH[node]):
            if seen.get(nxt) == 1:
                cycle.extend(path[path.index(nxt):] + [nxt])
                return True
            if nxt not in seen and visit(path + [nxt]):
                return True
        seen[node] = 2
        return False

    for module in sorted(GRAPH):
        if module not in seen and visit([module]):
            break
    assert not cycle, " -> ".join(cycle)


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, or []."""
    seen: dict[str, int] = {}
    found: list[str] = []

    def visit(path: list[str]) -> bool:
        seen[path[-1]] = 1
        for nxt in sorted(graph[path[-1]]):
            if seen.get(nxt) == 1:
                found.extend(path[path.index(nxt):] + [nxt])
                return True
            if nxt not in seen and visit(path + [nxt]):
                return True
        seen[path[-1]] = 2
        return False

    for node in sorted(graph):
        if node not in seen and visit([node]):
            break
    return found


def test_the_vscode_client_has_no_import_cycles():
    """Type-only imports count: a circle of modules is one module in two files."""
    import re

    src = PACKAGE.parents[1] / "vscode-client" / "src"
    modules = {p.stem: p for p in src.glob("*.ts")}
    graph = {name: {m for m in re.findall(r'^import [^;]*? from "\./([\w-]+)";', path.read_text(encoding="utf-8"), re.M) if m in modules}
             for name, path in modules.items()}
    assert "ctx" in graph["main"], "the import reader reads the client's imports"
    cycle = _cycle(graph)
    assert not cycle, " -> ".join(cycle)


def test_language_knowledge_lives_in_the_language_specs():
    """Outside `languages/` no code branches on a language's name (`language == "python"`,
    `lang in ("java", "kotlin")`): what a language means is a field of its spec. The jedi layer
    is Python's by definition."""
    import re
    from pathlib import Path

    branch = re.compile(r"\b(?:language|lang)\s*(?:==|!=|in|not in)\s*[(\"']")
    root = Path(__file__).resolve().parents[1] / "server" / "codegraph"
    found = [
        f"{p.relative_to(root)}:{n}: {line.strip()}"
        for p in sorted(root.rglob("*.py")) if "languages" not in p.relative_to(root).parts and p.name != "jedi_upgrade.py"
        for n, line in enumerate(p.read_text().splitlines(), 1) if branch.search(line)
    ]
    assert not found, "\n".join(found)
