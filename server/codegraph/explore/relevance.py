"""Query understanding and relevance: named symbols, BM25 word matches, local graph ranking.

A named symbol (an exact, code-shaped match such as `RealCall.execute` or `_fetch_all`)
always outranks a word match; a word match never spares a file. Plain-language questions
still find code: identifiers split into words, light stemming, protocol words map to their
dunder/constructor forms.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from operator import sub
from typing import Callable

import networkx as nx  # noqa: F401 - the graph type

from ..index.facts import FileFacts, Unit
from ..workspace.scope import is_side_module, is_test_path
from .prior import TEST_SUPPORT_DIR, TEST_SUPPORT_NAME, path_prior, prefer_main  # noqa: F401 - read from here too

_IDENT = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|#|:)[A-Za-z_$][\w$]*)*(?:/\d+)?")
_QUOTED = re.compile(r"[`'\"]([^`'\"\s]+)[`'\"]")
_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")
STOP = frozenset(
    "a an the and or of to in on for with by from at as is are was be been it its this that these those how what when where why which who "
    "does do did doing done can could should would will into through via then than there their them they we you your our my me i "
    "get gets set use uses used using work works call calls called make makes made code file files function functions method methods "
    "class classes go goes happen happens happening flow path way find show explain about between each every all any some".split()
)
# prose idioms whose words name no code: "how do the headers end up flattened", "ends up calling",
# "how does a request reach the view" (the relation asked about, on eight fit questions of seven corpora;
# as a word it matched `_reached_line`, `_type_reach`: graph reachability, not the asker's subject),
# the asker's guidance "walk me through …", "trace it from …", "take us along …", and the asker's own
# action on the program ("when I run `tool file`", "a user runs my CLI"): the verb says who acts, not what code
_IDIOM_WORDS = re.compile(
    r"(?:end|ends|ended|ending)\s+up\b|\breach(?:es|ed|ing)?\b|"
    r"\b(?:walk|take|step|talk|trace|follow|lead|guide)s?\s+(?:me|us|it|this|them)\s+(?:through|from|along|across|over)\b|"
    r"\b(?:I|we|you|users?|program|app|script)\s+(?:run|runs|ran|invoke[sd]?|execute[sd]?|start(?:s|ed)?|launch(?:es|ed)?)\b",
    re.IGNORECASE,
)
# words of a question's prose that name no code, though code spells them (`if`, `defaultIfEmpty`;
# "come" stems to `com`)
QUESTION_STOP = frozenset("if come comes came coming".split())
PROTOCOL_WORDS = {
    "iterate": ["__iter__", "__next__"], "iterating": ["__iter__", "__next__"], "iteration": ["__iter__", "__next__"],
    "iter": ["__iter__"], "init": ["__init__", "constructor"], "construct": ["__init__", "constructor"],
    "constructor": ["__init__", "constructor"], "call": ["__call__"], "str": ["__str__"], "repr": ["__repr__"],
    "len": ["__len__"], "length": ["__len__"], "index": ["__getitem__"], "subscript": ["__getitem__"],
    "enter": ["__enter__"], "exit": ["__exit__"], "await": ["__await__"], "hash": ["__hash__"], "compare": ["__eq__", "__lt__"],
}


def split_words(identifier: str) -> list[str]:
    return list(_split_words(identifier))


@lru_cache(maxsize=262_144)
def _split_words(identifier: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _SPLIT.findall(identifier))


@lru_cache(maxsize=262_144)
def stem(word: str) -> str:
    """Light, consistent stemming: plurals, -ing, -ed, and a final e (iterate/iterating/iterated)."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    return not before or before[-1] in ".?!:;\n"


def looks_like_code(token: str) -> bool:
    # an acronym in prose ("HTTP", "URL", "JSON") is a word, not a symbol; ITEM_PIPELINES is code
    if re.fullmatch(r"[A-Z]{2,5}s?", token):
        return False
    return bool(re.search(r"[._:#$]|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|^__", token)) or (token[:1].isupper() and len(token) > 1)


@dataclass
class Query:
    text: str
    named: dict[str, list[Unit]] = field(default_factory=dict)  # token → units it names exactly
    weak: dict[str, list[Unit]] = field(default_factory=dict)  # plain words that equal a unit name
    words: list[str] = field(default_factory=list)  # stemmed content words
    paths: list[str] = field(default_factory=list)  # files named by path
    name_counts: dict[str, int] = field(default_factory=dict)  # unit name → number of definitions
    data_names: list[str] = field(default_factory=list)  # code-form names no definition has (`ITEM_PIPELINES`)

    def named_units(self) -> list[Unit]:
        seen: dict[str, Unit] = {}
        for units in self.named.values():
            for u in units:
                seen.setdefault(u.id, u)
        return list(seen.values())


class NameTable:
    """name → units and qualified-suffix → units for exact symbol lookup, built once per version
    (`updated` carries it to the next version, reading only the files that changed)."""

    def __init__(self, files: dict[str, FileFacts], crates: dict[str, str] | None = None, sources: dict[str, bytes] | None = None) -> None:
        # the code base's Rust crates (name → directory): `toml::from_str` names the crate's own item
        self.crates = crates or {}
        self.sources = sources  # the files' text, to tell an overload that only hands over (`_without_handovers`)
        self.by_name: dict[str, list[Unit]] = defaultdict(list)
        self.by_qual: dict[str, list[Unit]] = defaultdict(list)
        # module-level statements by the name they assign (`current_app = LocalProxy(…)`): found
        # only when no definition has the name
        self.assigned: dict[str, list[Unit]] = defaultdict(list)
        self._instances: dict[str, set[str]] | None = None  # `instance_of`, read on first need
        self._read: dict[str, FileFacts] = dict(files)  # what the tables were read from
        for facts in files.values():
            for table, entries in zip(self._tables(), _name_entries(facts)):
                for key, units in entries.items():
                    table[key].extend(units)

    def _tables(self) -> tuple[dict[str, list[Unit]], dict[str, list[Unit]], dict[str, list[Unit]]]:
        return self.by_name, self.by_qual, self.assigned

    def updated(self, files: dict[str, FileFacts], crates: dict[str, str] | None = None, sources: dict[str, bytes] | None = None) -> "NameTable":
        """This table for a new version of `files`: what `NameTable(files, crates, sources)` builds,
        in the same order, reading only the files whose facts changed (as `WordIndex.updated`)."""
        changed = {p for p, f in files.items() if self._read.get(p) is not f} | (self._read.keys() - files.keys())
        kept = [p for p in self._read if p not in changed]
        if len(changed) > max(WordIndex.REBUILD_FILES, WordIndex.REBUILD_SHARE * len(files)) or kept != [p for p in files if p not in changed]:
            return NameTable(files, crates, sources)
        new = NameTable({}, crates, sources)
        new._read = dict(files)
        old_rank = {p: i for i, p in enumerate(self._read)}
        new_rank = {p: i for i, p in enumerate(files)}
        gone = sorted((old_rank[p] for p in changed if p in old_rank), reverse=True)
        fresh = {p: _name_entries(files[p]) for p in changed & files.keys()}
        was = [_name_entries(self._read[p]) for p in changed & self._read.keys()]
        for t, (old, table) in enumerate(zip(self._tables(), new._tables())):
            table.update(old)
            for key in {k for e in list(fresh.values()) + was for k in e[t]}:
                blocks = sorted(((new_rank[p], e[t][key]) for p, e in fresh.items() if key in e[t]), reverse=True)
                units = _spliced(list(old.get(key, ())), gone, blocks, lambda u: old_rank[u.path], lambda u: new_rank[u.path])
                if units:
                    table[key] = units
                else:
                    table.pop(key, None)
        return new

    def lookup(self, token: str, files: dict[str, FileFacts], from_crate_root: bool = True) -> list[Unit]:
        token = re.sub(r"/\d+$", "", token)
        crate, sep, rest = token.partition("::")
        if from_crate_root and sep and rest and crate in self.crates:
            return self._in_crate(self.crates[crate], rest, files)
        token = token.replace("::", ".").replace("#", ".").replace(":", ".")
        if "." not in token:
            return list(self.by_name.get(token, ()) or self.assigned.get(token, ()))
        hits = list(self.by_qual.get(token, ()))
        if hits:
            return hits
        head, _, name = token.rpartition(".")
        hits = [u for t in sorted(self.instance_of(files).get(head, ())) for u in self.by_qual.get(f"{t}.{name}", ())]
        if hits:
            return hits
        defs = self.by_name.get(name, ())
        # `pkg.func` / `module.Class`: the name inside a module or package called that
        head_path = head.replace(".", "/")

        def in_module(u: Unit) -> bool:
            stem_ = "/" + u.path.rsplit(".", 1)[0]
            facts = files.get(u.path)
            return stem_.endswith("/" + head_path) or ("/" + head_path + "/") in stem_ or (facts is not None and facts.package == head)

        by_module = [u for u in defs if in_module(u)]
        if by_module:
            # `requests.get`, `click.command`: what the module (or package) defines at its top level, not a
            # method of that name in one of its classes (`Session.get`, `Group.command`)
            return [u for u in by_module if u.parent is None] or by_module
        # `r.Route(...)`, `ctx.push()`: a method called on a variable; the methods of that name
        if head[:1].islower() and "." not in head:
            methods = [u for u in defs if u.parent is not None and u.is_callable]
            # the receiver's name agrees with its type's (`imageLoader` ↔ `RealImageLoader`), or
            # with the type an extension function extends (`channel.reader()` ↔ `fun Channel.reader()`)
            owner = head.replace("_", "").lower()
            agree = [
                u for u in methods
                if len(owner) >= 4 and _owner_segment(u.qualname).replace("_", "").lower().endswith(owner) and path_prior(u.path) == 1.0
            ] + [
                u for u in defs
                if len(owner) >= 4 and u.parent is None and u.is_callable and u.ext_type
                and _type_word(u.ext_type).endswith(owner) and path_prior(u.path) >= 0.6  # a platform's own types
            ]
            return agree or methods
        return []

    def instance_of(self, files: dict[str, FileFacts]) -> dict[str, set[str]]:
        """A module-level name bound to one construction (`export const NestFactory = new
        NestFactoryStatic()`) → the type it holds: `NestFactory.create` names that type's member."""
        if self._instances is None:
            found: dict[str, set[str]] = defaultdict(set)
            for facts in files.values():
                tops = {u.id: u.name.rsplit(".", 1)[-1] for u in facts.units if u.kind == "statement" and u.parent is None}
                if not tops:
                    continue
                constructs: dict[str, list[str]] = defaultdict(list)
                for c in facts.calls:
                    if c.construct and c.caller in tops:
                        constructs[c.caller].append(c.name)
                for uid, names in constructs.items():
                    bound = tops[uid]  # `exports.NestFactory`, `module.exports.app`
                    if len(names) == 1 and bound.isidentifier():
                        found[bound].add(names[0])
            self._instances = found
        return self._instances

    def _in_crate(self, crate_dir: str, path: str, files: dict[str, FileFacts]) -> list[Unit]:
        """`toml::from_str`, `toml::de::Deserializer`: a path from a crate's root names what the crate
        defines or re-exports, never a method of that name (`Datetime::from_str`): the crate's own
        units first (a re-export from a sibling crate of the workspace otherwise), items before members."""
        segments = path.split("::")
        hits: list[Unit] = []
        for i in range(len(segments)):  # `de::Deserializer::new`: the module path, then what it holds
            modules = segments[:i]
            hits = [
                u for u in self.lookup("::".join(segments[i:]), files, from_crate_root=False)  # linear, not exponential
                if all(f"/{m}/" in f"/{u.path}" or u.path.endswith(f"/{m}.rs") for m in modules)
            ]
            if hits:
                break
        own = [u for u in hits if not crate_dir or u.path.startswith(crate_dir + "/")]
        hits = own or hits
        if i == len(segments) - 1:  # a bare name after the modules: an item, not a member
            hits = [u for u in hits if u.parent is None] or hits
        return hits


def _owner_segment(qualname: str) -> str:
    """`Loader.Builder.build` → "Builder": the name of what defines a member; "" for a member
    whose owner is no named type (an object literal's method inside a module statement)."""
    parts = qualname.rsplit(".", 2)
    return parts[-2] if len(parts) >= 2 else ""


def _type_word(type_text: str) -> str:
    """`net.Channel`, `List<Channel>?` → "channel": the extended type's own name, lowercased."""
    base = re.split(r"[<?\[(\s]", type_text.strip(), maxsplit=1)[0]
    return base.rsplit(".", 1)[-1].replace("_", "").lower()


def _without_overload_signatures(units: list[Unit]) -> list[Unit]:
    """TypeScript's overload signatures and Python's `@overload` stubs are declarations of the one
    implementation beside them: one definition to the question, not a dozen. (Overloads with
    bodies of their own, as in Java and Kotlin, stay: each is code.)"""
    def has_body(u: Unit) -> bool:
        # more than a `;` after the signature, and no `@overload` stub (`...`)
        return u.end_byte - u.sig_end_byte > 2 and not any(d.split("(")[0].endswith("overload") for d in u.decorators)

    with_body = {(u.path, u.qualname) for u in units if has_body(u)}
    return [u for u in units if has_body(u) or (u.path, u.qualname) not in with_body]


# a call on a sibling overload is written bare or on the object itself (`super.m(…)` calls the parent's)
_OWN_RECEIVERS = frozenset({"", "this", "self"})
# what a body that only hands over says besides the call: braces, `return`, `=` of an expression body
_HANDOVER_FILLER = re.compile(rb"\s+|[{};=]|\breturn\b")


def _without_handovers(units: list[Unit], files: dict[str, FileFacts], sources: dict[str, bytes] | None) -> list[Unit]:
    """Overloads with bodies of their own (Java, Kotlin) are one method to the asker, and many
    are doors whose body only calls a sibling overload with a default filled in (`adapter(type)`
    → `return adapter(type, NO_ANNOTATIONS);`): the code the name points at is the overload that
    does the work. The doors leave the named hits, so the name is one definition (a flow anchor,
    shown first), not six a question cannot choose between; an overload that does anything more
    before handing over (checks, a dispatch to another thread) stays, and so does the biggest,
    which calls its own name when it recurses."""
    # overloads share their owner and kind: two closures assigned alike in two functions
    # (`app.mount = …` in `createApp` and in `createSSRApp`) are two definitions, not one
    groups: dict[tuple[str, str, str | None, str], list[Unit]] = defaultdict(list)
    for u in units:
        if u.is_callable:
            groups[(u.path, u.qualname, u.parent, u.kind)].append(u)
    doors: set[str] = set()
    for (path, *_), overloads in groups.items():
        source = sources.get(path) if sources is not None else None
        if len(overloads) < 2 or path not in files or source is None:
            continue
        worker = max(overloads, key=lambda u: (u.end_byte - u.start_byte, u.id))
        others = {u.id: u for u in overloads if u is not worker}
        handovers: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for c in files[path].calls:
            if c.caller in others and c.name == others[c.caller].name and c.receiver in _OWN_RECEIVERS:
                handovers[c.caller].append((c.start_byte, c.end_byte))
        doors |= {uid for uid, spans in handovers.items() if _only_hands_over(others[uid], spans, source)}
    return [u for u in units if u.id not in doors]


def _only_hands_over(u: Unit, calls: list[tuple[int, int]], source: bytes) -> bool:
    """Whether a body says nothing but these calls (and braces, `return`)."""
    rest, at = [], u.sig_end_byte
    for start, end in sorted(calls):
        if start >= at:
            rest.append(source[at:start])
            at = max(at, end)
    rest.append(source[at : u.end_byte])
    return not _HANDOVER_FILLER.sub(b"", b"".join(rest))


MAX_ALIKE_MEMBERS = 3  # as many definitions as a named symbol may have and still anchor the flow


def _function_over_methods(units: list[Unit], member_form: bool, files: dict[str, FileFacts]) -> list[Unit]:
    """A bare name in code form (`from_str`, not `x.from_str` or `Number::from_str`) names the code
    base's function of that name when it has one, as `pkg.func` does: its few methods called alike
    (`Deserializer::from_str`, `Number::from_str`) are named by their owner. Written as a member
    (`.pipe(…)`, "the `get()` method") it names the methods, and so does a name that many types
    define (`get`: the handlers' method, not a module's helper). A function off the main path or
    in tests (an example's helper) never takes the name from the methods, nor does one that hands
    over to a method of its name (Go's package-level `SetConfigName` calling `v.SetConfigName`):
    that method is the work."""
    if member_form:
        return units
    best = max((path_prior(u.path) for u in units), default=1.0)
    top = [
        u for u in units
        if u.is_callable and u.parent is None and "." not in u.qualname and path_prior(u.path) >= best and not is_test_path(u.path)
    ]
    others = [u for u in units if u not in top]
    alike = [u for u in others if u.is_callable and not is_test_path(u.path)]
    if not top or not others or len(alike) > MAX_ALIKE_MEMBERS:
        return units
    ids, name = {u.id for u in top}, top[0].name
    wraps = bool(alike) and any(c.caller in ids and c.name == name for path in {u.path for u in top} if path in files for c in files[path].calls)
    return units if wraps else top


# "the `get()` method", "`send` methods": the asker calls the name a member
_METHOD_AFTER = re.compile(r"[`'\"]?(?:\([^()]*\))?[`'\"]?\s+methods?\b", re.IGNORECASE)


def _member_form(text: str, start: int, end: int) -> bool:
    """A name written as a member: after a dot (`x.pipe(…)`) or called a method."""
    return text[start - 1 : start] == "." or _METHOD_AFTER.match(text, end) is not None


def _in_idiom(text: str, at: int) -> bool:
    """A word of a prose idiom ("end up")."""
    return any(m.start() <= at < m.end() for m in _IDIOM_WORDS.finditer(text, max(0, at - 30), at + 30))


def parse_query(text: str, files: dict[str, FileFacts], names: NameTable) -> Query:
    q = Query(text)
    for quoted in _QUOTED.findall(text):
        if "/" in quoted or re.search(r"\.\w{1,4}$", quoted):
            hits = [p for p in files if p == quoted or p.endswith("/" + quoted.lstrip("./"))]
            q.paths += [h for h in hits if h not in q.paths]
    seen_words: list[str] = []
    quoted = [m.span() for m in re.finditer(r"`[^`\n]+`", text)]  # `request`: code by the writer's mark
    for match in _IDENT.finditer(text):
        token = match.group(0).strip(":.")
        if not token:
            continue
        hits = _without_overload_signatures(names.lookup(token, files))
        # call syntax, or backticks, make code of any word: `subscribe()`, `.pipe(map(…))`, `request`
        called = len(token) > 1 and (text[match.end() : match.end() + 1] == "(" or any(a < match.start() < b for a, b in quoted))
        plain_title = re.fullmatch(r"[A-Z][a-z]+", token) is not None
        idiom = _in_idiom(text, match.start())
        if idiom or (plain_title and (token.lower() in STOP or _sentence_start(text, match.start()))):
            hits = []  # "When …" opening a sentence is English, not Django's `When`
        if not hits and re.fullmatch(r"[a-z]{3,}s", token):
            # a plural names the type of that name: "how are their loads compared" → the `Load` trait
            hits = [u for u in names.by_name.get(token[:-1].capitalize(), ()) if u.is_type]
        data_form = re.search(r"_|[a-z][A-Z]", token) is not None  # `ITEM_PIPELINES`, `PersistentPreRun`, not "How"
        if data_form and "." not in token and all(u.kind == "statement" for u in hits) and token not in q.data_names:
            q.data_names.append(token)
        if hits and (called or looks_like_code(token)):
            # what a name in code form points at (a plain word equal to a name is no such choice:
            # "retry" in prose is the task's method, not a module's helper of that name)
            hits = _without_handovers(hits, files, names.sources)
            if not re.search(r"[.:#]", token):
                hits = _function_over_methods(hits, _member_form(text, match.start(), match.end()), files)
            q.named[token] = hits
            for part in re.split(r"[.:#]+", token):
                q.name_counts[part] = len(names.by_name.get(part, ()))
        elif hits and token.lower() not in STOP and len(token) > 2:
            q.weak[token] = hits
            q.name_counts[token] = len(hits)
        for part in re.split(r"[.:#/]+", token) if not idiom else ():
            for w in split_words(part):
                if w not in STOP and w not in QUESTION_STOP and len(w) > 1:
                    seen_words.append(stem(w))
                    for dunder in PROTOCOL_WORDS.get(w, ()):
                        if names.by_name.get(dunder):
                            q.weak.setdefault(dunder, list(names.by_name[dunder]))
    q.words = list(dict.fromkeys(seen_words))
    return q



_BODY_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{2,}")


class WordIndex:
    """BM25 over units: what a unit is called (name words thrice, qualname/doc/path once) and
    what it does (the names it calls, and every identifier, comment and string word of its
    body, once each), so plain words find the code doing the thing.

    A new index version reads again only the files whose facts or source changed (`updated`):
    after an edit, explore's first question does not pay for every file's words."""

    K1, B = 1.2, 0.75
    # an update touching more of the files than this share, and more than REBUILD_FILES of them (a
    # branch switch), reads them all; a small workspace is always updated (either is quick there)
    REBUILD_SHARE, REBUILD_FILES = 0.1, 16

    def __init__(self, files: dict[str, FileFacts], sources: dict[str, bytes] | None = None) -> None:
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)
        self.lengths: dict[str, int] = {}
        self.units: dict[str, Unit] = {}
        self._read: dict[str, tuple[FileFacts, bytes | None]] = {}  # path → what its words were read from
        words_of: dict[bytes, list[str]] = {}  # identifier → its stemmed words (identifiers repeat a lot)
        for path, facts in files.items():
            source = sources.get(facts.path) if sources is not None else None
            self._read[path] = (facts, source)
            for u, bag in _unit_bags(facts, source, words_of):
                self.units[u.id] = u
                self.lengths[u.id] = sum(bag.values())
                for w, tf in bag.items():
                    self.postings[w][u.id] = tf
        self._measure()

    def _measure(self) -> None:
        self.avg = (sum(self.lengths.values()) / len(self.lengths)) if self.lengths else 1.0
        # per unit, what its length adds to a term's saturation (the same expression `score_by_word` reads)
        self.norm = {uid: self.K1 * (1 - self.B + self.B * n / self.avg) for uid, n in self.lengths.items()}
        self._weights: dict[object, dict[str, float]] = {}  # weighted(): key → unit id → weight, filled as met

    def updated(self, files: dict[str, FileFacts], sources: dict[str, bytes] | None = None) -> "WordIndex":
        """This index for a new version of `files`: the same tables, in the same order, as
        `WordIndex(files, sources)` builds, reading only the files whose facts or source object
        changed. The index replaces a changed file's facts and keeps the others' objects."""
        src = (lambda path: sources.get(path)) if sources is not None else (lambda path: None)
        changed = {p for p, f in files.items() if (r := self._read.get(p)) is None or r[0] is not f or r[1] is not src(f.path)}
        changed |= self._read.keys() - files.keys()
        kept = [p for p in self._read if p not in changed]
        if len(changed) > max(self.REBUILD_FILES, self.REBUILD_SHARE * len(files)) or kept != [p for p in files if p not in changed]:
            return WordIndex(files, sources)
        new = WordIndex({}, None)
        new._read = {p: (f, src(f.path)) for p, f in files.items()}
        # the changed files' units, as they were and as they are now
        gone: set[str] = set()
        for p in changed & self._read.keys():
            gone.update(u.id for u in self._read[p][0].units if u.kind != "statement")
        fresh: dict[str, dict[str, dict[str, int]]] = {}  # path → word → {unit id: tf}, in the file's order
        fresh_units: dict[str, Unit] = {}
        fresh_lengths: dict[str, int] = {}
        words_of: dict[bytes, list[str]] = {}
        for p in changed & files.keys():
            facts = files[p]
            per_word: dict[str, dict[str, int]] = defaultdict(dict)
            for u, bag in _unit_bags(facts, src(facts.path), words_of):
                fresh_units[u.id] = u
                fresh_lengths[u.id] = sum(bag.values())
                for w, tf in bag.items():
                    per_word[w][u.id] = tf
            fresh[p] = per_word
        # units and lengths in the files' order, as a full build inserts them
        for p, facts in files.items():
            old_units, old_lengths = (fresh_units, fresh_lengths) if p in changed else (self.units, self.lengths)
            for u in facts.units:
                if u.kind != "statement" and u.id not in new.units:
                    new.units[u.id] = old_units[u.id]
                    new.lengths[u.id] = old_lengths[u.id]
        postings = defaultdict(dict, self.postings.items())  # a stored index's too (persist.py)
        # every word a changed file's units hold, as they were or are now: those postings are rebuilt
        affected = {w for per_word in fresh.values() for w in per_word}
        for p in changed & self._read.keys():
            facts, source = self._read[p]
            for _, bag in _unit_bags(facts, source, words_of):
                affected.update(bag)
        # a posting lists its units in the files' order: each changed file's entries are one run (`_spliced`)
        old_rank = {p: i for i, p in enumerate(self._read)}
        new_rank = {p: i for i, p in enumerate(files)}
        old_units, now = self.units, new.units
        gone_files = sorted((old_rank[p] for p in changed if p in old_rank), reverse=True)
        for w in affected:
            blocks = sorted(((new_rank[p], list(per_word[w].items())) for p, per_word in fresh.items() if w in per_word), reverse=True)
            items = _spliced(list(self.postings.get(w, {}).items()), gone_files, blocks,
                             lambda it: old_rank[old_units[it[0]].path], lambda it: new_rank[now[it[0]].path])
            if items:
                postings[w] = dict(items)
            else:
                postings.pop(w, None)
        new.postings = postings
        new._measure()
        return new

    def score(self, words: list[str]) -> dict[str, float]:
        out: dict[str, float] = defaultdict(float)
        for per_word in self.score_by_word(words).values():
            for uid, s in per_word.items():
                out[uid] += s
        return out

    def weighted(self, words: list[str], key: object, weight: Callable[[Unit], float]) -> list[tuple[float, str]]:
        """(BM25 × weight(unit), unit id) for every unit a word matches whose weight is not 0, in
        the order `score` meets them, with `score`'s sums. A weight depends on the unit alone: it
        is kept per `key` for this version, and a unit of weight 0 costs no arithmetic."""
        weights = self._weights.setdefault(key, {})
        n = max(1, len(self.lengths))
        k1p, norm, units = self.K1 + 1, self.norm, self.units
        acc: dict[str, float] = {}
        for w in words:
            posting = self.postings.get(w)
            if not posting:
                continue
            idf = math.log(1 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            for uid, tf in posting.items():
                wt = weights.get(uid)
                if wt is None:
                    wt = weights[uid] = weight(units[uid])
                if wt:
                    acc[uid] = acc.get(uid, 0.0) + idf * tf * k1p / (tf + norm[uid])
        return [(s * weights[uid], uid) for uid, s in acc.items()]

    def score_by_word(self, words: list[str]) -> dict[str, dict[str, float]]:
        """word → {unit id: that word's BM25 contribution}."""
        n = max(1, len(self.lengths))
        out: dict[str, dict[str, float]] = {}
        for w in words:
            posting = self.postings.get(w)
            if not posting:
                continue
            idf = math.log(1 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            out[w] = {
                uid: idf * tf * (self.K1 + 1) / (tf + self.K1 * (1 - self.B + self.B * self.lengths[uid] / self.avg))
                for uid, tf in posting.items()
            }
        return out


TYPE_RELATIONS = ("extends", "implements")


def rank_on_ranked_graph(graph: nx.MultiDiGraph, likely, seeds: dict[str, float], hops: int = 3, limit: int = 2500, into_limit: int = 60, ways_memo: dict | None = None) -> dict[str, float]:
    """Personalized PageRank over the ranked graph: resolved and likely call/reference edges
    weighted by their confidence, plus the proven type relations (extends, implements).

    Callers (`into`) are asked only of the strongest nodes: that lookup reads other files.
    `ways_memo` keeps each node's ways, and under `(node, "into")` its callers, for the graphs'
    version (they depend on nothing else; the explore tables hold it)."""
    if not seeds:
        return {}
    weight = {s: w for s, w in seeds.items() if s in graph}
    frontier = sorted(weight, key=lambda s: (-weight[s], s))
    local = set(frontier)
    edges: dict[str, dict[str, float]] = defaultdict(dict)
    asked_into = 0
    # the adjacency dicts themselves, in the order `out_edges`/`in_edges` walk them: a view per
    # node cost more than the walk
    succ, pred = graph._succ, graph._pred  # noqa: SLF001
    memo = ways_memo if ways_memo is not None else {}

    def link(a: str, b: str, w: float) -> None:
        if a != b:
            out_a = edges[a]
            out_a[b] = max(out_a.get(b, 0.0), w)
            out_b = edges[b]
            out_b[a] = max(out_b.get(a, 0.0), w * 0.5)  # callers matter, less than callees

    for depth in range(hops):
        nxt: list[str] = []
        for node in frontier:
            ways = memo.get(node)
            if ways is None:
                # the node's callees and its type relations (out, then in), in the order the walk links them
                found = [(e.dst, e.confidence) for e in likely.out(node)]
                found += [(dst, 0.5) for dst, keys in succ.get(node, {}).items() for k in keys if k in TYPE_RELATIONS]
                found += [(src, 0.3) for src, keys in pred.get(node, {}).items() for k in keys if k in TYPE_RELATIONS]
                # with link()'s weights, floored at 0 as its max(…, 0.0) floors them
                ways = memo[node] = tuple((other, max(0.0, w), max(0.0, w * 0.5)) for other, w in found)
            out_a = edges[node] if ways else None
            for other, w, back in ways:
                if other != node:  # link(node, other, w), inline: the walk's hottest call
                    had = out_a.get(other)
                    if had is None or w > had:
                        out_a[other] = w
                    out_b = edges[other]
                    had = out_b.get(node)
                    if had is None or back > had:
                        out_b[node] = back
                if other not in local:
                    local.add(other)
                    nxt.append(other)
            if depth == 0 and asked_into < into_limit:
                asked_into += 1
                callers = memo.get((node, "into"))
                if callers is None:
                    callers = memo[(node, "into")] = tuple((e.src, e.confidence) for e in likely.into(node))
                for src, w in callers:
                    link(src, node, w)
                    if src not in local:
                        local.add(src)
                        nxt.append(src)
            if len(local) >= limit:
                break
        frontier = nxt
        if not frontier or len(local) >= limit:
            break
    return _pagerank(local, edges, seeds)


# The power iteration stops when a round moves the ranks by less than this (L1 over ranks that
# sum to 1). 1e-3 rather than 1e-4: 17–22 rounds instead of 24–30 on Django; the ranker, which
# reads `ppr`, was refitted on these ranks and quality held (docs/explore.md).
PPR_TOLERANCE = 1e-3


def _pagerank(local: set[str], edges: dict[str, dict[str, float]], seeds: dict[str, float], alpha: float = 0.75) -> dict[str, float]:
    """Power iteration restarting at the seeds; a node without out-edges gives its rank back
    to the seeds."""
    total = sum(seeds.get(n, 0.0) for n in local)
    if total <= 0:
        return {}
    restart = {n: seeds.get(n, 0.0) / total for n in local}
    # nodes as positions and out-edges as (position, share) lists: the same iteration as over
    # dicts, at a fraction of the cost
    nodes = sorted(local)
    at = {n: i for i, n in enumerate(nodes)}
    start = [restart[n] for n in nodes]
    seeded = [i for i, r in enumerate(start) if r]
    shares: list[list[tuple[int, float]] | None] = []
    at_get = at.get
    for src in nodes:
        out = edges.get(src)
        if out:
            wsum = sum(out.values())
            shares.append([(j, w / wsum) for dst, w in out.items() if (j := at_get(dst)) is not None])
        else:
            shares.append(None)
    base = [(1 - alpha) * r for r in start]
    rank = list(start)
    for _ in range(30):
        nxt_rank = base[:]
        dangling = 0.0
        for r, out in zip(rank, shares):
            if not r:  # adds nothing: the same sums, skipped (most nodes in the first rounds)
                continue
            if out is None:
                dangling += r
                continue
            ar = alpha * r
            for j, share in out:
                nxt_rank[j] += ar * share
        for i in seeded:
            nxt_rank[i] += alpha * dangling * start[i]
        delta = sum(map(abs, map(sub, nxt_rank, rank)))
        rank = nxt_rank
        if delta < PPR_TOLERANCE:
            break
    rank = dict(zip(nodes, rank))
    return rank


def _unit_bags(facts: FileFacts, source: bytes | None, words_of: dict[bytes, list[str]]):
    """(unit, its bag of stemmed words → counts) for each unit of a file but module statements,
    in the file's order: the words `WordIndex` scores."""
    path_words = [stem(w) for part in facts.path.split("/") for w in split_words(part.rsplit(".", 1)[0])]
    called: dict[str, set[str]] = defaultdict(set)
    for c in facts.calls:
        if c.caller:
            called[c.caller].add(c.name)
            if c.receiver:
                called[c.caller].add(re.split(r"[.:]+", c.receiver)[-1])
    for u in facts.units:
        if u.kind == "statement":
            continue
        bag: dict[str, int] = defaultdict(int)
        for w in split_words(u.name):
            bag[stem(w)] += 3
        for w in split_words(u.qualname.rsplit(".", 1)[0]) if "." in u.qualname else []:
            bag[stem(w)] += 1
        for w in split_words(u.doc):
            if w not in STOP:
                bag[stem(w)] += 1
        for w in path_words:
            bag[w] += 1
        for name in called.get(u.id, ()):
            for w in split_words(name):
                if w not in STOP and len(w) > 1:
                    bag[stem(w)] = bag.get(stem(w), 0) + 1
        if source is not None:
            for w in _body_words(source, u, words_of):
                bag[w] = bag.get(w, 0) + 1
        yield u, bag


def _body_words(source: bytes, u: Unit, words_of: dict[bytes, list[str]]) -> set[str]:
    # a type's body is its members, which are units of their own: only its header counts
    end = u.sig_end_byte if u.is_type else u.end_byte
    out: set[str] = set()
    for ident in set(_BODY_IDENT.findall(source, u.start_byte, end)):
        ws = words_of.get(ident)
        if ws is None:
            ws = words_of[ident] = [stem(w) for w in split_words(ident.decode("ascii")) if w not in STOP and len(w) > 1]
        out.update(ws)
    return out


def _spliced(items: list, gone: list[int], blocks: list[tuple[int, list]], old_rank: Callable, new_rank: Callable) -> list:
    """`items`, in the files' order, with the run of each file ranked in `gone` (old order, highest
    first) cut out, then each block put in at its file's rank (new order, highest first). A table
    lists its entries in the files' order, so a file's entries are one run, found by bisection:
    the kept entries are never walked one by one."""
    for r in gone:
        lo = bisect_left(items, r, key=old_rank)
        del items[lo : bisect_right(items, r, lo=lo, key=old_rank)]
    for r, block in blocks:
        at = bisect_left(items, r, key=new_rank)
        items[at:at] = block
    return items


def _name_entries(facts: FileFacts) -> tuple[dict[str, list[Unit]], dict[str, list[Unit]], dict[str, list[Unit]]]:
    """One file's entries of `NameTable`'s three tables (by name, by qualified suffix, module
    statements by the name they assign), each key's units in the file's order."""
    by_name: dict[str, list[Unit]] = defaultdict(list)
    by_qual: dict[str, list[Unit]] = defaultdict(list)
    assigned: dict[str, list[Unit]] = defaultdict(list)
    for u in facts.units:
        if u.kind == "statement":
            if u.parent is None and u.name.isidentifier():
                assigned[u.name].append(u)
            continue
        by_name[u.name].append(u)
        parts = u.qualname.split(".")
        for i in range(1, len(parts)):
            by_qual[".".join(parts[i - 1 :])].append(u)
    return by_name, by_qual, assigned
