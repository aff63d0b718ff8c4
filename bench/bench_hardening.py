"""Hardening figures: hostile files, hostile requests, a typing storm, kill -9 rounds, planted
secrets and resource bounds. Prints one report; every "crashes / unhandled / mismatches / corrupt
/ leaks" figure should be 0.

    python bench/bench_hardening.py            # full run (a few minutes)
    python bench/bench_hardening.py --quick    # smaller numbers
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))  # its helpers, shared with tests/: no test extras needed

from hostile import LANG_EXT, RawClient, hostile_files, nested, remove_tree, sample, write_repo  # noqa: E402

from codegraph.index.extract import SourceError, extract_source  # noqa: E402
from codegraph.index.index import RootIndex  # noqa: E402
from codegraph.workspace.scope import ScopeConfig  # noqa: E402

REPORT: list[tuple[str, str]] = []


def report(name: str, value: object) -> None:
    REPORT.append((name, str(value)))
    print(f"  {name:<52} {value}", flush=True)


# ---- 1. hostile files ----------------------------------------------------------------------------
def bench_files(tmp: Path, mutations: int) -> None:
    print("hostile files")
    rng = random.Random(1)
    fuzzed = crashes = skipped = 0
    for language in LANG_EXT:
        root = tmp / f"files-{language}"
        root.mkdir()
        for name, content in hostile_files(language).items():
            (root / name).write_bytes(content)
        try:
            index = RootIndex(root, ScopeConfig(max_file_bytes=10_000_000), use_cache=False)
            index.build(workers=1)
            fuzzed += len(list(root.iterdir()))
            skipped += len(index.skipped)
        except Exception as exc:  # noqa: BLE001
            crashes += 1
            print("    CRASH", language, exc)
        base = sample(language, 10)
        for _ in range(mutations):
            src = bytearray(base)
            for _ in range(rng.randint(1, 15)):
                pos = rng.randint(0, len(src))
                if rng.random() < 0.5 and src:
                    del src[pos : pos + rng.randint(1, 30)]
                else:
                    src[pos:pos] = rng.choice([b"{", b"}", b"(", b"\n", b"\r", b"\x00", b"\xff", b"'", b'"', b"/*", b"#", rng.randbytes(8)])
            fuzzed += 1
            try:
                extract_source("x" + LANG_EXT[language], language, bytes(src))
            except SourceError:
                skipped += 1
            except Exception as exc:  # noqa: BLE001
                crashes += 1
                print("    CRASH", language, type(exc).__name__, exc)
    report("files fuzzed", fuzzed)
    report("  of which skipped with a reason", skipped)
    report("crashes (exceptions out of the indexer)", crashes)


# ---- 2. hostile requests ---------------------------------------------------------------------------
VALUES = [None, True, 0, -1, 1.5, 10**30, "", " ", "x" * 5000, "../../etc/passwd", "/etc/passwd", "file:///etc", "http://x",
          [], [1, "a"], {}, {"type_name": "1 bad"}, {"jsonrpc": "2.0"}, "app.py::f1", "\x00", "😀" * 10]


def _random_params(rng: random.Random, method: str):
    fields = {"codegraph/explore": ["query", "maxOutputChars", "adaptive", "includeTests", "rootUri"],
              "codegraph/distill": ["scenario", "question", "obligations", "budgetBytes", "format", "deadlineMs", "rootUri"],
              "codegraph/status": ["rootUri"],
              "codegraph/evidence": ["sources", "maxBytes"]}[method]
    if rng.random() < 0.05:
        return rng.choice(VALUES)
    params = {}
    for f in rng.sample(fields, rng.randint(0, len(fields))):
        params[f] = rng.choice(VALUES + {"query": ["f1 f2", "Store.save"], "scenario": ["overview", "query"], "format": ["json", "markdown"],
                                          "obligations": [[{"id": "a", "witnessSets": [["app.py::f1"]]}], [{"id": 1}]],
                                          "sources": [[{"path": "app.py", "lines": [1, 2], "sha256": "0" * 64}], [{"path": ".env"}]]}.get(f, []))
    return params


def bench_requests(tmp: Path, n: int) -> None:
    print("hostile requests")
    root = tmp / "req"
    root.mkdir()
    (root / "app.py").write_bytes(sample("python", 10))
    client = RawClient(root, {"noCache": True})
    rng = random.Random(2)
    unhandled = 0
    try:
        client.wait_ready()
        for _ in range(n):
            method = rng.choice(["codegraph/explore", "codegraph/distill", "codegraph/status", "codegraph/evidence"])
            params = _random_params(rng, method)
            response = client.request(method, params, timeout=60)
            if response is None or ("error" in response and (response["error"]["code"] not in (-32602, -32803) or (
                    response["error"]["code"] == -32602 and not (response["error"].get("data") or {}).get("field")))):
                unhandled += 1
                print("    UNHANDLED", method, json.dumps(params)[:120], json.dumps(response)[:200])
        alive = client.proc.poll() is None and client.request("codegraph/status", {})["result"]["ready"]
    finally:
        client.close()
    report("malformed requests tried", n)
    report("unhandled errors (no answer, -32603, unnamed field)", unhandled)
    report("server alive afterwards", alive)


# ---- 3. typing storm --------------------------------------------------------------------------------
def bench_storm(tmp: Path, edits: int) -> None:
    print("typing storm")
    import storm

    root = tmp / "storm"
    root.mkdir()
    texts = {f"mod{i}.py": sample("python", 6).decode() for i in range(4)}
    texts["web.ts"] = sample("typescript", 4).decode()
    for rel, text in texts.items():
        (root / rel).write_text(text)
    client = RawClient(root, {"noCache": True})
    try:
        client.wait_ready()
        storm._open_all(client, root, texts)
        started = time.monotonic()
        pending = storm._storm(client, root, texts, edits, seed=3, interleave=True)
        failed = sum(1 for i in pending if "result" not in (client.wait(i, timeout=120) or {}))
        sent = time.monotonic() - started
        try:
            (tmp / "sf").mkdir()
            storm._compare(client, root, texts, tmp / "sf")
            mismatches = 0
        except AssertionError as exc:
            mismatches = 1
            print("    MISMATCH", str(exc)[:300])
    finally:
        client.close()
    report("storm edits", edits)
    report("  sent in", f"{sent:.2f} s ({edits / sent:.0f} edits/s, {len(pending)} interleaved requests, {failed} failed)")
    report("storm mismatches (served vs fresh index)", mismatches)


# ---- 4. kill -9 -------------------------------------------------------------------------------------
def bench_kill(tmp: Path, rounds: int) -> None:
    print("kill -9")
    root, cache = tmp / "kill", tmp / "kill-cache"
    root.mkdir()
    write_repo(root, 300, seed=5)
    rng = random.Random(4)
    cmd = [sys.executable, "-m", "codegraph.cli", "index", str(root), "--cache-dir", str(cache)]
    subprocess.run(cmd, check=True, capture_output=True)
    files = sorted(p for p in root.rglob("*") if p.is_file())

    def mutate(k: int) -> None:
        for p in rng.sample(files, len(files) // 2):
            p.write_text(p.read_text() + (f"\ndef k{k}_{rng.randint(0, 99)}():\n    return {k}\n" if p.suffix == ".py" else "\n"))

    mutate(-1)
    t = time.monotonic()
    subprocess.run(cmd, check=True, capture_output=True)
    window = time.monotonic() - t
    corrupt = mid = 0
    for k in range(rounds):
        mutate(k)
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.15, window * 0.95))
        mid += proc.poll() is None
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        try:
            a = RootIndex(root, cache_dir=cache)
            a.build(workers=1)
            a.close()
            b = RootIndex(root, use_cache=False)
            b.build(workers=1)
            corrupt += a.files != b.files
        except Exception as exc:  # noqa: BLE001
            corrupt += 1
            print("    CORRUPT START", exc)
    report("kill -9 rounds", f"{rounds} ({mid} killed mid-run, run window {window:.2f} s)")
    report("corrupt starts", corrupt)


# ---- 5. secrets --------------------------------------------------------------------------------------
def bench_secrets(tmp: Path) -> None:
    print("secrets")
    import planted as sec

    base = tmp / "sec"
    root, outside = base / "ws", base / "outside"
    root.mkdir(parents=True)
    outside.mkdir()
    s = sec.SECRETS
    (root / "config.py").write_text(sec.CONFIG_PY)
    (root / ".env").write_text(f"API_KEY={s['dotenv']}\n")
    (root / "id_rsa").write_text(f"{sec.PEM}\n{s['id_rsa']}\n")
    (root / ".aws").mkdir()
    (root / ".aws" / "credentials.py").write_text(f"def aws_credentials():\n    return '{s['aws_credentials']}'\n")
    (root / "private").mkdir()
    (root / "private" / "notes.py").write_text(f"def excluded_notes():\n    return '{s['excluded']}'\n")
    (outside / "leak.py").write_text(f"def leaky_function():\n    return '{s['outside']}'\n")
    os.symlink(outside / "leak.py", root / "linked_leak.py")
    client = RawClient(root, {"noCache": True, "exclude": ["private/"]})
    leaks: dict[str, int] = {"explore": 0, "evidence": 0, "distill": 0}
    try:
        client.wait_ready()
        outputs = {"explore": [client.request("codegraph/explore", {"query": q, "maxOutputChars": 50_000}) for q in
                               ("load_credentials payment config", "aws token password", "leaky_function", "excluded_notes", "SIGNING_KEY")],
                   "distill": [client.request("codegraph/distill", p) for p in ({}, {"format": "markdown"},
                                                                                  {"scenario": "query", "question": "how are credentials loaded?"})]}
        digest = hashlib.sha256(sec.CONFIG_PY.encode()).hexdigest()
        outputs["evidence"] = [client.request("codegraph/evidence", {"sources": [
            {"path": p, "lines": [1, 20], "sha256": digest} for p in
            ("config.py", ".env", "id_rsa", ".aws/credentials.py", "private/notes.py", "linked_leak.py", "../outside/leak.py", str(outside / "leak.py"))]})]
        for kind, results in outputs.items():
            for r in results:
                text = json.dumps(r, ensure_ascii=False)
                leaks[kind] += sum(1 for v in s.values() if v in text)
    finally:
        client.close()
    report("planted secrets", f"{len(s)} (key block, AWS key, token, password, GitHub token, .env, id_rsa, .aws/, excluded, outside symlink)")
    report("leaks in explore / evidence", f"{leaks['explore']} / {leaks['evidence']}")
    report("leaks in distill (json and markdown)", leaks["distill"])


# ---- 6. resource bounds ----------------------------------------------------------------------------
def _child(fn, args, q) -> None:
    started = time.monotonic()
    try:
        out = fn(*args)
    except Exception as exc:  # noqa: BLE001
        out = f"FAILED {type(exc).__name__}: {exc}"
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    q.put((out, time.monotonic() - started, peak / 1024))  # children: the parse worker pool


def measured(fn, *args):
    q = multiprocessing.get_context("fork").Queue()
    p = multiprocessing.get_context("fork").Process(target=_child, args=(fn, args, q))
    p.start()
    out = q.get()
    p.join()
    return out


def _build_summary(root: Path) -> str:
    index = RootIndex(root, use_cache=False)
    index.build()
    st = index.status()
    return f"{st['files']} indexed, {st['skippedTotal']} skipped"


def _extract_brackets(n: int) -> str:
    try:
        extract_source("x.py", "python", nested("python", n, closed=False))
        return "indexed"
    except SourceError as exc:
        return f"skipped: {exc}"


def bench_resources(tmp: Path, n_files: int) -> None:
    print("resource bounds")
    base_rss = measured(lambda: None)[2]
    report("baseline process RSS", f"{base_rss:.0f} MB")
    many = tmp / "many"
    many.mkdir()
    for d in range(200):
        (many / f"d{d}").mkdir()
    for i in range(n_files):
        suffix = (".txt", ".py", ".md", ".min.js")[i % 4] if i % 10 else ".py"
        (many / f"d{i % 200}" / f"f{i}{suffix}").write_bytes(b"" if suffix != ".py" else b"def f():\n    pass\n" if i % 7 == 0 else b"")
    out, secs, rss = measured(_build_summary, many)
    report(f"{n_files:,} files ({n_files // 4:,}+ unsupported, tiny/empty .py, .min.js)", f"{out}; {secs:.1f} s, peak RSS {rss:.0f} MB")
    big = tmp / "bigfile"
    big.mkdir()
    with open(big / "enormous.py", "wb") as fh:
        fh.truncate(5_000_000_000)
    (big / "ok.py").write_text("def ok():\n    pass\n")
    out, secs, rss = measured(_build_summary, big)
    report("one enormous file (5 GB sparse .py)", f"{out}; {secs:.2f} s, peak RSS {rss:.0f} MB")
    deep = tmp / "deep"
    deep.mkdir()
    cur = deep
    for _ in range(2_000):
        cur = cur / "d"
        cur.mkdir()
    (cur / "deep.py").write_text("def deepest():\n    pass\n")
    out, secs, rss = measured(_build_summary, deep)
    report("2,000-level directory tree", f"{out}; {secs:.2f} s, peak RSS {rss:.0f} MB")
    remove_tree(deep)
    for n in (50_000, 1_000_000):
        out, secs, rss = measured(_extract_brackets, n)
        report(f"{n:,} unclosed brackets in one file", f"{out[:60]}; {secs:.2f} s, peak RSS {rss:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    q = args.quick
    tmp = Path(tempfile.mkdtemp(prefix="cg-hardening-"))
    started = time.monotonic()
    try:
        bench_files(tmp, 50 if q else 400)
        bench_requests(tmp, 200 if q else 1_000)
        bench_storm(tmp, 1_000)
        bench_kill(tmp, 10 if q else 40)
        bench_secrets(tmp)
        bench_resources(tmp, 20_000 if q else 100_000)
    finally:
        remove_tree(tmp)
    print(f"\n== hardening report ({time.monotonic() - started:.0f} s) ==")
    for name, value in REPORT:
        print(f"{name:<54} {value}")


if __name__ == "__main__":
    main()
