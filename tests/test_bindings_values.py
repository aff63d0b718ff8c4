"""Values the resolver types past a plain declaration: through a carrier (`Result<Conn, E>`,
`Option<Box<Conn>>`, `Promise<Conn>`, `Optional<Conn>`: a method the carrier does not define binds
to the carried type's, the carrier's own methods never do, `unwrap()` / `get()` hand the value on),
through fields read link by link, and as the element a loop walks. Each test writes a tiny
repository and checks the target of a call."""

from __future__ import annotations

from test_bindings import index_of, target  # the same small-repository builder


def test_rust_result_option_and_pointers_carry_their_value(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            use std::sync::Arc;
            pub struct Error;
            pub struct Conn { n: u32 }
            impl Conn {
                pub fn send(&self) -> u32 { self.n }
                pub fn clone(&self) -> Conn { Conn { n: self.n } }
            }
            pub struct Pool { shared: Arc<Conn>, spare: Option<Box<Conn>> }
            impl Pool {
                pub fn get(&self) -> Result<Conn, Error> { Ok(Conn { n: 1 }) }
                pub fn open() -> Result<Self, Error> { Ok(Pool { shared: Arc::new(Conn { n: 0 }), spare: None }) }
                pub fn run(&self) -> Result<u32, Error> {
                    let c = self.get()?;
                    let d = self.get().unwrap();
                    let copy = self.shared.clone();
                    Ok(c.send() + d.send() + self.get()?.send() + self.shared.send()
                       + self.spare.as_ref().unwrap().send() + Pool::open()?.shared.send())
                }
            }
        """,
    })
    rs = "src/lib.rs"
    send = "src/lib.rs::Conn.send"
    assert target(index, rs, "send", 0) == send  # `let c = self.get()?`
    assert target(index, rs, "send", 1) == send  # `let d = self.get().unwrap()`
    assert target(index, rs, "send", 2) == send  # `self.get()?.send()`
    assert target(index, rs, "send", 3) == send  # through the field's `Arc<Conn>`
    assert target(index, rs, "send", 4) == send  # `Option<Box<Conn>>`, `as_ref()` then `unwrap()`
    assert target(index, rs, "clone", 0) is None  # the `Arc`'s own `clone`, not `Conn::clone`
    assert target(index, rs, "unwrap", 0) is None  # the carrier's own methods stay unknown


def test_typescript_promise_carries_its_value_past_await(tmp_path):
    index = index_of(tmp_path, {
        "a.ts": """
            export class Conn {
              send(): number { return 1; }
              then(): number { return 2; }
            }
            export class Pool {
              async get(): Promise<Conn> { return new Conn(); }
            }
            export async function run(pool: Pool): Promise<number> {
              const c = await pool.get();
              const pending = pool.get();
              pending.then();
              return c.send();
            }
        """,
    })
    assert target(index, "a.ts", "send") == "a.ts::Conn.send"
    assert target(index, "a.ts", "then") is None  # the promise's `then`


def test_java_optional_hands_its_value_over_by_get_and_or_else(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Pool.java": """
            package a;
            import java.util.Optional;
            class Conn { int send() { return 1; } boolean isPresent() { return true; } }
            class Pool {
              Optional<Conn> find() { return Optional.empty(); }
              int run() {
                Conn c = find().orElseThrow();
                Optional<Conn> o = find();
                o.isPresent();
                return c.send() + find().get().send() + o.get().send();
              }
            }
        """,
    })
    java = "src/a/Pool.java"
    assert [target(index, java, "send", i) for i in range(3)] == ["src/a/Pool.java::Conn.send"] * 3
    assert target(index, java, "isPresent") is None  # the `Optional`'s own


def test_a_project_type_named_like_a_carrier_is_the_project_type(tmp_path):
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Conn;
            impl Conn { pub fn send(&self) {} }
            pub struct Pin<T> { inner: T }
            impl<T> Pin<T> { pub fn send(&self) {} }
            pub fn run(p: Pin<Conn>) { p.send(); }
        """,
    })
    assert target(index, "src/lib.rs", "send") == "src/lib.rs::Pin.send"


def test_a_receiver_reads_fields_through_their_declared_types(tmp_path):
    """`self.conn.codec.decode()` and `unit.mode.is_doc()`: each `.name` of a typed value is its
    declared field (a field, not a method of that name, is what `x.name` reads), through a pointer too."""
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            use std::sync::Arc;
            pub struct Codec;
            impl Codec { pub fn decode(&self) {} }
            pub struct Conn { codec: Codec }
            impl Conn { pub fn codec(&self) -> u8 { 0 } }
            pub struct Mode;
            impl Mode { pub fn is_doc(&self) -> bool { false } }
            pub struct Unit { mode: Mode }
            pub struct Server { conn: Arc<Conn> }
            impl Server {
                pub fn run(&self, unit: &Unit) {
                    self.conn.codec.decode();
                    unit.mode.is_doc();
                }
            }
        """,
    })
    rs = "src/lib.rs"
    assert target(index, rs, "decode") == "src/lib.rs::Codec.decode"
    assert target(index, rs, "is_doc") == "src/lib.rs::Mode.is_doc"


def test_a_loop_variable_holds_an_element_of_the_declared_collection_it_walks(tmp_path):
    """Go's `range` over a slice, a map or a call's declared result; Rust's `for` over `&Vec<T>`,
    `x.iter()`, a slice parameter; TypeScript's `for … of`; Python's annotated parameter; Kotlin's
    `for (x in …)`: the variable is an element. A name two loops bind to different collections stays
    unknown, and so does a loop over a map in a language where that yields pairs."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "chain.go": """
            package m

            type Handler interface{ Serve() }
            type Step struct{}

            func (s *Step) Run() {}

            type Chain struct {
                handlers []Handler
                byName   map[string]*Step
            }

            func (c *Chain) Steps() []*Step { return nil }

            func (c *Chain) Run() {
                for _, h := range c.handlers {
                    h.Serve()
                }
                for _, named := range c.byName {
                    named.Run()
                }
                for _, st := range c.Steps() {
                    st.Run()
                }
            }
        """,
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Step;
            impl Step { pub fn run(&self) {} }
            pub struct Chain { steps: Vec<Step>, boxed: Vec<Box<Step>> }
            impl Chain {
                pub fn go(&self, more: &[Step]) {
                    for s in &self.steps { s.run(); }
                    for b in self.boxed.iter() { b.run(); }
                    for m in more { m.run(); }
                    for x in more { x.run(); }
                    for x in &self.boxed { x.run(); }
                }
            }
        """,
        "web/chain.ts": """
            export class Step { run(): void {} }
            export class Chain {
              steps: Step[] = [];
              table: Map<string, Step> = new Map();
              go(more: Array<Step>): void {
                for (const s of this.steps) { s.run(); }
                for (const m of more) { m.run(); }
                for (const pair of this.table) { pair.run(); }
              }
            }
        """,
        "py/chain.py": """
            from typing import Sequence

            class Step:
                def run(self):
                    pass

            def go(steps: list[Step], more: Sequence["Step"]):
                for s in steps:
                    s.run()
                for m in more:
                    m.run()
        """,
        "kt/Chain.kt": """
            package a
            class Step { fun run() {} }
            class Chain(val steps: List<Step>) {
                fun go() { for (s in this.steps) { s.run() } }
            }
        """,
    })
    assert target(index, "chain.go", "Serve") == "chain.go::Handler.Serve"
    assert target(index, "chain.go", "Run", 0) == target(index, "chain.go", "Run", 1) == "chain.go::Step.Run"
    rs = "src/lib.rs"
    assert [target(index, rs, "run", i) for i in range(3)] == ["src/lib.rs::Step.run"] * 3
    assert target(index, rs, "run", 3) is None  # `x` walks two collections: which one is a question of blocks
    ts = "web/chain.ts"
    assert target(index, ts, "run", 0) == target(index, ts, "run", 1) == "web/chain.ts::Step.run"
    assert target(index, ts, "run", 2) is None  # a Map yields pairs
    assert target(index, "py/chain.py", "run", 0) == target(index, "py/chain.py", "run", 1) == "py/chain.py::Step.run"
    assert target(index, "kt/Chain.kt", "run") == "kt/Chain.kt::Step.run"


def test_a_java_enhanced_for_variable_has_its_declared_type(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Chain.java": """
            package a;
            import java.util.List;
            class Step { void run() {} }
            class Chain {
              List<Step> steps;
              void go() { for (Step s : steps) { s.run(); } }
            }
        """,
    })
    assert target(index, "src/a/Chain.java", "run") == "src/a/Chain.java::Step.run"


def test_a_local_initialised_by_a_field_read_holds_what_the_read_denotes(tmp_path):
    """`conn := s.conn`, `let codec = &mut self.codec`, `const router = this.router`: the local is the
    field's value, declared type and all."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "server.go": """
            package m

            type Codec struct{}

            func (c *Codec) Decode() {}

            type Conn struct{ codec *Codec }

            type Server struct{ conn *Conn; codecs []*Codec }

            func (s *Server) Serve() {
                conn := s.conn
                codec := &conn.codec
                codec.Decode()
                codecs := s.codecs
                for _, c := range codecs {
                    c.Decode()
                }
            }
        """,
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Codec;
            impl Codec { pub fn decode(&mut self) {} }
            pub struct Conn { codec: Codec }
            impl Conn {
                pub fn poll(&mut self) {
                    let codec = &mut self.codec;
                    codec.decode();
                }
            }
        """,
        "app.ts": """
            export class Router { route(): void {} }
            export class App {
              router: Router = new Router();
              handle(): void {
                const router = this.router;
                router.route();
              }
            }
        """,
    })
    assert target(index, "server.go", "Decode", 0) == target(index, "server.go", "Decode", 1) == "server.go::Codec.Decode"
    assert target(index, "src/lib.rs", "decode") == "src/lib.rs::Codec.decode"
    assert target(index, "app.ts", "route") == "app.ts::Router.route"


def test_a_callback_over_a_collection_receives_its_elements(tmp_path):
    """`this.steps.forEach((s) => s.run())`, Rust's `self.steps.iter().any(|t| t.run())`, Java's
    `steps.forEach(s -> s.run())` and `steps.stream().filter(t -> t.run())`: the callback's first
    parameter is an element. Another untyped parameter of the same name elsewhere stays unknown."""
    index = index_of(tmp_path, {
        "a.ts": """
            export class Step { run(): boolean { return true; } }
            export class Chain {
              steps: Step[] = [];
              go(more: Array<Step>): void {
                this.steps.forEach((s) => s.run());
                more.filter(m => m.run());
                const f = (x) => x.run();
              }
            }
        """,
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Step;
            impl Step { pub fn run(&self) -> bool { true } }
            pub struct Chain { steps: Vec<Step> }
            impl Chain {
                pub fn go(&self) -> bool {
                    self.steps.iter().for_each(|s| { s.run(); });
                    self.steps.iter().any(|t| t.run())
                }
            }
        """,
        "src/a/Chain.java": """
            package a;
            import java.util.List;
            class Step { boolean run() { return true; } }
            class Chain {
              List<Step> steps;
              void go() { steps.forEach(s -> s.run()); steps.stream().filter((t) -> t.run()); }
            }
        """,
    })
    assert target(index, "a.ts", "run", 0) == target(index, "a.ts", "run", 1) == "a.ts::Step.run"
    assert target(index, "a.ts", "run", 2) is None  # `(x) => x.run()`: an untyped parameter
    assert target(index, "src/lib.rs", "run", 0) == target(index, "src/lib.rs", "run", 1) == "src/lib.rs::Step.run"
    java = "src/a/Chain.java"
    assert target(index, java, "run", 0) == target(index, java, "run", 1) == "src/a/Chain.java::Step.run"


def test_a_variable_walking_or_holding_itself_ends_unknown(tmp_path):
    """`xs.iter().map(|xs| xs.run())` and two locals reading each other: the walk's and the read's
    own name is their question, and resolving them ends (it once recursed without end)."""
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Step;
            impl Step { pub fn run(&self) -> bool { true } }
            pub struct Chain { steps: Vec<Step> }
            impl Chain {
                pub fn make(&self) -> Chain { Chain { steps: vec![] } }
                pub fn go(&self) -> bool {
                    let xs = self.make();
                    xs.steps.iter().any(|xs| xs.run())
                }
            }
        """,
        "a.go": """
            package m

            type Node struct{ next *Node }

            func (n *Node) Walk() {}

            func loop() {
                a := b.next
                b := a.next
                a.Walk()
            }
        """,
        "go.mod": "module example.com/m\ngo 1.20\n",
    })
    assert target(index, "src/lib.rs", "run") is None
    assert target(index, "a.go", "Walk") is None


def test_a_crates_own_result_alias_still_carries_its_value(tmp_path):
    """`pub type Result<T> = std::result::Result<T, Error>;` is a unit (an alias of the crate), and a
    value typed `Result<Conn>` still carries a `Conn`: the alias has no field or member of its own."""
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Error;
            pub type Result<T> = std::result::Result<T, Error>;
            pub struct Conn;
            impl Conn { pub fn send(&self) {} }
            pub struct Pool;
            impl Pool {
                pub fn get(&self) -> Result<Conn> { Ok(Conn) }
                pub fn run(&self) -> Result<()> {
                    let c = self.get()?;
                    c.send();
                    Ok(())
                }
            }
        """,
    })
    assert any(u.qualname == "Result" for u in index.files["src/lib.rs"].units)
    assert target(index, "src/lib.rs", "send") == "src/lib.rs::Conn.send"


def test_a_callback_element_never_types_another_lambdas_parameter_of_the_same_name(tmp_path):
    """`steps.forEach(s -> s.run())` beside `conn.ifPresent(s -> s.close())`: the second `s` is no
    element of `steps`, so which one a call sees is a question of blocks — unknown, never `Step.close`.
    The same for Rust closures."""
    index = index_of(tmp_path, {
        "src/a/Chain.java": """
            package a;
            import java.util.List;
            import java.util.Optional;
            class Step { void run() {} void close() {} }
            class Conn { void close() {} }
            class Chain {
              List<Step> steps;
              void go(Optional<Conn> conn) { steps.forEach(s -> s.run()); conn.ifPresent(s -> s.close()); }
            }
        """,
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Step;
            impl Step { pub fn run(&self) -> bool { true } pub fn close(&self) {} }
            pub struct Conn;
            impl Conn { pub fn close(&self) {} }
            pub struct Chain { steps: Vec<Step>, conn: Option<Conn> }
            impl Chain {
                pub fn go(&self) {
                    self.steps.iter().any(|s| s.run());
                    self.conn.as_ref().map(|s| s.close());
                }
            }
        """,
    })
    assert target(index, "src/a/Chain.java", "close") != "src/a/Chain.java::Step.close"
    assert target(index, "src/lib.rs", "close") != "src/lib.rs::Step.close"


def test_a_property_without_a_type_has_its_initialisers_type_in_typescript_and_kotlin(tmp_path):
    """TypeScript's `private readonly logger = new Logger()` and Kotlin's `private val cache = Cache()`
    (or a factory's declared return type: `val pool = newPool()`) type the property at compile time:
    a call through it binds there. Python's `self.log = Logger()` stays a likely edge only, and two
    properties made from each other end unknown."""
    index = index_of(tmp_path, {
        "src/svc.ts": "export class Logger {\n  log(m: string): void {}\n}\n",
        "src/ctl.ts": "import { Logger } from './svc';\nexport class Controller {\n  private readonly logger = new Logger();\n"
                      "  handle(): void {\n    this.logger.log('x');\n  }\n}\n",
        "src/main/kotlin/p/Cache.kt": "package p\n\nclass Cache {\n    fun get(k: String): String? = null\n}\n\n"
                                      "class Pool {\n    fun take(): Int = 0\n}\n\nfun newPool(): Pool = Pool()\n",
        "src/main/kotlin/p/Loader.kt": "package p\n\nclass Loader {\n    private val cache = Cache()\n    private val pool = newPool()\n"
                                       "    private val a = this.b.make()\n    private val b = this.a.make()\n\n"
                                       "    fun load(k: String) {\n        this.cache.get(k)\n        this.pool.take()\n        this.a.run()\n    }\n}\n",
        "app/log.py": "class Logger:\n    def log(self, m):\n        pass\n",
        "app/ctl.py": "from app.log import Logger\n\nclass Controller:\n    def __init__(self):\n        self.logger = Logger()\n\n"
                      "    def handle(self):\n        self.logger.log('x')\n",
    })
    assert target(index, "src/ctl.ts", "log") == "src/svc.ts::Logger.log"
    loader = "src/main/kotlin/p/Loader.kt"
    assert target(index, loader, "get") == "src/main/kotlin/p/Cache.kt::Cache.get"
    assert target(index, loader, "take") == "src/main/kotlin/p/Cache.kt::Pool.take"  # `newPool(): Pool`
    assert target(index, loader, "run") is None  # made from each other: unknown
    assert target(index, "app/ctl.py", "log") is None  # Python: an assignment is no declaration


def test_a_go_element_read_by_index_holds_the_declared_element(tmp_path):
    """`h := s.handlers[i]`, `root := t[i].root`, `v, ok := s.routes[key]`, `s.trees[i].getValue()` and
    `xs := s.handlers[1:]`: what an index reads is the slice's, the array's element or the map's value
    its declaration names. An index into an untyped value stays unknown."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Handler struct{}

            func (h *Handler) ServeHTTP() {}

            type node struct{ root *Handler }

            func (n *node) getValue() {}

            type Route struct{}

            func (r *Route) Match() {}

            type Server struct {
                handlers []*Handler
                routes   map[string]*Route
                trees    [4]node
            }

            func (s *Server) Serve(i int, key string, t []node) {
                h := s.handlers[i]
                h.ServeHTTP()
                root := t[i].root
                root.ServeHTTP()
                v, ok := s.routes[key]
                v.Match()
                _ = ok
                s.trees[i].getValue()
                xs := s.handlers[1:]
                for _, x := range xs {
                    x.ServeHTTP()
                }
                m := map[string]*Route{}
                w := m[key]
                w.Match()
                made := make([]*Handler, 0)
                made[0].ServeHTTP()
                var u = s.lookup()
                u[0].ServeHTTP()
            }

            func (s *Server) lookup() interface{} { return nil }
        """,
    })
    serve = "a.go::Handler.ServeHTTP"
    assert [target(index, "a.go", "ServeHTTP", i) for i in range(3)] == [serve] * 3
    assert target(index, "a.go", "Match", 0) == "a.go::Route.Match"
    assert target(index, "a.go", "getValue") == "a.go::node.getValue"
    assert target(index, "a.go", "ServeHTTP", 4) is None  # an index into a value of no slice type


def test_a_go_slice_or_map_a_literal_or_make_makes_has_the_type_they_name(tmp_path):
    """`m := map[string]*Route{}`, `made := make([]*Handler, 0)`, `var hs = make(map[string]*Handler)`:
    an index into them, a range over them, reads the declared element."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Handler struct{}

            func (h *Handler) ServeHTTP() {}

            type Route struct{}

            func (r *Route) Match() {}

            func serve(key string) {
                m := map[string]*Route{}
                w := m[key]
                w.Match()
                made := make([]*Handler, 0)
                made[0].ServeHTTP()
                var hs = make(map[string]*Handler)
                for _, h := range hs {
                    h.ServeHTTP()
                }
            }
        """,
    })
    assert target(index, "a.go", "Match") == "a.go::Route.Match"
    assert [target(index, "a.go", "ServeHTTP", i) for i in range(2)] == ["a.go::Handler.ServeHTTP"] * 2


def test_a_python_attribute_annotated_as_a_collection_types_its_elements(tmp_path):
    """`self._handlers: list[Handler] = []`, a class-body `handlers: List[Handler]`, `dict[str, Route]`
    read by `[k]` or walked by `.values()`, and a typed parameter `__init__` stores: the loop's
    variable and the index's value are the declared element. An unannotated `[]` stays unknown, and so
    does a walk of a dict (its keys)."""
    index = index_of(tmp_path, {
        "app.py": """
            from typing import Dict, List, Sequence


            class Handler:
                def run(self):
                    pass


            class Route:
                def match(self, path):
                    pass


            class Registry:
                handlers: List[Handler]
                named: Sequence["Handler"]

                def __init__(self, extra: list[Handler]):
                    self._handlers: list[Handler] = []
                    self._routes: dict[str, Route] = {}
                    self._table: Dict[str, "Route"] = {}
                    self._plain = []
                    self._extra = extra

                def go(self, name):
                    for h in self._handlers:
                        h.run()
                    for k in self.handlers:
                        k.run()
                    for n in self.named:
                        n.run()
                    for e in self._extra:
                        e.run()
                    self._handlers[0].run()
                    self._routes[name].match(name)
                    self._table[name].match(name)
                    for r in self._routes.values():
                        r.match(name)
                    for p in self._plain:
                        p.run()
                    for key in self._routes:
                        key.match(name)
        """,
    })
    run, match = "app.py::Handler.run", "app.py::Route.match"
    assert [target(index, "app.py", "run", i) for i in range(5)] == [run] * 5
    assert [target(index, "app.py", "match", i) for i in range(3)] == [match] * 3
    assert target(index, "app.py", "run", 5) is None  # `self._plain = []`: no annotation
    assert target(index, "app.py", "match", 3) is None  # a dict walks its keys


def test_a_kotlin_it_of_no_proven_type_never_binds_through_another_lambdas_it(tmp_path):
    """`steps.forEach { it.run() }` beside `conn.use { it.close() }` with `conn` of no known type, a
    lambda passed in parentheses, a lambda inside the callback: each `it` is its own lambda's, so the
    others stay unknown, never `Step.close`."""
    index = index_of(tmp_path, {
        "src/a/Chain.kt": """
            package a

            class Step {
                fun run() {}
                fun close() {}
            }

            class Chain {
                fun go(steps: List<Step>, conn: java.io.Closeable, names: List<String>) {
                    steps.forEach { it.run() }
                    conn.use { it.close() }
                    names.forEach({ it.close() })
                    steps.forEach { names.forEach { it.close() } }
                    steps.forEach { synchronized(this) { it.close() } }
                }
            }
        """,
    })
    kt = "src/a/Chain.kt"
    assert target(index, kt, "run") == "src/a/Chain.kt::Step.run"
    assert [target(index, kt, "close", i) for i in range(4)] == [None] * 4


def test_a_kotlin_callbacks_it_is_an_element_or_the_value_let_is_called_on(tmp_path):
    """`more.forEach { it.handle(x) }` over a declared `List<Handler>` (a parameter, a typed local, a
    field read off `this`), `{ h -> h.handle(x) }`, `c?.let { it.close() }` and `it` of an outer
    callback seen past a lambda with parameters: each lambda's `it` is its own."""
    index = index_of(tmp_path, {
        "src/a/Chain.kt": """
            package a

            class Handler {
                fun handle(x: Int) {}
                fun close() {}
            }

            class Conn {
                fun close() {}
            }

            class Chain(val handlers: List<Handler>) {
                fun go(x: Int, more: List<Handler>, c: Conn?) {
                    more.forEach { it.handle(x) }
                    val local: List<Handler> = more
                    local.filter { it.handle(x) == Unit }
                    this.handlers.forEach { it.handle(x) }
                    more.forEach { h -> h.handle(x) }
                    c?.let { it.close() }
                    more.forEach { listOf(1).forEach { n -> it.close() } }
                }
            }
        """,
    })
    kt = "src/a/Chain.kt"
    handle = "src/a/Chain.kt::Handler.handle"
    assert [target(index, kt, "handle", i) for i in range(4)] == [handle] * 4
    assert target(index, kt, "close", 0) == "src/a/Chain.kt::Conn.close"
    assert target(index, kt, "close", 1) == "src/a/Chain.kt::Handler.close"


def test_a_kotlin_bare_property_is_a_field_of_this_where_no_local_binds_the_name(tmp_path):
    """`conn.close()` and `handlers.forEach { it.handle() }` in a method: a property of `this`, the
    index recording every local Kotlin binds. A local of an `init` block or a getter, a lambda's
    parameter, a name in `x.apply { … }` (x's own property first) or in an extension function (the
    extended type's) stay unknown."""
    index = index_of(tmp_path, {
        "src/a/Chain.kt": """
            package a

            class Conn {
                fun close() {}
            }

            class Handler {
                fun handle() {}
            }

            class Other {
                fun close() {}
            }

            class Chain(val conn: Conn, private val handlers: List<Handler>) {
                init {
                    val conn = Other()
                    conn.close()
                }

                val size: Int
                    get() {
                        val conn = Other()
                        conn.close()
                        return 1
                    }

                fun go(o: Other) {
                    conn.close()
                    handlers.forEach { it.handle() }
                    conn?.let { it.close() }
                    o.apply { conn.close() }
                }

                fun each(others: List<Other>) {
                    others.forEach { conn -> conn.close() }
                    conn.close()
                }

                fun Other.twice() {
                    conn.close()
                }
            }
        """,
    })
    kt = "src/a/Chain.kt"
    close, other = "src/a/Chain.kt::Conn.close", "src/a/Chain.kt::Other.close"
    assert [target(index, kt, "close", i) for i in (2, 3)] == [close] * 2
    assert target(index, kt, "handle") == "src/a/Chain.kt::Handler.handle"
    assert target(index, kt, "close", 0) == other  # the init block's own `conn`
    assert target(index, kt, "close", 1) == other  # the getter's own `conn`
    assert target(index, kt, "close", 4) is None  # inside `o.apply { … }`: o's own property first
    assert target(index, kt, "close", 5) == other  # the lambda's parameter
    assert target(index, kt, "close", 6) is None  # beside a lambda's `conn`: which one, a question of blocks
    assert target(index, kt, "close", 7) is None  # in an extension of Other


def test_a_java_lambdas_parameter_is_its_own_only_inside_the_lambda(tmp_path):
    """`steps.forEach(s -> s.run())` then `s.close()` on a field `s`: outside the lambda `s` is no element
    of `steps` (it bound to `Step.close`); `(Conn c) -> c.close()` beside `c -> c.run()`: each lambda's
    `c` has its own type (the typed one bound to `Step.close`)."""
    index = index_of(tmp_path, {
        "src/a/Chain.java": """
            package a;
            import java.util.List;
            class Step { void run() {} void close() {} }
            class Conn { void close() {} }
            class Chain {
              List<Step> steps;
              Conn s;
              void go() {
                steps.forEach(s -> s.run());
                s.close();
              }
              void other(List<Conn> conns) {
                conns.forEach((Conn c) -> c.close());
                steps.forEach(c -> c.run());
              }
            }
        """,
    })
    java = "src/a/Chain.java"
    assert target(index, java, "run", 0) == target(index, java, "run", 1) == "src/a/Chain.java::Step.run"
    assert target(index, java, "close", 0) != "src/a/Chain.java::Step.close"
    assert target(index, java, "close", 1) == "src/a/Chain.java::Conn.close"


def test_a_python_pair_loop_takes_the_value_of_items_and_the_element_of_enumerate(tmp_path):
    """`for key, route in self._routes.items()` over `dict[str, Route]`, `for i, r in
    enumerate(self._list)` over `list[Route]`: the second name is the value, the element. A pair loop
    over anything else, and one name over `.items()` (a pair), stay unknown."""
    index = index_of(tmp_path, {
        "app.py": """
            class Route:
                def match(self, path):
                    pass


            class Registry:
                def __init__(self):
                    self._routes: dict[str, Route] = {}
                    self._list: list[Route] = []

                def go(self, name):
                    for key, route in self._routes.items():
                        route.match(name)
                    for i, r in enumerate(self._list, 1):
                        r.match(name)
                    for pair in self._routes.items():
                        pair.match(name)
                    for a, b in self._list:
                        b.match(name)
        """,
    })
    assert [target(index, "app.py", "match", i) for i in range(2)] == ["app.py::Route.match"] * 2
    assert [target(index, "app.py", "match", i) for i in (2, 3)] == [None, None]


def test_a_local_a_call_initialises_holds_the_calls_declared_result(tmp_path):
    """Kotlin's `val hs = registry.all()` then `hs.forEach { it.handle() }`, `val r = this.registry`;
    Go's `hs := r.All()` then `range hs`, `one, err := r.One()` (the first result), and the same `v :=
    New()` in two function literals: the local holds the proven callee's declared result."""
    index = index_of(tmp_path, {
        "src/a/Chain.kt": """
            package a

            class Handler {
                fun handle() {}
            }

            class Registry {
                fun all(): List<Handler> = listOf()
                fun one(): Handler = Handler()
            }

            class Chain(private val registry: Registry) {
                fun go() {
                    val hs = registry.all()
                    hs.forEach { it.handle() }
                    val r = this.registry
                    r.one().handle()
                }
            }
        """,
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Handler struct{}

            func (h *Handler) Serve() {}

            type Reg struct{}

            func New() *Reg { return &Reg{} }

            func (r *Reg) All() []*Handler { return nil }

            func (r *Reg) One() (*Handler, error) { return nil, nil }

            func run(r *Reg, each func(func())) {
                hs := r.All()
                for _, h := range hs {
                    h.Serve()
                }
                one, err := r.One()
                one.Serve()
                _ = err
                each(func() { v := New(); v.All() })
                each(func() { v := New(); v.All() })
            }
        """,
    })
    kt = "src/a/Chain.kt"
    assert [target(index, kt, "handle", i) for i in range(2)] == ["src/a/Chain.kt::Handler.handle"] * 2
    assert [target(index, "a.go", "Serve", i) for i in range(2)] == ["a.go::Handler.Serve"] * 2
    assert [target(index, "a.go", "All", i) for i in (1, 2)] == ["a.go::Reg.All"] * 2


def test_a_rust_closures_parameter_is_its_own_only_inside_the_closure(tmp_path):
    """`self.steps.iter().any(|s| s.run())` then `let s = external::make(); s.close()`: outside the
    closure `s` is no element of `steps` (it bound to `Step.close`)."""
    index = index_of(tmp_path, {
        "Cargo.toml": "[package]\nname = \"m\"\n",
        "src/lib.rs": """
            pub struct Step;
            impl Step { pub fn run(&self) -> bool { true } pub fn close(&self) {} }
            pub struct Chain { steps: Vec<Step> }
            impl Chain {
                pub fn go(&self) {
                    self.steps.iter().any(|s| s.run());
                    let s = external::make();
                    s.close();
                }
            }
        """,
    })
    assert target(index, "src/lib.rs", "run") == "src/lib.rs::Step.run"
    assert target(index, "src/lib.rs", "close") is None


def test_a_typescript_callbacks_parameter_is_its_own_only_inside_the_callback(tmp_path):
    """`this.steps.forEach((s) => s.run())` then `const s = external(); s.close()`: outside the arrow
    function `s` is no element of `steps` (it bound to `Step.close`)."""
    index = index_of(tmp_path, {
        "a.ts": """
            export class Step { run(): boolean { return true; } close(): void {} }
            declare function external(): any;
            export class Chain {
              steps: Step[] = [];
              go(): void {
                this.steps.forEach((s) => s.run());
                const s = external();
                s.close();
              }
            }
        """,
    })
    assert target(index, "a.ts", "run") == "a.ts::Step.run"
    assert target(index, "a.ts", "close") is None
