"""Property tests for the distill invariants over generated repositories (hypothesis)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.distill.manifests import declared_entries
from codegraph.distill.roles import classify
from codegraph.distill.selection import LANE_CAPS, MAX_BODY_BYTES, MAX_UNITS
from codegraph.distill.topology import build_model
from codegraph.index.index import RootIndex
from codegraph.requests import RequestFailed, encode_body, encode_frame, frame_bytes_for, run_distill

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
NASTY = st.text(alphabet=st.sampled_from(list('aé漢字"\\\'\n\t{}𝄞') + ["\u2028"]), min_size=0, max_size=40)


def make_repo(root: Path, callers: int, repeats: int, text: str, deep: bool) -> str:
    """A small app: entry guard → factory → orchestrator → store, plus a helper called from everywhere."""
    pkg = root / ("d" * 60 + "/" + "é" * 30 if deep else "") / "app"
    pkg.mkdir(parents=True)
    prefix = pkg.relative_to(root).as_posix()
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text(f"def helper(x):\n    return {text!r} + str(x)\n")
    calls = "\n".join(f"    helper({i})" for i in range(repeats))
    users = "\n\n".join(f"def user{i}():\n{calls}\n    return {text!r}" for i in range(callers))
    (pkg / "users.py").write_text(f"from .util import helper\n\n\n{users}\n")
    (pkg / "store.py").write_text(
        "import json\n\n\nclass Store:\n    def __init__(self, path):\n        self.path = path\n        self.items = []\n\n"
        f"    def save(self, item):\n        # {text!r}\n        with open(self.path, 'w') as fh:\n            json.dump(item, fh)\n"
    )
    (pkg / "main.py").write_text(
        "from .store import Store\nfrom .util import helper\n\n\nclass Service:\n    def __init__(self, store, log):\n"
        "        self.store = store\n        self.log = log\n\n    def handle(self, item):\n        helper(item)\n"
        "        try:\n            self.store.save(item)\n        finally:\n            self.log.flush()\n\n\n"
        "def build(path):\n    store = Store(path)\n    return Service(store, open(path))\n\n\n"
        "def main():\n    service = build('x')\n    service.handle(helper(1))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    return prefix


def index_of(root: Path) -> RootIndex:
    index = RootIndex(root, use_cache=False)
    index.build()
    return index


def check_pack(pack: dict) -> None:
    """Caps, lanes and closed references: every index points into its table."""
    sel = pack["selection"]
    assert sel["units"] <= MAX_UNITS and sel["body_bytes"] <= MAX_BODY_BYTES
    lanes = sel["lanes"]
    assert lanes["skeleton"] <= LANE_CAPS["skeleton"] and lanes["boundary"] <= LANE_CAPS["boundary"]
    # the context lane takes the boundary places no boundary took, last: the two together within their caps
    assert lanes["context"] + lanes["boundary"] <= LANE_CAPS["context"] + LANE_CAPS["boundary"]
    n, nf = len(pack["sources"]), len(pack["files"])
    for s in pack["sources"]:
        assert 0 <= s["file"] < nf
        assert "alias_of" not in s or 0 <= s["alias_of"] < n
        if "body" in s:
            assert len(s["body"].encode("utf-8")) == s["bytes"]
    for table in ("facts", "obligations", "gaps", "components"):
        for row in pack[table]:
            assert all(0 <= i < n for i in row["sources"]), (table, row)
    ids = {c["id"] for c in pack["components"]}
    assert all(d in ids for c in pack["components"] for d in c["depends_on"])


@SETTINGS
@given(callers=st.integers(1, 40), repeats=st.integers(1, 8), text=NASTY, deep=st.booleans(),
       budget=st.integers(800, 30_000), fmt=st.sampled_from(["json", "markdown"]),
       request_id=st.one_of(st.integers(0, 2**53), st.text(max_size=60)))
def test_frame_never_exceeds_cap_and_pack_is_closed(callers, repeats, text, deep, budget, fmt, request_id) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        prefix = make_repo(root, callers, repeats, text, deep)
        index = index_of(root)
        cap = min(22_016, budget)
        required = {"id": "store", "witnessSets": [[f"{prefix}/store.py::Store.save"]]}
        params = {"format": fmt, "budgetBytes": budget, "obligations": [required]}
        try:
            result = run_distill(index, params, frame_bytes_for(request_id))
        except RequestFailed as exc:
            assert "knowledge pack not delivered" in str(exc)
            return
        wire = encode_frame(encode_body({"id": request_id, "jsonrpc": "2.0", "result": result}))
        assert len(wire) <= cap
        if fmt == "json":
            pack = result["pack"]
            check_pack(pack)
            ob = next(o for o in pack["obligations"] if o["id"] == "store")  # a required obligation is never dropped
            assert ob["required"] and (ob["status"] == "satisfied" or pack["status"] != "complete")


@SETTINGS
@given(text=NASTY, deep=st.booleans())
def test_exactly_at_the_limit(text, deep) -> None:
    """Cap = the frame's own size delivers the same bytes; one byte less delivers less, never more."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_repo(root, 3, 2, text, deep)
        index = index_of(root)
        measure = frame_bytes_for(7)
        full = run_distill(index, {"budgetBytes": 200_000}, measure)
        size = measure(full)
        assert size <= 22_016
        exact = run_distill(index, {"budgetBytes": size}, measure)
        assert measure(exact) <= size
        tight = run_distill(index, {"budgetBytes": size - 1}, measure)
        assert measure(tight) <= size - 1


@SETTINGS
@given(low=st.integers(1, 10), extra=st.integers(1, 40))
def test_more_callers_never_change_a_helpers_role_signals(low, extra) -> None:
    seen = []
    for callers in (low, low + extra):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            prefix = make_repo(root, callers, 3, "x", False)
            index = index_of(root)
            model = build_model(index)
            roles = classify(index, model, declared_entries(index))
            helper = f"{prefix}/util.py::helper"
            seen.append(roles.get(helper, {}))
            pack = run_distill(index, {}, frame_bytes_for(1))["pack"]
            entries = [s for s in pack["sources"] if "TRIGGER_ENTRY" in s["roles"]]
            assert entries  # low-degree entries stay represented
    assert seen[0] == seen[1]


@SETTINGS
@given(budget=st.integers(4_000, 22_016), fmt=st.sampled_from(["json", "markdown"]))
def test_same_request_same_bytes(budget, fmt) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_repo(root, 5, 2, 'q"\\é', True)
        index = index_of(root)
        params = {"budgetBytes": budget, "format": fmt}
        try:
            a = encode_body(run_distill(index, params, frame_bytes_for(1)))
        except RequestFailed:
            return
        assert a == encode_body(run_distill(index, params, frame_bytes_for(1)))
