"""A call chain broken over lines (`own\n    .getData()\n    .ban(k)`, the fluent style of every
language) evaluates link by link as one written on a line does (bindings/resolve.py `_called`)."""

from __future__ import annotations

from test_bindings import index_of, target


def test_a_java_chain_broken_over_lines_resolves_each_link(tmp_path):
    index = index_of(tmp_path, {
        "p/Data.java": "package p;\nclass Data { void ban(String k) {} }\n",
        "p/Injector.java": "package p;\nclass Injector { Data getData() { return new Data(); } }\n",
        "p/Proc.java": """
        package p;
        class Proc {
          private Injector own;
          void a() { own.getData().ban("x"); }
          void b() {
            own
                .getData()
                .ban("y");
          }
        }
        """,
    })
    assert target(index, "p/Proc.java", "ban", 0) == "p/Data.java::Data.ban"
    assert target(index, "p/Proc.java", "ban", 1) == "p/Data.java::Data.ban"


def test_a_typescript_chain_broken_over_lines_resolves_each_link(tmp_path):
    index = index_of(tmp_path, {
        "query.ts": """
        export class Query {
          where(c: string): Query { return this; }
          run(): number { return 1; }
        }
        export function find(q: Query): number {
          return q
            .where("a")
            ?.run();
        }
        """,
    })
    assert target(index, "query.ts", "run") == "query.ts::Query.run"
