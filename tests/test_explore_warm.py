"""While typing pauses, the language server computes the new version's explore tables and the ranked
graph's working set ahead of the next question (explore/warm.py); an edit or a question stops it, and
the answer is the one a fresh index gives."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from pathlib import Path

import pytest

from codegraph import service
from codegraph.explore import warm as warm_module
from codegraph.graph.likely import likely_graph
from codegraph.service import Cancelled, IndexOptions, Workspace

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "explore" / "family-python"
QUESTION = json.loads((FIXTURE / "gold.json").read_text())["query"]
EDITED = "minorm/sql/compiler.py"


async def _workspace(root: Path) -> tuple[Workspace, str]:
    ws = Workspace(service.LSP, IndexOptions(use_cache=False))
    ws.WARM_DELAY_S = ws.WHOLE_DELAY_S = 0.0
    uri = root.as_uri()
    ws.add_root(uri)
    await ws.build()
    return ws, uri


async def _until(predicate, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _edit(ws: Workspace, root: Path, text: str) -> None:
    ws.change_document((root / EDITED).as_uri(), text, None)


async def _warmed(ws: Workspace) -> int:
    await _until(lambda: ws._writes is not None and ws._writes.empty() and ws._warming is not None and ws._warming.done())
    return ws._warming.result()


def _edited_text(root: Path) -> str:
    return (root / EDITED).read_text() + "\n\ndef added_by_the_edit():\n    return 1\n"


async def test_a_pause_after_an_edit_computes_what_the_last_question_asked(tmp_path: Path):
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    ws, uri = await _workspace(root)
    index = ws.roots[uri]
    await ws.answer("explore", {"query": QUESTION})
    asked = [key for key in likely_graph(index).asked]
    assert any(callers for callers, _ in asked) and any(not callers for callers, _ in asked)
    version = index.version
    text = _edited_text(root)
    _edit(ws, root, text)
    done = await _warmed(ws)
    assert index.version > version
    graph = likely_graph(index)
    assert graph.version == index.version
    # the new version's graph holds them before anyone asks again, then every other unit's too
    assert done == len(asked) + 2 * len(graph.walk_order())
    assert all(unit in (graph._into if callers else graph._outs) for callers, unit in asked)
    assert all(unit in graph._outs and unit in graph._into for unit in graph.walk_order())
    assert index.memo["explore"].version == index.version
    warmed = await ws.answer("explore", {"query": QUESTION})

    (root / EDITED).write_text(text)  # the same text, answered by a fresh index that never warmed
    fresh = Workspace(service.CLI, IndexOptions(use_cache=False))
    fresh.add_root(uri)
    fresh.build_now()
    assert warmed["text"] == fresh.answer_now("explore", {"query": QUESTION})["text"]
    ws.close()


async def test_after_a_question_the_rest_of_the_graph_is_computed_while_nobody_asks(tmp_path: Path):
    """A question on another subject walks units no question walked before: their edges and callers
    are computed once the answer is out, main path first, and a request in flight holds it back."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    ws, uri = await _workspace(root)
    index = ws.roots[uri]
    graph = likely_graph(index)
    order = graph.walk_order()
    assert order and not any("/tests/" in unit or unit.startswith("tests/") for unit in order)
    assert not any(unit in graph._outs for unit in order)  # nothing computed before a question
    ws._busy += 1  # as if another request were still in flight
    answer = await ws.answer("explore", {"query": QUESTION})
    await asyncio.sleep(0.05)
    assert ws._warming is None  # held back while a request runs
    ws._busy -= 1
    await ws.answer("explore", {"query": QUESTION})
    await _until(lambda: ws._warming is not None and ws._warming.done())
    assert ws._warming.result() >= 2 * len(order)
    assert all(unit in graph._outs and unit in graph._into for unit in order)
    assert (await ws.answer("explore", {"query": QUESTION}))["text"] == answer["text"]
    ws.close()


async def test_no_warm_up_for_a_workspace_that_never_explored(tmp_path: Path):
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    ws, uri = await _workspace(root)
    _edit(ws, root, _edited_text(root))
    await _until(lambda: ws._writes is not None and ws._writes.empty() and not ws.roots[uri].unsettled)
    await asyncio.sleep(0.05)
    assert ws._warming is None


@pytest.mark.parametrize("interruption", ["edit", "question", "editor view"])
async def test_an_edit_or_a_question_stops_the_warm_up(tmp_path: Path, monkeypatch, interruption: str):
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    ws, uri = await _workspace(root)
    await ws.answer("explore", {"query": QUESTION})
    seen = {"started": False, "stopped": False}

    def endless(index, checkpoint, seconds=0.0, whole=True):  # a warm-up that never ends by itself
        seen["started"] = True
        try:
            while True:
                checkpoint()
                time.sleep(0.001)
        except Cancelled:
            seen["stopped"] = True
            raise

    monkeypatch.setattr(warm_module, "warm", endless)
    text = _edited_text(root)
    _edit(ws, root, text)
    await _until(lambda: seen["started"])
    version = ws.roots[uri].version
    if interruption == "edit":
        _edit(ws, root, text + "\n# and another\n")
        await _until(lambda: ws.roots[uri].version > version)  # the write got past the warm-up's read gate
    elif interruption == "question":
        answer = await asyncio.wait_for(ws.answer("explore", {"query": QUESTION}), 30)
        assert answer["text"]
    else:  # document symbols, call hierarchy: what an editor asks on its own — stopped before it runs

        def stopped_meanwhile(index, rel) -> bool:
            deadline = time.monotonic() + 5
            while not seen["stopped"] and time.monotonic() < deadline:
                time.sleep(0.005)
            return seen["stopped"]

        assert await asyncio.wait_for(ws.view(stopped_meanwhile), 30) == [True]
    assert seen["stopped"]
    ws.close()  # the edit started another endless warm-up: closing stops it
    await _until(lambda: ws._warming.done())


async def test_without_an_editor_the_disk_is_followed_between_requests(tmp_path: Path):
    """MCP hears of no edit: after an explore it looks at the disk every FOLLOW_S for a while, and
    warms what an agent's edit made new before the agent asks again."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    ws = Workspace(service.MCP, IndexOptions(use_cache=False))
    ws.WARM_DELAY_S, ws.WHOLE_DELAY_S, ws.FOLLOW_S = 0.0, 0.0, 0.05
    uri = root.as_uri()
    ws.add_root(uri)
    await ws.build()
    index = ws.roots[uri]
    await asyncio.sleep(0.2)
    assert ws._following is None  # nobody explored yet: no watching
    await ws.answer("explore", {"query": QUESTION})
    version = index.version
    text = _edited_text(root)
    (root / EDITED).write_text(text)  # an agent's own tool writes the file
    await _until(lambda: index.version > version and ws._warming is not None and ws._warming.done())
    assert ws._warming.result() > 0
    assert likely_graph(index).version == index.version
    followed = await ws.answer("explore", {"query": QUESTION})
    fresh = Workspace(service.CLI, IndexOptions(use_cache=False))
    fresh.add_root(uri)
    fresh.build_now()
    assert followed["text"] == fresh.answer_now("explore", {"query": QUESTION})["text"]
    assert b"added_by_the_edit" in index.sources[EDITED]
    ws.close()
    await _until(lambda: ws._following.done(), seconds=5)  # closing ends the watch too


def test_the_disk_watch_looks_quickly_and_misses_no_edit(tmp_path: Path, monkeypatch):
    """`quiet` (a stat per directory walked and file met, no walk) says nothing changed only when a
    full catch-up would find nothing: an edit, a new file, a deletion, a .gitignore edit each end it."""
    import os

    from codegraph.index import disk
    from codegraph.index.disk import DiskWatch
    from codegraph.index.index import RootIndex

    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    (root / ".gitignore").write_text("build/\n")
    old = time.time_ns() - 60 * 10**9  # every mtime well in the past: nothing racy
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames + ["."]:
            os.utime(os.path.join(dirpath, name), ns=(old, old))
    index = RootIndex(root, use_cache=False)
    watch = DiskWatch(index)
    watch.snapshot()
    index.build()
    assert watch.quiet()
    walks = []
    monkeypatch.setattr(index.scope, "scan", lambda real=index.scope.scan: walks.append(1) or real())
    assert watch.catch_up() == [] and not walks  # quiet: no walk at all

    def settled() -> None:  # after a full catch-up, made quiet again by putting mtimes in the past
        watch.catch_up()
        for rel in list(watch.seen):
            os.utime(os.path.join(root, rel) if rel else root, ns=(old, old))
        watch.snapshot()
        assert watch.quiet()

    path = root / EDITED
    path.write_text(path.read_text() + "\n# one more line\n")
    assert not watch.quiet()
    assert watch.catch_up() == [EDITED] and walks
    settled()
    (root / "minorm" / "added.py").write_text("def added():\n    return 2\n")
    os.utime(root / "minorm" / "added.py", ns=(old, old))  # an old mtime, but its directory changed
    assert not watch.quiet()
    settled()
    (root / ".gitignore").write_text("build/\nminorm/backends/\n")
    os.utime(root / ".gitignore", ns=(old + 5, old + 5))
    assert not watch.quiet()
    settled()
    path.unlink()
    assert not watch.quiet()
    assert EDITED in watch.catch_up()
    monkeypatch.setattr(disk, "RACY_NS", 10**30)  # everything recent: never trusted without the walk
    watch.snapshot()
    assert not watch.quiet()


async def test_the_working_set_outlives_the_server(tmp_path: Path):
    """Written beside the fact cache when the workspace closes, warmed after the next start's build;
    a broken file recalls nothing and breaks nothing."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    cache = tmp_path / "cache"
    uri = root.as_uri()

    async def start() -> Workspace:
        ws = Workspace(service.LSP, IndexOptions(cache_dir=cache))
        ws.WARM_DELAY_S = ws.WHOLE_DELAY_S = 0.0
        ws.add_root(uri)
        await ws.build()
        return ws

    first = await start()
    answer = await first.answer("explore", {"query": QUESTION})
    asked = list(likely_graph(first.roots[uri]).asked)
    first.close()
    files = list(cache.glob("*-working.json"))
    assert len(files) == 1

    second = await start()
    await _until(lambda: second._warming is not None and second._warming.done())
    graph = likely_graph(second.roots[uri])
    assert second._warming.result() == len(asked) + 2 * len(graph.walk_order())
    assert list(graph.asked) == asked
    assert all(unit in (graph._into if callers else graph._outs) for callers, unit in asked)
    assert (await second.answer("explore", {"query": QUESTION}))["text"] == answer["text"]
    second.close()

    files[0].write_text('{"not": "a working set"')  # broken
    third = await start()
    await asyncio.sleep(0.1)
    assert third._warming is None and not likely_graph(third.roots[uri]).asked
    assert (await third.answer("explore", {"query": QUESTION}))["text"] == answer["text"]
    third.close()
