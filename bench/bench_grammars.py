"""Grammar check: language-pack grammar vs the newest single-language wheel from PyPI.

    pip install tree-sitter-typescript tree-sitter-python     # the wheels to compare against
    python bench/bench_grammars.py                             # django, effect3, effect4

For every in-scope file of a corpus (same file set as `codegraph index`), parses with
  * the grammar codegraph uses (`tree_sitter_language_pack.get_language(spec.grammar)`), and
  * the single-language wheel (`tree_sitter_typescript.language_typescript()` / `.language_tsx()`,
    `tree_sitter_python.language()`), when installed,
and counts files whose tree has any ERROR or MISSING node. Also checks that codegraph's own
queries for that language compile against the wheel's grammar (a wheel is only a drop-in if they
do), and lists the most common error contexts for the pack's grammar.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata as md
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CORPORA, in_scope_files, require_corpus, table  # noqa: E402

# language → (wheel distribution, module, attribute returning the language capsule)
WHEELS = {
    "python": ("tree-sitter-python", "tree_sitter_python", "language"),
    "typescript": ("tree-sitter-typescript", "tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree-sitter-typescript", "tree_sitter_typescript", "language_tsx"),
    "javascript": ("tree-sitter-javascript", "tree_sitter_javascript", "language"),
}


def pack_language(language: str):
    from tree_sitter_language_pack import get_language

    from codegraph.languages import BY_NAME

    return get_language(BY_NAME[language].grammar)


def wheel_language(language: str):
    from tree_sitter import Language

    if language not in WHEELS:
        return None, ""
    dist, module, attr = WHEELS[language]
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None, f"{dist} not installed"
    return Language(getattr(mod, attr)()), f"{dist} {md.version(dist)}"


def error_nodes(tree) -> list:
    """ERROR and MISSING nodes, iteratively (no recursion)."""
    if not tree.root_node.has_error:
        return []
    out = []
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            out.append(n)
        stack.extend(c for c in n.children if c.has_error or c.is_missing)
    return out


def queries_compile(lang, language: str) -> str:
    from tree_sitter import Query

    from codegraph.languages import BY_NAME

    spec = BY_NAME[language]
    for name in ("definitions", "calls", "imports"):
        try:
            Query(lang, getattr(spec, name))
        except Exception as exc:  # QueryError and friends
            return f"{name}: {str(exc).splitlines()[0][:80]}"
    return "yes"


def check_corpus(key: str, show_examples: int) -> list[list[str]]:
    from tree_sitter import Parser

    from codegraph.index.extract import decode_source

    root = require_corpus(key)
    files = in_scope_files(root)
    by_lang: dict[str, list[tuple[str, bytes]]] = {}
    for rel, language, raw in files:
        try:
            by_lang.setdefault(language, []).append((rel, decode_source(raw, language)))
        except Exception:
            continue
    rows = []
    for language, items in sorted(by_lang.items()):
        variants = [("language-pack " + md.version("tree-sitter-language-pack"), pack_language(language))]
        wlang, wname = wheel_language(language)
        if wlang is not None:
            variants.append((wname, wlang))
        elif wname:
            rows.append([key, language, str(len(items)), wname, "—", "—", "—"])
        first_bad: dict[str, list[str]] = {}
        for vname, lang in variants:
            parser = Parser(lang)
            bad = 0
            contexts: Counter = Counter()
            t0 = time.perf_counter()
            for rel, src in items:
                errs = error_nodes(parser.parse(src))
                if errs:
                    bad += 1
                    first_bad.setdefault(vname, []).append(rel)
                    e = errs[-1]
                    line = src.split(b"\n")[e.start_point.row].decode("utf-8", "replace").strip()
                    contexts[line[:70]] += 1
            dt = time.perf_counter() - t0
            compat = "yes (pack)" if vname.startswith("language-pack") else queries_compile(lang, language)
            rows.append([key, language, str(len(items)), vname, f"{bad} ({100 * bad / len(items):.1f}%)", f"{dt:.2f} s", compat])
            if show_examples and contexts:
                print(f"  {key}/{language} [{vname}] most common error lines:")
                for text, n in contexts.most_common(show_examples):
                    print(f"     {n:4d}  {text}")
        if len(first_bad) == 2 or (len(variants) == 2 and first_bad):
            a, b = (set(first_bad.get(v[0], [])) for v in variants)
            print(f"  {key}/{language}: errors only with the pack: {len(a - b)}, only with the wheel: {len(b - a)}, both: {len(a & b)}"
                  + (f"; e.g. wheel-only {sorted(b - a)[:3]}" if b - a else ""))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", default=list(CORPORA))
    ap.add_argument("--examples", type=int, default=5, help="most common error lines to show per grammar")
    args = ap.parse_args()
    rows = []
    for key in args.corpora:
        rows += check_corpus(key, args.examples)
    print()
    print(table(rows, ["corpus", "language", "files", "grammar", "files with ERROR/MISSING", "parse time", "codegraph queries compile"]))


if __name__ == "__main__":
    main()
