"""Python's explicit `super(Child, self)` is `super()` in a method of Child: its calls reach the
supertypes' members. Each test writes a tiny repository and checks a call's target."""

from __future__ import annotations

from test_bindings import index_of, target  # the same small-repository builder


def test_an_explicit_super_of_the_enclosing_class_reaches_the_supertype(tmp_path):
    index = index_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": """
            class Base(object):
                def __init__(self):
                    self.x = 1

                def run(self):
                    return 1


            class Child(Base):
                def __init__(self, url):
                    super(Child, self).__init__()

                def run(self):
                    return super(Child, self).run()

                @classmethod
                def make(cls):
                    return super(Child, cls).run(cls)


            class Grandchild(Child):
                def run(self):
                    return super(Child, self).run()
        """,
    })
    a = "pkg/a.py"
    assert target(index, a, "__init__") == "pkg/a.py::Base.__init__"
    assert target(index, a, "run", 0) == "pkg/a.py::Base.run"
    assert target(index, a, "run", 1) == "pkg/a.py::Base.run"  # `super(Child, cls)`
    assert target(index, a, "run", 2) is None  # past another class in the order: not Grandchild's super()
