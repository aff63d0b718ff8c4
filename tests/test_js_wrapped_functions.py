"""A name holding the one function a call wraps is that function: a React component made with
`forwardRef((props, ref) => …)` or `memo(function Card() {…})`, a handler made with `once(…)` or
`debounce(() => …, 100)`. Its parameters and body are the function's and a call of the name reaches
it; before, the whole declaration was a wiring statement and the component had no definition."""

from __future__ import annotations

from test_bindings import index_of, target

from codegraph.index.extract import extract_source

COMPONENTS = """
import React, { forwardRef, memo } from 'react';

export const Input = forwardRef<HTMLInputElement, Props>((props, ref) => {
  return <input ref={ref} value={format(props.value)} />;
});
const Card = memo(function Card({ title }: { title: string }) {
  return <div>{title}</div>;
});
export const both = pick(() => 1, () => 2);
export const app = express();

function format(v: string) { return v; }
"""


def test_a_name_holding_the_function_a_call_wraps_is_that_function():
    facts, _, _ = extract_source("src/input.tsx", "tsx", COMPONENTS.encode())
    units = {u.qualname: u for u in facts.units}
    assert units["Input"].kind == "function" and units["Input"].param_names == ("props", "ref")
    assert units["Card"].kind == "function" and units["Card"].start_line == 7
    assert any(c.name == "format" and c.caller == units["Input"].id for c in facts.calls)
    statements = {u.name for u in facts.units if u.kind == "statement"}
    assert {"both", "app"} <= statements and not {"Input", "Card"} & statements  # two functions, or none: a statement


def test_a_call_of_a_name_holding_a_wrapped_function_reaches_it(tmp_path):
    index = index_of(tmp_path, {
        "lib/run.js": "var once = require('once');\nvar start = once(function () { return 1; });\nexports.boot = function () { return start(); };\n",
    })
    assert target(index, "lib/run.js", "start") == "lib/run.js::start"


def test_a_value_computed_with_a_callback_or_a_handle_a_timer_hands_back_is_no_function():
    source = ("const names = list.filter((x) => x.ok);\nconst total = prices.reduce((a, b) => a + b, 0);\n"
              "const timer = setInterval(() => tick(), 1000);\nconst stop = store.subscribe(() => render());\n"
              "const desc = Object.getOwnPropertyDescriptor(function () {}, 'length');\n"
              "const save = _.debounce(() => flush(), 100);\n")
    facts, _, _ = extract_source("src/app.js", "javascript", source.encode())
    assert {u.qualname for u in facts.units if u.kind == "function"} == {"save"}
