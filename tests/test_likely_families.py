"""Edge families of the ranked graph added for calls the resolver cannot prove (issue 23): Kotlin
extension functions, `expect`/`actual` types, wide dispatch families, receivers made by a type's
associated function or a call with dotted arguments, Rust fields behind a lifetime. Each test
fails without its family; none of these edges is ever a proven fact."""

from __future__ import annotations

from pathlib import Path

from codegraph.graph.likely import likely_graph
from codegraph.index.index import RootIndex


def _build(root: Path, files: dict[str, str]) -> RootIndex:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    idx = RootIndex(root, use_cache=False)
    idx.build()
    return idx


def _out(idx: RootIndex, src: str) -> list[tuple[str, str]]:
    return [(e.dst, e.rule) for e in likely_graph(idx).out(src)]


def _never_proven(idx: RootIndex) -> None:
    resolved = {(e.src, e.dst) for b in idx.bindings.values() for e in b.edges}
    for uid in idx.resolver.units:
        for e in likely_graph(idx).out(uid):
            if e.rule != "resolved":
                assert (e.src, e.dst) not in resolved or e.confidence < 1.0


def test_an_extension_functions_body_sees_the_extended_types_members(tmp_path):
    """`fun RealSink.flushAll() { sink.flush() }`: `sink` is RealSink's field (type Sink), and the
    call dispatches to Sink's implementations; `x.flushAll()` on a RealSink reaches the extension
    (proven), and so, as a likely edge, does a call on a receiver of no known type named like it."""
    idx = _build(tmp_path, {
        "Sink.kt": "package demo\n\ninterface Sink {\n    fun flush()\n}\n\n"
                   "class FileSink : Sink {\n    override fun flush() {}\n}\n\n"
                   "class RealSink(val sink: Sink)\n",
        "Ext.kt": "package demo\n\nfun RealSink.flushAll() {\n    sink.flush()\n}\n",
        "Use.kt": "package demo\n\nimport java.io.File\n\n"
                  "fun File.toSink(): RealSink = RealSink(FileSink())\n\n"
                  "fun close(real: RealSink) {\n    real.flushAll()\n}\n\n"
                  "fun open(path: String) {\n    java.nio.file.Paths.get(path).toFile().toSink()\n}\n",
    })
    out = _out(idx, "Ext.kt::flushAll")
    assert ("Sink.kt::Sink.flush", "field-type") in out
    assert ("Sink.kt::FileSink.flush", "family-dispatch") in out
    # a receiver of a declared type: the extension call is proven (bindings/extensions.py)
    assert ("Ext.kt::flushAll", "resolved") in _out(idx, "Use.kt::close")
    # no type known for `….toFile()`: the extended type named like the receiver's last step
    assert ("Use.kt::toSink", "extension-call") in _out(idx, "Use.kt::open")
    graph = likely_graph(idx)
    assert any(e.src == "Use.kt::open" and e.rule == "extension-call" for e in graph.into("Use.kt::toSink"))
    _never_proven(idx)


def test_a_member_wins_over_an_extension_of_the_same_name(tmp_path):
    idx = _build(tmp_path, {
        "A.kt": "package demo\n\nclass Box {\n    fun size(): Int = 1\n}\n\nfun Box.size(): Int = 2\n\n"
                "fun use(box: Box) {\n    box.size()\n}\n",
    })
    assert ("A.kt::size", "extension-call") not in _out(idx, "A.kt::use")


def test_an_expect_type_stands_for_its_actual_declarations(tmp_path):
    """Kotlin multiplatform: `expect class Timeout` in common code, `actual class Timeout` per
    platform, one package. Common code is typed by the expect declaration and its call reaches the
    actual declarations' members; a platform's own code compiles against its platform's actual."""
    idx = _build(tmp_path, {
        "src/commonMain/kotlin/demo/Timeout.kt": "package demo\n\nexpect open class Timeout {\n    fun throwIfReached()\n}\n",
        "src/jvmMain/kotlin/demo/Timeout.kt": "package demo\n\nactual open class Timeout {\n    actual fun throwIfReached() {}\n}\n",
        "src/jsMain/kotlin/demo/Timeout.kt": "package demo\n\nactual open class Timeout {\n    actual fun throwIfReached() {}\n}\n",
        "src/commonMain/kotlin/demo/io/Reader.kt": "package demo.io\n\nimport demo.Timeout\n\nclass Reader(private val timeout: Timeout) {\n"
                                                   "    fun read() {\n        timeout.throwIfReached()\n    }\n}\n",
        "src/jvmMain/kotlin/demo/io/JvmReader.kt": "package demo.io\n\nimport demo.Timeout\n\nclass JvmReader(private val timeout: Timeout) {\n"
                                                   "    fun read() {\n        timeout.throwIfReached()\n    }\n}\n",
    })
    out = _out(idx, "src/commonMain/kotlin/demo/io/Reader.kt::Reader.read")
    # the property read bare is a field of `this` (proven: a Kotlin body's locals are recorded whole)
    assert ("src/commonMain/kotlin/demo/Timeout.kt::Timeout.throwIfReached", "resolved") in out
    assert ("src/jvmMain/kotlin/demo/Timeout.kt::Timeout.throwIfReached", "family-dispatch") in out
    jvm = _out(idx, "src/jvmMain/kotlin/demo/io/JvmReader.kt::JvmReader.read")
    assert jvm == [("src/jvmMain/kotlin/demo/Timeout.kt::Timeout.throwIfReached", "resolved")]


def test_a_call_on_a_base_method_with_many_implementations_reaches_them(tmp_path):
    """Twelve implementations of one abstract method (more than the old cap of eight): rule
    `wide-dispatch`, which the call hierarchy lists and the selection walks leave out."""
    subs = "".join(f"  static final class H{i} extends Handler {{\n    void apply(String v) {{}}\n  }}\n" for i in range(12))
    idx = _build(tmp_path, {
        "Handler.java": "abstract class Handler {\n  abstract void apply(String v);\n" + subs + "}\n",
        "Factory.java": "class Factory {\n  void create(Handler[] handlers, String v) {\n"
                        "    for (int p = 0; p < handlers.length; p++) {\n      handlers[p].apply(v);\n    }\n  }\n}\n",
    })
    graph = likely_graph(idx)
    out = [(e.dst, e.rule) for e in graph.out("Factory.java::Factory.create", wide=True)]
    assert ("Handler.java::Handler.apply", "declared-type") in out
    assert ("Handler.java::Handler.H7.apply", "wide-dispatch") in out
    conf = {e.dst: e.confidence for e in graph.out("Factory.java::Factory.create", wide=True)}
    assert conf["Handler.java::Handler.H7.apply"] < 0.2  # one of twelve: a weak edge
    # a rule of its own, left out of the selection walks (out()/into() without wide=True)
    assert "Handler.java::Handler.H7.apply" not in {e.dst for e in graph.out("Factory.java::Factory.create")}
    assert any(e.src == "Factory.java::Factory.create" for e in graph.into("Handler.java::Handler.H7.apply", wide=True))
    assert not graph.into("Handler.java::Handler.H7.apply")


def test_rust_receivers_made_by_an_associated_function_and_fields_behind_a_lifetime(tmp_path):
    idx = _build(tmp_path, {
        "src/lib.rs": "pub struct Command;\n\nimpl Command {\n    pub fn write_help(&mut self) {}\n}\n\n"
                      "pub struct AutoHelp;\n\nimpl AutoHelp {\n    pub fn new() -> Self {\n        AutoHelp\n    }\n\n"
                      "    pub fn write(&self) {}\n}\n\n"
                      "pub struct Parser<'cmd> {\n    cmd: &'cmd mut Command,\n}\n\n"
                      "impl<'cmd> Parser<'cmd> {\n    fn help(&mut self) {\n        self.cmd.write_help();\n"
                      "        AutoHelp::new().write();\n    }\n}\n",
    })
    out = _out(idx, "src/lib.rs::Parser.help")
    # a field's declared type, behind a lifetime and `&mut`, is proof in Rust, and so is what an
    # associated function declares it returns (`-> Self`): the resolver binds both
    assert ("src/lib.rs::Command.write_help", "resolved") in out
    assert ("src/lib.rs::AutoHelp.write", "resolved") in out


def test_a_go_receiver_made_by_a_call_with_dotted_arguments(tmp_path):
    """`Chain(mx.middlewares...).Handler(h)`: the dots inside the arguments are no steps (the
    declared return type of `Chain` proves the receiver's type)."""
    idx = _build(tmp_path, {
        "go.mod": "module example.com/demo\n\ngo 1.20\n",
        "chain.go": "package demo\n\ntype Middlewares []func(int) int\n\n"
                    "func Chain(m ...func(int) int) Middlewares {\n\treturn Middlewares(m)\n}\n\n"
                    "func (ms Middlewares) Handler(h int) int {\n\treturn h\n}\n",
        "mux.go": "package demo\n\ntype Mux struct {\n\tmiddlewares []func(int) int\n}\n\n"
                  "func (mx *Mux) handle(h int) int {\n\treturn Chain(mx.middlewares...).Handler(h)\n}\n",
    })
    assert ("chain.go::Middlewares.Handler", "resolved") in _out(idx, "mux.go::Mux.handle")


def test_reading_an_accessor_of_its_own_type_or_object_reaches_it(tmp_path):
    """A property read runs the accessor's body: `this.type = …` the setter, `this.value` the
    getter (JavaScript object literal, TypeScript class); a call or another object's member is no
    accessor read."""
    idx = _build(tmp_path, {
        "response.js": "module.exports = {\n  get type() {\n    return this._type;\n  },\n\n"
                       "  set type(value) {\n    this._type = value;\n  },\n\n"
                       "  set body(value) {\n    this.type = 'json';\n    other.type = 1;\n  },\n};\n",
        "ref.ts": "export class Ref {\n  get value(): number {\n    return 1;\n  }\n\n"
                  "  set value(v: number) {}\n\n  bump(): number {\n    return this.value + 1;\n  }\n}\n",
    })
    assert _out(idx, "response.js::body") == [("response.js::type#2", "accessor-read")]
    assert ("ref.ts::Ref.value", "accessor-read") in _out(idx, "ref.ts::Ref.bump")
    assert ("ref.ts::Ref.value#2", "accessor-read") not in _out(idx, "ref.ts::Ref.bump")
    graph = likely_graph(idx)
    assert [e.src for e in graph.into("ref.ts::Ref.value")] == ["ref.ts::Ref.bump"]
    assert [e.src for e in graph.into("response.js::type#2")] == ["response.js::body"]
    _never_proven(idx)


def test_a_local_made_by_a_likely_bound_call_is_typed_by_its_return(tmp_path):
    """`root := c.Root()` with a second `Root` elsewhere in the package: the method's declared
    return type types `root` (now a proof: the resolver binds `c.Root()` to the receiver's own
    method); `x = x.next()` is no loop."""
    idx = _build(tmp_path, {
        "go.mod": "module example.com/demo\n\ngo 1.20\n",
        "command.go": "package demo\n\ntype Command struct {\n\tparent *Command\n}\n\n"
                      "func (c *Command) Root() *Command {\n\treturn c\n}\n\n"
                      "func (c *Command) Find(name string) *Command {\n\treturn c\n}\n",
        "completions.go": "package demo\n\nfunc (c *Command) complete() {\n\troot := c.Root()\n\troot.Find(\"x\")\n}\n",
        "root.go": "package demo\n\nfunc Root() int {\n\treturn 0\n}\n",
        "list.py": "class Node:\n    def next(self):\n        return self\n\n\ndef walk(x):\n    x = x.next()\n    x.next()\n",
    })
    assert ("command.go::Command.Find", "resolved") in _out(idx, "completions.go::Command.complete")
    _out(idx, "list.py::walk")  # terminates


def test_an_apply_method_is_reached_through_a_receiver_named_exactly_like_its_type(tmp_path):
    """`this.pipesConsumer.apply(…)` with no type known (compiled JavaScript): the receiver named
    exactly like PipesConsumer reaches its `apply`; a name that only ends like it does not."""
    idx = _build(tmp_path, {
        "pipes.js": "class PipesConsumer {\n  apply(value) {\n    return value;\n  }\n}\nexports.PipesConsumer = PipesConsumer;\n",
        "router.js": "class Router {\n  constructor(pipesConsumer, otherPipesConsumer) {\n    this.pipesConsumer = pipesConsumer;\n"
                     "    this.otherPipesConsumer = otherPipesConsumer;\n  }\n\n"
                     "  handle(v) {\n    return this.pipesConsumer.apply(v);\n  }\n\n"
                     "  other(v) {\n    return this.otherPipesConsumer.apply(v);\n  }\n}\nexports.Router = Router;\n",
    })
    assert ("pipes.js::PipesConsumer.apply", "receiver-name") in _out(idx, "router.js::Router.handle")
    assert _out(idx, "router.js::Router.other") == []


def test_a_supertype_named_like_a_factory_function_is_the_type_and_its_property_is_read(tmp_path):
    """Kotlin's factory idiom: `interface ImageLoader` and `fun ImageLoader(…)` in one package. The
    supertype clause `: ImageLoader` names the interface (a proven edge: a type clause names only
    a type), and `imageLoader.components.map()` on a field of the interface type reads the one
    implementation's property unit (`member-read`, likely)."""
    idx = _build(tmp_path, {
        "ImageLoader.kt": "package demo\n\ninterface ImageLoader {\n    val components: Registry\n}\n\n"
                          "fun ImageLoader(name: String): ImageLoader = RealImageLoader()\n",
        "RealImageLoader.kt": "package demo\n\nclass RealImageLoader : ImageLoader {\n"
                              "    override val components = Registry()\n        .newBuilder()\n        .build()\n}\n",
        "Registry.kt": "package demo\n\nclass Registry {\n    fun newBuilder(): Registry = this\n    fun build(): Registry = this\n"
                       "    fun map(x: Int): Int = x\n}\n",
        "Engine.kt": "package demo\n\nclass Engine(private val imageLoader: ImageLoader) {\n"
                     "    fun intercept(x: Int): Int {\n        return imageLoader.components.map(x)\n    }\n}\n",
    })
    implements = {(e.src, e.dst) for b in idx.bindings.values() for e in b.edges if e.kind == "implements"}
    assert ("RealImageLoader.kt::RealImageLoader", "ImageLoader.kt::ImageLoader") in implements
    assert ("RealImageLoader.kt::RealImageLoader.components", "member-read") in _out(idx, "Engine.kt::Engine.intercept")
    _never_proven(idx)


def test_a_receiver_cut_at_the_recorded_length_types_nothing(tmp_path):
    """A receiver cut at the recorded length (120 characters) may end where a shorter expression
    would (`store.open("…")` of `store.open("…").other()`): no typed rule reads it."""
    arg = '"' + "x" * 106 + '"'
    idx = _build(tmp_path, {
        "app/store.py": "class Other:\n    def save(self):\n        return 1\n\n\nclass Store:\n"
                        "    def open(self, s) -> 'Store':\n        return self\n\n    def other(self) -> Other:\n        return Other()\n\n"
                        "    def save(self):\n        return 2\n",
        "app/run.py": f"from app.store import Store\n\n\ndef run(store: Store):\n    store.open({arg}).other().save()\n",
    })
    # (name rules may still list every `save` in reach, at their low confidence)
    assert ("app/store.py::Store.save", "return-type") not in _out(idx, "app/run.py::run")


PARAM_FLOW_JS = {
    "filters.js": "class ExceptionFilters {\n  create(handler) {\n    return handler;\n  }\n}\nmodule.exports = { ExceptionFilters };\n",
    "proxy.js": "class RouterProxy {\n  createProxy(fn) {\n    return fn;\n  }\n}\nmodule.exports = { RouterProxy };\n",
    "explorer.js": "class RouterExplorer {\n  constructor(filters, proxy) {\n    this.filters = filters;\n    this.proxy = proxy;\n  }\n"
                   "  explore(handler) {\n    const f = this.filters.create(handler);\n    return this.proxy.createProxy(f);\n  }\n}\n"
                   "module.exports = { RouterExplorer };\n",
    "resolver.js": "const { ExceptionFilters } = require('./filters');\nconst { RouterProxy } = require('./proxy');\n"
                   "const { RouterExplorer } = require('./explorer');\n"
                   "class RoutesResolver {\n  constructor() {\n    this.proxy = new RouterProxy();\n"
                   "    this.explorer = new RouterExplorer(new ExceptionFilters(), this.proxy);\n  }\n}\n",
}


def test_a_member_set_from_an_untyped_constructor_parameter_takes_the_type_its_constructions_pass(tmp_path):
    """`this.filters = filters` with `filters` untyped: the project makes RouterExplorer in one place,
    with `new ExceptionFilters()` and a member of its own that holds a RouterProxy — so
    `this.filters.create()` and `this.proxy.createProxy()` reach those types' methods."""
    idx = _build(tmp_path, PARAM_FLOW_JS)
    out = _out(idx, "explorer.js::RouterExplorer.explore")
    assert ("filters.js::ExceptionFilters.create", "param-flow") in out
    assert ("proxy.js::RouterProxy.createProxy", "param-flow") in out
    _never_proven(idx)


def test_param_flow_reads_a_local_the_constructing_function_made(tmp_path):
    """Compiled JavaScript: `const proxy = new proxy_1.RouterProxy()` through a namespace import,
    then handed to the constructor — the local's construction types the argument."""
    files = dict(PARAM_FLOW_JS)
    files["resolver.js"] = ("const filters_1 = require('./filters');\nconst proxy_1 = require('./proxy');\n"
                            "const explorer_1 = require('./explorer');\n"
                            "class RoutesResolver {\n  constructor() {\n    const proxy = new proxy_1.RouterProxy();\n"
                            "    this.explorer = new explorer_1.RouterExplorer(new filters_1.ExceptionFilters(), proxy);\n  }\n}\n")
    idx = _build(tmp_path, files)
    out = _out(idx, "explorer.js::RouterExplorer.explore")
    assert ("proxy.js::RouterProxy.createProxy", "param-flow") in out
    assert ("filters.js::ExceptionFilters.create", "param-flow") in out


def test_param_flow_needs_the_constructions_to_agree(tmp_path):
    """Two constructions passing different types: no guess (nothing but the name would decide)."""
    files = dict(PARAM_FLOW_JS)
    files["other.js"] = ("const { RouterExplorer } = require('./explorer');\nclass Other {\n  create(h) {\n    return h;\n  }\n}\n"
                         "function make() {\n  return new RouterExplorer(new Other(), null);\n}\n")
    idx = _build(tmp_path, files)
    out = _out(idx, "explorer.js::RouterExplorer.explore")
    assert not any(rule == "param-flow" and dst.endswith(".create") for dst, rule in out)
    assert ("proxy.js::RouterProxy.createProxy", "param-flow") in out  # the other parameter still agrees


def test_param_flow_in_python_follows_keywords_and_does_not_depend_on_the_order_of_asking(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/pool.py": "class Pool:\n    def apply_async(self, fn):\n        return fn()\n",
        "pkg/consumer.py": "class Consumer:\n    def __init__(self, hostname, pool=None):\n        self.hostname = hostname\n        self.pool = pool\n\n"
                           "    def on_task(self, fn):\n        return self.pool.apply_async(fn)\n",
        "pkg/worker.py": "from pkg.consumer import Consumer\nfrom pkg.pool import Pool\n\n\nclass Worker:\n    def __init__(self, pool):\n        self.pool = pool\n\n"
                         "    def start(self):\n        self.consumer = Consumer('h', pool=self.pool)\n        return self.consumer.on_task(len)\n\n\n"
                         "def main():\n    return Worker(Pool()).start()\n",
    }
    idx = _build(tmp_path, files)
    # Consumer gets Worker's pool, which Worker got from main: two constructors deep
    want = ("pkg/pool.py::Pool.apply_async", "param-flow")
    assert want in _out(idx, "pkg/consumer.py::Consumer.on_task")
    fresh = _build(tmp_path / "again", files)
    likely_graph(fresh).out("pkg/worker.py::Worker.start")  # ask about the caller first: same answer
    assert want in _out(fresh, "pkg/consumer.py::Consumer.on_task")
    _never_proven(idx)


def test_param_flows_argument_reader_keeps_strings_and_nesting_whole():
    """An escaped quote, a comma in a string or in a nested call splits nothing; a keyword is found
    by name; a spread makes the positions unknown."""
    from codegraph.graph.typed import _argument
    from codegraph.model.facts import Call

    src = b'new X("a\\"b, c", f(y, z), k=w)'
    call = Call(None, "X", "", 1, 0, len(src), True)
    assert _argument(src, call, 0, "q") == '"a\\"b, c"'
    assert _argument(src, call, 1, "q") == "f(y, z)"
    assert _argument(src, call, 2, "q") is None  # keyword arguments end the positional ones
    assert _argument(src, call, 9, "k") == "w"
    spread = b"new X(...args, y)"
    assert _argument(spread, Call(None, "X", "", 1, 0, len(spread), True), 1, "q") is None


def test_a_member_read_through_a_typed_getter_types_the_call_on_it(tmp_path):
    """`self.lexer.tokenize()` where `lexer` is a `@property` declared `-> Lexer`, and
    `this.lexer.tokenize()` where it is a TypeScript `get lexer(): Lexer`: the getter declares
    what the read gives, so the call goes to that type's method by its return type, not by name."""
    idx = _build(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/lexer.py": "class Lexer:\n    def tokenize(self, source):\n        return source.split()\n\n\nclass Other:\n    def tokenize(self, source):\n        return []\n",
        "pkg/env.py": (
            "from .lexer import Lexer\n\n\nclass Environment:\n    @property\n    def lexer(self) -> Lexer:\n        return Lexer()\n\n"
            "    def _tokenize(self, source):\n        return self.lexer.tokenize(source)\n"
        ),
        "src/env.ts": (
            "export class Lexer { tokenize(s: string) { return s } }\n"
            "export class Other { tokenize(s: string) { return '' } }\n"
            "export class Env {\n  get lexer(): Lexer { return new Lexer() }\n  run(s: string) { return this.lexer.tokenize(s) }\n}\n"
        ),
    })
    assert ("pkg/lexer.py::Lexer.tokenize", "return-type") in _out(idx, "pkg/env.py::Environment._tokenize")
    assert "pkg/lexer.py::Other.tokenize" not in {d for d, _ in _out(idx, "pkg/env.py::Environment._tokenize")}
    assert ("src/env.ts::Lexer.tokenize", "return-type") in _out(idx, "src/env.ts::Env.run")
    _never_proven(idx)


def test_multiplatform_headers_the_grammar_rejects_keep_the_file(tmp_path):
    """`expect class DeflaterSink` whose primary constructor starts on a later line after a doc
    comment, and `actual val` on a constructor parameter: the grammar rejected both and the rest
    of the file with them (the class's members, the `Sink.deflate()` extension after it). Lines stay."""
    sink = (
        "package demo\n\n"
        "/** A sink. */\n"
        "expect class DeflaterSink\n"
        "/**\n * Shares a buffer.\n */\n"
        "internal constructor(\n"
        "  sink: Sink,\n"
        ") : Sink {\n"
        "  fun finishDeflate()\n"
        "}\n\n"
        "inline fun Sink.deflate(): DeflaterSink =\n"
        "  DeflaterSink(this)\n"
    )
    real = (
        "package demo\n\n"
        "internal actual class RealSource actual constructor(\n"
        "  @JvmField actual val source: Source,\n"
        ") : Source {\n"
        "  fun pull() { source.read() }\n"
        "}\n"
    )
    idx = _build(tmp_path, {
        "DeflaterSink.kt": sink,
        "RealSource.kt": real,
        "Source.kt": "package demo\n\ninterface Sink\n\ninterface Source {\n    fun read()\n}\n",
        "Use.kt": "package demo\n\nfun squeeze(sink: Sink) {\n    sink.deflate()\n}\n",
    })
    units = {u.qualname: u for u in idx.files["DeflaterSink.kt"].units}
    assert units["DeflaterSink.finishDeflate"].parent == "DeflaterSink.kt::DeflaterSink"
    assert units["deflate"].ext_type == "Sink" and units["deflate"].name_line == 14
    assert units["DeflaterSink.finishDeflate"].name_line == 11
    assert idx.files["DeflaterSink.kt"].parse_errors == 0 and idx.files["RealSource.kt"].parse_errors == 0
    assert ("DeflaterSink.kt::deflate", "resolved") in _out(idx, "Use.kt::squeeze")  # a Sink parameter: proven
    assert ("Source.kt::Source.read", "field-type") in _out(idx, "RealSource.kt::RealSource.pull") or any(
        e.dst == "Source.kt::Source.read" for e in idx.bindings["RealSource.kt"].edges
    )


def test_rust_destructured_local_types_its_position_of_the_return_type(tmp_path):
    """`let (_, mut rx) = channel()`, channel declared `-> (u8, Box<dyn Recv>)`: rx's calls go to
    the trait's method by its declared type, not to every same-named member."""
    idx = _build(tmp_path, {
        "Cargo.toml": '[package]\nname = "m"\n',
        "src/lib.rs": (
            "pub trait Recv { fn recv(&mut self); }\n"
            "pub struct Receiver;\n"
            "impl Recv for Receiver { fn recv(&mut self) {} }\n"
            "pub struct Sink;\n"
            "impl Sink { pub fn recv(&mut self) {} }\n"
            "pub fn channel() -> (u8, Box<dyn Recv>) { (0, Box::new(Receiver)) }\n"
            "pub fn run() {\n"
            "    let (_, mut rx) = channel();\n"
            "    rx.recv();\n"
            "}\n"
        ),
    })
    out = _out(idx, "src/lib.rs::run")
    # proven since `Box` carries its value (bindings/carriers.py); a likely `return-type` edge before
    assert ("src/lib.rs::Recv.recv", "resolved") in out
    assert not any(dst == "src/lib.rs::Sink.recv" for dst, _ in out)



def test_a_python_string_naming_a_definition_by_import_path_reaches_it(tmp_path):
    """`Strategy = 'pkg.strategy:default'` is loaded by path and run later: the class holding the
    string and the method reading `self.Strategy` reach `default`; a function returning settings
    reaches the class its `'pkg.strategy.Runner'` names. A module alone, a path to nothing, a plain dotted
    word and a library string naming a test's definition reach nothing. Never a proof."""
    idx = _build(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/strategy.py": "def default(task):\n    return task\n\n\nclass Runner:\n    def run(self):\n        return 1\n",
        "pkg/task.py": (
            "from pkg.util import instantiate\n\n\n"
            "class Task:\n    Strategy = 'pkg.strategy:default'\n\n"
            "    def start(self):\n        return instantiate(self.Strategy, self)\n\n"
            "    def other(self):\n        return 'pkg.strategy'\n\n\n"
            "def defaults():\n    return {'runner': 'pkg.strategy.Runner', 'gone': 'pkg.strategy:missing', 'word': 'e.g'}\n\n\n"
            "def helper():\n    return 'tests.test_task:fake'\n"
        ),
        "pkg/util.py": "def instantiate(path, *args):\n    return path\n",
        "tests/test_task.py": "def fake():\n    return 'pkg.strategy:default'\n",
    })
    graph = likely_graph(idx)
    assert ("pkg/strategy.py::default", "import-path") in _out(idx, "pkg/task.py::Task")
    assert ("pkg/strategy.py::default", "import-path") in _out(idx, "pkg/task.py::Task.start")
    assert not [e for e in graph.out("pkg/task.py::Task.other") if e.rule == "import-path"]
    assert not [e for e in graph.out("pkg/task.py::helper") if e.rule == "import-path"]
    callers = {e.src for e in graph.into("pkg/strategy.py::default") if e.rule == "import-path"}
    assert {"pkg/task.py::Task", "pkg/task.py::Task.start", "tests/test_task.py::fake"} <= callers
    assert [(e.dst, e.rule) for e in graph.out("pkg/task.py::defaults") if e.rule == "import-path"] == [("pkg/strategy.py::Runner", "import-path")]
    assert "pkg/task.py::defaults" in {e.src for e in graph.into("pkg/strategy.py::Runner")}
    assert not [e for uid in idx.resolver.units for e in graph.out(uid) if e.rule == "import-path" and e.dst.startswith("tests/") and not uid.startswith("tests/")]
    _never_proven(idx)


GO_ALIAS = {
    "go.mod": "module example.com/log\n",
    "core/attr.go": "package core\n\ntype Attr struct{ Key string }\n\nfunc (f Attr) Encode(enc int) {}\n",
    "core/level.go": "package core\n\ntype Level int8\n\nfunc (l Level) Enabled() bool { return l > 0 }\n",
    "attr.go": (
        'package log\n\nimport "example.com/log/core"\n\n'
        "// Attr is the core's attribute under this package's name.\ntype Attr = core.Attr\n\n"
        "type (\n\tany = interface{}\n\tLevel = core.Level\n)\n\n"
        "func write(f Attr, v any, l Level) {\n\tf.Encode(1)\n\tl.Enabled()\n}\n"
    ),
}


def test_go_type_alias_is_a_unit_whose_members_are_its_targets(tmp_path):
    """`type Attr = core.Attr` re-exports a type under a package's own name: it was no unit (a
    file of aliases had none), and now that it is one, a parameter of the alias's type still reaches
    the target's methods (the alias has none of its own), an alias in a `type ( … )` group too."""
    idx = _build(tmp_path, GO_ALIAS)
    kinds = {u.qualname: u.kind for u in idx.files["attr.go"].units}
    assert kinds.get("Attr") == "struct" and kinds.get("any") == "struct"
    out = set(_out(idx, "attr.go::write"))
    assert {("core/attr.go::Attr.Encode", "declared-type"), ("core/level.go::Level.Enabled", "declared-type")} <= out


RUST_ALIAS = {
    "src/lib.rs": (
        "mod conn;\n\n/// The connection every handler is handed.\n#[cfg(feature = \"net\")]\npub type Shared = conn::Conn;\n"
        "pub type Result<T> = std::result::Result<T, conn::Error>;\n\n"
        "pub fn run(c: &Shared) -> Result<()> {\n    c.send();\n    Ok(())\n}\n"
    ),
    "src/conn.rs": (
        "pub struct Conn;\npub struct Error;\n\nimpl Conn {\n    pub fn send(&self) {}\n}\n\n"
        "impl Iterator for Conn {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { None }\n}\n"
    ),
}


def test_rust_type_alias_of_a_module_is_a_unit_whose_members_are_its_targets(tmp_path):
    """`pub type Result<T> = …;` and `pub type Shared = conn::Conn;` name types a crate's code is
    written in (a crate's own `Result`, its handler's type): they were no units, so a question naming
    one found no definition. Now they are, as Go's aliases are, and a parameter of the alias's type
    still reaches the target's methods; an impl's associated type (`type Item = u8;`) stays none."""
    idx = _build(tmp_path, RUST_ALIAS)
    kinds = {u.qualname: u.kind for u in idx.files["src/lib.rs"].units}
    assert kinds.get("Shared") == "struct" and kinds.get("Result") == "struct"
    assert not any(u.name == "Item" for u in idx.files["src/conn.rs"].units)
    assert ("src/conn.rs::Conn.send", "declared-type") in set(_out(idx, "src/lib.rs::run"))
