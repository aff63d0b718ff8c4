"""The agent-ready pack: the same tables rendered as one readable document.

Rendered from the delivered pack only, so markdown and JSON never disagree about what was
selected; the frame gate measures this text inside its response envelope.
"""

from __future__ import annotations

import posixpath

from .roles import ROLE_ORDER, SKELETON_ROLES

FENCE_LANG = {".py": "python", ".pyi": "python", ".go": "go", ".rs": "rust", ".java": "java", ".kt": "kotlin", ".kts": "kotlin",
              ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx", ".js": "javascript",
              ".jsx": "jsx", ".mjs": "javascript", ".cjs": "javascript"}


def _ref(pack: dict, i: int) -> str:
    s = pack["sources"][i]
    path = pack["files"][s["file"]]["path"]
    return f"S{i} `{path}:{s['lines'][0]}-{s['lines'][1]}` `{s['symbol']}`"


def _fence(body: str) -> str:
    ticks = 3
    while "`" * ticks in body:
        ticks += 1
    return "`" * ticks


def _dedent(body: str, col: int) -> str:
    """The body starts at its unit's column; continuation lines lose that much indentation."""
    if not col:
        return body
    first, *rest = body.split("\n")
    out = [first]
    for line in rest:
        strip = min(col, len(line) - len(line.lstrip(" \t")))
        out.append(line[strip:])
    return "\n".join(out)


def render_markdown(pack: dict) -> str:
    out: list[str] = []
    add = out.append
    scenario = pack["scenario"]
    add(f"# Architecture knowledge pack: {pack['project']}")
    add("")
    add(f"codegraph distill · {scenario} · status **{pack['status']}** · snapshot `{pack['snapshot_id']}` · "
        f"{pack['algorithm_version']} · key `{pack['cache_key'][:16]}`")
    if pack.get("question"):
        add(f"\nQuestion: {pack['question']}")
    sel = pack["selection"]
    add("")
    add(f"Static structure only, no model: roles come from syntax and resolved bindings; the dependency order is a "
        f"partial order, not a timeline. Selected {sel['units']} units ({sel['body_bytes']:,} body bytes; lanes "
        f"skeleton {sel['lanes']['skeleton']}, boundary {sel['lanes']['boundary']}, context {sel['lanes']['context']}). "
        f"Evidence levels: {' < '.join(pack['levels'])}. A source shown without code can be fetched with "
        f"`codegraph/evidence` (path, lines, sha256).")
    add("\n## Lifecycle skeleton by role")
    by_role: dict[str, list[int]] = {r: [] for r in ROLE_ORDER}
    for i, s in enumerate(pack["sources"]):
        for r in s["roles"]:
            if r in by_role:
                by_role[r].append(i)
    for role in ROLE_ORDER:
        refs = by_role[role]
        if refs:
            add(f"- **{role}**: " + "; ".join(_ref(pack, i) for i in refs))
        elif role in SKELETON_ROLES:
            ob = next((o for o in pack["obligations"] if o["id"] == f"role:{role}"), None)
            add(f"- **{role}**: none selected" + (f" ({ob['status']}: {ob['reason']})" if ob else ""))
    if pack["components"]:
        add("\n## Components and dependencies")
        for c in pack["components"]:
            deps = ", ".join(f"C{d}" for d in c["depends_on"]) or "nothing selected"
            add(f"- C{c['id']} `{c['name']}`: sources " + ", ".join(f"S{i}" for i in c["sources"]) + f"; depends on {deps}")
    if pack["obligations"]:
        add("\n## Obligations")
        for o in pack["obligations"]:
            req = "required" if o["required"] else "optional"
            srcs = (" · " + ", ".join(f"S{i}" for i in o["sources"])) if o["sources"] else ""
            add(f"- `{o['id']}` ({req}, {pack['levels'][o['evidence']]}): **{o['status']}**, {o['reason']}{srcs}")
    if pack["facts"]:
        add("\n## Facts")
        for f in pack["facts"]:
            srcs = ", ".join(f"S{i}" for i in f["sources"])
            add(f"- [{pack['levels'][f['level']]}] {f['text']} ({srcs})")
    if pack["gaps"]:
        add("\n## Gaps and unknowns")
        for g in pack["gaps"]:
            add(f"- {g['kind']}: {g['count']:,}, {g['text']}")
    if pack["sources"]:
        add("\n## Sources")
        for i, s in enumerate(pack["sources"]):
            path = pack["files"][s["file"]]["path"]
            roles = ", ".join(s["roles"])
            lane = f"alias of S{s['alias_of']}" if "alias_of" in s else s["lane"]
            add(f"\n### S{i} `{path}:{s['lines'][0]}-{s['lines'][1]}` {s['symbol']}")
            add(f"{s['kind']} · {lane} · {roles} · {s['bytes']:,} bytes")
            if "body" in s:
                fence = _fence(s["body"])
                lang = FENCE_LANG.get(posixpath.splitext(path)[1], "")
                add(f"{fence}{lang}\n{_dedent(s['body'], s.get('col', 0))}\n{fence}")
            elif "alias_of" not in s:
                add("(code not included in this frame: fetch it with codegraph/evidence)")
    return "\n".join(out) + "\n"
