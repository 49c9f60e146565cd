"""Python: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

One query pass (``python.scm``, beside this module) collects definitions, calls, imports,
assignments, ``with`` items, ``for`` loops, ``return`` / ``yield`` / ``raise`` and ``except`` clauses;
a sweep in document order hands each to its handler with its innermost enclosing definition (lambdas
are definitions too, named ``<lambda>``: their calls are theirs, not the enclosing function's). The
expression helpers live in :mod:`._expr`. Decorators (read from their definition) and base classes are
evaluated in the enclosing scope, as Python does.

Every capture costs a few calls into tree-sitter's C objects, each of which builds a Python object, so
the handlers read each field once and the names of an all-ASCII file (most files) as slices of its text
(``self.src``); records are built positionally. The query pass itself (about a third of the time after
the parse) walks every node in C and is not ours to make cheaper.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from pathlib import Path

from ...parsers import _ts
from ...parsers._common import clip_signature, query_source
from ...parsers.records import Binding, Call, Import, ParsedFile, Relation, Symbol, TypeRef
from ._branches import if_clauses, mark_siblings
from ._constants import flush_constants, note_assignment
from ._delegates import DELEGATE_ATTR
from ._expr import (
    ANNOTATED,
    ANY_KEY,
    COMPREHENSIONS,
    alternatives,
    call_args,
    cast_type,
    docstring,
    dotted,
    each_path,
    first_arg,
    mark_branches,
    narrowings,
    pairs,
    result_bindings,
    text,
    type_names,
    unannotated,
    unpacked_call,
    value_path,
)
from ._handlers import except_clause
from ._iteration import comprehension_for, for_loop, made_from, with_item
from ._metaclass import METACLASS_ATTR, builds_classes, flush_sets, metaclass_of, on_call
from ._plugins import plugin_bindings
from ._slots import FILLS as _FILLS
from ._slots import filled, slots
from ._typechecking import note_stand_ins
from ._typeparams import class_type_params
from ._unpacking import starred
from ._versions import mark_dead_branch

LANGUAGE = "python"
# annotations that qualify a name without typing it
_BARE_QUALIFIERS = frozenset({"Final", "typing.Final", "t.Final", "typing_extensions.Final", "ClassVar",
                              "typing.ClassVar", "t.ClassVar"})
_QUERY = Path(__file__).with_name("python.scm")

_first = itemgetter(0)
# a definition's kind is cut from its capture name at run time rather than written as a literal: marshal
# (records.encode) writes an interned literal, shared between records, differently from a fresh string,
# and the stored records stay byte for byte what earlier versions of this extractor wrote
_DEF_FUNCTION, _DEF_CLASS = "def.function", "def.class"
# expressions whose value is one of several (``a or b``, ``a if c else b``), see alternatives()
_BRANCHING = frozenset({"parenthesized_expression", "boolean_operator", "conditional_expression"})
_UNPACKED = ("pattern_list", "tuple_pattern", "list_pattern")  # targets that unpack their value


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one Python file into plain records.

    Examples
    --------
    >>> pf = parse("pkg/m.py", b"def f():\\n    g()\\n", "pkg.m")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('pkg.m', 'module'), ('pkg.m.f', 'function')]
    >>> [(pf.symbols[c.caller].name, c.callee) for c in pf.calls]
    [('f', 'g')]
    """
    return _Extractor(path, source, module).run()


__all__ = ["dotted", "parse", "value_path"]


class _Extractor:
    def __init__(self, path: str, source: bytes, module: str) -> None:
        self.path, self.source, self.module = path, source, module
        # the text of an all-ASCII file (most): names are read as slices of it (see _expr.text)
        self.src: str | None = source.decode("ascii") if source.isascii() else None
        self.pf = ParsedFile(path=path, language=LANGUAGE, module=module)
        self.class_of: dict[int, int] = {}  # method local -> class local
        self.containers: set[tuple[int, str]] = set()  # (scope, name) bound to a literal container
        self.mappings: set[tuple[int, str]] = set()  # those of them that are dicts (a loop reads keys)
        self.branches: list[tuple[int, int, int]] = []  # (scope, first line, last line) of if/try blocks
        self.ifs: list = []  # (scope, if_clauses) of if statements with an elif / else
        self.metaclasses: set[int] = set()  # class locals deriving from ``type`` (see _metaclass)
        self.setters: set[tuple[int, str]] = set()
        self.pending_sets: list[tuple] = []
        self.fallbacks: set[int] = set()  # start bytes of an import's fallback definitions (_handlers)
        self.typevars: frozenset[str] | None = None  # names bound by TypeVar(...) here (_typeparams)
        self.assigned: dict = {}  # (scope, name) -> assignments; self.literals: -> literal (_constants)
        self.literals: dict = {}
        self.stand_ins: set[tuple[int, str]] = set()  # run-time stand-ins of TYPE_CHECKING imports

    # -- records -------------------------------------------------------------------------------
    def run(self) -> ParsedFile:
        tree = _ts.parse(LANGUAGE, self.source)
        root = tree.root_node
        self.pf.syntax_errors = _ts.count_errors(tree)
        n_lines = self.source.count(b"\n") + 1
        name = self.module.rsplit(".", 1)[-1]
        self.pf.symbols.append(
            Symbol(
                name=name,
                qualified_name=self.module,
                kind="module",
                parent=None,
                start_line=1,
                end_line=n_lines,
                docstring=docstring(root),
            )
        )
        caps = _ts.captures(_ts.query(LANGUAGE, query_source((_QUERY,))), root, ordered=False)
        # document order, outer nodes first on equal starts: one int key (start, then longer first); the
        # sort is stable, so nodes with equal spans keep the order of their capture names in ``caps``
        handlers: dict[str, Callable[[_ts.Node, int], int | None]] = {
            "def.function": self._function, "def.class": self._class, "def.lambda": self._lambda,
            "call": self._call, "import": self._import, "import_from": self._import_from,
            "assign": self._assign, "with_item": self._with_item, "except": self._except,
            "for": self._for, "comp_for": self._comp_for, "return": self._return, "yield": self._return, "raise": self._raise,
            "if": self._narrow, "elif": self._narrow, "assert": self._narrow, "branch": self._branch}
        items: list[tuple[int, int, int, Callable[[_ts.Node, int], int | None], _ts.Node]] = []
        append = items.append
        for cap, nodes in caps.items():
            handler = handlers[cap]
            for n in nodes:
                start, end = n.start_byte, n.end_byte
                append(((start << 32) - end, start, end, handler, n))
        items.sort(key=_first)
        # the open definitions, innermost last: where each ends and its local index
        ends, owners = [1 << 62], [0]
        owner = 0
        for _key, start, end, handler, node in items:
            if ends[-1] <= start:
                while ends[-1] <= start:
                    ends.pop()
                    owners.pop()
                owner = owners[-1]
            local = handler(node, owner)  # a definition returns its local: its captures nest inside it
            if local is not None:
                ends.append(end)
                owners.append(local)
                owner = local
        flush_sets(self)
        flush_constants(self)
        mark_branches(self.pf.bindings, self.branches)
        mark_siblings(self.pf.bindings, self.ifs)
        return self.pf

    def _function(self, node: _ts.Node, owner: int) -> int:
        return self._definition(node, owner, _DEF_FUNCTION[4:])

    def _class(self, node: _ts.Node, owner: int) -> int:
        return self._definition(node, owner, _DEF_CLASS[4:])

    def _definition(self, node: _ts.Node, owner: int, kind: str) -> int:
        symbols = self.pf.symbols
        sym_parent = symbols[owner]
        name = text(node.child_by_field_name("name"), self.src)
        body = node.child_by_field_name("body")
        up = node.parent
        decorated = up if up is not None and up.type == "decorated_definition" else None
        decorators: list[str] = []
        local = len(symbols)
        if decorated is not None:
            decos = [d for d in decorated.named_children if d.type == "decorator" and d.named_child_count]
            for i, d in enumerate(decos):
                # the decorator's argument: the definition with the decorators below this one applied
                below = len(decos) - 1 - i
                me = [f"<sym:{local}@{below}>" if below else f"<sym:{local}>"]
                expr = d.named_children[0]
                path = dotted(expr, self.src)
                decorators.append(path or text(expr, self.src))
                et = expr.type
                # a bare decorator is called at definition time, in the enclosing scope; @factory(...):
                # what the factory returns is called with the definition
                if et in ("identifier", "attribute") or (et == "call" and path and "<" not in path):
                    row, col = expr.start_point
                    # its own string, not the one in ``decorators``: see _DEF_FUNCTION on the stored bytes
                    self.pf.calls.append(Call(owner, dotted(expr, self.src), row + 1, col, "decorator", me))
        if kind == "function" and sym_parent.kind == "class":
            kind = "method"
        header_end = body.start_byte if body is not None else node.end_byte
        signature = self.source[node.start_byte : header_end].decode("utf-8", "replace").strip().rstrip(":")
        signature = clip_signature(" ".join(signature.split()))
        row, col = (decorated or node).start_point
        end_row, end_col = node.end_point
        exported = not name.startswith("_") or (name.startswith("__") and name.endswith("__"))
        # positional: the constructor of a record is a hot path (40,000 definitions on Django)
        sym = Symbol(name, f"{sym_parent.qualified_name}.{name}", kind, owner, row + 1, end_row + 1, col, end_col,
                     signature, docstring(body), [], "", decorators, exported)
        if self.fallbacks and (decorated or node).start_byte in self.fallbacks:
            sym.condition = "0"  # bound only when the import it stands in for fails
        symbols.append(sym)
        if kind == "class":
            supers = node.child_by_field_name("superclasses")
            meta = metaclass_of(supers, self.src)
            if meta:  # class C(metaclass=M): as Python 2 wrote it, __metaclass__ = M (inherited)
                self.pf.bindings.append(Binding(local, f"self.{METACLASS_ATTR}", row + 1, alias_of=meta))
            if builds_classes(supers, self.src):
                self.metaclasses.add(local)
            if supers is not None:
                class_type_params(self, local, supers, row + 1)
                for arg in supers.named_children:
                    if arg.type == "keyword_argument":
                        continue
                    if arg.type == "subscript":  # a generic base, Field[str] or Generic[T]: its origin class
                        arg = arg.child_by_field_name("value") or arg
                    elif arg.type == "call":
                        made = made_from(arg, self.src)
                        if made:  # Manager(BaseManager.from_queryset(QuerySet)): both classes' methods
                            for base in made:
                                self.pf.relations.append(Relation(local, base, "extends", arg.start_point[0] + 1))
                            # the copied methods run on an instance of the copied class (_delegates.py)
                            self.pf.bindings.append(Binding(local, f"self.{DELEGATE_ATTR}", row + 1, alias_of=made[-1]))
                            continue
                    base = dotted(arg, self.src)
                    if base and "<" not in base:
                        self.pf.relations.append(Relation(local, base, "extends", arg.start_point[0] + 1))
        else:
            if sym_parent.kind == "class":
                self.class_of[local] = owner
            self._params(node, local, sym)
        return local

    def _lambda(self, node: _ts.Node, owner: int) -> int:
        """``lambda a: body``: a function named ``<lambda>`` in the enclosing scope, returning its body."""
        parent = self.pf.symbols[owner]
        body = node.child_by_field_name("body")
        header_end = body.start_byte if body is not None else node.end_byte
        signature = " ".join(self.source[node.start_byte : header_end].decode("utf-8", "replace").split())
        sym = Symbol(
            name="<lambda>",
            qualified_name=f"{parent.qualified_name}.<lambda>",
            kind="function",
            parent=owner,
            start_line=node.start_point[0] + 1,
            end_line=node.end_point[0] + 1,
            start_col=node.start_point[1],
            end_col=node.end_point[1],
            signature=clip_signature(signature.rstrip(":")),
            exported=False,
        )
        local = len(self.pf.symbols)
        self.pf.symbols.append(sym)
        self._params(node, local, sym)
        if body is not None:
            self.pf.bindings += result_bindings(local, body, body.start_point[0] + 1, self.src, "<return>")
        return local

    def _params(self, node: _ts.Node, local: int, sym: Symbol) -> None:
        params = node.child_by_field_name("parameters")
        defaults: list[str] = []
        if params is not None:
            for p in params.named_children:
                t = p.type
                pname, ptype = "", None
                if t == "identifier":
                    pname = text(p, self.src)
                elif t == "typed_parameter":
                    kids = p.named_children
                    ident = next((c for c in kids if c.type == "identifier"), None)
                    pname = text(ident, self.src)
                    ptype = p.child_by_field_name("type")
                    if ident is None:  # *args: T / **kw: T
                        inner = kids[0] if kids else None
                        pname = text(inner, self.src).lstrip("*")
                elif t in ("default_parameter", "typed_default_parameter"):
                    pname = text(p.child_by_field_name("name"), self.src)
                    ptype = p.child_by_field_name("type")
                    default = value_path(p.child_by_field_name("value"), self.src)
                    if default:
                        defaults.append(f"{pname}={default}")
                elif t in ("list_splat_pattern", "dictionary_splat_pattern"):
                    pname = text(p, self.src).lstrip("*")
                else:
                    continue
                annotation = text(ptype, self.src) if ptype is not None else ""
                if annotation.startswith(ANNOTATED):
                    annotation = unannotated(ptype, self.src)  # type: ignore[arg-type]
                sym.params.append((pname, annotation))
                for tname, tnode, _primary in type_names(ptype):
                    self.pf.type_refs.append(
                        TypeRef(local, tname, "param", tnode.start_point[0] + 1, tnode.start_point[1])
                    )
        if defaults:  # defaults are arguments the definition gives, evaluated in the enclosing scope
            self.pf.calls.append(Call(local, "<self>", sym.start_line, sym.start_col, "default", defaults))
        ret = node.child_by_field_name("return_type")
        if ret is not None:
            sym.return_type = text(ret, self.src)
            for tname, tnode, _primary in type_names(ret):
                self.pf.type_refs.append(TypeRef(local, tname, "return", tnode.start_point[0] + 1, tnode.start_point[1]))

    def _call(self, node: _ts.Node, owner: int) -> None:
        callee = dotted(node.child_by_field_name("function"), self.src)
        if not callee:
            return
        row, col = node.start_point
        line = row + 1
        args = node.child_by_field_name("arguments")
        passed = call_args(args, self.src)
        if not passed and "[" in callee and args is not None and args.named_child_count:
            passed = [""]  # ls[k](x + 1): arguments, none named (``[]`` says none: lore.index._keys_params)
        self.pf.calls.append(Call(owner, callee, line, col, "call", passed))
        if owner in self.class_of and self.class_of[owner] in self.metaclasses:
            on_call(self, owner, callee, args, line)
        if callee.endswith(_FILLS):
            filled(self, owner, callee, args, line)
        if callee in ("isinstance", "issubclass"):
            if args is not None and args.named_child_count >= 2:
                target = args.named_children[1]
                nodes = target.named_children if target.type == "tuple" else [target]
                for t in nodes:
                    name = dotted(t, self.src)
                    if name and "<" not in name and "(" not in name:
                        self.pf.type_refs.append(TypeRef(owner, name, "isinstance", t.start_point[0] + 1, t.start_point[1]))

    def _import(self, node: _ts.Node, owner: int) -> None:
        line = node.start_point[0] + 1
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                mod = text(child.child_by_field_name("name"), self.src)
                alias = text(child.child_by_field_name("alias"), self.src)
                self.pf.imports.append(Import(owner, mod, line, None, alias))
            else:
                self.pf.imports.append(Import(owner, text(child, self.src), line, None, None))

    def _import_from(self, node: _ts.Node, owner: int) -> None:
        line = node.start_point[0] + 1
        mod_node = node.child_by_field_name("module_name")
        level, module = 0, ""
        if mod_node is not None:
            if mod_node.type == "relative_import":
                for c in mod_node.children:
                    if c.type == "import_prefix":
                        level = text(c, self.src).count(".")
                    elif c.type == "dotted_name":
                        module = text(c, self.src)
            else:
                module = text(mod_node, self.src)
        names = node.children_by_field_name("name")
        if any(c.type == "wildcard_import" for c in node.children):
            self.pf.imports.append(Import(owner, module, line, "*", None, level))
            return
        for child in names:
            if child.type == "aliased_import":
                name = text(child.child_by_field_name("name"), self.src)
                alias = text(child.child_by_field_name("alias"), self.src)
            else:
                name, alias = text(child, self.src), None
            self.pf.imports.append(Import(owner, module, line, name, alias, level))

    def _assign(self, node: _ts.Node, owner: int) -> None:
        left = node.child_by_field_name("left")
        if left is None:
            return
        right = node.child_by_field_name("right")
        type_node = node.child_by_field_name("type")
        while right is not None and right.type == "assignment":  # a = b = f: every target gets f
            right = right.child_by_field_name("right")
        line = left.start_point[0] + 1
        lt = left.type
        if lt in _UNPACKED or lt == "parenthesized_expression":
            got = pairs(left, right)
            for target, value in got:
                self._bind(owner, target, value, type_node if target is left else None, line)
            if right is not None and right.type == "await" and right.named_child_count == 1:
                right = right.named_children[0]  # a, b = await f(): what f gives
            if not got and right is not None and right.type == "call":  # a, b = f(): what f returns, by position
                self.pf.bindings += unpacked_call(owner, left, right, line, self.src)
            starred(self, owner, left, right, line)
        else:  # one target (most assignments): what pairs() would give, without its checks
            self._bind(owner, left, right, type_node, line)

    def _bind(self, owner: int, target: _ts.Node, right: _ts.Node | None, type_node: _ts.Node | None,
              line: int) -> None:
        """Record what ``target = right`` binds (one target; tuple unpacking is split by :func:`_pairs`)."""
        owner_sym = self.pf.symbols[owner]
        name = dotted(target, self.src)
        if not name or "<" in name or "(" in name or self.stand_ins and (line, name) in self.stand_ins:
            return
        if "[*" in name:  # d[k] = f: any slot (the key read as a name only counts for reads)
            name = ANY_KEY.sub("[*]", name)
        elif "." not in name and "[" not in name:
            note_assignment(self, owner, name, right, line)
        if type_node is not None and right is not None and text(type_node, self.src) in _BARE_QUALIFIERS:
            type_node = None  # ``self.hook: Final = HookRelay()``: the qualifier names no type; the value does
        bind_owner = owner
        if name.startswith("self.") and name.count(".") == 1 and owner in self.class_of:
            bind_owner = self.class_of[owner]  # attributes belong to the class
        elif owner_sym.kind == "class" and "." not in name and "[" not in name:
            # class-level attribute: visible as self.name in methods
            self._class_attr(owner, name, type_node, right, line)
        if "." in name and not name.startswith("self."):
            if name.count(".") == 1 and "[" not in name and right is not None and type_node is None \
                    and self.pf.symbols[owner].kind in ("function", "method", "module"):
                # obj.attr = f: read back as obj.attr in the same scope (what obj is stays the resolver's)
                src = value_path(right, self.src) if right.type != "call" else ""
                if src:
                    self.pf.bindings.append(Binding(owner, name, line, alias_of=src))
            return
        scope = owner if bind_owner != owner else None
        if type_node is not None:
            ann = text(type_node, self.src)
            self.pf.bindings.append(Binding(bind_owner, name, line, annotation=ann, scope=scope))
            kind = "field" if name.startswith("self.") else "annotation"
            ref_owner = bind_owner if kind == "field" else owner
            for tname, tnode, _p in type_names(type_node):
                self.pf.type_refs.append(TypeRef(ref_owner, tname, kind, tnode.start_point[0] + 1, tnode.start_point[1]))
        elif right is not None:
            if right.type in _BRANCHING:
                for alt in alternatives(right):
                    self._bind_value(bind_owner, name, alt, line, scope)
            else:  # a single value: what alternatives() would give
                self._bind_value(bind_owner, name, right, line, scope)
        if owner_sym.kind == "module" and name == "__all__" and right is not None:
            self._all(right)
        elif owner_sym.kind == "module" and name == "pytest_plugins" and right is not None:
            self.pf.bindings += plugin_bindings(owner, right, line, self.src)

    def _bind_value(self, bind_owner: int, name: str, right: _ts.Node, line: int, scope: int | None) -> None:
        """The binding of ``name = right`` for one value the right side may have (several bindings of
        one name on one line are alternatives: the resolver takes their union)."""
        awaited = right.type == "await" and right.named_child_count == 1
        if awaited:  # x = await f(): what f gives; marked, for an awaitable object (lore.index._awaited)
            right = right.named_children[0]
        rt = right.type
        if rt == "call":
            callee = dotted(right.child_by_field_name("function"), self.src)
            if callee:
                # ``cast(T, v)``: the type it names rides along; the resolver uses it once the callee
                # proves to be typing.cast
                cast_to = cast_type(right) if callee == "cast" or callee.endswith(".cast") else ""
                self.pf.bindings.append(Binding(bind_owner, name, line, cast_to, callee, "", scope,
                                                arg=("<await>" if awaited else "") + first_arg(right, self.src)))
        elif rt in ("identifier", "attribute", "subscript", "lambda"):
            src = value_path(right, self.src)
            if src:
                self.pf.bindings.append(Binding(bind_owner, name, line, "", "", src, scope))
        elif rt in COMPREHENSIONS:  # [f(x) for x in xs]: a list of what f returns
            each = each_path(right, self.src)
            if each:
                self.pf.bindings.append(Binding(bind_owner, name, line, value=COMPREHENSIONS[rt], scope=scope, arg=each))
        elif rt in ("dictionary", "list", "tuple", "set") and "[" not in name and name.count(".") <= 1:
            slots(self, bind_owner, name, right, line, scope)
            if "." not in name:  # the container itself: a builtin dict / list / tuple / set
                kind = {"dictionary": "dict"}.get(rt, rt)
                self.pf.bindings.append(Binding(bind_owner, name, line, annotation=kind, scope=scope))

    def _class_attr(self, owner: int, name: str, type_node: _ts.Node | None, right: _ts.Node | None, line: int) -> None:
        if type_node is not None:
            self.pf.bindings.append(Binding(owner, f"self.{name}", line, annotation=text(type_node, self.src)))
            for tname, tnode, _p in type_names(type_node):
                self.pf.type_refs.append(TypeRef(owner, tname, "field", tnode.start_point[0] + 1, tnode.start_point[1]))
        elif right is not None and right.type == "call":
            callee = dotted(right.child_by_field_name("function"), self.src)
            if callee:
                self.pf.bindings.append(Binding(owner, f"self.{name}", line, value=callee))
        elif right is not None and right.type in ("identifier", "attribute", "lambda"):
            src = value_path(right, self.src)  # client_class = Client: the class attribute names a value
            if src:
                self.pf.bindings.append(Binding(owner, f"self.{name}", line, alias_of=src))

    def _all(self, right: _ts.Node) -> None:
        if right.type in ("list", "tuple"):
            self.pf.all_names = [text(el, self.src).strip("'\"") for el in right.named_children if el.type == "string"]

    def _with_item(self, node: _ts.Node, owner: int) -> None:
        with_item(self, node, owner)

    def _for(self, node: _ts.Node, owner: int) -> None:
        for_loop(self, node, owner)

    def _comp_for(self, node: _ts.Node, owner: int) -> None:
        comprehension_for(self, node, owner)

    def _branch(self, node: _ts.Node, owner: int) -> None:
        self.branches.append((owner, node.start_point[0] + 1, node.end_point[0] + 1))

    def _narrow(self, node: _ts.Node, owner: int) -> None:
        self.pf.bindings += narrowings(owner, node, self.src)
        if node.type == "if_statement" and (clauses := if_clauses(node)) is not None:
            self.ifs.append((owner, clauses))
            note_stand_ins(self, node)
            mark_dead_branch(self, node)

    def _return(self, node: _ts.Node, owner: int) -> None:
        """``return x`` / ``yield x`` in a function: ``<return>`` / ``<yield>`` bindings the resolver reads
        when the function has no return annotation (a pytest fixture gives what it yields)."""
        if self.pf.symbols[owner].kind not in ("function", "method"):
            return
        expr = node.named_child(0) if node.named_child_count else None
        if expr is None or expr.type == "none" or (node.type == "yield" and node.child(1).type == "from"):
            return  # a bare return or `return None`: the other returns say what comes back
        line = node.start_point[0] + 1
        self.pf.bindings += result_bindings(owner, expr, line, self.src, "<yield>" if node.type == "yield" else "<return>")

    def _raise(self, node: _ts.Node, owner: int) -> None:
        """``raise E`` (a class, not a call) instantiates ``E``: a call of kind ``raise``."""
        expr = node.named_child(0) if node.named_child_count else None
        if expr is None or expr.type not in ("identifier", "attribute"):
            return  # `raise E(...)` is captured as a call already
        path = dotted(expr, self.src)
        if path and "<" not in path:
            self.pf.calls.append(Call(owner, path, expr.start_point[0] + 1, expr.start_point[1], "raise"))

    def _except(self, node: _ts.Node, owner: int) -> None:
        except_clause(self, node, owner)

