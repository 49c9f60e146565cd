"""Lua: tables as modules and classes, ``require`` bound to what a file returns, ``self`` typed by its table,
``setmetatable`` constructors and inheritance, and name guesses that stay inside the files a caller requires."""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.index.walk import is_test_path
from lore.languages import basic, language_for
from lore.languages.lua import _parser as lua

SRC = b"""-- Points in the plane.
local util = require("geo.util")
local sqrt = require("geo.math").sqrt

local Point = {}
Point.__index = Point

--- Makes a point.
function Point.new(x, y)
  local self = setmetatable({}, Point)
  self.x = util.clamp(x)
  return self
end

function Point:len()
  return sqrt(self:dot(self))
end

function Point:area() return 0 end

Point.dot = function(self, other)
  return self.x * other.x
end

local Point3 = setmetatable({}, {__index = Point})
local Point4 = {}
setmetatable(Point4, {__index = Point3})

local function helper(p)
  return p:len()
end

return Point
"""


def test_tables_are_classes_and_their_functions_methods():
    pf = lua.parse("geo/point.lua", SRC, "geo.point")
    syms = {s.qualified_name: s for s in pf.symbols}
    assert syms["geo.point.Point"].kind == "class"
    assert {q: syms[q].kind for q in ("geo.point.Point.new", "geo.point.Point.len", "geo.point.Point.dot")} == {
        "geo.point.Point.new": "method", "geo.point.Point.len": "method", "geo.point.Point.dot": "method"}
    assert syms["geo.point.helper"].kind == "function" and not syms["geo.point.helper"].exported
    assert syms["geo.point.Point.new"].docstring == "Makes a point."
    assert syms["geo.point.Point.new"].return_type == "Point"  # setmetatable(o, Point) in a method of Point
    assert pf.symbols[0].docstring == "Points in the plane."
    assert [(pf.symbols[r.source].name, r.target, r.kind) for r in pf.relations] == [
        ("Point3", "Point", "extends"), ("Point4", "Point3", "extends")]
    assert [(i.module, i.name, i.alias) for i in pf.imports] == [
        ("geo.util", "module.exports", "util"), ("geo.math", "sqrt", "sqrt")]
    calls = {(pf.symbols[c.caller].name, c.callee) for c in pf.calls}
    assert {("len", "self.dot"), ("new", "util.clamp"), ("helper", "p.len"), ("len", "sqrt")} <= calls
    exports = [(b.name, b.alias_of) for b in pf.bindings if b.name == "module.exports"]
    assert exports == [("module.exports", "Point")]


def test_bad_input_never_raises():
    pf = lua.parse("x.lua", b"function (( end end local = {", "x")
    assert pf.symbols[0].kind == "module" and pf.syntax_errors > 0


def test_lua_is_a_full_language_and_busted_specs_are_tests():
    assert language_for("src/a.lua").name == "lua"
    assert "lua" not in {lang.name for lang in basic.languages()}
    assert is_test_path("spec/point_spec.lua") and is_test_path("test/point.lua")
    assert not is_test_path("src/geo/point.lua")


def _edges(root) -> set[tuple[str, str, str]]:
    conn = sqlite3.connect(root / ".lore" / "index.db")
    try:
        rows = conn.execute("SELECT a.qualified_name, r.callee_name, b.qualified_name, r.resolution FROM symbol_refs r "
                            "JOIN symbols a ON a.id = r.caller_id LEFT JOIN symbols b ON b.id = r.callee_id").fetchall()
    finally:
        conn.close()
    return {(a, callee, f"{b}|{res}") for a, callee, b, res in rows}


def test_require_binds_what_the_file_returns(tmp_path):
    (tmp_path / "src" / "geo").mkdir(parents=True)
    (tmp_path / "src" / "geo" / "point.lua").write_bytes(SRC)
    (tmp_path / "src" / "geo" / "util.lua").write_text(
        "local M = {}\nfunction M.clamp(x)\n  return string.format('%d', x)\nend\nreturn M\n")
    (tmp_path / "src" / "geo" / "math" ).mkdir()
    (tmp_path / "src" / "geo" / "math" / "init.lua").write_text(
        "local function sqrt(x) return x end\nreturn { sqrt = sqrt }\n")
    (tmp_path / "src" / "geo" / "alias.lua").write_text(
        "local util = require('geo.util')\nlocal A = {}\nA.clamp = util.clamp\nreturn A\n")
    (tmp_path / "src" / "other.lua").write_text("local O = {}\nfunction O:area() return 0 end\nreturn O\n")
    (tmp_path / "main.lua").write_text(
        "local Point = require 'geo.point'\nlocal alias = require 'geo.alias'\n"
        "local p = Point.new(1, 2)\np:len()\nalias.clamp(3)\nlocal q = unknown()\nq:area()\nq:len()\n")
    index_repo(tmp_path, workers=1)
    edges = _edges(tmp_path)
    assert ("main", "Point.new", "src.geo.point.Point.new|import") in edges
    assert ("main", "p.len", "src.geo.point.Point.len|annotated_type") in edges  # p = Point.new(..): a Point
    assert ("main", "alias.clamp", "src.geo.util.M.clamp|import") in edges  # A.clamp = util.clamp
    assert ("src.geo.point.Point.len", "self.dot", "src.geo.point.Point.dot|self_method") in edges
    assert ("src.geo.point.Point.len", "sqrt", "src.geo.math.init.sqrt|import") in edges  # a/init.lua, return {..}
    assert ("src.geo.point.Point.new", "util.clamp", "src.geo.util.M.clamp|import") in edges
    assert ("src.geo.point.Point.len", "sqrt", "src.geo.math.init.sqrt|import") in edges
    assert ("src.geo.util.M.clamp", "string.format", "string.format|external") in edges
    # q is untyped: its ``area`` is guessed among the files main requires, never other.lua's O:area
    assert {e for e in edges if e[0] == "main" and e[1] == "q.area"} == {
        ("main", "q.area", "src.geo.point.Point.area|unique_name")}
    assert ("main", "q.len", "None|unresolved") in edges  # a string's len too: never guessed by the name
