"""The C-family extractor: C's, which C++'s builds on (``lore.languages.cpp``), and the source clean-ups both use.

C's ``parse`` (``lore.languages.c._parser``) picks this extractor or C++'s for a ``.h`` file.

Symbols: function definitions, prototypes (``is_declaration``; only when the file does not define the
function itself, so a header's declarations stand for the definitions elsewhere), structs, unions,
enums and typedefs (``type_alias``; ``typedef struct {...} Name`` names the struct). Calls: ``f()``,
``obj->ops.run()`` written ``obj.ops.run``. Struct fields are bindings ``self.<field>`` with their
declared type; locals bind their declared type. ``#include "x.h"`` is an import of module ``x.h``
(``<stdio.h>`` keeps its brackets), resolved to the header and its source file by
:mod:`lore.languages.c._rules`; a call bound to a prototype is spread over the definitions it declares.
Function-like macros (``#define MAX(a, b) ...``) are ``function`` symbols, so calls of them resolve.
A ``.h`` file that looks like C++ (classes, namespaces, templates) is read with the C++ extractor.
Preprocessor conditionals are parsed as written; macros are not expanded.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor, type_names
from ...parsers._lines import LinePattern
from ...parsers.records import ParsedFile
from ._computed_includes import include_macros
from ._conditions import Branches, defined_unless, surely_defined
from ._macro_names import add_lost_macros, add_written_definition, function_macros, wrapped_name
from ._renaming import add_renaming_macros
from ._templates import declarator_entries, includer_entries

NAME_LEAVES = frozenset({"identifier", "field_identifier", "type_identifier", "qualified_identifier",
                         "destructor_name", "operator_name", "namespace_identifier"})
DECLARATOR_WRAPPERS = frozenset({"pointer_declarator", "reference_declarator", "function_declarator",
                                 "array_declarator", "parenthesized_declarator", "init_declarator",
                                 "attributed_declarator"})
TYPE_DEF_KINDS = ("struct", "class", "enum", "type_alias")


# ``^\s*X`` (MULTILINE) matches somewhere exactly when X follows blanks on its own line: that form is searched
# from newline to newline (lore.parsers._lines), not tried at every byte
_CPP_LINE = LinePattern(rb"[ \t\r\f\v]*(?:class\s+\w+[^;]*\{|namespace\s+\w*\s*\{|template\s*<|(?:public|private|protected):|"
                        rb"#\s*include\s*<(?:string|vector|map|memory|cstdint|cstddef|cstdio|cstdlib|cstring|iostream|"
                        rb"utility|functional|algorithm|type_traits|atomic|mutex|unordered_map|set|limits|cassert)>|"
                        rb"using[ \t]+namespace[ \t])")
_CPP_QUALIFIED = LinePattern(rb"[ \t\r\f\v]*(?:\w+[ \t*&]+)*\w+::~?\w+[ \t]*\(")  # ``void X::f(``


def looks_cpp(head: bytes) -> bool:
    """Whether a header's text reads as C++ (a class, namespace, template, access label, standard C++ include,
    ``using namespace`` or an out-of-line ``X::f(`` definition at a line's start). The last test backtracks
    over every line, so it runs only on text that holds ``::`` at all: on the kernel's headers it was most
    of this check's time."""
    return _CPP_LINE.search(head) is not None or (b"::" in head and _CPP_QUALIFIED.search(head) is not None)


_DEFINE = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+(\w+)")
# an object-like macro whose value starts with a word: ``#define MEM_STATIC static inline``
_DEFINE_HEAD = re.compile(rb"[ \t]*#[ \t]*define[ \t]+(\w+)")  # matched at a macro node's start
_DEFINE_WORD = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([A-Za-z_]\w*)")

_LITERALS = {"string_literal": "#s", "concatenated_string": "#s", "raw_string_literal": "#s", "true": "#b",
             "false": "#b", "char_literal": "#c", "null": "#n", "nullptr": "#n"}


def _literal_kind(node: _ts.Node) -> str:
    """What an argument is when it is a literal (see :meth:`CExtractor.record_arity`), else ``""``."""
    t = node.type
    if t == "number_literal":
        text = node.text or b""
        hexa = text[:2].lower() == b"0x"
        return "#f" if not hexa and any(ch in text for ch in b".eE") else "#i"
    return _LITERALS.get(t, "")


class CExtractor(Extractor):
    language = "c"
    grammar = "c"
    query_files = (Path(__file__).with_name("c.scm"),)
    type_name_nodes = frozenset({"type_identifier"})

    def run(self) -> ParsedFile:
        self.type_locals: dict[str, int] = {}
        self.scopes: dict[tuple[int, str], int] = {}  # (parent, name) -> namespace / class / struct defined there
        self.prototypes: list[tuple[_ts.Node, int, _ts.Node]] = []  # (declaration, owner, function_declarator)
        self.defined: set[tuple[int, str, str]] = set()  # (owner, name, overload_key)
        self.branches: Branches | None = None
        self.file_macros: dict[str, tuple[list[str], str]] | None = None  # read when a declarator needs them
        # (byte, name, static, params, signature) of the functions top-level macro uses define (``parse`` sets it before ``run``)
        self.written: list[tuple[int, str, bool, list[tuple[str, str]], str]] = getattr(self, "written", [])
        return super().run()

    def add_symbol(self, node: _ts.Node, owner: int, name: str, kind: str, **kw) -> int:  # type: ignore[override]
        """A symbol, with the preprocessor branch it sits in (:mod:`._conditions`)."""
        local = super().add_symbol(node, owner, name, kind, **kw)
        state = self.pf.symbols[local].condition = self.branch_state(node)
        if state.startswith("?"):  # what decides the branch, for the project's headers to decide later
            assert self.branches is not None
            expr = self.branches.expr(node.start_byte)
            if expr:
                self.pf.symbols[local].condition = f"{state}|{expr}"
        return local

    def branch_state(self, node: _ts.Node) -> str:
        """``"0"`` when ``node`` is in a preprocessor branch a default build skips, ``"?"`` in an undecided one."""
        if self.branches is None:
            root = node
            while root.parent is not None:
                root = root.parent
            self._branches_of(root)
        assert self.branches is not None
        return self.branches.state(node.start_byte)

    def state_at(self, offset: int) -> str:
        """:meth:`branch_state` of a byte offset found in the source text (a regex match), once the file's
        root is known; ``""`` before."""
        if self.branches is None and getattr(self, "root", None) is not None:
            self._branches_of(self.root)
        return self.branches.state(offset) if self.branches is not None else ""

    def _branches_of(self, root: _ts.Node) -> None:
        cplusplus = True if self.grammar == "cpp" else None if self.pf.path.endswith(".h") else False
        self.branches = Branches(root, self.source, cplusplus=cplusplus)

    def file_doc(self, root: _ts.Node) -> str:
        self.root = root  # finish() reads the branches the file's #defines sit in
        return super().file_doc(root)

    def _defines(self) -> list[str]:
        """The macro names the file ``#define``s, each with the branch it sits in when that is off unless project
        flags are defined (``"NAME ?0 FLAG ..."``, see :func:`lore.languages.c._build._project_defines`); a
        ``#define`` in a branch a default build skips (``#ifdef _WIN32``) is left out."""
        out: dict[str, str] = {}
        for m in _DEFINE.finditer(self.source):
            name = m.group(1).decode()
            if out.get(name) == name:
                continue
            state = self.state_at(m.start(1))
            if state == "0":
                continue
            entry = f"{name} {state}" if state.startswith("?0 ") else name
            if name not in out or entry == name or len(entry) < len(out[name]):
                out[name] = entry
        # storage-class macros (zstd's MEM_STATIC, HINT_INLINE -> FORCE_INLINE_TEMPLATE -> static ...): "=static NAME"
        # for a value starting with ``static``, "=as NAME WORD" for one starting with an upper-case macro name
        marks = set()
        for m in _DEFINE_WORD.finditer(self.source):
            name, word = m.group(1).decode(), m.group(2).decode()
            if word == "static":
                marks.add(f"=static {name}")
            elif word.isupper() and word != name:
                marks.add(f"=as {name} {word}")
        # what "#if NAME" reads at the end of the file, for the files that include it: "=val NAME 1"; "=un NAME" for
        # a name written plain whose definition an includer cannot count on (an undecided branch, an #undef), with the
        # project flags whose absence defines it surely ("=un GUNZIP NO_GZIP")
        if self.branches is not None:
            marks.update(f"=val {k} {v}" for k, v in self.branches.values().items())
            marks.update(" ".join(("=un", n, *defined_unless(self.branches, n))) for n, e in out.items()
                         if e == n and not surely_defined(self.branches, n))
        return sorted(out.values()) + sorted(marks)

    # -- names ----------------------------------------------------------------------------------
    def spell(self, node: _ts.Node) -> str:
        return self.text(node).replace("::", ".").replace(" ", "")

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        if node is not None and self.grammar == "c":  # C's commonest types, answered as type_names would
            t = node.type
            if t == "primitive_type":  # no name under it
                return []
            if t == "type_identifier":  # itself, and no argument list under it in C
                name = self.spell(node)
                return [(name, node)] if name else []
        return type_names(node, self.type_name_nodes, frozenset(), self.spell)

    def add_types(self, owner: int, node: _ts.Node | None, kind: str) -> None:
        if self.grammar != "c":
            super().add_types(owner, node, kind)
            return
        # C's grammar has no generic argument lists: every name keeps the position's kind, without the walks
        # that look for one (Extractor.add_types)
        for name, n in self.types_in(node):
            self.add_type(owner, name, kind, n)

    def direct_type(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        if node.type in ("struct_specifier", "union_specifier", "enum_specifier", "class_specifier"):
            name = node.child_by_field_name("name")
            return self.spell(name) if name is not None else ""
        if node.type == "template_type":
            return self.direct_type(node.child_by_field_name("name"))
        if node.type in self.type_name_nodes:
            found = self.types_in(node)
            return found[0][0] if found else ""
        return ""

    def declarator_name(self, node: _ts.Node | None) -> _ts.Node | None:
        """The name node at the bottom of a declarator chain (``*(*f)(int)`` -> ``f``)."""
        while node is not None:
            if node.type in NAME_LEAVES:
                return node
            if node.type in DECLARATOR_WRAPPERS:
                inner = node.child_by_field_name("declarator")
                if inner is None:
                    inner = next((c for c in node.named_children if c.type in NAME_LEAVES or
                                  c.type in DECLARATOR_WRAPPERS), None)
                node = inner
                continue
            return None
        return None

    def function_declarator(self, node: _ts.Node | None) -> _ts.Node | None:
        while node is not None and node.type != "function_declarator":
            if node.type in DECLARATOR_WRAPPERS or node.type == "attributed_declarator":
                inner = node.child_by_field_name("declarator")
                if inner is None and node.type == "reference_declarator":  # C++ Value& f(): no field name
                    inner = next((c for c in node.named_children if c.type in DECLARATOR_WRAPPERS), None)
                node = inner
            else:
                return None
        return node

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t in ("identifier", "field_identifier", "type_identifier", "namespace_identifier"):
            return self.text(node)
        if t == "this":
            return "this"
        if t == "field_expression":
            obj = self.dotted(node.child_by_field_name("argument"))
            field = node.child_by_field_name("field")
            fname = self.dotted(field) if field is not None and field.type != "field_identifier" else self.text(field)
            return f"{obj or '<expr>'}.{fname}"
        if t == "qualified_identifier":
            scope = node.child_by_field_name("scope")
            name = self.dotted(node.child_by_field_name("name"))
            head = self.dotted(scope) if scope is not None else ""
            return f"{head}.{name}" if head and name else name
        if t in ("template_function", "template_type", "template_method"):
            return self.dotted(node.child_by_field_name("name"))
        if t == "call_expression":
            inner = self.dotted(node.child_by_field_name("function"))
            return f"{inner}()" if inner else "<expr>()"
        if t in ("parenthesized_expression", "pointer_expression") and node.named_child_count:
            return self.dotted(node.named_children[-1])
        return ""

    def _is_static(self, node: _ts.Node) -> bool:
        return any(c.type == "storage_class_specifier" and self.text(c) == "static" for c in node.children)

    def _doc_node(self, node: _ts.Node) -> _ts.Node:
        p = node.parent
        if p is not None and p.type in ("template_declaration", "type_definition"):
            return p
        return node

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "function":
            return self._function(node, owner, node.child_by_field_name("declarator"), node.child_by_field_name("body"))
        name_node = node.child_by_field_name("name")
        name = self.spell(name_node) if name_node is not None else ""
        parent = node.parent
        if parent is not None and parent.type == "type_definition":
            alias = self.declarator_name(parent.child_by_field_name("declarator"))
            if not name and alias is not None:
                name = self.text(alias)  # typedef struct { ... } Name;
        if not name:
            return None
        name = name.rsplit(".", 1)[-1]
        body = node.child_by_field_name("body")
        local = self.add_symbol(node, owner, name, kind, body=body, doc_node=self._doc_node(node))
        if self.pf.symbols[owner].kind in ("module", "namespace"):
            self.type_locals.setdefault(name, local)
        self.scopes.setdefault((owner, name), local)
        self.template_params(node, local)
        self.bases(node, local)
        return local

    def template_params(self, node: _ts.Node, local: int) -> None:
        """C++ template parameters (C has none)."""

    constructor_name = "<init>"

    def bases(self, node: _ts.Node, local: int) -> None:
        """C++ base classes (C has none)."""

    def placeholder_class(self, node: _ts.Node, owner: int, scope_name: str) -> int | None:
        """C++: the class of out-of-line methods declared in another file (C has none)."""
        return None

    def scope_of(self, node: _ts.Node, owner: int, scope_name: str) -> tuple[int, bool]:
        """C++: the symbol ``a::B`` of ``void a::B::m()`` names, seen from ``owner``, and whether it is a class."""
        return owner, False

    def _function(self, node: _ts.Node, owner: int, declarator: _ts.Node | None, body: _ts.Node | None,
                  is_declaration: bool = False) -> int | None:
        fdecl = self.function_declarator(declarator)
        if fdecl is None:
            return None
        name_node = self.declarator_name(fdecl.child_by_field_name("declarator"))
        if name_node is None:
            return None
        kind = "method" if self.pf.symbols[owner].kind in ("class", "struct") else "function"
        name = self.wrapped(fdecl) or self.decl_name(owner, name_node)
        if name_node.type == "qualified_identifier":  # void A::m() {...}: a method of A; void ns::f(): in ns
            full = self.dotted(name_node) or self.spell(name_node)
            scope_name, _, name = full.rpartition(".")
            if scope_name:
                owner, is_class = self.scope_of(node, owner, scope_name)
                kind = "method" if is_class else "function"
            if kind == "method" and name == self.pf.symbols[owner].name:
                name = self.constructor_name
        if not name:
            return None
        doc = self._doc_node(node)
        local = self.add_symbol(node, owner, name, kind, body=body, doc_node=doc, exported=not self._is_static(node),
                                is_declaration=is_declaration)
        if not is_declaration:
            self.defined.add((owner, name, self.overload_key(fdecl)))
        self.template_params(node, local)
        sym = self.pf.symbols[local]
        params = fdecl.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                continue
            tnode = p.child_by_field_name("type")
            pn = self.declarator_name(p.child_by_field_name("declarator"))
            if pn is None and tnode is not None and self.text(tnode) == "void":
                continue  # f(void) takes nothing; a parameter "_" would hide gettext's _() macro in the body
            sym.params.append((self.text(pn) if pn is not None else "_", self.direct_type(tnode)))
            self.add_types(local, tnode, "param")
        ret = node.child_by_field_name("type")
        if ret is not None:
            sym.return_type = self.direct_type(ret)
            self.add_types(local, ret, "return")
        return local

    def wrapped(self, fdecl: _ts.Node) -> str | None:
        """C: the function ``int BZ_API(BZ2_bzWrite)(int a)`` declares, written through an upper-case macro that
        takes its name (:func:`._macro_names.wrapped_name`); ``None`` for any other declarator."""
        inner = fdecl.child_by_field_name("declarator")
        if self.grammar != "c" or inner is None or inner.type != "function_declarator":
            return None
        macro, params = inner.child_by_field_name("declarator"), inner.child_by_field_name("parameters")
        if macro is None or macro.type != "identifier" or params is None or params.named_child_count != 1:
            return None
        only = params.named_children[0]
        arg = only.child_by_field_name("type") if only.type == "parameter_declaration" else None
        if arg is None or arg.type != "type_identifier" or only.child_by_field_name("declarator") is not None:
            return None
        if self.file_macros is None:
            self.file_macros = function_macros(self.source)
        return wrapped_name(self.text(macro), self.text(arg), self.file_macros)

    def overload_key(self, fdecl: _ts.Node | None) -> str:
        """What tells a function's declaration from its overloads' (C: nothing; C++: its parameter types)."""
        return ""

    def decl_name(self, owner: int, name_node: _ts.Node) -> str:
        """The symbol name a declarator declares in ``owner`` (a constructor is ``<init>``)."""
        name = self.text(name_node)
        if self.pf.symbols[owner].kind in ("class", "struct") and name == self.pf.symbols[owner].name:
            return self.constructor_name
        return name

    def finish(self) -> None:
        if b"define" in self.source:
            self.pf.defines = self._defines() + [e for e in self.pf.defines if e.startswith("=oi ")]
        for byte, name, static, params, signature in self.written:
            add_written_definition(self, byte, name, static, params, signature)
        if self.grammar == "c" and self.pf.syntax_errors and b"define" in self.source:
            add_lost_macros(self)
        if self.grammar == "c" and b"define" in self.source:
            add_renaming_macros(self)
        if self.grammar == "c":  # template-by-include (._templates), #include MACRO (._computed_includes)
            self.pf.defines += includer_entries(self.source, self.state_at) + declarator_entries(
                self.pf.symbols, self.source) + include_macros(self.source)
        # prototypes and in-class method declarations stand for definitions elsewhere: only kept when this
        # file does not define the name itself
        for node, owner, declarator in self.prototypes:
            fdecl = self.function_declarator(declarator)
            name_node = self.declarator_name(fdecl.child_by_field_name("declarator")) if fdecl is not None else None
            if name_node is None or name_node.type == "qualified_identifier":
                continue
            key = (owner, (fdecl is not None and self.wrapped(fdecl)) or self.decl_name(owner, name_node),
                   self.overload_key(fdecl))
            if key in self.defined:
                continue
            self.defined.add(key)
            self._function(node, owner, declarator, None, is_declaration=True)

    # -- captures -------------------------------------------------------------------------------
    def on_typedef(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        decls = node.children_by_field_name("declarator")
        if tnode is not None and node.has_error and self.text(tnode).isupper():
            decls = decls[:1]  # typedef PNG_CALLBACK(void, *name, (png_byte *)): the rest is the macro's arguments
        for d in decls:
            name_node = self.declarator_name(d)
            if name_node is None:
                continue
            name = self.text(name_node)
            if tnode is not None and tnode.type in ("struct_specifier", "union_specifier", "enum_specifier",
                                                    "class_specifier"):
                inner = tnode.child_by_field_name("name")
                if tnode.child_by_field_name("body") is not None and (inner is None or self.text(inner) == name):
                    continue  # typedef struct [Name] {...} Name: the struct already carries the name
            local = self.add_symbol(node, owner, name, "type_alias", doc_node=node)
            if self.pf.symbols[owner].kind in ("module", "namespace"):
                self.type_locals.setdefault(name, local)
            self.add_types(local, tnode, "annotation")

    def on_decl(self, node: _ts.Node, owner: int) -> None:
        owner_kind = self.pf.symbols[owner].kind
        tnode = node.child_by_field_name("type")
        variables = 0
        for d in node.children_by_field_name("declarator"):
            if self.function_declarator(d) is not None and d.type != "init_declarator":
                if owner_kind in ("module", "namespace"):
                    self.prototypes.append((node, owner, d))
                elif owner_kind in ("class", "struct"):  # C++: Widget(int w); in the class body
                    self.method_declaration(node, owner, d)
                continue
            variables += 1
            name_node = self.declarator_name(d)
            if name_node is None or name_node.type != "identifier":
                continue
            name = self.text(name_node)
            value = d.child_by_field_name("value") if d.type == "init_declarator" else None
            self.local_binding(owner, name, name_node, tnode, value)
        if variables and owner_kind not in ("class", "struct"):
            self.add_types(owner, tnode, "annotation")

    def local_binding(self, owner: int, name: str, at: _ts.Node, tnode: _ts.Node | None, value: _ts.Node | None) -> None:
        ann = self.direct_type(tnode)
        if ann:
            self.add_binding(owner, name, at, annotation=ann)
        elif value is not None and value.type == "call_expression":
            callee = self.dotted(value.child_by_field_name("function"))
            if callee and not callee.startswith("<"):
                self.add_binding(owner, name, at, value=callee)

    def on_field(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in ("struct", "class"):
            return
        tnode = node.child_by_field_name("type")
        ann = self.direct_type(tnode)
        fields = 0
        for d in node.children_by_field_name("declarator"):
            if self.function_declarator(d) is not None and self.method_declaration(node, owner, d):
                continue
            fields += 1
            name_node = self.declarator_name(d)
            if name_node is not None and ann:
                self.add_binding(owner, f"self.{self.text(name_node)}", name_node, annotation=ann)
                self.add_binding(owner, self.text(name_node), name_node, annotation=ann)
        if fields:
            self.add_types(owner, tnode, "field")

    def method_declaration(self, node: _ts.Node, owner: int, declarator: _ts.Node) -> bool:
        """Whether the function declarator in a struct body declared a method (C++), or is a C function pointer field."""
        return False

    def on_call(self, node: _ts.Node, owner: int) -> None:
        callee = self.dotted(node.child_by_field_name("function"))
        self.add_call(owner, callee or "<expr>", node)
        self.record_arity(node.child_by_field_name("arguments"))

    def record_arity(self, arguments: _ts.Node | None) -> None:
        """The last call's arguments, one entry each: ``"#s"`` (a string literal), ``"#b"``, ``"#i"``, ``"#f"``,
        ``"#c"``, ``"#n"`` (bool, integer, floating, character literals, ``nullptr``) or ``""``. C and C++ follow no
        values (``Call.args`` is free there); count and kinds pick among overloads
        (:meth:`lore.languages.c._rules.CRules.choose_overload`)."""
        if arguments is not None and self.pf.calls:
            kinds = []
            for a in arguments.named_children:
                t = a.type
                if t == "number_literal":
                    kinds.append(_literal_kind(a))
                elif t != "comment":
                    kinds.append(_LITERALS.get(t, ""))  # what _literal_kind says of any other node, without the call
            self.pf.calls[-1].args = kinds

    def on_macro(self, node: _ts.Node, owner: int) -> None:
        """``#define MAX(a, b) ...``: a function whose calls resolve like any other."""
        # the name as the directive writes it: a body the grammar cannot read may leave another name in the
        # field (bzip2's GET_MTF_VAL was named after the RETURN(...) in its body)
        written = _DEFINE_HEAD.match(self.source, node.start_byte)
        name = written.group(1).decode("utf-8", "replace") if written is not None else \
            self.text(node.child_by_field_name("name"))
        if not name or self.branch_state(node) == "0":  # a macro the default build never defines is no callee
            return
        # a macro is file-local where it is defined in a source file; a header's reaches its includers. It is the
        # file's from its line on, also when written inside a function (libevent's GET16 in name_parse, used by
        # the functions below), unless the function #undefs it again (the kernel's sched/debug.c: a P(x) per
        # function)
        if self.grammar == "c" and owner != 0 and not self._undefined_within(name, node.end_byte, owner):
            owner = 0
        local = self.add_symbol(node, owner, name, "function", body=node.child_by_field_name("value"), exported=False)
        params = node.child_by_field_name("parameters")
        self.pf.symbols[local].params = [(self.text(p), "") for p in params.named_children if p.type == "identifier"] \
            if params is not None else []

    def _undefined_within(self, name: str, start: int, owner: int) -> bool:
        """Whether ``#undef name`` follows ``start`` before the end of the definition ``owner``."""
        m = re.compile(rb"^[ \t]*#[ \t]*undef[ \t]+" + re.escape(name.encode()) + rb"\b", re.MULTILINE).search(
            self.source, start)
        return m is not None and self.source.count(b"\n", 0, m.start()) + 1 <= self.pf.symbols[owner].end_line

    def on_include(self, node: _ts.Node, owner: int) -> None:
        path = node.child_by_field_name("path")
        if path is None:
            return
        if path.type == "system_lib_string":
            self.add_import(owner, self.text(path), node, "*")
        else:
            spec = self.text(path).strip('"')
            if spec:
                self.add_import(owner, spec, node, "*")
        if self.pf.imports and b"#if" in self.source and self.branch_state(node) != "":
            # an include a default build skips (#ifdef __APPLE__) or may skip (#ifdef HAVE_CONFIG_H, which builds
            # pass with -D): its flags surely reach no unit (._unit_flags)
            self.pf.defines.append(f"=oi {self.pf.imports[-1].line}")
