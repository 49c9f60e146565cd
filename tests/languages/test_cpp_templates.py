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


def test_a_base_class_template_with_arguments_types_what_the_class_inherits(tmp_path):
    """``class PBox : public Box<Point>``: ``get()`` inherited from ``Box`` (declared ``T&``) is a ``Point`` inside
    ``PBox`` (through ``this->``) and on a ``PBox`` (the header's class read for the placeholder ``PBox`` that holds
    ``PBox::run``); CRTP (``class Leaf : public Crtp<Leaf>``) gives
    ``self()`` the derived class. Must stay unbound: a base whose argument is no project type (``Box<int>``; ``x`` is no unique name here, else
    the name alone would bind it, as before)."""
    calls = _calls(tmp_path, {"a.h": """namespace zx {
class Point { public: int x() const; };
class Other { public: int x() const; };
template <class T> class Box { public: T& get(); };
class PBox : public Box<Point> { public: void run(); };
class IBox : public Box<int> { };
template <class D> class Crtp { public: D& self(); };
class Leaf : public Crtp<Leaf> { public: void step(); };
}
""", "a.cc": """#include "a.h"
namespace zx {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void Leaf::step() {}
void PBox::run() { get().x(); this->get().x(); }
void use(PBox& b, Leaf& l, IBox& i) {
  b.get().x();
  l.self().step();
  i.get().x();
}
}
"""})
    # this->get().x(): Point::x; the bare get().x() is not followed yet (a self call's result is its declared type)
    assert sorted(calls[("a.zx.PBox.run", 6)]) == ["a.zx.Box.get", "a.zx.Box.get", "a.zx.Point.x"]
    assert sorted(calls[("a.zx.use", 8)]) == ["a.zx.Box.get", "a.zx.Point.x"]
    assert sorted(calls[("a.zx.use", 9)]) == ["a.zx.Crtp.self", "a.zx.Leaf.step"]
    assert calls[("a.zx.use", 10)] == ["a.zx.Box.get"]


def test_number_fields_and_number_results_choose_the_overload(tmp_path):
    """``q.move(h.count)`` with ``int count;`` declared in the header's ``Holder`` calls ``move(int)``, ``h.ratio``
    (``double``) ``move(double)``, and so do ``this->count``, a bare ``count`` in a method defined out of line and
    ``h.size()`` (``int size() const``). A tie stays a tie: ``size_t`` converts to both (clangd would reject the
    call; lore keeps both rather than guess), and so does a field of an unknown type."""
    calls = _calls(tmp_path, {"a.h": """#include <cstddef>
namespace zx {
class Point { public: void move(int d); void move(double d); };
struct Holder {
  int count;
  double ratio;
  size_t n;
  Unknown u;
  int size() const;
  void run(Point& q);
};
}
""", "a.cc": """#include "a.h"
namespace zx {
void Point::move(int d) {}
void Point::move(double d) {}
int Holder::size() const { return count; }
void Holder::run(Point& q) {
  q.move(this->count);
  q.move(count);
  q.move(ratio);
}
void use(Holder& h, Point& q) {
  q.move(h.count);
  q.move(h.ratio);
  q.move(h.size());
  q.move(h.n);
  q.move(h.u);
}
}
"""}, lines=True)
    to_int, to_double = "a.zx.Point.move:3", "a.zx.Point.move:4"
    assert calls[("a.zx.Holder.run", 7)] == [to_int]
    assert calls[("a.zx.Holder.run", 8)] == [to_int]
    assert calls[("a.zx.Holder.run", 9)] == [to_double]
    assert calls[("a.zx.use", 12)] == [to_int]
    assert calls[("a.zx.use", 13)] == [to_double]
    assert sorted(calls[("a.zx.use", 14)]) == sorted([to_int, "a.zx.Holder.size:5"])
    assert sorted(calls[("a.zx.use", 15)]) == [to_int, to_double]
    assert sorted(calls[("a.zx.use", 16)]) == [to_int, to_double]


def test_a_field_of_a_class_template_type_in_a_method_defined_apart(tmp_path):
    """``circular_q<log_msg> messages_;`` declared in the class, used bare in a method defined in an ``-inl.h``:
    ``messages_.empty()`` stays ``circular_q::empty`` and ``messages_.front()`` (declared ``T&``) is a ``log_msg``,
    so ``front_msg.size()`` calls ``log_msg::size`` (``size`` is no unique name here)."""
    calls = _calls(tmp_path, {"details/circular_q.h": """#pragma once
#include <vector>
namespace sp { namespace details {
template <typename T> class circular_q {
  std::vector<T> v_;
 public:
  bool empty() const { return v_.empty(); }
  T &front() { return v_[0]; }
};
class log_msg { public: int size() const; };
class other { public: int size() const; };
} }
""", "details/backtracer.h": """#pragma once
#include "circular_q.h"
namespace sp { namespace details {
class backtracer {
  circular_q<log_msg> messages_;
 public:
  void foreach_pop();
};
} }
""", "details/backtracer-inl.h": """#pragma once
#include "backtracer.h"
namespace sp { namespace details {
void backtracer::foreach_pop() {
  while (!messages_.empty()) {
    auto &front_msg = messages_.front();
    front_msg.size();
  }
}
} }
"""})
    pop = "details.backtracer-inl.sp.details.backtracer.foreach_pop"
    q = "details.circular_q.sp.details"
    assert calls[(pop, 5)] == [f"{q}.circular_q.empty"]
    assert calls[(pop, 6)] == [f"{q}.circular_q.front"]
    assert calls[(pop, 7)] == [f"{q}.log_msg.size"]


def test_an_argument_of_a_class_template_type_still_chooses_the_overload(tmp_path):
    """``s.put(g)`` with ``Grid<Point>& g`` calls ``put(const Grid<Point>&)``, not ``put(const Point&)``: a generic
    instance is typed by its class for the choice, as a plain instance was (must stay as on main)."""
    calls = _calls(tmp_path, {"a.h": """namespace zx {
class Point { public: int x() const; };
template <class T> class Grid { public: T& at(int i); };
class Sink { public: void put(const Grid<Point>& g); void put(const Point& p); };
}
""", "a.cc": """#include "a.h"
namespace zx {
void Sink::put(const Grid<Point>& g) {}
void Sink::put(const Point& p) {}
void use(Sink& s, Grid<Point>& g) {
  s.put(g);
}
}
"""}, lines=True)
    assert calls[("a.zx.use", 6)] == ["a.zx.Sink.put:3"]


def test_a_member_template_called_through_the_template_keyword(tmp_path):
    """``stack_.template Push<char>(1)`` and ``p->template Pop<int>()`` (the ``template`` keyword a dependent
    name needs) call ``Stack::Push`` and ``Stack::Pop``; they had been spelled ``stack_.`` with no name."""
    calls = _calls(tmp_path, {"a.h": """namespace rj {
class Stack { public: template <class T> T* Push(int n); template <class T> T* Pop(); };
template <class Enc> class Writer {
  Stack stack_;
 public:
  void Put(Stack* p) { stack_.template Push<char>(1); p->template Pop<int>(); }
};
}
"""})
    assert sorted(calls[("a.rj.Writer.Put", 6)]) == ["a.rj.Stack.Pop", "a.rj.Stack.Push"]


def test_an_alias_of_a_class_template_with_arguments(tmp_path):
    """``typedef GV<Point> PValue;`` and ``using Points = GV<Point>;`` in the header: ``p.enc()`` (declared ``E&``)
    is a ``Point``; an alias whose argument is no project type (``typedef GV<int> IValue``) leaves ``.x()``
    unbound, and the alias's plain members stay bound (``i.enc()``)."""
    calls = _calls(tmp_path, {"a.h": """namespace rj {
class Point { public: int x() const; };
class Other { public: int x() const; };
template <class E, class A = int> class GV { public: E& enc(); };
typedef GV<Point> PValue;
using Points = GV<Point>;
typedef GV<int> IValue;
}
""", "a.cc": """#include "a.h"
namespace rj {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void use(PValue& p, Points& q, IValue& i) {
  p.enc().x();
  q.enc().x();
  i.enc().x();
}
}
"""})
    assert sorted(calls[("a.rj.use", 6)]) == ["a.rj.GV.enc", "a.rj.Point.x"]
    assert sorted(calls[("a.rj.use", 7)]) == ["a.rj.GV.enc", "a.rj.Point.x"]
    assert calls[("a.rj.use", 8)] == ["a.rj.GV.enc"]


def test_a_container_alias_declared_in_another_header(tmp_path):
    """``typedef std::vector<Json> array;`` inside ``class Json`` in the header and ``using Points =
    std::vector<Point>;``: in the source, ``for (const auto& v : values) v.dump()`` with ``const Json::array&
    values`` calls ``Json::dump``, and ``ps[0].x()`` with ``Points ps`` calls ``Point::x``. Must stay unbound: a loop
    over a project class that is no alias of a container (``Bag``), and over an alias of one (``using Reg = Bag``)."""
    calls = _calls(tmp_path, {"a.h": """#include <vector>
namespace js {
class Point { public: int x() const; };
class Other { public: int x() const; };
class Json {
 public:
  typedef std::vector<Json> array;
  void dump() const;
};
using Points = std::vector<Point>;
class Bag { public: Other* begin(); Other* end(); };
using Reg = Bag;
}
""", "a.cc": """#include "a.h"
namespace js {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void Json::dump() const {}
static void dump(const Json::array& values, Points ps, Bag& bag, Reg& reg) {
  for (const auto& v : values) v.dump();
  ps[0].x();
  for (auto& p : ps) p.x();
  for (auto& b : bag) b.x();
  for (auto& r : reg) r.x();
}
}
"""})
    assert calls[("a.js.dump", 7)] == ["a.js.Json.dump"]
    assert calls[("a.js.dump", 8)] == ["a.js.Point.x"]
    assert calls[("a.js.dump", 9)] == ["a.js.Point.x"]
    assert calls.get(("a.js.dump", 10), []) == []
    assert calls.get(("a.js.dump", 11), []) == []


def test_a_function_template_returning_its_defaulted_parameter(tmp_path):
    """``template <typename T = Group> T* add_group(std::string name)``: ``auto* g = app.add_group("x");
    g->add(1)`` calls ``Group::add`` (no argument deduces ``T``: the default). Must stay unbound: a parameter with no
    default (``template <class T> T make()``) and one a function parameter deduces (``T pick(T a)``)."""
    calls = _calls(tmp_path, {"a.h": """#include <string>
namespace cli {
class Group { public: void add(int n); };
class Other { public: void add(int n); };
class App {
 public:
  template <typename T = Group> T* add_group(std::string name) { return new T(); }
  template <class T> T make();
  template <class T = Group> T pick(T a);
};
}
""", "a.cc": """#include "a.h"
namespace cli {
void Group::add(int n) {}
void Other::add(int n) {}
void use(App& app, Other o) {
  auto* g = app.add_group("x");
  g->add(1);
  auto m = app.make<Group>();
  m.add(2);
  auto p = app.pick(o);
  p.add(3);
}
}
"""})
    assert calls[("a.cli.use", 7)] == ["a.cli.Group.add"]
    assert calls.get(("a.cli.use", 9), []) == []
    assert calls.get(("a.cli.use", 11), []) == []


def test_a_using_declaration_brings_the_base_overloads_into_the_class(tmp_path):
    """``class Group : public App { using App::add_option; Option* add_option(Option*); }``: a three-argument
    ``add_option`` on a ``Group`` (here one made by ``add_group``'s defaulted template parameter) is ``App``'s, which
    takes three; ``Group``'s own one-argument overload stays the answer for one ``Option*``, and a class without the
    using-declaration (``Plain``) keeps its own (the compiler would reject the call: nothing better is known)."""
    calls = _calls(tmp_path, {"a.h": """#include <string>
namespace cli {
class Option { public: Option* required(); };
class Group;
class App {
 public:
  Option* add_option(std::string name, int& v, std::string doc = "");
  Option* add_option(std::string name);
  template <typename T = Group> T* add_group(std::string name);
};
class Group : public App {
 public:
  using App::add_option;
  Option* add_option(Option* opt);
};
class Plain : public App { public: Option* add_option(Option* opt); };
}
""", "a.cc": """#include "a.h"
namespace cli {
Option* App::add_option(std::string name, int& v, std::string doc) { return 0; }
Option* App::add_option(std::string name) { return 0; }
Option* Group::add_option(Option* opt) { return opt; }
Option* Plain::add_option(Option* opt) { return opt; }
void use(App& app, Plain& p, Option* o) {
  int n = 0;
  auto* g = app.add_group("y");
  g->add_option("n", n, "doc");
  g->add_option(o);
  p.add_option("n", n, "doc");
}
}
"""}, lines=True)
    assert calls[("a.cli.use", 10)] == ["a.cli.App.add_option:3"]
    assert calls[("a.cli.use", 11)] == ["a.cli.Group.add_option:5"]
    assert calls[("a.cli.use", 12)] == ["a.cli.Plain.add_option:6"]
