"""Java and Kotlin call sites the resolver proves by a language rule: overloads chosen by the count
of arguments, implicit receivers. Each test writes a tiny repository and checks the target of a
call (file, callee, occurrence) or that it stayed unknown."""

from __future__ import annotations

from test_bindings import index_of, target  # the same small-repository builder


def test_java_overloads_are_told_apart_by_the_count_of_arguments(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Builder.java": """
            package a;

            public class Builder {
                public Builder add(Object factory) { return this; }
                public Builder add(Object type, Object adapter) { return this; }
                public Builder add(Object a, Object b, Object c, String... names) { return this; }
                public Builder put(String a) { return this; }
                public Builder put(Object a) { return this; }
                public Builder build() { return this; }

                void wire() {
                    add(null, null);
                    put("x");
                }
            }
            """,
        "src/a/Use.java": """
            package a;

            class Use {
                void run(Builder b) {
                    b.add(null);
                    b.add(null, null);
                    b.add(null, null, null);
                    b.add(null, null, null, "d", "e");
                    new Builder().add(null, /* a, b */ "x, y").build();
                }
            }
            """,
    })
    b, use = "src/a/Builder.java", "src/a/Use.java"
    assert target(index, b, "add") == f"{b}::Builder.add#2"
    assert target(index, b, "put") == f"{b}::Builder.put"  # one count, two overloads: a string is a String
    assert target(index, use, "add", 0) == f"{b}::Builder.add"
    assert target(index, use, "add", 1) == f"{b}::Builder.add#2"
    assert target(index, use, "add", 2) == f"{b}::Builder.add#3"  # a varargs parameter takes none or more
    assert target(index, use, "add", 3) == f"{b}::Builder.add#3"
    assert target(index, use, "add", 4) == f"{b}::Builder.add#2"
    assert target(index, use, "build") == f"{b}::Builder.build"  # the chain's link chose its overload by count too


def test_java_overloads_of_one_count_are_told_apart_by_the_declared_types_of_the_arguments(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Source.java": "package a;\n\npublic class Source {}\n",
        "src/a/Buffer.java": """
            package a;

            public class Buffer extends Source {
                public void write(Buffer source, long n) {}
                public void write(Source source, long n) {}
                public void write(byte[] data, long n) {}
                public void log(Object message) {}
                public void log(Throwable error) {}
            }
            """,
        "src/a/Use.java": """
            package a;

            class Use {
                Buffer buffer;

                void run(Buffer b, Source s, long n, Object o, Use u) {
                    b.write(b, n);
                    b.write(s, n);
                    b.write(buffer, n);
                    b.write(o, n);
                    b.write(unknown(), n);
                    b.log(u);
                    b.write(new Buffer(), n);
                    b.write((Source) o, n);
                    b.write(new Source() {}, n);
                }
            }
            """,
    })
    b, use = "src/a/Buffer.java", "src/a/Use.java"
    assert target(index, use, "write", 0) == f"{b}::Buffer.write"  # exactly its parameters' types, not its supertype's overload
    assert target(index, use, "write", 1) == f"{b}::Buffer.write#2"
    assert target(index, use, "write", 2) == f"{b}::Buffer.write"  # a field's declared type
    assert target(index, use, "write", 3) is None  # an Object is none of them
    assert target(index, use, "write", 4) is None  # an argument of unknown type: any of them
    assert target(index, use, "log") == f"{b}::Buffer.log"  # a Use is no Throwable: only Object takes it
    assert target(index, use, "write", 5) == f"{b}::Buffer.write"  # `new Buffer()` is a Buffer
    assert target(index, use, "write", 6) == f"{b}::Buffer.write#2"  # a cast says its type
    assert target(index, use, "write", 7) == f"{b}::Buffer.write#2"  # an anonymous subtype: the type it names is the nearest


def test_kotlin_extension_overloads_of_one_count_are_told_apart_by_the_arguments_types(tmp_path):
    index = index_of(tmp_path, {
        "src/a/internal/Ext.kt": """
            package a.internal

            import a.Buffer
            import a.Source

            internal inline fun Buffer.commonWrite(source: Buffer, byteCount: Long) {}
            internal inline fun Buffer.commonWrite(source: Source, byteCount: Long) {}
            internal inline fun Buffer.commonWrite(source: String) {}
            """,
        "src/a/Buffer.kt": """
            package a

            import a.internal.commonWrite

            open class Source

            class Buffer : Source() {
                fun write(source: Buffer, byteCount: Long) = commonWrite(source, byteCount)
                fun write(source: Source, byteCount: Long) = commonWrite(source, byteCount)
                fun writeSelf(byteCount: Long) = commonWrite(this, byteCount)
                fun writeAny(source: Any, byteCount: Long) = commonWrite(source, byteCount)
                fun writeNamed(source: Buffer, byteCount: Long) = commonWrite(byteCount = byteCount, source = source)
                fun lambdas(items: List<Buffer>, byteCount: Long) = items.forEach { item -> commonWrite(item, byteCount) }
            }
            """,
    })
    ext, buf = "src/a/internal/Ext.kt", "src/a/Buffer.kt"
    assert target(index, buf, "commonWrite", 0) == f"{ext}::commonWrite"
    assert target(index, buf, "commonWrite", 1) == f"{ext}::commonWrite#2"
    assert target(index, buf, "commonWrite", 2) == f"{ext}::commonWrite"  # `this` is a Buffer
    assert target(index, buf, "commonWrite", 3) is None  # an Any is neither
    assert target(index, buf, "commonWrite", 4) is None  # named arguments: the positions say nothing
    assert target(index, buf, "commonWrite", 5) is None  # a lambda's untyped parameter: unknown


def test_java_overload_by_count_and_an_inherited_one(tmp_path):
    index = index_of(tmp_path, {
        "src/a/Base.java": "package a;\n\npublic class Base {\n    public void write(int a, int b, int c) {}\n}\n",
        "src/a/Sub.java": """
            package a;

            public class Sub extends Base {
                public void write(int a) {}
                public void write(int a, int b) {}
                void run() {
                    write(1);
                    write(1, 2);
                    write(1, 2, 3);
                    write();
                }
            }
            """,
    })
    assert target(index, "src/a/Sub.java", "write", 0) == "src/a/Sub.java::Sub.write"
    assert target(index, "src/a/Sub.java", "write", 1) == "src/a/Sub.java::Sub.write#2"
    assert target(index, "src/a/Sub.java", "write", 2) == "src/a/Base.java::Base.write"  # inherited overload
    assert target(index, "src/a/Sub.java", "write", 3) is None  # none takes no argument


def test_kotlin_overloads_with_defaults_varargs_and_trailing_lambdas(tmp_path):
    index = index_of(tmp_path, {
        "src/p/Sink.kt": """
            package p

            interface Sink {
                fun write(source: String, count: Long)
            }

            class Buffer : Sink {
                override fun write(source: String, count: Long) {}
                fun write(bytes: ByteArray) {}
                fun log(tag: String, message: String) {}
                fun log(tag: String, block: () -> String) {}
                fun each(vararg items: String) {}
                fun each(first: Int, second: Int, third: Int) {}
                fun read(count: Int = 1): Int = count
                fun read(into: ByteArray, offset: Int, count: Int): Int = count

                fun use() {
                    write("x", 1L)
                    write(ByteArray(1))
                    log("t") { "m" }
                    each()
                    each(1, 2, 3)
                    read()
                    read(ByteArray(1), 0, 1)
                }
            }

            fun outside(b: Buffer) {
                b.write(ByteArray(1))
                b.read(2)
            }
            """,
    })
    f = "src/p/Sink.kt"
    assert target(index, f, "write", 0) == "src/p/Sink.kt::Buffer.write"
    assert target(index, f, "write", 1) == "src/p/Sink.kt::Buffer.write#2"
    assert target(index, f, "log") is None  # two arguments either way: the types tell
    assert target(index, f, "each", 0) == "src/p/Sink.kt::Buffer.each"
    assert target(index, f, "each", 1) is None  # three strings or three numbers
    assert target(index, f, "read", 0) == "src/p/Sink.kt::Buffer.read"
    assert target(index, f, "read", 1) == "src/p/Sink.kt::Buffer.read#2"
    assert target(index, f, "write", 2) == "src/p/Sink.kt::Buffer.write#2"
    assert target(index, f, "read", 2) == "src/p/Sink.kt::Buffer.read"


def test_kotlin_overloaded_top_level_functions_and_a_member_the_count_rules_out(tmp_path):
    index = index_of(tmp_path, {
        "src/p/util.kt": "package p\n\nfun hash(a: String): Int = 1\nfun hash(a: String, b: String): Int = 2\n",
        "src/q/Use.kt": """
            package q

            import p.hash

            class Use {
                fun check(ok: Boolean) {}
                fun run() {
                    hash("a")
                    hash("a", "b")
                    check(true) { "message" }
                }
            }
            """,
    })
    assert target(index, "src/q/Use.kt", "hash", 0) == "src/p/util.kt::hash"
    assert target(index, "src/q/Use.kt", "hash", 1) == "src/p/util.kt::hash#2"
    assert target(index, "src/q/Use.kt", "check") is None  # the member takes one argument: a library function's call


def test_kotlin_overloads_of_a_package_span_its_files(tmp_path):
    """A JVM file is no scope of its own: `show(a, b, c)` in a file whose own `show` takes at most
    two arguments is the package's other overload, in another file."""
    index = index_of(tmp_path, {
        "src/p/Short.kt": "package p\n\nfun show(a: Int, b: Int = 0) = show(a, b, 1)\n",
        "src/p/Long.kt": "package p\n\nfun show(a: Int, b: Int, c: Int) {}\n",
    })
    assert target(index, "src/p/Short.kt", "show") == "src/p/Long.kt::show"


def test_kotlin_bare_calls_in_a_lambda_with_receiver_are_the_receivers_members(tmp_path):
    index = index_of(tmp_path, {
        "src/p/Buffer.kt": """
            package p

            class Buffer {
                fun write(b: Int): Buffer = this
                fun flush() {}
                fun apply(key: Int, block: () -> Unit) {}
                fun close() {}
            }
            """,
        "src/p/Sink.kt": """
            package p

            class Sink(val out: java.io.OutputStream) {
                fun write(b: Int) {}
                fun flush() {}
                fun drain() {}

                fun run(buffer: Buffer) {
                    Buffer().apply { write(1); this.flush() }
                    with(buffer) { write(2) }
                    buffer.run { drain() }
                    out.apply { write(3); flush() }
                    buildString { flush() }
                    write(4)
                    buffer.apply(1) { drain() }
                }
            }
            """,
    })
    f = "src/p/Sink.kt"
    assert target(index, f, "write", 0) == "src/p/Buffer.kt::Buffer.write"
    assert target(index, f, "flush", 0) == "src/p/Buffer.kt::Buffer.flush"  # `this` is the receiver too
    assert target(index, f, "write", 1) == "src/p/Buffer.kt::Buffer.write"
    assert target(index, f, "drain", 0) == "src/p/Sink.kt::Sink.drain"  # no member of the receiver: the class's
    assert target(index, f, "write", 2) is None  # a library object's `write`, not the class's
    assert target(index, f, "flush", 1) is None
    assert target(index, f, "flush", 2) is None  # a builder's `this` is a library object
    assert target(index, f, "write", 3) == "src/p/Sink.kt::Sink.write"
    assert target(index, f, "drain", 1) == "src/p/Sink.kt::Sink.drain"  # `apply(key) { … }` is no scope function


def test_kotlin_bare_calls_in_an_extension_function_are_the_extended_types_members(tmp_path):
    index = index_of(tmp_path, {
        "src/p/Buffer.kt": """
            package p

            class Buffer {
                fun writeByte(b: Int): Buffer = this
                fun size(): Long = 0
            }

            fun size(): Long = 1
            """,
        "src/p/internal/Common.kt": """
            package p.internal

            import p.Buffer

            fun Buffer.commonWrite(b: Int) {
                writeByte(b)
                this.writeByte(b)
                size()
                helper()
            }

            fun helper() {}
            """,
    })
    f = "src/p/internal/Common.kt"
    assert target(index, f, "writeByte", 0) == "src/p/Buffer.kt::Buffer.writeByte"
    assert target(index, f, "writeByte", 1) == "src/p/Buffer.kt::Buffer.writeByte"
    assert target(index, f, "size") == "src/p/Buffer.kt::Buffer.size"  # the member, not the package's function
    assert target(index, f, "helper") == "src/p/internal/Common.kt::helper"


def test_a_java_records_compact_constructor_is_a_constructor_of_its_components(tmp_path):
    """`Range { if (lo > hi) throw … }`: a record's compact constructor, with no parameter list of
    its own, is the constructor of the header's components; its body's calls are its own."""
    index = index_of(tmp_path, {
        "src/a/Range.java": """
            package a;

            public record Range(int lo, int hi) {
                public Range {
                    check(lo, hi);
                }
                static void check(int lo, int hi) {}
                static Range unit() { return new Range(0, 1); }
            }
            """,
    })
    r = "src/a/Range.java"
    ctor = next(u for u in index.files[r].units if u.kind == "constructor")
    assert (ctor.qualname, ctor.params, ctor.param_names, ctor.start_line, ctor.end_line) == ("Range.Range", 2, ("lo", "hi"), 4, 6)
    assert next(c for c in index.files[r].calls if c.name == "check").caller == ctor.id
    assert target(index, r, "check") == f"{r}::Range.check"
    assert target(index, r, "Range") == f"{r}::Range"  # as with a declared constructor


def test_an_enum_constant_with_a_body_is_a_subclass_and_a_call_on_the_enum_reaches_its_declaration(tmp_path):
    """`QUEUE { @Override void send(…) }` overrides the enum's `send` in an anonymous subclass: its
    methods were filed under the enum, so `route.send(m)` saw three `Route.send` and stayed unknown.
    The constant is an object extending its enum (Java and Kotlin alike), the call reaches the enum's
    declaration, and a bare call in the constant's body still reaches the enum's static helper."""
    index = index_of(tmp_path, {
        "src/a/Route.java": """
            package a;

            public enum Route {
                QUEUE {
                    @Override
                    public void send(String m) { System.out.println(m); }
                },
                DIRECT {
                    @Override
                    public void send(String m) { deliver(m); }
                };

                public abstract void send(String m);

                static void deliver(String m) {}
            }
            """,
        "src/a/Logger.java": """
            package a;

            class Logger {
                private Route route;

                void log(String m) { route.send(m); }
            }
            """,
        "src/k/Mode.kt": """
            package k

            enum class Mode {
                FAST {
                    override fun run(n: Int) = n
                },
                SLOW {
                    override fun run(n: Int) = n * 2
                };

                abstract fun run(n: Int): Int
            }

            fun drive(mode: Mode) = mode.run(3)
            """,
    })
    kinds = {u.qualname: u.kind for u in index.files["src/a/Route.java"].units}
    assert kinds["Route.QUEUE"] == "object" and "Route.QUEUE.send" in kinds and "Route.send" in kinds
    assert ("Route", "extends") in {(s.name, s.kind) for s in index.files["src/a/Route.java"].supertypes if s.unit.endswith("Route.DIRECT")}
    assert target(index, "src/a/Logger.java", "send") == "src/a/Route.java::Route.send"
    assert target(index, "src/a/Route.java", "deliver") == "src/a/Route.java::Route.deliver"
    assert {u.qualname for u in index.files["src/k/Mode.kt"].units} >= {"Mode.FAST", "Mode.FAST.run", "Mode.run"}
    assert target(index, "src/k/Mode.kt", "run") == "src/k/Mode.kt::Mode.run"


def test_kotlin_extension_functions_called_on_a_receiver_of_a_known_type(tmp_path):
    """`source.buffer()` with `fun Source.buffer()` in scope: no member of the receiver's type has
    the name, so the extension that extends the nearest type of its lineage is the target (Kotlin
    takes the most specific receiver); a member of the name wins, an extension of a type parameter
    extends anything, and one of a package the file does not import is no candidate."""
    index = index_of(tmp_path, {
        "src/a/Source.kt": """
            package a

            interface Source { fun read(): Int }
            open class Buffered(val source: Source) : Source { override fun read(): Int = 0 }
            class Special(source: Source) : Buffered(source) { fun close() {} }
            """,
        "src/a/Ext.kt": """
            package a

            fun Source.buffer(): Buffered = Buffered(this)
            fun Source.describe(): String = "source"
            fun Buffered.describe(): String = "buffered"
            fun Source.read(): Int = 1
            """,
        "src/b/Other.kt": """
            package b

            import a.Source

            fun Source.peek(): Int = 0
            fun <T> T.close(): Unit = Unit
            """,
        "src/a/Use.kt": """
            package a

            import b.close

            class Use {
                fun open(): Source = Buffered(object : Source { override fun read() = 1 })

                fun run(s: Source, sp: Special) {
                    s.buffer()
                    open().buffer().read()
                    sp.describe()
                    s.describe()
                    s.read()
                    s.peek()
                    sp.close()
                    s.close()
                }
            }
            """,
    })
    ext, src, use = "src/a/Ext.kt", "src/a/Source.kt", "src/a/Use.kt"
    assert target(index, use, "buffer", 0) == f"{ext}::buffer"
    assert target(index, use, "buffer", 1) == f"{ext}::buffer"  # a chain's link: what open() returns
    assert target(index, use, "read", 0) == f"{src}::Buffered.read"  # and what buffer() returns
    assert target(index, use, "describe", 0) == f"{ext}::describe#2"  # the nearest receiver: Buffered, above Special
    assert target(index, use, "describe", 1) == f"{ext}::describe"
    assert target(index, use, "read", 1) == f"{src}::Source.read"  # a member wins over an extension
    assert target(index, use, "peek") is None  # not imported here
    assert target(index, use, "close", 0) == f"{src}::Special.close"  # a member
    assert target(index, use, "close", 1) is None  # `fun <T> T.close()` extends anything: which one is not proven
