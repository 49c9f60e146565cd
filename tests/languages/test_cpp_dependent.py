"""C++ calls on a receiver typed by a template parameter, read as clangd reads them (issue 30's C++ part)."""

from __future__ import annotations

from .test_cpp import _calls

HANDLERS_H = """namespace ns {
class A { public: void on_text(int); void only(); int size() const; };
class B { public: void on_text(int); int size() const; };
class C { public: void on_text(int); static int make(); void dup(); };
class D { public: static int make(); void dup(); };
class E { public: void dup(); };
class F { public: void dup(); };
class G { public: void dup(); };
class H { public: void dup(); };
class Shared { public: void go(); };
class go { };
class Unknown;
template <class Handler> void parse(Handler&& handler, const Handler* other) {
  handler.on_text(1);
  other->on_text(2);
  handler.only();
  handler.size();
  handler.dup();
}
template <class T> struct W {
  T t_;
  void step() { t_.on_text(3); T::make(); this->t_.on_text(4); }
  void later();
};
void plain(A& a, Unknown& u, Shared& s);
}
"""


def test_a_call_on_a_template_parameter_binds_every_definition_of_its_name_as_clangd_answers(tmp_path):
    """``handler.on_text()`` with ``Handler&& handler``: every project ``on_text`` (three here), as clangd's lookup
    of a dependent name answers; a parameter's pointer (``const Handler*``), a class template's field (``T t_``,
    also through ``this->``), ``T::make()``, and an out-of-line member in another file (``void W<T>::later()``).
    Must stay as they were: ``size`` (a standard container's member: the library has many, clangd answers none),
    ``dup`` (six definitions: more than clangd's five), ``t_.go()`` where a class is named ``go`` too (main's guess of the one method), a receiver of a
    known class (``a.on_text``: ``A``'s alone) and one of an unknown class outside any template (``u.on_text``)."""
    calls = _calls(tmp_path, {"h.h": HANDLERS_H, "h.cc": """#include "h.h"
namespace ns {
void A::on_text(int) {}
void A::only() {}
void B::on_text(int) {}
void C::on_text(int) {}
int C::make() { return 1; }
int D::make() { return 2; }
template <class T> void W<T>::later() { T local; local.on_text(5); t_.go(); }
void plain(A& a, Unknown& u, Shared& s) { a.on_text(6); u.on_text(7); s.go(); }
}
"""})
    three = ["h.ns.A.on_text", "h.ns.B.on_text", "h.ns.C.on_text"]
    assert sorted(calls[("h.ns.parse", 14)]) == three
    assert sorted(calls[("h.ns.parse", 15)]) == three
    assert calls[("h.ns.parse", 16)] == ["h.ns.A.only"]  # one definition: as before
    assert ("h.ns.parse", 17) not in calls or calls[("h.ns.parse", 17)] == []
    assert calls.get(("h.ns.parse", 18), []) == []
    assert sorted(calls[("h.ns.W.step", 22)]) == sorted([*three, "h.ns.C.make", "h.ns.D.make", *three])
    # local.on_text; t_.go keeps main's guess (the one method go; the class go makes the rule step aside)
    assert sorted(calls[("h.ns.W.later", 9)]) == sorted([*three, "h.ns.Shared.go"])
    # a.on_text: A's; u.on_text unbound; s.go: Shared::go
    assert sorted(calls[("h.ns.plain", 10)]) == ["h.ns.A.on_text", "h.ns.Shared.go"]


def test_a_macro_for_if_constexpr_after_else_keeps_the_namespace(tmp_path):
    """``TOML11_CONSTEXPR_IF(cond) {`` and ``else TOML11_CONSTEXPR_IF(cond)`` (toml11's spelling, ``CONSTEXPR_IF``,
    defined in another header) read as ``if``: the functions after them stay inside ``namespace toml`` and a
    qualified call reaches them; on main the grammar made functions named ``TOML11_CONSTEXPR_IF`` and lost the
    namespace there, so ``toml::parse`` was unresolved."""
    calls = _calls(tmp_path, {"compat.hpp": """#if __cplusplus >= 201703L
#  define TOML11_CONSTEXPR_IF if constexpr
#else
#  define TOML11_CONSTEXPR_IF if
#endif
""", "p.hpp": """#include "compat.hpp"
#include <limits>
namespace toml {
template<typename T>
int classify(double x, const T& loc)
{
    if(x == 1)
    {
        TOML11_CONSTEXPR_IF(std::numeric_limits<T>::has_infinity)
        {
            x = 2;
        }
        else
        {
            return err(make_error("a"));
        }
    }
    else if(x == 3)
    {
        TOML11_CONSTEXPR_IF(std::numeric_limits<T>::has_quiet_NaN)
        {
            x = 4;
        }
        else TOML11_CONSTEXPR_IF(std::numeric_limits<T>::has_signaling_NaN)
        {
            x = 5;
        }
        else
        {
            return 0;
        }
    }
    return 1;
}
inline int parse(const char* name) { return classify(1.0, 2); }
}
""", "main.cpp": """#include "p.hpp"
int main() { return toml::parse("x"); }
"""})
    assert calls[("main.main", 2)] == ["p.toml.parse"]
    assert calls[("p.toml.parse", 35)] == ["p.toml.classify"]


def test_an_enable_if_return_type_is_the_type_it_gives(tmp_path):
    """``cxx::enable_if_t<cond, basic_value<TC>>`` and ``typename std::enable_if<cond, basic_value<C>>::type`` (SFINAE
    return types) return ``basic_value``: ``auto root = toml::parse("x"); root.at("a")`` calls ``basic_value::at``
    (``Other`` has an ``at`` too, so no name guess could). Must stay unbound: ``enable_if_t<cond>`` alone (``void``)."""
    calls = _calls(tmp_path, {"a.hpp": """#include <type_traits>
#include <string>
namespace cxx { template <bool B, class T = void> using enable_if_t = typename std::enable_if<B, T>::type; }
namespace toml {
struct type_config {};
template <typename TC> class basic_value { public: basic_value& at(const std::string& k); };
class Other { public: Other& at(const std::string& k); };
template <typename TC = type_config, typename P>
cxx::enable_if_t<std::is_same<P, int>::value, basic_value<TC>> parse(const P& p);
template <typename P>
typename std::enable_if<std::is_same<P, int>::value, basic_value<type_config>>::type load(const P& p);
template <typename P>
std::enable_if_t<std::is_same<P, int>::value> nothing(const P& p);
}
""", "main.cpp": """#include "a.hpp"
int main() {
  const auto root = toml::parse(1);
  root.at("a");
  auto r2 = toml::load(1);
  r2.at("b");
  auto r3 = toml::nothing(1);
  r3.at("c");
  return 0;
}
"""})
    assert calls[("main.main", 4)] == ["a.toml.basic_value.at"]
    assert calls[("main.main", 6)] == ["a.toml.basic_value.at"]
    assert calls.get(("main.main", 8), []) == []


def test_a_name_in_any_of_many_blocks_of_a_namespace_is_found(tmp_path):
    """70 headers open ``namespace toml`` before ``value.hpp`` does (toml11 has 77 such blocks): the return type
    ``value`` that ``parser.hpp``'s block names is found in ``value.hpp``'s block, so ``auto v = toml::parse();
    v.at(0)`` calls ``value::at`` (``Other::at`` too exists: no name guess). On main only the first 64 blocks of a
    namespace were searched and ``v.at`` stayed unbound."""
    files = {f"a{i:02d}.hpp": f"namespace toml {{ int f{i}(); }}\n" for i in range(70)}
    files["value.hpp"] = "namespace toml { class value { public: int at(int i); }; class Other { public: int at(int i); }; }\n"
    files["parser.hpp"] = '#include "value.hpp"\nnamespace toml { value parse(); }\n'
    files["main.cpp"] = '#include "parser.hpp"\nint main() { auto v = toml::parse(); return v.at(0); }\n'
    calls = _calls(tmp_path, files)
    assert sorted(calls[("main.main", 2)]) == ["parser.toml.parse", "value.toml.value.at"]


def test_an_auto_parameter_of_a_generic_lambda_is_a_template_parameter(tmp_path):
    """``auto g = [](const auto& y, int n) { y.on_text(n); }``: ``y``'s type is the lambda's template parameter, so
    ``on_text`` is every project ``on_text``, as clangd answers it. Must stay unbound: a local declared ``auto``
    from a call lore cannot type (``auto z = make(); z.on_text(2)``: no template there)."""
    calls = _calls(tmp_path, {"a.hpp": """namespace ns {
class A { public: void on_text(int); };
class B { public: void on_text(int); };
class Z;
Z& make();
inline void run() {
  auto g = [](const auto& y, int n) { y.on_text(n); };
  auto& z = make();
  z.on_text(2);
}
}
"""})
    assert sorted(calls[("a.ns.run.g", 7)]) == ["a.ns.A.on_text", "a.ns.B.on_text"]
    assert calls.get(("a.ns.run", 9), []) == []


BOX_H = """namespace ns {
template <class T> class Box {
 public:
  Box(int n);
  Box(int n, int m);
  void run();
};
class Plain { public: Plain(int n); };
template <class TC> Box<TC> make(int i) { return Box<TC>(i); }
template <class TC> class Holder : public Box<TC> {
 public:
  Holder() : Box<TC>(1) {}
  void f(int i) { Box<TC>* p = new Box<TC>(i, 2); Box<int> c(3); Plain q(4); Box<TC> d(i); }
};
template <class T> void Box<T>::run() { Box(1); }
inline int use(int i) { Box<int> b(i); auto x = Box<int>(2); return 0; }
}
"""


def test_a_construction_whose_type_depends_on_a_template_parameter_binds_the_class_as_clangd_answers(tmp_path):
    """``Box<TC>(i)``, ``new Box<TC>(i, 2)``, ``Box<TC> d(i)``, a base ``: Box<TC>(1)`` in a class template's
    constructor and ``Box(1)`` inside ``Box<T>``'s own member: which constructor runs is decided when the template
    is instantiated, and clangd answers the class there; the old code bound the constructors by arity. Must stay:
    constructions with concrete arguments (``Box<int> c(3)``, ``Box<int>(2)``, ``Box<int> b(i)``) and of a plain
    class inside a template (``Plain q(4)``) keep their constructor."""
    calls = _calls(tmp_path, {"box.h": BOX_H, "box.cc": '#include "box.h"\nnamespace ns { Plain::Plain(int n) {} }\n'})
    assert calls[("box.ns.make", 9)] == ["box.ns.Box"]
    assert calls[("box.ns.Holder.<init>", 12)] == ["box.ns.Box"]
    assert calls[("box.ns.Holder.f", 13)].count("box.ns.Box") == 2
    assert sorted(set(calls[("box.ns.Holder.f", 13)])) == ["box.ns.Box", "box.ns.Box.<init>", "box.ns.Plain.<init>"]
    assert calls[("box.ns.Box.run", 15)] == ["box.ns.Box"]
    assert calls[("box.ns.use", 16)] == ["box.ns.Box.<init>", "box.ns.Box.<init>"]


def test_a_construction_through_a_class_templates_dependent_alias_binds_the_class(tmp_path):
    """``Box<table_type>(i)`` with ``using table_type = typename TC::table_type;`` in the class template around it
    (toml11's ``detail::storage<table_type>(...)``) and ``Box<Ch>`` with ``typedef typename TC::Ch Ch``: dependent
    as the parameter itself is (the class, as clangd answers); an alias of a concrete type (``typedef int
    size_type``) keeps the constructor."""
    calls = _calls(tmp_path, {"v.hpp": """template <class T> struct Box { Box(int); };
template <class TC> class V {
 public:
  using table_type = typename TC::table_type;
  typedef typename TC::Ch Ch;
  typedef int size_type;
  void run(int i) {
    Box<table_type>(i);
    Box<Ch>(i);
    Box<size_type>(i);
  }
};
"""})
    assert calls[("v.V.run", 8)] == ["v.Box"]
    assert calls[("v.V.run", 9)] == ["v.Box"]
    assert calls[("v.V.run", 10)] == ["v.Box.<init>"]
