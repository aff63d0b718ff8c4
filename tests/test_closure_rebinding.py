"""A local typed by what made it (`s = Step()`) and an anonymous function's parameter of the same name
(`conns.forEach { s -> s.close() }`, `|s| s.close()`, `(s) => s.close()`): the closure's `s` is the
parameter, so the local's type must never reach its calls (bindings/resolve.py `REBOUND`, graph/typed.py
`_local_type`); the parameter, recorded under its lambda's span, is an element of what the callback walks."""

from __future__ import annotations

import pytest

from codegraph.graph.likely import likely_graph
from test_bindings import index_of, target

CASES = {
    "kotlin": ("p/A.kt", {"p/A.kt": """
        package p

        class Conn {
            fun close() {}
        }
        class Step {
            fun close() {}
            fun run() {}
        }
        class Runner {
            fun go(conns: List<Conn>) {
                val s = Step()
                s.run()
                conns.forEach { s -> s.close() }
            }
        }
        """}),
    "typescript": ("a.ts", {"a.ts": """
        class Conn { close() {} }
        class Step { close() {} run() {} }
        export function go(conns: Conn[]) {
          const s = new Step();
          s.run();
          conns.forEach((s) => s.close());
        }
        """}),
    "python": ("a.py", {"a.py": """
class Conn:
    def close(self):
        pass


class Step:
    def close(self):
        pass

    def run(self):
        pass


def go(conns: list[Conn]):
    s = Step()
    s.run()
    list(map(lambda s: s.close(), conns))
"""}),
    "rust": ("src/lib.rs", {"Cargo.toml": '[package]\\nname = "x"\\nversion = "0.1.0"\\n', "src/lib.rs": """
        pub struct Conn;
        impl Conn { pub fn close(&self) {} }
        pub struct Step;
        impl Step {
            pub fn new() -> Step { Step }
            pub fn close(&self) {}
            pub fn run(&self) {}
        }
        pub fn go(conns: Vec<Conn>) {
            let s = Step::new();
            s.run();
            conns.iter().for_each(|s| s.close());
        }
        """}),
}


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_closure_parameter_keeps_a_local_of_its_name_from_typing_its_calls(tmp_path, language):
    path, files = CASES[language]
    index = index_of(tmp_path, files)
    # each lambda's parameters are recorded under the lambda's span: its `s` is an element of `conns`
    # (a Python lambda handed to `map` walks nothing the index reads: unknown)
    assert target(index, path, "close") == (None if language == "python" else path + "::Conn.close")
    graph = likely_graph(index)
    go = next(u for u in index.files[path].units if u.name == "go")
    typed = [e for e in graph.out(go.id) if e.dst.endswith("Step.close") and e.rule in ("local-type", "return-type")]
    assert typed == []
