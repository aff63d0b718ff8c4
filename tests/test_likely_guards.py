"""Likely edges the ranked graph must not make (a reviewer's findings on the development corpora):
a member-name guess on a receiver the index knows to hold a builtin's or a library's value, a bare
call of a parameter guessed as a function of that name elsewhere (or as another function's
closure), dispatch down from a `super` call or through a private method. Each test fails without
its guard; each also keeps the edge the guard must not take away."""

from __future__ import annotations

from codegraph.graph.likely import likely_graph
from codegraph.index.index import RootIndex
from test_likely_families import _build  # the same small-repository builder


def _out(idx: RootIndex, src: str) -> list[tuple[str, int, str]]:
    return [(e.dst, e.line, e.rule) for e in likely_graph(idx).out(src)]


def _dsts_at(idx: RootIndex, src: str, line: int) -> set[str]:
    return {dst for dst, at, rule in _out(idx, src) if at == line and rule != "resolved"}


PY_SESSION = '''\
from collections import OrderedDict


class Session:
    def __init__(self):
        self.adapters = OrderedDict()

    def get(self, url, **kwargs):
        return self.send(url, **kwargs)

    def items(self):
        return []

    def copy(self):
        return Session()

    def join(self, other):
        return self

    def send(self, request, **kwargs):
        stream = kwargs.get("stream")
        for prefix, adapter in self.adapters.items():
            pass
        return stream


def resolve(proxies, hooks):
    proxies = proxies if proxies is not None else {}
    merged = proxies.copy()
    name = ", ".join(["a", "b"])
    return merged, hooks.get("response"), name
'''


def test_python_receivers_known_as_builtins_guess_no_project_method(tmp_path):
    """`kwargs.get(…)` on `**kwargs`, `self.adapters.items()` on an `OrderedDict()`, `proxies.copy()`
    after `proxies = proxies if … else {}`, `", ".join(…)`: a dict's or a string's method, never
    `Session.get`/`items`/`copy`. An untyped parameter (`hooks.get(…)`) still gets its guess."""
    idx = _build(tmp_path, {"sessions.py": PY_SESSION})
    send = "sessions.py::Session.send"
    assert "sessions.py::Session.get" not in _dsts_at(idx, send, 21)
    assert "sessions.py::Session.items" not in _dsts_at(idx, send, 22)
    assert "sessions.py::Session.copy" not in _dsts_at(idx, "sessions.py::resolve", 29)
    assert "sessions.py::Session.join" not in _dsts_at(idx, "sessions.py::resolve", 30)
    assert "sessions.py::Session.get" in _dsts_at(idx, "sessions.py::resolve", 31)  # unknown: the guess stays


JAVA_MOSHI = '''\
package demo;

import java.util.List;

final class Moshi {
  interface Factory {
    Object create(String type);
  }

  private final List<Factory> factories;

  Moshi(List<Factory> factories) {
    this.factories = factories;
  }

  Object adapter(String type) {
    for (int i = 0; i < factories.size(); i++) {
      Object result = factories.get(i).create(type);
      if (result != null) return result;
    }
    StringBuilder message = new StringBuilder("no adapter for ");
    message.append(type);
    throw new IllegalArgumentException(message.toString() + Long.toString(7L));
  }

  static final class Lookup {
    @Override public String toString() {
      return "lookup";
    }
  }
}
'''
JAVA_FACTORY = '''\
package demo;

final class MethodsFactory implements Moshi.Factory {
  public Object create(String type) {
    return get(type);
  }

  Object get(String type) {
    return null;
  }
}
'''


def test_java_receivers_of_builtin_types_guess_no_project_method(tmp_path):
    """`factories.get(i)` on a `List<Factory>` field is the list's `get` (not the Factory
    implementation's `get`, by dispatch on the element type); `message.toString()` on a
    `new StringBuilder(…)` and `Long.toString(…)` are no `Lookup.toString`. The element read from
    the list still reaches `Factory.create`."""
    idx = _build(tmp_path, {"src/demo/Moshi.java": JAVA_MOSHI, "src/demo/MethodsFactory.java": JAVA_FACTORY})
    adapter = "src/demo/Moshi.java::Moshi.adapter"
    assert "src/demo/MethodsFactory.java::MethodsFactory.get" not in _dsts_at(idx, adapter, 18)
    assert "src/demo/Moshi.java::Moshi.Factory.create" in {dst for dst, line, _ in _out(idx, adapter) if line == 18}
    assert "src/demo/Moshi.java::Moshi.Lookup.toString" not in _dsts_at(idx, adapter, 23)


RUST_BUILD = '''\
use std::collections::HashMap;

pub struct Table {
    rows: Vec<u32>,
}

impl Table {
    pub fn insert(&mut self, row: u32) {
        self.rows.push(row);
    }

    pub fn index(&self) -> HashMap<u32, usize> {
        let mut res = HashMap::new();
        for (i, row) in self.rows.iter().enumerate() {
            res.insert(*row, i);
        }
        res
    }
}
'''


def test_rust_a_local_made_by_a_library_constructor_guesses_no_project_method(tmp_path):
    idx = _build(tmp_path, {"src/lib.rs": RUST_BUILD})
    assert "src/lib.rs::Table.insert" not in _dsts_at(idx, "src/lib.rs::Table.index", 15)


JS_LAYER = '''\
function Layer(fn) {
  this.handle = fn
}

Layer.prototype.handle_request = function handle(req, res, next) {
  var fn = this.handle
  if (fn.length > 3) {
    return next()
  }
  fn(req, res, next)
}

module.exports = Layer
'''
JS_ROUTER = '''\
function handle(req, res, out) {
  var idx = 0
  function next(err) {
    idx++
    out(err)
  }
  next()
}

function createServer(handler) {
  function listen(port) {
    return handler(port)
  }
  return { listen }
}

module.exports = { handle, createServer }
'''
JS_USE = '''\
const { createServer } = require('./router')

function start(handler) {
  const server = createServer(handler)
  return listen.call(server, 80)
}

module.exports = start
'''
JS_TICK = '''\
function tick() {
  return next()
}

module.exports = tick
'''


def test_a_parameter_called_is_no_function_of_that_name_elsewhere(tmp_path):
    """`next()` where `next` is a parameter: not the router's closure `handle.next` (nor any
    definition of that name); nor is a bare `next()` elsewhere: a closure is its function's local.
    A closure its function hands out by name (`return { listen }`) stays reachable."""
    idx = _build(tmp_path, {"lib/layer.js": JS_LAYER, "lib/router.js": JS_ROUTER, "lib/use.js": JS_USE, "lib/tick.js": JS_TICK})
    layer = [dst for dst, _, rule in _out(idx, "lib/layer.js::Layer.handle_request") if rule != "resolved"]
    assert "lib/router.js::handle.next" not in layer
    assert "lib/router.js::handle.next" not in {dst for dst, _, _ in _out(idx, "lib/tick.js::tick")}
    assert ("lib/router.js::createServer.listen") in {dst for dst, _, _ in _out(idx, "lib/use.js::start")}


JS_CALLBACKS = """\
const parser = require('./parser')
function close (server) {
  server.onClose((instance, done) => {
    instance.close(function (err) {
      done(err)
    })
  })
  server.ready(cb => cb())
  server.boot(function manageTimeout (err, next) { next(err) })
}
module.exports = close
"""
JS_PARSER = """\
function done (error) { return error }
function cb () {}
function next () {}
module.exports = { done, cb, next }
"""
PY_LAMBDA = """\
def later(loop):
    loop.call_soon(lambda done: done())
"""


def test_a_parameter_of_an_anonymous_function_called_is_no_function_of_that_name(tmp_path):
    """`(instance, done) => … done(err)`, `cb => cb()`, `function manageTimeout (err, next) { next(err) }`,
    `lambda done: done()`: the callback a caller hands in, not a definition of that name elsewhere."""
    idx = _build(tmp_path, {"lib/close.js": JS_CALLBACKS, "lib/parser.js": JS_PARSER, "pkg/__init__.py": "", "pkg/parser.py": "def done():\n    pass\n", "pkg/later.py": PY_LAMBDA})
    assert {dst for dst, _, _ in _out(idx, "lib/close.js::close")} & {"lib/parser.js::done", "lib/parser.js::cb", "lib/parser.js::next"} == set()
    assert "pkg/parser.py::done" not in {dst for dst, _, _ in _out(idx, "pkg/later.py::later")}


PY_SUPER = '''\
class Command:
    def __init__(self, name):
        self.name = name

    def run(self):
        return self.name


class MultiCommand(Command):
    def __init__(self, name):
        super().__init__(name)


class Group(MultiCommand):
    def __init__(self, name):
        MultiCommand.__init__(self, name)

    def run(self):
        return "group"


class CommandCollection(MultiCommand):
    def __init__(self, name):
        super().__init__(name)


def main(cmd: Command):
    return cmd.run()
'''


def test_a_super_call_runs_the_supertypes_member_only(tmp_path):
    """`super().__init__(…)` in MultiCommand reaches Command.__init__, never the overrides below
    (Group's, CommandCollection's); nor does `MultiCommand.__init__(self, …)`. A call through the
    base type still dispatches down."""
    idx = _build(tmp_path, {"core.py": PY_SUPER})
    multi = _out(idx, "core.py::MultiCommand.__init__")
    assert ("core.py::Command.__init__", 11, "resolved") in multi
    assert not [d for d, _, rule in multi if rule == "family-dispatch"]
    assert not [d for d, _, rule in _out(idx, "core.py::Group.__init__") if rule == "family-dispatch"]
    assert ("core.py::Group.run", 28, "family-dispatch") in _out(idx, "core.py::main")


JS_LOADER = '''\
class ConfigLoader {
  #locate(dir) {
    return dir
  }

  find(dir) {
    return this.#locate(dir)
  }

  load(dir) {
    return this.open(dir)
  }

  open(dir) {
    return dir
  }
}

class LegacyConfigLoader extends ConfigLoader {
  #locate(dir) {
    return dir + "/legacy"
  }

  open(dir) {
    return dir + "/legacy"
  }
}

module.exports = { ConfigLoader, LegacyConfigLoader }
'''
JAVA_PRIVATE = '''\
package demo;

class Base {
  private int locate(int dir) {
    return dir;
  }

  int find(int dir) {
    return locate(dir);
  }
}

class Sub extends Base {
  private int locate(int dir) {
    return dir + 1;
  }
}
'''


def test_a_private_method_is_never_overridden(tmp_path):
    """`this.#locate()` (JavaScript) and a `private` Java method run the class's own method: no
    dispatch to a subclass's method of the same name. A public one still dispatches."""
    idx = _build(tmp_path, {"lib/loader.js": JS_LOADER, "src/demo/Base.java": JAVA_PRIVATE})
    find = _out(idx, "lib/loader.js::ConfigLoader.find")
    assert ("lib/loader.js::ConfigLoader.#locate", 7, "resolved") in find
    assert "lib/loader.js::LegacyConfigLoader.#locate" not in {d for d, _, _ in find}
    assert ("lib/loader.js::LegacyConfigLoader.open", 11, "family-dispatch") in _out(idx, "lib/loader.js::ConfigLoader.load")
    assert "src/demo/Base.java::Sub.locate" not in {d for d, _, _ in _out(idx, "src/demo/Base.java::Base.find")}


JAVA_CARD = '''\
package demo;

final class Card {
  enum Suit { HEARTS, SPADES }

  Suit suit;

  String label() {
    return suit.name();
  }
}

final class Writer {
  void name(String value) {}
}
'''


def test_a_declared_project_type_without_the_member_gets_no_guess_by_name(tmp_path):
    """`suit.name()` on a field declared as the project's enum `Suit`, which has no `name`
    member: the enum's builtin method, not `Writer.name` by a name in the same file."""
    idx = _build(tmp_path, {"src/demo/Card.java": JAVA_CARD})
    assert "src/demo/Card.java::Writer.name" not in _dsts_at(idx, "src/demo/Card.java::Card.label", 9)


JAVA_UTIL = '''\
package demo;

import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;

final class Util {
  static int hash(Type type) {
    return type.hashCode();
  }

  static Node node(String value) {
    return null;
  }

  static Node node(Node left, String value, Node right) {
    return null;
  }

  static void rebalance(Node[] table) {
    table[0] = node(node("b"), "d", node("f"));
    for (Node node : table) {
      node.toString();
    }
  }

  static final class Node {}

  static final class WildcardTypeImpl implements WildcardType {
    @Override public int hashCode() {
      return 1;
    }
  }

  static final class Lookup {
    @Override public int hashCode() {
      return 2;
    }
  }
}
'''
RUST_VISITOR = '''\
pub struct Spanned;

impl Spanned {
    pub fn deserialize() -> u32 {
        struct SpannedVisitor(u32);
        let visitor = SpannedVisitor(7);
        visitor.0
    }
}
'''


def test_what_the_guards_keep(tmp_path):
    """A value declared as a library's interface may be a project type implementing it:
    `type.hashCode()` on a `Type` keeps `WildcardTypeImpl.hashCode` (it implements a library
    type) and drops `Lookup.hashCode` (it does not). In Java a local `node` does not hide the
    method `node(…)`. A type nested in the caller is reached by its bare name."""
    idx = _build(tmp_path, {"src/demo/Util.java": JAVA_UTIL, "src/lib.rs": RUST_VISITOR})
    hashed = _dsts_at(idx, "src/demo/Util.java::Util.hash", 8)
    assert "src/demo/Util.java::Util.WildcardTypeImpl.hashCode" in hashed
    assert "src/demo/Util.java::Util.Lookup.hashCode" not in hashed
    assert {"src/demo/Util.java::Util.node", "src/demo/Util.java::Util.node#2"} & {d for d, line, _ in _out(idx, "src/demo/Util.java::Util.rebalance") if line == 20}
    assert "src/lib.rs::Spanned.deserialize.SpannedVisitor" in {d for d, line, _ in _out(idx, "src/lib.rs::Spanned.deserialize") if line == 6}


JS_RENDERER = '''\
import { createAppAPI } from './app'

export function baseCreateRenderer(options) {
  const render = (vnode, container) => {
    options.insert(vnode, container)
  }
  return { render, createApp: createAppAPI(render) }
}
'''
JS_APP = '''\
export function createAppAPI(render) {
  return function createApp(root) {
    return {
      mount(container) {
        render(root, container)
      }
    }
  }
}
'''
PY_WORKER = '''\
def create_task_handler(strategies):
    def on_task_received(message):
        return strategies[message]

    return on_task_received


def consume(strategies, messages):
    handler = create_task_handler(strategies)
    for message in messages:
        handler(message)
'''


def test_a_parameter_or_local_called_reaches_the_function_handed_in_or_returned(tmp_path):
    """`render(root, container)` where `render` is a parameter of `createAppAPI`: the function
    `createAppAPI(render)` is passed by its resolved caller (`handed-in`); `handler(message)` where
    `handler = create_task_handler(…)`: the nested function that maker returns (`returned-function`)."""
    idx = _build(tmp_path, {"src/renderer.js": JS_RENDERER, "src/app.js": JS_APP, "worker.py": PY_WORKER})
    mount = _out(idx, "src/app.js::createAppAPI")
    assert ("src/renderer.js::baseCreateRenderer.render", 5, "handed-in") in mount
    assert ("worker.py::create_task_handler.on_task_received", 11, "returned-function") in _out(idx, "worker.py::consume")


RUST_SELF_NAMED_ALIAS = '''\
pub trait Stream {
    type Item;
}

pub struct Chunks<St: Stream> {
    items: Vec<St::Item>,
}

impl<St: Stream> Stream for Chunks<St> {
    type Item = Vec<St::Item>;
}

impl<St: Stream> Chunks<St> {
    pub fn add(&mut self, item: St::Item) {
        self.items.push(item)
    }
}

pub struct Queue;

impl Queue {
    pub fn push(&mut self, x: u8) {}
}
'''


def test_rust_an_alias_named_in_its_own_arguments_ends_the_type_walk(tmp_path):
    """`type Item = Vec<St::Item>` beside a field `items: Vec<St::Item>`: the field's element type is
    `St::Item`, whose `Item` is the alias, whose element is `St::Item` again. The walk recursed until
    Python's stack ran out, and explore and distill failed on the whole crate (a stream library's
    `chunks.rs`). It now ends there with no type: no guess on a library's `push`."""
    idx = _build(tmp_path, {"src/lib.rs": RUST_SELF_NAMED_ALIAS})
    assert "src/lib.rs::Queue.push" not in _dsts_at(idx, "src/lib.rs::Chunks.add", 16)
