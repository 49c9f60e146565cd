"""C++ parser: classes, namespaces, out-of-line methods, constructors, bases, new."""

from __future__ import annotations

import pytest

from lore.languages.cpp import _parser as cpp

SRC = b"""#include "shape.hpp"
namespace geo {
/// A circle.
class Circle : public Shape, private Named {
public:
    Circle(double r) : r_(r) {}
    double area() const override;
    static Circle *make(double r) { return new Circle(r); }
private:
    Logger *log_;
};
double Circle::area() const { this->log_->write("x"); return 1.0; }
void Square::grow() { helper(); }
}
int main() { geo::Circle c(2.0); auto p = geo::Circle::make(1); p->area(); }
"""


def test_symbols():
    pf = cpp.parse("geo/circle.cpp", SRC, "geo.circle")
    got = {s.qualified_name: (s.kind, s.is_declaration) for s in pf.symbols}
    assert got == {
        "geo.circle": ("module", False), "geo.circle.geo": ("namespace", False),
        "geo.circle.geo.Circle": ("class", False), "geo.circle.geo.Circle.<init>": ("method", False),
        "geo.circle.geo.Circle.area": ("method", False), "geo.circle.geo.Circle.make": ("method", False),
        "geo.circle.geo.Square": ("class", True),  # placeholder for methods of a class declared elsewhere
        "geo.circle.geo.Square.grow": ("method", False), "geo.circle.main": ("function", False),
    }
    circle = next(s for s in pf.symbols if s.name == "Circle")
    assert circle.docstring == "A circle."
    assert [(r.target, r.kind) for r in pf.relations] == [("Shape", "extends"), ("Named", "extends")]


def test_calls_and_bindings():
    pf = cpp.parse("geo/circle.cpp", SRC, "geo.circle")
    assert [(c.callee, c.kind) for c in pf.calls] == [
        ("Circle", "new"), ("this.log_.write", "call"), ("helper", "call"), ("geo.Circle", "new"),
        ("geo.Circle.make", "call"), ("p.area", "call")]
    binds = {(b.name, b.annotation or b.value) for b in pf.bindings}
    assert {("self.log_", "Logger"), ("c", "geo.Circle"), ("p", "geo.Circle.make")} <= binds


@pytest.mark.parametrize("src", [b"", b"\xff\xfe class", b"template <class T> class { void f(", b"<" * 3000])
def test_bad_input_never_raises(src):
    assert cpp.parse("bad.cpp", src, "bad").symbols[0].kind == "module"


def test_usings_placeholders_templates_and_makers():
    src = b"""#include "w.h"
using namespace ui::detail;
using ui::Widget;
namespace fs = std::filesystem;
namespace a::b { int f(); }
class Local { public: Local(int x); ~Local(); void go(); };
void ui::Button::draw() const { Widget::draw(); }
void ns::helper() {}
template <typename T> T first(const std::vector<T> &v, Widget w) { return v[0]; }
using Alias = ui::Widget;
int main() { auto p = std::make_unique<Widget>(1); p->draw(); }
"""
    pf = cpp.parse("src/b.cpp", src, "src.b")
    got = {s.qualified_name: (s.kind, s.is_declaration) for s in pf.symbols}
    assert got["src.b.a"] == ("namespace", True) and got["src.b.a.b"] == ("namespace", False)
    assert got["src.b.a.b.f"] == ("function", True)
    assert got["src.b.Local.<init>"] == ("method", True) and got["src.b.Local.~Local"] == ("method", True)
    assert got["src.b.ui"] == ("namespace", True) and got["src.b.ui.Button"] == ("class", True)
    assert got["src.b.ui.Button.draw"] == ("method", False)
    assert got["src.b.ns.helper"] == ("function", False)  # an unknown lower-case scope is a namespace
    assert got["src.b.Alias"] == ("type_alias", False)
    imps = [(i.module, i.name, i.alias) for i in pf.imports]
    assert imps == [("w.h", "*", None), ("namespace ui::detail", "*", None), ("namespace ui", "Widget", None),
                    ("namespace std::filesystem", None, "fs")]
    refs = {(pf.symbols[t.owner].name, t.type_name, t.kind) for t in pf.type_refs}
    assert ("first", "Widget", "param") in refs and not [r for r in refs if r[1] == "T"]
    binds = {(pf.symbols[b.owner].name, b.name): b.value for b in pf.bindings}
    assert binds[("main", "p")] == "Widget"
