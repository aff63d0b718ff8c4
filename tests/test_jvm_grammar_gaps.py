"""Constructs the pinned Kotlin grammar rejects, and what the extractor does about them
(languages/jvm.py `kotlin_preprocess`): valid code must parse without errors and keep its calls."""

from __future__ import annotations

from test_bindings import index_of, target

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


# a custom view's secondary constructors: the one with a body runs code of its own
SECONDARY_CONSTRUCTORS = """package demo

class Badge : View {
    constructor(context: Context) : super(context)

    constructor(context: Context, attrs: AttributeSet?) : super(context, attrs) {
        setup(attrs)
    }

    private fun setup(attrs: AttributeSet?) {}
}
"""


def test_kotlin_secondary_constructors_are_constructor_units(tmp_path):
    from codegraph.model.facts import bodiless

    index = index_of(tmp_path, {"Badge.kt": SECONDARY_CONSTRUCTORS})
    facts = index.files["Badge.kt"]
    ctors = [u for u in facts.units if u.kind == "constructor"]
    assert [(u.qualname, u.params, u.start_line, u.end_line, u.parent) for u in ctors] == [
        ("Badge.constructor", 1, 4, 4, "Badge.kt::Badge"),
        ("Badge.constructor", 2, 6, 8, "Badge.kt::Badge"),
    ]
    assert bodiless(ctors[0]) and not bodiless(ctors[1])
    assert ctors[1].sig_end_line == 6
    assert next(c for c in facts.calls if c.name == "setup").caller == ctors[1].id
    assert target(index, "Badge.kt", "setup") == "Badge.kt::Badge.setup"


# a file of extension properties: each getter is code, and was in no unit at all
EXTENSION_PROPERTIES = """package demo

val Camera.focalLength: Float?
  get() {
    val lengths = lookup(LENGTHS)
    return lengths?.firstOrNull()
  }

val String.shout: String get() = uppercase()

val plain = 1

val config = load(
    "settings",
)
"""


def test_top_level_properties_with_getters_are_units(tmp_path):
    index = index_of(tmp_path, {"Props.kt": EXTENSION_PROPERTIES})
    facts = index.files["Props.kt"]
    units = {u.qualname: u for u in facts.units}
    assert (units["focalLength"].kind, units["focalLength"].start_line, units["focalLength"].end_line) == ("variable", 3, 7)
    assert (units["shout"].kind, units["shout"].start_line) == ("variable", 9)
    assert "plain" not in units  # a one-line value is no unit of its own
    callers = {c.name: c.caller for c in facts.calls}
    assert callers["firstOrNull"] == callers["lookup"] == units["focalLength"].id
    assert callers["uppercase"] == units["shout"].id
    assert callers["load"] is not None  # the multi-line initialiser is one unit (a module statement)


# an accessor's annotation, on its own line or before `get()`, with another declaration after it
ANNOTATED_ACCESSORS = """package demo

val Info.model: String
  @SuppressLint("RestrictedApi")
  get() {
    return describe(kind)
  }

val Info.lens: Int
  @OptIn(Experimental::class) get() {
    return facing()
  }

fun after() = 1
"""


def test_annotated_accessors_of_top_level_properties_parse(tmp_path):
    index = index_of(tmp_path, {"Info.kt": ANNOTATED_ACCESSORS})
    facts = index.files["Info.kt"]
    assert facts.parse_errors == 0
    units = {u.qualname: u for u in facts.units}
    assert [(q, units[q].start_line, units[q].end_line) for q in ("model", "lens", "after")] == [
        ("model", 3, 7), ("lens", 9, 12), ("after", 14, 14)]
    callers = {c.name: c.caller for c in facts.calls}
    assert callers["describe"] == units["model"].id and callers["facing"] == units["lens"].id
