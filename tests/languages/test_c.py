"""C parser: functions, prototypes, structs, typedefs, includes, field calls."""

from __future__ import annotations

import pytest

from lore.languages.c import _parser as c

SRC = b"""#include <stdio.h>
#include "util.h"

/* A point. */
typedef struct Point { int x; struct Inner *in; } Point;
typedef struct { int len; } Buf;
typedef int (*cb)(int);
enum Color { RED, GREEN };
static int helper(Point *p, const char *s);
int external_only(int a);

int add(int a, int b) { return helper(0, "x") + util_twice(a); }
int main(void) { struct Point p; obj->ops->run(obj); printf("%d", add(1, 2)); return 0; }
static int helper(Point *p, const char *s) { return p->x; }
"""


def test_symbols_and_prototypes():
    pf = c.parse("src/m.c", SRC, "src.m")
    got = {s.qualified_name: (s.kind, s.is_declaration) for s in pf.symbols}
    assert got == {
        "src.m": ("module", False), "src.m.Point": ("struct", False), "src.m.Buf": ("struct", False),
        "src.m.cb": ("type_alias", False), "src.m.Color": ("enum", False), "src.m.add": ("function", False),
        "src.m.main": ("function", False), "src.m.helper": ("function", False),
        "src.m.external_only": ("function", True),  # defined elsewhere: the declaration stands for it
    }
    point = next(s for s in pf.symbols if s.name == "Point")
    assert point.docstring == "A point."
    helper = next(s for s in pf.symbols if s.name == "helper")
    assert not helper.exported and helper.params == [("p", "Point"), ("s", "")]


def test_calls_includes_types():
    pf = c.parse("src/m.c", SRC, "src.m")
    assert [c_.callee for c_ in pf.calls] == ["helper", "util_twice", "obj.ops.run", "printf", "add"]
    assert [(i.module, i.name) for i in pf.imports] == [("<stdio.h>", "*"), ("util.h", "*")]
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert {("Point", "Inner", "field"), ("main", "Point", "annotation"), ("helper", "Point", "param")} <= refs


@pytest.mark.parametrize("src", [b"", b"\xff\xfe int", b"int f( { struct", b"#define X(" * 500])
def test_bad_input_never_raises(src):
    assert c.parse("bad.c", src, "bad").symbols[0].kind == "module"


def test_a_cpp_header_named_h_is_read_as_cpp():
    pf = c.parse("a.h", b"#pragma once\nnamespace g {\nclass A : public B {\n public:\n  void f();\n};\n}\n", "a")
    assert pf.language == "c" and pf.syntax_errors == 0
    assert [(s.qualified_name, s.kind) for s in pf.symbols] == [
        ("a", "module"), ("a.g", "namespace"), ("a.g.A", "class"), ("a.g.A.f", "method")]


def test_macros_extern_c_and_bare_macro_lines():
    src = b"""#ifdef __cplusplus
extern "C" {
#endif
#define MAX(a, b) ((a) > (b) ? (a) : (b))
struct req {
  REQ_FIELDS
};
PRIVATE_TYPES
API int uv_close(int h);
int use(void) { return MAX(1, 2); }
#ifdef __cplusplus
}
#endif
"""
    pf = c.parse("include/uv.h", src, "include.uv")
    assert pf.syntax_errors <= 1  # the API attribute macro; the rest of the header is read
    got = {(s.name, s.kind, s.is_declaration) for s in pf.symbols[1:]}
    assert got == {("MAX", "function", False), ("req", "struct", False), ("uv_close", "function", True),
                   ("use", "function", False)}
    assert [x.callee for x in pf.calls] == ["MAX"]
    assert next(s for s in pf.symbols if s.name == "MAX").params == [("a", ""), ("b", "")]
