"""The command line: the same engine as the language server, without an editor.

    codegraph index ROOT                 index and print a summary
    codegraph explore ROOT QUERY         the source that answers QUERY (markdown or --json)
    codegraph distill ROOT               the architecture knowledge pack
    codegraph serve                      the language server over stdio
    codegraph mcp [ROOT]                 the MCP server over stdio (for coding agents)
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from . import __version__


def _progress_printer(enabled: bool):
    last = [0.0]
    finished = [False]

    def show(done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if not enabled or finished[0] or (now - last[0] < 0.1 and (done < total or not total)):
            return
        last[0] = now
        if not total:  # still walking the tree: the number of files is not known yet
            sys.stderr.write(f"\r{message} ")
            sys.stderr.flush()
            return
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files ")
        if done >= total:
            finished[0] = True  # the full bar once, however many stages report it
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _open_index(args: argparse.Namespace):
    from .index.index import RootIndex
    from .workspace.scope import ScopeConfig

    root = Path(args.root).resolve()
    if not root.is_dir():
        raise SystemExit(f"codegraph: {args.root}: not a directory")
    config = ScopeConfig(exclude=tuple(args.exclude or ()), max_file_bytes=args.max_file_bytes)
    index = RootIndex(root, config, cache_dir=Path(args.cache_dir) if args.cache_dir else None, use_cache=not args.no_cache)
    stats = index.build(progress=_progress_printer(sys.stderr.isatty() and not getattr(args, "json", False)))
    return index, stats


def cmd_index(args: argparse.Namespace) -> int:
    index, stats = _open_index(args)
    index.close()  # the cache is complete before the summary claims it
    status = index.status()
    if args.json:
        print(json.dumps({**status, "parsed": stats.parsed, "fromCache": stats.from_cache, "elapsedMs": round(stats.elapsed_ms, 1)}, indent=2))
        return 0
    print(f"codegraph {__version__} — {index.root}")
    print(f"  files       {status['files']}  ({stats.parsed} parsed, {stats.from_cache} from cache)")
    for lang, count in status["languages"].items():
        errors = sum(1 for f in index.files.values() if f.language == lang and f.parse_errors)
        print(f"    {lang:<11} {count:>6} files  ({errors} with parse errors)")
    print(f"  units       {status['symbols']}")
    print(f"  resolved    {status['resolvedEdges']} edges (calls, constructs, imports, extends, implements)")
    print(f"  unknown     {status['unresolvedCalls']} calls with no provable target")
    reasons: dict[str, int] = {}
    for reason in index.skipped.values():
        reasons[reason] = reasons.get(reason, 0) + 1
    print(f"  skipped     {len(index.skipped)}")
    for reason, count in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:12]:
        print(f"    {count:>6}  {reason}")
    if stats.cache_note:
        print(f"  cache       {stats.cache_note}")
    print(f"  elapsed     {stats.elapsed_ms / 1000:.2f} s")
    return 0


def cmd_explore(args: argparse.Namespace) -> int:
    from .requests import InvalidParams, run_explore

    index, _ = _open_index(args)
    params: dict = {"query": args.query}
    if args.max_chars is not None:
        params["maxOutputChars"] = args.max_chars
    if args.no_adaptive:
        params["adaptive"] = False
    if args.include_tests:
        params["includeTests"] = True
    try:
        result = run_explore(index, params)
    except InvalidParams as exc:
        print(f"codegraph: {exc}", file=sys.stderr)
        return 2
    finally:
        index.close()
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n" if args.json else result["text"] + "\n")
    return 0


def cmd_distill(args: argparse.Namespace) -> int:
    from .requests import InvalidParams, RequestFailed, run_distill_frame

    index, _ = _open_index(args)
    params: dict = {"format": args.format}
    if args.question:
        params.update(scenario="query", question=args.question)
    if args.budget_bytes is not None:
        params["budgetBytes"] = args.budget_bytes
    try:
        result = run_distill_frame(index, params)
    except (InvalidParams, RequestFailed) as exc:
        print(f"codegraph: {exc}", file=sys.stderr)
        return 2
    finally:
        index.close()
    if args.format == "markdown":
        sys.stdout.write(result["markdown"] + "\n")
    else:
        sys.stdout.write(json.dumps(result["pack"], ensure_ascii=False, sort_keys=True, indent=1) + "\n")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .lsp.server import main as serve

    serve([])
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from .mcp_server import main as mcp_main

    return mcp_main(
        args.root,
        cache_dir=args.cache_dir,
        use_cache=not args.no_cache,
        exclude=tuple(args.exclude or ()),
        max_file_bytes=args.max_file_bytes,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codegraph", description="Explore and distill code bases over an incremental code graph.")
    parser.add_argument("--version", action="version", version=f"codegraph {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    def with_index_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--cache-dir", help="where the fact cache lives (default: the user cache directory)")
        p.add_argument("--no-cache", action="store_true", help="neither read nor write the fact cache")
        p.add_argument("--exclude", action="append", help="gitignore-style pattern to leave out (repeatable)")
        p.add_argument("--max-file-bytes", type=int, default=1_000_000, help="skip files larger than this")

    p = sub.add_parser("index", help="index ROOT and print a summary")
    p.add_argument("root", nargs="?", default=".")
    p.add_argument("--json", action="store_true")
    with_index_options(p)
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("explore", help="the source that answers QUERY, within a character budget")
    p.add_argument("root")
    p.add_argument("query")
    p.add_argument("--max-chars", type=int, default=None, help="output budget in characters (default by repository size)")
    p.add_argument("--json", action="store_true", help="print the whole result object")
    p.add_argument("--no-adaptive", action="store_true", help="plain relevance rendering, no skeletons")
    p.add_argument("--include-tests", action="store_true")
    with_index_options(p)
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser("distill", help="the architecture of a code base: entry points, assembly, core flow, sinks and error boundaries, with their code")
    p.add_argument("root", nargs="?", default=".")
    p.add_argument("--question", help="ask about one part of the architecture instead of the whole (a smaller pack around the symbols it names)")
    p.add_argument("--format", choices=("json", "markdown"), default="markdown",
                   help="markdown (default): a readable document opening with a flowchart; json: the same pack as data")
    p.add_argument("--budget-bytes", type=int, default=None, help="size limit of the whole answer in bytes (default 22,016)")
    with_index_options(p)
    p.set_defaults(func=cmd_distill)

    p = sub.add_parser("serve", help="run the language server over stdio")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("mcp", help="run the MCP server over stdio")
    p.add_argument("root", nargs="?", default=".")
    with_index_options(p)
    p.set_defaults(func=cmd_mcp)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
