"""Building the structural graph of an index as scipy CSR matrices, cached per index generation.

One vectorized pass per relation: the edge rows come out of SQLite as a list of tuples (or, for an
index written with ``lore index --edge-store parquet``, out of its Parquet shards: the same rows in the
same order, :mod:`lore.store.parquet`), become numpy arrays, are mapped to rows with ``np.searchsorted`` over the sorted symbol ids (the
:class:`NodeIndex`), and are summed into a CSR matrix by ``scipy.sparse.coo_matrix``. Edge weights are
the edges' ``confidence`` (several call sites add up).

The result is cached in memory and on disk beside the index (``.lore/index.db.graph/``: plain
``.npy`` arrays, memory-mapped) so that a fresh process maps it in milliseconds instead of
re-reading millions of rows. Both caches are
keyed by the index's stamp (its random ``index_id`` and its ``generation``): a refresh bumps the
generation and a rebuilt index gets a new id, so a stale graph is never served.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..algorithms import _csr as csr_arrays
from ..algorithms._csr import Csr
from ..errors import EdgeStoreError, MissingExtraError
from ..store import db as store_db
from ..store import graph_delta, read
from ..store import parquet as edge_parquet
from ..store.graph_files import CACHE_FORMAT, publish_state
from ..store.graph_files import cache_path as _cache_path
from ..store.graph_files import state_dir as _state_dir
from ._graph_patch import patch as _patch_graph
from ._lazy_csr import LazyCsr
from ._saved_arrays import discard, open_array, verify, write_arrays
from ._transient import transient
from ._walk import DEFAULT_PPR_WEIGHTS, walk_arrays, walk_name

if TYPE_CHECKING:
    import scipy.sparse as sp

    from ..store.parquet import EdgeArrays

KINDS = ("module", "class", "interface", "struct", "trait", "enum", "type_alias", "function", "method",
         "namespace", "external")
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}
RELATIONS = ("calls", "types", "inherits", "contains", "imports")
# relations whose closed neighbourhoods (both directions) the default overlap reads: saved with the graph
SAVED_CLOSED = ("calls", "types", "inherits")
_log = logging.getLogger("lore")


@dataclass
class NodeIndex:
    """Symbol id <-> matrix row. ``ids`` is sorted, so lookups are binary searches.

    Examples
    --------
    >>> ni = NodeIndex(np.array([3, 7, 42]))
    >>> ni.row(42), ni.id(0), ni.rows([7, 3]).tolist(), ni.has(5)
    (2, 3, [1, 0], False)
    """

    ids: np.ndarray

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def has(self, sid: int) -> bool:
        i = int(np.searchsorted(self.ids, sid))
        return i < len(self.ids) and int(self.ids[i]) == sid

    def row(self, sid: int) -> int:
        i = int(np.searchsorted(self.ids, sid))
        if i >= len(self.ids) or int(self.ids[i]) != sid:
            raise KeyError(sid)
        return i

    def rows(self, sids) -> np.ndarray:
        arr = np.asarray(sids, dtype=np.int64)
        return np.searchsorted(self.ids, arr)

    def known(self, rows: np.ndarray, sids) -> np.ndarray:
        """Whether each of ``sids`` (looked up as ``rows`` by :meth:`rows`) is a node at all."""
        if not len(self.ids):
            return np.zeros(len(rows), dtype=bool)
        return self.ids[np.minimum(rows, len(self.ids) - 1)] == np.asarray(sids, dtype=np.int64)

    def id(self, row: int) -> int:
        return int(self.ids[row])


@dataclass
class CodeGraph:
    """Every relation of an index as an N x N CSR matrix over the same :class:`NodeIndex`.

    ``matrices[name]`` holds the relation (row = source symbol), ``transposes[name]`` its CSR
    transpose (kept so that ``x @ A.T`` never re-transposes per query). ``kind``, ``is_test``,
    ``file`` and ``parent`` are per-row arrays (-1 for none).

    A graph mapped from its saved arrays holds :class:`~lore.algorithms._csr.Csr` matrices (arrays
    only: no scipy import); one built in memory holds scipy matrices. :meth:`matrix` and
    :meth:`presence` always hand out scipy matrices, :meth:`arrays` and :meth:`presence_arrays` the
    same matrices as arrays, for the ranking kernels that only read them.
    """

    generation: int
    nodes: NodeIndex
    kind: np.ndarray
    is_test: np.ndarray
    file: np.ndarray
    parent: np.ndarray
    matrices: dict[str, Any]  # scipy.sparse.csr_matrix or Csr
    transposes: dict[str, Any] = field(default_factory=dict)
    stamp: str = ""  # store.db.index_stamp of the state it was built from: the key of anything derived from it
    _presence: dict[str, Csr] = field(default_factory=dict, repr=False)
    _wrapped: dict[str, Csr] = field(default_factory=dict, repr=False)
    # walk matrices saved with the graph, by lore.graphs._walk.walk_name (the default walk, so that a
    # new process does not sum the relations again)
    walks: dict[str, Csr] = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return len(self.nodes)

    def kind_code(self, kind: str) -> int:
        return _KIND_CODE.get(kind, -1)

    def is_external(self) -> np.ndarray:
        return self.kind == _KIND_CODE["external"]

    def matrix(self, name: str, *, transpose: bool = False) -> sp.csr_matrix:
        """The relation ``name`` (or its transpose) as a scipy CSR matrix."""
        if transpose:
            if name not in self.transposes:
                self.transposes[name] = self.matrix(name).T.tocsr()
            m = self.transposes[name]
        else:
            m = self.matrices[name]
        return m.to_scipy() if isinstance(m, Csr) else m

    def arrays(self, name: str, *, transpose: bool = False) -> Csr:
        """The relation ``name`` (or its transpose) as :class:`~lore.algorithms._csr.Csr` arrays (the same
        object every call: per-matrix caches key on it). No scipy import for a graph mapped from disk."""
        m = (self.transposes if transpose else self.matrices).get(name)
        if isinstance(m, Csr):
            return m
        key = f"{name}{'.T' if transpose else ''}"
        got = self._wrapped.get(key)
        if got is None:
            got = self._wrapped[key] = Csr.of(self.matrix(name, transpose=transpose))
        return got

    def presence_arrays(self, name: str, *, transpose: bool = False, closed: bool = False) -> Csr:
        """:meth:`presence` as :class:`~lore.algorithms._csr.Csr` arrays (cached; saved with the graph for the
        closed neighbourhoods of :data:`SAVED_CLOSED`). Computed in numpy while scipy is not loaded."""
        key = f"{name}{'.T' if transpose else ''}{'.closed' if closed else ''}"
        m = self._presence.get(key)
        if m is None:
            base = self.arrays(name, transpose=transpose)
            got: Csr | None
            if not closed:
                got = csr_arrays.capped(base)
            else:  # numpy only while scipy is not loaded; scipy's own kernel for unsorted rows
                got = None if csr_arrays.scipy_loaded() else csr_arrays.closed_presence(base)
            if got is None:
                import scipy.sparse as sp

                s = (base.to_scipy() + sp.identity(self.n, format="csr")).tocsr()
                np.minimum(s.data, 1.0, out=s.data)
                got = Csr.of(s)
            m = self._presence[key] = got
        return m

    def presence(self, name: str, *, transpose: bool = False, closed: bool = False) -> sp.csr_matrix:
        """The relation with each entry capped at 1: edge confidence, not the number of call sites.

        Sharing a neighbour is a set relation: calling ``isinstance`` five times does not make two
        functions more alike than calling it once. ``closed`` adds every row to its own neighbours
        (the closed neighbourhood ``N[v] = N(v) + {v}``), so that a direct edge between two rows is
        a shared neighbour too: a method and the method it overrides, a caller and its callee.
        Cached on the graph, like the transposes.
        """
        return self.presence_arrays(name, transpose=transpose, closed=closed).to_scipy()

    def containers_of(self, rows: np.ndarray) -> set[int]:
        """Rows of the enclosing class / module chain of each given row (its trivial containers)."""
        out: set[int] = set()
        for r in rows.tolist():
            p = int(self.parent[r])
            while p >= 0 and p not in out:
                out.add(p)
                p = int(self.parent[p])
        return out


def _csr(edges: EdgeArrays, nodes: NodeIndex, n: int) -> sp.csr_matrix:
    import scipy.sparse as sp

    src_ids, dst_ids, weight = edges
    if not len(src_ids):
        return sp.csr_matrix((n, n), dtype=np.float64)
    src, dst = nodes.rows(src_ids), nodes.rows(dst_ids)
    known = nodes.known(src, src_ids) & nodes.known(dst, dst_ids)
    if not known.all():  # an edge whose end is no symbol (an index whose refresh left one behind, before that was fixed): dropped
        src, dst, weight = src[known], dst[known], np.asarray(weight)[known]
    m = sp.coo_matrix((weight, (src, dst)), shape=(n, n)).tocsr()
    m.sum_duplicates()
    return m


def edge_arrays(conn: sqlite3.Connection, db_path: str | os.PathLike[str] | None = None,
                stamp: str | None = None) -> tuple[dict[str, EdgeArrays], str]:
    """The edge columns of every relation, and where they came from (``"parquet"`` or ``"sqlite"``).

    An index written with ``--edge-store parquet`` is read from its shards of the state ``stamp``
    (:mod:`lore.store.parquet`); when they are missing or damaged, or pyarrow is not installed, a
    one-line warning is logged and the SQLite rows (always kept) are read instead. Both give the same
    rows in the same order, so the matrices are bit-identical.
    """
    if stamp is None:
        stamp = store_db.index_stamp(conn)
    path = db_path if db_path is not None else edge_parquet.db_file(conn)
    if path and edge_parquet.recorded(conn) == "parquet":
        try:
            return edge_parquet.read_state(path, stamp), "parquet"
        except (EdgeStoreError, MissingExtraError) as exc:
            _log.warning("lore: %s; reading the edges from SQLite instead", exc)
    return {name: edge_parquet.rows_to_arrays(rows(conn)) for name, rows in edge_parquet.RELATION_ROWS.items()}, "sqlite"


def build_graph(conn: sqlite3.Connection, db_path: str | os.PathLike[str] | None = None) -> CodeGraph:
    """Read every edge table of the index into CSR matrices (no per-edge Python loop).

    The edges come from the Parquet edge store when the index has one (``lore index --edge-store
    parquet``; ``db_path`` locates it, default: the connection's file), else from SQLite; the graph
    is the same either way (:func:`edge_arrays`).
    """
    stamp = store_db.index_stamp(conn)
    gen = int(stamp.rsplit(":", 1)[1])
    nodes, kind, is_test, file_, parent = node_arrays(conn)
    path = db_path if db_path is not None else edge_parquet.db_file(conn)
    if path and edge_parquet.recorded(conn) == "parquet":
        edges, _source = edge_arrays(conn, db_path, stamp)
        matrices = {name: _csr(edges[name], nodes, len(nodes)) for name in RELATIONS}
    else:  # one relation's rows at a time, each made a matrix before the next is read
        matrices = {name: _csr(edge_parquet.rows_to_arrays(rows(conn)), nodes, len(nodes))
                    for name, rows in edge_parquet.RELATION_ROWS.items()}
    return CodeGraph(gen, nodes, kind, is_test, file_, parent, matrices, stamp=stamp)


def node_arrays(conn: sqlite3.Connection) -> tuple[NodeIndex, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(the node index, kind code, is_test, file id, parent row) of every symbol, by id."""
    cols: tuple[list[np.ndarray], ...] = ([], [], [], [], [])
    rows = read.node_table(conn)
    while table := list(islice(rows, 1 << 16)):  # a block of row tuples at a time, never the whole table
        k = len(table)
        cols[0].append(np.fromiter((r[0] for r in table), dtype=np.int64, count=k))
        cols[1].append(np.fromiter((r[1] for r in table), dtype=np.int64, count=k))
        cols[2].append(np.fromiter((r[2] for r in table), dtype=np.int64, count=k))
        cols[3].append(np.fromiter((r[3] for r in table), dtype=np.int8, count=k))
        cols[4].append(np.fromiter((_KIND_CODE.get(r[4], -1) for r in table), dtype=np.int8, count=k))
    ids, file_, parent_ids, test_flag, kind = (np.concatenate(c) if c else np.zeros(0, dtype=d)
                                               for c, d in zip(cols, (np.int64, np.int64, np.int64, np.int8, np.int8),
                                                               strict=True))
    n = len(ids)
    nodes = NodeIndex(ids)
    is_test = test_flag.astype(bool)
    parent = np.full(n, -1, dtype=np.int64)
    has_parent = parent_ids >= 0
    parent[has_parent] = nodes.rows(parent_ids[has_parent])
    return nodes, kind, is_test, file_, parent


def save_graph(g: CodeGraph, cache: Path, *, prev: str | None = None) -> Path:
    """Save ``g`` under ``cache`` as plain ``.npy`` arrays (one folder per state) and drop older states.

    Plain arrays can be memory-mapped by :func:`load_saved`: a fresh process starts without reading
    hundreds of MB, and processes share the pages. The folder appears atomically (written under a
    temporary name, then renamed); a reader still mapping an older state keeps its open files.

    The default walk matrix (what ``related`` walks with its default relation weights in both
    directions: the hybrid ranker, fusion, push) and the closed neighbourhoods the overlap compares
    (:meth:`CodeGraph.presence` with ``closed=True`` of :data:`SAVED_CLOSED`) are saved too, so that a
    new process's first query does not build them again (about 45 ms of a cold ``lore graph related``
    on Django), and ``meta.json`` records that the relations are in canonical form (sorted, no duplicates: what the
    numpy kernels of :mod:`lore.algorithms._csr` need), so that no reader checks it again.

    ``prev`` is the stamp of the state this one was patched from: its blocks that hold the same bits
    are linked, not written again (:func:`lore.graphs._saved_arrays.write_arrays`).
    """
    arrays: dict[str, np.ndarray] = {"ids": g.nodes.ids, "kind": g.kind, "is_test": g.is_test, "file_rows": g.file,
                                     "parent": g.parent}
    canonical = True
    for name in RELATIONS:
        for tname, m in ((name, g.arrays(name)), (f"{name}.T", g.arrays(name, transpose=True))):
            arrays[f"{tname}.data"] = m.data
            arrays[f"{tname}.indices"] = m.indices
            arrays[f"{tname}.indptr"] = m.indptr
            canonical = canonical and csr_arrays.canonical(m)
    with transient(g):  # computed to be written: not kept on ``g`` (a reader of the saved state maps them)
        walks = {walk_name(DEFAULT_PPR_WEIGHTS, "both"): walk_arrays(g, DEFAULT_PPR_WEIGHTS, "both")}
        closed = {f"{name}{'.T' if t else ''}.closed": g.presence_arrays(name, transpose=t, closed=True)
                  for name in SAVED_CLOSED for t in (False, True)}
    for key, m in (*walks.items(), *closed.items()):
        arrays.update({f"{key}.data": m.data, f"{key}.indices": m.indices, f"{key}.indptr": m.indptr})

    def fill(tmp: Path) -> None:
        # dtype, shape and checksum of each: checked before use
        manifest = write_arrays(tmp, arrays, prev=_state_dir(cache, prev) if prev else None)
        (tmp / "meta.json").write_text(json.dumps({"format": CACHE_FORMAT, "stamp": g.stamp, "n": g.n,
                                                   "canonical": canonical, "walks": sorted(walks),
                                                   "presence": sorted(closed), "arrays": manifest}))

    final = publish_state(cache, _state_dir(cache, g.stamp), fill)
    for legacy in (cache.with_suffix(".graph.npz"), *cache.parent.glob("graph-*.npz")):  # format 1 files
        legacy.unlink(missing_ok=True)
    return final


def load_saved(cache: Path, stamp: str) -> CodeGraph | None:
    """The graph saved under ``cache`` for the index state ``stamp`` (memory-mapped), else ``None``.

    Arrays are mapped copy-on-write: nothing is read until used, and an in-place operation never
    touches the file. The matrices are :class:`~lore.algorithms._csr.Csr` arrays: mapping a saved
    graph imports no scipy (:meth:`CodeGraph.matrix` builds the scipy matrix when one is asked for).

    Each array's dtype and shape are checked against the manifest of ``meta.json``, and its bytes
    against their checksum (once per process, :func:`lore.graphs._saved_arrays.verify`): a damaged
    state is deleted and ``None`` returned, so the caller builds the graph again and saves a good one.
    """
    folder = _state_dir(cache, stamp)
    try:
        meta = json.loads((folder / "meta.json").read_text())
        manifest = meta.get("arrays")
        if meta.get("format") != CACHE_FORMAT or meta.get("stamp") != stamp or not isinstance(manifest, dict):
            return None
    except (OSError, ValueError, AttributeError):
        return None
    mapped: dict[str, np.ndarray] = {}
    g = _map_saved(folder, meta, manifest, stamp, mapped)
    if g is None or not verify(folder, manifest, mapped):
        discard(folder)
        return None
    return g


def _map_saved(folder: Path, meta: dict, manifest: dict, stamp: str, mapped: dict[str, np.ndarray]
               ) -> CodeGraph | None:
    """The graph of a saved state's arrays (dtypes and shapes checked, each kept in ``mapped`` by name), None
    when one is missing or wrong."""
    try:
        def arr(key: str) -> np.ndarray:
            a = mapped[key] = open_array(folder, key, manifest)
            return a

        def part(key: str) -> Any:  # checked now, decoded when a query first reads it (LazyCsr)
            a = mapped[key] = open_array(folder, key, manifest, lazy=True)
            return a

        def csr(key: str, n: int, canonical: bool | None) -> Csr:
            indptr = part(f"{key}.indptr")
            if indptr.shape != (n + 1,):
                raise ValueError(f"{key}: {indptr.shape[0]} row pointers for {n} rows")
            return LazyCsr(part(f"{key}.data"), part(f"{key}.indices"), indptr, (n, n), canonical=canonical)

        ids = arr("ids")
        n = len(ids)
        canonical = True if meta.get("canonical") is True else None  # (older saves: checked when needed)
        mats: dict[str, Csr] = {}
        trans: dict[str, Csr] = {}
        for name in RELATIONS:
            for tname, target in ((name, mats), (f"{name}.T", trans)):
                target[name] = csr(tname, n, canonical)
        walks = {str(w): csr(str(w), n, True) for w in meta.get("walks", [])}
        presence = {str(p): csr(str(p), n, True) for p in meta.get("presence", [])}
        generation = int(stamp.rsplit(":", 1)[1])
        return CodeGraph(generation, NodeIndex(ids), arr("kind"), arr("is_test"), arr("file_rows"), arr("parent"),
                         mats, trans, stamp=stamp, _presence=presence, walks=walks)
    except (OSError, KeyError, ValueError, TypeError):
        return None


_MEMORY: dict[str, CodeGraph] = {}
_LOCK = threading.Lock()


def load_graph(conn: sqlite3.Connection, db_path: str | os.PathLike[str] | None = None, *,
               save: bool = True) -> CodeGraph:
    """The graph of the index in its current state: from memory, from disk, or built and cached.

    ``save=False`` (read-only indexes) still reads a saved graph but never writes one.
    """
    stamp = store_db.index_stamp(conn)
    key = stamp.rsplit(":", 1)[0]  # one graph in memory per index identity, whatever path opened it
    with _LOCK:
        g = _MEMORY.get(key)
        if g is not None and g.stamp == stamp:
            return g
    g = None
    cache = _cache_path(Path(db_path)) if db_path else None
    if cache is not None and cache.is_dir():
        g = load_saved(cache, stamp)
    if g is None:
        patched = patched_graph(conn, cache, stamp) if cache is not None else None
        g = patched or build_graph(conn, db_path)
        if g.stamp != stamp:  # a writer committed between the two reads: never cache a mixed state
            return g
        if cache is not None and save:
            try:
                save_graph(g, cache, prev=_previous_stamp(stamp) if patched is not None else None)
            except OSError:
                pass  # read-only directory: serve from memory only
    with _LOCK:
        _MEMORY[key] = g
    return g


def _previous_stamp(stamp: str) -> str:
    """The stamp of the generation before ``stamp``'s (what :func:`patched_graph` patches from)."""
    identity, _, gen = stamp.rpartition(":")
    return f"{identity}:{int(gen) - 1}"


def patched_graph(conn: sqlite3.Connection, cache: Path, stamp: str) -> CodeGraph | None:
    """The graph of the state ``stamp`` patched from the saved graph of the generation before, or None.

    Reading every edge table of the Linux kernel index into CSR matrices costs about 6.6 CPU s, after a
    one-file change too. A refresh rewrites only the edges that start in the files it re-resolved (the
    indexer records them with the generation: :mod:`lore.store.graph_delta`), so the graph of the new
    generation is the saved graph of the last one without the edges that start in those files, plus the
    store's edges that start at their symbols now or end at a symbol new in this generation (an edge of
    the last graph never ends there). The nodes are patched too: only the symbols of the files this
    generation wrote, and the externals, are read (:mod:`lore.graphs._graph_patch`). The result
    equals :func:`build_graph`'s, array for array: the kept pairs carry the weights the last build
    summed from the same rows, the read ones are summed in the same row order
    (``tests/graphs/test_graph_patch.py``). None (build the graph whole) after a run of another kind (a
    rebuild, targets remapped across the tables), without a saved graph of the last generation, or with
    the Parquet edge store.
    """
    identity, _, gen_text = stamp.rpartition(":")
    if not gen_text.isdigit() or not cache.is_dir():
        return None
    gen = int(gen_text)
    files = graph_delta.load(conn, gen)
    if files is None or edge_parquet.recorded(conn) == "parquet":
        return None
    old = load_saved(cache, f"{identity}:{gen - 1}")
    if old is None:
        return None
    return _patch_graph(conn, old, stamp, files, relations=RELATIONS, kind_code=_KIND_CODE, node_index=NodeIndex,
                        summed=_csr, make_graph=CodeGraph)
