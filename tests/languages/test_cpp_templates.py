"""C++ class templates read with their arguments, and the other template shapes of issue 30's C++ part."""

from __future__ import annotations

from .test_cpp import _calls

GRID_H = """#include <vector>
namespace zx {
class Point { public: int x() const; };
class Other { public: int x() const; };
template <class T, int N = 4> class Grid {
 public:
  T& at(int i);
  const T* ptr(int i) const;
  int size() const;
  void check() { at(0).x(); }
};
}
"""


def test_a_member_typed_by_a_class_template_parameter_is_the_receivers_argument(tmp_path):
    """``Grid<Point> g``: ``g.at(i)`` (declared ``T&``) is a ``Point`` and ``g.ptr(i)`` (``const T*``) points to one,
    so ``.x()`` on them calls ``Point::x``; ``Grid<Other>`` gives ``Other::x``. Must stay unbound: an argument that
    is no project type (``Grid<int>``), and the template's own body (``at(0).x()`` inside ``Grid``: no argument)."""
    calls = _calls(tmp_path, {"grid.h": GRID_H, "grid.cc": """#include "grid.h"
namespace zx {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void use(Grid<Point>& g, const zx::Grid<Other, 2>& o, Grid<int> n) {
  g.at(1).x();
  g.ptr(1)->x();
  o.at(0).x();
  n.at(0).x();
}
}
"""})
    assert sorted(calls[("grid.zx.use", 6)]) == ["grid.zx.Grid.at", "grid.zx.Point.x"]
    assert sorted(calls[("grid.zx.use", 7)]) == ["grid.zx.Grid.ptr", "grid.zx.Point.x"]
    assert sorted(calls[("grid.zx.use", 8)]) == ["grid.zx.Grid.at", "grid.zx.Other.x"]
    assert calls[("grid.zx.use", 9)] == ["grid.zx.Grid.at"]
    assert calls[("grid.zx.Grid.check", 10)] == ["grid.zx.Grid.at"]
