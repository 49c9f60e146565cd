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


# -- resolution on small projects ---------------------------------------------------------------------------------
def _calls(root, files: dict[str, str], lines: bool = False) -> dict[tuple[str, int], list[str]]:
    """(caller's qualified name, line) -> the qualified names its calls on that line bind (unbound: nothing), each
    with ``:LINE`` of the definition when ``lines``."""
    from lore.api import open_index
    from lore.bench._data import symbol_table
    from lore.index import index_repo

    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    index_repo(root, workers=1)
    out: dict[tuple[str, int], list[str]] = {}
    with open_index(root / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        for e in idx.edges("symbol_refs"):
            got = out.setdefault((table[e["caller_id"]][2], e["line"]), [])
            row = table[e["callee_id"]] if e["callee_id"] is not None else None
            if row is not None and row[4]:  # a definition in the project (externals have no path)
                got.append(f"{row[2]}:{row[5]}" if lines else row[2])
    return out


HOLDER_H = """#include <vector>
#include <map>
#include <string>
namespace ns {
class Foo { public: int run(); };
class Bar { public: int run(); };
struct Meta { Foo* f; };
class Holder {
 public:
  void go();
 private:
  std::vector<Foo> v_;
  std::vector<Foo*> vp_;
  std::map<int, Foo*> m_;
  std::vector<Meta*> metas_[3];
  Foo arr_[4];
  std::vector<int> ints_;
};
}
"""


def test_container_elements_subscripts_range_for_and_map_iterators(tmp_path):
    calls = _calls(tmp_path, {"a.h": HOLDER_H, "a.cc": """#include "a.h"
namespace ns {
int Foo::run() { return 1; }
int Bar::run() { return 2; }
void Holder::go() {
  std::vector<Foo> v; v[0].run();
  v_[1].run();
  vp_[0]->run();
  for (auto& f : v) f.run();
  for (Foo* p : vp_) p->run();
  auto it = m_.find(1); it->second->run();
  for (const auto& kv : m_) kv.second->run();
  for (auto& [k, b] : m_) b->run();
  metas_[0][1]->f->run();
  arr_[2].run();
  v.front().run(); vp_.back()->run();  // a field declared in the header
  std::string s; s[0].run();
  ints_[0].run();
  for (auto x : ints_) x.run();
  Bar bars[2]; bars[1].run();
}
}
"""})
    foo, bar = ["a.ns.Foo.run"], ["a.ns.Bar.run"]
    for line in range(6, 16):
        assert calls[("a.ns.Holder.go", line)] == foo, line
    assert calls[("a.ns.Holder.go", 16)] == foo + foo
    assert calls[("a.ns.Holder.go", 17)] == []  # a std::string's character: no project type
    assert calls[("a.ns.Holder.go", 18)] == [] and calls[("a.ns.Holder.go", 19)] == []  # ints: never guessed by name
    assert calls[("a.ns.Holder.go", 20)] == bar


def test_cast_receivers(tmp_path):
    calls = _calls(tmp_path, {"a.h": "namespace ns {\nclass Foo { public: int run(); };\nclass Bar { public: int run(); };\n}\n",
                              "a.cc": """#include "a.h"
namespace ns {
int Foo::run() { return 1; }
int Bar::run() { return 2; }
void go(void* p, const Foo& f) {
  static_cast<Foo*>(p)->run();
  reinterpret_cast<const Bar*>(p)->run();
  const_cast<Foo&>(f).run();
  dynamic_cast<std::string*>(p)->run();
}
}
"""})
    assert calls[("a.ns.go", 6)] == ["a.ns.Foo.run"] and calls[("a.ns.go", 8)] == ["a.ns.Foo.run"]
    assert calls[("a.ns.go", 7)] == ["a.ns.Bar.run"]
    assert calls[("a.ns.go", 9)] == []  # a library type: never guessed by name


def test_auto_from_a_dereference_an_address_or_a_field(tmp_path):
    calls = _calls(tmp_path, {"a.h": "#include <memory>\nnamespace ns {\nclass Foo { public: int run(); Foo* next; };\n"
                                     "class Bar { public: int run(); };\n}\n",
                              "a.cc": """#include "a.h"
namespace ns {
int Foo::run() { return 1; }
int Bar::run() { return 2; }
void go(Foo* p, std::unique_ptr<Bar> u) {
  auto& f = *p; f.run();
  auto& b = *u; b.run();
  auto n = p->next; n->run();
  auto q = &b; q->run();
  auto x = 3; x.run();
}
}
"""})
    foo, bar = ["a.ns.Foo.run"], ["a.ns.Bar.run"]
    assert [calls[("a.ns.go", i)] for i in range(6, 11)] == [foo, bar, foo, bar, []]


def test_subscripts_through_operator_brackets_and_pointers(tmp_path):
    calls = _calls(tmp_path, {"a.h": """#include <string>
namespace ns {
class Value { public: int as(); };
class Other { public: int as(); };
class Result { public: const Value& operator[](const std::string& k) const; Value** all(); };
Result parse();
}
""", "a.cc": """#include "a.h"
namespace ns {
int Value::as() { return 1; }
int Other::as() { return 2; }
void go(const Result& r, std::string s, Other* others) {
  r["x"].as();
  auto res = parse();
  res["y"].as();
  s[0].as();
  others[1].as();
  res.all()[0]->as();
}
}
"""})
    assert sorted(calls[("a.ns.go", 11)]) == ["a.ns.Result.all", "a.ns.Value.as"]  # an element of the array all() returns
    assert calls[("a.ns.go", 6)] == calls[("a.ns.go", 8)] == ["a.ns.Value.as"]
    assert calls[("a.ns.go", 9)] == []  # std::string has no project operator[]
    assert calls[("a.ns.go", 10)] == ["a.ns.Other.as"]


def test_overloads_by_the_type_of_this_fields_and_calls(tmp_path):
    calls = _calls(tmp_path, {"a.h": """namespace ns {
class Text; class Comment;
class Visitor { public: virtual bool Visit(const Text& t); virtual bool Visit(const Comment& c); };
class Text { public: bool Accept(Visitor* v) const; Comment* c_; Comment* get() const; };
class Comment { public: bool Accept(Visitor* v) const; };
}
""", "a.cc": """#include "a.h"
namespace ns {
bool Visitor::Visit(const Text& t) { return true; }
bool Visitor::Visit(const Comment& c) { return false; }
bool Text::Accept(Visitor* v) const {
  v->Visit(*this);
  v->Visit(*c_);
  v->Visit(*this->get());
  return v->Visit(unknown());
}
}
"""}, lines=True)
    text, comment = ["a.ns.Visitor.Visit:3"], ["a.ns.Visitor.Visit:4"]
    assert calls[("a.ns.Text.Accept", 6)] == text and calls[("a.ns.Text.Accept", 7)] == comment
    assert sorted(calls[("a.ns.Text.Accept", 8)]) == ["a.ns.Text.get:4", *comment]
    assert len(calls[("a.ns.Text.Accept", 9)]) == 2  # an argument of unknown type: both overloads stay


def test_thread_safety_annotations_keep_the_class():
    src = b"""namespace port {
class LOCKABLE Mutex {
 public:
  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void AssertHeld() const
      ASSERT_EXCLUSIVE_LOCK() { }
 private:
  std::mutex mu_;
};
}
class DB {
  void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  int pending_ GUARDED_BY(mutex_);
  port::Mutex mutex_;
};
void Run() ABSL_NO_THREAD_SAFETY_ANALYSIS { if (x) FOO_BAR(y); }
"""
    pf = cpp.parse("db/db.h", src, "db.db")
    names = {s.qualified_name for s in pf.symbols}
    assert {"db.db.port.Mutex.Lock", "db.db.port.Mutex.AssertHeld", "db.db.DB.Compact", "db.db.Run"} <= names
    assert pf.syntax_errors == 0
    assert [c.callee for c in pf.calls] == ["mu_.lock", "FOO_BAR"]  # a macro call in a statement stays a call


def test_a_comment_inside_a_continued_macro_keeps_the_macro():
    src = b"""#ifndef NDEBUG
#  define CHECK(c, m) \\
    ((c) /* void() fails on old compilers */ \\
         ? (void)0 : fail(m))
#endif
int after() { return helper(); }
"""
    pf = cpp.parse("a.hpp", src, "a")
    assert [s.name for s in pf.symbols if s.kind == "function"] == ["CHECK", "after"]
    assert pf.syntax_errors == 0


def test_containers_named_by_an_alias_in_the_same_file(tmp_path):
    calls = _calls(tmp_path, {"a.h": """#include <vector>
#include <unordered_map>
namespace ns {
class Foo { public: int run(); };
class Bar { public: int run(); };
using FooMap = std::unordered_map<int, Foo>;
typedef std::vector<Bar*> Bars;
typedef int Count;
class Holder {
 public:
  void go();
  FooMap m_;
  Bars bars_;
  Count n_;
};
}
""", "a.cc": """#include "a.h"
namespace ns {
int Foo::run() { return 1; }
int Bar::run() { return 2; }
void Holder::go() {
  m_[1].run();
  auto it = m_.find(1); it->second.run();
  for (auto* b : bars_) b->run();
  bars_[0]->run();
  n_[0].run();
}
}
"""})
    assert calls[("a.ns.Holder.go", 6)] == calls[("a.ns.Holder.go", 7)] == ["a.ns.Foo.run"]
    assert calls[("a.ns.Holder.go", 8)] == calls[("a.ns.Holder.go", 9)] == ["a.ns.Bar.run"]
    assert calls[("a.ns.Holder.go", 10)] == []


def test_a_reference_to_an_owned_object_keeps_long_chains_in_reach(tmp_path):
    calls = _calls(tmp_path, {"include/a.hpp": """#include <memory>
#include <string>
namespace ns {
class Value { public: template <typename T> const T& as() const; };
class Other { public: template <typename T> const T& as() const; };
class Result { public: const Value& operator[](const std::string& k) const; };
class Options { public: Options(std::string a, std::string b); Result parse(int argc, const char** argv); };
}
""", "src/a.cpp": """#include "a.hpp"
int go(int argc, const char* argv[]) {
  std::unique_ptr<ns::Options> allocated(new ns::Options(argv[0], "b"));
  auto& options = *allocated;
  auto result = options.parse(argc, argv);
  return result["x"].as<int>();
}
"""})
    assert [c.replace("include.a.", "a.") for c in calls[("src.a.go", 6)]] == ["a.ns.Value.as"]


def test_anonymous_namespaces_are_file_local(tmp_path):
    calls = _calls(tmp_path, {"a.cc": """namespace kv {
namespace {
int Local() { return 1; }
class Helper { public: Helper(int x) {} int Go() { return 1; } };
}
int RunA() { Helper h(1); Local(); return h.Go(); }
}
""", "b.cc": """namespace kv {
namespace {
int Local() { return 2; }
class Helper { public: int Go() { return 2; } };
}
int RunB() { Helper h; Local(); return h.Go(); }
int RunC() { return Helper(3).Go(); }
}
"""}, lines=True)
    assert sorted(calls[("a.kv.RunA", 6)]) == ["a.kv.Helper.<init>:4", "a.kv.Helper.Go:4", "a.kv.Local:3"]
    assert sorted(calls[("b.kv.RunB", 6)]) == ["b.kv.Helper.Go:4", "b.kv.Local:3"]
    # b's Helper constructs itself (the class): a's constructor is not its
    assert sorted(calls[("b.kv.RunC", 7)]) == ["b.kv.Helper.Go:4", "b.kv.Helper:4"]


def test_base_class_initializers_construct_the_base(tmp_path):
    calls = _calls(tmp_path, {"a.h": """namespace kv {
class Base { public: explicit Base(int x); Base(int x, int y); };
class Slice { public: Slice(const char* d); };
class Derived : public Base {
 public:
  Derived(const char* d);
 private:
  Slice s_;
  int Count_;
};
}
""", "a.cc": """#include "a.h"
namespace kv {
Base::Base(int x) {}
Base::Base(int x, int y) {}
Derived::Derived(const char* d) : Base(1, 2), s_(d), Count_(0) {}
}
"""}, lines=True)
    assert calls[("a.kv.Derived.<init>", 5)] == ["a.kv.Base.<init>:4"]  # members' initializers are no calls


def test_aliases_of_smart_pointers_reach_the_held_type_across_files(tmp_path):
    calls = _calls(tmp_path, {"include/y/ptr.h": """#include <memory>
namespace Y {
class node;
class Reader;
typedef std::shared_ptr<node> shared_node;
using ReaderPtr = std::unique_ptr<Reader>;
}
""", "include/y/node.h": """#include "y/ptr.h"
namespace Y {
class node { public: void mark(); };
class other { public: void mark(); };
class Reader { public: Reader(int x); int read(); };
class Writer { public: int read(); };
}
""", "src/use.cpp": """#include "y/node.h"
namespace Y {
int use(shared_node n, Reader* raw) {
  n->mark();
  ReaderPtr p = ReaderPtr(raw);
  p.reset();
  return p->read();
}
}
"""}, lines=True)
    assert calls[("src.use.Y.use", 4)] == ["include.y.node.Y.node.mark:3"]
    assert calls[("src.use.Y.use", 5)] == ["include.y.ptr.Y.ReaderPtr:6"]  # the unique_ptr, not Reader(int)
    assert calls[("src.use.Y.use", 6)] == []  # the smart pointer's own member
    assert calls[("src.use.Y.use", 7)] == ["include.y.node.Y.Reader.read:5"]


def test_an_alias_has_no_twin_class_of_its_name(tmp_path):
    calls = _calls(tmp_path, {"sparse_set.h": """namespace re2 {
template <typename V> class SparseSetT { public: void clear(); };
typedef SparseSetT<void> SparseSet;
}
""", "dfa.cc": """#include "sparse_set.h"
namespace re2 {
class DFA { public: void Run(); private: class Workq; Workq* q0_; };
class DFA::Workq : public SparseSet { public: void clear(); };
void DFA::Workq::clear() {}
}
""", "prog.cc": """#include "sparse_set.h"
namespace re2 {
typedef SparseSet Workq;
void Flatten(int n) { Workq q(n); q.clear(); }
}
"""}, lines=True)
    assert calls[("prog.re2.Flatten", 4)] == ["prog.re2.Workq:3", "sparse_set.re2.SparseSetT.clear:2"]


def test_an_exact_overload_beats_a_template_for_an_argument_typed_by_the_resolver(tmp_path):
    calls = _calls(tmp_path, {"t.cpp": """enum XMLError { XML_SUCCESS, XML_ERROR_PARSING };
class Doc { public: XMLError ErrorID() const; };
bool Check(const char* name, const char* expected, const char* found) { return true; }
bool Check(const char* name, XMLError expected, XMLError found) { return true; }
template <class T> bool Check(const char* name, T expected, T found, bool echo = true) { return true; }
void run(const Doc& doc) {
  Check("bad", XML_ERROR_PARSING, doc.ErrorID());
}
"""}, lines=True)
    got = calls[("t.run", 7)]
    assert "t.Check:4" in got and "t.Check:5" not in got  # the template fits as well as the enum overload, no better


def test_if_branches_that_open_two_braces_read_one_branch(tmp_path):
    """``#ifdef X`` / ``if (a) {`` / ``#else`` / ``if (b) {`` / ``#endif``: two braces opened for one closed lose the
    rest of the file (its namespace, so ``Init`` would not join the header's ``g::Init``); one branch is read."""
    calls = _calls(tmp_path, {"g.h": """namespace g {
// Starts.
void Init(const char* name);
// Writes.
void Flush();
}
""", "g.cc": """#include "g.h"
namespace g {
void Flush() {
#ifdef HAVE_X
  if (true) {
#else
  if (false) {
#endif
    Other();
  }
}
void Init(const char* name) { Flush(); }
}
""", "main.cc": """#include "g.h"
int main() { g::Init("x"); g::Flush(); Missing(); return 0; }
"""}, lines=True)
    assert calls[("main.main", 2)] == ["g.g.Init:12", "g.g.Flush:3"]
    assert calls[("g.g.Init", 12)] == ["g.g.Flush:3"]
    assert calls[("g.g.Flush", 9)] == []  # Other is declared nowhere: unbound


def test_a_macro_defined_inside_a_namespace_is_called_by_its_bare_name(tmp_path):
    calls = _calls(tmp_path, {"log.h": """namespace base {
namespace internal {
int Compare(int a, int b);
#define CHECK_EQ(a, b) base::internal::Compare(a, b)
}
}
""", "main.cc": """#include "log.h"
int main() { CHECK_EQ(1, 2); Compare(1, 2); return 0; }
"""}, lines=True)
    # the macro, not a member of base::internal; Compare is one (no using-directive here): unbound
    assert calls[("main.main", 2)] == ["log.CHECK_EQ:4"]


def test_a_lower_case_class_defined_out_of_line_is_a_class(tmp_path):
    """``node::node()`` and ``bool node::ok() const`` show ``node`` to be a class (a lower-case scope is otherwise
    taken for a namespace): its out-of-line methods join the header's class, its constructor is ``<init>``."""
    calls = _calls(tmp_path, {"node.h": """namespace lib {
namespace detail {
class node {
 public:
  node();
  bool ok() const;
  void set(const node& rhs);
};
}
}
""", "node.cpp": """#include "node.h"
namespace lib {
namespace detail {
node::node() {}
bool node::ok() const { return true; }
void node::set(const node& rhs) { rhs.ok(); }
}
}
""", "util.cpp": """namespace util {
int helper(int a) { return a; }
}
void util::run() { helper(1); }
""", "memory.h": """namespace lib {
class memory { public: void merge(); void grow(); };
class holder { public: void merge(); private: memory* m_pMemory; };
class pool { public: void take(pool& rhs); void drop(); };
}
""", "memory.cpp": """#include "memory.h"
namespace lib {
void memory::merge() { grow(); }
void memory::grow() {}
void pool::take(pool& rhs) { rhs.drop(); }
void pool::drop() {}
}
""", "holder.cpp": """#include "memory.h"
namespace lib {
void holder::merge() { m_pMemory->merge(); }
}
""", "main.cpp": """#include "node.h"
int main() { lib::detail::node n; n.set(n); return n.ok(); }
lib::detail::node* make() { return new lib::detail::node(); }
"""}, lines=True)
    assert calls[("main.make", 3)] == ["node.lib.detail.node.<init>:4"]
    assert calls[("node.lib.detail.node.set", 6)] == ["node.lib.detail.node.ok:5"]
    assert sorted(calls[("main.main", 2)]) == ["node.lib.detail.node.ok:5", "node.lib.detail.node.set:6"]
    # memory:: in memory.cpp, pool:: of a method taking a pool: classes (their methods join the header's)
    assert calls[("memory.lib.memory.merge", 3)] == ["memory.lib.memory.grow:4"]
    assert calls[("memory.lib.pool.take", 5)] == ["memory.lib.pool.drop:6"]
    assert calls[("holder.lib.holder.merge", 3)] == ["memory.lib.memory.merge:3"]  # a field of the class: m_pMemory
    # util::run in util.cpp: util stays a namespace (the file opens namespace util)
    assert calls[("util.util.run", 4)] == ["util.util.helper:2"]


def test_overloads_by_a_standard_string_made_or_taken_apart(tmp_path):
    """``std::string(1, ch)``, ``std::to_string(n)``, ``s.substr(1)`` are strings, ``s.c_str()`` a ``const char*``: the
    overload taking that type is called; an argument of unknown type keeps every candidate."""
    calls = _calls(tmp_path, {"e.h": """#include <string>
namespace y {
class Emitter {
 public:
  Emitter& Write(const std::string& str);
  Emitter& Write(bool b);
  Emitter& Write(char ch);
  void Put(const char* s);
  void Put(int n);
};
}
""", "e.cpp": """#include "e.h"
namespace y {
Emitter& Emitter::Write(const std::string& str) { return *this; }
Emitter& Emitter::Write(bool b) { return Write(std::string(1, 'x')); }
Emitter& Emitter::Write(char ch) { return Write(std::to_string(ch)); }
void Emitter::Put(const char* s) {}
void Emitter::Put(int n) {}
void Run(Emitter& out, const std::string& s, Unknown u) {
  out.Write(s.substr(1));
  out.Put(s.c_str());
  out.Write(u.get());
}
}
"""}, lines=True)
    assert calls[("e.y.Emitter.Write", 4)] == ["e.y.Emitter.Write:3"]
    assert calls[("e.y.Emitter.Write", 5)] == ["e.y.Emitter.Write:3"]
    assert calls[("e.y.Run", 9)] == ["e.y.Emitter.Write:3"]
    assert calls[("e.y.Run", 10)] == ["e.y.Emitter.Put:6"]
    assert sorted(calls[("e.y.Run", 11)]) == ["e.y.Emitter.Write:3", "e.y.Emitter.Write:4", "e.y.Emitter.Write:5"]


def test_an_inline_namespace_lends_its_names_to_the_enclosing_one(tmp_path):
    calls = _calls(tmp_path, {"util.h": """namespace g {
inline namespace internal {
bool Demangle(const char* name);
const char* ShortName();
}
namespace hidden {
int Secret();
}
}
""", "util.cc": """#include "util.h"
namespace g {
inline namespace internal {
bool Demangle(const char* name) { return ShortName() != nullptr; }
const char* ShortName() { return "x"; }
}
}
""", "main.cc": """#include "util.h"
using namespace g;
int main() { Demangle("a"); g::Demangle("b"); g::internal::ShortName(); internal::ShortName(); Secret(); return 0; }
"""}, lines=True)
    # g::internal::ShortName() is not followed (the inline name is an alias at file level only): unbound, as Secret
    assert sorted(calls[("main.main", 3)]) == ["util.g.Demangle:4", "util.g.Demangle:4", "util.g.ShortName:5"]
    assert calls[("util.g.Demangle", 4)] == ["util.g.ShortName:5"]


def test_a_method_defined_in_both_branches_of_an_unset_flag_binds_the_default_build(tmp_path):
    calls = _calls(tmp_path, {"pc.h": """namespace bm {
class Counters {
 public:
  static bool Initialize();
  bool Read();
  void Reset();
};
}
""", "pc.cc": """#include "pc.h"
namespace bm {
#if defined HAVE_LIBPFM
bool Counters::Initialize() { return true; }
void Counters::Reset() {}
#else
bool Counters::Initialize() { return false; }
#endif
#ifdef USE_FAST
bool Counters::Read() { return true; }
#endif
#ifdef USE_SLOW
bool Counters::Read() { return false; }
#endif
void Use(Counters& c) { Counters::Initialize(); c.Read(); c.Reset(); }
}
"""}, lines=True)
    # Read: in two branches both off (no default build's one): both stay; Reset: only in a skipped branch, kept
    assert sorted(calls[("pc.bm.Use", 15)]) == ["pc.bm.Counters.Initialize:7", "pc.bm.Counters.Read:10",
                                                "pc.bm.Counters.Read:13", "pc.bm.Counters.Reset:5"]


def test_a_lambda_held_in_a_local_variable_is_a_local_function(tmp_path):
    """``auto is_space = [](char c) {...}; is_space(c)``: the call binds to the lambda (a local function named like its
    variable, where clangd goes: the variable's declaration), whose body's calls are its own; a ``std::function``
    parameter called with ``()`` and a lambda written in place stay unbound / part of the function around them."""
    calls = _calls(tmp_path, {"w.cpp": """#include <string>
#include <functional>
namespace t {
struct Node { int run(); };
int Node::run() { return 1; }
int helper(int x) { return x; }
int wrap(const std::string& s, std::function<int(int)> cb, Node n) {
  auto is_space = [](char c) -> bool {
    return c == ' ' || helper(1);
  };
  const auto add = [&](Node& m) { return m.run(); };
  int k = 0;
  for (char c : s) {
    if (is_space(c)) k += add(n);
  }
  auto plain = helper(2);
  std::for_each(s.begin(), s.end(), [](char c) { helper(c); });
  return cb(k) + plain;
}
}
"""})
    assert sorted(calls[("w.t.wrap", 14)]) == ["w.t.wrap.add", "w.t.wrap.is_space"]
    assert calls[("w.t.wrap.is_space", 9)] == ["w.t.helper"]
    assert calls[("w.t.wrap.add", 11)] == ["w.t.Node.run"]
    assert calls[("w.t.wrap", 17)] == ["w.t.helper"]  # a lambda written in place: the function's own call
    assert calls.get(("w.t.wrap", 18), []) == []  # cb(k): a std::function parameter, no symbol


def test_a_construction_of_a_local_is_placed_where_its_type_is_named():
    """``T x(args)`` (and ``T x(name)``, which the grammar reads as a declaration) is a construction located at ``T``,
    as ``new T(args)`` is at its ``new``: a site's column names what is constructed, not the ``(`` after the variable."""
    src = b"""void run(int n) {
  MutexLock lock(&mu_, n);
  const Options opts(n);
  Slice key(name);
  Builder b{n};
}
"""
    pf = cpp.parse("r.cc", src, "r")
    got = [(c.callee, c.line, c.col) for c in pf.calls if c.kind == "new"]
    assert got == [("MutexLock", 2, 2), ("Options", 3, 8), ("Slice", 4, 2)]


def test_a_call_that_constructs_a_temporary_is_a_construction(tmp_path):
    """``Value("foo")`` and ``ns::Slice(p)`` bind to constructors: such a call is a construction (kind ``new``, as
    ``new T(args)`` and ``T x(args)`` are); a function call, and a call of a type lore cannot resolve, stays a call."""
    from lore.api import open_index
    from lore.index import index_repo

    (tmp_path / "v.h").write_text("""namespace ns {
class Value { public: Value(const char* s); Value(int n); int size() const; };
class Slice { public: Slice(const char* p); };
int Make(int n);
}
""")
    (tmp_path / "v.cpp").write_text("""#include "v.h"
namespace ns {
Value::Value(const char* s) {}
Value::Value(int n) {}
int Value::size() const { return 0; }
Slice::Slice(const char* p) {}
int Make(int n) { return n; }
int Run() {
  int a = Value("foo").size();
  Slice s = ns::Slice("x");
  Unknown u = Unknown(1);
  return a + Make(2);
}
}
""")
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        kinds = {(e["callee_name"], e["line"]): e["kind"] for e in idx.edges("symbol_refs")}
    assert kinds[("Value", 9)] == "new" and kinds[("ns.Slice", 10)] == "new"
    assert kinds[("Value().size", 9)] == "call" and kinds[("Make", 12)] == "call" and kinds[("Unknown", 11)] == "call"


def test_an_iterator_over_a_container_field_declared_in_the_header(tmp_path):
    """``auto it = blocks_.begin(); (*it)->size()`` with ``blocks_`` a ``std::vector<Block*>`` field declared in the
    header: an element, as ``for (auto* b : blocks_)`` is; an iterator of a local of a plain type stays unbound."""
    calls = _calls(tmp_path, {"a.h": """#include <vector>
namespace db {
class Block { public: int size() const; };
class Reader { public: int begin() const; };
class Table {
 public:
  void Scan();
 private:
  std::vector<Block*> blocks_;
};
}
""", "a.cc": """#include "a.h"
namespace db {
int Block::size() const { return 0; }
void Table::Scan() {
  for (auto it = blocks_.begin(); it != blocks_.end(); ++it) (*it)->size();
  auto first = blocks_.begin();
  first->size();
  Reader r;
  auto x = r.begin();
  x->size();
}
}
"""})
    assert calls[("a.db.Table.Scan", 5)] == ["a.db.Block.size"]
    assert calls[("a.db.Table.Scan", 7)] == ["a.db.Block.size"]
    assert calls.get(("a.db.Table.Scan", 10), []) == []


def test_the_parameters_of_a_lambda_written_in_place_are_typed_on_its_lines(tmp_path):
    """``for_each(v, [&](View sv) { sv.begin(); })``: ``sv`` is a ``View`` inside the lambda, on one line or several,
    even where the function has another ``sv``; after the lambda the function's own ``sv`` is what it was."""
    calls = _calls(tmp_path, {"v.cpp": """namespace f {
struct View { int begin() const; };
struct Other { int begin() const; };
int View::begin() const { return 0; }
int Other::begin() const { return 1; }
template <typename F> void each(F fn);
void Run() {
  Other sv;
  each([&](View sv) { sv.begin(); });
  each([&](int n, const View& sv) {
    return sv.begin() + n;
  });
  sv.begin();
  each([](auto x) { x.begin(); });
}
}
"""})
    assert calls[("v.f.Run", 9)] == ["v.f.each", "v.f.View.begin"]
    assert calls[("v.f.Run", 11)] == ["v.f.View.begin"]
    assert calls[("v.f.Run", 13)] == ["v.f.Other.begin"]
    assert calls[("v.f.Run", 14)] == ["v.f.each"]  # auto: not written


def test_overloads_by_the_number_type_a_cast_or_a_conversion_names(tmp_path):
    """``SetAttribute(int(-100))``, ``(double)n``, ``unsigned(x)``: the overload taking that number type is called; a
    plain variable of unknown type keeps every candidate."""
    calls = _calls(tmp_path, {"e.cpp": """namespace x {
class Element {
 public:
  void Set(int v) {}
  void Set(unsigned v) {}
  void Set(double v) {}
  void Set(const char* v) {}
};
void Run(Element* e, float f, Unknown u) {
  e->Set(int(-100));
  e->Set((double)f);
  e->Set(unsigned(u));
  e->Set(u);
}
}
"""}, lines=True)
    assert calls[("e.x.Run", 10)] == ["e.x.Element.Set:4"]
    assert calls[("e.x.Run", 11)] == ["e.x.Element.Set:6"]
    assert calls[("e.x.Run", 12)] == ["e.x.Element.Set:5"]
    assert len(calls[("e.x.Run", 13)]) == 4


def test_a_lower_case_template_class_defined_out_of_line_in_another_file(tmp_path):
    """``template <typename M> void color_sink<M>::log(int)`` in ``color_sink-inl.h``: ``color_sink`` is a class (a
    scope with template arguments is no namespace), so a call in it binds the definition beside it, not only the
    declaration in the class body; ``ns::f()`` of a lower-case namespace without template arguments stays one."""
    calls = _calls(tmp_path, {"color_sink.h": """#pragma once
namespace sp {
template <typename Mutex>
class color_sink {
 public:
  void log(int msg);
 private:
  void print_range_(int formatted, int start);
};
}
#include "color_sink-inl.h"
""", "color_sink-inl.h": """#pragma once
#include "color_sink.h"
namespace sp {
template <typename Mutex>
inline void color_sink<Mutex>::log(int msg) {
  print_range_(msg, 0);
  details::helper(msg);
}
template <typename Mutex>
inline void color_sink<Mutex>::print_range_(int formatted, int start) {}
}
""", "details.cc": """namespace sp {
void details::helper(int x) {}
}
"""}, lines=True)
    assert calls[("color_sink-inl.sp.color_sink.log", 6)] == ["color_sink-inl.sp.color_sink.print_range_:10"]
    assert calls[("color_sink-inl.sp.color_sink.log", 7)] == ["details.sp.details.helper:2"]


def test_a_using_declaration_names_a_namespace_relative_to_the_ones_around_it(tmp_path):
    """``using details::os::to_str;`` inside ``namespace sp { namespace sinks {``: ``sp::details::os::to_str`` (the
    language looks the namespace up from the enclosing ones), not an unknown top-level ``details``; a top-level
    namespace the repository defines is still the one a path names, and ``std`` stays the standard library's."""
    calls = _calls(tmp_path, {"os.h": """namespace sp { namespace details { namespace os {
int to_str(int x);
int exists(int x);
} } }
namespace util { int top(int x); }
""", "os.cc": """#include "os.h"
namespace sp { namespace details { namespace os {
int to_str(int x) { return x; }
int exists(int x) { return x; }
} } }
namespace util { int top(int x) { return x; } }
""", "sink.cc": """#include "os.h"
#include <string>
namespace sp {
namespace sinks {
using namespace details::os;
using util::top;
using std::to_string;
int Rotate(int n) {
  using details::os::to_str;
  return to_str(n) + exists(n) + top(n) + (int)to_string(n).size();
}
}
}
"""}, lines=True)
    assert sorted(calls[("sink.sp.sinks.Rotate", 10)]) == ["os.sp.details.os.exists:4", "os.sp.details.os.to_str:3",
                                                           "os.util.top:6"]


def test_a_specifier_macro_before_a_qualified_return_type_keeps_the_function(tmp_path):
    """``SP_CONSTEXPR_FUNC sp::view_t to_view(const buf_t& b)``: a macro the build defines (``constexpr``, ``inline``)
    in front of a return type; the function is defined and a call binds to it."""
    calls = _calls(tmp_path, {"c.h": """#pragma once
#define SP_CONSTEXPR_FUNC inline
namespace sp {
struct view_t { int size() const; };
struct buf_t { int n; };
namespace details {
SP_CONSTEXPR_FUNC sp::view_t to_view(const buf_t &buf) {
  return sp::view_t{};
}
}
}
""", "c.cc": """#include "c.h"
namespace sp {
int view_t::size() const { return 0; }
int Use(const buf_t& b) {
  return details::to_view(b).size();
}
}
"""}, lines=True)
    assert sorted(calls[("c.sp.Use", 5)]) == ["c.sp.details.to_view:7", "c.sp.view_t.size:3"]


def test_braced_default_arguments_and_explicit_instantiations_keep_the_class(tmp_path):
    """``Part(const std::string& name, const std::string& type = {})`` and ``template class sink<int>;``, which the
    grammar does not take: no syntax error is counted for them, the class keeps its members, and calls to them bind."""
    header = """#include <string>
#include <vector>
namespace cp {
struct Opts { int level; };
class Part {
 public:
  Part(const std::string& name, const std::string& type = {}, std::vector<int> v = {1, 2}) : name_{name} {}
  void Add(const Opts& o = {});
  int Size() const;
 private:
  std::string name_;
};
template <typename M> class sink { public: void flush(); };
template <typename M> void sink<M>::flush() {}
template class sink<int>;
}
"""
    assert cpp.parse("p.h", header.encode(), "p").syntax_errors == 0
    calls = _calls(tmp_path, {"p.h": header, "p.cc": """#include "p.h"
namespace cp {
void Part::Add(const Opts& o) {}
int Part::Size() const { return 0; }
int Use(Part& p, sink<int>& s) {
  p.Add();
  s.flush();
  return p.Size();
}
}
"""}, lines=True)
    assert calls[("p.cp.Use", 6)] == ["p.cp.Part.Add:3"]
    assert calls[("p.cp.Use", 7)] == ["p.cp.sink.flush:14"]
    assert calls[("p.cp.Use", 8)] == ["p.cp.Part.Size:4"]


def test_a_macro_the_file_defines_as_a_specifier_is_read_as_one(tmp_path):
    """``#define IMPL_FN inline`` (or as nothing, or as another such macro) then ``IMPL_FN node::node(int v)`` and
    ``static IMPL_UNALIGNED int hash(...)``: the constructor is a constructor and the functions parse; a macro with a
    value (``#define LIMIT 4``) is left alone."""
    src = """#ifdef SMALL
#define IMPL_FN inline
#else
#define IMPL_FN
#endif
#define IMPL_UNALIGNED __attribute__((no_sanitize("x")))
#define LIMIT 4
namespace pg {
class node { public: node(int v); bool empty() const; int v_; };
IMPL_FN node::node(int v): v_(v) {}
IMPL_FN bool node::empty() const { return v_ == LIMIT; }
static IMPL_UNALIGNED unsigned int hash(const void* key) { return 0; }
bool Check() { return node(hash(0)).empty(); }
}
"""
    pf = cpp.parse("n.cpp", src.encode(), "n")
    assert pf.syntax_errors == 0
    got = {s.qualified_name for s in pf.symbols}
    assert {"n.pg.node.<init>", "n.pg.node.empty", "n.pg.hash", "n.pg.Check"} <= got
    calls = _calls(tmp_path, {"n.cpp": src}, lines=True)
    assert sorted(calls[("n.pg.Check", 13)]) == ["n.pg.hash:12", "n.pg.node.<init>:10", "n.pg.node.empty:11"]


def test_a_macro_the_file_defines_as_namespace_openers_opens_them(tmp_path):
    """``#define NS_BEGIN namespace pg { namespace impl {`` ... ``NS_BEGIN`` / ``NS_END`` on their own lines: what is
    between is inside ``pg::impl``, so ``impl::strequal(...)`` from ``pg`` binds to it."""
    calls = _calls(tmp_path, {"p.cpp": """#ifdef HEADER_ONLY
#	define NS_BEGIN namespace pg { namespace impl {
#	define NS_END } }
#else
#	define NS_BEGIN namespace pg { namespace impl { namespace {
#	define NS_END } } }
#endif
NS_BEGIN
bool strequal(const char* a, const char* b) { return a == b; }
NS_END
namespace pg {
bool Same(const char* a) { return impl::strequal(a, "x"); }
}
"""}, lines=True)
    assert calls[("p.pg.Same", 12)] == ["p.pg.impl.strequal:9"]


def test_an_inl_header_named_like_a_lower_case_class_defines_its_methods(tmp_path):
    """``thread_pool-inl.h`` defining ``void thread_pool::reset()``: ``thread_pool`` is the class its name says (as
    ``thread_pool.cpp`` would be), so ``q_`` is its field and a type nested in the class (``q_type``, ``Rep``) types
    it."""
    calls = _calls(tmp_path, {"q.h": """namespace sp {
template <typename T> class queue { public: void reset_counter(); int size() const; };
}
""", "thread_pool.h": """#include "q.h"
namespace sp {
class thread_pool {
 public:
  void reset();
  struct Rep { int size() const; };
 private:
  using q_type = queue<int>;
  q_type q_;
  Rep* rep_;
};
}
#include "thread_pool-inl.h"
""", "thread_pool-inl.h": """#include "thread_pool.h"
namespace sp {
inline void thread_pool::reset() { q_.reset_counter(); rep_->size(); }
}
"""}, lines=True)
    assert sorted(calls[("thread_pool-inl.sp.thread_pool.reset", 3)]) == ["q.sp.queue.reset_counter:2",
                                                                          "thread_pool.sp.thread_pool.Rep.size:6"]


def test_an_assignment_to_a_call_is_no_local_pure_virtual_function(tmp_path):
    """``RawBigit(i) = 0;`` in a method body, which the grammar reads as a pure virtual function: the call of the
    class's ``RawBigit`` (no local function of that name swallowing the method's later calls); a pure virtual
    method in a class body stays a method."""
    calls = _calls(tmp_path, {"b.cc": """namespace d {
class Bignum {
 public:
  int& RawBigit(int index);
  void Clear();
  virtual void Align(int n) = 0;
};
int& Bignum::RawBigit(int index) { static int x; return x; }
void Bignum::Clear() {
  for (int i = 0; i < 3; ++i) {
    RawBigit(i) = 0;
  }
  int my = RawBigit(2);
}
}
"""}, lines=True)
    assert calls[("b.d.Bignum.Clear", 11)] == ["b.d.Bignum.RawBigit:8"]
    assert calls[("b.d.Bignum.Clear", 13)] == ["b.d.Bignum.RawBigit:8"]
    assert "b.d.Bignum.Align" in {s.qualified_name for s in cpp.parse("b.cc", b"namespace d { class Bignum { virtual void Align(int n) = 0; }; }", "b").symbols}


def test_a_call_of_a_type_alias_constructs_what_it_names(tmp_path):
    """``SelfType(p)`` with ``using SelfType = Iter;`` constructs an ``Iter`` (its constructor, by the arguments);
    ``String(s)`` with ``typedef std::string String;`` the library's string (outside the repository); ``UInt(x)``
    with ``typedef unsigned int UInt;`` is a conversion and stays bound to the alias."""
    calls = _calls(tmp_path, {"v.hpp": """#include <string>
namespace js {
typedef unsigned int UInt;
typedef std::string String;
class Iter {
 public:
  Iter(int p);
  Iter(const char* s);
  using SelfType = Iter;
  SelfType Next(int p) { return SelfType(p); }
};
inline Iter::Iter(int p) {}
inline Iter::Iter(const char* s) {}
inline UInt Count(const char* s) { return UInt(String(s).size()); }
}
"""}, lines=True)
    assert calls[("v.js.Iter.Next", 10)] == ["v.js.Iter.<init>:12"]
    assert calls[("v.js.Count", 14)] == ["v.js.UInt:3"]


def test_const_overloads_on_members_of_this_and_on_const_results(tmp_path):
    """In a ``const`` method ``root_.Size()`` calls ``Size() const`` (a member object of a ``const`` ``*this``), and
    ``Root()->Size()`` with ``Root`` returning ``const Node*`` the ``const`` one too, through chains
    (``m.Root()->Child()->Size()``); in a non-``const`` method, and through a pointer member, the plain one."""
    calls = _calls(tmp_path, {"n.h": """namespace y {
class Node {
 public:
  Node* Child();
  const Node* Child() const;
  int Size();
  int Size() const;
};
class Doc {
 public:
  int Count() const;
  int Total();
  int Far() const;
  const Node* Root() const;
 private:
  Node root_;
  Node* ptr_;
};
}
""", "n.cc": """#include "n.h"
namespace y {
Node* Node::Child() { return this; }
const Node* Node::Child() const { return this; }
int Node::Size() { return 0; }
int Node::Size() const { return 1; }
int Doc::Count() const { return root_.Size(); }
int Doc::Total() { return root_.Size(); }
int Doc::Far() const { Node local; return ptr_->Size() + local.Size(); }
const Node* Doc::Root() const { return &root_; }
int Use(Doc& m) { return m.Root()->Child()->Size(); }
}
"""}, lines=True)
    assert calls[("n.y.Doc.Count", 7)] == ["n.y.Node.Size:6"]
    assert calls[("n.y.Doc.Total", 8)] == ["n.y.Node.Size:5"]
    assert calls[("n.y.Doc.Far", 9)] == ["n.y.Node.Size:5", "n.y.Node.Size:5"]
    assert sorted(calls[("n.y.Use", 11)]) == ["n.y.Doc.Root:10", "n.y.Node.Child:4", "n.y.Node.Size:6"]


def test_a_local_of_a_nested_block_holds_on_its_lines_only(tmp_path):
    """A local declared in a nested block is seen from its declaration to the block's end: a call of ``esc`` written
    above ``{ std::string esc = ...; }`` calls the function ``esc`` (it was read as the string's call), and after
    the block the outer ``o`` is an ``Out`` again; an inner local of unknown type stays unbound inside its block."""
    calls = _calls(tmp_path, {"a.h": """#include <string>
namespace j {
class Out { public: void put(); };
class Buf { public: void put(); };
std::string esc(char c);
class P { public: void parse(); int fail(const std::string& s); };
}
""", "a.cc": """#include "a.h"
namespace j {
void Out::put() {}
void Buf::put() {}
std::string esc(char c) { return std::string(1, c); }
void P::parse() {
  char ch = 'x';
  fail(esc(ch));
  if (ch == 'u') {
    std::string esc = "x";
  }
  Out o;
  {
    Buf o;
    o.put();
  }
  o.put();
  for (int i = 0; i < 2; i++) {
    auto o = external(i);
    o.put();
  }
}
}
"""})
    assert calls[("a.j.P.parse", 8)] == ["a.j.P.fail", "a.j.esc"]
    assert calls[("a.j.P.parse", 15)] == ["a.j.Buf.put"]
    assert calls[("a.j.P.parse", 17)] == ["a.j.Out.put"]
    assert calls.get(("a.j.P.parse", 20), []) == []


def test_overloads_by_value_category(tmp_path):
    """``Value(const T&)`` beside ``Value(T&&)``: ``std::move(v)`` and a cast are rvalues (the ``&&`` one), a variable
    or a member is an lvalue (the ``const&`` one); a call's result is not told apart (both stay), and a function
    template's forwarding reference is left alone."""
    calls = _calls(tmp_path, {"a.h": """#include <string>
#include <utility>
namespace j {
class Box {
 public:
  void put(const std::string& s);
  void put(std::string&& s);
  std::string name() const;
  void fill();
  template <class U> void take(U&& u);
  template <class U> void take(const U& u);
 private:
  std::string held_;
};
}
""", "a.cc": """#include "a.h"
namespace j {
void Box::put(const std::string& s) {}
void Box::put(std::string&& s) {}
void Box::fill() {
  std::string v = "x";
  put(std::move(v));
  put(v);
  put(this->held_);
  put(static_cast<std::string>(v));
  put(name());
  take(v);
}
}
"""}, lines=True)
    assert calls[("a.j.Box.fill", 7)] == ["a.j.Box.put:4"]
    assert calls[("a.j.Box.fill", 8)] == ["a.j.Box.put:3"]
    assert calls[("a.j.Box.fill", 9)] == ["a.j.Box.put:3"]
    assert calls[("a.j.Box.fill", 10)] == ["a.j.Box.put:4"]
    assert sorted(c for c in calls[("a.j.Box.fill", 11)] if "put" in c) == ["a.j.Box.put:3", "a.j.Box.put:4"]
    assert len(calls[("a.j.Box.fill", 12)]) == 2


def test_smart_pointer_get_trailing_return_types_and_parameters_of_a_held_lambda(tmp_path):
    """``shape_.get()->area()`` with ``std::unique_ptr<Shape> shape_`` declared in the header calls ``Shape::area``;
    ``auto center() const -> Point`` returns a ``Point``; the typed parameter of a lambda held in a variable types
    the calls in its body. A local of a plain class with its own ``get()`` goes through that ``get``'s return type,
    and ``get()`` of a name of unknown type stays unbound."""
    calls = _calls(tmp_path, {"a.h": """#include <memory>
namespace zx {
class Point { public: int x() const; };
class Other { public: int x() const; int area() const; Point center() const; };
class Shape {
 public:
  int area() const;
  auto center() const -> Point;
};
class Holder { public: Other* get(); };
class Reader {
 public:
  void run(int n);
 private:
  std::unique_ptr<Shape> shape_;
};
}
""", "a.cc": """#include "a.h"
namespace zx {
int Point::x() const { return 0; }
int Shape::area() const { return 1; }
void Reader::run(int n) {
  shape_.get()->area();
  Shape s;
  s.center().x();
  auto lam = [this](const Point& pp) { return pp.x(); };
  Holder h;
  h.get()->area();
  unknown().get()->area();
}
}
"""})
    assert calls[("a.zx.Reader.run", 6)] == ["a.zx.Shape.area"]
    assert sorted(calls[("a.zx.Reader.run", 8)]) == ["a.zx.Point.x", "a.zx.Shape.center"]
    assert calls[("a.zx.Reader.run.lam", 9)] == ["a.zx.Point.x"]
    assert sorted(calls[("a.zx.Reader.run", 11)]) == ["a.zx.Holder.get", "a.zx.Other.area"]
    assert calls.get(("a.zx.Reader.run", 12), []) == []


def test_the_elements_of_a_container_a_function_returns(tmp_path):
    """``for (const auto& p : points())`` with ``const std::vector<Point>& points() const`` declared in the header
    binds ``p`` to a ``Point``, also through a container alias of the header (``Points more() const``), a map's
    mapped value (``for (auto& [k, v] : named())``) and ``points().front()``; a function returning a plain class
    (``Other one() const``) gives no elements, and a loop over it stays unbound."""
    calls = _calls(tmp_path, {"a.h": """#include <map>
#include <string>
#include <vector>
namespace zx {
class Point { public: int x() const; };
class Other { public: int x() const; };
using Points = std::vector<Point>;
class Reader {
 public:
  const std::vector<Point>& points() const;
  Points more() const;
  std::map<std::string, Point> named() const;
  Other one() const;
  void run();
};
}
""", "a.cc": """#include "a.h"
namespace zx {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void Reader::run() {
  for (const auto& p : points()) p.x();
  for (auto& p : more()) p.x();
  for (auto& [k, v] : named()) v.x();
  points().front().x();
  for (auto& o : one()) o.x();
}
}
"""})
    for line in (6, 7, 8, 9):
        assert "a.zx.Point.x" in calls[("a.zx.Reader.run", line)], line
    assert "a.zx.Other.x" not in calls[("a.zx.Reader.run", 10)] and "a.zx.Point.x" not in calls[("a.zx.Reader.run", 10)]


def test_a_variable_declared_as_a_container_iterator(tmp_path):
    """``vector<Edge*>::iterator e`` is an iterator over ``Edge*``: ``(*e)->Ready()`` calls ``Edge::Ready``, and a map's
    ``map<string, Node*>::iterator i`` gives its mapped value through ``i->second``; an iterator of a class that is no
    container (``Registry::iterator r``) stays unbound."""
    calls = _calls(tmp_path, {"a.h": """#include <map>
#include <string>
#include <vector>
struct Node { void Dirty(); };
struct Other { void Dirty(); bool Ready() const; };
struct Edge { bool Ready() const; };
struct Registry { struct iterator { Other* operator->(); }; };
struct State {
  std::map<std::string, Node*> paths_;
  std::vector<Edge*> edges_;
  void Walk(Registry& reg);
};
""", "a.cc": """#include "a.h"
void Node::Dirty() {}
void Other::Dirty() {}
bool Edge::Ready() const { return true; }
void State::Walk(Registry& reg) {
  for (std::vector<Edge*>::iterator e = edges_.begin(); e != edges_.end(); ++e)
    (*e)->Ready();
  for (std::map<std::string, Node*>::const_iterator i = paths_.begin(); i != paths_.end(); ++i)
    i->second->Dirty();
  Registry::iterator r = reg.begin();
  r->Dirty();
}
"""})
    assert calls[("a.State.Walk", 7)] == ["a.Edge.Ready"]
    assert calls[("a.State.Walk", 9)] == ["a.Node.Dirty"]
    assert calls.get(("a.State.Walk", 11), []) == []


def test_pairs_and_structured_bindings(tmp_path):
    """``std::pair<Point, Other> pr``: ``pr.first`` is a ``Point``, ``pr.second`` an ``Other``; ``auto [a, b] = two()``
    with ``two()`` declared in the header to return such a pair binds ``a`` and ``b`` alike. The fields of a struct
    bound that way (``auto [c, d] = box()``) are not followed: the calls on them stay unbound."""
    calls = _calls(tmp_path, {"a.h": """#include <utility>
namespace zx {
class Point { public: int x() const; };
class Other { public: int x() const; };
struct Box { Point p; Other o; };
class Reader {
 public:
  std::pair<Point, Other> two() const;
  Box box() const;
  void run();
};
}
""", "a.cc": """#include "a.h"
namespace zx {
int Point::x() const { return 0; }
int Other::x() const { return 0; }
void Reader::run() {
  std::pair<Point, Other> pr;
  pr.first.x();
  pr.second.x();
  auto [a, b] = two();
  a.x();
  b.x();
  auto [c, d] = box();
  c.x();
  d.x();
}
}
"""})
    assert calls[("a.zx.Reader.run", 7)] == ["a.zx.Point.x"]
    assert calls[("a.zx.Reader.run", 8)] == ["a.zx.Other.x"]
    assert calls[("a.zx.Reader.run", 10)] == ["a.zx.Point.x"]
    assert calls[("a.zx.Reader.run", 11)] == ["a.zx.Other.x"]
    assert calls.get(("a.zx.Reader.run", 13), []) == [] and calls.get(("a.zx.Reader.run", 14), []) == []
