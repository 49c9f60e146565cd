"""Object literals that name things, for the JavaScript extractor.

``const api = { get() {}, put: () => ... }`` and ``module.exports = {...}`` hold their functions;
``export const Jwt = { sign, verify }`` and ``const z = { ..._schemas }`` (a spread of ``import * as
_schemas``) are namespaces of the names they hold; ``this.m()`` in a function of such a literal
calls the literal's ``m``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...parsers import _ts
from ._nodes import FUNCTION_VALUES
from ._nodes import key as _key

RETURNED = "<return>"  # the name of the object literal a function returns: ``make.<return>.find``
_FUNCTION_NODES = FUNCTION_VALUES | {"function_declaration", "generator_function_declaration", "method_definition"}

if TYPE_CHECKING:
    from ...parsers._common import Extractor as _Base
else:
    _Base = object


class LiteralMixin(_Base):
    """The object-literal handlers of :class:`~lore.languages.javascript._parser.JsExtractor`."""

    if TYPE_CHECKING:  # what the extractor provides
        literals: dict[tuple[int, int], int]
        named: dict[tuple[int, str], int]
        literal_funcs: set[int]
        typed_literals: set[int]
        this_calls: list[tuple[int, int]]

        def dotted(self, node: _ts.Node | None) -> str: ...
        def _function(self, node: _ts.Node, owner: int, name: str, kind: str, fn: _ts.Node,
                      span: _ts.Node | None = None) -> int: ...

    def _this_of_literals(self) -> None:
        """``this.get()`` in a function of ``module.exports = { get() {}, ... }`` (or ``const api = {...}``)
        calls the literal's ``get``: written ``get`` (the module holds it) or ``api.get``. Only for names
        the literal has; other ``this.x`` stay as written."""
        if not self.this_calls:
            return
        members: dict[int, set[str]] = {}
        for s in self.pf.symbols:
            if s.parent is not None:
                members.setdefault(s.parent, set()).add(s.name)
        for i, fn in self.this_calls:
            call = self.pf.calls[i]
            holder = self.pf.symbols[fn].parent
            rest = call.callee[5:]
            if holder is None or holder in self.typed_literals or rest.split(".", 1)[0].rstrip("()") not in members.get(holder, ()):
                continue
            hsym = self.pf.symbols[holder]
            head = hsym.name if hsym.name != RETURNED else f"<sym:{holder}>"  # the returned literal has no name
            call.callee = rest if hsym.kind == "module" else f"{head}.{rest}"

    def returned_literal(self, owner: int, at: _ts.Node, obj: _ts.Node) -> bool:
        """``return { async find(id) {...}, create: (x) => ... }``: the literal becomes the namespace
        ``<return>`` of function ``owner`` holding its functions, and what the function returns; only when it
        is the function's one ``return`` of an object literal (two literals would be two values of one name)."""
        fn: _ts.Node | None = at
        while fn is not None and fn.type not in _FUNCTION_NODES:
            fn = fn.parent
        nested = self._nested_functions(owner, obj)
        if fn is None or not (nested or self._has_functions(obj)) or self._literal_returns(fn) != 1 or names_a_key(obj):
            return False
        local = self.add_symbol(obj, owner, RETURNED, "namespace", body=obj, doc_node=obj)
        first = next((c for c in obj.named_children if c.type != "comment"), None)
        if first is not None:  # ``=> ({\n get() {...}``: the function's first line keeps meaning the function
            sym = self.pf.symbols[local]  # (what stands at a line is its innermost definition)
            sym.start_line, sym.start_col = first.start_point[0] + 1, first.start_point[1]
        for c, target in nested:  # return { handler, createConfig }: the functions declared in the function
            self.add_binding(local, self.text(c), c, alias_of=f"<sym:{target}>")
        self.named.setdefault((owner, RETURNED), local)
        self.literals[_key(obj)] = local
        holder = fn.parent  # ``$with: WithBuilder = (a) => { ...; return { as } }``: typed by the field's type
        declared = holder is not None and holder.type in ("public_field_definition", "variable_declarator") \
            and holder.child_by_field_name("value") == fn and holder.child_by_field_name("type") is not None
        if fn.child_by_field_name("return_type") is not None or declared:
            # ``): RouterBase {`` (or ``): { record(): void } {``): what the function gives, and ``this`` in
            # the literal, is of the declared type (TypeScript's contextual type), as callers see it
            self.typed_literals.add(local)
            return True
        self.add_binding(owner, "<return>", at, alias_of=f"<sym:{local}>")  # a name lookup skips ``<...>``
        return True

    def _literal_returns(self, fn: _ts.Node) -> int:
        """How many ``return {...}`` (or an arrow's ``({...})`` body) function ``fn`` has, closures' not counted."""
        body = fn.child_by_field_name("body")
        if body is None:
            return 0
        if body.type != "statement_block":
            return 1 if _unwrapped(body).type == "object" else 0
        count, todo = 0, list(body.named_children)
        while todo:
            n = todo.pop()
            if n.type in _FUNCTION_NODES or n.type in ("class_declaration", "class"):
                continue
            if n.type == "return_statement":
                count += bool(n.named_child_count and _unwrapped(n.named_children[0]).type == "object")
            todo.extend(n.named_children)
        return count

    def _nested_functions(self, owner: int, obj: _ts.Node) -> list[tuple[_ts.Node, int]]:
        """The shorthand members of a returned literal that name a function declared in function ``owner``
        (``function make() { function handler() {} return { handler, store } }``: ``handler``) with that
        function's symbol; a name of a parameter, a variable or an outer function is none."""
        got = []
        for c in obj.named_children:
            if c.type == "shorthand_property_identifier":
                local = self.named.get((owner, self.text(c)))
                if local is not None and self.pf.symbols[local].kind == "function" \
                        and self.pf.symbols[local].parent == owner:
                    got.append((c, local))
        return got

    def _has_functions(self, obj: _ts.Node) -> bool:
        for c in obj.named_children:
            if c.type == "method_definition":
                return True
            if c.type == "pair":
                v = c.child_by_field_name("value")
                if v is not None and v.type in FUNCTION_VALUES:
                    return True
        return False

    def _is_name_table(self, obj: _ts.Node, owner: int) -> bool:
        """A module-level literal made of names only (``{ sign, verify, check: verify }``), at least one of
        them a function or an import of the module: a namespace its users call members of."""
        if self.pf.symbols[owner].kind != "module" or not obj.named_child_count:
            return False
        known = {i.alias or i.name for i in self.pf.imports if i.owner == owner and i.name != "*"}
        hit = False
        for c in obj.named_children:
            if c.type == "shorthand_property_identifier":
                ref = self.text(c)
            elif c.type == "pair" and (v := c.child_by_field_name("value")) is not None and v.type == "identifier":
                ref = self.text(v)
            elif c.type == "comment":
                continue
            elif c.type == "spread_element" and self._spread_module(c, owner):
                hit = True
                continue
            else:
                return False
            got = self.named.get((owner, ref))
            hit = hit or ref in known or (got is not None and self.pf.symbols[got].kind in ("function", "class"))
        return hit

    def _spread_module(self, spread: _ts.Node, owner: int) -> str:
        """``'./schemas.js'`` of ``..._schemas`` where ``import * as _schemas from './schemas.js'`` (else ``''``)."""
        arg = spread.named_children[0] if spread.named_child_count else None
        if arg is None or arg.type != "identifier":
            return ""
        ref = self.text(arg)
        for i in self.pf.imports:
            if i.owner == owner and i.alias == ref and i.name is None:
                return i.module
        return ""

    def on_pair(self, node: _ts.Node, owner: int) -> int | None:
        """``key: function () {}`` / ``key: other`` inside an object literal that lore names."""
        holder = self.literals.get(_key(node.parent)) if node.parent is not None else None
        if holder is None:
            return None
        key = self.text(node.child_by_field_name("key")).strip("'\"")
        value = node.child_by_field_name("value")
        if not key or value is None:
            return None
        if value.type in FUNCTION_VALUES:
            local = self._function(value, holder, key, "function", value, span=node)
            if value.type != "arrow_function":  # an arrow's ``this`` is the enclosing one
                self.literal_funcs.add(local)
            return local
        target = self.dotted(value)
        if target and target != key and "<" not in target and "(" not in target:
            self.add_binding(holder, key, node, alias_of=target)
        return None


def _unwrapped(expr: _ts.Node) -> _ts.Node:
    """The value under ``(x)``, ``x as T``, ``x satisfies T`` and ``x!``."""
    while expr.type in ("parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression") \
            and expr.named_child_count:
        expr = expr.named_children[0]
    return expr


def names_a_key(obj: _ts.Node, *, called: bool = False) -> bool:
    """Whether a function of literal ``obj`` names one of its keys as a bare name (``{ fetch(u) { return
    fetch(u) } }``, ``{ route() {}, handle() { for (const route of rs) route.run() } }``): JavaScript's
    scopes hold no keys, so that name is an outer or a local one, but the resolver would find the sibling
    in the literal's scope first; such a literal is not made a namespace. ``called``: only a bare call of a
    key counts (``fetch()``: the sibling would be a sure wrong edge, a self-loop), not a read (``wss.close()``
    of an outer ``wss`` beside a getter ``wss``), so that a ``const`` literal's methods stay reachable."""
    keys = set()
    for c in obj.named_children:
        name = c.child_by_field_name("name") if c.type == "method_definition" else \
            c.child_by_field_name("key") if c.type == "pair" else None
        if name is not None:
            keys.add(_ts.text(name).strip("'\""))
    todo = [c for c in obj.named_children if c.type == "method_definition"]  # the functions only: a pair's
    todo += [v for c in obj.named_children if c.type == "pair" and (v := c.child_by_field_name("value")) is not None
             and v.type in FUNCTION_VALUES]  # ``check: check`` of a name table names the outer one by design
    while todo:
        n = todo.pop()
        if n.type == "identifier" and _ts.text(n) in keys and (not called or n.parent is not None and (
                n.parent.type == "call_expression" and n.parent.child_by_field_name("function") == n
                or n.parent.type == "new_expression")):
            return True
        todo.extend(n.named_children)
    return False
