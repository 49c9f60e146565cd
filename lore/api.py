"""The endpoints: open an index, look symbols up, walk the graph, rank related symbols, search.

Every public function returns JSON-ready data (dicts, lists, str, int, float, None): the CLI prints
it as a table or ``--json``, the MCP server returns it as tool output. The library does the work;
those shells only translate.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IndexNotFoundError, InvalidArgumentError, UnknownAlgorithmError, UnknownSymbolError
from .index import IndexReport
from .index import index_repo as _index_code
from .search.tokens import STOP_WORDS, split_identifier
from .store import clusters as clusters_store
from .store import db as store_db
from .store import read

if TYPE_CHECKING:  # numpy / scipy load lazily: `lore index` and `lore show` start faster without them
    import numpy as np

    from .graphs import CodeGraph


def _np():
    import numpy

    return numpy


def _rel():
    from .graphs import related

    return related


GRAPH_KINDS = ("call", "callers", "import", "inheritance", "related", "cluster")
EDGE_TABLES = ("symbol_refs", "type_refs", "file_imports", "symbol_relationships")
MAX_LIMIT = 1000


def _resolve_db(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    if p.is_dir():
        candidate = store_db.default_db_path(p)
        if candidate.exists() or not (p / store_db.DEFAULT_DB).exists():
            return candidate
        return p / store_db.DEFAULT_DB
    return p


class Index:
    """An open index: symbols, edges, graph queries and search.

    Use :func:`open_index`. ``readonly`` indexes never write, not even derived caches (clusters
    are then cached in memory only).
    """

    def __init__(self, db_path: Path, *, readonly: bool = False) -> None:
        self.db_path = db_path
        self.readonly = readonly
        self.conn: sqlite3.Connection = store_db.connect(db_path, readonly=readonly)
        self._cluster_memory: dict[tuple[str, int], tuple[dict, Any]] = {}

    # -- basics ---------------------------------------------------------------------------------
    @property
    def generation(self) -> int:
        return store_db.generation(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def graph(self) -> CodeGraph:
        from .graphs import load_graph

        return load_graph(self.conn, self.db_path, save=not self.readonly)

    def stats(self) -> dict:
        out = read.stats(self.conn)
        out["generation"] = self.generation
        out["db"] = str(self.db_path)
        out["root"] = store_db.get_meta(self.conn, "root")
        out["updated_at"] = store_db.get_meta(self.conn, "updated_at")
        return out

    def status(self) -> dict:
        """What is indexed and whether it is fresh (files changed on disk since the last index run)."""
        root = store_db.get_meta(self.conn, "root") or ""
        states = read.file_states(self.conn)
        stale: list[str] = []
        missing: list[str] = []
        for path, (_fid, _h, size, mtime) in states.items():
            full = Path(root) / path
            try:
                st = full.stat()
            except OSError:
                missing.append(path)
                continue
            if st.st_size != size or st.st_mtime_ns != mtime:
                stale.append(path)
        return {
            "db": str(self.db_path),
            "root": root,
            "generation": self.generation,
            "updated_at": store_db.get_meta(self.conn, "updated_at"),
            "files": len(states),
            "symbols": read.table_count(self.conn, "symbols"),
            "fresh": not stale and not missing,
            "changed_on_disk": sorted(stale)[:50],
            "removed_on_disk": sorted(missing)[:50],
        }

    # -- symbols --------------------------------------------------------------------------------
    def resolve_ref(self, ref: int | str) -> int:
        """A symbol id from an id (int or digits) or a qualified name."""
        if isinstance(ref, bool):
            raise UnknownSymbolError(ref)
        if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
            sid = int(ref)
            if read.symbol_by_id(self.conn, sid) is None:
                raise UnknownSymbolError(sid)
            return sid
        if not isinstance(ref, str) or not ref.strip():
            raise UnknownSymbolError(ref)
        name = ref.strip()
        ids = read.symbol_ids_by_qname(self.conn, name)
        if not ids:
            raise UnknownSymbolError(name)
        return ids[0]

    def symbol(self, ref: int | str, *, snippet_lines: int = 0) -> dict:
        """Details of one symbol: location, signature, docstring, container, optional source snippet."""
        sid = self.resolve_ref(ref)
        row = read.symbols_by_ids(self.conn, [sid])[sid]
        out = _row_dict(row)
        out["signature"] = row[7]
        out["docstring"] = row[8]
        out["end_line"] = row[6]
        out["is_test"] = bool(row[9])
        parent = row[11]
        if parent is not None:
            p = read.symbols_by_ids(self.conn, [parent]).get(parent)
            out["parent"] = {"id": parent, "qualified_name": p[2] if p else None, "kind": p[3] if p else None}
        else:
            out["parent"] = None
        dup = read.symbol_ids_by_qname(self.conn, row[2])
        if len(dup) > 1:
            out["same_name_ids"] = dup
        if snippet_lines > 0 and row[4]:
            out["snippet"] = self._snippet(row[4], row[5], min(row[6], row[5] + snippet_lines - 1))
        return out

    def _snippet(self, path: str, start: int, end: int) -> str:
        root = store_db.get_meta(self.conn, "root") or ""
        try:
            with open(Path(root) / path, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return ""
        return "\n".join(lines[max(0, start - 1) : end])

    def symbols(self, *, kind: str | None = None, include_external: bool = False) -> list[dict]:
        return [
            {"id": r[0], "name": r[1], "qualified_name": r[2], "kind": r[3], "path": r[4], "line": r[5]}
            for r in read.iter_symbols(self.conn, kind=kind, include_external=include_external)
        ]

    def edges(self, table: str) -> list[dict]:
        """Every row of one edge table as dicts (``symbol_refs``, ``type_refs``, ``file_imports``, ``symbol_relationships``)."""
        if table not in EDGE_TABLES:
            raise UnknownAlgorithmError(table, EDGE_TABLES, what="edge table")
        cur = self.conn.execute(f"SELECT * FROM {table} ORDER BY rowid")  # table name checked against a fixed list
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r, strict=True)) for r in cur]

    def search(self, query: str, **options: Any) -> dict:
        """BM25 / hybrid search over symbols (or files with ``files=True``); see :func:`lore.search.api.search`."""
        from .search.api import search

        return search(self.conn, query, db_path=self.db_path, **options)

    # -- clusters -------------------------------------------------------------------------------
    def clusters(self, *, mode: str = "lpa", seed: int = 0, min_size: int = 2) -> tuple[dict, np.ndarray]:
        """(summary, labels per graph row), cached per generation in the store (or in memory when read-only)."""
        np = _np()
        g = self.graph()
        key = f"{mode}:seed={seed}:min={min_size}"
        mem = self._cluster_memory.get((key, g.stamp))
        if mem is not None:
            return mem
        stored = clusters_store.load_run(self.conn, key, g.generation)
        if stored is not None:
            summary, members = stored
            labels = np.full(g.n, -1, dtype=np.int64)
            if members.size:
                labels[g.nodes.rows(members[:, 0])] = members[:, 1]
            self._cluster_memory[(key, g.stamp)] = (summary, labels)
            return summary, labels
        labels, sizes, cohesion = _rel().compute_clusters(g, seed=seed, mode=mode, min_size=min_size)
        summary = self._cluster_summary(g, labels, sizes, cohesion)
        if not self.readonly:
            rows = np.flatnonzero(labels >= 0)
            members = np.column_stack([g.nodes.ids[rows], labels[rows]])
            try:
                with store_db.write_transaction(self.conn, self.db_path):
                    if store_db.generation(self.conn) == g.generation:
                        clusters_store.save_run(self.conn, key, g.generation, summary, members)
            except sqlite3.OperationalError:
                pass  # a busy or read-only file: keep the in-memory copy
        self._cluster_memory[(key, g.stamp)] = (summary, labels)
        return summary, labels

    def _cluster_summary(self, g: CodeGraph, labels: np.ndarray, sizes: np.ndarray, cohesion: np.ndarray) -> dict:
        np = _np()
        rows = np.flatnonzero(labels >= 0)
        ids = [g.nodes.id(int(r)) for r in rows]
        info = read.symbols_by_ids(self.conn, ids)
        by_cluster: dict[int, list[int]] = {}
        for r, sid in zip(rows.tolist(), ids, strict=True):
            by_cluster.setdefault(int(labels[r]), []).append(sid)
        deg = np.asarray(_rel().cluster_adjacency(g).sum(axis=1)).ravel()
        doc_freq: Counter[str] = Counter()
        for row in info.values():
            if row[3] != "module":
                doc_freq.update(_label_tokens(row[1]))
        out = {}
        for cid, members in by_cluster.items():
            paths = [info[s][4] for s in members if s in info]
            names = [info[s][1] for s in members if s in info and info[s][3] != "module"]
            top = sorted(members, key=lambda s: (-deg[g.nodes.row(s)], s))[:5]
            out[str(cid)] = {
                "size": int(sizes[cid]) if cid < len(sizes) else len(members),
                "cohesion": round(float(cohesion[cid]), 4) if cid < len(cohesion) else 0.0,
                "label": cluster_label(paths, names, doc_freq=doc_freq, n_docs=len(info)),
                "top_members": top,
            }
        return out


def index_repo(root: str | os.PathLike[str] = ".", **options: Any) -> IndexReport:
    """Index (or refresh) the repository at ``root``; see :func:`lore.index.index_repo` for the options.

    After a refresh that changed the code, documents added with ``lore docs add`` get their
    symbol mentions recomputed, so ``--with-docs`` never points at symbols that are gone. A rebuild
    (``rebuild=True`` or a schema change) keeps the documents, their chunk ids and vectors. Code
    vectors (``lore index --embed``) are refreshed for the files that changed, or remade after a
    rebuild (:mod:`lore.search.upkeep`).
    """
    from .search import upkeep
    from .store import docs_keep

    db = options.get("db") or store_db.default_db_path(Path(root).resolve())
    kept = docs_keep.save_before_rebuild(db, rebuild=bool(options.get("rebuild")))
    vector_models = upkeep.stored_vector_models(db)  # code vectors (`lore index --embed`) stay fresh
    try:
        report = _index_code(root, **options)
        if kept is not None and report.rebuilt_reason:
            docs_keep.restore_after_rebuild(report.db, kept)
    finally:
        docs_keep.discard(kept)
    if report.changed_any:
        conn = store_db.connect(report.db)
        try:
            if conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone():
                from .docs import refresh_mentions

                with store_db.write_transaction(conn, report.db):
                    refresh_mentions(conn)
        finally:
            conn.close()
    upkeep.refresh_after_index(report, vector_models)
    return report


_LABEL_SKIP = frozenset({"test", "tests", "init", "self", "get", "set", "main", "impl"})


def _label_tokens(name: str) -> set[str]:
    return {t for t in split_identifier(name) if len(t) > 2 and t not in STOP_WORDS and t not in _LABEL_SKIP}


def majority_path(paths: list[str], share: float = 0.6) -> str:
    """The deepest directory or file that holds at least ``share`` of ``paths``.

    Examples
    --------
    >>> majority_path(["pkg/http/client.py", "pkg/http/server.py", "pkg/util.py"])
    'pkg/http'
    >>> majority_path(["a/x.py", "b/y.py"])
    ''
    """
    counts: Counter[tuple[str, ...]] = Counter()
    for p in paths:
        parts = tuple(Path(p).parts)
        for depth in range(1, len(parts) + 1):
            counts[parts[:depth]] += 1
    need = share * len(paths)
    best = max((k for k, n in counts.items() if n >= need), key=lambda k: (len(k), counts[k], k), default=())
    return "/".join(best)


def cluster_label(paths: list[str], names: list[str], *, doc_freq: Counter[str] | None = None,
                  n_docs: int = 0) -> str:
    """A readable label: where most members live, and the name tokens that set the cluster apart.

    Tokens are ranked by their count among the members times ``log(n_docs / doc_freq)`` over the
    whole index (when given): a token every symbol has says nothing about this cluster. Stop words
    and a few generic tokens (``test``, ``init``, ``get``...) are skipped; ties are alphabetical.

    Examples
    --------
    >>> cluster_label(["pkg/http/client.py", "pkg/http/server.py"], ["send_request", "parse_request", "Request"])
    'pkg/http: request, parse, send'
    """
    prefix = majority_path(paths) if paths else ""
    tokens: Counter[str] = Counter()
    for n in names:
        tokens.update(_label_tokens(n))

    def weight(t: str) -> float:
        if not doc_freq or not n_docs:
            return float(tokens[t])
        return tokens[t] * math.log((n_docs + 1) / (doc_freq.get(t, 0) + 1))

    common = sorted(tokens, key=lambda t: (-weight(t), t))[:3]
    words = ", ".join(common)
    return f"{prefix}: {words}" if prefix and words else (prefix or words or "(unnamed)")


def _row_dict(row: tuple) -> dict:
    return {"id": row[0], "name": row[1], "qualified_name": row[2], "kind": row[3], "path": row[4], "line": row[5]}


def open_index(path: str | os.PathLike[str] = ".", *, readonly: bool = False) -> Index:
    """Open the index of the repository at ``path`` (or the index file itself).

    Raises :class:`~lore.errors.IndexNotFoundError` if there is none yet.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> _ = index_repo(d)
    >>> idx = open_index(d)
    >>> idx.symbol("m.f")["kind"]
    'function'
    >>> [r["qualified_name"] for r in lore_graph(idx, kind="call", source_id="m.f")["results"]]
    ['m.g']
    """
    db = _resolve_db(path)
    if not db.exists():
        raise IndexNotFoundError(str(db))
    return Index(db, readonly=readonly)


# -- lore_graph -------------------------------------------------------------------------------------
def _check_limit(limit: int) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise InvalidArgumentError(f"limit must be a positive integer, got {limit!r}")
    return min(limit, MAX_LIMIT)


def lore_graph(
    index: Index,
    *,
    kind: str,
    source_id: int | str | list[int | str] | tuple[int | str, ...],
    algorithm: str = "overlap",  # graphs.related.DEFAULT_ALGORITHM (not imported here: numpy loads lazily)
    limit: int = 20,
    result_kind: str | list[str] | None = None,
    include_tests: bool = False,
    direction: str | None = None,
    measure: str | None = None,
    alpha: float = 0.85,
    weights: dict[str, float] | None = None,
    n_walks: int = 10_000,
    seed: int = 0,
    compact: bool = False,
    max_tokens: int | None = None,
    with_docs: bool = False,
) -> dict:
    """Graph queries behind ``lore graph`` and the ``lore_graph`` MCP tool.

    Parameters
    ----------
    index : Index
    kind : {'call', 'callers', 'import', 'inheritance', 'related', 'cluster'}
    source_id : symbol id or qualified name, or a list of them (several seeds, ``related`` only)
    algorithm : ``related`` only: 'overlap' (default), 'fusion' (overlap and push-PageRank ranks fused),
        'pagerank' (exact), 'pagerank_push', 'pagerank_mc' (Monte-Carlo, with standard errors), 'cluster'
    limit : maximum rows (1..1000)
    result_kind : keep only results of this symbol kind (or kinds)
    include_tests : keep symbols from test files (excluded by default)
    direction : 'out' / 'in' / 'both' (pagerank walk; import: imports vs importers; inheritance: bases vs subclasses)
    measure : overlap similarity: 'idf_cosine' (default), 'cosine', 'adamic_adar', 'resource_allocation',
        'jaccard', 'count'
    alpha, weights, n_walks, seed : algorithm parameters (weights per relation)
    compact : fewer fields per row (for agents)
    max_tokens : drop rows from the end until the JSON fits about this many tokens

    Returns
    -------
    dict with ``query`` (what was asked), ``generation``, ``total``, ``truncated``, ``results`` (rows of
    id, name, qualified_name, kind, path, line, score, why) and, for some kinds, ``note``.
    """
    if kind not in GRAPH_KINDS:
        raise UnknownAlgorithmError(kind, GRAPH_KINDS, what="graph kind")
    limit = _check_limit(limit)
    refs = list(source_id) if isinstance(source_id, list | tuple) else [source_id]
    if not refs:
        raise InvalidArgumentError("give at least one source symbol (an id or a qualified name)")
    seeds = [index.resolve_ref(r) for r in refs]
    if len(seeds) > 1 and kind not in ("related",):
        raise InvalidArgumentError(f"graph kind {kind!r} takes one source symbol; several seeds work with 'related'")
    kinds = (result_kind,) if isinstance(result_kind, str) else (tuple(result_kind) if result_kind else None)
    query: dict[str, Any] = {"kind": kind, "source_ids": seeds, "limit": limit}
    if kind == "related":
        query.update({"algorithm": algorithm})
        rows, total, note = _related(index, seeds, algorithm, limit, kinds, include_tests, direction, measure, alpha,
                                     weights, n_walks, seed, query)
    elif kind == "cluster":
        rows, total, note = _cluster_members(index, seeds[0], limit, kinds, include_tests, query)
    elif kind in ("call", "callers"):
        rows, total, note = _calls(index, seeds[0], kind, limit, kinds, include_tests)
    elif kind == "import":
        query["direction"] = direction or "out"
        rows, total, note = _imports(index, seeds[0], direction or "out", limit)
    else:
        query["direction"] = direction or "both"
        rows, total, note = _inheritance(index, seeds[0], direction or "both", limit, kinds)
    out: dict[str, Any] = {
        "query": query,
        "generation": index.generation,
        "total": total,
        "truncated": total > len(rows),
        "results": rows,
    }
    if note:
        out["note"] = note
    if with_docs:
        out["docs"] = _docs_for(index, seeds)
    if compact:
        out["results"] = [compact_row(r) for r in out["results"]]
    if max_tokens is not None:
        fit_tokens(out, max_tokens)
    return out


def compact_row(r: dict) -> dict:
    loc = f"{r['path']}:{r['line']}" if r.get("path") else None
    out = {"id": r["id"], "qualified_name": r["qualified_name"] or r["name"], "kind": r["kind"], "at": loc,
           "score": r["score"]}
    why = r.get("why")
    if isinstance(why, dict):
        out["why"] = {k: v for k, v in why.items() if k in ("resolution", "shared", "path", "cluster", "relation", "via")}
    return out


def fit_tokens(out: dict, max_tokens: int) -> None:
    """Drop result rows from the end until the JSON is about ``max_tokens`` tokens (4 chars each)."""
    if max_tokens < 1:
        raise InvalidArgumentError(f"max_tokens must be positive, got {max_tokens}")
    budget = max_tokens * 4
    rows = out["results"]
    while rows and len(json.dumps(out, separators=(",", ":"))) > budget:
        rows.pop()
        out["truncated"] = True


def _docs_for(index: Index, seeds: list[int]) -> list[dict]:
    try:
        from .docs import chunks_mentioning
    except ImportError:  # document side not available
        return []
    names = [read.symbols_by_ids(index.conn, [s])[s][2] for s in seeds]
    return chunks_mentioning(index.conn, names)


def _rows_for(index: Index, ids: list[int]) -> dict[int, tuple]:
    return read.symbols_by_ids(index.conn, ids)


def _calls(index: Index, sid: int, kind: str, limit: int, kinds, include_tests: bool) -> tuple[list[dict], int, str]:
    raw = read.calls_from(index.conn, sid) if kind == "call" else read.calls_to(index.conn, sid)
    info = _rows_for(index, [r[0] for r in raw if r[0] is not None])
    grouped: dict[tuple, dict] = {}
    for other, name, line, ckind, res, conf in raw:
        key = (other, name if other is None else None)
        g = grouped.get(key)
        if g is None:
            row = info.get(other) if other is not None else None
            if row is not None:
                if (kinds and row[3] not in kinds) or (not include_tests and row[9] and kind == "callers"):
                    continue
                d = _row_dict(row)
            else:
                d = {"id": None, "name": name.rsplit(".", 1)[-1], "qualified_name": None, "kind": "unresolved",
                     "path": None, "line": None}
            d["score"] = 0.0
            d["why"] = {"resolution": res, "call_lines": [], "callee_name": name, "call_kind": ckind}
            grouped[key] = d
            g = d
        g["score"] = round(g["score"] + conf, 4)
        if line not in g["why"]["call_lines"]:
            g["why"]["call_lines"].append(line)
    rows = sorted(grouped.values(), key=lambda d: (-d["score"], d["id"] if d["id"] is not None else 1 << 62, d["name"]))
    note = "" if rows else ("no calls recorded for this symbol" if kind == "call" else "nothing in the index calls this symbol")
    return rows[:limit], len(rows), note


def _file_of(index: Index, sid: int) -> tuple[int, str]:
    row = read.symbols_by_ids(index.conn, [sid])[sid]
    if row[10] is None:
        raise InvalidArgumentError(f"symbol {sid} is external: it has no file and no imports")
    return row[10], row[4]


def _imports(index: Index, sid: int, direction: str, limit: int) -> tuple[list[dict], int, str]:
    if direction not in ("out", "in"):
        raise UnknownAlgorithmError(direction, ("out", "in"), what="import direction")
    fid, _path = _file_of(index, sid)
    rows: list[dict] = []
    if direction == "out":
        raw = read.imports_of_file(index.conn, fid)
        info = _rows_for(index, [r[6] for r in raw if r[6] is not None])
        for module, name, alias, level, line, _tfile, tid, res, conf in raw:
            row = info.get(tid) if tid is not None else None
            d = _row_dict(row) if row else {"id": None, "name": name or module, "qualified_name": None,
                                           "kind": "unresolved", "path": None, "line": None}
            d["score"] = conf
            d["why"] = {"resolution": res, "import_line": line,
                        "statement": ("." * level) + module + (f" import {name}" if name else "")
                        + (f" as {alias}" if alias else "")}
            rows.append(d)
    else:
        raw = read.importers_of_file(index.conn, fid)
        mods = index.conn.execute(
            "SELECT s.file_id, s.id FROM symbols s WHERE s.kind = 'module' AND s.parent_id IS NULL"
        ).fetchall()
        mod_of = dict(mods)
        info = _rows_for(index, [mod_of[r[0]] for r in raw if r[0] in mod_of])
        seen: set[int] = set()
        for ifile, module, name, line, res, conf in raw:
            msid = mod_of.get(ifile)
            if msid is None or msid in seen:
                continue
            seen.add(msid)
            d = _row_dict(info[msid])
            d["score"] = conf
            d["why"] = {"resolution": res, "import_line": line, "statement": module + (f" import {name}" if name else "")}
            rows.append(d)
    total = len(rows)
    return rows[:limit], total, "" if rows else "no imports recorded"


def _inheritance(index: Index, sid: int, direction: str, limit: int, kinds) -> tuple[list[dict], int, str]:
    if direction not in ("out", "in", "both"):
        raise UnknownAlgorithmError(direction, ("out", "in", "both"), what="inheritance direction")
    found: dict[int | str, dict] = {}
    kinds_rel = ("extends", "implements", "embeds")
    for outgoing, label in ((True, "base"), (False, "subclass")):
        if (direction == "out" and not outgoing) or (direction == "in" and outgoing):
            continue
        frontier = [(sid, 0)]
        visited = {sid}
        while frontier:
            nxt = []
            for node, depth in frontier:
                for other, tname, rkind, _line, res, conf in read.relationships(index.conn, node, outgoing=outgoing, kinds=kinds_rel):
                    if other is None:
                        key: int | str = f"?{tname}"
                        if key not in found:
                            found[key] = {"id": None, "name": tname, "qualified_name": None, "kind": "unresolved",
                                          "path": None, "line": None, "score": 0.0,
                                          "why": {"relation": label, "kind": rkind, "depth": depth + 1, "resolution": res}}
                        continue
                    if other in visited:
                        continue
                    visited.add(other)
                    found[other] = {"_id": other, "score": round(conf / (depth + 1), 4),
                                    "why": {"relation": label, "kind": rkind, "depth": depth + 1, "resolution": res}}
                    nxt.append((other, depth + 1))
            frontier = nxt
    # methods this symbol overrides / that override it
    if direction in ("out", "both"):
        for other, _t, rkind, _l, res, conf in read.relationships(index.conn, sid, outgoing=True, kinds=("overrides",)):
            if other is not None and other not in found:
                found[other] = {"_id": other, "score": conf, "why": {"relation": "overrides", "kind": rkind, "depth": 1, "resolution": res}}
    if direction in ("in", "both"):
        for other, _t, rkind, _l, res, conf in read.relationships(index.conn, sid, outgoing=False, kinds=("overrides",)):
            if other is not None and other not in found:
                found[other] = {"_id": other, "score": conf, "why": {"relation": "overridden_by", "kind": rkind, "depth": 1, "resolution": res}}
    info = _rows_for(index, [k for k in found if isinstance(k, int)])
    rows = []
    for k, v in found.items():
        if isinstance(k, int):
            row = info.get(k)
            if row is None or (kinds and row[3] not in kinds):
                continue
            d = _row_dict(row)
            d["score"], d["why"] = v["score"], v["why"]
            rows.append(d)
        else:
            rows.append(v)
    rows.sort(key=lambda d: (d["why"]["depth"], -d["score"], d["id"] if d["id"] is not None else 1 << 62))
    return rows[:limit], len(rows), "" if rows else "no base classes or subclasses recorded"


def _related(index: Index, seeds: list[int], algorithm: str, limit: int, kinds, include_tests: bool,
             direction: str | None, measure: str | None, alpha: float, weights: dict[str, float] | None,
             n_walks: int, seed: int, query: dict) -> tuple[list[dict], int, str]:
    g = index.graph()
    if algorithm == "cluster":
        return _cluster_members(index, seeds[0], limit, kinds, include_tests, query, extra_seeds=seeds[1:])
    params = _rel().RelatedParams(algorithm=algorithm, alpha=alpha, direction=direction or "both", n_walks=n_walks,
                                  seed=seed)
    if measure:
        params.measure = measure
    if weights:  # overlap relations (callees, container...) or walk relations (calls, contains...)
        rel = _rel()
        if algorithm == "overlap":
            params.overlap_weights = {**params.overlap_weights, **weights}
        elif algorithm == "fusion":  # each name goes where it means something ('types', 'inherits': both)
            unknown = set(weights) - set(rel.OVERLAP_RELATIONS) - set(rel.WALK_RELATIONS)
            if unknown:
                raise UnknownAlgorithmError(sorted(unknown)[0], tuple(rel.OVERLAP_RELATIONS) + rel.WALK_RELATIONS,
                                            what="relation")
            params.overlap_weights.update({k: v for k, v in weights.items() if k in rel.OVERLAP_RELATIONS})
            params.ppr_weights.update({k: v for k, v in weights.items() if k in rel.WALK_RELATIONS})
        else:
            params.ppr_weights = {**params.ppr_weights, **weights}
    params.check()
    if algorithm in ("overlap", "fusion"):
        query["measure"] = params.measure
    if algorithm != "overlap":
        query.update({"alpha": alpha, "direction": params.direction})
    srows = g.nodes.rows(seeds)
    mask = _rel().excluded_mask(g, srows, include_tests=include_tests, kinds=kinds)
    scores, se = _rel().related_scores(g, srows, params, exclude=mask)
    ranked, total = _rel().rank(scores, mask, limit)
    if total == 0:
        return [], 0, "the seed has no structural neighbours (no resolved calls, callers or types); nothing to rank"
    ids = [g.nodes.id(int(r)) for r in ranked]
    info = _rows_for(index, ids)
    rows = []
    adj = _rel().walk_matrix(g, params.ppr_weights, params.direction) if algorithm != "overlap" else None
    for r, sid in zip(ranked.tolist(), ids, strict=True):
        d = _row_dict(info[sid])
        d["score"] = round(float(scores[r]), 6)
        why: dict = {}
        if algorithm in ("overlap", "fusion"):
            why.update(_overlap_why(index, g, srows, r, params))
        if adj is not None:
            why.update(_path_why(index, g, adj, srows, r))
        if se is not None:
            why["stderr"] = round(float(se[r]), 6)
        d["why"] = why
        rows.append(d)
    return rows, total, ""


def _overlap_why(index: Index, g: CodeGraph, srows: np.ndarray, target: int, params: Any) -> dict:
    shared: list[tuple[str, int, float]] = []
    for s in srows.tolist():
        shared += _rel().overlap_why(g, int(s), target, params, top=3)
    shared.sort(key=lambda t: (-t[2], t[1]))
    shared = shared[:3]
    info = _rows_for(index, [g.nodes.id(c) for _, c, _ in shared])
    items = []
    seeds = set(srows.tolist())
    for relname, col, contrib in shared:
        sid = g.nodes.id(col)
        row = info.get(sid)
        item = {"relation": relname, "id": sid, "name": row[2] if row else None, "weight": round(contrib, 4)}
        if col == target or col in seeds:  # closed neighbourhoods: a direct edge between seed and result
            item["direct"] = True
        items.append(item)
    return {"shared": items}


def _path_why(index: Index, g: CodeGraph, adj, srows: np.ndarray, target: int) -> dict:
    path = _rel().strongest_path(adj, srows, target)
    ids = [g.nodes.id(r) for r in path]
    info = _rows_for(index, ids)
    hops = []
    for a, b in zip(ids, ids[1:], strict=False):
        det = read.edge_details(index.conn, a, b)
        hops.append({"to": info[b][2] if b in info else b, "edge": det[0][1] if det else "?",
                     "resolution": det[0][3] if det else None})
    return {"path": [info[i][2] if i in info else i for i in ids], "hops": hops}


def _cluster_members(index: Index, sid: int, limit: int, kinds, include_tests: bool, query: dict,
                     extra_seeds: list[int] | None = None) -> tuple[list[dict], int, str]:
    np = _np()
    g = index.graph()
    summary, labels = index.clusters()
    row = g.nodes.row(sid)
    label = int(labels[row])
    if label < 0:
        return [], 0, "this symbol is not in any cluster (external or isolated)"
    seeds = np.array([row] + [g.nodes.row(s) for s in (extra_seeds or [])])
    mask = _rel().excluded_mask(g, seeds, include_tests=include_tests, kinds=kinds)
    scores = _rel().cluster_scores(g, labels, seeds)
    ranked, total = _rel().rank(scores, mask, limit)
    info = _rows_for(index, [g.nodes.id(int(r)) for r in ranked])
    meta = summary.get(str(label), {})
    query["cluster"] = label
    rows = []
    for r in ranked.tolist():
        d = _row_dict(info[g.nodes.id(r)])
        d["score"] = round(float(scores[r]), 6)
        d["why"] = {"cluster": label, "cohesion": meta.get("cohesion"), "label": meta.get("label")}
        rows.append(d)
    return rows, total, "" if rows else "the cluster has no other members"


def list_clusters(index: Index, *, min_size: int = 3, limit: int = 50, top: int = 5, mode: str = "lpa") -> dict:
    """The subsystems: every cluster with size, cohesion, a readable label and its top members."""
    if min_size < 1:
        raise InvalidArgumentError(f"min_size must be at least 1, got {min_size}")
    limit = _check_limit(limit)
    summary, _labels = index.clusters(mode=mode)
    items = [(int(k), v) for k, v in summary.items() if v["size"] >= min_size]
    items.sort(key=lambda kv: (-kv[1]["size"], kv[0]))
    member_ids = [m for _, v in items[:limit] for m in v["top_members"][:top]]
    info = _rows_for(index, member_ids)
    rows = []
    for cid, v in items[:limit]:
        rows.append({
            "cluster": cid, "size": v["size"], "cohesion": v["cohesion"], "label": v["label"],
            "top_members": [{"id": m, "qualified_name": info[m][2]} for m in v["top_members"][:top] if m in info],
        })
    return {"query": {"min_size": min_size, "mode": mode, "limit": limit}, "generation": index.generation,
            "total": len(items), "truncated": len(items) > len(rows), "results": rows}


def lore_search(index: Index, query: str, **options: Any) -> dict:
    """Search symbols (or files); see :func:`lore.search.api.search` for the options."""
    return index.search(query, **options)


__all__ = ["GRAPH_KINDS", "Index", "index_repo", "list_clusters", "lore_graph", "lore_search", "open_index"]

