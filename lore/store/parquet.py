"""The sharded Parquet edge store: the graph's edges as Parquet files beside the index (``--edge-store parquet``).

What :mod:`lore.graphs.build` reads to make its matrices (per relation: source id, target id, weight)
is written by ``lore index --edge-store parquet`` as Parquet shards (pyarrow, the extra
``lore-graph[ray]``) in a folder beside the index, ``<index>.edges/`` (``.lore/index.db.edges/``),
one sub-folder per index state::

    index.db.edges/
      <index_id>-<generation>/
        manifest.json               format, stamp, per relation its shards: file, rows, bytes, blake2b
        calls-00000.parquet         columns src (int64), dst (int64), weight (float64)
        calls-00001.parquet         ... ROWS_PER_SHARD rows per shard, in the store's row order
        types-00000.parquet
        ...

Generation and crash-safety rules, the same as the SQLite store's:

* the writer holds the index's write lock and writes a state's shards *inside* its write
  transaction, before the commit that publishes that generation: shards and manifest go to a
  ``.tmp-*`` folder, are fsynced, and the folder is renamed to the state's name (atomic), then the
  directory is fsynced; ``meta.edge_store = 'parquet'`` is set in the same transaction;
* readers take the state named by the SQLite stamp they read (:func:`lore.store.db.index_stamp`),
  never the newest folder: a folder whose generation was never committed (a writer killed between
  the rename and the commit) is never read, and the next writer replaces it; a half-written set is
  only ever a ``.tmp-*`` folder, which no reader opens;
* after the commit the writer removes the states older than the previous one (a reader still on the
  previous generation keeps its files); a reader that finds its state gone, or a shard whose size,
  digest or row count disagrees with the manifest, raises :class:`~lore.errors.EdgeStoreError` and
  :mod:`lore.graphs.build` falls back to the SQLite rows, which stay in the index (navigation
  queries, explanations and incremental re-resolution read them); the next ``lore index`` rewrites
  a missing or damaged state.

Rows keep the SQLite store's order (the readers here order by ``rowid``), so the matrices built from
the shards are bit-identical to those built from SQLite (duplicate edges are summed in the same
order). pyarrow is imported inside the functions that need it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import EdgeStoreError, MissingExtraError
from . import read

FORMAT = 1
ROWS_PER_SHARD = 1 << 20  # 24 MB of raw columns per shard, a few MB compressed
EDGE_STORES = ("sqlite", "parquet")
META_KEY = "edge_store"
INHERIT_KINDS = ("extends", "implements", "overrides", "embeds")

if TYPE_CHECKING:  # numpy loads with the first read or write of arrays, not with every ``lore index``
    import numpy as np

    EdgeArrays = tuple[np.ndarray, np.ndarray, np.ndarray]  # src ids (int64), dst ids (int64), weights (float64)

# relation -> reader of its (source id, target id, weight) rows; graphs.build reads the same, either way
RELATION_ROWS: dict[str, Callable[[sqlite3.Connection], Iterable[tuple[int, int, float]]]] = {
    "calls": read.call_edges,
    "types": read.type_edges,
    "inherits": lambda conn: read.relationship_edges(conn, INHERIT_KINDS),
    "contains": lambda conn: read.relationship_edges(conn, ("contains",)),
    "imports": read.import_edges,
}


def pyarrow_modules(feature: str = "the Parquet edge store") -> tuple[ModuleType, ModuleType]:
    """``(pyarrow, pyarrow.parquet)``, or :class:`~lore.errors.MissingExtraError` naming the ``ray`` extra."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise MissingExtraError(feature, "ray") from exc
    return pa, pq


def store_dir(db_path: str | os.PathLike[str]) -> Path:
    """The folder of the Parquet edge store of the index at ``db_path``.

    Examples
    --------
    >>> store_dir(".lore/index.db").as_posix()
    '.lore/index.db.edges'
    """
    p = Path(db_path)
    return p.with_name(p.name + ".edges")


def state_dir(db_path: str | os.PathLike[str], stamp: str) -> Path:
    """The folder of one index state (``<index_id>:<generation>`` -> ``<index_id>-<generation>``)."""
    return store_dir(db_path) / stamp.replace(":", "-")


def db_file(conn: sqlite3.Connection) -> str:
    """The file of the connection's main database (``""`` in memory)."""
    row = conn.execute("PRAGMA database_list").fetchone()
    return row[2] if row and row[2] else ""


def recorded(conn: sqlite3.Connection) -> str:
    """Where the index keeps its graph's edges: ``"parquet"`` (shards beside it too) or ``"sqlite"``."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone()
    return "parquet" if row and row[0] == "parquet" else "sqlite"


def set_recorded(conn: sqlite3.Connection, kind: str) -> None:
    """Record the edge store inside the caller's write transaction (``sqlite`` removes the key)."""
    if kind == "parquet":
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, 'parquet')", (META_KEY,))
    else:
        conn.execute("DELETE FROM meta WHERE key = ?", (META_KEY,))


def rows_to_arrays(rows: Iterable[tuple[int, int, float]], block: int = 1 << 16) -> EdgeArrays:
    """Edge rows (a list, or an iterator such as a cursor) as three columns (ids exact in int64, weights
    as stored), converted ``block`` rows at a time: only one block of row tuples is ever held."""
    import numpy as np

    it = iter(rows)
    parts: tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]] = ([], [], [])
    while chunk := list(islice(it, block)):
        n = len(chunk)
        parts[0].append(np.fromiter((r[0] for r in chunk), dtype=np.int64, count=n))
        parts[1].append(np.fromiter((r[1] for r in chunk), dtype=np.int64, count=n))
        parts[2].append(np.fromiter((r[2] for r in chunk), dtype=np.float64, count=n))
        del chunk

    def column(k: int, dtype) -> np.ndarray:
        got = np.concatenate(parts[k]) if parts[k] else np.zeros(0, dtype=dtype)
        parts[k].clear()  # one column's blocks and its whole array held at a time
        return got

    return column(0, np.int64), column(1, np.int64), column(2, np.float64)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_bytes(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def write_state(conn: sqlite3.Connection, db_path: str | os.PathLike[str], stamp: str, *,
                rows_per_shard: int = ROWS_PER_SHARD) -> Path:
    """Write the edges ``conn`` sees as the Parquet shards of the state ``stamp``; return its folder.

    Called by the indexer under its write lock, inside the transaction that commits ``stamp``'s
    generation (so ``conn`` sees exactly the rows being committed). A folder of the same name, left
    by a writer killed before its commit, is replaced.

    Parameters
    ----------
    conn : sqlite3.Connection
        The writer's connection.
    db_path : path
        The index file (the store lives beside it).
    stamp : str
        ``<index_id>:<generation>`` of the state being committed.
    rows_per_shard : int
        Rows per Parquet file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore.index import index_repo
    >>> from lore.store import db as store_db
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> report = index_repo(d, edge_store="parquet")
    >>> conn = store_db.connect(report.db)
    >>> src, dst, w = read_state(report.db, store_db.index_stamp(conn))["calls"]
    >>> len(src), w.tolist()
    (1, [1.0])
    >>> conn.close()
    """
    pa, pq = pyarrow_modules("--edge-store parquet")
    if isinstance(rows_per_shard, bool) or not isinstance(rows_per_shard, int) or rows_per_shard < 1:
        raise ValueError(f"rows_per_shard must be a positive integer, got {rows_per_shard!r}")
    root = store_dir(db_path)
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
    try:
        relations: dict[str, dict] = {}
        for name, reader in RELATION_ROWS.items():
            src, dst, weight = rows_to_arrays(reader(conn))
            shards = []
            for k, start in enumerate(range(0, len(src), rows_per_shard)):
                stop = start + rows_per_shard
                table = pa.table({"src": src[start:stop], "dst": dst[start:stop], "weight": weight[start:stop]})
                sink = pa.BufferOutputStream()
                pq.write_table(table, sink, compression="zstd")
                data = sink.getvalue().to_pybytes()
                fname = f"{name}-{k:05d}.parquet"
                _write_bytes(tmp / fname, data)
                shards.append({"file": fname, "rows": table.num_rows, "bytes": len(data),
                               "blake2b": hashlib.blake2b(data, digest_size=16).hexdigest()})
            relations[name] = {"rows": int(len(src)), "shards": shards}
        manifest = {"format": FORMAT, "stamp": stamp, "columns": ["src", "dst", "weight"], "relations": relations}
        _write_bytes(tmp / "manifest.json", json.dumps(manifest, indent=1, sort_keys=True).encode())
        _fsync_dir(tmp)
        final = state_dir(db_path, stamp)
        if final.exists():  # never committed (its writer died before the commit), or being rewritten
            aside = Path(tempfile.mkdtemp(prefix=".tmp-old-", dir=root))
            os.rename(final, aside / "state")
            shutil.rmtree(aside, ignore_errors=True)
        os.rename(tmp, final)
        _fsync_dir(root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def read_state(db_path: str | os.PathLike[str], stamp: str) -> dict[str, EdgeArrays]:
    """The edge columns of the state ``stamp``, per relation, each shard checked against the manifest.

    Raises
    ------
    MissingExtraError
        pyarrow is not installed.
    EdgeStoreError
        The state's folder or manifest is missing, or a shard is missing, truncated or damaged.
    """
    import numpy as np

    pa, pq = pyarrow_modules()
    folder = state_dir(db_path, stamp)
    try:
        manifest = json.loads((folder / "manifest.json").read_bytes())
    except FileNotFoundError:
        raise EdgeStoreError(str(folder), "no shards for this generation") from None
    except (OSError, ValueError) as exc:
        raise EdgeStoreError(str(folder), f"unreadable manifest ({type(exc).__name__})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or manifest.get("stamp") != stamp:
        raise EdgeStoreError(str(folder), "the manifest names another format or index state")
    out: dict[str, EdgeArrays] = {}
    try:
        for name in RELATION_ROWS:
            entry = manifest["relations"][name]
            parts: list[EdgeArrays] = []
            for shard in entry["shards"]:
                path = folder / shard["file"]
                try:
                    data = path.read_bytes()
                except OSError as exc:
                    raise EdgeStoreError(str(path), f"cannot read it ({exc.strerror or type(exc).__name__})") from None
                if len(data) != shard["bytes"] or hashlib.blake2b(data, digest_size=16).hexdigest() != shard["blake2b"]:
                    raise EdgeStoreError(str(path), "its size or digest differs from the manifest (a damaged shard)")
                table = pq.read_table(pa.BufferReader(data))
                if table.num_rows != shard["rows"]:
                    raise EdgeStoreError(str(path), "its row count differs from the manifest")
                parts.append((table.column("src").to_numpy().astype(np.int64, copy=False),
                              table.column("dst").to_numpy().astype(np.int64, copy=False),
                              table.column("weight").to_numpy().astype(np.float64, copy=False)))
            if parts:
                src, dst, w = (np.concatenate([p[i] for p in parts]) for i in range(3))
            else:
                src, dst, w = np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64)
            if len(src) != entry["rows"]:
                raise EdgeStoreError(str(folder), f"relation {name} has {len(src)} rows, the manifest {entry['rows']}")
            out[name] = (src, dst, w)
    except (KeyError, TypeError) as exc:
        raise EdgeStoreError(str(folder), f"the manifest lacks {exc}") from None
    except pa.ArrowException as exc:
        raise EdgeStoreError(str(folder), f"a shard does not parse ({type(exc).__name__})") from None
    return out


def is_valid(db_path: str | os.PathLike[str], stamp: str) -> bool:
    """Whether the state ``stamp`` has a complete, undamaged set of shards (reads and checks every one)."""
    try:
        read_state(db_path, stamp)
    except (EdgeStoreError, MissingExtraError):
        return False
    return True


def prune(db_path: str | os.PathLike[str], keep: tuple[str, ...] = ()) -> None:
    """Remove every state folder but those of the stamps in ``keep`` (and ``.tmp-*`` folders of dead writers).

    Called by the writer, under its lock, after its commit. An emptied store folder is removed.
    """
    root = store_dir(db_path)
    if not root.is_dir():
        return
    names = {stamp.replace(":", "-") for stamp in keep}
    for child in root.iterdir():
        if child.name not in names:
            if child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
    try:
        root.rmdir()  # only when empty
    except OSError:
        pass


def size_bytes(db_path: str | os.PathLike[str], stamp: str) -> int:
    """Bytes on disk of the state ``stamp`` (0 when it has none)."""
    folder = state_dir(db_path, stamp)
    if not folder.is_dir():
        return 0
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
