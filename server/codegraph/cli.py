"""The command line: the same engine as the language server, without an editor.

    codegraph index ROOT                 index and print a summary
    codegraph explore ROOT QUERY         the source that answers QUERY (markdown or --json)
    codegraph distill ROOT               the architecture knowledge pack
    codegraph symbols ROOT QUERY         functions, methods and types by name (fuzzy)
    codegraph calls ROOT SYMBOL          its callers (or --callees), proven and likely apart
    codegraph impact ROOT PATH[:LINE]…   what calls into a change, and the tests that reach it
    codegraph serve                      the language server over stdio
    codegraph mcp [ROOT]                 the MCP server over stdio (for coding agents)
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

from . import __version__
from .model import protocol
from .workspace.scope import DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES_BOUNDS

# the limits the help states, from the protocol's one declaration (model/protocol.json)
_BUDGET = protocol.bounds("explore", "maxOutputChars")
_TIERS = " / ".join(f"{t['maxOutputChars']:,}" for t in protocol.PROTOCOL["requests"]["explore"]["budgetTiers"])
_CAPS = protocol.PROTOCOL["requests"]["distill"]["releaseCaps"]


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


def _open_workspace(args: argparse.Namespace):
    """The workspace service with ROOT as its one root, built: (workspace, root index, build stats)."""
    from . import service
    from .workspace.scope import ScopeConfig

    root = Path(args.root).resolve()
    if not root.is_dir():
        raise SystemExit(f"codegraph: {args.root}: {'not a directory' if root.exists() else 'does not exist'}")
    config = ScopeConfig(exclude=tuple(args.exclude or ()), max_file_bytes=_max_file_bytes(args))
    workspace = service.Workspace(service.CLI, service.IndexOptions(config, Path(args.cache_dir) if args.cache_dir else None, not args.no_cache))
    index = workspace.add_root(root.as_uri())
    [stats] = workspace.build_now(_progress_printer(sys.stderr.isatty() and not getattr(args, "json", False)))
    if stats is None:
        raise SystemExit(f"codegraph: {workspace.failed[root.as_uri()]}")
    return workspace, index, stats


def _max_file_bytes(args: argparse.Namespace) -> int:
    """--max-file-bytes within the bounds the language server's `maxFileBytes` takes; an error
    naming the flag and the rule otherwise (exit status 2, as for the requests' flags)."""
    from .model.fields import InvalidParams, get_int

    try:
        return get_int({"maxFileBytes": args.max_file_bytes}, "maxFileBytes", *MAX_FILE_BYTES_BOUNDS, None)  # type: ignore[return-value]
    except InvalidParams as exc:
        print(_invalid(exc), file=sys.stderr)
        raise SystemExit(2) from None


def cmd_index(args: argparse.Namespace) -> int:
    workspace, index, stats = _open_workspace(args)
    workspace.close()  # the cache is complete before the summary claims it
    from . import service

    [status] = workspace.answer_now(service.STATUS, {})["roots"]
    if args.json:
        if args.list_skipped:
            status["skipped"] = [{"path": p, "reason": r, **({"bytes": b} if (b := _oversize(index, p, r)) is not None else {})}
                                 for p, r in sorted(index.skipped.items())]
        extra = {"unsupported": dict(sorted(index.unsupported.items())), "parsed": stats.parsed, "fromCache": stats.from_cache}
        print(json.dumps({**status, **extra, "elapsedMs": round(stats.elapsed_ms, 1)}, indent=2))
        return 0
    print(f"codegraph {__version__} — {index.root}")
    print(f"  files       {status['files']}  ({stats.parsed} parsed, {stats.from_cache} from cache)")
    for lang, count in status["languages"].items():
        errors = sum(1 for f in index.files.values() if f.language == lang and f.parse_errors)
        print(f"    {lang:<11} {count:>6} files  ({errors} with parse errors)")
    print(f"  units       {status['symbols']}")
    print(f"  resolved    {status['resolvedEdges']} edges (calls, constructs, imports, extends, implements)")
    print(f"  unknown     {status['unresolvedCalls']} calls with no provable target")
    _print_skipped(index.skipped, args.list_skipped, lambda p, r: _oversize(index, p, r))
    if index.unsupported:
        from .render.guidance import unsupported_summary

        print(f"  ignored     {sum(index.unsupported.values())} files of other languages: {unsupported_summary(index.unsupported, limit=8)}")
    if stats.cache_note:
        print(f"  cache       {stats.cache_note}")
    print(f"  elapsed     {stats.elapsed_ms / 1000:.2f} s")
    return 0


def _oversize(index, path: str, reason: str) -> int | None:
    """The size of a file skipped for its size (the reason names the limit, once for them all)."""
    from .workspace.scope import oversize_reason

    if reason != oversize_reason(index.config.max_file_bytes):
        return None
    try:
        return (index.root / path).stat().st_size
    except OSError:
        return None


def _print_skipped(skipped: dict[str, str], full: bool, size=lambda path, reason: None) -> None:
    """Skipped paths grouped by reason, largest group first: a few examples each, or all of them
    (with the size of each file skipped for its size)."""
    groups: dict[str, list[str]] = {}
    for path, reason in sorted(skipped.items()):
        groups.setdefault(reason, []).append(path)
    hint = "" if full or not skipped else "  (--list-skipped lists every path)"
    print(f"  skipped     {len(skipped)}{hint}")
    for reason, paths in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if full:
            print(f"    {len(paths):>6}  {reason}:")
            for path in paths:
                bytes_ = size(path, reason)
                print(f"              {path}" + (f" ({bytes_:,} bytes)" if bytes_ is not None else ""))
        else:
            shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            print(f"    {len(paths):>6}  {reason}: {shown}")


# Protocol field → the CLI's name for it, so errors name what the user typed.
CLI_NAMES = {"query": "QUERY", "maxOutputChars": "--max-chars", "question": "--question", "budgetBytes": "--budget-bytes", "format": "--format",
             "symbol": "SYMBOL", "changes": "PATH[:LINE]", "limit": "--limit", "depth": "--depth", "maxFileBytes": "--max-file-bytes"}


def _invalid(exc) -> str:
    import re

    item = re.fullmatch(r"changes\[(\d+)\]", exc.field)  # the Nth PATH[:LINE] argument
    name = f"PATH[:LINE] #{int(item.group(1)) + 1}" if item else CLI_NAMES.get(exc.field, exc.field)
    return f"codegraph: {name} {exc.rule}"


def _failed(exc, budget: int | None) -> str:
    """A pack that cannot fit says which --budget-bytes would (the engine reports the bytes it needs)."""
    import re

    found = re.search(r"needs (\d+) bytes, cap (\d+)", str(exc))
    if not found:
        return f"codegraph: {exc}"
    needed, cap = int(found.group(1)), int(found.group(2))
    if budget is not None and budget <= cap:
        return (f"codegraph: --budget-bytes {budget} is too small for this repository: the smallest pack needs {needed:,} bytes. "
                f"Use --budget-bytes {needed} or more, or leave it out for the default cap.")
    return f"codegraph: {exc}"


def cmd_explore(args: argparse.Namespace) -> int:
    from . import service
    from .requests import InvalidParams

    workspace, _, _ = _open_workspace(args)
    params: dict = {"query": args.query}
    if args.max_chars is not None:
        params["maxOutputChars"] = args.max_chars
    if args.no_adaptive:
        params["adaptive"] = False
    if args.include_tests:
        params["includeTests"] = True
    try:
        result = workspace.answer_now(service.EXPLORE, params)
    except InvalidParams as exc:
        print(_invalid(exc), file=sys.stderr)
        return 2
    finally:
        workspace.close()
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n" if args.json else result["text"] + "\n")
    return 0 if result["flow"] or result["stats"]["candidates"] else 1  # 1 = nothing matched, as with grep


def cmd_distill(args: argparse.Namespace) -> int:
    from . import service
    from .requests import InvalidParams, RequestFailed

    workspace, _, _ = _open_workspace(args)
    params: dict = {"format": args.format, "question": args.question}  # None (not given): the contract's default; "" is refused like "   "
    if args.budget_bytes is not None:
        params["budgetBytes"] = args.budget_bytes
    try:
        result = workspace.answer_now(service.DISTILL, params)
    except InvalidParams as exc:
        print(_invalid(exc), file=sys.stderr)
        return 2
    except RequestFailed as exc:
        print(_failed(exc, args.budget_bytes), file=sys.stderr)
        return 2
    finally:
        workspace.close()
    if "markdown" in result:
        sys.stdout.write(result["markdown"] + "\n")
    else:
        # compact, as the transports send it: the byte budget is the sent frame's, and an indented
        # copy of a pack filled to it was a sixth larger than the cap it names
        sys.stdout.write(json.dumps(result["pack"], ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n")
    return 0


# ---- the graph's queries (service.QUERIES): the same answers as codegraph/symbols|calls|impact ----
def _query(args: argparse.Namespace, request: str, params: dict, found) -> int:
    """One query through the service: the text (or --json the whole result); exit status 2 for a
    refused request, 1 when `found(result)` is false (nothing matched, as with grep). The text's
    budget hint names --max-chars, as the errors name the flags; --json is the protocol's answer."""
    from .query.request import name_budget
    from .requests import InvalidParams

    if getattr(args, "max_chars", None) is not None:
        params["maxOutputChars"] = args.max_chars
    workspace, _, _ = _open_workspace(args)
    try:
        result = workspace.answer_now(request, params)
    except InvalidParams as exc:
        print(_invalid(exc), file=sys.stderr)
        return 2
    finally:
        workspace.close()
    if args.json:  # the protocol's answer, byte for byte the LSP's and MCP's
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(name_budget(result, CLI_NAMES["maxOutputChars"])["text"] + "\n")
    return 0 if found(result) else 1


def cmd_symbols(args: argparse.Namespace) -> int:
    from . import service

    params: dict = {"query": args.query}
    if args.limit is not None:
        params["limit"] = args.limit
    return _query(args, service.SYMBOLS, params, lambda r: bool(r["symbols"]))


def cmd_calls(args: argparse.Namespace) -> int:
    from . import service

    params: dict = {"symbol": args.symbol, "direction": "callees" if args.callees else "callers"}
    if args.depth is not None:
        params["depth"] = args.depth
    if args.proven_only:
        params["likely"] = False
    return _query(args, service.CALLS, params, lambda r: True)


def cmd_impact(args: argparse.Namespace) -> int:
    from . import service

    params: dict = {"changes": args.changes}
    if args.depth is not None:
        params["depth"] = args.depth
    if args.proven_only:
        params["likely"] = False
    return _query(args, service.IMPACT, params, lambda r: True)


def _query_parsers(sub, with_index_options) -> None:
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--max-chars", type=int, default=None,
                       help=f"output budget in characters, {_BUDGET[0]:,} to {_BUDGET[1]:,} (default by repository size: {_TIERS})")
        p.add_argument("--json", action="store_true", help="print the whole result object")
        with_index_options(p)

    p = sub.add_parser("symbols", help="functions, methods and types whose name matches QUERY (fuzzy, camel-case aware, tests last; exit status 1: none)")
    p.add_argument("root")
    p.add_argument("query")
    lo, hi = protocol.bounds("symbols", "limit")
    p.add_argument("--limit", type=int, default=None, help=f"at most this many, {lo} to {hi} (default {protocol.param('symbols', 'limit')['default']})")
    common(p)
    p.set_defaults(func=cmd_symbols)

    p = sub.add_parser("calls", help="the callers (default) or callees of SYMBOL: proven edges, then likely ones labelled with their rule and confidence")
    p.add_argument("root")
    p.add_argument("symbol", help="a name, a qualified name (Class.method), path::Qualified.name or path:LINE")
    way = p.add_mutually_exclusive_group()
    way.add_argument("--callers", action="store_true", help="who calls SYMBOL (the default)")
    way.add_argument("--callees", action="store_true", help="what SYMBOL calls")
    lo, hi = protocol.bounds("calls", "depth")
    p.add_argument("--depth", type=int, default=None, help=f"steps to follow, {lo} to {hi} (default {protocol.param('calls', 'depth')['default']})")
    p.add_argument("--proven-only", action="store_true", help="leave out likely edges")
    common(p)
    p.set_defaults(func=cmd_calls)

    p = sub.add_parser("impact", help="the units that call into what changed, transitively and ranked, and the tests that reach it through calls")
    p.add_argument("root")
    p.add_argument("changes", nargs="+", metavar="PATH[:LINE]",
                   help="a changed file, PATH:LINE or PATH:START-END (relative to ROOT, or absolute inside it)")
    lo, hi = protocol.bounds("impact", "depth")
    p.add_argument("--depth", type=int, default=None, help=f"call steps to follow, {lo} to {hi} (default {protocol.param('impact', 'depth')['default']})")
    p.add_argument("--proven-only", action="store_true", help="follow proven edges only")
    common(p)
    p.set_defaults(func=cmd_impact)


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
        max_file_bytes=_max_file_bytes(args),
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
        p.add_argument("--max-file-bytes", type=int, default=DEFAULT_MAX_FILE_BYTES,
                       help=f"skip files larger than this, {MAX_FILE_BYTES_BOUNDS[0]:,} to {MAX_FILE_BYTES_BOUNDS[1]:,} "
                            f"(default {DEFAULT_MAX_FILE_BYTES:,})")

    p = sub.add_parser("index", help="index ROOT and print a summary")
    p.add_argument("root", nargs="?", default=".")
    p.add_argument("--json", action="store_true")
    p.add_argument("--list-skipped", action="store_true", help="list every skipped path under its reason (default: counts and a few examples)")
    with_index_options(p)
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("explore", help="the source that answers QUERY, within a character budget (exit status 1: nothing matched)")
    p.add_argument("root")
    p.add_argument("query")
    p.add_argument("--max-chars", type=int, default=None,
                   help=f"output budget in characters, {_BUDGET[0]:,} to {_BUDGET[1]:,} (default by repository size: {_TIERS})")
    p.add_argument("--json", action="store_true", help="print the whole result object")
    p.add_argument("--no-adaptive", action="store_true", help="plain relevance rendering, no skeletons")
    p.add_argument("--include-tests", action="store_true")
    with_index_options(p)
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser("distill", help="the architecture of a code base: entry points, assembly, core flow, sinks and error boundaries, with their code")
    p.add_argument("root", nargs="?", default=".")
    p.add_argument("--question", help="ask about one part of the architecture instead of the whole (a smaller pack around the symbols it names)")
    p.add_argument("--format", choices=("json", "markdown"), default=None,
                   help="markdown (default): a readable document opening with a flowchart; json: the pack as data, one "
                        "compact line within the byte budget (each format is filled to the budget on its own, so a "
                        "body that fits in one may be left out in the other)")
    p.add_argument("--budget-bytes", type=int, default=None,
                   help=f"size limit of the whole answer in bytes (default and most: {_CAPS['overview']:,} for an overview, {_CAPS['query']:,} for a question). "
                        "The smallest pack depends on the repository (about 1 KB); below it, the error names the size needed")
    with_index_options(p)
    p.set_defaults(func=cmd_distill)

    _query_parsers(sub, with_index_options)

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
    try:
        return args.func(args)
    except BrokenPipeError:  # `codegraph index . | head`: the reader left; no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor one when stdout is flushed at exit
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
