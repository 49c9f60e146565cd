"""One symbol's details, symbol listings, raw edge rows, and what the index holds (stats, freshness)."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import UnknownAlgorithmError
from ..index._files import SCANNED_AT, needs_rehash, same_content
from ..index.walk import unescape_name
from ..store import db as store_db
from ..store import history as history_store
from ..store import read
from ._index import OpenIndex
from ._names import closest_symbols
from ._shape import symbol_dict

EDGE_TABLES = read.EDGE_TABLES


def symbol_details(index: OpenIndex, ref: int | str, *, snippet_lines: int = 0) -> dict:
    """Details of one symbol: location, signature, docstring, container, optional source snippet.

    ``same_name_ids`` lists every symbol of the same qualified name when there are several;
    ``snippet_lines`` > 0 adds the first lines of its source (read from the indexed root).

    A ``ref`` that names a copy of a definition (its ``.pyi`` stub, an ``@overload`` signature, a header
    prototype: :mod:`lore.graphs._fold`) shows the implementation, with ``shown_for`` (the id asked
    for) and ``also_at`` (the ``path:line`` of every other copy); so does the implementation itself.
    """
    sid = index.resolve_ref(ref)
    row = read.symbols_by_ids(index.conn, [sid])[sid]
    asked = sid
    also_at: list[str] = []
    if row.path and (row.path.endswith(".d.ts") or len(read.symbol_ids_by_qname(index.conn, row.qualified_name)) > 1):
        sid, also_at = _implementation(index, sid)
        if sid != asked:
            row = read.symbols_by_ids(index.conn, [sid])[sid]
    out = symbol_dict(row)
    out["signature"] = row.signature
    out["docstring"] = row.docstring
    out["end_line"] = row.end_line
    out["is_test"] = bool(row.is_test)
    if row.parent_id is not None:
        p = read.symbols_by_ids(index.conn, [row.parent_id]).get(row.parent_id)
        out["parent"] = {"id": row.parent_id, "qualified_name": p.qualified_name if p else None,
                         "kind": p.kind if p else None}
    else:
        out["parent"] = None
    dup = read.symbol_ids_by_qname(index.conn, row.qualified_name)
    if len(dup) > 1:
        out["same_name_ids"] = dup
    if sid != asked:
        out["shown_for"] = asked
    if also_at:
        out["also_at"] = also_at
    if snippet_lines > 0 and row.path:
        out["snippet"] = _snippet(index, row.path, row.line, min(row.end_line, row.line + snippet_lines - 1))
    return out


def _implementation(index: OpenIndex, sid: int) -> tuple[int, list[str]]:
    """(the id that stands for ``sid``, the places of its other copies): :func:`lore.graphs._fold.fold_groups`
    over the store's symbols that share a name (read only when ``sid`` has a namesake)."""
    from ..graphs._fold import fold_groups
    from ..store import _fold as store_fold

    canonical_id, also_at = fold_groups(store_fold.same_key_symbols(index.conn), store_fold.overload_decorators(index.conn))
    head = canonical_id.get(sid, sid)
    return head, also_at.get(head, [])


def did_you_mean(index: OpenIndex, name: str, *, limit: int = 5) -> dict:
    """The indexed symbols closest to ``name`` (see :mod:`lore.queries._names`).

    Returns ``{"query": name, "total": matches, "truncated": bool, "results": [{id, qualified_name,
    kind, at}]}``; an unknown name given to any lookup raises
    :class:`~lore.errors.UnknownSymbolError` with the same candidates in its message.
    """
    found, total = closest_symbols(index.conn, name, limit=limit)
    return {"query": name, "total": total, "truncated": total > len(found), "results": found}


def _snippet(index: OpenIndex, path: str, start: int, end: int) -> str:
    root = unescape_name(store_db.get_meta(index.conn, "root") or "")
    try:
        with open(Path(root) / unescape_name(path), encoding="utf-8", errors="replace") as fh:  # non-UTF-8 names
            lines = fh.read().splitlines()
    except OSError:
        return ""
    return "\n".join(lines[max(0, start - 1) : end])


def list_symbols(index: OpenIndex, *, kind: str | None = None, include_external: bool = False) -> list[dict]:
    """Every symbol (of one ``kind``; externals only with ``include_external``) as a row dict, by id."""
    return [symbol_dict(r) for r in read.iter_symbols(index.conn, kind=kind, include_external=include_external)]


def edge_rows(index: OpenIndex, table: str) -> list[dict]:
    """Every row of one edge table as dicts (``symbol_refs``, ``type_refs``, ``file_imports``, ``symbol_relationships``)."""
    if table not in EDGE_TABLES:
        raise UnknownAlgorithmError(table, EDGE_TABLES, what="edge table")
    return read.edge_rows(index.conn, table)


def index_stats(index: OpenIndex) -> dict:
    """Counts by language, kind, table and resolution, with the generation, file and root of the index."""
    out = read.stats(index.conn)
    out["generation"] = index.generation
    out["db"] = str(index.db_path)
    out["root"] = store_db.get_meta(index.conn, "root")
    out["updated_at"] = store_db.get_meta(index.conn, "updated_at")
    out["skipped"] = store_db.skipped_counts(index.conn)  # files the last `lore index` skipped, by reason
    out["history"] = history_summary(index)
    return out


def history_summary(index: OpenIndex) -> dict:
    """What the index knows of its repository's git history (the hybrid ranker's history signal): the
    commits read and used, their date range, or why there is none; ``{}`` before the first run."""
    got = history_store.run_summary(index.conn)
    if got is None:
        return {}
    generation, text = got
    try:
        summary = json.loads(text)
    except ValueError:
        return {}
    keep = ("reason", "commits_read", "commits_used", "oldest", "newest", "head", "until")
    return {"generation": generation, **{k: summary[k] for k in keep if summary.get(k) is not None}}


def index_status(index: OpenIndex) -> dict:
    """What is indexed and whether it is fresh (files changed on disk since the last index run)."""
    root = unescape_name(store_db.get_meta(index.conn, "root") or "")
    states = read.file_states(index.conn)
    scanned = int(store_db.get_meta(index.conn, SCANNED_AT, "0") or 0)
    stale: list[str] = []
    missing: list[str] = []
    for path, state in states.items():
        full = Path(root) / unescape_name(path)
        try:
            st = full.stat()
        except OSError:
            missing.append(path)
            continue
        if st.st_size != state.size or st.st_mtime_ns != state.mtime_ns:
            stale.append(path)
        elif needs_rehash(st.st_ctime_ns, scanned) and not same_content(str(full), state.hash, st.st_size):
            stale.append(path)  # replaced by a copy of the same size and mtime (cp -p, tar, rsync -a)
    try:
        skipped_files = json.loads(store_db.get_meta(index.conn, "skipped_files", "{}") or "{}")
    except ValueError:
        skipped_files = {}
    return {
        "db": str(index.db_path),
        "root": root,
        "generation": index.generation,
        "updated_at": store_db.get_meta(index.conn, "updated_at"),
        "files": len(states),
        "symbols": read.table_count(index.conn, "symbols"),
        "fresh": not stale and not missing,
        "changed_on_disk": sorted(stale)[:50],
        "removed_on_disk": sorted(missing)[:50],
        # files the last run did not index (over budget, binary, pipes...), by reason; the next run tries
        # those over a budget again
        "skipped": store_db.skipped_counts(index.conn),
        "skipped_files": skipped_files if isinstance(skipped_files, dict) else {},
    }
