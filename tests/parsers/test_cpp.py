"""C++ parser: classes, namespaces, out-of-line methods, constructors, bases, new."""

from __future__ import annotations

import pytest

from lore.parsers import cpp

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
