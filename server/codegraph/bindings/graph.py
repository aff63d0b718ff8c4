"""The proven graph: units and files as nodes, resolved relations as edges (networkx).

Only what resolution proved (`resolve.py`); the ranked graph of likely targets that explore
selects on is `graph/likely.py`, a floor up.

Every edge belongs to the file it is written in (its source node is a unit of that file or
the file itself), so replacing a file's edges is: drop the out-edges of its nodes, add anew.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Mapping

import networkx as nx

from ..model.bindings import Edge, FileBindings
from ..model.facts import FileFacts

CALL_KINDS = ("calls", "constructs")
TYPE_KINDS = ("extends", "implements")


class CodeGraph:
    def __init__(self) -> None:
        self.g = nx.MultiDiGraph()
        self._file_nodes: dict[str, list[str]] = {}

    @classmethod
    def build(cls, files: Mapping[str, FileFacts], bindings: Mapping[str, FileBindings]) -> "CodeGraph":
        graph = cls()
        for path, facts in files.items():
            graph._add_nodes(facts)
        for path, b in bindings.items():
            graph._add_edges(b.edges)
        return graph

    def _add_nodes(self, facts: FileFacts) -> None:
        nodes = [facts.path]
        self.g.add_node(facts.path, kind="file", path=facts.path)
        for u in facts.units:
            self.g.add_node(u.id, kind=u.kind, path=u.path)
            nodes.append(u.id)
        self._file_nodes[facts.path] = nodes

    def _add_edges(self, edges: Iterable[Edge]) -> None:
        for e in edges:
            self.g.add_edge(e.src, e.dst, key=e.kind, line=e.line)

    def remove_file(self, path: str) -> None:
        for node in self._file_nodes.pop(path, []):
            if node in self.g:
                self.g.remove_node(node)

    def replace_file(self, facts: FileFacts, bindings: FileBindings) -> None:
        """Drops the file's nodes' out-edges (and nodes that no longer exist), adds the new ones."""
        old = set(self._file_nodes.get(facts.path, []))
        new_ids = {u.id for u in facts.units} | {facts.path}
        for node in old - new_ids:
            if node in self.g:
                self.g.remove_node(node)
        kept = [n for n in old & new_ids if n in self.g]
        if kept:  # one edge view over all of them: a view per node cost more than the edit's parse
            self.g.remove_edges_from(list(self.g.out_edges(kept, keys=True)))
        self._add_nodes(facts)
        # edges into this file's nodes from other files are re-added by their own re-resolution
        self._add_edges(bindings.edges)

    # ---- queries ------------------------------------------------------------------------
    def out(self, node: str, kinds: tuple[str, ...] = CALL_KINDS) -> list[tuple[str, str, int]]:
        if node not in self.g:
            return []
        return [(dst, k, d.get("line", 0)) for _, dst, k, d in self.g.out_edges(node, keys=True, data=True) if k in kinds]

    def inc(self, node: str, kinds: tuple[str, ...] = CALL_KINDS) -> list[tuple[str, str, int]]:
        if node not in self.g:
            return []
        return [(src, k, d.get("line", 0)) for src, _, k, d in self.g.in_edges(node, keys=True, data=True) if k in kinds]

    def implementers(self) -> dict[str, set[str]]:
        """Supertype unit id → ids of the types that extend/implement it (real edges only)."""
        out: dict[str, set[str]] = defaultdict(set)
        for src, dst, k in self.g.edges(keys=True):
            if k in TYPE_KINDS:
                out[dst].add(src)
        return out
