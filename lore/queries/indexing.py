"""The steps that keep the rest of an index in step with a run of the code indexer.

:func:`lore.index.pipeline.run_index` runs the code part (and carries the documents across a
rebuild); it knows nothing of the document and search packages above it, so the facade hands it
these steps. A step is called with the index file before the run and returns what to do after it:

- :func:`doc_mentions_step`: documents' symbol mentions recomputed after a run that changed code,
  so ``--with-docs`` never points at symbols that are gone;
- :func:`code_vectors_step`: code vectors (``lore index --embed``) refreshed for the files that
  changed, or remade after a rebuild (:mod:`lore.search.upkeep`);
- :func:`embed_step`: only when asked (``embed=True`` / ``--embed``): embed what changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..store import db as store_db
from ..store import read

if TYPE_CHECKING:
    from ..index import IndexReport


def doc_mentions_step(db: Path) -> Callable[[IndexReport], None]:
    """After a run that changed code: recompute the symbol mentions of the index's documents, if any."""

    def after(report: IndexReport) -> None:
        if not report.changed_any:
            return
        conn = store_db.connect(report.db)
        try:
            if read.has_documents(conn):
                from ..docs import refresh_mentions

                with store_db.write_transaction(conn, report.db):
                    refresh_mentions(conn)
        finally:
            conn.close()

    return after


def code_vectors_step(db: Path) -> Callable[[IndexReport], None]:
    """Note which code-vector models the index holds now; after the run, bring each up to date."""
    from ..search import upkeep

    before = upkeep.stored_vector_models(db)

    def after(report: IndexReport) -> None:
        report.vector_upkeep = upkeep.refresh_after_index(report, before)

    return after


def _with_upkeep(summary: dict, upkeep: list[dict]) -> dict:
    """``summary`` of an ``--embed`` step, counting what the upkeep step embedded for the same model just
    before it (that step leaves nothing for this one, which would otherwise report 0 embedded)."""
    for done in upkeep:
        if done.get("model") != summary.get("model"):
            continue
        for owner in ("symbol", "file"):
            got, before = summary.get(owner), done.get(owner)
            if isinstance(got, dict) and isinstance(before, dict):
                moved = min(before.get("embedded", 0), got.get("unchanged", 0))
                got["embedded"] = got.get("embedded", 0) + before.get("embedded", 0)
                got["unchanged"] = got.get("unchanged", 0) - moved
                got["removed"] = got.get("removed", 0) + before.get("removed", 0)
        summary["seconds"] = round(summary.get("seconds", 0) + done.get("seconds", 0), 3)
    return summary


def embed_step(embedder: str | None, progress: Callable | None = None) -> Callable[[Path], Callable[[IndexReport], None]]:
    """``index_repo(embed=True)``: after the run, embed what changed since the last one.

    An explicit ``embedder`` makes that model the index's only one; without it the stored model is
    kept, else the no-model hashing embedder is used. The summary lands in ``report.code_vectors``.
    """
    if embedder is not None:
        from ..text.embed import get_embedder

        get_embedder(embedder)  # an unknown name or a missing extra fails before any work

    def step(db: Path) -> Callable[[IndexReport], None]:
        def after(report: IndexReport) -> None:
            from ..search.api import build_code_vectors

            summary = build_code_vectors(report.db, embedder=embedder, replace=embedder is not None, progress=progress)
            report.code_vectors = _with_upkeep(summary, getattr(report, "vector_upkeep", []))

        return after

    return step


# the git history is not a step here: the pipeline runs it last, now or in the background (lore.index.history_job)
INDEX_STEPS: tuple[Callable[[Path], Callable[[IndexReport], None]], ...] = (doc_mentions_step, code_vectors_step)
