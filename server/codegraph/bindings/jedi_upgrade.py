"""jedi as a precise helper for Python call sites the conservative resolver left unknown.

Bounded by a fixed call count (never by wall time, so answers stay deterministic); used on small sets (a flow search, a one-hop
expansion), never as the bulk resolver: jedi's project-wide search gives up on large trees.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

from ..model.facts import Call, FileFacts, Unit

log = logging.getLogger(__name__)


@lru_cache(maxsize=4)
def _project(root: str):
    import jedi

    return jedi.Project(root, smart_sys_path=False, load_unsafe_extensions=False)


def _column(source: bytes, call: Call) -> tuple[int, int] | None:
    """(line, column) of the callee's name inside the call expression, as jedi counts them."""
    segment = source[call.start_byte : call.end_byte]
    at = segment.find(call.name.encode("utf-8") + b"(")
    if at < 0:
        at = segment.find(call.name.encode("utf-8"))
    if at < 0:
        return None
    offset = call.start_byte + at
    line_start = source.rfind(b"\n", 0, offset) + 1
    line = source.count(b"\n", 0, offset) + 1
    return line, len(source[line_start:offset].decode("utf-8", "replace"))


# (root, path, file sha256, call start byte) → target unit id or None; survives requests, so a
# repeated question costs no jedi time. Bounded: cleared when it grows past _MEMO_MAX.
_memo: dict[tuple[str, str, str, int], str | None] = {}
_MEMO_MAX = 20_000


class JediResolver:
    """Resolves selected unknown Python calls to units of the index, within a fixed call count."""

    def __init__(self, root: Path, files: dict[str, FileFacts], sources: dict[str, bytes], max_calls: int = 6) -> None:
        self.root = root
        self.files = files
        self.sources = sources
        self.left = max_calls
        self._scripts: dict[str, object] = {}

    def _script(self, path: str):
        import jedi

        if path not in self._scripts:
            code = self.sources[path].decode("utf-8", "replace")
            self._scripts[path] = jedi.Script(code=code, path=str(self.root / path), project=_project(str(self.root)))
        return self._scripts[path]

    def resolve(self, facts: FileFacts, call: Call) -> Unit | None:
        if facts.language != "python":
            return None
        key = (str(self.root), facts.path, facts.sha256, call.start_byte)
        # The call budget counts memo hits too, so the answer never depends on what earlier
        # requests happened to warm: same index + same request ⇒ same links.
        if self.left <= 0:
            return None
        self.left -= 1
        if key in _memo:
            hit = _memo[key]
            return self._unit(hit) if hit else None
        found = self._resolve(facts, call)
        if len(_memo) > _MEMO_MAX:
            _memo.clear()
        _memo[key] = found.id if found else None
        return found

    def _unit(self, uid: str) -> Unit | None:
        path = uid.split("::", 1)[0]
        facts = self.files.get(path)
        return next((u for u in facts.units if u.id == uid), None) if facts else None

    def _resolve(self, facts: FileFacts, call: Call) -> Unit | None:
        pos = _column(self.sources.get(facts.path, b""), call)
        if pos is None:
            return None
        try:
            names = self._script(facts.path).goto(pos[0], pos[1], follow_imports=True)
        except Exception as exc:  # jedi raises many things on odd code; an unknown stays unknown
            log.debug("jedi failed on %s:%s: %s", facts.path, call.line, exc)
            return None
        for name in names:
            module_path = getattr(name, "module_path", None)
            if module_path is None or name.line is None:
                continue
            try:
                rel = Path(module_path).resolve().relative_to(self.root).as_posix()
            except ValueError:
                continue
            target = self.files.get(rel)
            if target is None:
                continue
            for u in target.units:
                if u.name == name.name and u.name_line == name.line and u.kind != "statement":
                    return u
        return None
