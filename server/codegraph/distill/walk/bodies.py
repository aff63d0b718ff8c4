"""What a unit's body does, read from its bytes: error handlers and what they end, composition (wrapping,
filling, storing what it built), registration of parts, output handed on, declared return types. The plan's
stages and the one-hop role read these."""

from __future__ import annotations

import re

from ...index.facts import CALLABLE_KINDS, Unit
from ...languages import BY_NAME
from ..signals import error_regions, output_like
from ..topology import Model


def _error_regions(index, path: str) -> list[tuple[int, int]]:
    return error_regions(index.files.get(path))


REGISTER = re.compile(
    rb"(?:\b(?:self|this)\.\w+\s*(?:\[[^\]\n]*\]\s*=|\.(?:append|push|unshift|extend)\s*\()|"
    rb"\b(\w+)\.(\w+)\s*=\s*append\(\s*\1\.\2\b)"
)


def _module_names(imports) -> set[str]:
    """Local names that bind a whole imported module or package (`import json`, Go `"text/template"`)."""
    out: set[str] = set()
    for imp in imports:
        if imp.level or imp.module.startswith("."):
            continue  # a module of this code base
        if imp.name in ("", "*") or imp.alias:
            local = imp.alias or imp.module.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[-1]
            if local.isidentifier():
                out.add(local)
    return out


# What a trunk unit does, read from its body (the unit's main role; see docs/distill.md).
# Composition: a local wrapped in layers and handed back (`app = cls(app, …)`, `h = mw[i](h)`).
WRAPS = re.compile(rb"(?<![\w.])(\w+)\s*:?=\s*(?:await\s+)?\w+(?:\[[\w.\- ]*\])?\(\s*&?\1\b")
# A part built and stored on the unit's own object (`self.engine = self._create_engine()`,
# `this.slot = new Slot(…)`, `self._session = iface.open_session(…)`).
TOOL_MAKERS = frozenset({b"new", b"make"})  # Go's builtin allocators
STORES_BUILT = re.compile(rb"\b(?:self|this)\.(\w+)\s*=\s*(?:await\s+)?(new\s+|&)?([\w.]+)\s*[(<{]")
# An output handed on as an argument: a response, a writer, a stream, a socket, `c.OutOrStdout()`.
OUTPUT_ARG = re.compile(rb"(?<![\w.])(response|resp|res|w|wr|writer|out|output|stream|socket|sink)\b(?!\s*[.(\[])|"
                        rb"\.(?:Out\w*|Writer|writer|stdout|stderr)\(\)")
# A parameter that carries an error: typed as one, or, untyped, named as one.
ERROR_NAME = re.compile(r"(?i)^(err|error|exc|exception|failure|throwable|cause)$")
# (`ErrorResult` carries one; `ErrorHandler` handles them and is not one)
ERROR_TYPE = re.compile(r"(Error|Exception|Throwable|Failure)(?![a-z]|Handler|Listener|Callback|Reporter|Factory|Mapper)|^error$")
RETURNS_WHAT = re.compile(rb"\breturn\s+(?:(?:new\s+)?([\w.]+)\s*(?:<[^>\n]*>)?\s*\(|(\w+)\s*;?\s*[})]*\s*$)")
CALLISH = re.compile(rb"^\s*[A-Z]|^\s*new\b")


ACCUMULATE = frozenset({b"append", b"concat", b"list", b"tuple", b"sorted", b"reversed", b"str", b"len", b"int",
                        b"String", b"Array", b"Object", b"merge", b"copy"})  # language builtins that grow or convert


def _error_param(u: Unit, loose: bool = False) -> str:
    """The parameter that carries an error into the unit ('' when none). `loose`: a parameter typed as anything
    at all (`err: any`, `interface{}`) is read by its name, as an untyped one."""
    types = tuple(u.param_types) + ("",) * len(u.param_names)
    return next((p.lstrip("*&") for p, t in zip(u.param_names, types)
                 if (ERROR_TYPE.search(t) if t and not (loose and ANY_TYPE.match(t)) else ERROR_NAME.match(p.lstrip("*&")))), "")


ANY_TYPE = re.compile(r"^\s*(any|unknown|object|Object|interface\{\}|Any|Any\?|\*?any)\s*$")


# Where a process ends on failure (`os.Exit(1)`, `log.Fatal(err)`, `sys.exit(…)`, Rust's `process::exit(1)`): the last
# place its errors reach. Writing to the error stream alone is not such a place: debug logs and tracers write there
# too (policy `exits`).
EXITS = re.compile(rb"\b(?:os\.Exit|sys\.exit|process\.exit|process::exit|System\.exit|exitProcess|log\.Fatal\w*)(?=\s*\()")


def reports_error(index, u: Unit) -> str:
    """Why a unit that writes out is an error boundary first ('' when it is not): it takes an error it
    is handed (an error handler that reports or logs), or it ends the process (`os.Exit(1)`): a unit that
    only writes to the error stream, taking no error, is a log (a sink), not where failures end."""
    err = _error_param(u)
    if err:
        return f"handles the error it is handed (`{err}`)"
    hit = EXITS.search(index.sources[u.path], u.sig_end_byte, u.end_byte)
    return f"reports a failure (`{hit.group().decode()}`)" if hit else ""


def _guards_handoff(index, model: Model, u: Unit, regions: dict[str, list[tuple[int, int]]]) -> str:
    """The call a wrapper guards ('' when none): it hands all of its own arguments on (`self.app(scope,
    receive, send)`, a middleware calling the app it wraps) before an error handler of its own body."""
    params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this")]
    if len(params) < 2:
        return ""
    if u.path not in regions:
        regions[u.path] = _error_regions(index, u.path)
    handler = min((a for a, b in regions[u.path] if u.sig_end_byte <= a < u.end_byte), default=None)
    if handler is None:
        return ""
    src = index.sources[u.path]
    for c in sorted(model.calls.get(u.id, ()), key=lambda c: c.start_byte):
        text = src[c.start_byte : c.end_byte]
        args = text[text.find(b"(") + 1 :].decode("utf-8", "replace") if b"(" in text else ""
        if c.start_byte < handler and all(re.search(r"(?<![\w.])_?" + re.escape(p) + r"\b", args) for p in params) \
                and _held_callable(model, u, c):
            return text[: text.find(b"(")].decode("utf-8", "replace")
    return ""


CAUGHT_ARG = re.compile(rb"[(,]\s*(?:e|err|error|ex|exc|exception|cause)\s*[,)]")  # the caught error handed on
HANDLER_KEEPS = re.compile(rb"\b(\w+)\s*(?:=(?!=)|\.(?:push|append|add)\()")  # `errors = [e]`, `errors.push(e)`
RAISES_NEW = re.compile(rb"\b(?:throw|raise)\s+(?:new\s+)?([A-Z]\w*)\s*\(")  # `throw new Failure(…)`, `raise Failure(…)`


def _error_turn(index, model: Model, u: Unit, regions: dict[str, list[tuple[int, int]]]) -> str:
    """How a unit with an error handler of its own ends the errors it meets ('' when it does not): it hands
    what it catches to an output it was given (`catch (err) { sink.error(err) }`), or it catches and raises an
    error of its own (`throw new CombinedFailure(errors)`)."""
    if u.path not in regions:
        regions[u.path] = _error_regions(index, u.path)
    handlers = [(a, b) for a, b in regions[u.path] if u.sig_end_byte <= a < u.end_byte]
    if not handlers:
        return ""
    params = {p.lstrip("*&") for p in u.param_names} - {"self", "this", ""}
    src = index.sources[u.path]
    for c in model.calls.get(u.id, ()):
        root = c.receiver.split(".")[0] if c.receiver else ""
        if (root in params and any(a <= c.start_byte < b for a, b in handlers)
                and CAUGHT_ARG.search(src, c.start_byte + len(c.receiver) + len(c.name) + 1, c.end_byte)):
            return f"hands the errors it catches to `{c.receiver}.{c.name}`, which its caller gave it"
    kept = {n for a, b in handlers for n in HANDLER_KEEPS.findall(src, a, b)}  # what its handlers collect
    for raised in RAISES_NEW.finditer(src, handlers[0][0], u.end_byte):
        inside = any(a <= raised.start() < b for a, b in handlers)
        close = src.find(b")", raised.end(), u.end_byte)
        named = set(re.findall(rb"\w+", src[raised.end() : close if close >= 0 else u.end_byte]))
        if inside or named & kept:  # `catch (e) { throw new Failure(e) }`, or the caught errors raised together
            return f"catches errors and raises its own (`{raised.group(1).decode()}`)"
    return ""


def _held_callable(model: Model, u: Unit, c) -> bool:
    """The call runs a callable the unit holds, not a method of its own: a field of its object that its
    class does not define (`self.app`, the app a middleware wraps) or a parameter."""
    if not c.receiver:
        return c.name in u.param_names
    if c.receiver not in ("self", "this") or not u.parent:
        return False
    return not any(x.parent == u.parent and x.name == c.name for x in model.units.values())


def _wraps(body: bytes) -> str:
    """The local a unit builds in layers and returns (`app = cls(app, …)` … `return app`), or ''."""
    for hit in WRAPS.finditer(body):
        name = hit.group(1)
        if name in (b"self", b"this", b"err") or len(name) > 40:
            continue
        callee = body[hit.start(): hit.end()].split(b"=", 1)[1].strip().split(b"(")[0].split(b"[")[0]
        if callee.strip().removeprefix(b"await ").strip() in ACCUMULATE:
            continue  # `xs = append(xs, x)`: a collection grows, nothing is wrapped
        if re.search(rb"\breturn\s+&?" + re.escape(name) + rb"\b\s*(?:[;\n,)}]|$)", body):
            return name.decode()
    return ""


RETURNS_LOCAL = re.compile(rb"\breturn\s+(\w+)\s*;?\s*[})]*\s*$")


def _fills(body: bytes) -> str:
    """The local a unit creates, fills (two or more fields set) and returns: a context or a config object."""
    hit = RETURNS_LOCAL.search(body.rstrip())
    if not hit:
        return ""
    name = re.escape(hit.group(1))
    if not re.search(rb"(?:\b(?:const|let|var|val)\s+)?(?<![\w.])" + name + rb"\s*:?=\s*(?:new\b|\{|\[|\w+(?:\.\w+)*\()", body):
        return ""
    sets = re.findall(rb"(?<![\w.])" + name + rb"(?:\.\w+|\[[^\]\n]+\])\s*=(?!=)", body)
    return hit.group(1).decode() if len(sets) >= 2 else ""


def _stores_built(body: bytes, receiver: str, types: set[str], outside: set[str]) -> list[str]:
    """Fields of its own object the unit sets from a construction or a call: at least two stores, or one
    construction of a type of the code base (`new(bytes.Buffer)`, `threading.Lock()`: a tool, not a part).
    A store of what a builtin or an outside module makes (`new(…)`, `bytes.NewBufferString(…)`, `threading.Lock()`;
    `outside`: the file's names for whole outside modules) is a tool too and does not count. *Why:* a lazy
    getter that creates its buffers on first use read as assembly and took its places."""
    pattern = STORES_BUILT
    if receiver and receiver.isidentifier() and receiver not in ("self", "this"):  # Go `c.help = &Command{…}`
        pattern = re.compile(STORES_BUILT.pattern.replace(b"(?:self|this)", b"(?:self|this|" + receiver.encode() + b")"))
    found = pattern.findall(body)
    built = [f for f, amp, rhs in found if (CALLISH.match(rhs) or amp)
             and rhs.rsplit(b".", 1)[-1].decode("utf-8", "replace") in types]
    hits = [(f.decode(), rhs) for f, _, rhs in found if not _tool(rhs, outside)]
    if built or len(hits) >= 2:
        return sorted({f for f, _ in hits})
    return []


def _tool(callee: bytes, outside: set[str]) -> bool:
    """A callee that makes a tool, not a part: a builtin allocator or an outside module's function."""
    return callee in TOOL_MAKERS or callee.split(b".", 1)[0].decode("utf-8", "replace") in outside


def _hands_output(body: bytes, calls, start: int, writes) -> tuple[str, str]:
    """(output, callee) when the unit passes an output (a response, a writer) on as a call argument to
    a writer: a call outside the code base, or a unit that writes (`writes(name)`)."""
    for c in calls:
        if not c.receiver and c.name[:1].isupper() or c.construct:
            continue  # `Ok(resp)`, `new Foo(res)`: a value wrapped, not written
        if not writes(c):
            continue
        a, b = c.start_byte - start, c.end_byte - start
        if a < 0 or b > len(body):
            continue
        text = body[a:b]
        open_at = text.find(b"(")
        if open_at < 0 or c.name in ("len", "isinstance", "print", "println"):
            continue
        hit = OUTPUT_ARG.search(text, open_at + 1)
        if hit:
            return hit.group(0).decode().lstrip("."), c.name
    return "", ""


LOCAL_DEF = re.compile(rb"(?:\b(?:const|let|var|val)\s+)(\w+)\s*(?::[^=\n]*)?=(?!=)")
# A loop variable over a collection (Go `for i, x := range items`, `for x in items:`, `for (const x of items)`):
# each element of what the unit is handed
LOOP_DEF = re.compile(rb"\bfor\s*\(?\s*(?:(?:const|let|var|val)\s+)?(?:\w+\s*,\s*)?(\w+)\s*(?::=\s*range\b|\bin\b|\bof\b)\s*([\w.]+)")


def _statement_end(body: bytes, start: int, limit: int = 2000) -> int:
    """End of the statement that continues at start: the line's end, or past the brackets it opens
    (`this.handlers.push({ fulfilled, rejected })` over several lines)."""
    depth, i, end = 0, start, min(len(body), start + limit)
    while i < end:
        ch = body[i]
        if ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
            if depth < 0:
                return i
        elif ch == 10 and depth == 0:  # newline outside brackets
            return i
        i += 1
    return end


def _registrations(index, model: Model, uids: list[str]) -> dict[str, str]:
    """Units that store a part they were handed into their object's collections (`self.rules[path] = view`,
    `this.middleware.push(fn)`, Go `mx.mws = append(mx.mws, mw)`): where the parts get wired in."""
    out: dict[str, str] = {}
    for uid in uids:
        u = model.units[uid]
        params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this")]
        if not (u.kind in CALLABLE_KINDS and params):
            continue
        handed = set(params)
        body = index.sources[u.path][u.sig_end_byte : u.end_byte]
        # every REGISTER match holds `[` (`x[k] =`) or `append`, `.push`, `.unshift`, `.extend`: most bodies hold none
        maybe = b"[" in body or b"append" in body or b".push" in body or b".unshift" in body or b".extend" in body
        hits = list(REGISTER.finditer(body)) if maybe else []
        if u.receiver and u.receiver.isidentifier() and u.receiver not in ("self", "this"):
            # Go: `n.endpoints[method] = h` on the method's receiver
            # or on an element its collection hands out (`n.endpoints.Value(m).handler = h`)
            hits += list(re.finditer(rb"\b" + re.escape(u.receiver.encode())
                                     + rb"\.\w+\s*(?:\[[^\]\n]*\]|\.\w+\([^()\n]*\)\.\w+)\s*=(?!=)", body))
        if not hits:
            continue
        for local in LOCAL_DEF.finditer(body):  # `const handler = { fulfilled, rejected }`: a part built from them
            name = local.group(1).decode("utf-8", "replace")
            stmt = body[local.end() : _statement_end(body, local.end())]
            if name not in params and any(re.search(rb"(?<![\w.])" + re.escape(p.encode()) + rb"\b", stmt) for p in params):
                params.append(name)
        for loop in LOOP_DEF.finditer(body) if b"for" in body else ():  # `for _, x := range items`: x is handed in
            name, over = loop.group(1).decode("utf-8", "replace"), loop.group(2).decode("utf-8", "replace")
            if name not in params and over in handed:
                params.append(name)
        for hit in hits:
            if hit.re is REGISTER and hit.group(1) and hit.group(1).decode("utf-8", "replace") != u.receiver:
                continue  # `x.f = append(x.f, …)` registers only on the method's own object
            rest = body[hit.start() : _statement_end(body, hit.end())]
            used = [p for p in params if re.search(rb"\b" + re.escape(p.encode()) + rb"\b", rest)]
            if used:
                out[uid] = (f"stores the `{used[0]}` it is handed into its object's state (registration)" if used[0] in handed
                            else f"stores `{used[0]}`, built from what it is handed, into its object's state (registration)")
                break
    return out


def _registrations_memo(index, model: Model, uids: list[str], memo: dict[str, str | None]) -> dict[str, str]:
    """`_registrations` reading each unit's body once per plan (the plan asks for overlapping sets)."""
    todo = [u for u in dict.fromkeys(uids) if u not in memo]
    got = _registrations(index, model, todo)
    for u in todo:
        memo[u] = got.get(u)
    return {u: memo[u] for u in uids if memo[u] is not None}


LOCAL_SET = re.compile(rb"(?<![\w.])(\w+)\s*:?=(?!=)")  # `x = …`, Go `x := …`


def _stands_for(body: bytes, params: list[str]) -> dict[str, set[str]]:
    """Each parameter, and each local set from an expression naming parameters (`mountHandler :=
    HandlerFunc(func(…) { handler.ServeHTTP(…) })`), → the parameters it carries."""
    names = {p: {p} for p in params}
    for hit in LOCAL_SET.finditer(body):
        name = hit.group(1).decode("utf-8", "replace")
        if name in names:
            continue
        stmt = body[hit.end() : _statement_end(body, hit.end())]
        got = {p for p in params if re.search(rb"(?<![\w.])" + re.escape(p.encode()) + rb"\b", stmt)}
        if got:
            names[name] = got
    return names


def forwarded_registration(index, model: Model, uid: str, memo: dict[str, str | None], out: dict[str, set[str]],
                           depth_left: int = 3) -> str:
    """The registration a unit hands all it is handed on to (`out`: the selection graph), a few calls deep
    (`Mount(pattern, h)` → `mx.handle(…, pattern+"*", mounted)` → `tree.InsertRoute(…)` → `n.endpoints[m] = h`);
    '' when none. Such a unit wires a part in, though the store is written elsewhere. All of it: a step that
    hands one of its values to a store on the way (`session.remember(path, result)`) does more than wire."""
    u = model.units[uid]
    params = [p.lstrip("*&") for p in u.param_names if p not in ("self", "this", "cls")]
    if not params or depth_left == 0:
        return ""
    src = index.sources[u.path]
    carried = _stands_for(src[u.sig_end_byte : u.end_byte], params)
    words = re.compile(rb"(?<![\w.])(" + b"|".join(re.escape(n.encode()) for n in carried) + rb")\b")
    handed: dict[str, set[str]] = {}  # one known target → the parameters its calls carry
    for c in model.calls.get(uid, ()):
        named = [d for d in out.get(uid, ()) if model.units[d].name == c.name and model.units[d].kind in CALLABLE_KINDS]
        if len(named) != 1 or named[0] == uid:  # one known target: a guessed fan-out (`cmd.run(…)`) proves nothing
            continue
        text = src[c.start_byte : c.end_byte]
        args = text[text.find(c.name.encode()) + len(c.name) :]
        for w in words.findall(args):
            handed.setdefault(named[0], set()).update(carried[w.decode("utf-8", "replace")])
    for d in sorted(handed, key=model.order.__getitem__):
        if len(handed[d]) < len(params):
            continue
        if _registrations_memo(index, model, [d], memo) or forwarded_registration(index, model, d, memo, out, depth_left - 1):
            return d
    return ""


def body_role(index, model: Model, uid: str, out: dict[str, set[str]] | None = None) -> str:
    """Why a unit is assembly, read from its body alone ('' when it is not): it registers a part it is
    handed, composes a value in layers, builds parts and stores them on its object, or creates, fills
    and returns an object. For units outside the flow plan (the one-hop context)."""
    u = model.units.get(uid)
    if u is None or u.kind not in CALLABLE_KINDS:
        return ""
    if u.kind == "constructor" or u.name in ("__init__", "constructor"):
        return ""  # the classifier's own reason for a constructor stands
    wired = _registrations(index, model, [uid])
    if uid in wired:
        return wired[uid]
    into = forwarded_registration(index, model, uid, {}, model.out if out is None else out)
    if into:
        return f"hands a part it is handed on to `{model.units[into].qualname}`, which registers it"
    body = index.sources[u.path][u.sig_end_byte : u.end_byte]
    wraps = _wraps(body)
    if wraps:
        return f"composes `{wraps}` in layers and hands it back"
    stores = _stores_built(body, u.receiver, model.type_names(), _module_names(index.files[u.path].imports))
    if stores:
        return "builds parts and stores them on its object: " + ", ".join(f"`{f}`" for f in stores[:3])
    made = _fills(body)
    if made:
        return f"creates `{made}`, sets its parts and hands it back"
    return ""


# The type written before a callable's name (`List<T> name(`): read backwards from each `name(`,
# one compiled pattern for every name (a pattern per name overflowed `re`'s cache on large code bases).
_TYPE_BEFORE = re.compile(rb"\b([A-Za-z_]\w*)(?:<[^>]*>)?(?:\[\])?\s+\Z")
_OPEN_CALL = re.compile(rb"\s*\(")


def _type_before_name(signature: bytes, name: bytes) -> "re.Match[bytes] | None":
    """The first `Type name(` of the signature (the type's match), as `re.search` of that pattern finds it."""
    at = signature.find(name)
    while at != -1:
        if at > 0 and signature[at - 1 : at].isspace() and _OPEN_CALL.match(signature, at + len(name)):
            hit = _TYPE_BEFORE.search(signature, 0, at)
            if hit:
                return hit
        at = signature.find(name, at + 1)
    return None


def return_type(signature: bytes, name: str, language: str) -> str:
    """The type name a callable's signature says it returns ('' when none or not written): the spec's
    `signature_return`, or the type just before the name (`return_type_before_name`)."""
    spec = BY_NAME.get(language)
    if spec is not None and spec.return_type_before_name:
        hit = _type_before_name(signature, name.encode())
    else:
        pattern = spec.signature_return if spec is not None else None
        hit = pattern.search(signature) if pattern else None
    return hit.group(1).decode("utf-8", "replace").rsplit(".", 1)[-1] if hit else ""


def _takes_output(u: Unit) -> bool:
    """A parameter typed or named as an output (a writer, a stream, a response)."""
    typed = zip(u.param_names, tuple(u.param_types) + ("",) * len(u.param_names))
    return any(output_like(t, True) if t else output_like(p.lstrip("*&")) for p, t in typed if p not in ("self", "this"))
