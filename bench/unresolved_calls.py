"""Where the index leaves calls unproven that a workspace definition could answer: per corpus, the
call sites outside tests whose name some unit of the workspace defines, grouped by the shape of
their receiver, with a few samples of each — the way to find a general resolution gap (a language
rule the resolver does not know yet) before reading any answer.

    python bench/unresolved_calls.py CORPUS_DIR [CORPUS_DIR ...] [--samples 4] [--seed 1]

Shapes: `bare` (`f()`), `self` (`this.f()`), `self.attr` (`self.conn.f()`), `ident` (`x.f()`),
`dotted` (`a.b.f()`), `call()` (`a().f()`), `other`. A gap counts when it shows on three corpora.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from codegraph.index.index import RootIndex  # noqa: E402
from codegraph.workspace.scope import is_test_path  # noqa: E402

_SELF = {"self", "this", "cls", "Self"}


def shape(receiver: str) -> str:
    if not receiver:
        return "bare"
    if receiver in _SELF:
        return "self"
    if re.fullmatch(r"(self|this)\.\w+", receiver):
        return "self.attr"
    if re.fullmatch(r"\w+", receiver):
        return "ident"
    if re.fullmatch(r"\w+(\.\w+)+", receiver):
        return "dotted"
    if receiver.endswith(")"):
        return "call()"
    return "other"


def unresolved(root: str) -> tuple[int, int, dict[str, list[str]]]:
    """(call sites outside tests, proven among them, shape → `path:line receiver.name` of the
    unproven ones whose name a workspace unit defines)."""
    index = RootIndex(root, use_cache=False)
    index.build()
    defined = {u.name for u in index.resolver.units.values() if u.is_callable or u.is_type}
    total = proven = 0
    by_shape: dict[str, list[str]] = defaultdict(list)
    for path, bindings in sorted(index.bindings.items()):
        facts = index.files.get(path)
        if facts is None or is_test_path(path):
            continue
        calls = facts.calls
        total += len(calls)
        proven += len(calls) - len(bindings.unresolved)
        for i in bindings.unresolved:
            call = calls[i]
            if call.name in defined:
                written = " ".join(call.receiver.split())[:60]
                by_shape[shape(call.receiver)].append(f"{path}:{call.line} {written}.{call.name}")
    return total, proven, by_shape


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--samples", type=int, default=4, help="samples per shape (the four commonest shapes)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for root in args.corpora:
        total, proven, by_shape = unresolved(root)
        counts = Counter({s: len(v) for s, v in by_shape.items()})
        print(f"{Path(root).name}: {total} call sites, {proven} proven ({proven / max(total, 1):.2f}); "
              f"unproven with a workspace name {sum(counts.values())}: {dict(counts.most_common())}", flush=True)
        rng = random.Random(args.seed)
        for s, _ in counts.most_common(4):
            for sample in rng.sample(by_shape[s], min(args.samples, len(by_shape[s]))):
                print(f"    {s:9s} {sample}")


if __name__ == "__main__":
    main()
