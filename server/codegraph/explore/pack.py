"""Packing: which lines of which files fill the character budget.

Bodies are the currency, not files. Every file contributes pieces — a unit's body (with the
signatures of its enclosing types for context) — and one greedy pass takes them in a single
global order: the learned probability that the answer needs the body, per character. A
skeleton file contributes its signatures only; a focused (family) file pays for its
signatures once, with the first of its bodies. A file whose chosen pieces already cover most
of it is shown whole.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..index.facts import Unit
from ..model.facts import bodiless
from ..render.markdown import merge_ranges, numbered, section, split_lines
from .prior import PLATFORM_PRIOR, path_prior
from .relevance import QUESTION_STOP, STOP, split_words, stem

CLUSTER_GAP = 2  # elided stretches this short are shown instead of a `⋮`
SMALL_IMPL_LINES = 30  # a Rust impl block this short is shown whole with any of its methods
SMALL_CLASS_LINES = 20  # a class this short is shown whole with any of its methods
TRAIT_IMPL_LINES = 120  # ...and a trait impl this short: a protocol's methods read together (`poll_ready` with `call`)
BIG_TYPE_LINES = 60  # a type longer than this shows its header; its members come as their own pieces
WHOLE_FILE_SLACK = 0.25  # show a file whole when that costs at most this much more than its pieces
SKELETON_SHARE = 0.12  # room for sibling skeletons, taken before bodies...
SKELETON_CAP = 1_700  # ...up to about two skeleton files: a family's shape, not its every member (docs/explore.md)
FOCUSED_BASE_SHARE = 0.3  # a family file's signatures may take at most this share, else it shows bodies only
BODY_OVERHEAD = 300  # characters a shown body costs beyond its lines (section, elision marks)
EXCERPT_LINES = 8  # a cut flow body keeps at most this many of its answer lines beyond its call sites
EXCERPT = " (excerpt)"  # marks a cut body's name in its heading and in the answer's `symbols`


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
    name_counts: Counter | None = None  # qualified name → definitions in this file (headings tell repeats apart)
    included: bool = False
    text: str = ""
    order: float = float("inf")  # where the section goes: spine files in flow order, then by relevance
    spine: bool = False  # holds a spine (or named) body
    sibling: bool = False  # a family member's file: its bodies are shown one by one, never whole
    trait_impls: frozenset[str] = frozenset()  # Rust `impl Trait for T` blocks (unit ids)
    cut: dict[str, Unit] = field(default_factory=dict)  # a body shown as an excerpt: its marked name → the unit
    stubs: frozenset[str] = frozenset()  # declarations whose implementation the file holds (`@overload`s): never a body
    crowded: bool = False  # a body or the skeleton of the file did not fit in the room left

    def render(self, ranges: list[tuple[int, int]], symbols: list[str], label: str) -> str:
        body, _ = numbered(self.lines, merge_ranges(ranges, CLUSTER_GAP))
        return section(self.path, symbols, label, body, excerpts=[s for s in symbols if s in self.cut])

    def marked(self, ranges: list[tuple[int, int]], symbols: list[str]) -> list[str]:
        """`symbols` with the excerpt mark on each cut body's name as `ranges` show it: off when they
        show it whole (a later piece brought its impl block or its small class, or the elided
        stretches are short enough to show), back on when lines given back cut it again."""
        if not self.cut:
            return symbols
        merged = merge_ranges(ranges, CLUSTER_GAP)
        whole = lambda u: any(a <= u.start_line and u.end_line <= b for a, b in merged)  # noqa: E731
        plain = {name[: -len(EXCERPT)]: name for name in self.cut}
        out = []
        for s in symbols:
            if s in self.cut and whole(self.cut[s]):
                s = s[: -len(EXCERPT)]
            elif s in plain and not whole(self.cut[plain[s]]):
                s = plain[s]
            out.append(s)
        return out

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
    named: bool = False  # a symbol the question names (in code form or spelled out): shown first


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
    """A too-long spine body: its signature and the lines where it calls the next hops (the
    lines that answer come later, `_Packer.excerpts`)."""
    sites = [(max(u.start_line, n - 1), min(u.end_line, n + 1)) for n in sorted(set(call_lines))]
    return [(u.start_line, u.sig_end_line)] + sites + piece_ranges(u, by_id)[1:]


# A line that hands a result on, by syntax or by the verbs every language's libraries share: a
# return or yield of a value, an await, a channel send or receive (`ch <- v`), a send, put or
# emit of a value, a promise or future settled (`resolve(v)`, `complete(v)`, `set_result(v)`), a
# Rust tail value (`Ok(v)`, `Poll::Ready(v)`). Errors thrown or raised are no result.
_HANDOFF = re.compile(
    r"^(?:return|yield|co_return)\b(?!\s*;?$)|\bawait\b|\.await\b|<-\s*\S|"
    r"(?:^|[.\s(])(?i:send|try_send|send_\w+|put|put_nowait|offer|emit|resolve|complete|set_result|on_?next|next|write|reply|respond)"
    r"\s*\(\s*[^)\s]|"
    r"^(?:Ok|Some|(?:\w+::)*Ready)\s*\((?!.*=>)"  # not a match arm's pattern
)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`\n]*`')
_TRAILING_COMMENT = re.compile(r"\s(?://|#\s).*$")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_STATEMENT = re.compile(r"[^\s{}()\[\];,]")  # a line with more than closing brackets
_DOCSTRING = re.compile(r'"""|\'\'\'')
# a question's words that name no code; "method" does ("the HTTP method", `req.method`), though
# the ranking stops it as the question's own word for code ("which method builds it")
_CODE_WORDS = frozenset({"method", "methods"})
_CODE_STOP = STOP - _CODE_WORDS
_PROSE = _CODE_STOP | QUESTION_STOP | frozenset({"but"})
_ERROR_WORDS = frozenset({"err", "error", "exception", "fail", "failur", "reject", "panic"})  # stemmed
# a question that asks about errors (stemmed): then the lines that raise or hand on one answer it
_ERROR_QUESTION = _ERROR_WORDS | frozenset({"except", "rais", "throw", "thrown", "catch", "caught", "invalid", "wrong", "abort", "crash"})
# a line that raises an error: `raise`, `throw`, a panic, a rejection, Rust's `Err(…)`
_RAISE = re.compile(r"^(?:raise|throw)\b|\bpanic!?\s*\(|(?:^|[.\s(])reject\s*\(\s*[^)\s]|^(?:return\s+)?Err\s*\(")
PREFIX_MIN = 5  # a question's word and a code word this long or longer match when one begins the other


def answer_lines(u: Unit, lines: list[str], words: frozenset[str], shown: list[tuple[int, int]], cap: int) -> list[tuple[int, int]]:
    """The body lines outside `shown` that say most of the answer, at most `cap`, best first, each
    with its score: the question's words its code mentions (comments and string literals aside;
    "connection" meets `connect`, "exceptions" `except`), plus two for a handoff of the result
    (`_HANDOFF`, or the body's last statement), one when it hands on an error (Go's every
    `return nil, err` would fill the cap) — two, and a raise or throw too, when the question asks
    about errors: then they are the answer. A cut body that kept only its call sites showed how
    it calls on, not what it gives back (tower's `Worker::poll` kept its error sends, not
    `msg.tx.send(Ok(response))`)."""
    seen = {n for a, b in shown for n in range(a, b + 1)}
    first, last = u.sig_end_line + 1, min(u.end_line, len(lines))
    code: dict[int, str] = {}
    in_doc = False
    for n in range(first, last + 1):
        raw = lines[n - 1].strip()
        quotes = len(_DOCSTRING.findall(raw))
        if in_doc or quotes:
            in_doc = in_doc != (quotes % 2 == 1)  # a docstring's lines are prose, not code
            continue
        if raw.startswith(("//", "#", "/*", "*")) and not raw.startswith(("#[", "#!")):
            continue
        text = _TRAILING_COMMENT.sub("", _STRING.sub('""', raw))
        if _STATEMENT.search(text):
            code[n] = text
    tail = max(code, default=0)
    about_errors = bool(words & _ERROR_QUESTION)
    scored = []
    for n, text in code.items():
        if n in seen:
            continue
        said = _words_of(text)
        score = _mentions(words, said)
        raises = _RAISE.search(text) is not None
        handoff = n == tail or _HANDOFF.search(text) is not None or (raises and about_errors)
        if handoff:
            score += 2 if about_errors or not (raises or said & _ERROR_WORDS) else 1
        if score:
            scored.append((-score, not handoff, n))
    return [(n, -score) for score, _, n in sorted(scored)[:cap]]


def _mentions(words: frozenset[str], said: frozenset[str]) -> int:
    """How many of the question's `words` a line's `said` words meet, a word or one beginning the
    other when both are PREFIX_MIN long (the stemmer keeps `connection` and `connect` apart)."""
    hits = words & said
    rest = [w for w in words - hits if len(w) >= PREFIX_MIN]
    longer = [c for c in said if len(c) >= PREFIX_MIN]
    return len(hits) + sum(1 for w in rest if any(c.startswith(w) or w.startswith(c) for c in longer))


def _words_of(text: str) -> frozenset[str]:
    return frozenset(stem(w) for ident in _WORD.findall(text) for w in split_words(ident) if w not in _CODE_STOP and len(w) > 1)


def question_words(question: str) -> frozenset[str]:
    """The question's content words, stemmed as a body's are (`Buffer::call` → buffer)."""
    return frozenset(stem(w) for ident in _WORD.findall(question) for w in split_words(ident) if w not in _PROSE and len(w) > 1)


def pack(
    views: dict[str, FileView],
    pieces: list[Piece],
    call_sites: dict[str, list[int]],
    budget: int,
    checkpoint: Callable[[], None],
    alpha: float = 0.5,
    question: str = "",
) -> tuple[list[FileView], list[str]]:
    """Fill `budget` characters; returns the shown files in reading order and the flow's bodies
    that did not fit (the answer names them).

    Sibling skeletons first (small, and they carry a family's shape); then bodies in one order,
    the ranker's probability per character (`alpha` fitted with the weights): two short bodies
    the answer likely needs beat one long one — after the symbols the question names in code form.
    The flow is a feature of that probability, not a commitment. A flow body too large for what
    is left shows as an excerpt: its signature, call sites, and the lines that hand its result on
    or say the `question`'s words — ahead of later excerpts and the bodies off the flow, given
    back to a later flow body that fits whole without them."""
    packer = _Packer(views, budget, checkpoint, question_words(question))
    packer.skeletons()
    # what the question names in code form comes first: the reader asked for it by name
    ranked = sorted(
        (p for p in pieces if not bodiless(p.unit) and (p.path not in views or p.unit.id not in views[p.path].stubs)),
        key=lambda p: (not p.named, -p.score / (_body_chars(views, p) + BODY_OVERHEAD) ** alpha, p.unit.id),
    )
    left_out = packer.ranked_bodies(ranked, call_sites)
    packer.whole_when_mostly_shown()
    packer.more_skeletons(packer.remaining)  # the room no body took: the family's other skeletons
    shown = [v for v in views.values() if v.included]
    for v in shown:
        if v.mode == "skeleton":
            v.order = 2_000 - min(999.0, v.score)
    # the library's own files first, then examples, docs, benchmarks and test support (a flow may start in an
    # example's main block; a reader of the answer meets the library first all the same)
    shown.sort(key=lambda v: (path_prior(v.path) < PLATFORM_PRIOR, v.order, v.path))
    return shown, left_out


class _Packer:
    """The budget left and the views being filled, one step of `pack` per method."""

    def __init__(self, views: dict[str, FileView], budget: int, checkpoint: Callable[[], None], words: frozenset[str] = frozenset()):
        self.views, self.budget, self.remaining, self.checkpoint = views, budget, budget, checkpoint
        self.words = words  # the question's, stemmed: a cut body keeps the lines that say them
        self.shown: list[_Excerpt] = []  # the excerpts shown, in order

    def skeletons(self) -> None:
        """Sibling skeletons first, most relevant first, within their share (at most SKELETON_CAP
        characters): they are small and carry the family's shape, and big bodies must not starve
        them; beyond two or so they take the room of bodies the answer needs. A family file whose
        signatures alone are too big shows bodies only."""
        self.more_skeletons(int(min(SKELETON_SHARE * self.budget, SKELETON_CAP)))
        for view in self.views.values():
            if view.mode == "focused" and view.base:
                if len(view.render(view.base, [], "focused")) > FOCUSED_BASE_SHARE * self.budget:
                    view.base = []

    def more_skeletons(self, reserve: int) -> None:
        """The sibling skeletons not shown yet, most relevant first, while they fit in `reserve`."""
        for view in sorted((v for v in self.views.values() if v.mode == "skeleton" and not v.included), key=lambda v: (-v.score, v.path)):
            text = view.render(view.base, _top_symbols(view), "skeleton")
            if len(text) <= min(reserve, self.remaining):
                view.included, view.text, view.symbols = True, text, _top_symbols(view)
                reserve -= len(text)
                self.remaining -= len(text)
            else:
                view.crowded = True

    def ranked_bodies(self, ranked: list[Piece], call_sites: dict[str, list[int]]) -> list[str]:
        """Each body in the given order while it fits; a flow body (`must`) that does not fit shows
        as an excerpt (`excerpt`), its name marked so, and takes back the answer lines earlier
        excerpts hold when that makes it fit whole (`give_back`). Returns the flow bodies left out."""
        views = self.views
        left_out: list[tuple[int, str]] = []
        defs_by_id: dict[str, dict[str, Unit]] = {}  # path → its definitions by id (a view's defs do not change)
        for i, piece in enumerate(ranked):
            self.checkpoint()
            view = views.get(piece.path)
            if view is None or view.mode in ("skeleton", "full"):
                continue
            by_id = defs_by_id.get(piece.path)
            if by_id is None:
                by_id = defs_by_id[piece.path] = {u.id: u for u in view.defs}
            if restates_params(piece.unit, view.lines) and not _in_small_class(piece.unit, by_id):
                continue  # its signature says all it does
            span = piece_ranges(piece.unit, by_id, view.trait_impls, whole_class=True)
            if _covered(view, span):
                continue  # already shown inside another piece
            name = _shown_name(view, piece.unit)
            trial, text, symbols = _with(view, span, name)
            if len(text) - len(view.text) > self.remaining and piece.must:
                # part of a flow body never displaces a whole one: earlier excerpts give back their answer lines
                fits = lambda: len(_with(view, span, name)[1]) - len(view.text) <= self.remaining  # noqa: E731
                dropped = self.give_back(len(text) - len(view.text) - self.remaining, fits)
                if dropped is not None:
                    left_out += [(k, n) for k, n in dropped]
                    trial, text, symbols = _with(view, span, name)
            if len(text) - len(view.text) > self.remaining:
                view.crowded = True
                if piece.must and not self.excerpt(i, piece, by_id, call_sites.get(piece.unit.id, [])):
                    left_out.append((i, name))
                continue
            self._take(view, piece, trial, text, symbols)
        return [name for _, name in sorted(left_out)]

    def _take(self, view: FileView, piece: Piece, ranges: list[tuple[int, int]], text: str, symbols: list[str]) -> None:
        self.remaining -= len(text) - len(view.text)
        view.ranges, view.text, view.symbols, view.included = ranges, text, symbols, True
        view.spine = view.spine or piece.spine_pos >= 0
        view.order = min(view.order, piece.spine_pos if piece.spine_pos >= 0 else 1_000 - min(999.0, 100 * piece.score))

    def excerpt(self, at: int, piece: Piece, by_id: dict[str, Unit], sites: list[int]) -> bool:
        """A flow body too long for what is left, shown in part at its turn: its signature and call
        sites (`compact_ranges`), then its lines that answer (`answer_lines`: its returns and sends,
        the lines with the question's words) best first while they fit, at most EXCERPT_LINES —
        before later excerpts and the bodies off the flow, given back to any later flow body that
        fits whole without them. False, and nothing shown, when no line of its body fits."""
        view, unit = self.views[piece.path], piece.unit
        name = _shown_name(view, unit) + EXCERPT
        before = (_state(view), self.remaining)
        view.cut[name] = unit
        base = view.base if not view.included else []
        compact = compact_ranges(unit, sites, by_id)
        trial = view.ranges + base + compact
        symbols = view.marked(trial, view.symbols + [name])
        text = view.render(trial, symbols, view.label())
        if len(text) - len(view.text) > self.remaining:
            _restore(view, before[0])
            return False
        self._take(view, piece, trial, text, symbols)
        shown = _Excerpt(at, view, name, compact, any(unit.sig_end_line < n <= unit.end_line for n in sites))
        for n, score in answer_lines(unit, view.lines, self.words, merge_ranges(view.ranges, CLUSTER_GAP), EXCERPT_LINES):
            if name not in view.symbols:
                break  # its answer lines made it whole
            if self._show(view, view.ranges + [(n, n)]):
                shown.lines.append((score, n))
        if not (shown.lines or shown.sites) and name in view.symbols:  # its signature alone is no excerpt
            _restore(view, before[0])
            self.remaining = before[1]
            return False
        self.shown.append(shown)
        return True

    def _show(self, view: FileView, ranges: list[tuple[int, int]]) -> bool:
        """`view` with `ranges` instead when the difference fits; whether it did."""
        symbols = view.marked(ranges, view.symbols)
        text = view.render(ranges, symbols, view.label())
        if len(text) - len(view.text) > self.remaining:
            return False
        self.remaining -= len(text) - len(view.text)
        view.ranges, view.text, view.symbols = ranges, text, symbols
        return True

    def give_back(self, need: int, fits: Callable[[], bool]) -> list[tuple[int, str]] | None:
        """The excerpts' answer lines given back, the least telling and latest first, until `fits()`
        (about `need` characters more than are left); an excerpt left with no line of its body goes
        too. Returns the excerpts so left out (with their places in the order), or None, and
        nothing changed, when all of it would not do."""
        # on a tie, the later excerpt's first, and of one excerpt the line it took last
        lines = sorted((score, -k, -j, n) for k, ex in enumerate(self.shown) for j, (score, n) in enumerate(ex.lines))
        if not lines or need > self._freeable():
            return None
        saved = ([(ex, list(ex.lines)) for ex in self.shown], {id(ex.view): (ex.view, _state(ex.view)) for ex in self.shown}, self.remaining)
        for score, later, _, n in lines:
            ex = self.shown[-later]
            ex.lines.remove((score, n))
            ranges = list(ex.view.ranges)
            ranges.remove((n, n))
            self._set(ex.view, ranges)
            if not ex.lines and not ex.sites and ex.name in ex.view.symbols:
                self._drop(ex)
            if fits():
                dropped = [ex for ex in self.shown if ex.dropped]
                self.shown = [ex for ex in self.shown if not ex.dropped]
                return [(ex.at, ex.name[: -len(EXCERPT)]) for ex in dropped]
        for ex, kept in saved[0]:
            ex.lines, ex.dropped = kept, False
        for view, state in saved[1].values():
            _restore(view, state)
        self.remaining = saved[2]
        return None

    def _freeable(self) -> int:
        """At most what giving every answer line back frees: a line's text, number, tab, newline and
        an elision mark; an excerpt that goes with them, at most its file's section."""
        lines = sum(len(ex.view.lines[n - 1]) + len(str(n)) + 4 for ex in self.shown for _, n in ex.lines)
        return lines + sum(len(ex.view.text) for ex in self.shown if not ex.sites and ex.lines)

    def _set(self, view: FileView, ranges: list[tuple[int, int]], symbols: list[str] | None = None) -> None:
        """`view` re-rendered with `ranges` (and `symbols`), the budget paying or refunded the difference."""
        symbols = view.marked(ranges, view.symbols if symbols is None else symbols)
        text = view.render(ranges, symbols, view.label()) if symbols or ranges else ""
        self.remaining -= len(text) - len(view.text)
        view.ranges, view.text, view.symbols = ranges, text, symbols

    def _drop(self, ex: "_Excerpt") -> None:
        """An excerpt taken out whole: its signature and call sites, and the file's signatures when
        they came with it and nothing else is shown."""
        view = ex.view
        ranges = list(view.ranges)
        for r in ex.compact:
            ranges.remove(r)
        symbols = [s for s in view.symbols if s != ex.name]
        if not symbols:
            ranges = []
            view.included, view.spine, view.order = False, False, float("inf")
        self._set(view, ranges, symbols)
        del view.cut[ex.name]
        ex.dropped = True

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


@dataclass
class _Excerpt:
    """A flow body shown in part, and what it added: given back line by line, or whole."""

    at: int  # its place in the packing order
    view: FileView
    name: str  # marked
    compact: list[tuple[int, int]]  # its signature and call sites (`compact_ranges`)
    sites: bool  # it calls on from its body: the call sites are lines of it
    lines: list[tuple[int, int]] = field(default_factory=list)  # (score, line) of its answer lines shown
    dropped: bool = False


def _with(view: FileView, span: list[tuple[int, int]], name: str) -> tuple[list[tuple[int, int]], str, list[str]]:
    """The view's ranges, text and symbols with a body's `span` shown (and the file's signatures,
    when it is the first thing the file shows)."""
    trial = view.ranges + (view.base if not view.included else []) + span
    symbols = view.marked(trial, view.symbols + [name])
    return trial, view.render(trial, symbols, view.label()), symbols


def _state(view: FileView) -> tuple:
    return view.ranges, view.text, view.symbols, view.included, view.spine, view.order, dict(view.cut)


def _restore(view: FileView, state: tuple) -> None:
    view.ranges, view.text, view.symbols, view.included, view.spine, view.order, view.cut = state


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


def _covered(view: FileView, span: list[tuple[int, int]]) -> bool:
    return all(any(a <= s and e <= b for a, b in view.ranges) for s, e in span)


def _body_chars(views: dict[str, FileView], piece: Piece) -> int:
    view = views.get(piece.path)
    return sum(len(line) + 8 for line in view.lines[piece.unit.start_line - 1 : piece.unit.end_line]) if view else 0


def _top_symbols(view: FileView) -> list[str]:
    return [_shown_name(view, u) for u in view.defs if u.parent is None and u.id not in view.stubs][:12]


def _shown_name(view: FileView, unit: Unit) -> str:
    """A unit's name in a heading or the footer; a name the file defines more than once (two nested
    `view` functions, a getter and its setter, overloads) with its line, so a reader tells them apart."""
    if view.name_counts is None:  # an `@overload` declaration is no second definition of its name
        view.name_counts = Counter(u.qualname for u in view.defs if u.id not in view.stubs)
    return f"{unit.qualname}@{unit.start_line}" if view.name_counts[unit.qualname] > 1 else unit.qualname


def file_view(path: str, mode: str, reason: str, score: float, source: bytes, units: list[Unit]) -> FileView:
    defs = [u for u in units if u.kind != "statement"]
    base = signature_ranges(defs) if mode in ("skeleton", "focused") else []
    lines = _lines_of(source)
    return FileView(path, mode, reason, score, lines, defs, base, stubs=shadowed_stubs(defs, lines))


_OVERLOAD = re.compile(r"@(?:[\w.]+\.)?overload\b")
_ELLIPSIS = re.compile(r":\s*\.\.\.\s*(?:#.*)?$")  # `def f(…) -> T: ...`


def stub(u: Unit, lines: list[str]) -> bool:
    """A declaration, not code that runs: bodiless (an interface's method), a Python `@overload`, or
    a body that is only `...` (`bodiless` counts the `...` as a body: it is one, byte-wise)."""
    if bodiless(u):
        return True
    if not u.is_callable:
        return False
    if any(_OVERLOAD.match(d) for d in u.decorators):
        return True
    if u.end_line - u.sig_end_line > 2:
        return False  # more than `...` on a line of its own
    body = [line.strip() for line in lines[u.sig_end_line : u.end_line] if line.strip()]
    last = lines[u.sig_end_line - 1] if 0 < u.sig_end_line <= len(lines) else ""
    return (not body and _ELLIPSIS.search(last) is not None) or body == ["..."]


def shadowed_stubs(defs: list[Unit], lines: list[str]) -> frozenset[str]:
    """The declarations (`stub`) of a name the file also implements: `compile`'s two `@overload`s
    beside `compile` itself. The implementation is the body; the declarations take no body's place."""
    stubs = {u.id: u.qualname for u in defs if u.is_callable and stub(u, lines)}
    if not stubs:
        return frozenset()
    implemented = {u.qualname for u in defs if u.is_callable and u.id not in stubs}
    return frozenset(uid for uid, q in stubs.items() if q in implemented)


_split: dict[int, tuple[bytes, list[str]]] = {}  # id(source) → (source, its lines): read-only, shared by views


def _lines_of(source: bytes) -> list[str]:
    """A source's lines, one list per source object: the next question's views of the same file
    (the index keeps a file's bytes until it changes) meet the lines already split, key blocks
    found and numbered lines formatted (render/markdown.py caches by the list)."""
    hit = _split.get(id(source))
    if hit is not None and hit[0] is source:
        return hit[1]
    if len(_split) > 512:
        _split.clear()
    lines = split_lines(source)
    _split[id(source)] = (source, lines)
    return lines


__all__ = ["FileView", "Piece", "bodiless", "file_view", "pack"]
