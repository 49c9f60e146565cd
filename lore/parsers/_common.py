"""Shared extraction machinery for the curly-brace languages (JavaScript, TypeScript, Go, Java, Rust, C, C++).

Each language module subclasses :class:`Extractor` and writes a query file whose capture names say what
to do with a node: ``def.<kind>`` opens a definition (its captures nest inside it), any other capture
``x`` calls the method ``on_x(node, owner)``. As in the Python parser, one query pass runs in C and a
sweep in document order assigns every capture to its innermost enclosing definition, so no Python code
walks whole trees. Per-language knowledge (node types, how a callee or a type is spelled) stays in the
language modules; this module only knows trees, records and comments.

A handler that fails on a strange node skips that node: a parser never raises on bad input.
"""

from __future__ import annotations

from functools import cache
from operator import itemgetter
from pathlib import Path

from . import _ts
from .records import Binding, Call, Import, ParsedFile, Relation, Symbol, TypeRef

MAX_SIGNATURE = 300
MAX_DOCSTRING = 4000
_order = itemgetter(0, 1)


def clip_signature(sig: str, limit: int = MAX_SIGNATURE) -> str:
    """``sig`` (whitespace already collapsed) within ``limit`` characters, cut after a whole parameter or word.

    A cut signature ends with ``…``; it is never cut inside an identifier (one longer than the whole limit
    aside), so what is stored, searched and shown reads as code.

    Examples
    --------
    >>> clip_signature("def f(alpha, beta_gamma, delta)", 24)
    'def f(alpha, beta_gamma…'
    >>> clip_signature("def f(a)", 24)
    'def f(a)'
    """
    if len(sig) <= limit:
        return sig
    room = sig[: limit - 1]
    # the last boundary: after a separator, or before one when the next character starts a new token
    cut = max((i + 1 for i, ch in enumerate(room) if not (ch.isalnum() or ch == "_")), default=0)
    if sig[limit - 1].isalnum() or sig[limit - 1] == "_":
        room = room[:cut] if cut > limit // 2 else room
    return room.rstrip(" ,") + "…"


@cache
def query_source(files: tuple[Path, ...]) -> str:
    """The text of the query files ``files``, joined in order (TSX: TypeScript's query plus JSX's)."""
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def clean_comment(raw: str) -> str:
    """Text of a ``//``, ``///``, ``/* */`` or ``/** */`` comment without its markers.

    Examples
    --------
    >>> clean_comment("/**\\n * Saves a user.\\n * @param u the user\\n */")
    'Saves a user.\\n@param u the user'
    >>> clean_comment("/// Makes one.")
    'Makes one.'
    """
    s = raw.strip()
    if s.startswith("/*"):
        s = s[2:]
        if s.endswith("*/"):
            s = s[:-2]
        lines = []
        for line in s.split("\n"):
            line = line.strip()
            while line.startswith("*") or line.startswith("!"):
                line = line[1:]
            lines.append(line.strip())
        return "\n".join(lines).strip()
    lines = []
    for line in s.split("\n"):
        line = line.strip()
        while line.startswith("/"):
            line = line[1:]
        if line.startswith("!"):
            line = line[1:]
        lines.append(line.strip())
    return "\n".join(lines).strip()


class Extractor:
    """One file -> :class:`ParsedFile`; subclasses add ``on_<capture>`` handlers and ``define``."""

    language = ""  # the language name recorded in ParsedFile
    grammar = ""  # the tree-sitter grammar, as ``_ts.get_language`` names it (default: ``language``)
    query_files: tuple[Path, ...] = ()  # the .scm files of the query, joined in order (beside the language)
    comment_types: frozenset[str] = frozenset({"comment"})
    skip_sibling_types: frozenset[str] = frozenset()  # between a doc comment and its item (Rust attributes)
    # node types that are never worth a step of the sweep (strings, comments)
    primitive_types: frozenset[str] = frozenset()
    # re-raise handler errors instead of skipping the node (benchmarks and tests look for parser bugs)
    strict = False
    # the tree of ``source`` when the caller has parsed it already (C's second try at a file: its error count
    # decided that try), so :meth:`run` does not parse the same bytes again
    tree: _ts.Tree | None = None

    # generic types whose argument is the type that matters (``Promise<User>`` returns a User): their
    # arguments keep the reference kind of the position; arguments of other generics are ``generic``
    wrapper_names: frozenset[str] = frozenset()

    def __init__(self, path: str, source: bytes, module: str) -> None:
        self.path, self.source, self.module = path, source, module
        self.pf = ParsedFile(path=path, language=self.language, module=module)
        self.failures = 0
        self.type_params: dict[int, set[str]] = {}  # definition -> its generic type parameters (T, K ...)

    # -- driver ---------------------------------------------------------------------------------
    def run(self) -> ParsedFile:
        n_lines = self.source.count(b"\n") + 1
        self.pf.symbols.append(
            Symbol(self.module.rsplit(".", 1)[-1], self.module, "module", None, 1, n_lines)
        )
        try:
            tree = self.tree if self.tree is not None else _ts.parse(self.grammar or self.language, self.source)
        except Exception:  # never raise on input the grammar cannot take (a budget is no Exception: it passes)
            if self.strict:
                raise
            self.pf.syntax_errors = 1
            return self.pf
        root = tree.root_node
        self.pf.syntax_errors = _ts.count_errors(tree)
        self.pf.symbols[0].docstring = self.file_doc(root)
        caps = _ts.captures(self.compiled_query(), root, ordered=False)
        items: list[tuple[int, int, str, _ts.Node]] = []
        for cap, nodes in caps.items():
            for n in nodes:
                items.append((n.start_byte, -n.end_byte, cap, n))
        items.sort(key=_order)
        handlers = {cap: getattr(self, "on_" + cap.replace(".", "_"), None) for cap in caps}
        stack: list[tuple[int, int]] = [(1 << 62, 0)]  # (end_byte, local)
        for start, neg_end, cap, node in items:
            while stack[-1][0] <= start:
                stack.pop()
            owner = stack[-1][1]
            try:
                if cap.startswith("def."):
                    local = self.define(node, owner, cap[4:])
                    if local is not None:
                        stack.append((-neg_end, local))
                else:
                    h = handlers[cap]
                    got = h(node, owner) if h is not None else None
                    if got is not None:  # a handler that opened a definition (``const f = () => ...``)
                        stack.append((-neg_end, got))
            except Exception:  # a strange node: skip it, keep the rest of the file
                if self.strict:
                    raise
                self.failures += 1
        self.finish()
        self.parents_first()
        return self.pf

    def parents_first(self) -> None:
        """Renumber symbols so that every parent precedes its children (a method attached in ``finish`` to a
        type declared after it, or to a placeholder), as consumers of records expect; records follow."""
        syms = self.pf.symbols
        if all(s.parent is None or s.parent < i for i, s in enumerate(syms)):
            return
        kids: dict[int, list[int]] = {}
        for i, s in enumerate(syms):
            if s.parent is not None:
                kids.setdefault(s.parent, []).append(i)
        order: list[int] = []
        stack = [0]
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(reversed(kids.get(i, ())))
        new = {old: k for k, old in enumerate(order)}
        self.pf.symbols = [syms[i] for i in order]
        for sym in self.pf.symbols:
            if sym.parent is not None:
                sym.parent = new[sym.parent]
        for c in self.pf.calls:
            c.caller = new[c.caller]
        for t in self.pf.type_refs:
            t.owner = new[t.owner]
        for imp in self.pf.imports:
            imp.owner = new[imp.owner]
        for r in self.pf.relations:
            r.source = new[r.source]
        for b in self.pf.bindings:
            b.owner = new[b.owner]
            if b.scope is not None:
                b.scope = new[b.scope]

    def compiled_query(self) -> _ts.Query:
        return _ts.query(self.grammar or self.language, query_source(self.query_files))

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        """Record the definition ``node`` of ``kind`` inside ``owner``; return its local (or None)."""
        raise NotImplementedError

    def finish(self) -> None:
        """Hook after the sweep (e.g. moving methods to their types)."""

    def file_doc(self, root: _ts.Node) -> str:
        return ""

    # -- records --------------------------------------------------------------------------------
    def add_symbol(
        self,
        node: _ts.Node,
        owner: int,
        name: str,
        kind: str,
        *,
        body: _ts.Node | None = None,
        doc_node: _ts.Node | None = None,
        exported: bool = True,
        is_declaration: bool = False,
        params: list[tuple[str, str]] | None = None,
        return_type: str = "",
        decorators: list[str] | None = None,
        qualifier: str | None = None,
    ) -> int:
        parent = self.pf.symbols[owner]
        prefix = parent.qualified_name if qualifier is None else qualifier
        sym = Symbol(
            name=name,
            qualified_name=f"{prefix}.{name}",
            kind=kind,
            parent=owner,
            start_line=node.start_point[0] + 1,
            end_line=node.end_point[0] + 1,
            start_col=node.start_point[1],
            end_col=node.end_point[1],
            signature=self.signature(node, body),
            docstring=self.doc_comment(doc_node or node),
            params=params or [],
            return_type=return_type,
            decorators=decorators or [],
            exported=exported,
            is_declaration=is_declaration,
        )
        self.pf.symbols.append(sym)
        return len(self.pf.symbols) - 1

    def add_call(self, owner: int, callee: str, node: _ts.Node, kind: str = "call") -> None:
        if callee:
            self.pf.calls.append(Call(owner, callee, node.start_point[0] + 1, node.start_point[1], kind))

    def add_type(self, owner: int, type_name: str, kind: str, node: _ts.Node) -> None:
        if type_name and not (self.type_params and self.is_type_param(owner, type_name)):
            self.pf.type_refs.append(TypeRef(owner, type_name, kind, node.start_point[0] + 1, node.start_point[1]))

    def types_in(self, node: _ts.Node | None) -> list[tuple[str, _ts.Node]]:
        """Type names in a type expression, outermost first (languages define how names are spelled)."""
        return []

    def add_types(self, owner: int, node: _ts.Node | None, kind: str) -> None:
        """One type reference per type name in ``node``; names inside generic arguments are ``generic``.

        ``Map<string, User>`` as a parameter: ``User`` is a ``generic`` reference; ``Promise<User>`` as a
        return type (``Promise`` is a wrapper): ``User`` stays a ``return`` reference.
        """
        found = self.types_in(node)
        if not found:
            return
        generic = self.generic_argument_nodes(node) if len(found) > 1 else None
        for name, n in found:
            inside = n.id in generic if generic is not None else self.in_generic_argument(n, node)
            self.add_type(owner, name, "generic" if inside else kind, n)

    def generic_argument_nodes(self, root: _ts.Node | None) -> set[int]:
        """Ids of the nodes under ``root`` that sit inside a generic argument list of a non-wrapper type.

        One top-down pass, iterative: asking :meth:`in_generic_argument` per name walks up the tree once
        per name (and each ``parent`` step walks down from the root), cubic in the nesting depth; a
        7 KB Rust type nested 3,000 deep took a minute that way.
        """
        marked: set[int] = set()
        if root is None:
            return marked
        stack: list[tuple[_ts.Node, _ts.Node | None, bool]] = [(root, None, False)]
        while stack:
            node, holder, inside = stack.pop()
            if inside:
                marked.add(node.id)
            elif holder is not None and node.type in _ARG_LISTS and self._generic_holder(holder):
                inside = True  # the list itself is not inside; everything under it is
            stack.extend((c, node, inside) for c in node.children)
        return marked

    def _generic_holder(self, holder: _ts.Node) -> bool:
        base = holder.child_by_field_name("name") or holder.child_by_field_name("type")
        if base is None and holder.named_child_count:
            base = holder.named_children[0]
        last = _ts.text(base).replace("::", ".").rsplit(".", 1)[-1] if base is not None else ""
        return last not in self.wrapper_names

    def in_generic_argument(self, n: _ts.Node, root: _ts.Node | None) -> bool:
        p = n.parent
        while p is not None and p != root:
            if p.type in _ARG_LISTS:
                holder = p.parent
                base = holder.child_by_field_name("name") or holder.child_by_field_name("type") \
                    if holder is not None else None
                if base is None and holder is not None and holder.named_child_count:
                    base = holder.named_children[0]
                last = _ts.text(base).replace("::", ".").rsplit(".", 1)[-1] if base is not None else ""
                if last not in self.wrapper_names:
                    return True
            p = p.parent
        return False

    def declare_type_params(self, local: int, plist: _ts.Node | None) -> None:
        """Record the generic parameters of definition ``local`` (``<T, K extends X>``): never type references."""
        names = type_param_names(plist)
        if names:
            self.type_params.setdefault(local, set()).update(names)

    def is_type_param(self, owner: int, type_name: str) -> bool:
        head = type_name.split(".", 1)[0]
        i: int | None = owner
        while i is not None:
            got = self.type_params.get(i)
            if got and head in got:
                return True
            i = self.pf.symbols[i].parent
        return False

    def add_import(self, owner: int, module: str, node: _ts.Node, name: str | None = None,
                   alias: str | None = None, level: int = 0) -> None:
        if module:
            self.pf.imports.append(Import(owner, module, node.start_point[0] + 1, name, alias, level))

    def add_relation(self, source: int, target: str, kind: str, node: _ts.Node) -> None:
        if target:
            self.pf.relations.append(Relation(source, target, kind, node.start_point[0] + 1))

    def add_binding(self, owner: int, name: str, node: _ts.Node, *, annotation: str = "", value: str = "",
                    alias_of: str = "") -> None:
        if name and (annotation or value or alias_of):
            self.pf.bindings.append(Binding(owner, name, node.start_point[0] + 1, annotation, value, alias_of))

    # -- text helpers ---------------------------------------------------------------------------
    def text(self, node: _ts.Node | None) -> str:
        return _ts.text(node)

    def signature(self, node: _ts.Node, body: _ts.Node | None) -> str:
        end = body.start_byte if body is not None else node.end_byte
        sig = self.source[node.start_byte : end].decode("utf-8", "replace")
        return clip_signature(" ".join(sig.split()).rstrip("{;: "))

    def doc_comment(self, node: _ts.Node) -> str:
        """The comments right above ``node`` (contiguous, no blank line between), cleaned."""
        parts: list[str] = []
        cur = node
        line = node.start_point[0]
        while True:
            prev = cur.prev_named_sibling
            while prev is not None and prev.type in self.skip_sibling_types and prev.end_point[0] >= line - 1:
                line = prev.start_point[0]
                prev = prev.prev_named_sibling
            if prev is None or prev.type not in self.comment_types or prev.end_point[0] < line - 1:
                break
            parts.append(clean_comment(_ts.text(prev)))
            cur, line = prev, prev.start_point[0]
        if not parts:
            return ""
        return "\n".join(reversed(parts))[:MAX_DOCSTRING]


def type_names(node: _ts.Node | None, name_types: frozenset[str], skip: frozenset[str],
               spell=None) -> list[tuple[str, _ts.Node]]:
    """Type names inside a type expression, outermost first: ``Map<K, User>`` -> Map, K, User.

    ``name_types`` are the node types that name a type (``type_identifier``, ``qualified_type``...);
    they are spelled by ``spell(node)`` (default: their text with ``::`` turned into ``.``) and their
    generic arguments are visited too; names in ``skip`` (primitives) are dropped.
    """
    out: list[tuple[str, _ts.Node]] = []
    if node is None:
        return out
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in name_types:
            name = spell(n) if spell is not None else _ts.text(n).replace("::", ".")
            if name and name not in skip:
                out.append((name, n))
            stack.extend(reversed(_argument_lists(n)))
            continue
        stack.extend(reversed(n.named_children))
    return out


_ARG_LISTS = frozenset({"type_arguments", "template_argument_list"})  # generic argument lists of every grammar


def _argument_lists(n: _ts.Node) -> list[_ts.Node]:
    """Generic argument lists directly under a type name (``a::B<T>``: the ``<T>``)."""
    out = []
    for c in n.named_children:
        if c.type in _ARG_LISTS:
            out.append(c)
        elif c.type in ("template_type", "generic_type"):
            out.extend(x for x in c.named_children if x.type in _ARG_LISTS)
    return out


def type_param_names(plist: _ts.Node | None) -> set[str]:
    """The names a generic parameter list declares (``<T, K extends X>``, Go ``[K, V any]``, ``template <class T>``)."""
    names: set[str] = set()
    if plist is None:
        return names
    for p in plist.named_children:
        found = p.children_by_field_name("name")  # Go: [K, V any]
        if not found:
            first = next((c for c in p.named_children if c.type in ("type_identifier", "identifier")), None)
            found = [first] if first is not None else []
        names.update(_ts.text(n) for n in found)
    return names


def first_type(names: list[tuple[str, _ts.Node]], wrappers: frozenset[str] = frozenset()) -> str:
    """The primary type of a list from :func:`type_names`, looking through wrappers (``Option<T>`` -> T)."""
    for name, _n in names:
        if name in wrappers:
            continue
        return name
    return ""
