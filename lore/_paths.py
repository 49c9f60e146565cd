"""Path safety: lore reads a source file only if it really lies under the repository root.

Indexed paths are relative to the root recorded in the index. A file swapped for a symlink that
points out of the repository (or a path that climbs out with ``..``) must never make lore print
what lies outside it: :func:`inside_root` resolves every symlink before it compares, and
:func:`symbol_with_source` withholds the snippet of such a file with a note instead. The CLI
(``lore show``) and the MCP server (``lore_symbol``) both read source through it.

It imports nothing from lore, so any layer may use it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

SOURCE_WITHHELD = "source withheld: the file resolves outside the repository root (a symlink)"


class _SymbolSource(Protocol):
    def symbol(self, ref: int | str, *, snippet_lines: int = 0) -> dict: ...


def inside_root(root: str | os.PathLike[str] | None, path: str | os.PathLike[str]) -> bool:
    """Whether ``root/path`` lies under ``root`` once every symlink is resolved.

    Parameters
    ----------
    root : str or path-like or None
        The repository root; ``None`` or empty (an index that does not know its root) is never safe.
    path : str or path-like
        A path relative to ``root`` (as stored in the index).

    Returns
    -------
    bool
        False as well when the path cannot be resolved (a symlink loop, a permission error).

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> inside_root(root, "pkg/mod.py"), inside_root(root, "../elsewhere.py"), inside_root(None, "x.py")
    (True, False, False)
    """
    if not root:
        return False
    base = Path(root).resolve()
    try:
        return (base / path).resolve().is_relative_to(base)
    except (OSError, RuntimeError):
        return False


def symbol_with_source(
    index: _SymbolSource, ref: int | str, *, snippet_lines: int, root: str | os.PathLike[str] | None
) -> dict[str, Any]:
    """The details of one symbol, with ``snippet_lines`` of its source only if its file is inside ``root``.

    Parameters
    ----------
    index : lore.api.Index
        An open index (anything with ``symbol(ref, snippet_lines=...)``).
    ref : int or str
        A symbol id or qualified name.
    snippet_lines : int
        Lines of source to include; 0 reads no file.
    root : str or path-like or None
        The repository root the index records (meta ``root``).

    Returns
    -------
    dict
        What ``index.symbol`` returns; for a file that resolves outside ``root``, ``snippet`` is
        ``None`` and ``note`` says why (the file is never opened).
    """
    out = index.symbol(ref)
    if snippet_lines > 0 and out.get("path"):
        if inside_root(root, out["path"]):
            out = index.symbol(out["id"], snippet_lines=snippet_lines)
        else:
            out["snippet"] = None
            out["note"] = SOURCE_WITHHELD
    return out
