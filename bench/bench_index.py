"""Index benchmark: floor vs cold vs warm vs RSS vs single-file edit latency, per corpus.

    python bench/corpora.py && python bench/bench_index.py            # django + effect4
    python bench/bench_index.py django effect3 --warm-runs 5 --edits 30

Everything that must not share memory or caches with the others runs in its own child process
(`python bench_index.py --child KIND ...`, which prints one JSON line): the cold build (so its
peak RSS is clean), each warm start, the edit-latency run. The floor runs in a child as well, so
the parent stays small and never imports tree-sitter grammars itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    CORPORA,
    DEFAULT_CORPORA,
    PYTHON,
    CYCLE_GUARD_ENV,
    Timer,
    apply_workarounds,
    fmt_s,
    in_scope_files,
    machine_note,
    require_corpus,
    summarize,
    table,
    verdict,
)

TARGETS = {"cold_over_floor": 1.5, "warm_s": 1.5, "edit_median_ms": 20.0, "rss_mb": 600.0}

# The floor's "one definition+call query": the minimum any code-graph tool must ask a tree for.
FLOOR_QUERIES = {
    "python": """
        (function_definition name: (identifier) @name) @def
        (class_definition name: (identifier) @name) @def
        (call function: _ @callee) @call
    """,
    "typescript": """
        (function_declaration name: (identifier) @name) @def
        (class_declaration name: (type_identifier) @name) @def
        (method_definition name: _ @name) @def
        (call_expression function: _ @callee) @call
        (new_expression constructor: _ @callee) @call
    """,
    "javascript": """
        (function_declaration name: (identifier) @name) @def
        (class_declaration name: (identifier) @name) @def
        (method_definition name: _ @name) @def
        (call_expression function: _ @callee) @call
        (new_expression constructor: _ @callee) @call
    """,
}
FLOOR_QUERIES["tsx"] = FLOOR_QUERIES["typescript"]


def _floor_query_for(language: str) -> str:
    if language in FLOOR_QUERIES:
        return FLOOR_QUERIES[language]
    from codegraph.languages import BY_NAME

    spec = BY_NAME[language]
    return spec.definitions + "\n" + spec.calls


# ---- child processes -------------------------------------------------------------------------
def child_floor(root: Path) -> dict:
    """Single core, same grammars (tree_sitter_language_pack.get_parser), same file set."""
    from tree_sitter import Query, QueryCursor
    from tree_sitter_language_pack import get_language, get_parser

    from codegraph.index.extract import decode_source
    from codegraph.languages import BY_NAME

    with Timer() as t_scan:
        files = in_scope_files(root)
    sources = []
    for rel, language, raw in files:
        try:
            sources.append((language, decode_source(raw, language)))
        except Exception:
            pass
    grammars = {lang: BY_NAME[lang].grammar for lang in {l for l, _ in sources}}
    parsers = {lang: get_parser(g) for lang, g in grammars.items()}
    queries = {lang: Query(get_language(g), _floor_query_for(lang)) for lang, g in grammars.items()}
    cg_queries = {}
    for lang, g in grammars.items():
        spec = BY_NAME[lang]
        glang = get_language(g)
        cg_queries[lang] = [Query(glang, q) for q in (spec.definitions, spec.calls, spec.imports)]

    cpu: dict[str, float] = {}

    def run(mode: str) -> float:
        c0 = time.process_time()
        t0 = time.perf_counter()
        n = 0
        for language, src in sources:
            tree = parsers[language].parse(src)
            if mode == "query":
                n += len(QueryCursor(queries[language]).matches(tree.root_node))
            elif mode == "cgquery":
                for q in cg_queries[language]:
                    n += len(QueryCursor(q).matches(tree.root_node))
        wall = time.perf_counter() - t0
        cpu[mode] = min(cpu.get(mode, float("inf")), time.process_time() - c0)
        return wall

    repeat = int(os.environ.get("CGBENCH_FLOOR_REPEAT", "2"))
    parse_s = min(run("parse") for _ in range(repeat))  # best of N: the machine may be shared
    query_s = min(run("query") for _ in range(repeat))
    cg_s = min(run("cgquery") for _ in range(repeat))
    by_lang: dict[str, int] = {}
    for lang, _ in sources:
        by_lang[lang] = by_lang.get(lang, 0) + 1
    return {
        "files": len(sources),
        "bytes": sum(len(s) for _, s in sources),
        "lines": sum(s.count(b"\n") for _, s in sources),
        "languages": by_lang,
        "scan_s": t_scan.s,
        "parse_s": parse_s,
        "parse_query_s": query_s,
        "parse_cgqueries_s": cg_s,
        "cpu": cpu,
    }


def child_cold(root: Path, cache: Path, workers: int | None, threaded: bool = False) -> dict:
    t0 = time.perf_counter()
    from codegraph.index.index import RootIndex

    if threaded:  # as inside the LSP server: other threads run, so no fork (spawned workers, serial resolution)
        import threading

        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()

    t_import = time.perf_counter() - t0
    idx = RootIndex(root, cache_dir=cache)
    stats = idx.build(workers=workers)
    t_total = time.perf_counter() - t0
    errors: dict[str, list[int]] = {}
    for f in idx.files.values():
        e = errors.setdefault(f.language, [0, 0])
        e[0] += 1
        e[1] += f.parse_errors > 0
    status = idx.status()
    idx.close()
    return {
        "import_s": t_import,
        "build_s": stats.elapsed_ms / 1000,
        "total_s": t_total,
        "files": stats.files,
        "parsed": stats.parsed,
        "from_cache": stats.from_cache,
        "skipped": stats.skipped,
        "units": status["symbols"],
        "resolved": status["resolvedEdges"],
        "unresolved": status["unresolvedCalls"],
        "parse_errors": errors,
        "self_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "workers_maxrss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def _point(buf: bytes, offset: int) -> tuple[int, int]:
    """tree-sitter Point (row, byte column) of a byte offset."""
    row = buf.count(b"\n", 0, offset)
    return row, offset - (buf.rfind(b"\n", 0, offset) + 1)


_BODY_LINE = re.compile(rb"^( {8,})(?!#)\S", re.M)  # a line indented like a function/method body


def _code_line_starts(source: bytes) -> list[int]:
    """Byte offsets of body lines that start a statement (not inside a string or bracket)."""
    import io
    import tokenize

    rows = set()
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.INDENT or (tok.type == tokenize.NAME and tok.line[: tok.start[1]].strip() == ""):
                rows.add(tok.start[0] - 1)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    starts, offset = [], 0
    for row, line in enumerate(source.split(b"\n")):
        if row in rows and _BODY_LINE.match(line):
            starts.append(offset)
        offset += len(line) + 1
    return starts


def _plain_string_offsets(source: bytes) -> list[int]:
    """Byte offsets just inside the opening quote of single-line, non-prefixed string literals."""
    import io
    import tokenize

    line_offsets = [0]
    for line in source.split(b"\n"):
        line_offsets.append(line_offsets[-1] + len(line) + 1)
    out = []
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type == tokenize.STRING and tok.string[:1] in "'\"" and tok.string[:3] not in ('"""', "'''") and tok.start[0] == tok.end[0]:
                col_bytes = len(tok.line[: tok.start[1]].encode("utf-8"))
                out.append(line_offsets[tok.start[0] - 1] + col_bytes + 1)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out


def plan_edit(source: bytes, k: int, rng: random.Random, pending: list[tuple[int, int]]) -> tuple[str, int, int, bytes]:
    """One small, syntax-preserving edit: (kind, start, old_end, inserted bytes).

    Cycles through what typing in a body looks like: add a statement line, type a character
    into a string literal, delete a line added earlier (undo). Python sources only.
    """
    kind = ("insert_line", "type_in_string", "delete_line")[k % 3]
    if kind == "delete_line" and pending:
        start, length = pending.pop()
        return kind, start, start + length, b""
    if kind == "type_in_string":
        offsets = _plain_string_offsets(source)
        if offsets:
            at = rng.choice(offsets)
            return kind, at, at, b"x"
    at = rng.choice(_code_line_starts(source))
    indent = _BODY_LINE.match(source, at).group(1)
    return "insert_line", at, at, indent + b"self._bench_probe_%d(value=%d)\n" % (k, k)


def child_edit(root: Path, cache: Path, rel: str, n_edits: int, seed: int) -> dict:
    """Opens `rel` as a document and applies `n_edits` small typed edits through set_document."""
    from codegraph.index.extract import extract, parse, sha256
    from codegraph.index.index import RootIndex

    idx = RootIndex(root, cache_dir=cache)
    idx.build()
    text = (root / rel).read_text("utf-8")
    with Timer() as t_open:
        idx.open_document(rel, text)
    source = idx.open_docs[rel].source
    rng = random.Random(seed)
    pending: list[tuple[int, int]] = []  # (offset, length) of inserted lines not yet deleted
    totals, commits, kinds = [], [], []
    for k in range(n_edits):
        kind, start, old_end, insert = plan_edit(source, k, rng, pending)
        new_end = start + len(insert)
        new_source = source[:start] + insert + source[old_end:]
        delta = len(insert) - (old_end - start)
        # keep the pending inserted lines' offsets in step with this edit
        pending[:] = [(o + delta if o >= old_end else o, n + (delta if o < start < o + n else 0)) for o, n in pending]
        if kind == "insert_line":
            pending.append((start, len(insert)))
        edit = (start, old_end, new_end, _point(source, start), _point(source, old_end), _point(new_source, new_end))
        t0 = time.perf_counter()
        idx.set_document(rel, new_source, [edit], defer=True)  # as the LSP does for keystrokes
        totals.append((time.perf_counter() - t0) * 1000)
        commits.append(idx.last_update_ms)
        kinds.append(kind)
        source = new_source
    # Dependents deferred by the edits are re-resolved once typing pauses (LSP: queue drained).
    t0 = time.perf_counter()
    idx.settle()
    settle_ms = (time.perf_counter() - t0) * 1000
    language = idx.open_docs[rel].language
    # Correctness check: incremental facts == a fresh parse of the final text.
    fresh = extract(rel, language, source, parse(language, source), sha256(source), len(source))
    same = fresh == idx.files[rel]
    # For scale: a full (non-incremental) parse and one extract of the same file.
    t0 = time.perf_counter()
    tree_full = parse(language, source)
    t_full_parse = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    extract(rel, language, source, tree_full, sha256(source), len(source))
    t_extract = (time.perf_counter() - t0) * 1000
    idx.close()
    by_kind = {kd: statistics.median([t for t, kk in zip(totals, kinds) if kk == kd]) for kd in sorted(set(kinds))}
    return {
        "file": rel,
        "lines": source.count(b"\n"),
        "open_ms": t_open.ms,
        "edit_ms": totals,
        "commit_ms": commits,
        "kinds": kinds,
        "median_by_kind": by_kind,
        "full_parse_ms": t_full_parse,
        "extract_ms": t_extract,
        "incremental_equals_fresh": same,
        "settle_ms": settle_ms,
    }


def lsp_ready_s(root: Path, cache: Path) -> float:
    """Seconds from starting the LSP server process to the first `codegraph/status` answer that
    says `ready` (status is polled every 10 ms after `initialized`; it never waits for the index)."""
    def frame(obj: dict) -> bytes:
        body = json.dumps(obj).encode()
        return f"Content-Length: {len(body)}\r\n\r\n".encode() + body

    def read_until(stream, want_id: int) -> dict:
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                chunk = stream.read(1)
                if not chunk:
                    raise ChildFailed("LSP server closed stdout")
                header += chunk
            length = int(next(h for h in header.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
            message = json.loads(stream.read(length))
            if message.get("id") == want_id and "method" not in message:
                return message

    t0 = time.perf_counter()
    proc = subprocess.Popen([PYTHON, "-m", "codegraph.lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "rootUri": root.as_uri(), "initializationOptions": {"cacheDir": str(cache)}}}))
        proc.stdin.flush()
        read_until(proc.stdout, 1)
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        for request_id in range(2, 100_000):
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": request_id, "method": "codegraph/status", "params": {}}))
            proc.stdin.flush()
            status = read_until(proc.stdout, request_id)
            if "error" in status:
                raise ChildFailed(f"status failed: {status}")
            if status["result"]["ready"]:
                if not status["result"]["roots"][0]["files"]:
                    raise ChildFailed("ready with no files")
                return time.perf_counter() - t0
            time.sleep(0.01)
        raise ChildFailed("never ready")
    finally:
        proc.kill()
        proc.wait()


# ---- parent side --------------------------------------------------------------------------------
class ChildFailed(Exception):
    pass


def run_with_rusage(cmd: list[str], guard: bool = False) -> tuple[str, float, float, float]:
    """Runs cmd; returns (stdout, wall s, peak RSS MB of it and its waited-for descendants, CPU s)."""
    env = dict(os.environ)
    if guard:
        env[CYCLE_GUARD_ENV] = "1"
    else:
        env.pop(CYCLE_GUARD_ENV, None)
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        # Files, not pipes: a child that writes a lot to one stream must never block on it.
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=env)
        # Reap with wait4 so we get this child's own rusage (not the cumulative RUSAGE_CHILDREN
        # of every child this benchmark has run so far).
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    if proc.returncode != 0:
        lines = err.decode(errors="replace").strip().splitlines()
        raise ChildFailed(lines[-1] if lines else f"exit code {proc.returncode}")
    return out.decode(), wall, ru.ru_maxrss / 1024, ru.ru_utime + ru.ru_stime


def _child_cmd(kind: str, *args: str) -> list[str]:
    return [PYTHON, __file__, "--child", kind, *args]


WARM_CODE = (
    "import sys, time, json, os; t0 = time.perf_counter()\n"
    "from pathlib import Path\n"
    "if os.environ.get(%r) == '1':\n"
    "    sys.path.insert(0, %r); import common; common.apply_workarounds()\n"
    "from codegraph.index.index import RootIndex\n"
    "t1 = time.perf_counter()\n"
    "idx = RootIndex(Path(sys.argv[1]), cache_dir=Path(sys.argv[2])); s = idx.build()\n"
    "print(json.dumps({'import_s': t1 - t0, 'build_s': s.elapsed_ms / 1000, 'parsed': s.parsed, 'from_cache': s.from_cache}))\n"
) % (CYCLE_GUARD_ENV, str(Path(__file__).resolve().parent))

CLI_CODE = (
    "import sys, os\n"
    "if os.environ.get(%r) == '1':\n"
    "    sys.path.insert(0, %r); import common; common.apply_workarounds()\n"
    "from codegraph.cli import main; sys.exit(main(sys.argv[1:]))\n"
) % (CYCLE_GUARD_ENV, str(Path(__file__).resolve().parent))


def bench_corpus(key: str, args: argparse.Namespace) -> dict:
    c = CORPORA[key]
    root = require_corpus(key)
    print(f"\n== {key}: {c.note}", flush=True)
    res: dict = {"key": key, "root": str(root), "errors": [], "guard": False, "load_before": os.getloadavg()[0]}

    out, wall, _, cpu = run_with_rusage(_child_cmd("floor", str(root)))
    res["floor"] = json.loads(out.strip().splitlines()[-1])
    f = res["floor"]
    print(f"   floor: {f['files']} files, {f['lines']:,} lines; parse {fmt_s(f['parse_s'])}, parse+query {fmt_s(f['parse_query_s'])}", flush=True)

    tmp = Path(tempfile.mkdtemp(prefix=f"cgbench-{key}-"))
    try:
        cache = tmp / "cache"
        workers = [] if args.workers is None else ["--workers", str(args.workers)]
        colds = []
        guard = args.cycle_guard == "always"
        i = 0
        while i < args.cold_runs:
            shutil.rmtree(cache, ignore_errors=True)
            try:
                out, wall, rss, cpu = run_with_rusage(_child_cmd("cold", str(root), str(cache), *workers), guard)
            except ChildFailed as exc:
                res["errors"].append(f"cold build failed{' (with cycle guard)' if guard else ''}: {exc}")
                print(f"   cold: FAILED: {exc}", flush=True)
                if guard or args.cycle_guard == "never":
                    return res
                guard = True
                print("   retrying with the resolver cycle guard (bench/common.py apply_workarounds)", flush=True)
                continue
            d = json.loads(out.strip().splitlines()[-1])
            d["wall_s"], d["wait4_maxrss_mb"], d["cpu_s"] = wall, rss, cpu
            colds.append(d)
            print(f"   cold #{i + 1}: build {fmt_s(d['build_s'])} (process {fmt_s(wall)}, CPU {fmt_s(cpu)}), peak RSS {rss:.0f} MB", flush=True)
            i += 1
        res["guard"] = guard
        res["cold"] = sorted(colds, key=lambda d: d["build_s"])[len(colds) // 2]  # the median run
        res["cold_runs"] = [d["build_s"] for d in colds]
        res["cold_rss_mb"] = max(d["wait4_maxrss_mb"] for d in colds)
        if args.threaded_cold:  # its own cache: the warm runs below start from the one the cold runs left
            out, _, _, _ = run_with_rusage(_child_cmd("cold", str(root), str(tmp / "cache-threaded"), "--threaded", *workers), guard)
            res["cold_threaded"] = json.loads(out.strip().splitlines()[-1])
            print(f"   cold, threaded (as in the LSP server): build {fmt_s(res['cold_threaded']['build_s'])}", flush=True)

        # warm: the cache now holds every file; a new process must come up from it
        warms = []
        for _ in range(args.warm_runs):
            out, wall, rss, _ = run_with_rusage([PYTHON, "-c", WARM_CODE, str(root), str(cache)], guard)
            d = json.loads(out.strip().splitlines()[-1])
            d["wall_s"], d["rss_mb"] = wall, rss
            warms.append(d)
        res["warm"] = {
            "wall_s": statistics.median(d["wall_s"] for d in warms),
            "build_s": statistics.median(d["build_s"] for d in warms),
            "import_s": statistics.median(d["import_s"] for d in warms),
            "parsed": warms[-1]["parsed"],
            "from_cache": warms[-1]["from_cache"],
            "rss_mb": max(d["rss_mb"] for d in warms),
            "runs": [d["wall_s"] for d in warms],
        }
        # the same through the CLI a user runs (`codegraph index ROOT --json`)
        cli_walls = []
        for _ in range(args.warm_runs):
            _, wall, _, _ = run_with_rusage([PYTHON, "-c", CLI_CODE, "index", str(root), "--cache-dir", str(cache), "--json"], guard)
            cli_walls.append(wall)
        res["warm"]["cli_wall_s"] = statistics.median(cli_walls)
        res["warm"]["lsp_ready_s"] = statistics.median(lsp_ready_s(root, cache) for _ in range(args.warm_runs))
        w = res["warm"]
        print(f"   warm: process {fmt_s(w['wall_s'])} (import {fmt_s(w['import_s'])}, build {fmt_s(w['build_s'])}, "
              f"re-parsed {w['parsed']}), CLI {fmt_s(w['cli_wall_s'])}", flush=True)

        if c.edit_file and args.edits > 0:
            try:
                out, _, _, _ = run_with_rusage(_child_cmd("edit", str(root), str(cache), c.edit_file, str(args.edits)), guard)
            except ChildFailed as exc:
                res["errors"].append(f"edit run failed: {exc}")
                print(f"   edit: FAILED: {exc}", flush=True)
            else:
                d = json.loads(out.strip().splitlines()[-1])
                d["summary"] = summarize(d["edit_ms"])
                d["commit_summary"] = summarize(d["commit_ms"])
                res["edit"] = d
                print(f"   edit: {d['file']} ({d['lines']} lines) median {d['summary']['median']:.1f} ms, p95 {d['summary']['p95']:.1f} ms", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res["load_after"] = os.getloadavg()[0]
    return res


def report(results: list[dict]) -> None:
    print("\n" + "=" * 100)
    print(f"codegraph index benchmark — {machine_note()}")
    print("=" * 100)
    keys = [r["key"] + (" *" if r.get("guard") else "") for r in results]
    rows = []

    def row(label: str, fn) -> None:
        vals = []
        for r in results:
            try:
                vals.append(fn(r))
            except (KeyError, TypeError):
                vals.append("—")
        rows.append([label, *vals])

    row("files in scope (floor / index)", lambda r: f"{r['floor']['files']} / {r['cold']['files']}")
    row("lines", lambda r: f"{r['floor']['lines']:,}")
    row("(a) floor parse-only, 1 core", lambda r: fmt_s(r["floor"]["parse_s"]))
    row("(a) floor parse+def/call query, 1 core", lambda r: fmt_s(r["floor"]["parse_query_s"]))
    row("    parse + codegraph's own queries", lambda r: fmt_s(r["floor"]["parse_cgqueries_s"]))
    row("    floor CPU: parse / parse+query", lambda r: f"{fmt_s(r['floor']['cpu']['parse'])} / {fmt_s(r['floor']['cpu']['query'])}")
    row("(b) cold build (RootIndex.build), median", lambda r: f"{fmt_s(r['cold']['build_s'])} (runs: {', '.join(fmt_s(x) for x in r['cold_runs'])})")
    row("    cold process wall (incl. import)", lambda r: fmt_s(r["cold"]["wall_s"]))
    row("    cold process CPU (all processes)", lambda r: fmt_s(r["cold"]["cpu_s"]))
    row("    cold/floor(parse+query)  [≤1.5]", lambda r: f"{r['cold']['build_s'] / r['floor']['parse_query_s']:.2f}x {verdict(r['cold']['build_s'] / r['floor']['parse_query_s'], TARGETS['cold_over_floor'])}")
    row("    cold/floor(parse-only)", lambda r: f"{r['cold']['build_s'] / r['floor']['parse_s']:.2f}x")
    row("    cold, threads present (LSP server)", lambda r: f"{fmt_s(r['cold_threaded']['build_s'])} = {r['cold_threaded']['build_s'] / r['floor']['parse_query_s']:.2f}x floor")
    row("    cold CPU / floor CPU(parse+query)", lambda r: f"{r['cold']['cpu_s'] / r['floor']['cpu']['query']:.2f}x")
    row("(c) warm process wall  [≤1.5 s]", lambda r: f"{fmt_s(r['warm']['wall_s'])} {verdict(r['warm']['wall_s'], TARGETS['warm_s'])}")
    row("    warm: import codegraph.index", lambda r: fmt_s(r["warm"]["import_s"]))
    row("    warm: in-process build()", lambda r: fmt_s(r["warm"]["build_s"]))
    row("    warm: files re-parsed", lambda r: f"{r['warm']['parsed']} ({r['warm']['from_cache']} cached)")
    row("    warm: `codegraph index --json` wall", lambda r: fmt_s(r["warm"]["cli_wall_s"]))
    row("    warm: LSP server start → index ready", lambda r: fmt_s(r["warm"]["lsp_ready_s"]))
    row("(d) peak RSS cold (wait4 maxrss) [≤600]", lambda r: f"{r['cold_rss_mb']:.0f} MB {verdict(r['cold_rss_mb'], TARGETS['rss_mb'])}")
    row("    main process / pool worker", lambda r: f"{r['cold']['self_maxrss_mb']:.0f} / {r['cold']['workers_maxrss_mb']:.0f} MB")
    row("    warm process peak RSS", lambda r: f"{r['warm']['rss_mb']:.0f} MB")
    row("(e) edit latency median [≤20 ms]", lambda r: f"{r['edit']['summary']['median']:.1f} ms {verdict(r['edit']['summary']['median'], TARGETS['edit_median_ms'])}")
    row("    edit latency p95 / max", lambda r: f"{r['edit']['summary']['p95']:.1f} / {r['edit']['summary']['max']:.1f} ms")
    row("    median by edit kind", lambda r: ", ".join(f"{k.split('_')[0]} {v:.0f}" for k, v in r["edit"]["median_by_kind"].items()) + " ms")
    row("    of which _commit (median)", lambda r: f"{r['edit']['commit_summary']['median']:.1f} ms")
    row("    settle after the edits (dependents)", lambda r: f"{r['edit'].get('settle_ms', 0.0):.0f} ms")
    row("    full parse / extract of the file", lambda r: f"{r['edit']['full_parse_ms']:.1f} / {r['edit']['extract_ms']:.1f} ms")
    row("    edit file, edits, incr == fresh", lambda r: f"{r['edit']['file'].rsplit('/', 1)[-1]} {r['edit']['lines']}L x{len(r['edit']['edit_ms'])} {r['edit']['incremental_equals_fresh']}")
    row("units / resolved edges / unknown calls", lambda r: f"{r['cold']['units']:,} / {r['cold']['resolved']:,} / {r['cold']['unresolved']:,}")
    row("load average before / after", lambda r: f"{r['load_before']:.1f} / {r['load_after']:.1f}")
    print(table(rows, ["", *keys]))
    for r in results:
        for e in r["errors"]:
            print(f"! {r['key']}: {e}")
        if r.get("guard"):
            print(f"* {r['key']}: measured with the resolver cycle guard monkeypatch (see bench/common.py apply_workarounds)")

    print("\nFiles with parse errors (FileFacts.parse_errors > 0), per language:")
    prow = []
    for r in results:
        for lang, (n, bad) in sorted(r.get("cold", {}).get("parse_errors", {}).items()):
            prow.append([r["key"], lang, str(n), str(bad), f"{100 * bad / n:.1f}%"])
    print(table(prow, ["corpus", "language", "files", "with errors", "share"]))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, rest = sys.argv[2], sys.argv[3:]
        apply_workarounds()
        if kind == "floor":
            out = child_floor(Path(rest[0]))
        elif kind == "cold":
            workers = int(rest[rest.index("--workers") + 1]) if "--workers" in rest else None
            out = child_cold(Path(rest[0]), Path(rest[1]), workers, threaded="--threaded" in rest)
        elif kind == "edit":
            out = child_edit(Path(rest[0]), Path(rest[1]), rest[2], int(rest[3]), seed=7)
        else:
            raise SystemExit(f"unknown child {kind}")
        print(json.dumps(out))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", default=list(DEFAULT_CORPORA), help=f"subset of {list(CORPORA)} (default {list(DEFAULT_CORPORA)})")
    ap.add_argument("--floor-repeat", type=int, default=2, help="floor passes per mode (the fastest is reported)")
    ap.add_argument("--cold-runs", type=int, default=3, help="cold builds per corpus (the median is reported)")
    ap.add_argument("--no-threaded-cold", dest="threaded_cold", action="store_false",
                    help="skip the extra cold build with another thread running (how the LSP server builds)")
    ap.add_argument("--warm-runs", type=int, default=3, help="warm process starts per corpus (median reported)")
    ap.add_argument("--edits", type=int, default=30, help="edits for the latency run (0 = skip)")
    ap.add_argument("--workers", type=int, default=None, help="RootIndex.build(workers=…) (default: the index's own choice)")
    ap.add_argument("--cycle-guard", choices=("auto", "always", "never"), default="auto",
                    help="resolver RecursionError workaround: auto = retry with it only if the cold build fails")
    ap.add_argument("--json", metavar="FILE", help="also write the raw results as JSON")
    args = ap.parse_args()
    os.environ["CGBENCH_FLOOR_REPEAT"] = str(args.floor_repeat)
    results = [bench_corpus(k, args) for k in args.corpora]
    report(results)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
