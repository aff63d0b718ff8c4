"""Configuration fuzz: generated workspaces with hostile ignore files (root and nested) and hostile
manifests of every kind, each indexed, explored and distilled. Prints workspaces tried, roots that
failed (should be 0), source files wrongly skipped (should be 0) and time per workspace.

The oracle for "wrongly skipped" is git itself: `git ls-files --others --exclude-standard` over
each workspace (one scratch git directory, global and system configuration off) lists what git
keeps; every source file it keeps, in a supported language and outside codegraph's own defaults
(none are generated), must be indexed. Files git ignores but codegraph indexes are counted too
(lines codegraph could not use and reported, or patterns past its caps).

Every workspace runs through the in-process service (RootIndex, explore, distill: the same code
the transports call); one in `--sample` (default 25) also through the real `codegraph index` CLI
and the language server over stdio (status ready, explore and distill answer).

    python bench/bench_config_fuzz.py            # 500 workspaces (about 10 minutes on 2 busy cores)
    python bench/bench_config_fuzz.py --quick    # 60 workspaces
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from hostile import RawClient, remove_tree  # noqa: E402

from codegraph.index.index import RootIndex  # noqa: E402
from codegraph.requests import run_distill_frame, run_explore  # noqa: E402
from codegraph.workspace.ignore import MAX_PATTERNS  # noqa: E402
from codegraph.workspace.scope import ScopeConfig  # noqa: E402

SOURCES = {  # extension → a small definition (unique names are appended)
    ".py": "def {n}(x):\n    return helper_{n}(x)\n\n\ndef helper_{n}(x):\n    return x\n",
    ".ts": "export function {n}(x: number): number {{ return x; }}\n",
    ".js": "function {n}(x) {{ return x; }}\nmodule.exports = {{ {n} }};\n",
    ".go": "package p\n\nfunc {n}(x int) int {{ return x }}\n",
    ".rs": "pub fn {n}(x: u32) -> u32 {{ x }}\n",
    ".java": "class {N} {{ int {n}(int x) {{ return x; }} }}\n",
    ".kt": "fun {n}(x: Int): Int = x\n",
}
DIRS = ["src", "lib", "pkg", "app", "core", "a", "b", "x", "gen", "tmp", "deep", "q", "z", "data"]
STEMS = ["main", "util", "keep", "tmp_1", "tmp_2", "b", "z", "q1", "gen_x", "local_a", "a", "ab", "aab", "skip"]

VALID = ["*.py", "*.ts", "tmp_*", "gen/", "/b.*", "**/gen/**", "!keep.*", "!tmp_1.py", "[a-c]*.go", "deep/**/*.rs",
         "q*", "!q1.*", "x/", "/src/util.*", "*.js", "a/**/b", "lib/*.kt", "\\!important", "#comment", "",
         "   ", "main.py   ", "\\#x", "z*/", "*/local_*", "**/b", "!**/b", "??.py", "[!a]*.ts", "a*b.*"]
HOSTILE = ["!", "\\", "**/[z-a]", "[b-a]*.py", "[q-p]*", "[z-a]/", "!/", "[", "a[", "[]", "[!]",
           "*a*a*a*a*a*a*b", "**/a/**/a/**/a/**/b", "[[:alpha:]]*.go", "[[:digit:]]*", "***", "a/**/**/b",
           "tmp_*\x00.py", "keep\x00", "\udcff.py", "x" * 5000, "*" * 300 + "z", "[a-]*.rs", "\\ ", "!!keep.py"]
MANIFESTS = ["pyproject.toml", "setup.cfg", "package.json", "Cargo.toml", "go.mod", "build.gradle", "build.gradle.kts",
             "pom.xml", "tsconfig.json", "jsconfig.json", "settings.gradle"]


def _manifest(rng: random.Random, name: str) -> bytes | None:
    """A hostile (or now and then valid) manifest of this kind; None: a FIFO or a symlink instead."""
    kind = rng.choice(["deep", "binary", "huge", "types", "broken", "valid", "empty", "bom", "special"])
    toml, js = name.endswith(".toml"), name.endswith(".json")
    if kind == "deep":
        return (b"a = " if toml else b"") + rng.choice([b"[", b"{"] if js else [b"["]) * rng.choice([2_000, 100_000])
    if kind == "binary":
        return rng.randbytes(rng.randint(1, 20_000))
    if kind == "huge":
        return (b'"k": 1,\n' if js else b"k = 1\n") * 250_000
    if kind == "types":
        if toml:
            return rng.choice([b'[project]\nscripts = "a:b"\nentry-points = [1]\n[tool]\npoetry = 3\n',
                               b'project = 1\n[package]\nname = ["x"]\n', b'[project.scripts]\nx = 5\ny = {callable = 3}\n'])
        if js:
            return rng.choice([b'[1, 2]', b'{"main": ["a"], "bin": 3, "name": {}}', b'"str"', b'{"bin": {"a": null}}', b'null'])
        return b"module 123\n"
    if kind == "broken":
        return rng.choice([b"[project\nname = ", b'{"main": ', b"<project><unclosed>", b"plugins { id 'java'", b"\xff\xfe\x00x"])
    if kind == "valid":
        if name == "pyproject.toml":
            return b'[project]\nname = "w"\n[project.scripts]\nw = "src.main:main"\n'
        if name == "package.json":
            return b'{"name": "w", "main": "src/main.js", "bin": {"w": "lib/main.js"}}'
        if name == "Cargo.toml":
            return b'[package]\nname = "w-crate"\n'
        return b"# fine\n"
    if kind == "bom":
        return b"\xef\xbb\xbf" + (b"{}" if js else b"")
    if kind == "special":
        return None
    return b""


def _mangled(rng: random.Random) -> str:
    """A name the workspace holds, with parts turned into wildcards, classes, anchors, negations."""
    parts = [rng.choice(DIRS) for _ in range(rng.randint(0, 2))] + [rng.choice(STEMS) + rng.choice(list(SOURCES) + [""])]
    if rng.random() < 0.3:
        parts = parts[-1:]
    out = []
    for part in parts:
        chars = list(part)
        for _ in range(rng.randint(0, 3)):
            if not chars:
                break
            k = rng.randrange(len(chars))
            chars[k] = rng.choice(["*", "?", "**", f"[{chars[k]}-z]", f"[!{chars[k]}]", f"[z-{chars[k]}]", "\\" + chars[k],
                                   "[[:alpha:]]", "[[:digit:]]", "[]" + chars[k] + "]"])
        out.append("".join(chars))
    line = "/".join(out)
    if rng.random() < 0.2:
        line = "/" + line
    if rng.random() < 0.2:
        line = "**/" + line
    if rng.random() < 0.15:
        line += "/"
    if rng.random() < 0.15:
        line += "/**"
    return ("!" if rng.random() < 0.35 else "") + line


def _ignore_file(rng: random.Random) -> bytes:
    lines: list[bytes] = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.15:  # a random glob over the names the generator uses: where two readings of git's rules part
            line = "".join(rng.choice("abqzkep_1.py*?[]!-/\\^: ") for _ in range(rng.randint(1, 10)))
        elif roll < 0.4:
            line = _mangled(rng)
        else:
            line = rng.choice(VALID if roll < 0.75 else HOSTILE)
        raw = line.encode("utf-8", "surrogateescape")
        if rng.random() < 0.05:
            raw = rng.randbytes(rng.randint(1, 12)).replace(b"\n", b"")
        lines.append(raw)
    end = b"\r\n" if rng.random() < 0.2 else b"\n"
    data = end.join(lines) + (end if rng.random() < 0.8 else b"")
    if rng.random() < 0.1:
        data = b"\xef\xbb\xbf" + data
    return data


def make_workspace(root: Path, seed: int) -> None:
    rng = random.Random(seed)
    root.mkdir(parents=True)
    dirs = [""] + ["/".join(rng.choice(DIRS) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 5))]
    k = 0
    for d in dirs:
        for _ in range(rng.randint(1, 4)):
            ext = rng.choice(list(SOURCES))
            name = f"f{k}"
            rel = f"{d}/{rng.choice(STEMS)}{ext}" if d else f"{rng.choice(STEMS)}{ext}"
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(SOURCES[ext].format(n=name, N=name.upper()))
            k += 1
    for d in rng.sample(dirs, rng.randint(1, len(dirs))):
        target = root / d / ".gitignore"
        roll = rng.random()
        if roll < 0.04 and not target.exists():
            target.mkdir(parents=True, exist_ok=True)  # an ignore "file" that is a directory
            (target / "inside.py").write_text(SOURCES[".py"].format(n=f"inside{seed}", N=""))
        elif roll < 0.08:
            (root / d).mkdir(parents=True, exist_ok=True)
            (root / d / "rules.txt").write_bytes(_ignore_file(rng))
            if not target.exists():
                os.symlink("rules.txt", target)  # git does not follow it
        elif roll < 0.10:
            target.write_bytes(b"".join(b"junk_%d/**/*.tmp\n" % i for i in range(rng.choice([300_000, 800_000]))) + _ignore_file(rng))
        else:
            target.write_bytes(_ignore_file(rng))
    for d in rng.sample(dirs, rng.randint(1, len(dirs))):
        for name in rng.sample(MANIFESTS, rng.randint(1, 4)):
            path = root / d / name
            if path.exists() or path.is_symlink():
                continue
            data = _manifest(rng, name)
            if data is None:
                if rng.random() < 0.5:
                    os.mkfifo(path)
                else:
                    os.symlink("/etc/hostname" if rng.random() < 0.5 else "/nonexistent", path)
            else:
                path.write_bytes(data)


def git_kept(root: Path, gitdir: Path, env: dict) -> set[str] | None:
    """The files git keeps (not ignored), as root-relative paths; None when git is unavailable."""
    try:
        out = subprocess.run(["git", f"--git-dir={gitdir}", f"--work-tree={root}", "ls-files", "--others", "--exclude-standard", "-z"],
                             capture_output=True, cwd=root, env=env, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return {os.fsdecode(p) for p in out.stdout.split(b"\0") if p}


def expected_sources(kept: set[str], root: Path) -> set[str]:
    out = set()
    for rel in kept:
        if os.path.splitext(rel)[1] not in SOURCES or "/.git/" in f"/{rel}":
            continue
        path = root / rel
        if path.is_symlink() or not path.is_file():
            continue
        out.add(rel)
    return out


def run_in_process(root: Path) -> tuple[RootIndex | None, str]:
    try:
        index = RootIndex(root, ScopeConfig(), use_cache=False)
        index.build(workers=1)
    except Exception as exc:  # noqa: BLE001 - the figure this bench counts
        return None, f"index: {type(exc).__name__}: {exc}"
    try:
        run_explore(index, {"query": "How does main reach helper?"})
    except Exception as exc:  # noqa: BLE001
        return index, f"explore: {type(exc).__name__}: {exc}"
    try:
        run_distill_frame(index, {"format": "json"})
    except Exception as exc:  # noqa: BLE001
        return index, f"distill: {type(exc).__name__}: {exc}"
    return index, ""


def run_transports(root: Path, cache: Path, files: int) -> str:
    """The real CLI and the language server over stdio; "" when both answer as in-process."""
    cli = subprocess.run([sys.executable, "-m", "codegraph.cli", "index", str(root), "--json", "--no-cache"],
                         capture_output=True, text=True, timeout=300, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    if cli.returncode != 0:
        return f"cli rc {cli.returncode}: {cli.stderr[-300:]}"
    if json.loads(cli.stdout)["files"] != files:
        return f"cli files {json.loads(cli.stdout)['files']} != {files}"
    client = RawClient(root, {"noCache": True})
    try:
        client.wait_ready(timeout=300)
        status = client.request("codegraph/status", {})["result"]
        if not status["ready"] or status["roots"][0]["files"] != files:
            return f"lsp status {status['roots'][0]['files']} files, ready={status['ready']}"
        for method, params in (("codegraph/explore", {"query": "How does main reach helper?"}), ("codegraph/distill", {"format": "json"})):
            reply = client.request(method, params)
            if "result" not in reply:
                return f"lsp {method}: {reply.get('error')}"
        if client.proc.poll() is not None:
            return "lsp server died"
    finally:
        client.close()
    return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workspaces", type=int, default=500)
    ap.add_argument("--quick", action="store_true", help="60 workspaces")
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--sample", type=int, default=25, help="every Nth workspace also runs the real CLI and LSP (0: none)")
    args = ap.parse_args()
    logging.getLogger("codegraph").setLevel(logging.ERROR)  # each skipped manifest is logged: thousands here
    n = 60 if args.quick else args.workspaces
    tmp = Path(tempfile.mkdtemp(prefix="cg-cfgfuzz-"))
    home = tmp / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
           "XDG_CONFIG_HOME": str(home)}
    gitdir = tmp / "oracle.git"
    has_git = subprocess.run(["git", "init", "-q", "--bare", str(gitdir)], capture_output=True, env=env).returncode == 0 if shutil.which("git") else False
    if has_git:
        (gitdir / "info" / "exclude").write_text("")
    failed: list[str] = []
    wrongly_skipped: list[str] = []
    extra: list[str] = []
    capped = 0  # of those, in workspaces where an ignore file passed its pattern cap (reported)
    reported_lines = 0
    times: list[float] = []
    transport_times: list[float] = []
    transport_failed: list[str] = []
    sampled = 0
    started = time.monotonic()
    for i in range(n):
        root = tmp / f"ws{i}"
        make_workspace(root, args.seed * 100_000 + i)
        t = time.perf_counter()
        index, why = run_in_process(root)
        times.append(time.perf_counter() - t)
        if why:
            failed.append(f"ws{i}: {why}")
        if index is not None:
            reported_lines += sum(1 for p in index.skipped if ".gitignore" in p.rsplit("/", 1)[-1])
            kept = git_kept(root, gitdir, env) if has_git else None
            if kept is not None:
                expected = expected_sources(kept, root)
                wrong = sorted(expected - set(index.files))
                wrongly_skipped += [f"ws{i}/{w} ({index.skipped.get(w, 'not seen')})" for w in wrong]
                more = [f"ws{i}/{p}" for p in sorted({p for p in index.files if os.path.splitext(p)[1] in SOURCES} - expected)]
                extra += more
                if any("only negations" in why for why in index.skipped.values()):
                    capped += len(more)
        if args.sample and i % args.sample == 0 and index is not None:
            sampled += 1
            t = time.perf_counter()
            try:
                why = run_transports(root, tmp / "xdg", len(index.files))
            except Exception as exc:  # noqa: BLE001
                why = f"{type(exc).__name__}: {exc}"
            transport_times.append(time.perf_counter() - t)
            if why:
                transport_failed.append(f"ws{i}: {why}")
        remove_tree(root)
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{n} workspaces, {len(failed)} failed, {len(wrongly_skipped)} wrongly skipped", flush=True)
    remove_tree(tmp)
    ordered = sorted(times)
    print(f"\n== configuration fuzz ({time.monotonic() - started:.0f} s, seed {args.seed}) ==")
    print(f"  workspaces tried                                   {n}")
    print(f"  roots that failed (index, explore or distill)      {len(failed)}")
    for f in failed[:10]:
        print(f"    {f}")
    print(f"  source files wrongly skipped (git keeps them)      {len(wrongly_skipped) if has_git else 'n/a (no git binary)'}")
    for w in wrongly_skipped[:10]:
        print(f"    {w}")
    print(f"  source files git ignores that codegraph indexes    {len(extra) if has_git else 'n/a'}"
          f"  ({capped} where an ignore file passed its {MAX_PATTERNS} pattern cap, reported)")
    for w in extra[:10]:
        print(f"    {w}")
    print(f"  ignore files or lines reported as skipped          {reported_lines}")
    print(f"  time per workspace (in-process index+explore+distill): median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {ordered[int(len(ordered) * 0.95)] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")
    if sampled:
        print(f"  real CLI + LSP over stdio, sampled                 {sampled} workspaces, {len(transport_failed)} failed, "
              f"median {statistics.median(transport_times):.1f} s, max {max(transport_times):.1f} s")
        for f in transport_failed[:10]:
            print(f"    {f}")


if __name__ == "__main__":
    main()
