"""A JVM class nested more than one level down, named through its package: a single import
(`import p.CommandLine.Model.CommandSpec;`), an on-demand import of a nested class's members
(`import p.CommandLine.Help.*;`) and a type written whole (`p.CommandLine.Model.CommandSpec spec`)
(bindings/imports.py `_qualified_member`)."""

from __future__ import annotations

from test_bindings import index_of, target


def test_nested_classes_at_any_depth_bind_through_their_package(tmp_path):
    index = index_of(tmp_path, {
        "src/main/java/p/CommandLine.java": """
        package p;
        public class CommandLine {
            public static class Model {
                public static class CommandSpec {
                    public String name() { return ""; }
                    public static class Deep { public int depth() { return 1; } }
                }
            }
            public static class Help { public static class Ansi { public String on() { return ""; } } }
        }
        """,
        "src/main/java/q/Gen.java": """
        package q;
        import p.CommandLine.Model.CommandSpec;
        import p.CommandLine.Help.*;
        import p.CommandLine.Model.CommandSpec.Deep;
        public class Gen {
            public String run(CommandSpec spec, Ansi a, Deep d, p.CommandLine.Model.CommandSpec whole) {
                d.depth(); a.on(); whole.name(); return spec.name();
            }
        }
        """,
    })
    path, outer = "src/main/java/q/Gen.java", "src/main/java/p/CommandLine.java::CommandLine"
    assert target(index, path, "depth") == f"{outer}.Model.CommandSpec.Deep.depth"
    assert target(index, path, "on") == f"{outer}.Help.Ansi.on"
    assert target(index, path, "name", 0) == f"{outer}.Model.CommandSpec.name"
    assert target(index, path, "name", 1) == f"{outer}.Model.CommandSpec.name"


def test_an_imported_name_of_a_class_and_its_factory_function_stays_unknown(tmp_path):
    """`import p.size.Size` where the package declares `data class Size(…)` and `fun Size(w: Int,
    h: Int)`: a call `Size(1, 2)` may be either; the import is no proof of the class."""
    index = index_of(tmp_path, {
        "src/main/kotlin/p/size/Size.kt": """
        package p.size
        class Dimension(val px: Int)
        data class Size(val width: Dimension, val height: Dimension)
        fun Size(width: Int, height: Int) = Size(Dimension(width), Dimension(height))
        """,
        "src/main/kotlin/q/Use.kt": """
        package q
        import p.size.Size
        fun make() = Size(1, 2)
        """,
    })
    assert target(index, "src/main/kotlin/q/Use.kt", "Size") is None
