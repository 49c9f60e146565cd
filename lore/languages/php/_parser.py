"""PHP: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

Symbols: classes, interfaces, traits, enums, methods (``__construct`` is the constructor) and functions.
A class or function declared in a namespace is named as PHP names it, ``A\\B\\C`` as ``A.B.C``, wherever its
file is (composer's PSR-4 maps the same names onto paths); outside any namespace it keeps its file's path.
Typed properties and promoted constructor parameters are typed members of their class (``$this->repo``).

Calls keep the receiver path: ``$this->repo->save()`` is ``this.repo.save``, ``$x?->m()`` is ``$x.m`` (a
variable keeps its ``$``: it is never a class or function of that name),
``self::m()`` / ``static::m()`` are ``self.m``, ``parent::m()`` is ``super().m``, ``Foo::m()`` is
``Foo.m``, ``new Foo(..)`` constructs ``Foo``, ``\\strlen()`` and ``helper()`` are function calls.
Variables bind their declared parameter type, ``$x = new Foo()``, ``$x = $y->m()``, ``catch (E $e)``.
Imports: ``use A\\B\\C;`` binds ``C`` (``as D``: ``D``), also grouped (``use A\\{B, C}``) and ``use function``.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile

TYPE_KINDS = ("class", "interface", "trait", "enum")
_SCALARS = frozenset({"int", "float", "string", "bool", "array", "callable", "iterable", "object", "mixed", "void",
                      "null", "never", "false", "true", "self", "static", "parent"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one PHP file into plain records.

    Examples
    --------
    >>> src = b"<?php\\nnamespace App;\\nclass A extends B { function run() { $this->step(); parent::go(); } }\\n"
    >>> pf = parse("src/A.php", src, "src.A")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('src.A', 'module'), ('App.A', 'class'), ('App.A.run', 'method')]
    >>> [c.callee for c in pf.calls]
    ['this.step', 'super().go']
    """
    return PhpExtractor(path, source, module).run()


class PhpExtractor(Extractor):
    language = "php"
    grammar = "tree_sitter_php:language_php"
    query_files = (Path(__file__).with_name("php.scm"),)
    comment_types = frozenset({"comment"})
    skip_sibling_types = frozenset({"attribute_list"})

    def __init__(self, path: str, source: bytes, module: str) -> None:
        super().__init__(path, source, module)
        self._file_ns = ""

    def file_doc(self, root: _ts.Node) -> str:
        for c in root.named_children:
            if c.type == "namespace_definition" and c.child_by_field_name("body") is None:
                self._file_ns = self._qname(c.child_by_field_name("name"))
        return ""

    # -- names ------------------------------------------------------------------------------------
    def _qname(self, node: _ts.Node | None) -> str:
        """``A\\B\\C`` as ``A.B.C`` (a leading ``\\`` dropped)."""
        if node is None:
            return ""
        return self.text(node).strip().lstrip("\\").replace("\\", ".").replace(" ", "")

    def _namespace(self, node: _ts.Node) -> str:
        p = node.parent
        while p is not None:
            if p.type == "namespace_definition" and p.child_by_field_name("body") is not None:
                return self._qname(p.child_by_field_name("name"))
            p = p.parent
        return self._file_ns

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        out: list[tuple[str, _ts.Node]] = []
        if node is None:
            return out
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "named_type":
                name = self._qname(n)
                if name and name.lower() not in _SCALARS:
                    out.append((name, n))
                continue
            if n.type in ("name", "qualified_name") and n.parent is not None and n.parent.type in (
                    "base_clause", "class_interface_clause", "use_declaration", "type_list"):
                out.append((self._qname(n), n))
                continue
            stack.extend(reversed(n.named_children))
        return out

    def direct_type(self, node: _ts.Node | None) -> str:
        """The one class a declared type names (``?Foo``: Foo; a union or a scalar: none)."""
        if node is None:
            return ""
        if node.type == "optional_type" and node.named_child_count:
            node = node.named_children[0]
        if node.type != "named_type":
            return ""
        name = self._qname(node)
        return "" if name.lower() in _SCALARS else name

    def dotted(self, node: _ts.Node | None) -> str:
        if node is None:
            return ""
        t = node.type
        if t == "variable_name":  # variables keep their $: never a class or function of that name
            name = self.text(node)
            return "this" if name == "$this" else name
        if t in ("member_access_expression", "nullsafe_member_access_expression"):
            obj = self.dotted(node.child_by_field_name("object"))
            return f"{obj or '<expr>'}.{self.text(node.child_by_field_name('name'))}"
        if t in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression",
                 "function_call_expression"):
            inner = self._callee(node)
            return f"{inner}()" if inner else "<expr>()"
        if t == "object_creation_expression":
            cls = self._new_class(node)
            return f"{cls}()" if cls else "<expr>()"
        if t in ("name", "qualified_name"):
            return self._qname(node)
        if t == "relative_scope":
            word = self.text(node).lower()
            return "super()" if word == "parent" else "self"
        if t == "parenthesized_expression" and node.named_child_count:
            return self.dotted(node.named_children[0])
        return ""

    def _callee(self, node: _ts.Node) -> str:
        t = node.type
        if t == "function_call_expression":
            return self._qname(node.child_by_field_name("function"))
        name = self.text(node.child_by_field_name("name"))
        holder = node.child_by_field_name("object") if t != "scoped_call_expression" else node.child_by_field_name("scope")
        base = self.dotted(holder)
        return f"{base or '<expr>'}.{name}"

    def _new_class(self, node: _ts.Node) -> str:
        cls = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
        return self._qname(cls)

    # -- definitions ----------------------------------------------------------------------------
    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name:
            return None
        body = node.child_by_field_name("body")
        top = self.pf.symbols[owner].kind == "module"
        qualifier = (self._namespace(node) or None) if top else None
        if kind in TYPE_KINDS:
            local = self.add_symbol(node, owner, name, kind, body=body, qualifier=qualifier,
                                    decorators=self._attributes(node))
            for c in node.named_children:
                if c.type == "base_clause":
                    for tname, tn in self.types_in(c):
                        self.add_relation(local, tname, "extends", tn)
                elif c.type == "class_interface_clause":
                    for tname, tn in self.types_in(c):
                        self.add_relation(local, tname, "implements", tn)
            return local
        local = self.add_symbol(node, owner, name, kind if not top or kind == "function" else "function", body=body,
                                qualifier=qualifier, decorators=self._attributes(node), is_declaration=body is None)
        sym = self.pf.symbols[local]
        params = node.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            if p.type not in ("simple_parameter", "property_promotion_parameter", "variadic_parameter"):
                continue
            pname = self.text(p.child_by_field_name("name"))
            tnode = p.child_by_field_name("type")
            ann = self.direct_type(tnode)
            sym.params.append((pname, ann))
            self.add_types(local, tnode, "param")
            if p.type == "property_promotion_parameter" and self.pf.symbols[owner].kind in TYPE_KINDS and ann:
                self.add_binding(owner, f"self.{pname.lstrip('$')}", p, annotation=ann)
        ret = node.child_by_field_name("return_type")
        if ret is not None:
            sym.return_type = self.direct_type(ret) or self._self_type(ret, owner)
            self.add_types(local, ret, "return")
        if not sym.return_type and sym.docstring:  # PHPDoc, as static analysers read it
            got = self._doc_type(sym.docstring, "@return")
            cls = self._class_of(owner)
            sym.return_type = self.pf.symbols[cls].name if got in ("self", "static", "$this") and cls is not None else got
        if sym.docstring:
            sym.params = [(n, a or self._doc_type(sym.docstring, "@param", n)) for n, a in sym.params]
        return local

    def _doc_type(self, doc: str, tag: str, var: str = "") -> str:
        """The one class a PHPDoc tag names (``@return \\A\\B`` / ``@var ?B`` / ``@param B $x``), spelled as this
        file can name it (its own namespace's and imported classes by their short name), or ``''``."""
        for line in doc.splitlines():
            words = line.split()
            if len(words) < 2 or words[0] != tag or (var and (len(words) < 3 or words[2] != var)):
                continue
            alts = [a for a in words[1].split("|") if a.lower() not in ("null", "void", "false", "true")]
            if len(alts) != 1:
                return ""
            t = alts[0].lstrip("?")
            if t.lower() in ("self", "static", "$this"):
                return t.lower()
            if not t or not (t[0].isalpha() or t[0] == "\\") or t.endswith("]") or "<" in t or "{" in t:
                return ""
            return self._short(t)
        return ""

    def _short(self, t: str) -> str:
        name = t.lstrip("\\").replace("\\", ".")
        if name.lower() in _SCALARS:
            return ""
        if not t.startswith("\\"):
            return name
        head, _, last = name.rpartition(".")
        if head == self._file_ns or any(i.module == head and i.name == last and not i.alias for i in self.pf.imports):
            return last
        return name

    def _self_type(self, ret: _ts.Node, owner: int) -> str:
        """``: self`` / ``: static`` (a fluent setter): the enclosing class."""
        if ret.type == "optional_type" and ret.named_child_count:
            ret = ret.named_children[0]
        word = self.text(ret).strip().lower()
        cls = self._class_of(owner)
        return self.pf.symbols[cls].name if cls is not None and word in ("self", "static", "$this") else ""

    def _attributes(self, node: _ts.Node) -> list[str]:
        out = []
        for c in node.named_children:
            if c.type == "attribute_list":
                for g in c.named_children:
                    for a in g.named_children:
                        if a.type == "attribute" and a.named_child_count:
                            out.append(self._qname(a.named_children[0]))
        return out

    # -- captures -------------------------------------------------------------------------------
    def on_call(self, node: _ts.Node, owner: int) -> None:
        self.add_call(owner, self._callee(node), node)

    def on_static_call(self, node: _ts.Node, owner: int) -> None:
        self.add_call(owner, self._callee(node), node)

    def on_function_call(self, node: _ts.Node, owner: int) -> None:
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type in ("name", "qualified_name"):
            self.add_call(owner, self._qname(fn), node)

    def on_new(self, node: _ts.Node, owner: int) -> None:
        cls = self._new_class(node)
        if cls and cls.lower() not in ("self", "static", "parent"):
            self.add_call(owner, cls, node, "new")
            self.add_type(owner, cls, "instantiation", node)
        elif cls.lower() in ("self", "static"):
            klass = self._class_of(owner)
            if klass is not None:
                self.add_call(owner, self.pf.symbols[klass].name, node, "new")

    def on_import(self, node: _ts.Node, owner: int) -> None:
        is_function = self.text(node).lstrip().startswith(("use function", "use const"))
        prefix = ""
        group = None
        for c in node.named_children:
            if c.type == "namespace_name":
                prefix = self._qname(c)
            elif c.type == "namespace_use_group":
                group = c
        clauses = group.named_children if group is not None else [c for c in node.named_children
                                                                    if c.type == "namespace_use_clause"]
        for clause in clauses:
            if clause.type != "namespace_use_clause":
                continue
            target = next((c for c in clause.named_children if c.type in ("qualified_name", "name")), None)
            alias = clause.child_by_field_name("alias")
            full = self._qname(target)
            if prefix:
                full = f"{prefix}.{full}"
            module, _, name = full.rpartition(".")
            if name:
                self.add_import(owner, module or "", node, name, alias=self.text(alias) if alias is not None else None,
                                level=1 if is_function else 0)

    def on_trait_use(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in TYPE_KINDS:
            return
        for tname, tn in self.types_in(node):
            self.add_relation(owner, tname, "implements", tn)

    def on_property(self, node: _ts.Node, owner: int) -> None:
        if self.pf.symbols[owner].kind not in TYPE_KINDS:
            return
        tnode = node.child_by_field_name("type")
        ann = self.direct_type(tnode) or self._doc_type(self.doc_comment(node), "@var")
        for el in node.named_children:
            if el.type == "property_element":
                name = self.text(el.child_by_field_name("name")).lstrip("$")
                if ann and name:
                    self.add_binding(owner, f"self.{name}", el, annotation=ann)
        self.add_types(owner, tnode, "field")

    def on_assign(self, node: _ts.Node, owner: int) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None or left.type != "variable_name":
            return
        name = self.text(left)
        t = right.type
        if t == "object_creation_expression":
            cls = self._new_class(right)
            if cls.lower() in ("self", "static"):
                klass = self._class_of(owner)
                cls = self.pf.symbols[klass].name if klass is not None else ""
            if cls and cls.lower() != "parent":
                self.add_binding(owner, name, node, value=cls)
        elif t in ("member_call_expression", "scoped_call_expression", "function_call_expression",
                   "nullsafe_member_call_expression"):
            callee = self._callee(right)
            if callee and "<expr>" not in callee:
                self.add_binding(owner, name, node, value=callee)
        elif t in ("variable_name", "member_access_expression"):
            src = self.dotted(right)
            if src and "<" not in src:
                self.add_binding(owner, name, node, alias_of=src)

    def on_catch(self, node: _ts.Node, owner: int) -> None:
        tnode = node.child_by_field_name("type")
        name = self.text(node.child_by_field_name("name"))
        names = self.types_in(tnode)
        if name and names:
            self.add_binding(owner, name, node, annotation=names[0][0])

    def _class_of(self, owner: int) -> int | None:
        i: int | None = owner
        while i is not None:
            if self.pf.symbols[i].kind in TYPE_KINDS:
                return i
            i = self.pf.symbols[i].parent
        return None
