"""Go values typed by the statement that binds them: a receive from a declared channel, the one name
of a `range` (a map's key, a channel's element, never a slice's index), and the variable of a type
switch inside a case of one type. Each test writes a tiny repository and checks a call's target."""

from __future__ import annotations

from test_bindings import index_of, target  # the same small-repository builder


def test_a_go_receive_and_a_one_name_range_hold_what_the_channel_or_map_declares(tmp_path):
    """`job := <-s.jobs`, `case j, ok := <-s.jobs:`, `for job := range s.jobs` (a channel's
    element), `for c := range s.conns` (a map's key); a one-name range over a slice holds an index,
    and a map's key of no project type binds nothing."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Job struct{}

            func (j *Job) Run() {}

            type Conn struct{}

            func (c *Conn) Close() {}

            type Worker struct {
                jobs   chan *Job
                done   <-chan Job
                conns  map[*Conn]bool
                byName map[string]*Conn
                list   []*Job
            }

            func (s *Worker) Loop(in chan<- *Job) {
                job := <-s.jobs
                job.Run()
                select {
                case j, ok := <-s.jobs:
                    _ = ok
                    j.Run()
                case d := <-s.done:
                    d.Run()
                }
                for next := range s.jobs {
                    next.Run()
                }
                for c := range s.conns {
                    c.Close()
                }
                for i := range s.list {
                    i.Run()
                }
                for k := range s.byName {
                    k.Close()
                }
                var w = <-s.jobs
                w.Run()
            }

            func drain(in <-chan *Job) {
                for j := range in {
                    j.Run()
                }
                local := make(chan *Job, 1)
                got := <-local
                got.Run()
            }
        """,
    })
    run = "a.go::Job.Run"
    assert [target(index, "a.go", "Run", i) for i in range(4)] == [run] * 4
    assert target(index, "a.go", "Close", 0) == "a.go::Conn.Close"  # a map's key
    assert target(index, "a.go", "Run", 4) is None  # a slice's index
    assert target(index, "a.go", "Close", 1) is None  # a string key
    assert target(index, "a.go", "Run", 5) == run  # `var w = <-s.jobs`
    assert target(index, "a.go", "Run", 6) == run  # a range over a channel parameter
    assert target(index, "a.go", "Run", 7) == run  # a receive from a channel `make` made


def test_a_go_type_switch_variable_has_its_cases_one_type_inside_that_case(tmp_path):
    """`switch v := x.(type) { case *Conn: v.Close() }` binds `v` as `*Conn` in that case only; a case
    of two types, `default:` and the code after the switch leave it unknown."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Conn struct{}

            func (c *Conn) Close() {}

            type File struct{}

            func (f File) Close() {}

            func shut(x interface{}) {
                switch v := x.(type) {
                case *Conn:
                    v.Close()
                case File:
                    v.Close()
                case *Conn, File:
                    v.Close()
                default:
                    v.Close()
                }
            }
        """,
    })
    assert target(index, "a.go", "Close", 0) == "a.go::Conn.Close"
    assert target(index, "a.go", "Close", 1) == "a.go::File.Close"
    assert target(index, "a.go", "Close", 2) is None
    assert target(index, "a.go", "Close", 3) is None


def test_a_go_loop_over_a_loop_variable_holds_the_nested_element(tmp_path):
    """`for _, parts := range s.byTopic` over `map[string][]*Part`, then `for _, p := range parts`:
    `p` is a `*Part`; one level of nesting too many for the declared type binds nothing."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Part struct{}

            func (p *Part) Encode() {}

            type Request struct {
                byTopic map[string]map[int32]*Part
                flat    []*Part
            }

            func (r *Request) Encode() {
                for _, parts := range r.byTopic {
                    for _, p := range parts {
                        p.Encode()
                    }
                }
                for _, q := range r.flat {
                    for _, x := range q {
                        x.Encode()
                    }
                }
            }
        """,
    })
    assert target(index, "a.go", "Encode", 0) == "a.go::Part.Encode"
    assert target(index, "a.go", "Encode", 1) is None


def test_a_go_import_of_a_workspace_modules_root_package_lands_on_it(tmp_path):
    """The go.mod's module path names the package at its directory: an example (a module of its own)
    and a `mocks/` package importing the library's root package bind to it, a subdirectory by the
    rest of the path; a dependency's package of the same last name stays outside."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/lib/v2\n\ngo 1.20\n",
        "client.go": """
            package lib

            type Client struct{}

            func New() *Client { return &Client{} }

            func (c *Client) Get() {}
        """,
        "codec/codec.go": """
            package codec

            func Encode() {}
        """,
        "mocks/client.go": """
            package mocks

            import (
                "example.com/lib/v2"
                "example.com/lib/v2/codec"
            )

            func Fake() *lib.Client {
                codec.Encode()
                return lib.New()
            }
        """,
        "examples/get/go.mod": "module example.com/lib/examples/get\n\nrequire example.com/lib/v2 v2.0.0\n",
        "examples/get/main.go": """
            package main

            import (
                lib "example.com/lib/v2"
                other "example.org/other/lib"
            )

            func main() {
                c := lib.New()
                c.Get()
                other.New()
            }
        """,
    })
    assert target(index, "mocks/client.go", "New") == "client.go::New"
    assert target(index, "mocks/client.go", "Encode") == "codec/codec.go::Encode"
    assert target(index, "examples/get/main.go", "New", 0) == "client.go::New"
    assert target(index, "examples/get/main.go", "Get") == "client.go::Client.Get"
    assert target(index, "examples/get/main.go", "New", 1) is None


def test_a_function_literals_parameter_leaves_the_outer_local_of_its_name_typed_outside_it(tmp_path):
    """`r := NewRouter()` beside `r.Get("/", func(w int, r *Request) { r.Context() })`: outside the
    literal `r` is the router, inside it the request; where a read a local holds inside the literal
    starts from the name (`ctx := r.Context`), the outer `r` stays unknown. A Python lambda's
    parameter likewise."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "a.go": """
            package m

            type Request struct{}

            func (r *Request) Context() {}

            type Mux struct{}

            func NewRouter() *Mux { return &Mux{} }

            func (m *Mux) Use() {}

            func (m *Mux) Get(p string, h func(w int, r *Request)) {}

            func main() {
                r := NewRouter()
                r.Use()
                r.Get("/", func(w int, r *Request) {
                    r.Context()
                })
            }

            func held() {
                r := NewRouter()
                r.Get("/", func(w int, r *Request) {
                    ctx := r.Context
                    _ = ctx
                })
                r.Use()
            }
        """,
        "b.py": """
            class Step:
                def run(self):
                    pass

                def rank(self):
                    pass


            def go(bars):
                s = Step()
                s.run()
                return sorted(bars, key=lambda s: s.rank())
        """,
    })
    assert target(index, "a.go", "Use", 0) == "a.go::Mux.Use"
    assert target(index, "a.go", "Get", 0) == "a.go::Mux.Get"
    assert target(index, "a.go", "Context", 0) == "a.go::Request.Context"
    assert target(index, "a.go", "Use", 1) is None
    assert target(index, "b.py", "run") == "b.py::Step.run"
    assert target(index, "b.py", "rank") is None


def test_a_go_package_variable_declared_with_a_type_types_the_packages_calls_on_it(tmp_path):
    """`var v *Viper` (set in `init`) and `var Logger Logging = nopLogger{}`: a function of the package
    calling `v.Set()` or `Logger.Printf()` reaches the declared type's member (the interface's method);
    a parameter, a local, a method receiver or a literal's parameter of the name shadows it."""
    index = index_of(tmp_path, {
        "go.mod": "module example.com/m\ngo 1.20\n",
        "v.go": """
            package m

            type Viper struct{}

            func New() *Viper { return &Viper{} }

            func (v *Viper) Set() {}

            type Other struct{}

            func (o *Other) Set() {}

            type Logging interface {
                Printf(format string)
            }

            type nopLogger struct{}

            func (nopLogger) Printf(format string) {}

            var v *Viper

            var Logger Logging = nopLogger{}

            func init() { v = New() }
        """,
        "use.go": """
            package m

            func Set() {
                v.Set()
                Logger.Printf("x")
            }

            func shadowed(v *Other) {
                v.Set()
            }

            func local() {
                v := pick()
                v.Set()
            }

            func (v *Other) Again() {
                v.Set()
            }

            func lit(run func(func(v *Other))) {
                run(func(v *Other) { v.Set() })
            }
        """,
    })
    assert target(index, "use.go", "Set", 0) == "v.go::Viper.Set"
    assert target(index, "use.go", "Printf") == "v.go::Logging.Printf"
    assert target(index, "use.go", "Set", 1) == "v.go::Other.Set"  # the parameter's
    assert target(index, "use.go", "Set", 2) is None  # a local made by an unknown call
    assert target(index, "use.go", "Set", 3) == "v.go::Other.Set"  # the receiver's
    assert target(index, "use.go", "Set", 4) == "v.go::Other.Set"  # the literal's parameter
