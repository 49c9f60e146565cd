"""Writing parsed files into the store while the workers parse: rows batched, records kept for resolution.

:class:`Ingest` is the indexer's writer for one run (:func:`lore.index.indexer.index_repo`): it begins the
one write transaction lazily (a run that finds nothing to change writes nothing), assigns file and
symbol ids (a changed file keeps the ids of the symbols whose qualified name survives), inserts rows in
batches of ``FLUSH_EVERY`` files, and keeps what the resolver needs of each fresh file.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections import Counter
from pathlib import Path

from ..errors import IndexBusyError
from ..parsers.records import ParsedFile, decode
from ..store import db as store_db
from ..store import read, write
from ._flow_keep import shape as flow_shape
from ._parse import Parsed, interface_items
from ._report import IndexReport
from .walk import SourceFile, is_test_path

FLUSH_EVERY = 256  # files per batch of inserts while the workers parse


class Ingest:
    """Writes parsed files into the store, batched, inside the indexer's one transaction (begun lazily,
    so a run that finds nothing to change writes nothing)."""

    def __init__(self, conn: sqlite3.Connection, db_path: Path, report: IndexReport, existing: dict,
                 reset: bool) -> None:
        self.conn, self.db_path, self.report, self.existing, self.reset = conn, db_path, report, existing, reset
        self.begun = False
        self.decode_now = False
        self.next_sid = self.next_fid = 0
        # file id -> (records, symbol ids): decoded, or compressed with the ids as an int64 array
        self.fresh: dict[int, tuple[ParsedFile | bytes, list[int] | array]] = {}
        self._held = 0  # bytes of the compressed ones
        self.old_items: set[tuple] = set()
        self.gone: list[ParsedFile] | None = []  # old records of re-parsed and removed files (None: one was unreadable)
        self.new_items: set[tuple] = set()
        self.same_shape = True  # every changed file reads the same to the resolver (lore.index._flow_keep)
        self.added_modules: set[str] = set()
        self.removed_modules: set[str] = set()
        self.changed_ids: list[int] = []
        self._files: list[tuple] = []
        self._syms: list[tuple] = []
        self._fts: list[tuple] = []
        self._file_fts: list[tuple] = []
        self._records: list[tuple] = []
        self._pending = 0

    def begin(self) -> None:
        if self.begun:
            return
        conn = self.conn
        if self.reset:
            store_db.set_foreign_keys(conn, False)  # DROP TABLE would otherwise delete row by row
        try:
            store_db.begin_immediate(conn)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise IndexBusyError(str(self.db_path)) from exc
            raise
        self.begun = True
        if self.reset:
            store_db.reset_schema(conn)
        if self.report.full:
            store_db.drop_core_indexes(conn)  # bulk load first, index after
        self.next_sid = read.max_symbol_id(conn) + 1
        self.next_fid = read.max_file_id(conn) + 1
        self.generation = store_db.generation(conn) + 1

    def add(self, f: SourceFile, res: Parsed) -> None:
        self.begin()
        conn = self.conn
        old = self.existing.get(f.path)
        is_test = int(is_test_path(f.path))
        row = (f.path, f.language, res.module, res.hash, f.size, f.mtime_ns, res.lines, res.syntax_errors, is_test,
               self.generation)
        reuse: dict[tuple[str, str, int], int] = {}
        record: ParsedFile | bytes | None = res.record
        if old is not None:
            fid = old[0]
            self.flush()  # the file's old rows go before its new ones are inserted
            got = read.record_blob(conn, fid)
            if got is not None:
                old_pf = decode(got[0])
                self.old_items |= interface_items(old_pf)
                self._gone(old_pf)
                if self.same_shape:
                    new_pf = res.record if res.record is not None else decode(res.blob)
                    record = new_pf  # decoded once: kept for resolution below
                    self.same_shape = flow_shape(old_pf) == flow_shape(new_pf)
            else:
                self.same_shape = False
                self.gone = None
            occ: Counter = Counter()
            for sid, qn, kind in read.symbol_keys_of_file(conn, fid):
                key = (qn, kind, occ[(qn, kind)])
                occ[(qn, kind)] += 1
                reuse[key] = sid
            # the edges that start in its old symbols go with them (a symbol that is not reused would
            # otherwise leave rows whose caller no longer exists); the file is re-resolved anyway
            write.delete_edges_of_files(conn, [fid])
            write.delete_symbols_of_file(conn, fid)
            write.delete_file_fts(conn, fid)
            write.upsert_file(conn, row, fid)
            self.changed_ids.append(fid)
        else:
            fid = self.next_fid
            self.next_fid += 1
            self._files.append((fid, *row))
            self.added_modules.add(res.module)
            self.same_shape = False
        ids: list[int] = []
        occ2: Counter = Counter()
        for t in res.syms:
            key = (t[1], t[2], occ2[(t[1], t[2])])
            occ2[(t[1], t[2])] += 1
            kept = reuse.get(key)
            if kept is None:
                kept = self.next_sid
                self.next_sid += 1
            ids.append(kept)
        syms = self._syms
        for i, t in enumerate(res.syms):
            parent = ids[t[3]] if t[3] is not None else None
            syms.append((ids[i], fid, t[0], t[1], t[2], parent, *t[4:], is_test))
        self._fts.append((fid, [(ids[i], *cols) for i, cols in enumerate(res.fts)]))  # stored per file
        self._file_fts.append((fid, *res.file_fts))
        self._records.append((fid, res.blob, array("q", ids).tobytes(), res.ref_names))
        # records of fresh files: decoded here, while the workers parse, when forked resolver workers will
        # inherit them (each would otherwise decode most files again); decoded on first use otherwise
        if record is None:
            record = decode(res.blob) if self.decode_now else res.blob
        if isinstance(record, bytes):  # compressed: what the budget leaves no room for decoded (lore.index._memory)
            self._held += len(record) + 8 * len(ids)
            self.fresh[fid] = (record, array("q", ids))
        else:
            self.fresh[fid] = (record, ids)
        if res.items is not None:
            self.new_items |= res.items
        self._pending += 1
        if self._pending >= FLUSH_EVERY:
            self.flush()

    def held_bytes(self) -> int:
        """Bytes of the compressed records held for resolution (decoded ones are counted with the contexts)."""
        return self._held

    def remove(self, paths: list[str]) -> None:
        """Delete the rows of files that are gone (or became unreadable / binary)."""
        ids = [self.existing[p][0] for p in paths]
        if ids:
            self.same_shape = False
        for fid in ids:
            got = read.record_blob(self.conn, fid)
            if got is None:
                self.gone = None
                continue
            old_pf = decode(got[0])
            self.old_items |= interface_items(old_pf)
            self._gone(old_pf)
        self.removed_modules.update(read.modules_of_files(self.conn, ids))
        write.delete_files(self.conn, ids)

    def _gone(self, old_pf: ParsedFile) -> None:
        if self.gone is not None:
            self.gone.append(old_pf)

    def flush(self) -> None:
        if not self._pending:
            return
        conn = self.conn
        write.insert_files(conn, self._files)
        write.insert_symbols(conn, self._syms)
        write.insert_fts(conn, self._fts, self._file_fts)
        write.put_records(conn, self._records)
        for batch in (self._files, self._syms, self._fts, self._file_fts, self._records):
            batch.clear()
        self._pending = 0
