"""Keep code vectors in step with the index: called by :func:`lore.api.index_repo` around every run.

Code vectors are opt-in (``lore index --embed``): an index without them pays nothing here but one
meta lookup. An index with them gets them refreshed after every run that changed code, embedding
only the symbols of the files that run wrote; after a rebuild (``--rebuild`` or a schema change)
they are made again with the same model. Only sqlite is imported unless there is work to do.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from ..errors import LoreError, MissingExtraError
from ..store import search as store
from ..store.db import connect


def stored_vector_models(db: str | os.PathLike[str]) -> dict[str, int | None]:
    """model -> generation of its last refresh for the code vectors in the index at ``db``.

    Empty when there is no index yet, or one that cannot be read (it is about to be rebuilt).
    """
    path = Path(db)
    if not path.is_file():
        return {}
    try:
        conn = connect(path, readonly=True)
    except (LoreError, sqlite3.Error):
        return {}
    try:
        return store.vector_model_generations(conn)
    except sqlite3.Error:
        return {}
    finally:
        conn.close()


def refresh_after_index(report: Any, before: dict[str, int | None]) -> list[dict[str, Any]]:
    """Refresh (or, after a rebuild, remake) the code vectors of every model the index held ``before``.

    ``report`` is the :class:`~lore.index.IndexReport` of the run. Models whose vectors are already
    up to date with ``report.generation`` are skipped, so a no-change ``lore index`` costs nothing.
    A model whose provider is not installed (MiniLM without the extra) is left as it is: search
    then ranks the changed symbols by keywords only and says so. Returns one summary per model
    refreshed (see :func:`lore.search.api.build_code_vectors`); the time goes to
    ``report.seconds["code_vectors"]``.
    """
    if not before:
        return []
    now = stored_vector_models(report.db)
    todo = [m for m in before if now.get(m) is None or now[m] < report.generation]
    if not todo:
        return []
    from .api import build_code_vectors

    out = []
    for model in todo:
        try:
            # a rebuild starts over (every symbol new); otherwise only the rewritten files
            out.append(build_code_vectors(report.db, embedder=model, full=False))
        except MissingExtraError:
            continue
    if out:
        report.seconds["code_vectors"] = round(sum(r["seconds"] for r in out), 3)
    return out
