"""TypeScript and TSX: the JavaScript extractor plus types.

Adds interfaces, type aliases, enums and namespaces as symbols; parameter, return, field and
variable annotations as type references (generic arguments too) and as the declared types the
resolver uses for receivers (``repo: Repo`` then ``repo.save()``); ``implements`` relations;
constructor parameter properties (``constructor(private repo: Repo)``) as fields of the class.
Annotations are stored as their primary type name (``Promise<User>`` -> ``User``).
``.tsx`` files use the ``tsx`` grammar with the same query.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers.records import ParsedFile
from ..javascript._parser import JSX_QUERY, JsExtractor

GRAMMAR = "tree_sitter_typescript:language_typescript"
TSX_GRAMMAR = "tree_sitter_typescript:language_tsx"
TS_QUERY = Path(__file__).with_name("typescript.scm")
TYPE_NAME_NODES = frozenset({"type_identifier", "nested_type_identifier"})
PRIMITIVES = frozenset({"string", "number", "boolean", "any", "unknown", "void", "never", "object", "undefined",
                        "null", "bigint", "symbol", "Array", "Record", "Map", "Set", "Function", "Object"})


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one TypeScript (``.ts``) or TSX (``.tsx``) file into plain records.

    Examples
    --------
    >>> pf = parse("a.ts", b"interface I { m(): void }\\nclass A implements I { m(): void {} }\\n", "a")
    >>> [(s.qualified_name, s.kind) for s in pf.symbols]
    [('a', 'module'), ('a.I', 'interface'), ('a.I.m', 'method'), ('a.A', 'class'), ('a.A.m', 'method')]
    >>> [(r.target, r.kind) for r in pf.relations]
    [('I', 'implements')]
    """
    ex = TsExtractor(path, source, module)
    if path.lower().endswith(".tsx"):
        ex.grammar = TSX_GRAMMAR
        ex.language = ex.pf.language = "tsx"
        ex.query_files = (TS_QUERY, JSX_QUERY)
    return ex.run()


class TsExtractor(JsExtractor):
    language = "typescript"
    grammar = GRAMMAR
    query_files: tuple[Path, ...] = (TS_QUERY,)
    type_name_nodes = TYPE_NAME_NODES
    primitive_names = PRIMITIVES

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        if kind == "interface":
            return self._class(node, owner, "interface")
        if kind in ("type_alias", "enum", "namespace"):
            name = self.text(node.child_by_field_name("name"))
            if not name:
                return None
            body = node.child_by_field_name("body")
            local = self.add_symbol(node, owner, name, kind, body=body, doc_node=self._doc_anchor(node),
                                    exported=self._exported(node, owner))
            self.named.setdefault((owner, name), local)
            if kind == "type_alias":
                self.declare_type_params(local, node.child_by_field_name("type_parameters"))
                self.add_types(local, node.child_by_field_name("value"), "annotation")
            return local
        if node.type in ("function_signature", "method_signature") and self._overload(node):
            return None
        return super().define(node, owner, kind)

    def _overload(self, node: _ts.Node) -> bool:
        """An overload signature followed by the implementation of the same name: the implementation stands for both."""
        name = self.text(node.child_by_field_name("name"))
        anchor = node.parent if node.parent is not None and node.parent.type == "export_statement" else node
        sib = anchor.next_named_sibling
        while sib is not None:
            item = sib.child_by_field_name("declaration") if sib.type == "export_statement" else sib
            if item is None or item.type in ("comment",):
                sib = sib.next_named_sibling
                continue
            if self.text(item.child_by_field_name("name")) != name:
                return False
            if item.type in ("function_declaration", "method_definition", "generator_function_declaration"):
                return True
            if item.type not in ("function_signature", "method_signature"):
                return False
            sib = sib.next_named_sibling
        return False

    def _class_of(self, owner: int) -> int | None:
        if self.pf.symbols[owner].kind == "interface":
            return owner
        return super()._class_of(owner)
