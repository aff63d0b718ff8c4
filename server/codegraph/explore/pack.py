"""Packing: which lines of which files fill the character budget.

Bodies are the currency, not files. Every file contributes pieces — a unit's body (with the
signatures of its enclosing types for context) — and one greedy pass takes them in a single
global order: the spine's bodies in flow order first, then everything else by relevance. A
skeleton file contributes its signatures only; a focused (family) file pays for its
signatures once, with the first of its bodies. A file whose chosen pieces already cover most
of it is shown whole. So a long helper file can never crowd out the next hop of the flow,
and no small file is shown whole only because it is small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..index.facts import Unit
from ..render.markdown import merge_ranges, numbered, section, split_lines

CLUSTER_GAP = 2  # elided stretches this short are shown instead of a `⋮`
SMALL_IMPL_LINES = 30  # a Rust impl block this short is shown whole with any of its methods
SMALL_CLASS_LINES = 20  # a class this short is shown whole with any of its methods
TRAIT_IMPL_LINES = 120  # ...and a trait impl this short: a protocol's methods read together (`poll_ready` with `call`)
BIG_TYPE_LINES = 60  # a type longer than this shows its header; its members come as their own pieces
SPINE_PIECE_SHARE = 0.3  # when the spine does not fit, a spine body may still take this share before it shows signature + call sites
OTHER_PIECE_SHARE = 0.2  # ...any other body larger than this share is left out
WHOLE_FILE_SLACK = 0.25  # show a file whole when that costs at most this much more than its pieces
SKELETON_SHARE = 0.12  # room for sibling skeletons, taken before bodies
FOCUSED_BASE_SHARE = 0.3  # a family file's signatures may take at most this share, else it shows bodies only
WHOLE_SPINE_FILE_LINES = 300  # a spine file up to this long is shown whole when the budget allows
SPINE_FILE_RESERVE = 0.25  # ...while this share of the budget stays for other relevant bodies
BODY_OVERHEAD = 300  # characters a shown body costs beyond its lines (section, elision marks)
DEPTH_FADE = 0.7  # when the spine overflows, a body one hop further from the entry counts this much less
MIN_SCORE_SHARE = 0.04  # bodies scoring below this share of the best are not worth the reader's time


@dataclass
class FileView:
    """A file's plan as the packer sees it."""

    path: str
    mode: str  # bodies|skeleton|focused
    reason: str
    score: float
    lines: list[str]
    defs: list[Unit]
    base: list[tuple[int, int]] = field(default_factory=list)  # signature ranges a skeleton/focused view always shows
    ranges: list[tuple[int, int]] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    included: bool = False
    text: str = ""
    order: float = float("inf")  # where the section goes: spine files in flow order, then by relevance
    spine: bool = False  # holds a spine (or named) body
    sibling: bool = False  # a family member's file: its bodies are shown one by one, never whole
    trait_impls: frozenset[str] = frozenset()  # Rust `impl Trait for T` blocks (unit ids)

    def render(self, ranges: list[tuple[int, int]], symbols: list[str], label: str) -> str:
        body, _ = numbered(self.lines, merge_ranges(ranges, CLUSTER_GAP))
        return section(self.path, symbols, label, body)

    def label(self) -> str:
        if self.mode == "skeleton":
            return "skeleton"
        if self.mode == "focused" and self.base:
            return "focused"
        return "clusters"


@dataclass(frozen=True)
class Piece:
    unit: Unit
    path: str
    score: float
    spine_pos: int  # position on the flow, -1 when not on it
    must: bool  # spine or named-unique: kept first, compacted rather than dropped
    named: bool = False  # a symbol the question names: shown in full whenever it fits at all
    next_to_named: bool = False  # a core unit one hop from a symbol the question names: its direct step
    depth: int = 0  # hops below where the flow enters or a unit the question points at (0 there and off the spine)
    nearby: bool = False  # on no hop of the flow, no data step, no unit the question names: only near them
    builds_named: bool = False  # the constructor of a type the question names: what building it does
    shared_step: bool = False  # off the spine, called by several core units and calling on itself: a step they share


def signature_ranges(units: list[Unit]) -> list[tuple[int, int]]:
    return [(u.name_line, max(u.name_line, u.sig_end_line)) for u in units if u.kind != "statement"]


def piece_ranges(u: Unit, by_id: dict[str, Unit], trait_impls: frozenset[str] = frozenset(), whole_class: bool = False) -> list[tuple[int, int]]:
    """A unit's body, or a big type's header, plus the signatures of the types around it (with
    `whole_class`, a spine body's small class whole)."""
    big_type = u.is_type and (u.end_line - u.start_line) > BIG_TYPE_LINES
    span = [(u.start_line, u.sig_end_line)] if big_type else [(u.start_line, u.end_line)]
    parent = by_id.get(u.parent) if u.parent else None
    whole = TRAIT_IMPL_LINES if parent is not None and parent.id in trait_impls else SMALL_IMPL_LINES
    if whole_class and parent is not None and parent.kind == "class" and parent.end_line - parent.start_line <= SMALL_CLASS_LINES:
        span.append((parent.start_line, parent.end_line))  # a small class reads as one (`CallAdapted`: its fields with `adapt`)
    if parent is not None and parent.kind == "impl" and parent.end_line - parent.start_line <= whole:
        # a short trait impl (`impl Future for Server { type Output …; fn poll … }`) reads as one
        span.append((parent.start_line, parent.end_line))
    while parent is not None:
        span.append(_context_signature(parent))
        parent = by_id.get(parent.parent) if parent.parent else None
    return span


def _context_signature(t: Unit) -> tuple[int, int]:
    """The lines of an enclosing type shown around a body: its signature, or only its first line
    when the signature is long (a Go struct's signature is its 200 lines of fields)."""
    end = t.sig_end_line if t.sig_end_line - t.name_line <= BIG_TYPE_LINES else t.name_line
    return (t.name_line, max(t.name_line, end))


def compact_ranges(u: Unit, call_lines: list[int], by_id: dict[str, Unit]) -> list[tuple[int, int]]:
    """A too-long spine body: its signature and the lines where it calls the next hops."""
    sites = [(max(u.start_line, n - 1), min(u.end_line, n + 1)) for n in sorted(set(call_lines))]
    return [(u.start_line, u.sig_end_line)] + sites + piece_ranges(u, by_id)[1:]


def pack(
    views: dict[str, FileView],
    pieces: list[Piece],
    call_sites: dict[str, list[int]],
    budget: int,
    checkpoint: Callable[[], None],
) -> tuple[list[FileView], list[str]]:
    """Fill `budget` characters; returns the shown files in reading order and the spine bodies
    that did not fit (the answer names them)."""
    packer = _Packer(views, budget, checkpoint)
    packer.skeletons()
    # bodies in one global order: the spine in flow order, then by relevance
    order = sorted(pieces, key=lambda p: (p.spine_pos < 0, p.spine_pos if p.spine_pos >= 0 else 0, not p.must, -p.score, p.unit.id))
    left_out = packer.spine_bodies([p for p in order if p.must], call_sites)
    packer.whole_spine_files()
    top = max((p.score for p in pieces), default=0.0)
    # the bodies the flow's hops or the question's own units point at first, then those only
    # near them (a word match or a PageRank neighbour no hop reaches); in each group the
    # constructors of the types the question names first (how such an object is set up is part
    # of the question, though nothing in the flow calls it by name: `OperatorSubscriber`'s), then
    # by relevance per character: two short bodies the question needs beat one long one. Before
    # that relevance, the steps several core units share (below): an accessor is called from
    # as many, but does no work of its own, and per character it always won
    packer.other_bodies([p for p in sorted(order, key=lambda p: (p.nearby, not p.builds_named, not p.shared_step, -p.score / (_body_chars(views, p) + BODY_OVERHEAD) ** 0.5, p.unit.id))
                         if not p.must and p.score >= MIN_SCORE_SHARE * top and not bodiless(p.unit)])
    packer.whole_when_mostly_shown()
    shown = [v for v in views.values() if v.included]
    for v in shown:
        if v.mode == "skeleton":
            v.order = 2_000 - min(999.0, v.score)
    shown.sort(key=lambda v: (v.order, v.path))
    return shown, left_out


class _Packer:
    """The budget left and the views being filled, one step of `pack` per method."""

    def __init__(self, views: dict[str, FileView], budget: int, checkpoint: Callable[[], None]) -> None:
        self.views, self.budget, self.remaining, self.checkpoint = views, budget, budget, checkpoint

    def skeletons(self) -> None:
        """Sibling skeletons first, most relevant first, within their share: they are small and
        carry the family's shape, and big bodies must not starve them. A family file whose
        signatures alone are too big shows bodies only."""
        reserve = int(SKELETON_SHARE * self.budget)
        for view in sorted((v for v in self.views.values() if v.mode == "skeleton"), key=lambda v: (-v.score, v.path)):
            text = view.render(view.base, _top_symbols(view), "skeleton")
            if len(text) <= min(reserve, self.remaining):
                view.included, view.text, view.symbols = True, text, _top_symbols(view)
                reserve -= len(text)
                self.remaining -= len(text)
        for view in self.views.values():
            if view.mode == "focused" and view.base:
                if len(view.render(view.base, [], "focused")) > FOCUSED_BASE_SHARE * self.budget:
                    view.base = []

    def spine_bodies(self, musts: list[Piece], call_sites: dict[str, list[int]]) -> list[str]:
        """The spine's bodies: all of them in full when they fit. Otherwise the named symbols,
        then their direct steps, then by relevance per character faded by depth (DEPTH_FADE per
        hop below where the flow enters), each in full unless it alone
        would take more than SPINE_PIECE_SHARE of the budget (then its signature and call
        sites); the last ones get what is left. Returns those left out."""
        views, left_out = self.views, []
        need = sum(_alone(views, p) for p in musts)
        if need > self.remaining:
            musts = sorted(musts, key=lambda p: (not p.named, not p.next_to_named, -DEPTH_FADE ** p.depth * p.score / (_body_chars(views, p) + BODY_OVERHEAD) ** 0.5, p.spine_pos, p.unit.id))
        for piece in musts:
            self.checkpoint()
            view = views.get(piece.path)
            if view is None or view.mode == "skeleton":
                continue
            by_id = {u.id: u for u in view.defs}
            if (restates_params(piece.unit, view.lines) or bodiless(piece.unit)) and not _in_small_class(piece.unit, by_id):
                continue  # its signature says all it does; in a small class it brings the class
            span = piece_ranges(piece.unit, by_id, view.trait_impls, whole_class=True)
            if _covered(view, span):
                continue  # already shown inside another piece
            base = view.base if not view.included else []
            name = piece.unit.qualname
            trial_ranges = view.ranges + base + span
            text = view.render(trial_ranges, view.symbols + [name], view.label())
            cost = len(text) - len(view.text)
            if cost > self.remaining or cost > SPINE_PIECE_SHARE * self.budget and need > self.remaining and not piece.named:
                trial_ranges = view.ranges + base + compact_ranges(piece.unit, call_sites.get(piece.unit.id, []), by_id)
                name += " (call sites)"
                text = view.render(trial_ranges, view.symbols + [name], view.label())
                cost = len(text) - len(view.text)
            if cost > self.remaining:
                left_out.append(piece.unit.qualname)
                continue
            view.ranges, view.text, view.included, view.spine = trial_ranges, text, True, True
            view.symbols = view.symbols + [name]
            self.remaining -= cost
            view.order = min(view.order, piece.spine_pos if piece.spine_pos >= 0 else 999.0)
        return left_out

    def whole_spine_files(self) -> None:
        """A small file the flow passes through is shown whole: its other bodies are the context
        of the spine's (the class's other members, the helpers beside it)."""
        for view in sorted((v for v in self.views.values() if v.included and v.mode == "bodies" and v.spine and not v.sibling), key=lambda v: (v.order, v.path)):
            if len(view.lines) <= WHOLE_SPINE_FILE_LINES and _hides_bodies(view):
                self._whole(view, self.remaining - int(SPINE_FILE_RESERVE * self.budget))

    def other_bodies(self, pieces: list[Piece]) -> None:
        """The other relevant bodies, in the order given; context, not the flow: a body that
        does not fit is not worth a line in the footer."""
        for piece in pieces:
            self.checkpoint()
            view = self.views.get(piece.path)
            if view is None or view.mode in ("skeleton", "full") or restates_params(piece.unit, view.lines):
                continue
            # a small class reads as one here too: its other short members are what the body uses
            # (`Middleware`'s `__iter__` with its `__init__`)
            span = piece_ranges(piece.unit, {u.id: u for u in view.defs}, view.trait_impls, whole_class=True)
            if _covered(view, span):
                continue
            base = view.base if not view.included else []
            trial_ranges = view.ranges + base + span
            text = view.render(trial_ranges, view.symbols + [piece.unit.qualname], view.label())
            cost = len(text) - len(view.text)
            if cost > OTHER_PIECE_SHARE * self.budget or cost > self.remaining:
                continue
            view.ranges, view.text, view.included = trial_ranges, text, True
            view.symbols = view.symbols + [piece.unit.qualname]
            self.remaining -= cost
            view.order = min(view.order, 1_000 - min(999.0, piece.score))

    def whole_when_mostly_shown(self) -> None:
        for view in self.views.values():
            if not view.included or view.mode == "skeleton" or view.label() == "focused" or view.sibling:
                continue
            self._whole(view, self.remaining, WHOLE_FILE_SLACK * len(view.text))

    def _whole(self, view: FileView, allowance: float, slack: float = float("inf")) -> None:
        whole = view.render([(1, len(view.lines))], _top_symbols(view), "full")
        extra = len(whole) - len(view.text)
        if extra <= allowance and extra <= slack:
            view.text, view.ranges, view.symbols, view.mode = whole, [(1, len(view.lines))], _top_symbols(view), "full"
            self.remaining -= extra


def bodiless(u: Unit) -> bool:
    """A declaration with no body of its own (an interface's or abstract method): as context it
    is a signature, not a body worth a piece."""
    return u.is_callable and u.sig_end_byte >= u.end_byte


_STORE = re.compile(r"(?:this|self)\.(\w+)\s*=\s*(\w+)\s*;?")
_SUPER = re.compile(r"super\s*\(\s*((?:\w+\s*,\s*)*\w*)\s*\)\s*;?")
_LITERALS = frozenset({"null", "None", "true", "false", "True", "False", "undefined", "nil"})


def restates_params(u: Unit, lines: list[str]) -> bool:
    """A constructor whose body only stores its parameters in fields (`this.x = x;`, with at
    most a `super(a, b)` of parameters): its signature already says everything the body does,
    so the body is no step of any flow."""
    if not (u.kind == "constructor" or u.name in ("__init__", "constructor")) or not u.param_names:
        return False
    params = set(u.param_names) | _LITERALS
    statements = 0
    for raw in lines[u.sig_end_line : u.end_line]:
        line = raw.strip().strip("{}").strip()
        if not line or line.startswith(("//", "#", "/*", "*")):
            continue
        m = _STORE.fullmatch(line)
        if m and m.group(2) in params:
            statements += 1
            continue
        m = _SUPER.fullmatch(line)
        if m and all(a.strip() in params for a in m.group(1).split(",") if a.strip()):
            continue
        return False
    return statements > 0


def _in_small_class(u: Unit, by_id: dict[str, Unit]) -> bool:
    parent = by_id.get(u.parent) if u.parent else None
    return parent is not None and parent.kind == "class" and parent.end_line - parent.start_line <= SMALL_CLASS_LINES


def _hides_bodies(view: FileView) -> bool:
    """Whether the file holds a body not shown yet: with none, showing it whole adds only
    comments, imports and bodiless declarations (a function's overload signatures and its doc)."""
    return any(not bodiless(u) and not _covered(view, [(u.start_line, u.end_line)]) for u in view.defs)


def _covered(view: FileView, span: list[tuple[int, int]]) -> bool:
    return all(any(a <= s and e <= b for a, b in view.ranges) for s, e in span)


def _body_chars(views: dict[str, FileView], piece: Piece) -> int:
    view = views.get(piece.path)
    return sum(len(line) + 8 for line in view.lines[piece.unit.start_line - 1 : piece.unit.end_line]) if view else 0


def _alone(views: dict[str, FileView], piece: Piece) -> int:
    view = views.get(piece.path)
    if view is None or view.mode == "skeleton":
        return 0
    by_id = {u.id: u for u in view.defs}
    return len(view.render(piece_ranges(piece.unit, by_id, view.trait_impls, whole_class=True), [piece.unit.qualname], "clusters"))


def _top_symbols(view: FileView) -> list[str]:
    return [u.qualname for u in view.defs if u.parent is None][:12]


def file_view(path: str, mode: str, reason: str, score: float, source: bytes, units: list[Unit]) -> FileView:
    defs = [u for u in units if u.kind != "statement"]
    base = signature_ranges(defs) if mode in ("skeleton", "focused") else []
    return FileView(path, mode, reason, score, split_lines(source), defs, base)


__all__ = ["FileView", "Piece", "bodiless", "file_view", "pack"]
