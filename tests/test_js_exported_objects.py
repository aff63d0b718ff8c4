"""A CommonJS module whose value is an object it fills (`const scripts = { add() {…} }` or `var utils
= {}; utils.merge = function …`, then `module.exports = scripts;`): what `require` of it binds is that
object, and `scripts.add()` in the requiring module reaches its entry."""

from __future__ import annotations

from test_bindings import index_of, target

FILES = {
    "lib/scripts.js": (
        "'use strict';\nconst scripts = {\n  isJobInList(a) { return a; },\n"
        "  updateProgress: function (job) { return scripts.isJobInList(job); },\n};\nmodule.exports = scripts;\n"
    ),
    "lib/job.js": (
        "const scripts = require('./scripts');\nfunction Job() {}\n"
        "Job.prototype.progress = function () { return scripts.updateProgress(this); };\n"
        "Job.prototype.other = function () { return scripts.missing(this); };\nmodule.exports = Job;\n"
    ),
    "lib/utils.js": "var utils = {};\nutils.merge = function (a, b) { return a; };\nmodule.exports = utils;\n",
    "lib/use.js": "var utils = require('./utils');\nutils.merge({}, {});\n",
}


def test_a_required_module_whose_value_is_an_object_it_fills_reaches_its_entries(tmp_path):
    index = index_of(tmp_path, FILES)
    assert target(index, "lib/job.js", "updateProgress") == "lib/scripts.js::scripts.updateProgress"
    assert target(index, "lib/use.js", "merge") == "lib/utils.js::utils.merge"
    assert target(index, "lib/job.js", "missing") is None
