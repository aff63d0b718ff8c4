"""Values typed through a carrier (`Result<Conn, E>`, `Option<Box<Conn>>`, `Promise<Conn>`,
`Optional<Conn>`): a method the carrier does not define binds to the carried type's, the
carrier's own methods (`clone`, `then`, `isPresent`) never do, and `unwrap()` / `get()` hand the
carried value on. Each test writes a tiny repository and checks the target of a call."""

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
