"""TypeScript: a function that declares its `this` (`function find(this: Cheerio<T>, …)`, the methods a
class gains as a mixin) runs on that type, as an extension function does (`Unit.ext_type`,
languages/js_holders.py `declared_this`); a class merged with an interface of its name is the class
(bindings/resolve.py `_past_stubs`)."""

from __future__ import annotations

from test_bindings import index_of, target

CHEERIO_LIKE = {
    "src/cheerio.ts": """
    export abstract class Cheerio<T> {
      abstract _make<T>(dom: T[]): Cheerio<T>;
      _root: Cheerio<T> | null = null;
      first(): Cheerio<T> { return this; }
    }
    export interface Cheerio<T> {
      find(selector: string): Cheerio<T>;
    }
    """,
    "src/api/traversing.ts": """
    import type { Cheerio } from '../cheerio.js';

    export function find<T>(this: Cheerio<T>, selector: string): Cheerio<T> {
      return this._make([]);
    }

    export function first<T>(this: Cheerio<T>): Cheerio<T> {
      return this.first();
    }

    export function plain(x: number): number {
      return helper(x);
    }

    function helper(x: number): number { return x; }

    export function handler(this: void, e: Event) {
      return this;
    }
    """,
}


def test_a_function_that_declares_its_this_runs_on_that_type(tmp_path):
    index = index_of(tmp_path, CHEERIO_LIKE)
    units = {u.qualname: u for u in index.files["src/api/traversing.ts"].units}
    assert units["find"].ext_type == "Cheerio"
    assert units["plain"].ext_type == "" and units["handler"].ext_type == ""
    assert target(index, "src/api/traversing.ts", "_make") == "src/cheerio.ts::Cheerio._make"
    assert target(index, "src/api/traversing.ts", "first") == "src/cheerio.ts::Cheerio.first"
    assert target(index, "src/api/traversing.ts", "helper") == "src/api/traversing.ts::helper"
