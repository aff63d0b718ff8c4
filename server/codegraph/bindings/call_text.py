"""The text of a call as the resolver reads it: where its argument list opens, how many arguments
it passes, its callee without type arguments. Pure functions of strings."""

from __future__ import annotations

import re

from ..languages.spec import LanguageSpec


def call_open(expr: str) -> int | None:
    """Where the argument list that ends `expr` opens (`a.b(c(d))` → 3), None when `expr` does not
    end in one balanced call."""
    if not expr.endswith(")"):
        return None
    depth = 0
    for i in range(len(expr) - 1, -1, -1):
        ch = expr[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return i if i > 0 else None
    return None


UNCOUNTED = LanguageSpec.__dataclass_fields__["call_args"].default  # a language whose calls' arguments are not counted
_OPENERS = frozenset("([{")
_CLOSERS = frozenset(")]}")
# what counting arguments reads: literals and comments (skipped whole), `->`, brackets, commas, angles
_ARG_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|/\*.*?\*/|//[^\n]*|->|[()\[\]{},<>]', re.S)
_PLAIN_ARGS = re.compile(r"[^\"'()\[\]{}/<>]*")


def text_args(inner: str) -> int:
    """How many arguments the text between a call's parentheses passes (`a, f(b, c)` → 2), -1 when
    the text cannot tell: a `<` or `>` outside brackets may open type arguments (`new Map<A, B>()`),
    a string template may hold anything."""
    if not inner.strip():
        return 0
    if _PLAIN_ARGS.fullmatch(inner):  # no nesting, no literal, no comment: the commas tell
        return inner.count(",") + 1
    if "${" in inner:
        return -1
    depth, count = 0, 1
    for m in _ARG_TOKENS.finditer(inner):
        token = m.group()
        if token in _OPENERS:
            depth += 1
        elif token in _CLOSERS:
            depth -= 1
        elif token == ",":
            count += depth == 0
        elif token in "<>" and depth == 0:
            return -1
    return count if depth == 0 else -1


def without_type_args(callee: str) -> str:
    """`make<T>` → `make`, `Collections.<T>empty` → `Collections.empty`: type arguments name no value."""
    if callee.endswith(">"):
        close = matching_angle(callee, len(callee) - 1, -1)
        callee = callee[:close].rstrip() if close is not None else callee
    at = callee.rfind(".<")
    if at >= 0:
        close = matching_angle(callee, at + 1, 1)
        callee = callee[: at + 1] + callee[close + 1 :].lstrip() if close is not None else callee
    return callee


def matching_angle(text: str, start: int, step: int) -> int | None:
    depth = 0
    i = start
    while 0 <= i < len(text):
        depth += {"<": step, ">": -step}.get(text[i], 0)
        if depth == 0:
            return i
        i += step
    return None
