"""C++ calls that go outside the project (the C library, the standard library) are never bound to a project
symbol of the same name: a wrong edge is worse than a missing one."""

from __future__ import annotations

from .test_cpp import _calls


def test_a_global_scope_call_is_no_member_of_the_class_around_it(tmp_path):
    """``::close(fd_)`` inside a class with its own ``close()`` calls the global ``close`` (the C library's here):
    never the member; a plain ``close()`` there still is the member, and ``::helper()`` a project function."""
    calls = _calls(tmp_path, {"fd.h": """#include <unistd.h>
int helper();
class FileDescriptor {
 public:
  int close() { return unsafe_close(); }
  int again() { return close(); }
 private:
  int unsafe_close() { return ::close(fd_) + ::helper(); }
  int fd_;
};
""", "fd.cc": """#include "fd.h"
int helper() { return 0; }
"""})
    assert calls[("fd.FileDescriptor.unsafe_close", 8)] == ["fd.helper"]
    assert calls[("fd.FileDescriptor.again", 6)] == ["fd.FileDescriptor.close"]
    assert calls[("fd.FileDescriptor.close", 5)] == ["fd.FileDescriptor.unsafe_close"]


def test_a_variable_declared_with_an_alias_of_a_standard_template_is_the_librarys(tmp_path):
    """``Members out(3)`` with ``typedef std::vector<String> Members`` and ``Ptr r(raw)`` with
    ``using Ptr = std::unique_ptr<Reader>;`` are constructed by the library's constructors (clangd answers them),
    not by the alias; a temporary ``String("x")`` or ``Members(2)`` stays bound to the alias (clangd answers the
    alias there), and so does a variable of an alias of the project's own template (``view w("y")``)."""
    calls = _calls(tmp_path, {"v.h": """#include <memory>
#include <string>
#include <vector>
namespace js {
using String = std::basic_string<char, std::char_traits<char>>;
template <class C> class basic_view { public: basic_view(const C* p); };
using view = basic_view<char>;
class Reader { public: int read(); };
class Value {
 public:
  typedef std::vector<String> Members;
  Members names(Reader* raw) const;
};
}
""", "v.cc": """#include "v.h"
namespace js {
using Ptr = std::unique_ptr<Reader>;
Value::Members Value::names(Reader* raw) const {
  Members out(3);
  String s("x");
  Ptr r(raw);
  view w("y");
  String t = String("x");
  return Members(2);
}
}
"""})
    for line in (5, 6, 7):
        assert calls.get(("v.js.Value.names", line), []) == [], line
    assert calls[("v.js.Value.names", 8)] == ["v.js.view"]
    assert calls[("v.js.Value.names", 9)] == ["v.js.String"]
    assert calls[("v.js.Value.names", 10)] == ["v.js.Value.Members"]


def test_a_smart_pointers_own_members_are_not_the_held_types(tmp_path):
    """``owned_.reset()`` on a ``std::unique_ptr<Node>`` field declared in the header (``sp.reset()`` on a
    ``shared_ptr`` parameter, ``this->owned_.reset()``) calls the smart pointer's ``reset``, outside the project;
    ``owned_->reset()`` and ``owned_.get()->reset()`` still call ``Node::reset``, and ``n.reset()`` on a plain
    ``Node`` too."""
    calls = _calls(tmp_path, {"s.h": """#include <memory>
struct Node { void reset(); };
struct State {
  std::unique_ptr<Node> owned_;
  void Clear(std::shared_ptr<Node> sp, Node n);
};
""", "s.cc": """#include "s.h"
void Node::reset() {}
void State::Clear(std::shared_ptr<Node> sp, Node n) {
  owned_.reset();
  owned_->reset();
  this->owned_.reset();
  sp.reset();
  sp->reset();
  n.reset();
  owned_.get()->reset();
}
"""})
    for line in (4, 6, 7):
        assert calls.get(("s.State.Clear", line), []) == [], line
    for line in (5, 8, 9, 10):
        assert calls[("s.State.Clear", line)] == ["s.Node.reset"], line


def test_a_standard_function_name_the_file_sees_no_project_declaration_of_is_the_librarys(tmp_path):
    """``min(1, 2)``, ``sort(v.begin(), v.end())`` and ``swap(x, y)`` in a file that includes ``<algorithm>`` and
    declares no project ``min`` are the library's, not ``util.cc``'s (which only C's global linkage reached);
    ``helper(3)``, another name ``util.cc`` defines, stays bound, and so does ``min`` in a file that includes the
    project's header declaring it, or in a file that includes no C++ library header; ``max`` after
    ``using ns::max;`` is the project's ``ns::max``."""
    calls = _calls(tmp_path, {"util.h": "int min(int a, int b);\n", "util.cc": """int min(int a, int b) { return a; }
void sort(int* a, int n) {}
void swap(int& a, int& b) {}
int helper(int x) { return x; }
""", "use.cc": """#include <algorithm>
#include <vector>
using namespace std;
int run(vector<int>& v) {
  int a = min(1, 2);
  sort(v.begin(), v.end());
  int x = 1, y = 2;
  swap(x, y);
  return a + helper(3);
}
""", "mine.cc": """#include <algorithm>
#include "util.h"
int mine() { return min(1, 2); }
""", "plain.cc": """int plain() { return min(1, 2); }
""", "ns.h": """namespace ns { template <class T> T max(T a, T b) { return a; } }
""", "named.cc": """#include <algorithm>
#include "ns.h"
using ns::max;
int named() { return max(1, 2); }
"""})
    for line in (5, 6, 8):
        assert calls.get(("use.run", line), []) == [], line
    assert calls[("use.run", 9)] == ["util.helper"]
    assert calls[("mine.mine", 3)] == ["util.min"]
    assert calls[("plain.plain", 1)] == ["util.min"]
    assert calls[("named.named", 4)] == ["ns.ns.max"]  # a using-declaration names the project's


def test_a_standard_type_named_after_using_namespace_std_is_the_librarys(tmp_path):
    """After ``using namespace std;``, ``string p; p.replace(...)`` and ``set<Edge*> s; s.count(e)`` are the
    library's members, not a guess at the project's one ``replace`` / ``count``; ``d.front()->replace(1)`` on a
    ``deque<Node*>`` still is ``Node::replace``, and a file declaring its own ``string`` class keeps it."""
    calls = _calls(tmp_path / "g", {"g.h": """#include <string>
struct Node { void replace(int a); int count() const; };
""", "g.cc": """#include "g.h"
#include <deque>
#include <set>
using namespace std;
void run(Node* n) {
  string p;
  p.replace(0, 1, "x");
  set<Node*> s;
  s.count(n);
  deque<Node*> d;
  d.front()->replace(1);
}
"""})
    assert calls.get(("g.run", 7), []) == []
    assert calls.get(("g.run", 9), []) == []
    assert calls[("g.run", 11)] == ["g.Node.replace"]
    own = _calls(tmp_path / "own", {"own.cc": """using namespace std;
class string { public: void replace(int a) {} };
void own() {
  string p;
  p.replace(1);
}
"""})
    assert own[("own.own", 5)] == ["own.string.replace"]


def test_a_std_call_bound_only_to_the_projects_std_overload_of_a_skipped_branch_is_the_librarys(tmp_path):
    """``std::begin(text)`` with the project's ``namespace std { begin(const Icu&) }`` under ``#ifdef USE_ICU``
    (a flag no file defines) is the library's ``std::begin``; ``std::size(u)`` bound to the project's
    ``namespace std { size(const Icu&) }`` outside any branch stays bound."""
    calls = _calls(tmp_path, {"opts.hpp": """#include <iterator>
#include <string>
struct Icu { int n; };
#ifdef USE_ICU
namespace std {
inline int begin(const Icu& s) { return 0; }
}
#endif
namespace std {
inline int size(const Icu& s) { return s.n; }
}
inline int first(const std::string& text, const Icu& u) {
  auto b = std::begin(text);
  return std::size(u);
}
"""})
    assert calls.get(("opts.first", 13), []) == []
    assert calls[("opts.first", 14)] == ["opts.std.size"]
