"""Constructs the pinned TypeScript and JavaScript grammars misread, and what the extractor does
about them (languages/javascript.py): a file they break must keep its definitions."""

from __future__ import annotations

import time

from codegraph.languages.javascript import typescript_preprocess
from test_bindings import index_of

# zod 4 marks its type parameters' variance behind a comment that silences the checker
COMMENTED_VARIANCE = """
export interface ObjectInternals<
  /** @ts-ignore Cast variance */
  out Shape extends object = object,
  // a line comment too
  in out Config extends object = object,
> extends BaseInternals {
  shape: Shape;
}
export interface BaseInternals {
  run(input: unknown): unknown;
}
export function parse(schema: BaseInternals, input: unknown) {
  return schema.run(input);
}
"""


def test_a_variance_modifier_after_a_comment_parses(tmp_path):
    index = index_of(tmp_path, {"schemas.ts": COMMENTED_VARIANCE})
    facts = index.files["schemas.ts"]
    assert facts.parse_errors == 0
    assert {"ObjectInternals", "BaseInternals", "BaseInternals.run", "parse"} <= {u.qualname for u in facts.units}


def test_comments_before_a_type_parameter_are_read_in_linear_time():
    """A banner of slashes after a `<` or `,` (`//////…`) has many ways to split into line comments:
    the rewrite reads each comment one way only."""
    source = (b"const a = f(x, " + b"/" * 400 + b"\n  y);\n") * 50
    start = time.monotonic()
    assert typescript_preprocess(source) == source
    assert time.monotonic() - start < 1.0


# got and knex document each call signature of a callable type; a signature that starts its line
# after a separator and a comment needs no second separator
DOCUMENTED_SIGNATURES = """
export type Paginate = {
    /**
    Same as `Paginate.each`.
    */
    <T, R = unknown>(url: string, options?: R): AsyncIterableIterator<T>;
    each: <T>(url: string) => AsyncIterableIterator<T>;
    // a note on the next overload
    <T>(options: T): AsyncIterableIterator<T>
    <T>(url: string, options: T): AsyncIterableIterator<T>;
};
export function paginate(url: string): Paginate {
    return make(url);
}
export const make = (url: string): Paginate => null as unknown as Paginate;
"""


def test_a_documented_call_signature_that_starts_a_line_parses(tmp_path):
    index = index_of(tmp_path, {"types.ts": DOCUMENTED_SIGNATURES})
    facts = index.files["types.ts"]
    assert facts.parse_errors == 0
    assert {"paginate", "make"} <= {u.qualname for u in facts.units}


# tsc writes an import type with type arguments into a declaration file whenever a declaration names
# a generic type of another module; a call with type arguments on a dynamic import stays a call
IMPORT_TYPES = """
export declare const Cls: import("./builder").ModuleCls<Options, "register", {}>, TOKEN: string | symbol;
export declare const crudPolicy: (options: Options) => (import("./policies").Policy | undefined)[];
export interface Query {
    typings?: import("./sql").TypingsValue[];
    sql: string;
}
export const make = (options: Options): import("./builder").ModuleCls<Options, {}> => build(options);
export class Builder {
    build(): import("./builder").ModuleCls<{ a: string; b: number }> {
        return make({});
    }
}
export function load(): Promise<void> {
    return import("./plugin").then<void>(start);
}
"""


def test_an_import_type_with_type_arguments_parses(tmp_path):
    index = index_of(tmp_path, {"module.ts": IMPORT_TYPES})
    facts = index.files["module.ts"]
    assert facts.parse_errors == 0
    assert {"Query", "make", "Builder", "Builder.build", "load"} <= {u.qualname for u in facts.units}
    assert b'import("./plugin").then<void>(start)' in typescript_preprocess(IMPORT_TYPES.encode())


# `using` is a contextual keyword (TypeScript 5.2's `using` declarations): a parameter or an element
# may still be named so, and the grammar must not lose the class around it
USING_PARAMETERS = """
export class Registry {
    constructor(private using: Token, other?: Token) {}
    findProviders(using: any, provider: string, exactMatch: boolean): any[] {
        return [using, provider].filter((using) => using);
    }
    describe() {
        return { using: 1, kind: "registry" };
    }
}
export function open() {
    using handle = acquire();
    return handle;
}
"""


def test_a_parameter_named_using_keeps_its_class(tmp_path):
    for name in ("registry.ts", "registry.tsx"):
        index = index_of(tmp_path / name.replace(".", "_"), {name: USING_PARAMETERS})
        facts = index.files[name]
        assert facts.parse_errors == 0
        assert {"Registry", "Registry.constructor", "Registry.findProviders", "Registry.describe", "open"} <= {
            u.qualname for u in facts.units}
    kept = typescript_preprocess(USING_PARAMETERS.encode())
    assert b"{ using: 1," in kept and b"using handle = acquire()" in kept


# reply typings label a tuple's elements, some with a type's keyword
KEYWORD_LABELS = """
type LogReply = [
    _: Argument,
    count: number,
    object: Argument,
    string?: Argument,
];
export function transformReply(reply: LogReply): Entry {
    return { count: reply[1], object: reply[2] };
}
export class Entry {
    object: string;
}
"""


def test_a_tuple_element_labelled_with_a_type_keyword_parses(tmp_path):
    index = index_of(tmp_path, {"log.ts": KEYWORD_LABELS})
    facts = index.files["log.ts"]
    assert facts.parse_errors == 0
    assert {"transformReply", "Entry"} <= {u.qualname for u in facts.units}
    assert b"{ count: reply[1], object: reply[2] }" in typescript_preprocess(KEYWORD_LABELS.encode())


def test_a_type_only_star_re_export_parses_and_re_exports(tmp_path):
    """TypeScript 5.0's `export type * from './x'` (a barrel of types, common in shipped `.d.ts`
    files) is newer than the grammar: the file kept its definitions but lost the re-export."""
    index = index_of(tmp_path, {
        "shapes.ts": "export interface Shape { area(): number }\nexport class Square implements Shape { area() { return 1 } }\n",
        "index.ts": "export type * from './shapes';\nexport type * as geometry from './shapes';\nexport const version = 1;\n",
        "main.ts": "import { Square } from './index';\nexport function make() { return new Square() }\n",
    })
    assert index.files["index.ts"].parse_errors == 0
    assert typescript_preprocess(b"export type T = typeof x;\n") == b"export type T = typeof x;\n"
    calls = index.bindings["main.ts"]
    assert any(e.dst == "shapes.ts::Square" for e in calls.edges), calls.edges
