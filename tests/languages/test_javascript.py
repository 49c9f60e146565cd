"""JavaScript parser: symbols, calls, imports (ES modules and CommonJS), bindings; bad input never raises."""

from __future__ import annotations

import pytest

from lore.languages.javascript import _parser as javascript

SRC = b"""
import D, { a as b } from './x';
import * as ns from '../y';
const { q } = require('./w');
const lib = require('lib');
export { a as c } from './z';

/** Runs jobs. */
export default class Runner extends Base {
  count = new Counter();
  constructor(repo) { super(repo); this.repo = repo; this.log = new Log(); }
  run() { this.repo.save(); super.stop(); ns.helper(); }
}

const make = () => new Runner(null);
exports.start = function () { make().run(); };
"""


def test_symbols_and_docs():
    pf = javascript.parse("src/run.js", SRC, "src.run")
    got = {s.qualified_name: s.kind for s in pf.symbols}
    assert got == {
        "src.run": "module", "src.run.Runner": "class", "src.run.Runner.constructor": "method",
        "src.run.Runner.run": "method", "src.run.make": "function", "src.run.start": "function",
    }
    runner = next(s for s in pf.symbols if s.name == "Runner")
    assert runner.docstring == "Runs jobs."
    assert runner.signature == "class Runner extends Base"
    assert (runner.start_line, runner.end_line) == (9, 13)
    assert [(r.target, r.kind) for r in pf.relations] == [("Base", "extends")]


def test_calls_are_dotted_and_super_is_the_base():
    pf = javascript.parse("src/run.js", SRC, "src.run")
    calls = [(pf.symbols[c.caller].name, c.callee, c.kind) for c in pf.calls]
    assert ("Runner", "Counter", "new") in calls
    assert ("constructor", "super().constructor", "call") in calls
    assert ("run", "this.repo.save", "call") in calls
    assert ("run", "super().stop", "call") in calls
    assert ("start", "make().run", "call") in calls
    assert not any(c.callee == "require" for c in pf.calls)


def test_imports_and_bindings():
    pf = javascript.parse("src/run.js", SRC, "src.run")
    imps = [(i.module, i.name, i.alias) for i in pf.imports]
    assert imps == [("./x", "default", "D"), ("./x", "a", "b"), ("../y", None, "ns"), ("./w", "q", None),
                    ("lib", "module.exports", "lib"), ("./z", "a", "c")]
    binds = {(pf.symbols[b.owner].name, b.name): (b.value, b.alias_of) for b in pf.bindings}
    assert binds[("run", "default")] == ("", "Runner")
    assert binds[("Runner", "self.log")] == ("Log", "")
    assert binds[("Runner", "self.count")] == ("Counter", "")


@pytest.mark.parametrize("src", [b"", b"\xff\xfe\x00garbage(", b"class { function ( =>", b"f(" * 2000])
def test_bad_input_never_raises(src):
    pf = javascript.parse("bad.js", src, "bad")
    assert pf.symbols[0].kind == "module"


CJS = b"""
const Store = require('./lib').Store;
require('./side-effect');

function Base(name) { this.name = name; }
Base.prototype.validate = function (item) { return check(item); };
Base.create = function () { return new Base('x'); };

const api = {
  get(id) { return fetchIt(id); },
  put: (x) => save(x),
  alias: Store,
};

run({ onDone() { finish(); } });
exports.helper = api;
module.exports = Base;
"""


def test_commonjs_exports_object_literals_and_es5_classes():
    pf = javascript.parse("src/base.js", CJS, "src.base")
    got = {s.qualified_name: s.kind for s in pf.symbols}
    assert got == {
        "src.base": "module", "src.base.Base": "class", "src.base.Base.validate": "method",
        "src.base.Base.create": "method", "src.base.api": "namespace", "src.base.api.get": "function",
        "src.base.api.put": "function",
    }  # onDone (a literal passed to a call) is no symbol: its call belongs to the module
    calls = [(pf.symbols[c.caller].name, c.callee) for c in pf.calls]
    assert ("validate", "check") in calls and ("get", "fetchIt") in calls and ("put", "save") in calls
    assert ("base", "finish") in calls
    imps = [(i.module, i.name, i.alias) for i in pf.imports]
    assert imps == [("./lib", "Store", None), ("./side-effect", None, None)]
    binds = {(pf.symbols[b.owner].name, b.name): b.alias_of for b in pf.bindings}
    assert binds[("base", "module.exports")] == "Base"
    assert binds[("base", "helper")] == "api"
    assert binds[("api", "alias")] == "Store"


def test_module_exports_of_functions_requires_and_jsx():
    pf = javascript.parse("src/a.js", b"module.exports = function () { go(); };\n", "src.a")
    assert [(s.name, s.kind) for s in pf.symbols[1:]] == [("default", "function")]
    assert [(b.name, b.alias_of) for b in pf.bindings] == [("module.exports", "default")]
    pf = javascript.parse("src/i.js", b"module.exports = require('./store');\n", "src.i")
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [("./store", "module.exports", "module.exports")]
    src = b"export function List() { return <ul><Item a={f()} /><ui.Card /><li>x</li></ul>; }"
    pf = javascript.parse("src/v.jsx", src, "src.v")
    assert [c.callee for c in pf.calls] == ["Item", "f", "ui.Card"]  # <li> is an HTML element


def test_new_expression_receivers():
    pf = javascript.parse("a.js", b"function f() { new Builder().size(2).build(); }", "a")
    assert sorted(c.callee for c in pf.calls) == ["Builder", "Builder().size", "Builder().size().build"]


def test_a_conditional_expression_binds_each_branch():
    pf = javascript.parse("a.js", b"function f(c, h) {\n  const z = c ? new Client() : h;\n  let w;\n"
                                  b"  w = c ? make() : (h);\n}\n", "a")
    got = {(b.name, b.value, b.alias_of) for b in pf.bindings if b.name in ("z", "w")}
    assert got == {("z", "Client", ""), ("z", "", "h"), ("w", "make", "")}  # a parenthesized branch: not read
