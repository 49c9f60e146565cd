"""Speed of related-symbol queries: synthetic code-like graphs beside networkx, and a real indexed corpus.

Synthetic graphs imitate a call graph: every symbol calls about 6 others chosen by a power-law
popularity (so in-degrees are power-law), a few hubs (like ``len`` or a logger) are called by 10%, 5%,
2%, 1% and 0.5% of all symbols, and every symbol mentions 1-2 types from a power-law type pool.
Edge weights are resolution confidences (1.0 / 0.9 / 0.5). Native threads are pinned to 1.

Measured per size (medians over repeats; "max" is the slowest query):

* overlap: p50 / max ms per measure over random seeds plus seeds that call the biggest hubs, with
  features [callees, callers, types] and cached transposes; and lore's default (idf_cosine over
  closed neighbourhoods: each row is its own neighbour)
* exact personalized PageRank (power iteration, tol 1e-8) on calls in both directions
* push PageRank (rmax 1e-5) and its top-20 overlap with exact, both directions and callees only; on
  the symmetric both-direction matrix also with the left-over residual spread by degree (what lore
  runs; its first call computes the degrees and components once per matrix)
* push on callees only also with the residual spread by global PageRank (``spread=True``; its
  first call computes that vector and the components once per matrix)
* Monte-Carlo PageRank (10k walks, warm cache) and its top-10 and top-20 overlap with exact
  (overlaps strict, and tie-tolerant: an approximate top-k node counts if its exact score is within
  5% of the exact k-th score)
* anchor for exact PageRank in the same run: the textbook power iteration (transition matrix built
  per query, a new vector per step), the same tol and the same answer
* label propagation on the undirected call graph, then the same clusters served from the store
  cache (the run's member blob read back into a label array)
* the graph cache: saving the CSR matrices beside the index and the warm start of a fresh process
* networkx.pagerank on the same graph where feasible (<= 100k nodes)

With ``--db INDEX`` (a real index, copied to a temporary folder first, never written): cold
``lore graph related`` CLI calls, default and ``-a hybrid`` (a new process each, first without and
then with the saved graph and hybrid features), beside anchors in the same run (``python -c pass``,
``import lore.cli``, ``import numpy``, ``import numpy, scipy.sparse``), wall and CPU time (``--cold-repeat 0`` skips
them); warm ``lore_graph(kind="related")`` per algorithm (``--db-algorithms``) over seeded functions
and methods, CPU p50 / p99 / max, beside its anchor timed on the same seeds in the same loop: the
ranking alone (scores and top 10 rows, nothing named or explained), so the cost of the rows and
their ``why`` reads as a ratio; and clusters computed once then read from the store.

Usage::

    python benchmarks/perf/bench_related.py                       # 10k and 100k
    python benchmarks/perf/bench_related.py --sizes 10000 100000 1000000 --seed 1
    python benchmarks/perf/bench_related.py --sizes --db /tmp/django.db   # only the real corpus
    python benchmarks/perf/bench_related.py --sizes --db /tmp/django.db --cold-repeat 0 \
        --db-algorithms hybrid overlap fusion                             # warm answers only

Wall-clock numbers depend on the machine and its load; ratios within one run are the point.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from lore.algorithms import (
    MEASURES,
    directed,
    label_propagation,
    monte_carlo_pagerank,
    overlap_scores,
    personalized_pagerank,
    push_pagerank,
)

HUB_SHARES = (0.10, 0.05, 0.02, 0.01, 0.005)


def code_like_graph(n: int, seed: int, out_degree: float = 6.0) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """(calls N x N, types N x N/10), seeded; see the module docstring."""
    rng = np.random.default_rng(seed)
    popularity = rng.pareto(1.2, n) + 1.0
    cum = np.cumsum(popularity)
    degrees = rng.poisson(out_degree - 1, n) + 1
    rows = np.repeat(np.arange(n), degrees)
    cols = np.searchsorted(cum, rng.random(rows.size) * cum[-1])
    hub_rows, hub_cols = [], []
    for h, share in enumerate(HUB_SHARES):
        callers = np.flatnonzero(rng.random(n) < share)
        hub_rows.append(callers)
        hub_cols.append(np.full(callers.size, h))
    rows = np.concatenate([rows, *hub_rows])
    cols = np.concatenate([cols, *hub_cols])
    keep = rows != cols
    conf = rng.choice([1.0, 0.9, 0.5], size=int(keep.sum()), p=[0.6, 0.3, 0.1])
    calls = sp.csr_matrix((conf, (rows[keep], cols[keep])), shape=(n, n))
    calls.sum_duplicates()
    calls.data = np.minimum(calls.data, 1.0)
    m = max(n // 10, 1)
    type_pop = np.cumsum(rng.pareto(1.2, m) + 1.0)
    t_deg = rng.integers(1, 3, n)
    t_rows = np.repeat(np.arange(n), t_deg)
    t_cols = np.searchsorted(type_pop, rng.random(t_rows.size) * type_pop[-1])
    types = sp.csr_matrix((np.ones(t_rows.size), (t_rows, t_cols)), shape=(n, m))
    types.sum_duplicates()
    types.data[:] = 1.0
    return calls, types


def timed(fn, *args, **kwargs) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return (time.perf_counter() - t0) * 1000.0, out


def top(scores: np.ndarray, k: int) -> set[int]:
    idx = np.argpartition(-scores, k)[:k] if scores.size > k else np.arange(scores.size)
    return set(idx.tolist())


def agreement(exact: np.ndarray, approx: np.ndarray, k: int) -> tuple[float, float]:
    """(strict top-k overlap, tie-tolerant: share of approx top-k whose exact score >= 0.95 x exact k-th)."""
    kth = np.partition(exact, exact.size - k)[exact.size - k]
    got = top(approx, k)
    return len(top(exact, k) & got) / k, float(np.mean(exact[list(got)] >= 0.95 * kth))


def textbook_pagerank(a: sp.csr_matrix, seed_row: int, alpha: float = 0.85, tol: float = 1e-8,
                      max_iter: int = 1000) -> np.ndarray:
    """Anchor: plain power iteration, as lore ran it before issue 16 (per-query transition matrix)."""
    out = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out > 0)
    pt = sp.csr_matrix((a.data * np.repeat(inv, np.diff(a.indptr)), a.indices, a.indptr), shape=a.shape).T
    leak = (out <= 0).astype(np.float64)
    p = np.zeros(a.shape[0])
    p[seed_row] = 1.0
    x = p.copy()
    for _ in range(max_iter):
        x_new = alpha * (pt @ x) + (alpha * float(leak @ x) + (1.0 - alpha)) * p
        err = float(np.abs(x_new - x).sum())
        x = x_new
        if err < tol:
            break
    return x / x.sum()


def cpu_timed(fn, *args, **kwargs) -> tuple[float, object]:
    """(CPU ms of this process, result): steadier than wall time on a shared machine."""
    t0 = time.process_time()
    out = fn(*args, **kwargs)
    return (time.process_time() - t0) * 1000.0, out


def bench_size(
    n: int, seed: int, repeat: int, n_queries: int, lpa: bool, with_networkx: bool, overlap: bool = True
) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    t0 = time.perf_counter()
    calls, types = code_like_graph(n, seed)
    callers = calls.T.tocsr()
    rows.append(
        (
            "graph",
            f"{calls.nnz / n:.1f} calls/node, biggest hub {np.diff(callers.indptr).max():,} callers, "
            f"built in {time.perf_counter() - t0:.1f} s",
        )
    )
    feats = [calls, callers, types]
    trans = [callers, calls, types.T.tocsr()]
    rng = np.random.default_rng(seed + 1)
    hub_callers = callers.indices[callers.indptr[0] : callers.indptr[1]]
    seeds = np.r_[rng.integers(0, n, n_queries), rng.choice(hub_callers, 20)]
    for measure in MEASURES if overlap else ():
        for s in seeds[:5].tolist():  # warm-up (cosine / jaccard fill their per-matrix norm cache once)
            overlap_scores(feats, [s], measure=measure, transposes=trans)
        ms = [timed(overlap_scores, feats, [int(s)], measure=measure, transposes=trans)[0] for s in seeds]
        rows.append((f"overlap {measure}", f"p50 {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms"))

    if overlap:
        rows += overlap_default_rows(calls, callers, types, seeds)
    return rows + pagerank_rows(n, calls, callers, rng, repeat, lpa, with_networkx, seed)


def overlap_default_rows(calls: sp.csr_matrix, callers: sp.csr_matrix, types: sp.csr_matrix,
                         seeds: np.ndarray) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    n = calls.shape[0]
    eye = sp.identity(n, format="csr")
    closed = [(calls + eye).tocsr(), (callers + eye).tocsr(), types]
    for f in closed[:2]:
        f.data = np.minimum(f.data, 1.0)
    closed_t = [closed[1], closed[0], types.T.tocsr()]
    for s in seeds[:5].tolist():
        overlap_scores(closed, [s], measure="idf_cosine", transposes=closed_t)
    ms = [timed(overlap_scores, closed, [int(s)], measure="idf_cosine", transposes=closed_t)[0] for s in seeds]
    rows.append(("overlap lore default (idf_cosine, closed)", f"p50 {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms"))
    rows.append(graph_cache_row(calls, types))
    return rows


def pagerank_rows(n: int, calls: sp.csr_matrix, callers: sp.csr_matrix, rng: np.random.Generator, repeat: int,
                  lpa: bool, with_networkx: bool, seed: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    both = directed(calls, "both", transpose=callers)
    ppr_seeds = rng.integers(0, n, repeat)
    ms: dict[str, list[float]] = {}
    tops: dict[str, list[tuple[float, float]]] = {}

    def run(name: str, fn, *args, **kwargs):  # CPU ms per call (steadier than wall time on a shared machine)
        t, out = cpu_timed(fn, *args, **kwargs)
        ms.setdefault(name, []).append(t)
        return out

    monte_carlo_pagerank(both, personalization=[0], n_walks=100, seed=0)  # builds the per-matrix walk tables
    stationary_ms, _ = cpu_timed(push_pagerank, both, personalization=[0], undirected=True)  # degrees, components
    directed_ms, _ = cpu_timed(push_pagerank, calls, personalization=[0], spread=True)  # global PageRank, components
    first_exact_ms = {k: cpu_timed(personalized_pagerank, m, personalization=[0], tol=1e-8, max_iter=1000)[0]
                      for k, m in (("both", both), ("out", calls))}  # transition matrices, once per matrix
    worst_diff = 0.0
    for s in ppr_seeds.tolist():
        exact = run("exact both", personalized_pagerank, both, personalization=[s], tol=1e-8, max_iter=1000)
        anchor = run("anchor both", textbook_pagerank, both, s)
        worst_diff = max(worst_diff, float(np.abs(exact - anchor).max()))
        for name, kw in (("push both local", {}), ("push both spread", {"undirected": True})):
            tops.setdefault(name, []).append(agreement(exact, run(name, push_pagerank, both, personalization=[s],
                                                                  rmax=1e-5, **kw), 20))
        mc, _ = run("mc", monte_carlo_pagerank, both, personalization=[s], n_walks=10_000, seed=s)
        tops.setdefault("mc10", []).append(agreement(exact, mc, 10))
        tops.setdefault("mc20", []).append(agreement(exact, mc, 20))
        exact_out = run("exact out", personalized_pagerank, calls, personalization=[s], tol=1e-8, max_iter=1000)
        run("anchor out", textbook_pagerank, calls, s)
        for name, kw in (("push out local", {}), ("push out spread", {"spread": True})):
            tops.setdefault(name, []).append(agreement(exact_out, run(name, push_pagerank, calls, personalization=[s],
                                                                      rmax=1e-5, **kw), 20))

    def fmt(pairs: list[tuple[float, float]], k: int) -> str:
        strict, tolerant = zip(*pairs, strict=True)
        return (
            f"top-{k} overlap {statistics.median(strict):.2f} (min {min(strict):.2f}), "
            f"tie-tolerant {statistics.median(tolerant):.2f}"
        )

    def med(name: str) -> float:
        return statistics.median(ms[name])

    for d, m in (("both", both), ("out", calls)):
        rows.append((f"PPR exact (power iteration, {d}), CPU",
                     f"{med(f'exact {d}'):.1f} ms ({m.nnz / n:.1f} edges/node; first call {first_exact_ms[d]:.0f} ms); "
                     f"anchor textbook iteration {med(f'anchor {d}'):.1f} ms = {med(f'anchor {d}') / med(f'exact {d}'):.2f}x"))
    rows.append(("PPR exact vs anchor, largest difference", f"{worst_diff:.1e}"))
    # a load-independent yardstick for the millisecond rows: one sparse product with the same matrix
    matvec = statistics.median(cpu_timed(both.dot, np.ones(n))[0] for _ in range(7))
    rows.append(("anchor: one product A @ x (both), CPU", f"{matvec:.2f} ms"))
    rows.append(("PPR push rmax=1e-5 (both, local), CPU", f"{med('push both local'):.2f} ms, {fmt(tops['push both local'], 20)}"))
    rows.append(("PPR push rmax=1e-5 (both, residual spread: lore), CPU",
                 f"{med('push both spread'):.2f} ms, {fmt(tops['push both spread'], 20)}; first call {stationary_ms:.0f} ms"))
    rows.append(("PPR push rmax=1e-5 (out, local), CPU", f"{med('push out local'):.2f} ms, {fmt(tops['push out local'], 20)}"))
    rows.append(("PPR push rmax=1e-5 (out, spread by global PageRank), CPU",
                 f"{med('push out spread'):.2f} ms, {fmt(tops['push out spread'], 20)}; first call {directed_ms:.0f} ms"))
    rows.append(("PPR Monte-Carlo 10k walks (both), CPU",
                 f"{med('mc'):.2f} ms, {fmt(tops['mc10'], 10)}; {fmt(tops['mc20'], 20)}"))
    rows.append(("push / Monte-Carlo in products A @ x", " / ".join(
        f"{name} {med(name) / matvec:.2f}" for name in ("push both spread", "push out spread", "mc"))))
    exact_ms = ms["exact both"]
    if with_networkx:
        import networkx as nx

        g = nx.from_scipy_sparse_array(both, create_using=nx.DiGraph)
        s = int(ppr_seeds[0])
        t, _ = timed(
            nx.pagerank,
            g,
            alpha=0.85,
            personalization={s: 1.0},
            dangling={s: 1.0},
            tol=1e-8 / n,
            max_iter=1000,
        )
        rows.append(
            ("networkx.pagerank (same tol)", f"{t:.0f} ms = {t / statistics.median(exact_ms):.0f}x exact")
        )
    if lpa:
        undirected = (calls + callers).tocsr()
        t, labels = cpu_timed(label_propagation, undirected, seed=seed)
        sizes = np.bincount(labels)
        rows.append(
            (
                "label propagation, CPU",
                f"{t / 1000:.1f} s, {sizes.size:,} clusters, largest {sizes.max() / n:.1%} of nodes",
            )
        )
        rows.append(cluster_cache_row(labels))
    return rows


def graph_cache_row(calls: sp.csr_matrix, types: sp.csr_matrix) -> tuple[str, str]:
    """Save a CodeGraph of these matrices beside a (fake) index and time a fresh process's warm start."""
    from lore.graphs import build

    n = calls.shape[0]
    square_types = sp.csr_matrix((types.data, types.indices, types.indptr), shape=(n, n))
    empty = sp.csr_matrix((n, n))
    g = build.CodeGraph(1, build.NodeIndex(np.arange(n, dtype=np.int64)), np.zeros(n, dtype=np.int8),
                        np.zeros(n, dtype=bool), np.zeros(n, dtype=np.int64), np.full(n, -1, dtype=np.int64),
                        {"calls": calls, "types": square_types, "inherits": empty, "contains": empty,
                         "imports": empty}, stamp="bench:1")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "index.db.graph"
        save_ms, folder = timed(build.save_graph, g, path)
        size = sum(f.stat().st_size for f in folder.iterdir()) / 1e6

        def warm_start() -> int:  # a fresh process: map the arrays, then touch what one query needs
            loaded = build.load_saved(path, "bench:1")
            return int(loaded.matrix("calls")[int(n // 2)].nnz)

        loads = [timed(warm_start)[0] for _ in range(3)]
    return ("graph cache: save / warm load", f"{save_ms:.0f} ms / {statistics.median(loads):.0f} ms ({size:.0f} MB)")


def cluster_cache_row(labels: np.ndarray) -> tuple[str, str]:
    """Store the cluster assignment the way lore caches it, then time reading it back into labels."""
    from lore.store import clusters as clusters_store
    from lore.store.db import connect

    members = np.column_stack([np.arange(labels.size), labels])
    with tempfile.TemporaryDirectory() as d:
        conn = connect(Path(d) / "index.db", create=True)
        t0 = time.perf_counter()
        clusters_store.save_run(conn, "bench", 1, {}, members)
        conn.commit()
        save_s = time.perf_counter() - t0

        def load() -> np.ndarray:
            _summary, pairs = clusters_store.load_run(conn, "bench", 1)
            out = np.full(labels.size, -1, dtype=np.int64)
            out[pairs[:, 0]] = pairs[:, 1]
            return out

        ms = [timed(load)[0] for _ in range(3)]
        conn.close()
    return ("clusters served from the store cache", f"{statistics.median(ms):.0f} ms (written once in {save_s:.1f} s)")


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms of the child) of one new process."""
    c0, t0 = _child_cpu(), time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return (time.perf_counter() - t0) * 1000, (_child_cpu() - c0) * 1000


def cold_cli(db: Path, seed: int, *, repeat: int = 5) -> list[tuple[str, str]]:
    """Cold ``lore graph related`` calls (a new process each) beside anchors measured in the same run.

    First one call per algorithm with nothing saved (it builds and saves the graph, and for hybrid
    its features), then ``repeat`` interleaved rounds of: ``python -c pass``, ``import lore.cli``,
    ``import numpy`` (the floor any graph query pays), ``import numpy, scipy.sparse`` (what a query
    that needs a sparse product or a build pays; a saved state's ``related`` never imports scipy)
    and the calls. Medians of wall and CPU time (CPU is steadier on a shared machine).
    """
    py = sys.executable
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    related = [py, "-m", "lore", "graph", "related", str(seed), "--db", str(db), "-n", "10"]
    calls = {
        "anchor: python -c pass": [py, "-c", "pass"],
        "anchor: import lore.cli": [py, "-c", "import lore.cli"],
        "anchor: import numpy": [py, "-c", "import numpy"],
        "anchor: import numpy, scipy.sparse": [py, "-c", "import numpy, scipy.sparse"],
        "cold CLI related (default algorithm)": related,
        "cold CLI related -a hybrid": [*related, "-a", "hybrid"],
    }
    rows: list[tuple[str, str]] = []
    for name in ("cold CLI related (default algorithm)", "cold CLI related -a hybrid"):
        wall, cpu = _run(calls[name], env)
        rows.append((f"{name}, nothing saved", f"{wall:.0f} ms wall, {cpu:.0f} ms CPU (builds and saves)"))
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in calls}
    for _ in range(repeat):
        for name, cmd in calls.items():
            got[name].append(_run(cmd, env))
    for name, runs in got.items():
        wall, cpu = zip(*runs, strict=True)
        rows.append((f"{name}{'' if name.startswith('anchor') else ', saved'}",
                     f"{statistics.median(wall):.0f} ms wall, {statistics.median(cpu):.0f} ms CPU (median of {repeat})"))
    return rows


DB_ALGORITHMS = ("hybrid", "overlap", "fusion", "pagerank_push", "pagerank_mc", "pagerank", "cluster")


def _ranking_alone(idx, algorithm: str):
    """The anchor of a warm ``related`` call: the same ranking (scores and the top 10 rows), without
    rows, names or ``why``; a function of the seed id (None for ``cluster``)."""
    from lore.graphs import hybrid as hy
    from lore.graphs import related as rel
    from lore.graphs._features import load_features
    from lore.queries.related import hybrid_params, related_params
    from lore.text.tokens import split_identifier

    g = idx.graph()
    if algorithm == "cluster":
        return None
    if algorithm == "hybrid":
        w, params = hybrid_params(None)
        wv = hy.check_weights(w)

        def rank_hybrid(sid: int) -> object:
            srows = g.nodes.rows([sid])
            mask = rel.excluded_mask(g, srows, include_tests=False, kinds=None)
            feats = load_features(idx.conn, g, split=split_identifier, db_path=idx.db_path, save=False)
            return hy.score(g, feats, srows, mask, wv, params=params).top(10)

        return rank_hybrid
    params = related_params(algorithm, alpha=0.85, direction=None, measure=None, weights=None, n_walks=10_000, seed=0)

    def rank_graph(sid: int) -> object:
        srows = g.nodes.rows([sid])
        mask = rel.excluded_mask(g, srows, include_tests=False, kinds=None)
        return rel.rank(rel.related_scores(g, srows, params, exclude=mask)[0], mask, 10)

    return rank_graph


def _p(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


def real_corpus(db: Path, seed: int, n_seeds: int, cold_repeat: int = 5,
                algorithms: tuple[str, ...] = DB_ALGORITHMS) -> list[tuple[str, str]]:
    """Cold CLI calls and warm api calls on a copy of a real index.

    Warm rows: per algorithm, CPU and wall time of ``lore_graph(kind="related", limit=10)`` (rows,
    names and ``why``) over the seeds, p50 / p99 / max, beside its anchor measured on the same seeds
    in the same loop: the ranking alone (the scores and the top 10 rows, nothing named or explained).
    ``cold_repeat`` 0 skips the cold CLI rows.
    """
    from lore import lore_graph, open_index
    from lore.graphs import build

    rows: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as d:
        copy = Path(d) / "index.db"
        shutil.copy(db, copy)
        with open_index(copy) as idx:
            st = idx.stats()
            rows.append(("corpus", f"{db}: {st['files']:,} files, {sum(st['symbols_by_kind'].values()):,} symbols, generation {st['generation']}"))
            cands = [r[0] for r in idx.conn.execute(
                "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id "
                "WHERE s.kind IN ('function', 'method') AND f.is_test = 0 ORDER BY s.id")]
        seeds = random.Random(seed).sample(cands, min(n_seeds, len(cands)))
        if cold_repeat > 0:
            rows += cold_cli(copy, seeds[0], repeat=cold_repeat)
        build._MEMORY.clear()
        with open_index(copy) as idx:
            t_graph = timed(idx.graph)[0]
            rows.append(("graph load in process (saved)", f"{t_graph:.0f} ms"))
            for algorithm in algorithms:
                lore_graph(idx, kind="related", source_id=seeds[0], algorithm=algorithm, limit=10)  # warm caches
                anchor = _ranking_alone(idx, algorithm)
                if anchor is not None:
                    anchor(seeds[0])
                ms, cpu, cpu_anchor = [], [], []
                for s in (seeds if algorithm != "pagerank" else seeds[:20]):
                    c0 = time.process_time()
                    ms.append(timed(lore_graph, idx, kind="related", source_id=s, algorithm=algorithm, limit=10)[0])
                    cpu.append((time.process_time() - c0) * 1000)
                    if anchor is not None:
                        c0 = time.process_time()
                        anchor(s)
                        cpu_anchor.append((time.process_time() - c0) * 1000)
                line = (f"CPU p50 {statistics.median(cpu):.2f} / p99 {_p(cpu, 0.99):.2f} / max {max(cpu):.2f} ms; "
                        f"wall p50 {statistics.median(ms):.2f} / max {max(ms):.2f} ms over {len(ms)} seeds")
                if cpu_anchor:
                    line += (f"; anchor, the ranking alone: CPU p50 {statistics.median(cpu_anchor):.2f} ms "
                             f"(rows and why {statistics.median(cpu) / max(statistics.median(cpu_anchor), 1e-9):.2f}x)")
                rows.append((f"warm related {algorithm} (limit 10, with why)", line))
        if "cluster" in algorithms:
            with open_index(copy) as idx:
                idx.conn.execute("DELETE FROM cluster_runs")
                idx.conn.commit()
                t_first = timed(idx.clusters)[0]
            with open_index(copy) as idx:
                t_cached = timed(idx.clusters)[0]
            rows.append(("clusters: computed / from the store", f"{t_first:.0f} ms / {t_cached:.0f} ms"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="PPR seeds per size (medians)")
    parser.add_argument(
        "--queries", type=int, default=200, help="random overlap seeds per size (plus 20 hub callers)"
    )
    parser.add_argument("--no-lpa", action="store_true", help="skip label propagation")
    parser.add_argument("--no-overlap", action="store_true", help="skip the overlap and graph-cache rows")
    parser.add_argument("--networkx-max", type=int, default=100_000, help="largest size to run networkx on")
    parser.add_argument("--db", type=Path, help="a real index (copied first) for the end-to-end rows")
    parser.add_argument("--db-seeds", type=int, default=100, help="seeded functions/methods queried on --db")
    parser.add_argument("--cold-repeat", type=int, default=5,
                        help="rounds of cold CLI calls and anchors on --db (0: no cold CLI rows)")
    parser.add_argument("--db-algorithms", nargs="+", choices=DB_ALGORITHMS, default=list(DB_ALGORITHMS),
                        help="the related algorithms timed warm on --db")
    args = parser.parse_args()

    def show(title: str, rows: list[tuple[str, str]]) -> None:
        width = max(len(k) for k, _ in rows)
        print(f"\n## {title}")
        for k, v in rows:
            print(f"{k:<{width}}  {v}")

    with threadpool_limits(limits=1):
        for n in args.sizes:
            rows = bench_size(
                n, args.seed, args.repeat, args.queries, not args.no_lpa, n <= args.networkx_max,
                not args.no_overlap,
            )
            show(f"N = {n:,} (seed {args.seed})", rows)
        if args.db:
            show("real corpus", real_corpus(args.db, args.seed, args.db_seeds, args.cold_repeat,
                                            tuple(args.db_algorithms)))


if __name__ == "__main__":
    main()
