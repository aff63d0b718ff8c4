"""An object literal handed to a call at a module's top level: the classes a library makes from an
object of methods (`export var Map = Evented.extend({ setView: function … })`) and the mixins that
add methods to one (`Map.include({…})`, `Object.assign(Store.prototype, {…})`). Its function entries
are definitions filed under what holds the call's value, or under the object the call fills, so
`this.m()` inside one reaches its sibling; an object handed to a call that names no holder
(`register('name', {…})`) files nothing."""

from __future__ import annotations

from test_bindings import index_of, target

from codegraph.index.extract import extract_source

CLASS_FROM_OBJECT = """
import {Evented} from './events';

export var Map = Evented.extend({
  options: { zoom: 1 },
  initialize: function (id) { this.setView(id); },
  setView: function (center) { return this._reset(center); },
  _reset(center) { return center; },
});

Map.include({
  locate: function () { return this.setView(null); },
});

Object.assign(Store.prototype, { get(k) { return this.load(k); }, load: function (k) { return k; } });

register('widget', { render: function () { return 1; } });
"""


def _qualnames(source: str) -> set[str]:
    facts, _, _ = extract_source("src/map.js", "javascript", source.encode())
    return {u.qualname for u in facts.units if u.kind != "statement"}


def test_the_function_entries_of_an_object_handed_to_a_top_level_call_are_definitions_of_its_holder():
    names = _qualnames(CLASS_FROM_OBJECT)
    assert {"Map.initialize", "Map.setView", "Map._reset", "Map.locate", "Store.get", "Store.load"} <= names
    assert "render" not in names and not any(n.endswith(".render") for n in names)  # nothing names that object


def test_this_in_an_entry_of_an_object_handed_to_a_call_reaches_its_sibling(tmp_path):
    index = index_of(tmp_path, {"src/map.js": CLASS_FROM_OBJECT, "src/events.js": "export var Evented = {};\n"})
    assert target(index, "src/map.js", "setView", 0) == "src/map.js::Map.setView"
    assert target(index, "src/map.js", "_reset") == "src/map.js::Map._reset"
    assert target(index, "src/map.js", "setView", 1) == "src/map.js::Map.setView"  # a mixin's, same module
    assert target(index, "src/map.js", "load") == "src/map.js::Store.load"


def test_a_property_descriptor_handed_to_a_call_is_no_member_of_the_object_it_describes():
    names = _qualnames("Object.defineProperty(Store.prototype, 'size', { get: function () { return this.n; } });\n"
                       "Object.defineProperty(Store.prototype, 'name', { get: function () { return 'x'; } });\n")
    assert not any(n.startswith("Store.") for n in names)
