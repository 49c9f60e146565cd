"""What the default ranker needs, built by ``lore index`` so that the first query costs what the tenth does.

A ``lore graph related`` on a fresh index used to build, in the first process that asked: the hybrid
ranker's per-symbol features (every symbol's name, signature and docstring tokenized: 55 s and 3.6 GB
on the Linux kernel) and the fold of a definition's copies (every symbol sharing a qualified name
with another: 3.6 s on the kernel, in *every* new process, since it was kept in memory only). The
index step :func:`ranker_step` builds both once after the commit (after the clusters step, which
saves the graph) and saves them beside the index (``<index>.features/``, ``<index>.fold/``), each
keyed by the index's stamp (its random identity and its generation), so a later generation never
reads an older state, and a reader maps the arrays instead of building them.

Skipped when both are already saved for the current state (a no-op refresh stays a lookup: no numpy
import). A failure here never fails the index run: it only leaves the work to the first query.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..store import db as store_db
from ..store import graph_files
from ._index import OpenIndex

if TYPE_CHECKING:
    from ..index import IndexReport

_log = logging.getLogger("lore")


def ranker_step(db: Path) -> Callable[[IndexReport], None]:
    """An index step (:mod:`lore.queries.indexing`): after a run, save the fold and the hybrid features
    of the new state; ``report.seconds["ranker"]`` says what it cost."""

    def after(report: IndexReport) -> None:
        t0 = time.perf_counter()
        with OpenIndex(Path(report.db)) as index:
            store_db.one_pass_reads(index.conn)
            if saved_for(index):
                return
            try:
                build_saved(index)
            except Exception as exc:  # noqa: BLE001 - derived data: the index run itself has succeeded
                _log.warning("lore: the ranker's features were not precomputed (%s: %s); the first query will "
                             "build them", type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")
                return
        release_memory()
        report.seconds["ranker"] = round(time.perf_counter() - t0, 3)

    return after


def release_memory(*, collect: bool = False) -> None:
    """Around an upkeep step: drop the graph side's in-memory caches (what a step made is saved beside the
    index) and give the freed memory back, so a step's peak does not stand on what came before it.

    ``collect`` also runs the garbage collector first: the indexer leaves reference cycles behind (it runs
    with the collector off), on ``cc/kmm`` at ``--memory 400M`` about 100 MB of the 307 MB it held after
    the commit. A full collection costs time that grows with every live object of the process (a long-lived
    process that indexes small repositories again and again paid 40% more for its runs), so only the step
    that builds the most (the clusters step) asks for it, and only for an index of at least
    :data:`lore.queries.clusters.COLLECT_FROM` symbols.
    """
    import gc

    from ..graphs._release import release
    from ..index._memory import give_back

    release()
    if collect:
        gc.collect()
    give_back()


def saved_for(index: OpenIndex) -> bool:
    """Whether the fold and the features of the index's current state are both saved beside it (a
    look at two ``meta.json`` files: no numpy)."""
    stamp = store_db.index_stamp(index.conn)
    return (graph_files.has_saved_state(index.db_path, graph_files.fold_key(stamp), ".fold")
            and graph_files.has_saved_state(index.db_path, graph_files.features_key(index.conn, stamp), ".features"))


def build_saved(index: OpenIndex) -> None:
    """Build and save the fold and the features of the index's state (mapped back when already saved)."""
    from ..graphs._features import load_features
    from ..graphs._fold import fold_for
    from ..text.tokens import split_identifier

    with store_db.read_snapshot(index.conn):
        g = index.graph()
        fold_for(index.conn, g, db_path=index.db_path, save=True)
        load_features(index.conn, g, split=split_identifier, db_path=index.db_path, save=True)
