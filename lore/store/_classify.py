"""SQLite's errors classified into LoreErrors, in one place, and the connection that raises them.

Every connection :func:`lore.store.db.connect` hands out is an :class:`IndexConnection`: its cursors'
``execute``, ``fetch*`` and iteration, and its ``commit``, turn an SQLite error into the one-line error
that says what to do (:func:`classify_sqlite_error`): damaged -> ``lore index --rebuild``; full or
failing disk -> free space; unreadable -> check the file. The error stays an instance of the
``sqlite3`` class it came as, so code that already tolerates a given SQLite error keeps doing so.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from typing import Any

from ..errors import DamagedIndexError, IndexStorageError, LoreError, NotAnIndexError

_STORAGE_FAILURES = ("disk i/o error", "database or disk is full", "readonly database", "unable to open database",
                     "disk full", "no space")


def is_storage_failure(exc: BaseException) -> bool:
    """Whether an SQLite error means the storage refused a write (full, read-only, I/O), not a lore bug."""
    text = str(exc).lower()
    return any(s in text for s in _STORAGE_FAILURES)


# -- SQLite failures as LoreErrors --------------------------------------------------------------------
# Every connection :func:`connect` hands out classifies SQLite's failures here, once, so each read path
# (CLI, API, MCP) reports a damaged index or a refusing disk in one sentence that names the fix.


def classify_sqlite_error(exc: BaseException, path: str | os.PathLike[str] = "") -> LoreError | None:
    """The :class:`~lore.errors.LoreError` that says what an SQLite failure on the index at ``path`` means.

    ``None`` when it is none of the known kinds (a lock, a lore bug): the caller re-raises it unchanged.
    The error returned is also an instance of ``exc``'s own sqlite3 class (and carries its
    ``sqlite_errorcode``), so code that tolerates a particular SQLite failure still catches it.

    ============================  ====================================================================
    SQLite says                   lore says
    ============================  ====================================================================
    ``SQLITE_CORRUPT``, malformed damaged: run ``lore index --rebuild``
    ``no such table``             damaged (a table was dropped): run ``lore index --rebuild``
    text that is not UTF-8        damaged: run ``lore index --rebuild``
    ``SQLITE_NOTADB``             not a lore index (:class:`~lore.errors.NotAnIndexError`)
    ``SQLITE_FULL``               the disk is full: free some space
    ``SQLITE_IOERR*``             I/O error (a full disk cannot hold the ``-shm`` file): free space, check the disk
    ``SQLITE_CANTOPEN``           cannot open: check the file, its directory and their permissions
    ``SQLITE_READONLY``           read-only: make the file and its directory writable
    ============================  ====================================================================

    Examples
    --------
    >>> try:
    ...     sqlite3.connect(":memory:").execute("SELECT * FROM symbols")
    ... except sqlite3.Error as exc:
    ...     err = classify_sqlite_error(exc, "x.db")
    >>> print(err)
    the index at x.db is damaged (no such table: symbols); run `lore index --rebuild` to replace it
    >>> isinstance(err, sqlite3.OperationalError), classify_sqlite_error(sqlite3.OperationalError("database is locked"))
    (True, None)
    """
    path = os.fspath(path) if path else ""
    if isinstance(exc, UnicodeDecodeError):
        return DamagedIndexError(path, "it holds text that is not UTF-8")
    if not isinstance(exc, sqlite3.Error) or isinstance(exc, LoreError):
        return None
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = " ".join(str(exc).split())
    low = text.lower()
    err: LoreError
    if name.startswith("SQLITE_CORRUPT") or "malformed" in low:
        err = DamagedIndexError(path, text)
    elif name.startswith("SQLITE_NOTADB") or "file is not a database" in low:
        err = NotAnIndexError(path)
    elif low.startswith("no such table"):
        err = DamagedIndexError(path, text)
    elif name.startswith("SQLITE_FULL") or "database or disk is full" in low:
        err = IndexStorageError(path, text, "the disk is full: free some disk space and retry")
    elif name.startswith(("SQLITE_IOERR_SHM", "SQLITE_IOERR_TRUNCATE", "SQLITE_IOERR_WRITE")):
        err = IndexStorageError(path, f"{text}: SQLite could not write its -shm/-wal file beside the index",
                                "free some disk space (a full disk is the usual cause) and retry")
    elif name.startswith("SQLITE_IOERR") or "disk i/o error" in low:
        err = IndexStorageError(path, text, "check that the disk has free space and reports no errors, then "
                                            "retry; if it persists, run `lore index --rebuild`")
    elif name.startswith("SQLITE_CANTOPEN") or "unable to open database" in low:
        err = IndexStorageError(path, text, "check that the file and its directory exist and are readable")
    elif name.startswith("SQLITE_READONLY") or "readonly database" in low:
        err = IndexStorageError(path, text, "make the index file and its directory writable")
    else:
        return None
    return _flavoured(err, exc)


_FLAVOURS: dict[tuple[type, type], type[LoreError]] = {}


def _flavoured(err: LoreError, exc: sqlite3.Error) -> LoreError:
    """``err`` re-made as an instance of both its class and ``exc``'s sqlite3 class, with its error code."""
    key = (type(err), type(exc))
    cls: type[LoreError] | None = _FLAVOURS.get(key)
    if cls is None:
        cls = _FLAVOURS[key] = type(type(err).__name__, key, {"__module__": type(err).__module__})
    new: LoreError = Exception.__new__(cls)
    new.__dict__.update(err.__dict__)
    new.args = err.args
    for attr in ("sqlite_errorcode", "sqlite_errorname"):
        if hasattr(exc, attr):
            setattr(new, attr, getattr(exc, attr))
    return new


_CLASSIFIED = (sqlite3.DatabaseError, UnicodeDecodeError)


def _raise_classified(exc: BaseException, conn: sqlite3.Connection) -> None:
    """Raise the LoreError :func:`classify_sqlite_error` makes of ``exc`` (chained to it); return if none."""
    err = classify_sqlite_error(exc, getattr(conn, "lore_path", ""))
    if err is not None:
        raise err from exc


class IndexCursor(sqlite3.Cursor):
    """A cursor whose statements and fetches raise classified errors (:func:`classify_sqlite_error`).

    Iteration goes through the C ``fetchone`` (one generator step per row, no Python call): a page
    found damaged half-way through a scan is classified too.
    """

    def execute(self, sql: str, parameters: Any = (), /) -> IndexCursor:
        try:
            return super().execute(sql, parameters)
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> IndexCursor:
        try:
            return super().executemany(sql, seq_of_parameters)
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise

    def fetchmany(self, size: int | None = None) -> list[Any]:
        try:
            return super().fetchmany(self.arraysize if size is None else size)
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise

    def __iter__(self) -> Iterator[Any]:  # type: ignore[override]
        try:
            yield from iter(super().fetchone, None)
        except _CLASSIFIED as exc:
            _raise_classified(exc, self.connection)
            raise


class IndexConnection(sqlite3.Connection):
    """The connection :func:`connect` returns: its cursors are :class:`IndexCursor`, its path ``lore_path``."""

    lore_path: str = ""

    def cursor(self, factory: Any = IndexCursor) -> Any:  # type: ignore[override]
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> IndexCursor:  # type: ignore[override]
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> IndexCursor:  # type: ignore[override]
        return self.cursor().executemany(sql, seq_of_parameters)

    def commit(self) -> None:
        try:
            super().commit()
        except _CLASSIFIED as exc:
            _raise_classified(exc, self)
            raise


def _raise_storage_failure(exc: BaseException) -> None:
    """Re-raise ``exc`` when it says the storage refused (disk full, I/O): such a file is no less an index."""
    if isinstance(exc, IndexStorageError):
        raise exc


def _index_connection(target: str, path: str | os.PathLike[str], **kw: Any) -> IndexConnection:
    """``sqlite3.connect(target, **kw)`` as an :class:`IndexConnection` for the index at ``path``."""
    conn = sqlite3.connect(target, factory=IndexConnection, **kw)
    conn.lore_path = os.fspath(path)
    return conn
