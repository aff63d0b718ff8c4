"""Incremental updates give exactly what a fresh index of the final text gives.

Random sequences of edits (inserts, deletes, replacements of random text, whole new
methods, non-ASCII and emoji) go through `RootIndex.open_document` + `set_document` with
tree-sitter InputEdits (the old tree is reused), or through `lsp.sync.apply_changes` with
LSP UTF-16 ranges. After every sequence the edited file's facts and every file's resolved
edges must equal those of a `RootIndex` built from scratch over the final texts.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.index.index import RootIndex
from codegraph.lsp.sync import Change, apply_changes

LANG_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lang"
TARGETS = [("python", "app/models.py"), ("python", "app/main.py"), ("typescript", "src/shapes.ts"), ("go", "shapes/shapes.go")]

SNIPPETS = [
    "\n    def added(self):\n        return self.area()\n",
    "\ndef make_square(x):\n    return Square(x)\n",
    "\nclass Extra(Shape):\n    pass\n",
    "\n  added(): number { return this.area(); }\n",
    "\nexport function makeSquare() { return new Square(1); }\n",
    "\nfunc (c *Circle) Added() float64 { return c.Area() }\n",
    "(", ")", "{", "}", ":", "\n", "    ", "def ", "class ", "return ", "é", "😀", "名前", "\"", "#", "//",
]
TEXT = st.one_of(st.sampled_from(SNIPPETS), st.text(alphabet="abc_ ():\n{}.é😀=", max_size=12))
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def _copy(lang: str) -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="cg-incr-"))
    shutil.copytree(LANG_FIXTURES / lang, tmp / "root", ignore=shutil.ignore_patterns("expected.json"))
    return tmp / "root"


def _snapshot(index: RootIndex, rel: str):
    f = index.files.get(rel)
    facts = None if f is None else (f.units, f.calls, f.imports, f.supertypes, f.package)
    edges = {p: sorted(b.edges, key=repr) for p, b in index.bindings.items()}
    unresolved = {p: len(b.unresolved) for p, b in index.bindings.items()}
    return facts, edges, unresolved


def _fresh(root: Path, rel: str, final: str):
    (root / rel).write_bytes(final.encode("utf-8", "surrogatepass"))
    index = RootIndex(root, use_cache=False)
    index.build()
    return _snapshot(index, rel)


def _point(text: str, offset: int) -> tuple[int, int]:
    row = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return row, len(text[start:offset].encode("utf-8"))


def _input_edit(old: str, start: int, end: int, insert: str):
    new = old[:start] + insert + old[end:]
    sb = len(old[:start].encode("utf-8"))
    edit = (sb, sb + len(old[start:end].encode("utf-8")), sb + len(insert.encode("utf-8")), _point(old, start), _point(old, end), _point(new, start + len(insert)))
    return new, edit


@st.composite
def edit_script(draw):
    lang, rel = draw(st.sampled_from(TARGETS))
    text = (LANG_FIXTURES / lang / rel).read_text("utf-8")
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + draw(st.sampled_from([0, 0, 1, 5, 40])))))
        insert = draw(TEXT)
        steps.append((start, end, insert))
        text = text[:start] + insert + text[end:]
    return lang, rel, steps


@SETTINGS
@given(edit_script())
def test_input_edits_match_a_fresh_index_of_the_final_text(script):
    lang, rel, steps = script
    root = _copy(lang)
    try:
        index = RootIndex(root, use_cache=False)
        index.build()
        text = (root / rel).read_text("utf-8")
        index.open_document(rel, text)
        version = index.version
        for start, end, insert in steps:
            text, edit = _input_edit(text, start, end, insert)
            index.set_document(rel, text.encode("utf-8"), [edit])
        assert index.version == version + len(steps)
        assert _snapshot(index, rel) == _fresh(root, rel, text)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


@SETTINGS
@given(edit_script(), st.lists(st.booleans(), min_size=6, max_size=6))
def test_deferred_edits_settle_to_a_fresh_index_of_the_final_text(script, settle_after):
    # Keystrokes defer their dependents; settle() (sometimes between keystrokes, always at the
    # end) must leave every file's bindings as a fresh index of the final text has them.
    lang, rel, steps = script
    root = _copy(lang)
    try:
        index = RootIndex(root, use_cache=False)
        index.build()
        text = (root / rel).read_text("utf-8")
        index.open_document(rel, text)
        for (start, end, insert), settle in zip(steps, settle_after):
            text, edit = _input_edit(text, start, end, insert)
            index.set_document(rel, text.encode("utf-8"), [edit], defer=True)
            if settle:
                index.settle()
        index.settle()
        assert not index.unsettled
        assert _snapshot(index, rel) == _fresh(root, rel, text)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def _lsp_position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line, len(text[start:offset].encode("utf-16-le")) // 2


@SETTINGS
@given(edit_script(), st.booleans())
def test_lsp_utf16_changes_match_a_fresh_index_of_the_final_text(script, batched):
    lang, rel, steps = script
    root = _copy(lang)
    try:
        index = RootIndex(root, use_cache=False)
        index.build()
        text = (root / rel).read_text("utf-8")
        index.open_document(rel, text)
        changes, expected = [], text
        for start, end, insert in steps:
            (sl, sc), (el, ec) = _lsp_position(expected, start), _lsp_position(expected, end)
            changes.append(Change(insert, (sl, sc, el, ec)))
            expected = expected[:start] + insert + expected[end:]
        batches = [changes] if batched else [[c] for c in changes]
        for batch in batches:
            text, edits = apply_changes(text, batch)
            index.set_document(rel, text.encode("utf-8"), edits)
        assert text == expected
        assert _snapshot(index, rel) == _fresh(root, rel, text)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def _caller_of_a_missing_method(tmp_path: Path) -> RootIndex:
    """pkg/b.py calls A().go(), which pkg/a.py does not define yet."""
    root = tmp_path / "r"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/a.py").write_text("class A:\n    pass\n")
    (root / "pkg/b.py").write_text("from pkg.a import A\n\ndef run():\n    a = A()\n    return a.go()\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    return index


def test_adding_a_method_re_resolves_a_caller_in_another_file(tmp_path):
    index = _caller_of_a_missing_method(tmp_path)
    assert index.bindings["pkg/b.py"].unresolved  # a.go() has no target yet
    old = "class A:\n    pass\n"
    index.open_document("pkg/a.py", old)
    new, edit = _input_edit(old, len(old), len(old), "\n    def go(self):\n        return 1\n")
    index.set_document("pkg/a.py", new.encode(), [edit])
    assert any(e.dst == "pkg/a.py::A.go" for e in index.bindings["pkg/b.py"].edges)


def test_removing_a_definition_drops_edges_into_it(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 1\n")
    (root / "b.py").write_text("from a import f\n\ndef g():\n    return f()\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    assert any(e.dst == "a.py::f" for e in index.bindings["b.py"].edges)
    index.open_document("a.py", "def f():\n    return 1\n")
    index.set_document("a.py", b"def h():\n    return 1\n", None)
    assert not any(e.dst == "a.py::f" for e in index.bindings["b.py"].edges)
    assert index.graph is not None


def _go_package(tmp_path, files: dict[str, str]) -> RootIndex:
    root = tmp_path / "r"
    (root / "srv").mkdir(parents=True)
    (root / "go.mod").write_text("module example.com/m\n")
    for name, text in files.items():
        (root / "srv" / name).write_text(text)
    index = RootIndex(root, use_cache=False)
    index.build()
    return index


def _calls_from(index: RootIndex, path: str) -> list[str]:
    return [e.dst for e in index.bindings[path].edges if e.kind == "calls"]


def test_a_go_type_moving_files_re_resolves_its_methods_declared_elsewhere(tmp_path):
    # handlers.go names no `Server`: only its method's receiver ties it to the type in server.go
    server = "package srv\n\ntype Server struct{}\n\nfunc (s *Server) Start() {}\n"
    index = _go_package(tmp_path, {"server.go": server, "handlers.go": "package srv\n\nfunc (s *Server) Handle() { s.Start() }\n"})
    assert _calls_from(index, "srv/handlers.go") == ["srv/server.go::Server.Start"]
    index.open_document("srv/server.go", server)
    index.set_document("srv/server.go", b"package srv\n\nfunc (s *Server) Start() {}\n", None)  # the type is gone
    assert _calls_from(index, "srv/handlers.go") == []
    index.set_document("srv/server.go", server.encode(), None)
    assert _calls_from(index, "srv/handlers.go") == ["srv/server.go::Server.Start"]


def test_changing_a_fields_declared_type_re_resolves_calls_through_it_in_other_files(tmp_path):
    server = "package srv\n\ntype Server struct {\n\tpart *A\n}\n"
    index = _go_package(tmp_path, {
        "types.go": "package srv\n\ntype A struct{}\n\nfunc (a *A) Go() {}\n\ntype B struct{}\n\nfunc (b *B) Go() {}\n",
        "server.go": server,
        "run.go": "package srv\n\nfunc (s *Server) Run() { s.part.Go() }\n",
    })
    assert _calls_from(index, "srv/run.go") == ["srv/types.go::A.Go"]
    index.open_document("srv/server.go", server)
    index.set_document("srv/server.go", server.replace("*A", "*B").encode(), None)
    assert _calls_from(index, "srv/run.go") == ["srv/types.go::B.Go"]


def test_open_buffer_wins_over_disk_until_closed(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.py").write_text("def on_disk():\n    pass\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    index.open_document("a.py", "def in_buffer():\n    pass\n")
    index.refresh_path("a.py")  # a watched-file event while the buffer is open
    assert [u.name for u in index.files["a.py"].units] == ["in_buffer"]
    index.close_document("a.py")
    assert [u.name for u in index.files["a.py"].units] == ["on_disk"]


def test_deferred_keystrokes_settle_to_the_same_bindings(tmp_path):
    index = _caller_of_a_missing_method(tmp_path)
    old = "class A:\n    pass\n"
    index.open_document("pkg/a.py", old)
    new, edit = _input_edit(old, len(old), len(old), "\n    def go(self):\n        return 1\n")
    index.set_document("pkg/a.py", new.encode(), [edit], defer=True)
    assert index.unsettled  # b.py waits: a keystroke re-resolves only the edited file
    assert not any(e.dst == "pkg/a.py::A.go" for e in index.bindings["pkg/b.py"].edges)
    assert index.settle() and not index.unsettled
    assert any(e.dst == "pkg/a.py::A.go" for e in index.bindings["pkg/b.py"].edges)


def test_typing_that_breaks_and_mends_a_definition_leaves_nothing_to_settle(tmp_path, monkeypatch):
    index = _caller_of_a_missing_method(tmp_path)
    old = "class A:\n    def go(self):\n        return 1\n"
    index.open_document("pkg/a.py", old)
    index.settle()
    assert any(e.dst == "pkg/a.py::A.go" for e in index.bindings["pkg/b.py"].edges)
    # `def go` → `de go` (go vanishes: b.py would lose its target) → `def go` again
    broken, edit = _input_edit(old, old.index("def") + 2, old.index("def") + 3, "")
    index.set_document("pkg/a.py", broken.encode(), [edit], defer=True)
    mended, edit = _input_edit(broken, broken.index("de go") + 2, broken.index("de go") + 2, "f")
    index.set_document("pkg/a.py", mended.encode(), [edit], defer=True)
    assert mended == old and index.unsettled
    resolved: list[str] = []
    real = index._resolve
    monkeypatch.setattr(index, "_resolve", lambda paths: (resolved.extend(paths), real(paths)))
    assert index.settle() and not index.unsettled
    assert resolved == []  # the definitions b.py binds to are where they were
    assert any(e.dst == "pkg/a.py::A.go" for e in index.bindings["pkg/b.py"].edges)


def test_a_changed_gitignore_moves_files_out_of_and_back_into_the_index(tmp_path):
    root = tmp_path / "r"
    (root / "gen").mkdir(parents=True)
    (root / "app.py").write_text("from gen.models import Model\n\ndef run():\n    return Model()\n")
    (root / "gen/__init__.py").write_text("")
    (root / "gen/models.py").write_text("class Model:\n    pass\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    assert any(e.dst == "gen/models.py::Model" for e in index.bindings["app.py"].edges)

    (root / ".gitignore").write_text("gen/\n")
    index.refresh_path(".gitignore")  # what a watched-file event for it does
    assert sorted(index.files) == ["app.py"]
    assert index.skipped["gen/"] == ".gitignore" and not index.unsettled
    assert not any(e.dst.startswith("gen/") for e in index.bindings["app.py"].edges)  # dependents settled

    (root / ".gitignore").unlink()
    index.refresh_path(".gitignore")
    assert sorted(index.files) == ["app.py", "gen/__init__.py", "gen/models.py"]
    assert "gen/" not in index.skipped
    assert any(e.dst == "gen/models.py::Model" for e in index.bindings["app.py"].edges)


def test_removing_one_of_two_files_that_claim_a_module_hands_the_name_to_the_other(tmp_path):
    # `src/pkg/mod.py` and `pkg/mod.py` both import as `pkg.mod`; the first path in order owns the
    # name, and when it goes the other takes over, as a fresh index would have it.
    root = tmp_path / "r"
    for d in ("pkg", "src/pkg"):
        (root / d).mkdir(parents=True)
        (root / d / "__init__.py").write_text("")
        (root / d / "mod.py").write_text(f"def f():\n    return '{d}'\n")
    (root / "app.py").write_text("from pkg.mod import f\n\ndef run():\n    return f()\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    assert any(e.dst == "pkg/mod.py::f" for e in index.bindings["app.py"].edges)
    (root / "pkg/mod.py").unlink()
    index.refresh_path("pkg/mod.py")
    assert any(e.dst == "src/pkg/mod.py::f" for e in index.bindings["app.py"].edges)
    fresh = RootIndex(root, use_cache=False)
    fresh.build()
    assert {p: sorted(b.edges) for p, b in index.bindings.items()} == {p: sorted(b.edges) for p, b in fresh.bindings.items()}


def test_events_for_files_out_of_scope_change_nothing_and_deleted_files_leave_no_trace(tmp_path):
    root = tmp_path / "r"
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "index.js").write_text("function dep() {}\n")
    (root / "app.py").write_text("def run():\n    return 1\n")
    (root / "gone.py").write_text("def gone():\n    return 1\n")
    index = RootIndex(root, use_cache=False)
    index.build()
    version, skipped = index.version, dict(index.skipped)
    for i in range(50):  # an `npm install` under an excluded directory
        index.refresh_path(f"node_modules/dep/file{i}.js", defer=True)
    index.refresh_path("node_modules/dep/index.js")
    assert index.version == version and index.skipped == skipped and not index.unsettled

    (root / "gone.py").unlink()
    index.refresh_path("gone.py")
    assert "gone.py" not in index.files and "gone.py" not in index.skipped


def test_changing_a_declared_return_type_re_resolves_a_chain_through_it_in_other_files(tmp_path):
    types = "package srv\n\ntype Alpha struct{}\n\nfunc (a *Alpha) Go() {}\n\ntype Beta struct{}\n\nfunc (b *Beta) Go() {}\n"
    make = "package srv\n\nfunc Make() *Alpha { return nil }\n"
    index = _go_package(tmp_path, {"types.go": types, "make.go": make, "run.go": "package srv\n\nfunc Run() { Make().Go() }\n"})
    assert _calls_from(index, "srv/run.go") == ["srv/make.go::Make", "srv/types.go::Alpha.Go"]
    index.open_document("srv/make.go", make)
    index.set_document("srv/make.go", make.replace("*Alpha", "*Beta").encode(), None)
    assert _calls_from(index, "srv/run.go") == ["srv/make.go::Make", "srv/types.go::Beta.Go"]


def test_changing_a_listed_result_type_re_resolves_a_multi_value_assignment_in_other_files(tmp_path):
    types = "package srv\n\ntype Alpha struct{}\n\nfunc (a *Alpha) Go() {}\n\ntype Beta struct{}\n\nfunc (b *Beta) Go() {}\n"
    make = "package srv\n\nfunc Make() (*Alpha, error) { return nil, nil }\n"
    run = "package srv\n\nfunc Run() {\n\tv, err := Make()\n\tv.Go()\n}\n"
    index = _go_package(tmp_path, {"types.go": types, "make.go": make, "run.go": run})
    assert _calls_from(index, "srv/run.go") == ["srv/make.go::Make", "srv/types.go::Alpha.Go"]
    index.open_document("srv/make.go", make)
    index.set_document("srv/make.go", make.replace("*Alpha", "*Beta").encode(), None)
    assert _calls_from(index, "srv/run.go") == ["srv/make.go::Make", "srv/types.go::Beta.Go"]
