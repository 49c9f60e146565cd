"""The basic tier's parser: definitions and call references of a grammar wheel's own ``queries/tags.scm``.

The tags query (the one GitHub's code navigation and aider's repo map read) names definitions
(``@definition.function``, ``@definition.class`` ...) and references (``@reference.call``), each with its
``@name``. Definitions nest by their byte ranges (a method inside its class); a call reference belongs to
the innermost definition around it, and records the name alone: what it binds to is decided by name only.
"""

from __future__ import annotations

from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile

# tags.scm definition kinds -> lore symbol kinds (variables, constants, modules and fields are not symbols here)
KINDS = {"function": "function", "method": "function", "class": "class", "interface": "interface",
         "enum": "enum", "object": "class", "type": "type_alias", "struct": "struct", "trait": "trait"}


class TagsExtractor(Extractor):
    """Records of one file from a tags query (``grammar`` and ``tags_file`` set per language)."""

    tags_file: Path = Path()

    def compiled_query(self) -> _ts.Query:
        return _ts.query(self.grammar, self.tags_file.read_text(encoding="utf-8"))

    def run(self) -> ParsedFile:
        n_lines = self.source.count(b"\n") + 1
        from ...parsers.records import Symbol

        self.pf.symbols.append(Symbol(self.module.rsplit(".", 1)[-1], self.module, "module", None, 1, n_lines))
        try:
            tree = _ts.parse(self.grammar, self.source)
            self.pf.syntax_errors = _ts.count_errors(tree)
            found = _ts.matches(self.compiled_query(), tree.root_node)
        except Exception:  # never raise on input the grammar cannot take
            if self.strict:
                raise
            self.pf.syntax_errors = max(self.pf.syntax_errors, 1)
            return self.pf
        defs: list[tuple[int, int, str, _ts.Node, _ts.Node]] = []
        refs: list[tuple[_ts.Node, _ts.Node]] = []
        for _pattern, caps in found:
            names = caps.get("name") or []
            if not names:
                continue
            for cap, nodes in caps.items():
                if cap.startswith("definition.") and KINDS.get(cap[11:]):
                    for n in nodes:
                        end = n.end_byte
                        body = n.next_named_sibling  # a tag on a signature alone (Dart): its body follows it
                        if body is not None and body.type == "function_body":
                            end = body.end_byte
                        defs.append((n.start_byte, -end, KINDS[cap[11:]], n, names[0]))
                elif cap == "reference.call":
                    for n in nodes:
                        refs.append((n, names[0]))
        defs.sort(key=lambda d: (d[0], d[1]))
        spans: list[tuple[int, int, int]] = []  # (start, end, local)
        stack: list[tuple[int, int]] = [(1 << 62, 0)]
        # a name node is one definition: the outermost pattern that names it (Dart's method_signature holds a
        # function_signature, and both are tagged), and a reference at a definition's own name is its head, not
        # a call (Elixir's `def price(item)` is a call node; a self-edge from every definition would be wrong)
        named: set[tuple[int, int]] = set()
        for start, neg_end, kind, node, name_node in defs:
            key = (name_node.start_byte, name_node.end_byte)
            if key in named:
                continue
            named.add(key)
            while stack[-1][0] <= start:
                stack.pop()
            name = self.text(name_node)
            if not name:
                continue
            local = self.add_symbol(node, stack[-1][1], name, kind, doc_node=node)
            if -neg_end > node.end_byte:  # the body after a tagged signature belongs to it
                body = node.next_named_sibling
                if body is not None:
                    self.pf.symbols[local].end_line = body.end_point[0] + 1
                    self.pf.symbols[local].end_col = body.end_point[1]
            stack.append((-neg_end, local))
            spans.append((start, -neg_end, local))
        for node, name_node in sorted(refs, key=lambda r: r[0].start_byte):
            if (name_node.start_byte, name_node.end_byte) in named:
                continue
            owner = 0
            for start, end, local in spans:  # the innermost definition around the reference
                if start <= node.start_byte and node.end_byte <= end:
                    owner = local
            self.add_call(owner, self.text(name_node), node)
        return self.pf


def make_parser(language: str, grammar: str, tags_file: Path):
    """``parse(path, source, module)`` for one basic-tier language."""
    extractor = type(f"{language.title()}TagsExtractor", (TagsExtractor,),
                     {"language": language, "grammar": grammar, "tags_file": tags_file})

    def parse(path: str, source: bytes, module: str) -> ParsedFile:
        return extractor(path, source, module).run()

    return parse
