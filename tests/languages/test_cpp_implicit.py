"""A copy of a C++ class that declares no copy constructor binds the class, as clangd answers (issue 30)."""

from __future__ import annotations

from .test_cpp import _calls

V_H = """#include <string>
namespace CLI {
class Validator {
 public:
  Validator(std::string d);
  Validator(int a, int b);
  Validator dup() const;
  Validator twice(const Validator& o, const Validator* p) const;
};
class Copyable {
 public:
  Copyable(int n);
  Copyable(const Copyable& other);
  Copyable dup() const { Copyable c(*this); return c; }
};
}
"""
V_CPP = """#include "v.h"
namespace CLI {
Validator Validator::dup() const {
  Validator newval(*this);
  return newval;
}
Validator Validator::twice(const Validator& o, const Validator* p) const {
  Validator a(o);
  Validator b("x");
  Validator c(p);
  return Validator(o);
}
}
"""


def test_a_copy_without_a_declared_copy_constructor_binds_the_class(tmp_path):
    """``Validator newval(*this)`` in ``Validator``'s member, ``Validator a(o)`` and ``Validator(o)`` with ``const
    Validator& o``: the implicit copy constructor runs (clangd answers the class); the old code bound
    ``Validator(std::string)`` by arity, which cannot take a ``Validator``. Must stay: a class that declares its copy
    constructor (``Copyable(const Copyable&)``), another argument (``Validator b("x")``) and a pointer (``c(p)``: no
    copy) keep a constructor."""
    calls = _calls(tmp_path, {"v.h": V_H, "v.cpp": V_CPP}, lines=True)
    assert calls[("v.CLI.Validator.dup", 4)] == ["v.CLI.Validator:3"]
    assert calls[("v.CLI.Validator.twice", 8)] == ["v.CLI.Validator:3"]
    assert calls[("v.CLI.Validator.twice", 11)] == ["v.CLI.Validator:3"]
    assert calls[("v.CLI.Validator.twice", 9)] == ["v.CLI.Validator.<init>:5"]
    assert "v.CLI.Validator:3" not in calls.get(("v.CLI.Validator.twice", 10), [])  # a pointer is no copy
    assert calls[("v.CLI.Copyable.dup", 14)] == ["v.CLI.Copyable.<init>:13"]
