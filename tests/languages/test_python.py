"""Python parser: symbols, calls, types, imports, bindings; bad input never raises."""

from __future__ import annotations

from lore.languages.python import _parser as P
from lore.parsers.records import decode, encode

SRC = b'''"""Module doc."""
import os.path as osp, sys
from ..pkg import a as b, c
from . import sibling
from mod import *

@decorate
class Service(Base, metaclass=Meta):
    """Service doc."""
    timeout: int = 3

    def __init__(self, session: "Session") -> None:
        self.session = session
        self.cache = Cache()

    @property
    def name(self) -> Optional[str]:
        return helper(lambda: other())

    def run(self, *args, retries: int = 2, **kw) -> list[Result]:
        def inner():
            return self.name
        try:
            os.path.join("a", "b")
        except (ValueError, KeyError) as exc:
            raise WrapError() from exc
        if isinstance(args, (tuple, Sequence)):
            return [inner()]
        with open_thing() as fh:
            fh.read()

setup()
'''


def parse():
    return P.parse("pkg/svc.py", SRC, "pkg.svc")


def test_symbols_and_qualified_names():
    pf = parse()
    got = [(s.qualified_name, s.kind) for s in pf.symbols]
    assert got == [
        ("pkg.svc", "module"),
        ("pkg.svc.Service", "class"),
        ("pkg.svc.Service.__init__", "method"),
        ("pkg.svc.Service.name", "method"),
        ("pkg.svc.Service.name.<lambda>", "function"),
        ("pkg.svc.Service.run", "method"),
        ("pkg.svc.Service.run.inner", "function"),
    ]
    svc = pf.symbols[1]
    assert svc.docstring == "Service doc."
    assert pf.symbols[0].docstring == "Module doc."
    assert svc.decorators == ["decorate"]
    assert svc.start_line == 7  # the decorator line starts the definition
    run = pf.symbols[5]
    assert run.params == [("self", ""), ("args", ""), ("retries", "int"), ("kw", "")]
    assert run.return_type == "list[Result]"
    assert run.signature.startswith("def run(self, *args, retries: int = 2, **kw) -> list[Result]")


def test_calls_are_attributed_to_innermost_definition():
    pf = parse()
    by = {(pf.symbols[c.caller].name, c.callee) for c in pf.calls}
    assert ("pkg.svc", "setup") not in by  # module symbol is named by its last part
    assert ("svc", "setup") in by
    assert ("svc", "decorate") in by  # decorators run in the enclosing scope
    assert ("name", "helper") in by
    assert ("<lambda>", "other") in by  # a lambda is a definition: its calls are its own
    assert ("name", "other") not in by
    assert ("inner", "self.name") not in by  # attribute access is not a call
    assert ("run", "os.path.join") in by
    assert ("run", "WrapError") in by
    assert ("run", "inner") in by
    assert ("run", "fh.read") in by
    assert ("__init__", "Cache") in by


def test_types_imports_bindings_relations():
    pf = parse()
    types = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert ("__init__", "Session", "param") in types
    assert ("name", "str", "return") in types  # Optional[...] unwrapped
    assert ("run", "Result", "return") in types
    assert ("run", "ValueError", "isinstance") in types
    assert ("run", "Sequence", "isinstance") in types
    assert ("Service", "int", "field") in types
    imports = {(i.module, i.name, i.alias, i.level) for i in pf.imports}
    assert imports == {
        ("os.path", None, "osp", 0),
        ("sys", None, None, 0),
        ("pkg", "a", "b", 2),
        ("pkg", "c", None, 2),
        ("", "sibling", None, 1),
        ("mod", "*", None, 0),
    }
    binds = {(pf.symbols[b.owner].name, b.name, b.value or b.annotation or b.alias_of) for b in pf.bindings}
    assert ("Service", "self.session", "session") in binds
    assert ("Service", "self.cache", "Cache") in binds
    assert ("Service", "self.timeout", "int") in binds
    assert ("run", "fh", "open_thing") in binds
    rels = [(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations]
    assert rels == [("Service", "Base", "extends")]  # metaclass= is not a base


def test_syntax_errors_are_counted_not_raised():
    pf = P.parse("bad.py", b"def ok():\n    pass\n\ndef broken(:\n    x = \n\nclass Fine:\n    def m(self): ok()\n", "bad")
    assert pf.syntax_errors > 0
    names = [s.name for s in pf.symbols]
    assert "ok" in names and "Fine" in names


def test_non_utf8_and_empty_input():
    pf = P.parse("latin.py", "def caf\xe9():\n    s = '\xff'\n".encode("latin-1"), "latin")
    assert pf.symbols[0].kind == "module"
    empty = P.parse("e.py", b"", "e")
    assert [s.kind for s in empty.symbols] == ["module"]


def test_wire_format_round_trip():
    pf = parse()
    assert decode(encode(pf)) == pf


def test_value_flow_records():
    """Assignments split by target, container slots, returns, loops, with and bare raise."""
    src = b'''
def f(): pass
def main(items):
    a = b = f
    x, (y, z) = f, (g, h)
    first, *rest = f, g
    table = {"k": f, 1: g, "nested": {"n": h}, key(): g}
    table["new"] = h
    fs = [f, g]
    for it in Cls():
        pass
    with Res() as r, lock:
        pass
    raise Boom
def make(flag):
    if flag:
        return None
    return Conn()
'''
    pf = P.parse("m.py", src, "m")
    by = {(b.name, b.alias_of or b.value) for b in pf.bindings}
    assert {("a", "f"), ("b", "f"), ("x", "f"), ("y", "g"), ("z", "h")} <= by
    assert {("first", "f"), ("rest[0]", "g")} <= by  # starred: the ends, and the middle as slots
    assert {("table['k']", "f"), ("table[1]", "g"), ("table['nested']['n']", "h"), ("table['new']", "h"),
            ("fs[0]", "f"), ("fs[1]", "g")} <= by
    assert not any("key" in b.name for b in pf.bindings)  # computed keys are not followed
    assert ("it", "Cls().__iter__().__next__") in by and ("r", "Res") in by
    assert ("<return>", "Conn") in by and not any(b.name == "<return>" and not (b.value or b.alias_of)
                                                  for b in pf.bindings)
    calls = {(c.callee, c.kind) for c in pf.calls}
    assert {("Cls().__iter__", "implicit"), ("Cls().__iter__().__next__", "implicit"), ("Res().__enter__", "implicit"),
            ("Res().__exit__", "implicit"), ("lock.__enter__", "implicit"), ("Boom", "raise")} <= calls
