"""Python's `with E as x`: x is what E's `__enter__()` returns (`async with`: `__aenter__()`), by its
declared return type; a manager whose `__enter__` declares none leaves x unknown. Each test writes a
tiny repository and checks a call's target."""

from __future__ import annotations

from test_bindings import index_of, target  # the same small-repository builder


def test_a_with_targets_name_holds_what_the_managers_enter_returns(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            class Pipeline:
                def __enter__(self) -> "Pipeline":
                    return self

                def __exit__(self, *exc):
                    pass

                def watch(self):
                    pass


            class Context:
                async def __aenter__(self) -> "Context":
                    return self

                async def __aexit__(self, *exc):
                    pass

                def copy(self):
                    pass


            class Plain:
                def __enter__(self):
                    return 1

                def __exit__(self, *exc):
                    pass

                def watch(self):
                    pass


            class Client:
                def pipeline(self) -> Pipeline:
                    return Pipeline()

                def run(self):
                    with self.pipeline() as pipe:
                        pipe.watch()
                    with Plain() as plain:
                        plain.watch()

                async def serve(self):
                    async with Context() as ctx:
                        ctx.copy()
        """,
    })
    a = "pkg/a.py"
    assert target(index, a, "watch", 0) == "pkg/a.py::Pipeline.watch"
    assert target(index, a, "watch", 1) is None  # `__enter__` declares no type
    assert target(index, a, "copy") == "pkg/a.py::Context.copy"


def test_a_method_returning_self_declares_its_class(tmp_path):
    """`def __enter__(self): return self` and a builder's `return self`: `with Session() as s` and
    `b.name(1).build()` reach the class's members; a method that returns anything else on one path
    declares nothing."""
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            class Session:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    pass

                def get(self):
                    pass


            class Builder:
                def name(self, n):
                    if n:
                        return self
                    return self

                def other(self, n):
                    if n:
                        return None
                    return self

                def build(self):
                    pass


            def use():
                with Session() as s:
                    s.get()
                Builder().name(1).build()
                Builder().other(1).build()
        """,
    })
    a = "pkg/a.py"
    assert target(index, a, "get") == "pkg/a.py::Session.get"
    assert target(index, a, "build", 0) == "pkg/a.py::Builder.build"
    assert target(index, a, "build", 1) is None


def test_an_annotated_local_keeps_its_type_beside_a_with_target_of_its_name(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            class Pipeline:
                async def __aenter__(self):
                    return await self.init()

                async def init(self):
                    pass

                async def watch(self):
                    pass


            class Client:
                def pipeline(self) -> Pipeline:
                    return Pipeline()

                async def run(self):
                    pipe: Pipeline
                    async with self.pipeline() as pipe:
                        await pipe.watch()
        """,
    })
    assert target(index, "pkg/a.py", "watch") == "pkg/a.py::Pipeline.watch"
