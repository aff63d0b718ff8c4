"""Constructs the pinned Kotlin grammar rejects, and what the extractor does about them
(languages/jvm.py `kotlin_preprocess`): valid code must parse without errors and keep its calls."""

from __future__ import annotations

from test_bindings import index_of

# Kotlin 1.9's open-ended range (`rangeUntil`), common in loops over indices
RANGE_UNTIL = """package demo

class Ranges(val n: Int) {
    fun each(list: List<Int>) {
        for (i in 0..<n) {
            visit(list[i])
        }
    }

    fun visit(x: Int) = println(x)

    fun upTo(): IntRange = 0 ..< size()

    fun size(): Int = n
}
"""


def test_the_open_ended_range_operator_parses(tmp_path):
    index = index_of(tmp_path, {"Ranges.kt": RANGE_UNTIL})
    facts = index.files["Ranges.kt"]
    assert facts.parse_errors == 0
    assert {"Ranges.each", "Ranges.visit", "Ranges.upTo", "Ranges.size"} <= {u.qualname for u in facts.units}
    callers = {(c.caller.rpartition("::")[2], c.name) for c in facts.calls}
    assert {("Ranges.each", "visit"), ("Ranges.upTo", "size")} <= callers
    upto = next(u for u in facts.units if u.qualname == "Ranges.upTo")
    assert upto.start_line == upto.end_line == 12
