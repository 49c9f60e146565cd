"""C: tree-sitter -> :class:`~lore.parsers.records.ParsedFile`.

The extractor lives in :mod:`._extract` (C++'s builds on it); a ``.h`` file that looks like C++
(classes, namespaces, templates) is read with the C++ extractor and recorded as C.
"""

from __future__ import annotations

from ...parsers import _ts
from ...parsers.records import ParsedFile
from ..cpp._parser import CppExtractor
from ..cpp._source import cpp_source
from ._asm_blocks import blank_asm_blocks
from ._extract import CExtractor, looks_cpp
from ._macro_names import pasted_definitions
from ._macros import blank_macro_noise, c_statement_macros, flatten_conditionals

__all__ = ["parse"]


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """Parse one C file into plain records.

    Examples
    --------
    >>> src = b"int twice(int a);\\nstruct P { int x; };\\nint main(void) { return twice(1); }\\n"
    >>> pf = parse("m.c", src, "m")
    >>> [(s.qualified_name, s.kind, s.is_declaration) for s in pf.symbols]
    [('m', 'module', False), ('m.P', 'struct', False), ('m.main', 'function', False), ('m.twice', 'function', True)]
    >>> [c.callee for c in pf.calls]
    ['twice']
    """
    source = blank_macro_noise(blank_asm_blocks(source))
    if path.endswith(".h") and looks_cpp(source[:200_000]):
        ex = CppExtractor(path, cpp_source(source), module)  # a C++ header named .h: the C grammar would misread it
        ex.language = ex.pf.language = "c"
        return ex.run()
    written = pasted_definitions(source)  # before the uses that write them are blanked as statements
    source = c_statement_macros(source)
    first = CExtractor(path, source, module)
    first.written = written
    try:
        first.tree = _ts.parse("c", source)
    except Exception:  # the extractor reports what the grammar cannot take (one syntax error), as before
        return first.run()
    pf = first.run()
    if pf.syntax_errors and b"#" in source:  # a build reads one branch of each #if: the parse may need that too
        flat = flatten_conditionals(source)
        if flat != source:
            flat_tree = _ts.parse("c", flat)
            errors = _ts.count_errors(flat_tree)
            # a reading without errors first; else the one that finds more definitions (zlib's inflate.c keeps its
            # 700-line inflate() only with one branch of each #if inside it, at more error nodes), then fewer errors
            mine, theirs = _definitions(first.tree.root_node), _definitions(flat_tree.root_node)
            if errors == 0 or (theirs, -errors) > (mine, -pf.syntax_errors):
                retry = CExtractor(path, flat, module)
                retry.written = written
                retry.tree = flat_tree  # parsed once: the error count above and the extraction read the same tree
                pf = retry.run()
    return pf


def _definitions(node: _ts.Node, depth: int = 0) -> int:
    """Function definitions at the top of a tree, in its preprocessor blocks and error nodes included."""
    n = 0
    for child in node.children:
        if child.type == "function_definition":
            n += 1
        elif depth < 8 and (child.type.startswith("preproc_") or child.type in ("ERROR", "linkage_specification",
                                                                                 "declaration_list")):
            n += _definitions(child, depth + 1)
    return n
