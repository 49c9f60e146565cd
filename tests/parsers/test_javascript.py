"""JavaScript parser: symbols, calls, imports (ES modules and CommonJS), bindings; bad input never raises."""

from __future__ import annotations

import pytest

from lore.parsers import javascript

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
                    ("lib", None, "lib"), ("./z", "a", "c")]
    binds = {(pf.symbols[b.owner].name, b.name): (b.value, b.alias_of) for b in pf.bindings}
    assert binds[("run", "default")] == ("", "Runner")
    assert binds[("Runner", "self.log")] == ("Log", "")
    assert binds[("Runner", "self.count")] == ("Counter", "")


@pytest.mark.parametrize("src", [b"", b"\xff\xfe\x00garbage(", b"class { function ( =>", b"f(" * 2000])
def test_bad_input_never_raises(src):
    pf = javascript.parse("bad.js", src, "bad")
    assert pf.symbols[0].kind == "module"
