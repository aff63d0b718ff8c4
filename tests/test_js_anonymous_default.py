"""An anonymous function or class a module exports by default (`export default function (instance)
{…}`: a helper registered by its importer, a plugin's factory) is a definition, the module's
`default`, and a default import of the module binds to it. Before, the file had no unit at all:
its body's calls belonged to nothing and `registerIf(instance)` stayed unknown."""

from __future__ import annotations

from test_bindings import index_of, target

from codegraph.index.extract import extract_source

HELPER = """
import { isEmpty } from '../utils';

export default function (instance) {
  instance.registerHelper('if', function (conditional) {
    return isEmpty(conditional);
  });
}
"""


def test_an_anonymous_default_export_is_the_module_s_default_definition():
    for source, kind in ((HELPER, "function"), ("export default (a) => a + 1;\n", "function"),
                         ("export default class {\n  run() { return 1; }\n}\n", "class")):
        facts, _, _ = extract_source("lib/helpers/if.js", "javascript", source.encode())
        defaults = [u for u in facts.units if u.qualname == "default"]
        assert [u.kind for u in defaults] == [kind], source
    facts, _, _ = extract_source("lib/helpers/if.js", "javascript", HELPER.encode())
    assert next(u for u in facts.units if u.qualname == "default").end_line == 8  # its body, to its closing brace
    assert any(c.name == "registerHelper" and c.caller.endswith("::default") for c in facts.calls)


def test_a_default_import_binds_to_the_anonymous_default_export(tmp_path):
    index = index_of(tmp_path, {
        "lib/helpers/if.js": HELPER,
        "lib/utils.js": "export function isEmpty(v) { return !v; }\n",
        "lib/helpers.js": "import registerIf from './helpers/if';\nexport function registerDefaultHelpers(instance) {\n  registerIf(instance);\n}\n",
        "src/plugin.ts": "export default function (api: object, options: object) {\n  return { api, options };\n}\n",
        "src/main.ts": "import plugin from './plugin';\nexport function load() { return plugin({}, {}); }\n",
    })
    assert target(index, "lib/helpers.js", "registerIf") == "lib/helpers/if.js::default"
    assert target(index, "src/main.ts", "plugin") == "src/plugin.ts::default"


def test_the_function_a_default_export_wraps_is_the_module_s_default(tmp_path):
    # a compiler plugin's factory: `export default declare((api, options) => { … return { visitor } })`
    plugin = ("import { declare } from './utils';\n"
              "export default declare((api, options) => {\n  api.assertVersion(7);\n"
              "  return { visitor: { ArrowFunctionExpression(path) { path.replace(); } } };\n});\n")
    facts, _, _ = extract_source("src/plugin.ts", "typescript", plugin.encode())
    factory = next(u for u in facts.units if u.qualname == "default")
    assert factory.kind == "function" and factory.param_names == ("api", "options")
    assert any(c.name == "assertVersion" and c.caller == factory.id for c in facts.calls)
    facts, _, _ = extract_source("src/x.js", "javascript", b"export default pick(() => 1, () => 2);\n")
    assert not [u for u in facts.units if u.qualname == "default"]  # two functions: neither is the export
    index = index_of(tmp_path, {"src/plugin.ts": plugin, "src/utils.ts": "export function declare(f: any) { return f; }\n",
                                "src/load.ts": "import plugin from './plugin';\nexport function load() { return plugin({}, {}); }\n"})
    assert target(index, "src/load.ts", "plugin") == "src/plugin.ts::default"
