"""Opening the index database: WAL mode, foreign keys, schema checks, the write lock.

Readers never block: SQLite's WAL keeps the last committed snapshot readable while a writer works,
so a killed or interrupted indexer leaves the previous index intact (its transaction never commits).
That holds for rebuilds too: :func:`reset_schema` drops and re-creates every table inside the
indexer's one transaction, so a rebuild killed half-way leaves the old index (even of another
schema version) exactly as it was. A file is in one of five states (:func:`index_state`); only a lore index
of the current schema version is ever read, and a file that is not a lore index is never touched.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import (
    DamagedIndexError,
    IndexBusyError,
    IndexNotFoundError,
    LoreError,
    NewerSchemaError,
    NotAnIndexError,
    SchemaVersionError,
)
from ._classify import (
    IndexConnection,
    _index_connection,
    _raise_storage_failure,
    classify_sqlite_error,
    is_storage_failure,
)
from .schema import CORE_DDL, CORE_INDEXES, DOCS_DDL, SCHEMA_VERSION

__all__ = ["IndexConnection", "classify_sqlite_error", "is_storage_failure"]  # re-exported: they were born here

DEFAULT_DIR = ".lore"
DEFAULT_DB = "index.db"


def default_db_path(root: str | os.PathLike[str] = ".") -> Path:
    """The embedded default: ``<root>/.lore/index.db``."""
    return Path(root) / DEFAULT_DIR / DEFAULT_DB


def locate_index(given: str | os.PathLike[str] | None = None) -> Path:
    """The index to use: ``given`` (a file, or a repository root), else the nearest ``.lore/index.db`` upwards.

    Raises :class:`~lore.errors.IndexNotFoundError` (naming ``./.lore/index.db``) when nothing is
    given and no directory from the working directory upwards holds an index. The CLI's ``--db``
    and the MCP server's ``--db`` both resolve through here.
    """
    if given is not None:
        given = Path(given)
        if given.is_dir():
            return given / DEFAULT_DIR / DEFAULT_DB
        return given
    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        candidate = d / DEFAULT_DIR / DEFAULT_DB
        if candidate.exists():
            return candidate
    raise IndexNotFoundError(str(here / DEFAULT_DIR / DEFAULT_DB))


def lock_path(db_path: str | os.PathLike[str]) -> Path:
    """The writer's lock file: the index's own name plus ``.lock`` (``index.db.lock``), never the index itself.

    Examples
    --------
    >>> lock_path("data/mydata.lock").name, lock_path(".lore/index.db").name
    ('mydata.lock.lock', 'index.db.lock')
    """
    p = Path(db_path)
    return p.with_name(p.name + ".lock")


def check_index_target(path: str | os.PathLike[str], *, rebuild: bool = False) -> None:
    """Refuse, before anything is created or opened for writing, an index target lore must not touch.

    Raises :class:`~lore.errors.NotAnIndexError` when ``path`` exists and is not a regular file
    (``/dev/null``, a pipe, a directory) or not a lore index (:class:`~lore.errors.DamagedIndexError` when
    it is a damaged one), or when its lock file exists and is not an empty regular file (someone else's
    file: opening it would truncate it); :class:`~lore.errors.NewerSchemaError` for the index of a newer
    lore unless ``rebuild``. Nothing beside a refused
    target is created: no parent directory, no lock, no ``-journal`` or ``-wal``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "notes.txt").write_text("my notes")
    >>> try:
    ...     check_index_target(d / "notes.txt")
    ... except NotAnIndexError:
    ...     print("refused")
    refused
    >>> sorted(p.name for p in d.iterdir())
    ['notes.txt']
    >>> check_index_target(d / "new.db")  # a new index may be created there
    """
    p = Path(path)
    for candidate, need_empty in ((p, False), (lock_path(p), True)):
        try:
            st = os.stat(candidate)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise NotAnIndexError(str(candidate)) from exc
        if not stat.S_ISREG(st.st_mode) or (need_empty and st.st_size > 0):
            raise NotAnIndexError(str(candidate))
    state, version = index_state(p)
    if state == "foreign":
        raise refusal(p)
    if state == "stale" and version is not None and version > SCHEMA_VERSION and not rebuild:
        raise schema_refusal(p, version)  # a newer lore's index is replaced only on request


def _read_only_connect(path: Path, *, check_same_thread: bool = True) -> IndexConnection:
    """A read-only connection; on a read-only file system (no ``-shm`` can be made) the file is opened as
    immutable, which SQLite allows because no one can write it there either."""
    uri = "file:" + urllib.parse.quote(os.fsencode(os.path.abspath(path)).decode("utf-8", "surrogateescape"),
                                       safe="/", errors="surrogateescape")
    conn = _index_connection(f"{uri}?mode=ro", path, uri=True, check_same_thread=check_same_thread)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if os.access(os.path.dirname(os.path.abspath(path)) or ".", os.W_OK):
            raise
    return _index_connection(f"{uri}?mode=ro&immutable=1", path, uri=True, check_same_thread=check_same_thread)


WRITER_CACHE_KIB = 16384  # the indexer's page cache (readers keep 64 MiB)
ONE_PASS_CACHE_KIB = 4096  # the upkeep steps' page cache: they read each page about once


def one_pass_reads(conn: sqlite3.Connection) -> None:
    """Give a connection that reads the index in one pass (the clusters and ranker steps of ``lore index``:
    every edge, every symbol row, each page about once) a small page cache instead of the readers' 64 MiB.

    A full cache stayed allocated under the steps' later peaks (label propagation, the features), all of
    it on a large index, for pages never read again; the operating system's file cache still serves
    a page read twice.

    Examples
    --------
    >>> conn = sqlite3.connect(":memory:")
    >>> one_pass_reads(conn)
    >>> conn.execute("PRAGMA cache_size").fetchone()[0] == -ONE_PASS_CACHE_KIB
    True
    """
    conn.execute(f"PRAGMA cache_size = -{ONE_PASS_CACHE_KIB}")


def _configure(conn: sqlite3.Connection, *, readonly: bool) -> None:
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("PRAGMA foreign_keys = ON")
    if not readonly:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA cache_size = -65536")
    conn.execute("PRAGMA temp_store = MEMORY")


def create_schema(conn: sqlite3.Connection, *, indexes: bool = True) -> None:
    """Create every table of a fresh index and stamp the schema version.

    The indexer creates a fresh index with ``indexes=False``: bulk loading is several times faster
    without secondary indexes, which :func:`ensure_indexes` builds at the end of the load.
    """
    conn.executescript(CORE_DDL + DOCS_DDL + (CORE_INDEXES if indexes else ""))
    conn.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
    )
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0')")
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('created_at', ?)", (_now(),))
    # a random identity: a rebuilt or re-created index restarts at generation 1, so caches derived
    # outside the database (the graph .npz) must be keyed by (index_id, generation), not generation alone
    conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('index_id', ?)", (uuid.uuid4().hex,))
    conn.commit()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def schema_version(conn: sqlite3.Connection) -> int | None:
    """The schema version stamped in ``meta``, or ``None`` if the file is not a lore index."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError:
        return None
    return int(row[0]) if row else None


def ensure_indexes(conn: sqlite3.Connection, *, tables: tuple[str, ...] | None = None) -> None:
    """Create the secondary indexes of the core tables if they are missing (idempotent).

    Runs inside the caller's transaction. ``tables`` limits it to the indexes of those tables.
    """
    for stmt in _statements(CORE_INDEXES):
        if tables is None or stmt.split(" ON ", 1)[1].split("(", 1)[0].strip() in tables:
            conn.execute(stmt)


def index_state(path: str | os.PathLike[str]) -> tuple[str, int | None]:
    """What the file at ``path`` holds, as ``(state, schema version)``.

    States: ``missing`` (no file, or an empty one), ``blank`` (an SQLite file without tables: a
    first ``lore index`` that was interrupted), ``current`` (a lore index of this schema version),
    ``stale`` (a lore index of another version) and ``foreign`` (anything else; never modified).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> index_state(pathlib.Path(tempfile.mkdtemp()) / "none.db")
    ('missing', None)
    """
    path = Path(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # /dev/null, a pipe, a directory: never opened as a database
            return "foreign", None
        if st.st_size == 0:
            return "missing", None
    except FileNotFoundError:
        return "missing", None
    except OSError:
        return "foreign", None
    try:
        conn = _read_only_connect(path)
    except (sqlite3.Error, DamagedIndexError) as exc:  # damaged text in sqlite_master: not known to be lore's
        _raise_storage_failure(exc)
        return "foreign", None
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return "blank", None
        if "meta" not in tables:
            return "foreign", None
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except (sqlite3.Error, DamagedIndexError) as exc:  # damaged text in sqlite_master: not known to be lore's
        _raise_storage_failure(exc)
        return "foreign", None
    finally:
        conn.close()
    try:
        version = int(row[0]) if row else None
    except (TypeError, ValueError):
        version = None
    if version is None:
        return "foreign", None
    return ("current" if version == SCHEMA_VERSION else "stale"), version


def committed_generation(path: str | os.PathLike[str]) -> int | None:
    """The generation the index at ``path`` has committed, read afresh; ``None`` when there is no lore index
    of this schema version there (an interrupted first run, a damaged file)."""
    if index_state(path)[0] != "current":
        return None
    try:
        conn = _read_only_connect(Path(path))
    except sqlite3.Error:
        return None
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        return generation(conn)
    except (sqlite3.Error, DamagedIndexError):  # a damaged index has no generation to tell of
        return None
    finally:
        conn.close()


SQLITE_HEADER = b"SQLite format 3\x00"
DAMAGED_SUFFIX = ".damaged"


def index_damage(path: str | os.PathLike[str]) -> str | None:
    """Why the file at ``path`` is a damaged lore index, or ``None`` when it is not one.

    Damaged: a file in lore's own place (``.lore/index.db``) that is no readable lore index, or anywhere
    an SQLite file that SQLite cannot read (truncated, overwritten pages). Someone else's file (not
    SQLite, or a healthy SQLite database without lore's metadata) elsewhere is not damaged: it is
    never touched.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "notes.txt").write_text("my notes")
    >>> index_damage(d / "notes.txt") is None
    True
    >>> (d / ".lore").mkdir()
    >>> _ = (d / ".lore" / "index.db").write_bytes(SQLITE_HEADER[:10])
    >>> index_damage(d / ".lore" / "index.db")
    'not an SQLite file'
    """
    p = Path(path)
    if index_state(p)[0] != "foreign":
        return None
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # /dev/null, a pipe, a directory: never an index
            return None
    except OSError:
        return None
    ours = p.name == DEFAULT_DB and p.parent.name == DEFAULT_DIR
    try:
        with open(p, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}" if ours else None
    if head != SQLITE_HEADER:
        return "not an SQLite file" if ours else None
    try:
        conn = _read_only_connect(p)
        try:
            conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if ours or "no such table" not in str(exc):
            return str(exc)
        return None
    return "no lore metadata" if ours else None


def refusal(path: str | os.PathLike[str]) -> LoreError:
    """The error for an index target that is no readable lore index: damaged (``--rebuild`` replaces it) or
    someone else's file (never touched)."""
    reason = index_damage(path)
    return DamagedIndexError(str(path), reason) if reason else NotAnIndexError(str(path))


def schema_refusal(path: str | os.PathLike[str], found: int) -> SchemaVersionError:
    """The error for an index of another schema version: a newer lore's is never replaced without ``--rebuild``."""
    if found > SCHEMA_VERSION:
        return NewerSchemaError(str(path), found, SCHEMA_VERSION)
    return SchemaVersionError(str(path), found, SCHEMA_VERSION)


def set_aside_damaged(path: str | os.PathLike[str]) -> str:
    """Move a damaged index (:func:`index_damage`) to ``<path>.damaged`` (its ``-wal`` along, its ``-shm``
    removed) so a rebuild can start afresh; returns what a rebuild report says of it (``""``: not damaged)."""
    p = Path(path)
    if index_damage(p) is None:
        return ""
    kept = p.with_name(p.name + DAMAGED_SUFFIX)
    os.replace(p, kept)
    wal = p.with_name(p.name + "-wal")
    if wal.exists():
        os.replace(wal, kept.with_name(kept.name + "-wal"))
    p.with_name(p.name + "-shm").unlink(missing_ok=True)
    return f"--rebuild; the damaged index was kept as {kept}"


def connect(
    path: str | os.PathLike[str], *, create: bool = False, readonly: bool = False, indexes: bool = True
) -> sqlite3.Connection:
    """Open the index at ``path``.

    With ``create``, a missing index is created (parents included). Otherwise a missing file raises
    :class:`IndexNotFoundError`. An index of another schema version raises
    :class:`SchemaVersionError` and a file that is not a lore index :class:`NotAnIndexError`:
    neither is ever read with the wrong layout.
    """
    path = Path(path)
    state, version = index_state(path)
    if state in ("missing", "blank"):
        if not create:
            note = "" if state == "missing" else " (an earlier `lore index` was interrupted before it committed)"
            raise IndexNotFoundError(str(path), note)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = _index_connection(str(path), path, check_same_thread=False)
        _configure(conn, readonly=False)
        create_schema(conn, indexes=indexes)
        return conn
    if state == "foreign":
        raise refusal(path)
    if state == "stale":
        raise schema_refusal(path, version if version is not None else -1)
    if not readonly and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        readonly = True  # a read-only file or file system: answer from it, write nothing (caches stay in memory)
    if readonly:
        conn = _read_only_connect(path, check_same_thread=False)
    else:
        conn = _index_connection(str(path), path, check_same_thread=False)
    try:
        _configure(conn, readonly=readonly)
        found = schema_version(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        _raise_storage_failure(exc)
        raise NotAnIndexError(str(path)) from exc
    if found != SCHEMA_VERSION:  # rebuilt by another version between the check and the open
        conn.close()
        raise SchemaVersionError(str(path), -1 if found is None else found, SCHEMA_VERSION)
    return conn


def connect_writer(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A connection for the indexer: WAL, the file (and its directory) created if missing, no schema
    check (the indexer decides per :func:`index_state` whether to refresh or :func:`reset_schema`).

    Its page cache is :data:`WRITER_CACHE_KIB`, not the readers' 64 MiB: a bulk load writes each page
    about once, so a large cache only holds dirty pages until the commit, beside every parsed record
    the resolver keeps (fresh Django index: peak 417 -> 370 MB, the same CPU time).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False)
    _configure(conn, readonly=False)
    conn.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
    return conn


WAL_CHECKPOINT_MS = 2000  # how long a writer waits, after its commit, for readers of older snapshots


def shrink_wal(conn: sqlite3.Connection) -> bool:
    """After a commit: copy the WAL into the database and truncate it, waiting at most
    :data:`WAL_CHECKPOINT_MS` for readers that still hold an older snapshot; whether it was truncated.

    SQLite's automatic checkpoints never reset the WAL while some reader holds a snapshot, so readers
    that never pause (an MCP server, a watcher's clients) let back-to-back rebuilds grow it without
    bound (40x a small index in 25 s). Readers that start meanwhile read the database file and do not
    hold this up. Never raises: a WAL left long is only disk space, and the next commit tries again.
    """
    try:
        conn.execute(f"PRAGMA busy_timeout = {WAL_CHECKPOINT_MS}")
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return busy == 0
    except sqlite3.Error:
        return False
    finally:
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
        except sqlite3.Error:
            pass


def _statements(script: str) -> Iterator[str]:
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
    if buf.strip():
        yield buf.strip()


def reset_schema(conn: sqlite3.Connection) -> None:
    """Drop every table and create an empty index of this schema version, inside the caller's
    transaction (``executescript`` would commit first). The core secondary indexes are left out: the
    indexer builds them after the bulk load with :func:`ensure_indexes`. ``generation`` continues
    from the dropped index so it only ever grows; ``index_id`` is new, so derived caches are dropped.

    ``PRAGMA foreign_keys`` must be off (it cannot change inside a transaction): dropping a table
    with foreign keys on deletes its rows one by one first.
    """
    try:
        old_gen = int(get_meta(conn, "generation", "0") or 0)
    except (sqlite3.Error, ValueError):
        old_gen = 0
    master = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql LIKE ?"
    for (name,) in conn.execute(master, ("CREATE VIRTUAL TABLE%",)).fetchall():
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')  # its shadow tables go with it
    for (name,) in conn.execute(master, ("%",)).fetchall():
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
    for stmt in _statements(CORE_DDL + DOCS_DDL):
        conn.execute(stmt)
    conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
    conn.execute("INSERT INTO meta(key, value) VALUES ('generation', ?)", (str(old_gen),))
    conn.execute("INSERT INTO meta(key, value) VALUES ('created_at', ?)", (_now(),))
    conn.execute("INSERT INTO meta(key, value) VALUES ('index_id', ?)", (uuid.uuid4().hex,))


def drop_core_indexes(conn: sqlite3.Connection) -> None:
    """Drop the secondary indexes of the core tables (before a bulk load into empty tables)."""
    for stmt in _statements(CORE_INDEXES):
        name = stmt.split("EXISTS", 1)[1].split(" ON ", 1)[0].strip()
        conn.execute(f"DROP INDEX IF EXISTS {name}")


def index_stamp(conn: sqlite3.Connection) -> str:
    """``<index_id>:<generation>``: names one state of one index; derived data keyed by it is never stale."""
    rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('index_id', 'created_at', 'generation')"))
    gen = _checked_generation(conn, rows.get("generation", "0"))
    return f"{rows.get('index_id') or rows.get('created_at', '')}:{gen}"


def database_key(conn: sqlite3.Connection) -> str:
    """A per-database cache key: the file's real path and its random identity (meta ``index_id``).

    In-process caches (BM25 statistics, vector matrices) are keyed by it, plus a generation, so two
    files, or a file deleted and indexed again under the same path, never share an entry.
    """
    row = conn.execute("PRAGMA database_list").fetchone()
    path = row[2] if row else ""
    base = os.path.realpath(path) if path else f"memory:{id(conn)}"
    return base + "|" + str(get_meta(conn, "index_id", "") or get_meta(conn, "created_at", ""))


def set_foreign_keys(conn: sqlite3.Connection, on: bool) -> None:
    """Turn foreign-key enforcement on or off (off while a rebuild drops whole tables: no row-by-row cascade)."""
    conn.execute(f"PRAGMA foreign_keys = {'ON' if on else 'OFF'}")


def begin_immediate(conn: sqlite3.Connection) -> None:
    """Start a write transaction now (take the write lock up front instead of at the first write)."""
    conn.execute("BEGIN IMMEDIATE")


def analyze(conn: sqlite3.Connection) -> None:
    """Give the query planner fresh statistics (after a bulk load) and commit."""
    conn.execute("ANALYZE")
    conn.commit()


def generation(conn: sqlite3.Connection) -> int:
    """The index generation: incremented once by every write that changes the index."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return _checked_generation(conn, row[0]) if row else 0


def _checked_generation(conn: sqlite3.Connection, value: object) -> int:
    """``meta.generation`` as an int; lore writes only integers there, so anything else means a damaged file."""
    try:
        return int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise DamagedIndexError(getattr(conn, "lore_path", ""),
                                f"meta generation is {value!r}, not an integer") from None


def bump_generation(conn: sqlite3.Connection) -> int:
    """Increment ``meta.generation`` inside the caller's transaction and return the new value."""
    new = generation(conn) + 1
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('generation', ?)", (str(new),))
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('updated_at', ?)", (_now(),))
    return new


def get_meta(conn: sqlite3.Connection, key: str, default: str | None = None) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else default


def skipped_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Files the last index run skipped, by reason (``pipe``, ``too big``, ``too slow``...); ``{}`` if none."""
    import json

    try:
        data = json.loads(get_meta(conn, "skipped", "{}") or "{}")
    except ValueError:
        return {}
    return {str(k): int(v) for k, v in sorted(data.items())} if isinstance(data, dict) else {}


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))


@contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Every read inside sees one committed state of the index: one generation, whatever writers commit.

    A deferred transaction whose first read pins the WAL snapshot; ended (never blocking a writer)
    when the block exits. Nested use, or use inside a write transaction, is a no-op: that is one state
    already. Cache writes inside (:func:`write_transaction`) go into a savepoint of it.

    Examples
    --------
    >>> conn = sqlite3.connect(":memory:")
    >>> _ = conn.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)")
    >>> with read_snapshot(conn):
    ...     conn.in_transaction
    True
    >>> conn.in_transaction
    False
    """
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")  # deferred: the first read inside pins the snapshot
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    else:
        if conn.in_transaction:
            conn.commit()  # commits the cache writes made inside, if any


@contextmanager
def write_transaction(conn: sqlite3.Connection, path: str | os.PathLike[str] = "") -> Iterator[sqlite3.Connection]:
    """One ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any exception.

    A second writer waits ``busy_timeout`` and then gets :class:`IndexBusyError`. Inside a
    :func:`read_snapshot` the writes go into a savepoint of the reader's transaction instead (committed
    with it); if a writer committed since the snapshot began, SQLite refuses them with
    ``sqlite3.OperationalError`` (callers that cache derived data ignore it).
    """
    if conn.in_transaction:
        conn.execute("SAVEPOINT lore_write")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK TO lore_write")
            conn.execute("RELEASE lore_write")
            raise
        else:
            conn.execute("RELEASE lore_write")
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise IndexBusyError(str(path)) from exc
        raise
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    else:
        conn.commit()
