"""A refresh's graph: the last generation's saved graph patched where the refresh changed it, in numpy.

A one-file refresh of the Linux kernel (1.1M symbols) rewrote few edges, yet building its graph read
every symbol row into Python again (5 passes over 1.1M tuples) and summed every edge into CSR matrices
again. Here nothing is read whole: the symbols come from the rows of the files this generation wrote
(``files.generation``) and the externals (a few thousand), the other nodes from the saved graph; the
edges come from the rows that start in the re-resolved files or end at a new symbol
(:func:`lore.store.graph_delta.edges_from`), the others from the saved matrices, whose kept entries
stay in order (rows and columns move by one monotone map), so each matrix and its transpose are a
merge of two sorted runs: linear passes in numpy, no sort of the whole.

The result equals :func:`lore.graphs.build.build_graph`'s array for array (the transposes, walks and
closed neighbourhoods derived from it too: ``tests/graphs/test_graph_patch.py``). None, and the caller
builds whole, when a check fails: the node count or the largest id differs from the store's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import numpy as np

from ..algorithms._csr import Csr
from ..store import graph_delta
from ..store import parquet as edge_parquet


def _rows_of(indptr: np.ndarray, n: int) -> np.ndarray:
    ptr = np.asarray(indptr, dtype=np.int64)
    return np.repeat(np.arange(n, dtype=np.int64), np.diff(ptr))


def _index_dtype(nnz: int, n: int) -> type:
    """scipy's choice for a CSR built from scratch: 32-bit indices while they fit."""
    return np.int32 if max(nnz, n) < 2**31 - 1 else np.int64


def merge_sorted(kept: tuple[np.ndarray, np.ndarray, np.ndarray], fresh: tuple[np.ndarray, np.ndarray, np.ndarray],
                 n: int) -> Csr:
    """The canonical n x n CSR of two runs of ``(rows, cols, data)``, each sorted by (row, col), that
    share no (row, col).

    Examples
    --------
    >>> k = (np.array([0, 2]), np.array([1, 0]), np.array([1.0, 2.0]))
    >>> f = (np.array([0, 1]), np.array([0, 2]), np.array([5.0, 6.0]))
    >>> m = merge_sorted(k, f, 3)
    >>> m.indptr.tolist(), m.indices.tolist(), m.data.tolist()
    ([0, 2, 3, 4], [0, 1, 2, 0], [5.0, 1.0, 6.0, 2.0])
    """
    k_rows, k_cols, k_data = kept
    f_rows, f_cols, f_data = fresh
    if len(f_rows):
        # where each fresh entry goes among the kept ones: both runs ordered by the key row * n + col
        pos = np.searchsorted(k_rows * np.int64(n) + k_cols, f_rows * np.int64(n) + f_cols)
        cols = np.insert(k_cols, pos, f_cols)
        data = np.insert(k_data, pos, f_data)
    else:
        cols, data = k_cols, k_data
    counts = np.bincount(k_rows, minlength=n)
    if len(f_rows):
        counts += np.bincount(f_rows, minlength=n)
    dt = _index_dtype(len(cols), n)
    indptr: np.ndarray = np.zeros(n + 1, dtype=dt)
    np.cumsum(counts, out=indptr[1:])
    return Csr(np.asarray(data, dtype=np.float64), np.asarray(cols, dtype=dt), indptr, (n, n), canonical=True)


def _patched_nodes(conn: sqlite3.Connection, old: Any, generation: int, kind_code: dict[str, int],
                   node_index: Callable[[np.ndarray], Any]) -> tuple[Any, ...] | None:
    """(node index, kind, is_test, file, parent, row of each old row or -1) of the new state, from the
    old graph's arrays and the store's rows of the files this generation wrote and of the externals."""
    old_ids = np.asarray(old.nodes.ids)
    old_file = np.asarray(old.file)
    written = np.asarray(graph_delta.files_of_generation(conn, generation), dtype=np.int64)
    live = np.asarray(graph_delta.file_ids(conn), dtype=np.int64)
    # old rows that are not kept as they were: of a file written again or gone, or an external (read again)
    again = (old_file < 0) | np.isin(old_file, written) | ~np.isin(old_file, live)
    fresh = graph_delta.node_rows(conn, written.tolist())
    f_ids = np.fromiter((r[0] for r in fresh), dtype=np.int64, count=len(fresh))
    keep = ~again
    k_ids = old_ids[keep]
    pos = np.searchsorted(k_ids, f_ids)
    ids = np.insert(k_ids, pos, f_ids)
    count, top = graph_delta.node_count(conn)
    if len(ids) != count or (count and int(ids[-1]) != top) or (len(ids) > 1 and not (np.diff(ids) > 0).all()):
        return None  # the store holds other symbols than the patch assumed: build whole
    nodes = node_index(ids)
    rowmap = nodes.rows(old_ids)
    rowmap[~nodes.known(rowmap, old_ids)] = -1
    kind = np.insert(np.asarray(old.kind)[keep],
                     pos, np.fromiter((kind_code.get(r[4], -1) for r in fresh), dtype=np.int8, count=len(fresh)))
    is_test = np.insert(np.asarray(old.is_test)[keep], pos,
                        np.fromiter((r[3] for r in fresh), dtype=np.int8, count=len(fresh)).astype(bool))
    file_ = np.insert(old_file[keep], pos, np.fromiter((r[1] for r in fresh), dtype=np.int64, count=len(fresh)))
    old_parent = np.asarray(old.parent)[keep]
    k_parent = np.where(old_parent >= 0, rowmap[np.maximum(old_parent, 0)], -1)
    f_pid = np.fromiter((r[2] for r in fresh), dtype=np.int64, count=len(fresh))
    f_parent = np.full(len(fresh), -1, dtype=np.int64)
    has = f_pid >= 0
    f_parent[has] = nodes.rows(f_pid[has])
    parent = np.insert(k_parent, pos, f_parent).astype(np.int64)
    return nodes, kind, is_test, file_, parent, rowmap


def patch(conn: sqlite3.Connection, old: Any, stamp: str, files: list[int], *, relations: tuple[str, ...],
          kind_code: dict[str, int], node_index: Callable[[np.ndarray], Any],
          summed: Callable[[Any, Any, int], Any], make_graph: Callable[..., Any]) -> Any | None:
    """The :class:`~lore.graphs.build.CodeGraph` of ``stamp``: ``old`` (the saved graph of the generation
    before) patched with the edges that start in ``files`` (re-resolved) or end at a new symbol; None
    when the store does not hold what a patch assumes (the caller builds whole).

    :mod:`lore.graphs.build` (which imports this module) hands in its ``relations``, its ``kind_code``,
    its node index class, its summation of edge rows into a scipy CSR (``summed(edges, nodes, n)``: the
    fresh edges summed as the whole build sums them) and ``make_graph`` (``CodeGraph``'s constructor).
    """
    from ..store import db as store_db

    gen = int(stamp.rsplit(":", 1)[1])
    got = _patched_nodes(conn, old, gen, kind_code, node_index)
    if got is None:
        return None
    nodes, kind, is_test, file_, parent, rowmap = got
    n, n_old = len(nodes), old.n
    sources = graph_delta.symbols_of_files(conn, files)
    new_ids = np.setdiff1d(nodes.ids, np.asarray(old.nodes.ids), assume_unique=True)
    fresh = graph_delta.edges_from(conn, sources, new_ids.tolist(), edge_parquet.INHERIT_KINDS)
    if store_db.index_stamp(conn) != stamp:  # a writer committed meanwhile: never a mixed state
        return None
    # an old row whose edges were written again (its file re-resolved), or whose symbol is gone
    dropped = np.isin(np.asarray(old.file), np.asarray(files, dtype=np.int64)) | (rowmap < 0)
    matrices: dict[str, Csr] = {}
    transposes: dict[str, Csr] = {}
    # rows of the new state whose row of some relation or transpose differs: new symbols, the symbols of
    # the re-resolved files, and both ends of every edge dropped or read again (what the derived matrices,
    # the walk and the closed neighbourhoods, must compute again; their other rows are kept)
    touched = np.ones(n, dtype=bool)
    touched[rowmap[rowmap >= 0]] = False
    touched[np.isin(file_, np.asarray(files, dtype=np.int64))] = True
    # every old row is the same row now (nothing removed, new symbols after the old): rows can be spliced
    same_rows = n >= n_old and bool((rowmap == np.arange(n_old)).all())
    replaced = np.zeros(n, dtype=bool)  # (same rows) the rows whose edges were written again, and new rows
    if same_rows:
        replaced[:n_old] = dropped
        replaced[n_old:] = True
    for name in relations:
        # the fresh edges summed as the whole build sums them (scipy, the same rows in the same order)
        f = summed(edge_parquet.rows_to_arrays(fresh[name]), nodes, n)
        f_rows, f_cols, f_data = _rows_of(f.indptr, n), np.asarray(f.indices, dtype=np.int64), np.asarray(f.data)
        touched[f_rows] = touched[f_cols] = True
        if same_rows and replaced[f_rows].all():  # each row of the relation is kept whole or replaced whole
            m = old.arrays(name)
            gone = _rows_only(m, dropped)  # the old edges of the replaced rows
            g_rows, g_cols = _rows_of(gone.indptr, n_old), np.asarray(gone.indices, dtype=np.int64)
            touched[g_rows] = touched[g_cols] = True
            matrices[name] = _splice(m, n, replaced, Csr.of(f))
            # the transpose: the rows of the old edges' targets lose those edges, the fresh ones' gain theirs
            rows_t = np.zeros(n, dtype=bool)
            rows_t[g_cols] = rows_t[f_cols] = True
            mt = old.arrays(name, transpose=True)
            part = _rows_only(mt, rows_t[:n_old])
            p_rows, p_cols = _rows_of(part.indptr, n_old), np.asarray(part.indices, dtype=np.int64)
            stay = ~dropped[p_cols]
            order = np.lexsort((f_rows, f_cols))
            again = merge_sorted((p_rows[stay], p_cols[stay], np.asarray(part.data)[stay]),
                                 (f_cols[order], f_rows[order], f_data[order]), n)
            transposes[name] = _splice(mt, n, rows_t, again)
            continue
        for transpose in (False, True):
            m = old.arrays(name, transpose=transpose)
            rows = _rows_of(m.indptr, n_old)
            cols = np.asarray(m.indices, dtype=np.int64)
            src = cols if transpose else rows  # the edge's source row (a transpose's column)
            keep = ~dropped[src] & (rowmap[rows] >= 0) & (rowmap[cols] >= 0)
            kept = (rowmap[rows[keep]], rowmap[cols[keep]], np.asarray(m.data)[keep])
            if transpose:
                order = np.lexsort((f_rows, f_cols))
                run = (f_cols[order], f_rows[order], f_data[order])
            else:
                ends = np.concatenate([rowmap[rows[~keep]], rowmap[cols[~keep]]])
                touched[ends[ends >= 0]] = True
                run = (f_rows, f_cols, f_data)
            (transposes if transpose else matrices)[name] = merge_sorted(kept, run, n)
    g = make_graph(gen, nodes, kind, is_test, file_, parent, matrices, transposes, stamp=stamp)
    _patch_derived(g, old, rowmap, touched)
    return g


def _rows_only(m: Csr, rows: np.ndarray) -> Csr:
    """``m`` (canonical CSR) with the rows not in the mask ``rows`` emptied (reads those rows' entries only)."""
    n = m.shape[0]
    ptr = np.asarray(m.indptr, dtype=np.int64)
    which = np.flatnonzero(rows)
    lengths = ptr[which + 1] - ptr[which]
    # the positions of the kept rows' entries: each row's start, then consecutive
    starts = np.repeat(ptr[which] - (np.cumsum(lengths) - lengths), lengths)
    take = starts + np.arange(int(lengths.sum()), dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    counts[which] = lengths
    indptr = np.zeros(n + 1, dtype=np.asarray(m.indptr).dtype)
    np.cumsum(counts, out=indptr[1:])
    return Csr(np.asarray(m.data)[take], np.asarray(m.indices)[take], indptr, m.shape, canonical=True)


def _splice(old_m: Csr, n: int, touched: np.ndarray, again: Csr) -> Csr:
    """``old_m``'s rows that are not ``touched``, in place, and ``again``'s (which holds entries in touched rows
    only) in the others: when every old row is the same row of the new state (no symbol gone, the new
    ones after the old: a new function), the kept rows are copied as runs, with no per-entry work."""
    n_old = old_m.shape[0]
    optr = np.asarray(old_m.indptr, dtype=np.int64)
    aptr = np.asarray(again.indptr, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    counts[:n_old] = np.diff(optr)
    counts[touched] = np.diff(aptr)[touched]
    dt = _index_dtype(int(counts.sum()), n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    data = np.empty(int(indptr[-1]), dtype=np.float64)
    indices: np.ndarray = np.empty(int(indptr[-1]), dtype=dt)
    o_data, o_idx = np.asarray(old_m.data), np.asarray(old_m.indices)
    prev = 0
    for t in [*np.flatnonzero(touched).tolist(), n]:  # the runs of kept rows between touched ones
        hi = min(t, n_old)
        if hi > prev:
            a, b, at = int(optr[prev]), int(optr[hi]), int(indptr[prev])
            data[at:at + b - a] = o_data[a:b]
            indices[at:at + b - a] = o_idx[a:b]
        prev = t + 1
    rows = _rows_of(aptr, n)
    pos = indptr[rows] + np.arange(len(rows), dtype=np.int64) - aptr[rows]
    data[pos] = np.asarray(again.data)
    indices[pos] = np.asarray(again.indices)
    return Csr(data, indices, indptr.astype(dt), (n, n), canonical=True)


def _kept_rows(m: Csr, rowmap: np.ndarray, touched: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The entries of an old derived matrix in rows not ``touched``, moved to the new rows and columns (an
    entry in the row or column of a symbol that is gone is dropped)."""
    rows = rowmap[_rows_of(m.indptr, m.shape[0])]
    cols = rowmap[np.asarray(m.indices, dtype=np.int64)]
    keep = (rows >= 0) & (cols >= 0)
    keep[keep] = ~touched[rows[keep]]
    return rows[keep], cols[keep], np.asarray(m.data)[keep]


def _entries(m: Csr) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _rows_of(m.indptr, m.shape[0]), np.asarray(m.indices, dtype=np.int64), np.asarray(m.data)


def _patch_derived(g: Any, old: Any, rowmap: np.ndarray, touched: np.ndarray) -> None:
    """Give ``g`` the default walk and the closed neighbourhoods saved with ``old``, patched: their rows not
    ``touched`` kept, the others computed again from ``g``'s relations (by the numpy kernels that give the
    bits :func:`~lore.graphs.build.save_graph` computes for the whole; only those rows' entries are read)."""
    from ..algorithms import _csr as csr_arrays
    from ._walk import DEFAULT_PPR_WEIGHTS, walk_name

    n = g.n
    # every old row is the same row now (nothing removed, new symbols after the old): runs are copied
    same_rows = n >= len(rowmap) and bool((rowmap == np.arange(len(rowmap))).all())

    def patched(m: Csr, again: Csr) -> Csr:
        if same_rows:
            return _splice(m, n, touched, again)
        return merge_sorted(_kept_rows(m, rowmap, touched), _entries(_rows_only(again, touched)), n)

    for key, m in old._presence.items():
        name, _, rest = key.partition(".")
        base = g.arrays(name, transpose=rest.startswith("T."))
        again = csr_arrays.closed_presence(_rows_only(base, touched))
        if again is None:
            continue
        g._presence[key] = patched(m, _rows_only(again, touched))
    default = walk_name(DEFAULT_PPR_WEIGHTS, "both")
    m = old.walks.get(default)
    if m is None:
        return
    rels = [(rel, w) for rel, w in DEFAULT_PPR_WEIGHTS.items() if w > 0 and rel in g.matrices]
    groups = [[(csr_arrays.capped(_rows_only(g.arrays(rel, transpose=t), touched)), w) for rel, w in rels]
              for t in (False, True)]
    again = csr_arrays.weighted_sum(groups)
    if again is not None:
        g.walks[default] = patched(m, again)
