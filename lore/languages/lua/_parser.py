"""The Lua extractor: functions, tables as modules and classes, ``require`` and ``return M``.

Lua has no class or module syntax; its users write them with tables, and lore reads the common forms:

* a table made at a file's top level (``local M = {}``, ``M = setmetatable({}, ...)``, middleclass's
  ``class("Name", Base)``, ``Base:extend()``) is a ``class`` symbol; ``function M.f()``, ``function M:m()``,
  ``M.f = function() end`` and the functions of its constructor's fields are its methods;
* ``setmetatable(o, C)`` in a method of ``C`` makes that method return a ``C``; ``local o = setmetatable({}, C)``
  and ``local o = C:new(...)`` / ``C.new(...)`` (``C`` capitalized) type ``o``; ``{__index = Base}`` as a
  metatable, ``Base:extend()``, ``class("C", Base)`` and PiL's ``C = Base:new()`` are inheritance;
* ``local x = require("a.b")`` imports what ``a/b.lua`` returns (``return M`` binds ``module.exports`` as
  CommonJS does); ``return {f = f}`` at the top level names the module's own functions.

Calls are spelled as written, ``:`` read as ``.`` (``self:m()`` -> ``self.m``).
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile

__all__ = ["LuaExtractor", "parse"]

_CLASS_MAKERS = frozenset({"class"})  # middleclass / 30log style: class("Name", Base)
_SUBCLASS_METHODS = frozenset({"extend", "subclass", "derive"})  # Base:extend() (classic, rxi), Base:subclass()


class LuaExtractor(Extractor):
    language = "lua"
    grammar = "tree_sitter_lua:language"
    query_files = (Path(__file__).with_name("lua.scm"),)
    primitive_types = frozenset({"string", "comment", "number"})

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self.tables: dict[str, int] = {}  # dotted name of a top-level table -> its class symbol
        self.literal_owner: dict[tuple[int, int], int] = {}  # table constructor (span) -> symbol its functions join

    # -- helpers --------------------------------------------------------------------------------
    def dotted(self, node: _ts.Node | None) -> str:
        """``a.b.c`` / ``a:b`` / ``a.b().c`` as the resolver reads a callee; ``<expr>`` for anything else."""
        if node is None:
            return "<expr>"
        t = node.type
        if t == "identifier":
            return self.text(node)
        if t == "dot_index_expression":
            return f"{self.dotted(node.child_by_field_name('table'))}.{self.text(node.child_by_field_name('field'))}"
        if t == "method_index_expression":
            return f"{self.dotted(node.child_by_field_name('table'))}.{self.text(node.child_by_field_name('method'))}"
        if t == "function_call":
            inner = self.dotted(node.child_by_field_name("name"))
            return "<expr>" if inner.startswith("<") else inner + "()"
        if t == "parenthesized_expression" and node.named_child_count == 1:
            return self.dotted(node.named_children[0])
        return "<expr>"

    def _params(self, fn: _ts.Node) -> list[tuple[str, str]]:
        ps = fn.child_by_field_name("parameters")
        return [(self.text(p), "") for p in ps.named_children if p.type in ("identifier", "vararg_expression")] \
            if ps is not None else []

    def _string(self, node: _ts.Node | None) -> str:
        if node is None or node.type != "string":
            return ""
        return "".join(self.text(c) for c in node.named_children if c.type == "string_content")

    def _args(self, call: _ts.Node) -> list[_ts.Node]:
        args = call.child_by_field_name("arguments")
        if args is None:
            return []
        if args.type in ("string", "table_constructor"):  # f"x", f{...}
            return [args]
        return [a for a in args.named_children if a.type != "comment"]

    def _require_spec(self, value: _ts.Node | None) -> str:
        """``a.b`` of ``require("a.b")`` / ``require "a.b"`` (``''`` for anything else)."""
        if value is None or value.type != "function_call":
            return ""
        if self.text(value.child_by_field_name("name")) != "require":
            return ""
        args = self._args(value)
        return self._string(args[0]) if len(args) == 1 else ""

    def _class_of(self, owner: int) -> int | None:
        i: int | None = owner
        while i is not None:
            if self.pf.symbols[i].kind == "class":
                return i
            i = self.pf.symbols[i].parent
        return None

    def _table(self, dotted: str, node: _ts.Node) -> int:
        """The class symbol of top-level table ``dotted``; a placeholder when the file never made it here
        (``function string.trim()`` extends a table made elsewhere)."""
        got = self.tables.get(dotted)
        if got is None:
            head, _, last = dotted.rpartition(".")
            parent = self.tables.get(head, 0) if head else 0
            got = self.add_symbol(node, parent, last, "class", body=node)
            self.pf.symbols[got].end_line = self.pf.symbols[got].start_line
            self.tables[dotted] = got
        return got

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        body = node.child_by_field_name("body")
        params = self._params(node)
        if name_node.type == "identifier":
            is_local = any(c.type == "local" for c in node.children[:1])
            return self.add_symbol(node, owner, self.text(name_node), "function", body=body, params=params,
                                   exported=not is_local)
        if name_node.type == "dot_index_expression":
            table, name = name_node.child_by_field_name("table"), self.text(name_node.child_by_field_name("field"))
        elif name_node.type == "method_index_expression":
            table, name = name_node.child_by_field_name("table"), self.text(name_node.child_by_field_name("method"))
        else:
            return None
        where = self.dotted(table)
        if table is None or "<" in where or "(" in where:
            return None
        return self.add_symbol(node, self._table(where, table), name, "method", body=body, params=params)

    def on_field_function(self, node: _ts.Node, owner: int) -> int | None:
        """``{ f = function() end }``: a method of the table's class (or a function of the returned module)."""
        table = node.parent
        holder = self.literal_owner.get((table.start_byte, table.end_byte)) if table is not None else None
        name_node = node.child_by_field_name("name")
        if holder is None or name_node is None or name_node.type != "identifier":
            return None
        fn = node.child_by_field_name("value")
        if fn is None:
            return None
        kind = "method" if self.pf.symbols[holder].kind == "class" else "function"
        return self.add_symbol(node, holder, self.text(name_node), kind, body=fn.child_by_field_name("body"),
                               params=self._params(fn))

    def on_assign(self, node: _ts.Node, owner: int) -> int | None:
        names = node.child_by_field_name("name")
        lefts = [c for c in node.named_children if c.type == "variable_list"]
        rights = [c for c in node.named_children if c.type == "expression_list"]
        if not lefts or not rights:
            return None
        targets = [c for c in lefts[0].named_children if c.type != "comment"]
        values = [c for c in rights[0].named_children if c.type != "comment"]
        del names
        is_local = node.parent is not None and node.parent.type == "variable_declaration"
        opened = None
        for i, left in enumerate(targets):
            value = values[i] if i < len(values) else None
            if value is None:
                continue
            got = self._assign_one(node, owner, left, value, is_local, single=len(targets) == 1)
            if got is not None:
                opened = got
        return opened

    def _assign_one(self, node: _ts.Node, owner: int, left: _ts.Node, value: _ts.Node, is_local: bool,
                    single: bool) -> int | None:
        target = self.dotted(left)
        if "<" in target or "(" in target:
            return None
        vt = value.type
        top = owner == 0 or (self.pf.symbols[owner].kind == "class" and not is_local)
        spec = self._require_spec(value)
        if spec:  # local x = require("a.b")
            if "." not in target:
                self.add_import(owner, spec, node, "module.exports", target)
            return None
        if vt == "dot_index_expression" and "." not in target:  # local f = require("a").f
            inner = value.child_by_field_name("table")
            spec = self._require_spec(inner)
            if spec:
                self.add_import(owner, spec, node, self.text(value.child_by_field_name("field")), target)
                return None
        if vt == "function_definition" and single:
            if "." in target:
                head, _, name = target.rpartition(".")
                if head == "self" or not top and head not in self.tables:
                    return None
                return self.add_symbol(node, self._table(head, left), name, "method",
                                       body=value.child_by_field_name("body"), params=self._params(value))
            return self.add_symbol(node, owner, target, "function", body=value.child_by_field_name("body"),
                                   params=self._params(value), exported=not is_local)
        if owner == 0 and target not in self.tables:
            cls = self._class_value(node, left, target, value)
            if cls is not None:
                return None
        if vt == "function_call":
            self._bind_call(owner, target, node, value)
        elif vt in ("identifier", "dot_index_expression") and target != self.dotted(value):
            src = self.dotted(value)
            head, _, name = target.rpartition(".")
            if "<" in src or target == "_":
                return None
            if head and head in self.tables:  # M.path = core.path: a member of table M, an alias
                self.add_binding(self.tables[head], "self." + name, node, alias_of=src)
            elif not head:
                self.add_binding(owner, target, node, alias_of=src)
        return None

    def _class_value(self, node: _ts.Node, left: _ts.Node, target: str, value: _ts.Node) -> int | None:
        """A top-level ``X = {}`` / ``setmetatable({}, mt)`` / ``class("X", Base)`` / ``Base:extend()``: class X."""
        base = ""
        table = None
        vt = value.type
        if vt == "table_constructor":
            table = value
        elif vt == "function_call":
            fname = value.child_by_field_name("name")
            ftext = self.text(fname)
            args = self._args(value)
            if ftext == "setmetatable" and len(args) == 2:
                if args[0].type == "table_constructor":
                    table = args[0]
                elif args[0].type != "identifier":
                    return None
                base = self._index_base(args[1])
            elif ftext in _CLASS_MAKERS or ftext.endswith(".class"):
                base = self.dotted(args[1]) if len(args) > 1 else ""
            elif fname is not None and fname.type == "method_index_expression" and (
                    self.text(fname.child_by_field_name("method")) in _SUBCLASS_METHODS
                    or (self.text(fname.child_by_field_name("method")) == "new" and target[:1].isupper())):
                # Base:extend(); PiL's prototypes: ``SpecialAccount = Account:new()`` is a class deriving Account
                base = self.dotted(fname.child_by_field_name("table"))
            else:
                return None
        else:
            return None
        head, _, _last = target.rpartition(".")
        if head and head not in self.tables:
            return None
        cls = self._table(target, left)
        sym = self.pf.symbols[cls]
        sym.end_line = node.end_point[0] + 1
        if base and "<" not in base and "(" not in base:
            self.add_relation(cls, base, "extends", value)
        if table is not None:
            self.literal_owner[(table.start_byte, table.end_byte)] = cls
        return cls

    def _index_base(self, mt: _ts.Node) -> str:
        """``Base`` of a metatable ``{__index = Base}`` (``''`` otherwise)."""
        if mt.type != "table_constructor":
            return ""
        for f in mt.named_children:
            if f.type == "field" and self.text(f.child_by_field_name("name")) == "__index":
                v = f.child_by_field_name("value")
                if v is not None and v.type in ("identifier", "dot_index_expression"):
                    return self.dotted(v)
        return ""

    def _bind_call(self, owner: int, target: str, at: _ts.Node, value: _ts.Node) -> None:
        fname = value.child_by_field_name("name")
        ftext = self.dotted(fname)
        args = self._args(value)
        if ftext == "setmetatable" and len(args) == 2:  # o = setmetatable({}, C): an instance of C
            cls = self.dotted(args[1]) if args[1].type != "table_constructor" else self._index_base(args[1])
            if cls and "<" not in cls:
                if cls == "self":
                    k = self._class_of(owner)
                    cls = self.pf.symbols[k].name if k is not None else ""
                if cls:
                    self.add_binding(owner, target, at, annotation=cls)
            return
        head, _, last = ftext.rpartition(".")
        if last == "new" and head[:1].isupper() and head.isidentifier():
            # o = Account:new{...}, Point.new(x, y): an instance of the table it was asked of (the
            # constructor may be inherited: SpecialAccount:new() runs Account's and builds a SpecialAccount)
            self.add_binding(owner, target, at, annotation=head)
        elif ftext and "<" not in ftext:
            self.add_binding(owner, target, at, value=ftext)

    # -- uses -----------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        callee = self.dotted(node.child_by_field_name("name"))
        if callee == "<expr>":
            return
        if callee == "setmetatable":
            self._constructor(node, owner)
            self._inherits(node)
        self.add_call(owner, callee, node)

    def _inherits(self, node: _ts.Node) -> None:
        """A statement ``setmetatable(C, {__index = Base})`` on a table ``C`` of this file: C extends Base."""
        if node.parent is None or node.parent.type not in ("chunk", "block", "do_statement"):
            return
        args = self._args(node)
        if len(args) == 2 and args[0].type == "identifier" and self.text(args[0]) in self.tables:
            base = self._index_base(args[1])
            if base and "(" not in base:
                self.add_relation(self.tables[self.text(args[0])], base, "extends", args[1])

    def _constructor(self, node: _ts.Node, owner: int) -> None:
        """``setmetatable(o, C)`` (or ``self``) in a method of ``C``: the method builds and returns a ``C``."""
        sym = self.pf.symbols[owner]
        if sym.kind != "method" or sym.return_type:
            return
        args = self._args(node)
        if len(args) != 2:
            return
        cls = self._class_of(owner)
        if cls is None:
            return
        mt = self.dotted(args[1]) if args[1].type != "table_constructor" else self._index_base(args[1])
        # ``setmetatable(o, self)`` (PiL's prototypes) builds whatever ``self`` is, a subclass too: the
        # caller's ``Sub:new()`` types its result (_bind_call), not this return type
        if mt == self.pf.symbols[cls].name:
            sym.return_type = mt

    def on_return(self, node: _ts.Node, owner: int) -> None:
        if owner != 0 or node.parent is None or node.parent.type != "chunk":
            return  # a return inside a function (anonymous ones open no definition) is not the module's
        vals = [c for c in node.named_children if c.type == "expression_list"]
        if not vals or vals[0].named_child_count != 1:
            return
        v = vals[0].named_children[0]
        if v.type == "identifier":
            self.add_binding(0, "module.exports", node, alias_of=self.text(v))
        elif v.type == "function_call" and self.text(v.child_by_field_name("name")) == "setmetatable":
            args = self._args(v)
            if args and args[0].type == "identifier":
                self.add_binding(0, "module.exports", node, alias_of=self.text(args[0]))
        elif v.type == "table_constructor":  # return { f = f, g = function() end }: the module's names
            self.literal_owner[(v.start_byte, v.end_byte)] = 0
            for f in v.named_children:
                if f.type != "field":
                    continue
                k, val = f.child_by_field_name("name"), f.child_by_field_name("value")
                if k is None or val is None or k.type != "identifier":
                    continue
                if val.type in ("identifier", "dot_index_expression") and self.text(k) != self.text(val):
                    src = self.dotted(val)
                    if "<" not in src:
                        self.add_binding(0, self.text(k), f, alias_of=src)

    def file_doc(self, root: _ts.Node) -> str:
        first = root.named_children[0] if root.named_child_count else None
        if first is not None and first.type == "comment" and first.start_point[0] <= 1:
            return _clean(self.text(first))
        return ""

    def doc_comment(self, node: _ts.Node) -> str:
        parts: list[str] = []
        prev = node.prev_named_sibling
        line = node.start_point[0]
        while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
            parts.append(_clean(self.text(prev)))
            line = prev.start_point[0]
            prev = prev.prev_named_sibling
        return "\n".join(reversed(parts))[:4000]


def _clean(raw: str) -> str:
    """Text of a ``--`` / ``---`` / ``--[[ ]]`` comment without its markers."""
    s = raw.strip()
    if s.startswith("--[") and "[" in s[3:4] + s[3:]:
        s = s[2:].lstrip("[=").rstrip("]=").rstrip("-").rstrip("]=")
        return s.strip()
    return "\n".join(line.strip().lstrip("-").strip() for line in s.split("\n")).strip()


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """The records of one Lua file (never raises on bad input)."""
    return LuaExtractor(path, source, module).run()
