"""The user's cache of what mining a history reads: parsed commit logs by HEAD, parsed file versions by blob id.

One SQLite file shared by every index and checkout of the user (:class:`BlobSpans`): a second checkout
or a rebuild of the same repository runs no ``git log`` (the miner, :mod:`lore.index.history`), and a
file version parsed once is not parsed again (:class:`lore.index.revisions.RevisionSpans`). Kept apart
from the parsers: the background miner reads logs from it without loading any grammar.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sqlite3
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

from ..store import history as store_history

SPANS_FORMAT = 1  # of a cached parse (BlobSpans): raise it when what a version's spans are changes
MAX_CACHE_ROWS = 100_000  # parsed versions kept in the user's cache (a few hundred bytes to a few KB each)
MAX_CACHE_LOGS = 16  # parsed commit logs kept in it (one per mined HEAD; about 100-500 KB each)


class BlobSpans:
    """What parsing a file version gives (its definitions' spans and names), cached per blob for the user.

    Keyed by git's object id of the blob, its language and :data:`SPANS_FORMAT`: a blob's content
    never changes, so a second checkout, a copy or a rebuild of the index maps its history without
    parsing any version again; the parsed ``git log`` of a HEAD is kept too (:meth:`load_log`), so
    they run no ``git log`` either. One SQLite file (``history-spans.sqlite`` in the lore cache folder:
    ``$LORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/lore``, else ``~/.cache/lore``; ``path`` to move it),
    bounded to :data:`MAX_CACHE_ROWS` entries (the least recently used go). Safe to share: SQLite's
    WAL lets concurrent miners read, a writer that would wait skips its write, a value that does not
    decode to its own key is ignored (parsed again and rewritten), and a file that is not a database
    is moved aside. Never raises: a cache that cannot be used only means parsing.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self._conn: sqlite3.Connection | None = None
        self._off = False
        self._mem: dict[str, bytes] = {}
        self._pending: list[tuple[str, bytes]] = []
        self._hits: list[str] = []
        self.damaged = 0

    @staticmethod
    def key(oid: str, language: str) -> str:
        return f"{oid}:{language}:{SPANS_FORMAT}"

    def _db(self) -> sqlite3.Connection | None:
        if self._conn is None and not self._off:
            for attempt in (0, 1):
                try:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                    self._conn = store_history.open_span_cache(str(self.path))
                    break
                except sqlite3.DatabaseError:  # not a database (damaged): moved aside once, then made anew
                    if attempt == 0:
                        with contextlib.suppress(OSError):
                            os.replace(self.path, self.path.with_name(f"{self.path.name}.damaged"))
                            for tail in ("-wal", "-shm"):
                                with contextlib.suppress(OSError):
                                    os.unlink(f"{self.path}{tail}")
                except OSError:
                    break
            self._off = self._conn is None
        return self._conn

    def prefetch(self, keys: Sequence[str]) -> None:
        """Read the cached values of ``keys`` in a few queries (the miner asks for each one later)."""
        conn = self._db()
        want = [k for k in dict.fromkeys(keys) if k not in self._mem]
        if conn is None or not want:
            return
        try:
            self._mem.update(store_history.get_spans(conn, want))
        except sqlite3.Error:
            pass

    def get(self, key: str) -> list[tuple[int, int, str]] | None:
        """The cached spans of ``key``, or ``None`` (not cached, or damaged: the caller parses and :meth:`put` s)."""
        value = self._mem.pop(key, None)
        if value is None:
            conn = self._db()
            if conn is None:
                return None
            try:
                value = store_history.get_spans(conn, [key]).get(key)
            except sqlite3.Error:
                return None
            if value is None:
                return None
        try:
            got_key, spans = marshal.loads(zlib.decompress(value))
            if got_key != key:
                raise ValueError(key)
            out = [(int(s), int(e), str(q)) for s, e, q in spans]
        except (ValueError, TypeError, EOFError, zlib.error):
            self.damaged += 1
            return None
        self._hits.append(key)
        return out

    def put(self, key: str, spans: list[tuple[int, int, str]]) -> None:
        """Keep what a parse gave (written in batches, and on :meth:`close`)."""
        self._pending.append((key, zlib.compress(marshal.dumps((key, [tuple(t) for t in spans])), 1)))
        if len(self._pending) >= 256:
            self.flush()

    def flush(self) -> None:
        conn = self._db()
        rows, self._pending = self._pending, []
        if conn is None:
            return
        now = int(time.time())
        try:
            if rows:
                store_history.put_spans(conn, rows, now)
            hits, self._hits = self._hits, []
            if hits:
                store_history.touch_spans(conn, hits, now)
        except sqlite3.Error:  # busy (another miner writes) or read-only: this batch stays uncached
            pass

    def load_log(self, key: str) -> bytes | None:
        """The parsed commit log cached under ``key`` (:class:`lore.index.history.LogCache`), or ``None``."""
        conn = self._db()
        if conn is None:
            return None
        try:
            return store_history.get_cached_log(conn, key)
        except sqlite3.Error:
            return None

    def save_log(self, key: str, blob: bytes) -> None:
        """Keep a parsed commit log (the :data:`MAX_CACHE_LOGS` most recent are kept)."""
        conn = self._db()
        if conn is None:
            return
        with contextlib.suppress(sqlite3.Error):
            store_history.put_cached_log(conn, key, blob, int(time.time()), MAX_CACHE_LOGS)

    def close(self) -> None:
        self.flush()
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(sqlite3.Error):
            store_history.prune_spans(conn, MAX_CACHE_ROWS)
        conn.close()


def default_cache_path() -> Path:
    """Where the span cache lives: ``$LORE_HISTORY_CACHE`` (a file path) when set, else
    ``history-spans.sqlite`` in lore's user cache folder (``$LORE_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/lore``, else ``~/.cache/lore``)."""
    import os

    from ..text._quantize import cache_dir

    own = os.environ.get("LORE_HISTORY_CACHE")
    return Path(own) if own else cache_dir() / "history-spans.sqlite"
