"""C++ definitions a macro hides from the grammar are recovered; a macro call is never read as a definition."""

from __future__ import annotations

from .test_cpp import _calls


def _symbols(root) -> set[tuple[str, str]]:
    from lore.api import open_index

    with open_index(root / ".lore" / "index.db", readonly=True) as idx:
        return {(r["qualified_name"], r["kind"]) for r in idx.symbols()}


VALUE_H = """#define LIB_DISABLEIF_RETURN(cond, returntype) typename DisableIf<cond, returntype>::Type
namespace internal {
template <bool C, typename T> struct DisableIf { typedef T Type; };
template <typename T> struct IsPointer { static const bool Value = false; };
}
class Value {
 public:
  template <typename T>
  LIB_DISABLEIF_RETURN((internal::NotExpr<internal::IsSame<typename internal::RemoveConst<T>::Type, char> >),(Value&)) operator[](T* name) {
    Value n(name);
    return (*this)[n];
  }
  template <typename T> LIB_DISABLEIF_RETURN((internal::OrExpr<internal::IsPointer<T>, internal::IsGenericValue<T> >), (bool))
  operator==(const T& x) const { return Same(); }
  template <typename T>
  LIB_DISABLEIF_RETURN((internal::OrExpr<internal::IsPointer<T>, internal::IsGenericValue<T> >), (Value&))
  Push(T x) { return Store(); }
  Value& Store() { return *this; }
  bool Same() const { return true; }
  int Size() const { return 0; }
};
"""


def test_a_return_type_macro_with_a_parenthesized_type_keeps_the_class_and_its_methods(tmp_path):
    """``MACRO((cond), (Value&)) operator[](T* name) {``, the macro's last argument the return type: the method is a
    definition of the class, and every member after it stays in the class (on the old code the class ended
    at the macro and ``Size`` was a free function)."""
    calls = _calls(tmp_path, {"value.h": VALUE_H, "use.cc": """#include "value.h"
int use(Value& v) {
  v.Push(2).Store();
  v.Same();
  return v.Size();
}
"""})
    syms = _symbols(tmp_path)
    assert ("value.Value.operator[]", "method") in syms
    assert ("value.Value.operator==", "method") in syms
    assert ("value.Value.Push", "method") in syms
    assert ("value.Value.Size", "method") in syms
    assert ("value.Size", "function") not in syms
    assert sorted(calls[("use.use", 3)]) == ["value.Value.Push", "value.Value.Store"]
    assert calls[("use.use", 4)] == ["value.Value.Same"]
    assert calls[("use.use", 5)] == ["value.Value.Size"]
    assert calls[("value.Value.operator==", 14)] == ["value.Value.Same"]


def test_a_macro_call_statement_in_a_body_is_no_definition(tmp_path):
    """Must stay: ``CHECK((a), (b));`` and ``LOG_IF((a), (b)) << f(x);`` inside a function are calls, never a
    definition of ``f`` or of the macro; ``f`` stays the project's one function. A macro among the specifiers
    of a function pointer (``extern LIB_DECL void (*exitfunc)(int);``) is left: the pointer is no function."""
    calls = _calls(tmp_path, {"m.cc": """extern LIB_DECL void (*exitfunc)(int);
int f(int x) { return x; }
int g(int a, int b) {
  CHECK((a), (b));
  LOG_IF((a), (b)) << f(a);
  exitfunc(1);
  return f(b);
}
"""})
    syms = _symbols(tmp_path)
    assert {q for q, k in syms if k in ("function", "method")} == {"m.f", "m.g"}
    assert calls[("m.g", 6)] == []  # a call through a function pointer, never bound to its declaration


def test_a_macro_between_the_type_and_the_name_or_for_if_constexpr_keeps_the_definitions(tmp_path):
    """``bool LIB_FUNCTION operator&&(...)`` and ``std::string LIB_CALL as_utf8(...)`` (an attribute macro another
    header defines), ``LIB_IF_CONSTEXPR (c) {`` (``if constexpr`` behind a macro) and ``operator=(X&&)
    LIB_NOEXCEPT_IF`` at the end of the line: each lost its function, and the class member after it, on the old
    code. Must stay: ``return LIB_VALUE f(x)``-like statements and a plain call are no definitions."""
    calls = _calls(tmp_path, {"lib.h": """#include "conf.h"
class Doc {
 public:
  Doc& operator=(Doc&& rhs) LIB_NOEXCEPT_IF_SMALL
  {
    return Reset();
  }
  int Size(int n) const {
    LIB_IF_CONSTEXPR (sizeof(int) == 4) {
      return Count(n);
    }
    else {
      char name[21];
      return Count(name[0]);
    }
  }
  Doc& Reset() { return *this; }
  int Count(int n) const { return n; }
};
""", "conf.h": "#define LIB_FUNCTION\n#define LIB_CALL\n#define LIB_IF_CONSTEXPR if\n#define LIB_NOEXCEPT_IF_SMALL\n",
        "lib.cc": """#include "lib.h"
#include <string>
bool LIB_FUNCTION operator&&(const Doc& lhs, bool rhs) { return lhs.Size(1) && rhs; }
std::string LIB_CALL as_utf8(const Doc& d) { return std::string(d.Size(2), 'x'); }
int use(Doc& d) {
  d.Reset();
  return d.Size(3) + (as_utf8(d).size() ? 1 : 0);
}
"""})
    syms = _symbols(tmp_path)
    assert {("lib.Doc.operator=", "method"), ("lib.Doc.Size", "method"), ("lib.Doc.Reset", "method"),
            ("lib.Doc.Count", "method"), ("lib.operator&&", "function"), ("lib.as_utf8", "function")} <= syms
    assert {q for q, k in syms if k in ("function", "method") and q.count(".") == 1} == {
        "lib.operator&&", "lib.as_utf8", "lib.use"}
    assert calls[("lib.Doc.operator=", 6)] == ["lib.Doc.Reset"]
    assert calls[("lib.Doc.Size", 10)] == ["lib.Doc.Count"]
    assert calls[("lib.Doc.Size", 14)] == ["lib.Doc.Count"]
    assert calls[("lib.use", 6)] == ["lib.Doc.Reset"]
    assert sorted(calls[("lib.use", 7)]) == ["lib.Doc.Size", "lib.as_utf8"]
    assert calls[("lib.as_utf8", 4)] == ["lib.Doc.Size"]


def test_a_function_a_macro_defines_under_a_pasted_name_is_a_definition_at_each_use(tmp_path):
    """``#define STRING_(name, ...) static const Value& Get##name##String() {...}`` used in a class as
    ``STRING_(Null, 'n', 'u', 'l', 'l')``: ``GetNullString`` is a method of the class at that line and its calls
    bind (unbound on the old code). Must stay: a pasting macro that is an expression (``PRINT_(a);`` in a body)
    defines nothing, and a use after the macro is redefined as an expression is no definition."""
    calls = _calls(tmp_path, {"schema.hpp": """struct Value { int Size() const { return 0; } };
class Schema {
 public:
#define STRING_(name, ...) \\
    static const Value& Get##name##String() {\\
        static const char s[] = { __VA_ARGS__, '\\0' };\\
        static const Value v;\\
        return v;\\
    }
    STRING_(Null, 'n', 'u', 'l', 'l')
    STRING_(Type, 't', 'y', 'p', 'e')
#undef STRING_
  int Check() const { return GetNullString().Size() + GetTypeString().Size(); }
};
#define PRINT_(name) print_##name(0)
void print_a(int x);
void run() {
  PRINT_(a);
}
"""})
    syms = _symbols(tmp_path)
    assert ("schema.Schema.GetNullString", "method") in syms
    assert ("schema.Schema.GetTypeString", "method") in syms
    assert ("schema.Schema.Check", "method") in syms
    assert not any(q.endswith("print_a") and k == "method" for q, k in syms)
    assert {q for q, k in syms if k in ("function", "method")} - {"schema.STRING_", "schema.PRINT_"} == {
        "schema.Value.Size", "schema.Schema.GetNullString", "schema.Schema.GetTypeString", "schema.Schema.Check",
        "schema.print_a", "schema.run"}
    assert sorted(calls[("schema.Schema.Check", 13)]) == [
        "schema.Schema.GetNullString", "schema.Schema.GetTypeString", "schema.Value.Size", "schema.Value.Size"]


def test_a_macro_that_writes_a_condition_keeps_the_function_around_it(tmp_path):
    """``if LIB_UNLIKELY(c < 0x20)`` (``#define LIB_UNLIKELY(...) (__VA_ARGS__) [[unlikely]]``, another header's: toml++
    writes 57), ``} else if LIB_LIKELY(n)`` and ``while LIB_LIKELY(x)``: the grammar read an ``if`` without its
    ``(`` and lost the rest of the method (its calls, and the methods after it) on the old code, here also after a raw
    string whose quote C's macro blanks miscount. Must stay: ``if (LIB_LIKELY(x))`` calls the macro, a directive's
    ``#if LIB_AT_LEAST(3)`` is left alone."""
    calls = _calls(tmp_path, {"conf.h": """#define LIB_UNLIKELY(...) (__VA_ARGS__) [[unlikely]]
#define LIB_LIKELY(...) (__VA_ARGS__) [[likely]]
#define LIB_AT_LEAST(n) (n > 2)
""", "fmt.h": """#include "conf.h"
class Printer {
 public:
  void print(char c) {
    switch (c) {
      case '"': put(R"(\\")"); break;
      default:
        if LIB_UNLIKELY(c >= '\\x00' && c <= '\\x1F')
          escape(c);
        else if LIB_LIKELY(c > 'a') {
          put("x");
        }
    }
    while LIB_LIKELY(more())
      flush();
    if (LIB_LIKELY(more())) flush();
  }
  bool more() { return false; }
  void flush() { put("f"); }
  void put(const char* s) {}
  void escape(char c) { put("e"); }
};
#if LIB_AT_LEAST(3)
int extra(int x) { return x; }
#endif
int run(Printer& p, int x) {
  if (extra(x)) p.flush();
  p.print('q');
  return 0;
}
"""})
    assert calls[("fmt.Printer.print", 6)] == ["fmt.Printer.put"]
    assert calls[("fmt.Printer.print", 9)] == ["fmt.Printer.escape"]
    assert calls[("fmt.Printer.print", 11)] == ["fmt.Printer.put"]
    assert calls[("fmt.Printer.print", 14)] == ["fmt.Printer.more"]
    assert calls[("fmt.Printer.print", 15)] == ["fmt.Printer.flush"]
    assert sorted(calls[("fmt.Printer.print", 16)]) == ["conf.LIB_LIKELY", "fmt.Printer.flush", "fmt.Printer.more"]
    assert calls[("fmt.Printer.escape", 21)] == ["fmt.Printer.put"]
    assert calls[("fmt", 23)] == ["conf.LIB_AT_LEAST"]
    assert calls[("fmt.run", 28)] == ["fmt.Printer.print"]
