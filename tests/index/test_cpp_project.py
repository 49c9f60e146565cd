"""C++ as its compiler sees a project: a ``.h`` header of a C++ project is C++ (recorded ``cpp``, read with the C++
grammar even when nothing in it looks like C++ by itself), a function returning a reference defined out of line
(``Value& Reader::current()``) is a definition, and every overload a class declares stays a symbol when one of them is
defined in the class body."""

from __future__ import annotations

from pathlib import Path

from lore.index import index_repo
from lore.index.walk import walk


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def _index(root: Path, files: dict[str, str]):
    """(symbols: (qualified name, start line, is declaration) set, calls: (caller, line) -> [(path, line)], languages)."""
    from lore.api import open_index
    from lore.bench._data import symbol_table

    _write(root, files)
    index_repo(root, workers=1)
    with open_index(root / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        refs = idx.edges("symbol_refs")
        langs = dict(idx.conn.execute("SELECT path, language FROM files").fetchall())
    calls: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for e in refs:
        if e["callee_id"] is not None:
            row = table[e["callee_id"]]
            calls.setdefault((table[e["caller_id"]][2], e["line"]), []).append((row[4], row[5]))
    return {(row[2], row[5]) for row in table.values()}, calls, langs


def test_headers_take_their_projects_language(tmp_path):
    _write(tmp_path, {
        "include/kv/db.h": "int Open(const char* name);\n",  # nothing C++ in it: the project decides
        "db/db.cc": '#include "kv/db.h"\nint Open(const char* name) { return 0; }\n',
        **{f"db/{n}.cc": f"int {n}_x;\n" for n in ("log", "table", "c", "cache", "env", "arena", "hash")},
        "db/c_test.c": "int main(void) { return 0; }\n",  # one C test among C++ sources
        "lib/cjson.h": "int parse(const char* s);\n", "lib/cjson.c": '#include "cjson.h"\n',  # a C twin: C
        "db/iter.inl": "inline int Next() { return 1; }\n",  # included inline definitions
    })
    langs = {f.path: f.language for f in walk(tmp_path).files}
    assert langs["include/kv/db.h"] == "cpp"
    assert langs["lib/cjson.h"] == "c"
    assert langs["db/c_test.c"] == "c"
    assert langs["db/iter.inl"] == "cpp"


def test_reference_returning_definitions_and_declared_overloads(tmp_path):
    symbols, calls, langs = _index(tmp_path, {
        "json/value.h": "namespace Json {\nclass Value {\npublic:\n"
                        "  Value(int v);\n"                      # 4
                        "  Value(const char* s);\n"              # 5
                        "  Value(const Value& other) { }\n"      # 6: defined here, the others declared
                        "  int size() const;\n"                  # 7
                        "};\n"
                        "class Reader {\npublic:\n  Value& current();\n  int read();\n};\n}\n",
        "json/reader.cc": '#include "value.h"\n'
                          "namespace Json {\n"
                          "Value& Reader::current() { static Value v(1); return v; }\n"  # 3
                          "int Reader::read() { return current().size(); }\n"           # 4
                          "}\n",
        "json/value.cc": '#include "value.h"\nnamespace Json {\nint Value::size() const { return 0; }\n}\n',
    })
    assert langs["json/value.h"] == "cpp"
    assert ("json.value.Json.Value.<init>", 4) in symbols and ("json.value.Json.Value.<init>", 5) in symbols
    assert ("json.reader.Json.Reader.current", 3) in symbols
    assert sorted(calls[("json.reader.Json.Reader.read", 4)]) == [("json/reader.cc", 3), ("json/value.cc", 3)]


def test_members_through_smart_pointers_aliases_and_nested_out_of_line_classes(tmp_path):
    _symbols, calls, _langs = _index(tmp_path, {
        "kv/reader.h": "#include <memory>\nnamespace kv {\n"
                       "class Impl;\nusing ImplPtr = std::unique_ptr<Impl>;\n"
                       "class Impl { public: Impl(ImplPtr p); int parse(); void step(); };\n"
                       "class Other { public: int parse(); int open(); };\n"
                       "typedef Impl Engine;\n"
                       "template <class T> class Box { public: int open(); };\nusing IntBox = Box<int>;\n"
                       "class Reader {\npublic:\n  int read();\n  int size();\n  void step();\n"
                       "  class Cursor { public: Cursor(int n); };\n"
                       "private:\n  std::unique_ptr<Impl> impl_;\n  Engine engine_;\n  ImplPtr other_;\n};\n}\n",
        "kv/reader.cc": '#include "reader.h"\nnamespace kv {\n'
                        "Reader::Cursor::Cursor(int n) { }\n"                               # 3
                        "int Reader::read() { engine_.step(); IntBox b; b.open(); ImplPtr p(other_); return impl_->parse(); }\n"  # 4
                        "int Reader::size() { step(); return 0; }\n"                        # 5
                        "void Reader::step() { }\n"                                         # 6
                        "int Impl::parse() { return 1; }\n"                                 # 7
                        "int Other::parse() { return 2; }\n"                                # 8
                        "void Impl::step() { }\n"                                           # 9
                        "Impl::Impl(ImplPtr p) { }\n"                                        # 10
                        "}\n",
    })
    # impl_ is a std::unique_ptr<Impl>: -> calls Impl::parse; engine_ is an Engine, a typedef of Impl; b an IntBox,
    # an alias of Box<int> (open is declared on line 8); the variable ImplPtr p(...) is built by the library's
    # std::unique_ptr constructor (an external symbol, no path: lore.languages.cpp._outside.std_alias; a temporary
    # ImplPtr(...) would stay the alias), never an Impl (whose constructor is line 10)
    assert sorted(calls[("kv.reader.kv.Reader.read", 4)]) == [
        ("", 0), ("kv/reader.cc", 7), ("kv/reader.cc", 9), ("kv/reader.h", 8)]
    from lore.api import open_index

    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        built = idx.conn.execute("SELECT s.qualified_name FROM symbol_refs r JOIN symbols s ON s.id = r.callee_id "
                                 "WHERE r.callee_name = 'ImplPtr' AND r.line = 4").fetchall()
    assert built == [("std.unique_ptr",)]
    # Reader::Cursor::Cursor defined before: Reader is the class (not a namespace), so step() is its member
    assert calls[("kv.reader.kv.Reader.size", 5)] == [("kv/reader.cc", 6)]


def test_constructors_are_not_inherited(tmp_path):
    _symbols, calls, _langs = _index(tmp_path, {
        "shape.h": "class Base {\npublic:\n  Base(int n);\n};\n"
                   "class Derived : public Base {\npublic:\n  using Base::Base;\n};\n"
                   "class Plain : public Base {\n};\n"
                   "typedef Base Alias;\n",
        "shape.cc": '#include "shape.h"\nBase::Base(int n) { }\n'
                    "int use() {\n"
                    "  Base a(1);\n"       # 4: its own constructor
                    "  Plain b(2);\n"      # 5: Plain declares none: the class
                    "  Alias c(3);\n"      # 6: through a typedef: Base's, as clangd answers at its parenthesis
                    "  return 0;\n}\n",
    })
    assert calls[("shape.use", 4)] == [("shape.cc", 2)]
    assert calls[("shape.use", 5)] == [("shape.h", 9)]
    assert calls[("shape.use", 6)] == [("shape.cc", 2)]


def test_a_refresh_reparses_a_header_whose_project_became_cpp(tmp_path):
    _write(tmp_path, {"lib/api.h": "int open_db(const char* name);\n", "lib/api.c": "int open_db(const char* n) { return 0; }\n"})
    index_repo(tmp_path, workers=1)
    (tmp_path / "lib" / "api.c").unlink()  # the project moves to C++: its sources are .cc now
    _write(tmp_path, {f"lib/{n}.cc": f"int {n}_x;\n" for n in ("api", "db", "log", "table")})
    index_repo(tmp_path, workers=1)
    from lore.api import open_index

    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        langs = dict(idx.conn.execute("SELECT path, language FROM files").fetchall())
    assert langs["lib/api.h"] == "cpp"
