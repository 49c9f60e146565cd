"""C++ overloads as the compiler picks them, within what the syntax shows: by the number of arguments (defaults
and ``...`` counted, the declaration lending its defaults to the out-of-line definition), by the kinds of literal
arguments, and ``f()`` before ``f() const`` unless ``this`` is const; an export macro between ``class`` and the
name (``class LIB_API Node``) no longer hides the class, CRLF line ends included."""

from __future__ import annotations

from pathlib import Path

from lore.index import index_repo

FILES = {
    "node.h": "#define LIB_API\r\nnamespace lib {\r\nclass LIB_API Node\r\n{\r\npublic:\r\n"
              "    int Query(const char* name) const;\r\n"
              "    int Query(const char* name, int fallback, bool strict = false) const;\r\n"
              "    void Set(const char* v);\r\n    void Set(bool v);\r\n    void Set(double v);\r\n"
              "    Node* First();\r\n    const Node* First() const;\r\n"
              "    int Count() const;\r\n};\r\n}\r\n",
    "node.cpp": '#include "node.h"\n'
                "namespace lib {\n"
                "int Node::Query(const char* name) const { return 0; }\n"
                "int Node::Query(const char* name, int fallback, bool strict) const { return fallback; }\n"
                "void Node::Set(const char* v) { }\n"
                "void Node::Set(bool v) { }\n"
                "void Node::Set(double v) { }\n"
                "Node* Node::First() { return this; }\n"
                "const Node* Node::First() const { return this; }\n"
                "int Node::Count() const { return First() ? 1 : 0; }\n"
                "}\n",
    "main.cpp": '#include "node.h"\n'
                "int run(lib::Node& n) {\n"
                '    n.Set("x");\n'
                "    n.Set(true);\n"
                "    n.Set(2.5);\n"
                '    int a = n.Query("k");\n'
                '    int b = n.Query("k", 3);\n'
                "    n.First();\n"
                "    return a + b;\n"
                "}\n",
}


def _calls(tmp_path: Path) -> tuple[dict[tuple[str, int], list[tuple[str, int]]], set[tuple[str, int]]]:
    """(caller, line) -> (path, start line) of the callees bound there; and every (qualified name, start line)."""
    from lore.api import open_index
    from lore.bench._data import symbol_table

    for rel, text in FILES.items():
        (tmp_path / rel).write_bytes(text.encode())
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        refs = idx.edges("symbol_refs")
    out: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for e in refs:
        if e["callee_id"] is not None:
            row = table[e["callee_id"]]
            out.setdefault((table[e["caller_id"]][2], e["line"]), []).append((row[4], row[5]))
    return out, {(row[2], row[5]) for row in table.values()}


def test_overloads_by_arguments_and_constness(tmp_path):
    calls, symbols = _calls(tmp_path)

    def one(caller: str, line: int) -> int:
        got = calls[(caller, line)]
        assert len(got) == 1 and got[0][0] == "node.cpp", got
        return got[0][1]

    # definitions in node.cpp: Set(const char*) line 5, Set(bool) 6, Set(double) 7; Query(1) 3, Query(2..3) 4;
    # First() 8, First() const 9
    assert one("main.run", 3) == 5
    assert one("main.run", 4) == 6
    assert one("main.run", 5) == 7
    assert one("main.run", 6) == 3
    assert one("main.run", 7) == 4  # two arguments: the three-parameter overload with a default
    assert one("main.run", 8) == 8  # a receiver of unknown constness: the plain overload
    assert one("node.lib.Node.Count", 10) == 9  # this in a const method: the const overload
    assert ("node.lib.Node", 3) in symbols  # class LIB_API Node: the class, not the macro


TYPED = {
    "conv.h": "#include <string>\ntypedef int Int;\nenum Kind { A, B };\nnamespace lib {\nclass Value {\npublic:\n"
              "    Value(Int v);\n    Value(const char* s);\n    Value(const std::string& s);\n    Value(Kind k);\n"
              "    const Value* Next() const;\n    Value* Next();\n};\n"
              "bool Check(const char* what, bool a, bool b);\n"
              "bool Check(const char* what, Kind a, Kind b);\n"
              "template <class T> bool Check(const char* what, T a, T b) { return a == b; }\n"  # 16
              "}\n",
    "conv.cpp": '#include "conv.h"\nnamespace lib {\n'
                "Value::Value(Int v) { }\n"                           # 3
                "Value::Value(const char* s) { }\n"                   # 4
                "Value::Value(const std::string& s) { }\n"            # 5
                "Value::Value(Kind k) { }\n"                          # 6
                "const Value* Value::Next() const { return this; }\n"  # 7
                "Value* Value::Next() { return this; }\n"             # 8
                "bool Check(const char* what, bool a, bool b) { return a; }\n"  # 9
                "bool Check(const char* what, Kind a, Kind b) { return a; }\n"  # 10
                "}\n",
    "use.cpp": '#include "conv.h"\n'
               "int use(const lib::Value* cv, lib::Value* v, std::string name, Kind k) {\n"
               "    lib::Value a(3);\n"           # 3: Int is an int
               "    lib::Value b(name);\n"        # 4: a std::string, not a const char*
               "    lib::Value c(k);\n"           # 5: the enum
               "    cv->Next();\n"                # 6: a const receiver: the const overload
               "    v->Next();\n"                 # 7
               '    lib::Check("x", true, false);\n'  # 8: as good a match: the non-template
               '    lib::Check("x", 1.5, 2.5);\n'     # 9: only the template takes doubles exactly
               '    lib::Check("x", k, k);\n'         # 10
               "    return 0;\n}\n",
}


def test_overloads_by_declared_types_typedefs_enums_templates_and_const_receivers(tmp_path):
    for rel, text in TYPED.items():
        (tmp_path / rel).write_text(text)
    from lore.api import open_index
    from lore.bench._data import symbol_table

    index_repo(tmp_path, workers=1)
    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        refs = idx.edges("symbol_refs")
    got: dict[int, list[tuple[str, int]]] = {}
    for e in refs:
        if e["callee_id"] is not None and table[e["caller_id"]][2] == "use.use":
            got.setdefault(e["line"], []).append((table[e["callee_id"]][4], table[e["callee_id"]][5]))
    assert got[3] == [("conv.cpp", 3)]
    assert got[4] == [("conv.cpp", 5)]
    assert got[5] == [("conv.cpp", 6)]
    assert got[6] == [("conv.cpp", 7)]
    assert got[7] == [("conv.cpp", 8)]
    assert got[8] == [("conv.cpp", 9)]
    assert got[9] == [("conv.h", 16)]
    assert got[10] == [("conv.cpp", 10)]
