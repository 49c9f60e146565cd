"""Clusters (subsystems): runs cached per generation, the members of one cluster, the list, labels.

A run is computed once per index generation and parameter key, stored in the index (or kept in
memory when the index is read-only) and shared by every query on it. The writer computes the
default run at the end of every index run that changed the code (:func:`clusters_step`, one of the
steps :func:`lore.api.index_repo` hands the pipeline), so every process after it, a read-only MCP
server included, reads the clusters back from the store (milliseconds) instead of recomputing them.
A run stored for another generation is never served.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidArgumentError
from ..store import clusters as clusters_store
from ..store import db as store_db
from ..store import read
from ..text.tokens import STOP_WORDS, split_identifier
from ._index import OpenIndex, one_generation
from ._shape import check_limit, symbol_dict

if TYPE_CHECKING:
    import numpy as np

    from ..graphs import CodeGraph
    from ..index import IndexReport

Rows = tuple[list[dict], int, str]
_log = logging.getLogger("lore")


def run_key(mode: str = "lpa", seed: int = 0, min_size: int = 2) -> str:
    """The store key of a run with these parameters.

    v2: tests left out, members weighed by what they can answer (graphs.related.compute_clusters);
    a new version in the key means runs stored by an older rule are never served.

    >>> run_key()
    'lpa:seed=0:min=2:v2'
    """
    return f"{mode}:seed={seed}:min={min_size}:v2"


def cluster_run(index: OpenIndex, *, mode: str = "lpa", seed: int = 0, min_size: int = 2, engine: str | None = None,
                ray_address: str | None = None) -> tuple[dict, np.ndarray]:
    """(summary, label per graph row) of one clustering of the index's current state.

    Cached per generation in the store (or in memory when the index is read-only); the summary
    maps each cluster id (as text) to its size, cohesion, label and top members. ``engine`` runs
    label propagation (default: the index's engine); both engines give the same labels, so a run
    stored by either is served to both.
    """
    import numpy as np

    from ..graphs import related as rel

    g = index.graph()
    key = run_key(mode, seed, min_size)
    mem = index.cluster_cache.get((key, g.stamp))
    if mem is not None:
        return mem
    stored = clusters_store.load_run(index.conn, key, g.generation)
    if stored is not None:
        summary, members = stored
        labels = np.full(g.n, -1, dtype=np.int64)
        if members.size:
            labels[g.nodes.rows(members[:, 0])] = members[:, 1]
        index.cluster_cache[(key, g.stamp)] = (summary, labels)
        return summary, labels
    where, address = index.engine_choice(engine, ray_address)
    labels, sizes, cohesion = rel.compute_clusters(g, seed=seed, mode=mode, min_size=min_size, engine=where,
                                                   ray_address=address)
    summary = _summary(index, g, labels, sizes, cohesion)
    if not index.readonly:
        rows = np.flatnonzero(labels >= 0)
        members = np.column_stack([g.nodes.ids[rows], labels[rows]])
        try:
            with store_db.write_transaction(index.conn, index.db_path):
                if store_db.generation(index.conn) == g.generation:
                    clusters_store.save_run(index.conn, key, g.generation, summary, members)
        except sqlite3.OperationalError:
            pass  # a busy or read-only file: keep the in-memory copy
    index.cluster_cache[(key, g.stamp)] = (summary, labels)
    return summary, labels


REFRESH_LIMIT = 200_000  # symbols: above it a refresh leaves the clusters to the first cluster query
COLLECT_FROM = 50_000  # symbols: from here the clusters step first collects the indexer's garbage (cc/kmm: 100 MB)


def clusters_step(db: Path) -> Callable[[IndexReport], None]:
    """An index step (:mod:`lore.queries.indexing`): after a run, store the default clusters of the new state.

    Skipped when a run of the current generation is already stored (nothing changed since it was
    made), so a no-op refresh stays a lookup, and on a refresh (not a full build) of an index of more
    than ``REFRESH_LIMIT`` symbols: label propagation and the summary cost time that grows with the
    whole graph, not with the change, so the first cluster query of that generation computes them
    (the same run a full build would store: the algorithm is run from scratch, never patched). Otherwise the writer loads the graph (and saves its
    memory-mapped cache, which the next process maps), runs label propagation and stores the run
    under the generation it was computed from; ``report.seconds["clusters"]`` says what it cost.
    """

    def after(report: IndexReport) -> None:
        from ._precompute import release_memory

        t0 = time.perf_counter()
        with OpenIndex(Path(report.db)) as index:
            store_db.one_pass_reads(index.conn)
            if report.same_shape and index.generation == report.generation:
                _carry_graph(index)
            if clusters_store.has_run(index.conn, run_key(), index.generation):
                return
            if not report.full and report.symbols > REFRESH_LIMIT:
                # label propagation runs over the whole graph (36.5 s of a one-file refresh of the
                # Linux kernel): a refresh of a large index leaves it to the first cluster query,
                # which runs the same algorithm from scratch and stores the run
                report.seconds["clusters"] = 0.0
                return
            try:
                # the step starts on what the indexer holds, not on its garbage; a full collection costs time
                # that grows with every live object of the process, so only where the garbage is large
                release_memory(collect=report.symbols >= COLLECT_FROM)
                cluster_run(index)
            except Exception as exc:  # noqa: BLE001 - derived data: the index run itself has succeeded
                # the first query that needs the clusters computes them (and raises there, if it must)
                _log.warning("lore: clusters were not precomputed (%s: %s); the first cluster query will compute them",
                             type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")
                return
        release_memory()  # the graph and the cluster adjacency: saved, or not needed by the next step
        report.seconds["clusters"] = round(time.perf_counter() - t0, 3)

    return after


def _carry_graph(index: OpenIndex) -> None:
    """A refresh whose changed files read the same to the resolver (``report.same_shape``) left the
    graph as it was, and the indexer carried the clusters forward: the saved graph of the last
    generation is this generation's too (hard links, no rebuild for the next process)."""
    from ..store.graph_files import carry_saved_graph

    stamp = store_db.index_stamp(index.conn)
    ident, _, gen = stamp.rpartition(":")
    try:
        carry_saved_graph(index.db_path, f"{ident}:{int(gen) - 1}", stamp)
    except (OSError, ValueError) as exc:  # derived data: the next query builds the graph itself
        _log.warning("lore: the saved graph was not carried forward (%s)", exc)


def _summary(index: OpenIndex, g: CodeGraph, labels: np.ndarray, sizes: np.ndarray, cohesion: np.ndarray) -> dict:
    import numpy as np

    from ..graphs import related as rel

    rows = np.flatnonzero(labels >= 0)
    ids = [g.nodes.id(int(r)) for r in rows]
    info = clusters_store.members_of(index.conn, ids)
    by_cluster: dict[int, list[int]] = {}
    for r, sid in zip(rows.tolist(), ids, strict=True):
        by_cluster.setdefault(int(labels[r]), []).append(sid)
    deg = np.asarray(rel.cluster_adjacency(g).sum(axis=1)).ravel()
    doc_freq: Counter[str] = Counter()
    for row in info.values():
        if row.kind != "module":
            doc_freq.update(_label_tokens(row.name))
    out = {}
    for cid, members in by_cluster.items():
        paths = [info[s].path for s in members if s in info]
        names = [info[s].name for s in members if s in info and info[s].kind != "module"]
        top = sorted(members, key=lambda s: (-deg[g.nodes.row(s)], s))[:5]
        out[str(cid)] = {
            "size": int(sizes[cid]) if cid < len(sizes) else len(members),
            "cohesion": round(float(cohesion[cid]), 4) if cid < len(cohesion) else 0.0,
            "label": cluster_label(paths, names, doc_freq=doc_freq, n_docs=len(info)),
            "top_members": top,
        }
    return out


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


def cluster_members(index: OpenIndex, sid: int, limit: int, kinds: tuple[str, ...] | None, include_tests: bool,
                    query: dict, extra_seeds: list[int] | None = None, *, engine: str | None = None,
                    ray_address: str | None = None) -> Rows:
    """The other members of ``sid``'s cluster, ranked by personalized PageRank inside the cluster.

    ``query`` (the answer's envelope) gets the cluster id; every row's ``why`` names the cluster,
    its cohesion and its label. When the cluster has no other member the filters let through (a
    cluster of one, a symbol in none, or members all filtered out), the answer comes from the nearest
    clusters instead (:func:`nearest_cluster_scores`), and says so: ``query["fallback"]``, the note,
    and each row's ``why`` (``"nearest": true`` with the edge weight that leads there). An answer is
    empty only when the filters leave no symbol at all.
    """
    import numpy as np

    from ..graphs import related as rel
    from ..graphs._fold import fold_for

    g = index.graph()
    summary, labels = cluster_run(index, engine=engine, ray_address=ray_address)
    # one row per definition: stubs and @overload copies fold (lore.graphs._fold); saved beside the index
    fold = fold_for(index.conn, g, db_path=index.db_path, save=not index.readonly)
    sid, *extra_seeds = fold.canonical_ids([sid, *(extra_seeds or [])])
    row = g.nodes.row(sid)
    label = int(labels[row])
    seeds = np.array([row] + [g.nodes.row(s) for s in (extra_seeds or [])])
    mask = rel.excluded_mask(g, seeds, include_tests=include_tests, kinds=kinds, fold=fold)
    scores = rel.cluster_scores(g, labels, seeds) if label >= 0 else np.zeros(g.n)
    ranked, total = rel.rank(scores, mask, limit)
    query["cluster"] = label if label >= 0 else None
    note = ""
    nearest = None
    if total == 0:
        scores, nearest = nearest_cluster_scores(g, labels, seeds, mask)
        ranked, total = rel.rank(scores, mask, limit)
        query["fallback"] = "nearest clusters"
        alone = ("this symbol is in no cluster (isolated or external)" if label < 0 else
                 "the cluster has no other member" + (" these filters let through" if kinds or not include_tests else ""))
        note = f"{alone}: members of the nearest clusters by edge weight instead" if total else alone
    info = read.symbols_by_ids(index.conn, [g.nodes.id(int(r)) for r in ranked])
    rows = []
    for r in ranked.tolist():
        d = symbol_dict(info[g.nodes.id(r)])
        d["score"] = round(float(scores[r]), 6)
        own = int(labels[r])
        meta = summary.get(str(own), {})
        why: dict = {"cluster": own if own >= 0 else None, "cohesion": meta.get("cohesion"), "label": meta.get("label")}
        if nearest is not None:
            why.update({"nearest": True, "edge_weight": round(float(nearest.get(own, 0.0)), 6)})
        d["why"] = why
        rows.append(d)
    return fold.annotate(rows), total, note


def nearest_cluster_scores(g: CodeGraph, labels: np.ndarray, seeds: np.ndarray,
                           mask: np.ndarray) -> tuple[np.ndarray, dict[int, float]]:
    """(scores, edge weight per cluster): the answerable rows of the clusters nearest the seeds' own.

    A cluster's nearness is the total weight of the clustering graph's edges from the seeds' cluster
    (or from the seeds alone, outside any cluster) into it; its members score by that weight, and
    within a cluster by their own edge weight to the seeds' cluster (every member above 0, so that an
    unlinked member still ranks). Rows no edge leads to (label -1, or clusters with no edge) come
    last with a tiny positive score, so the answer is empty only when ``mask`` allows nothing.
    """
    import numpy as np

    from ..graphs import related as rel

    labels = np.asarray(labels)
    own = int(labels[int(seeds[0])])
    src = np.flatnonzero(labels == own) if own >= 0 else np.asarray(seeds, dtype=np.int64)
    adj = rel.cluster_adjacency(g)
    to_row = np.asarray(adj[src].sum(axis=0)).ravel()  # edge weight from the seeds' cluster to every row
    lab = np.where(labels >= 0, labels, -1)
    ok = (lab >= 0) & (lab != own)
    by_cluster = np.bincount(lab[ok], weights=to_row[ok], minlength=int(lab.max(initial=-1)) + 1)
    scores = np.zeros(g.n)
    top = float(to_row.max(initial=0.0)) or 1.0
    member_part = to_row / (top * 10.0)  # < 0.1: never moves a member out of its cluster's place
    scores[ok] = by_cluster[lab[ok]] + member_part[ok] + 1e-9
    rest = ~mask & (scores <= 0)
    scores[rest] = 1e-12  # reached by no edge: last, ties by row
    scores[np.asarray(seeds, dtype=np.int64)] = 0.0
    return scores, {int(c): float(w) for c, w in enumerate(by_cluster) if w > 0}


@one_generation
def list_clusters(index: OpenIndex, *, min_size: int = 3, limit: int = 20, top: int = 5, mode: str = "lpa",
                  engine: str | None = None, ray_address: str | None = None) -> dict:
    """The subsystems: every cluster with size, cohesion, a readable label and its top members.

    Parameters
    ----------
    index : an open index
    min_size : leave out clusters with fewer members
    limit : at most this many clusters (largest first, ties by cluster id)
    top : top members (by weighted degree) shown per cluster
    mode : 'lpa' (label propagation, default) or 'components'
    engine, ray_address : where label propagation runs ('local' or 'ray'; default: the index's); the
        answer is the same on either

    Returns
    -------
    dict with ``query``, ``generation``, ``total``, ``truncated`` and ``results`` (cluster, size,
    cohesion, label, top_members).
    """
    if min_size < 1:
        raise InvalidArgumentError(f"min_size must be at least 1, got {min_size}")
    limit = check_limit(limit)
    index.engine_choice(engine, ray_address)  # a bad engine name fails even when nothing needs computing
    # the list needs the summary alone: a current stored run is one row (no graph, no numpy, no scipy)
    summary = clusters_store.load_summary(index.conn, run_key(mode), index.generation)
    if summary is None:
        summary, _labels = cluster_run(index, mode=mode, engine=engine, ray_address=ray_address)
    items = [(int(k), v) for k, v in summary.items() if v["size"] >= min_size]
    items.sort(key=lambda kv: (-kv[1]["size"], kv[0]))
    member_ids = [m for _, v in items[:limit] for m in v["top_members"][:top]]
    info = read.symbols_by_ids(index.conn, member_ids)
    rows = []
    for cid, v in items[:limit]:
        rows.append({
            "cluster": cid, "size": v["size"], "cohesion": v["cohesion"], "label": v["label"],
            "top_members": [{"id": m, "qualified_name": info[m].qualified_name} for m in v["top_members"][:top]
                            if m in info],
        })
    return {"query": {"min_size": min_size, "mode": mode, "limit": limit}, "generation": index.generation,
            "total": len(items), "truncated": len(items) > len(rows), "results": rows}
