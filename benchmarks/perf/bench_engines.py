"""The local engine beside the Ray engine (one node, 2 workers) on synthetic code-like graphs.

Graph: N symbols, out-degree 1 + Poisson(4), 60% of the edges inside a 200-symbol "module", the
rest to Zipf(1.6)-popular targets (hubs like ``len``), deduplicated; weights 0.5 / 1 / 2. The same
generator as ``tests/ray/test_engine_equal.py`` and ``research/dist/gen_graph.py``.

Measured per size, local and Ray in the same run, each Ray result checked with ``np.array_equal``
against the local one:

* start-up: ``ray.init`` of a local instance, creating the actors, shipping P.T's row blocks;
* exact personalized PageRank: ms per power iteration (``P.T @ x`` through the engine plus the dense
  update, median of ``--iters``) and one full solve to tol 1e-8;
* Monte-Carlo PageRank (``--walks`` walks in blocks of 16,384);
* label propagation on the undirected graph (``--lpa-iter`` sweeps at most; skipped above
  ``--lpa-max`` nodes) and overlap (idf_cosine over callees + callers, median ms per query);
* memory: bytes per stored entry of P.T, each worker's resident memory and the bytes of blocks it
  holds, the driver's peak resident memory; bytes broadcast per iteration.

Usage::

    python benchmarks/perf/bench_engines.py                      # 1M symbols
    python benchmarks/perf/bench_engines.py --sizes 1000000 10000000 --lpa-max 2000000

Wall-clock numbers depend on the machine and its load (2 shared cores here); ratios within one run
are the point. Native BLAS threads are pinned to 1 (as the algorithms do).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

import numpy as np
import scipy.sparse as sp

from lore import _ray
from lore.algorithms import clusters, overlap, pagerank
from lore.algorithms._engine import LOCAL
from lore.bench.synthetic import code_like_graph


def timed(fn, *a, **kw):
    t = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t


def per_iteration(engine, p_mat, a, iters: int) -> tuple[float, np.ndarray]:
    """Median seconds of one power iteration (engine product + dense update) and the final x."""
    pt = engine.rows(p_mat, transpose=True, cache_on=a, name="bench:P.T")
    n = a.shape[0]
    p = np.zeros(n)
    p[0] = 1.0
    leak = (np.diff(p_mat.indptr) == 0).astype(np.float64)
    x = p.copy()
    times = []
    for _ in range(iters):
        t = time.perf_counter()
        x = 0.85 * pt.matvec(x) + (0.85 * float(leak @ x) + (1.0 - 0.85)) * p
        times.append(time.perf_counter() - t)
    return statistics.median(times), x


def halo(p_mat: sp.csr_matrix, blocks=(2, 8, 32, 128, 512)) -> None:
    """Columns of x each row block of P.T reads: what a halo exchange would send instead of all of x."""
    from lore.graphs.ray_engine import row_bounds

    pt = p_mat.T.tocsr()
    n = pt.shape[0]
    for k in blocks:
        b = row_bounds(pt.indptr, k)
        need, remote = [], []
        for lo, hi in zip(b[:-1].tolist(), b[1:].tolist(), strict=True):
            cols = np.unique(pt.indices[pt.indptr[lo]:pt.indptr[hi]])
            need.append(cols.size)
            remote.append(int(((cols < lo) | (cols >= hi)).sum()))
        print(f"  halo, {k:3d} blocks: a block reads {np.mean(need) / n:.3f} n of x (max {max(need) / n:.3f} n), "
              f"{np.mean(remote) / n:.4f} n from other blocks; all blocks together {sum(remote) / n:.2f} n "
              f"(broadcast: {k} n)", flush=True)


def memory(engine, when: str) -> None:
    for i, m in enumerate(engine.memory()):
        print(f"  worker {i} {when}: resident {m['rss'] / 2**20:6.0f} MiB (peak {m['peak'] / 2**20:6.0f} MiB), "
              f"row blocks held {m['held'] / 2**20:6.0f} MiB", flush=True)


def transport(engine, n: int) -> None:
    """What one iteration pays beyond the products: putting x in the object store, one empty round trip."""
    ray = engine.ray
    x = np.random.default_rng(0).random(n)
    puts, trips = [], []
    for _ in range(5):
        t = time.perf_counter()
        ref = ray.put(x)
        puts.append(time.perf_counter() - t)
        del ref
    for _ in range(20):
        t = time.perf_counter()
        ray.get([w.memory.remote() for w in engine.workers])
        trips.append(time.perf_counter() - t)
    put = statistics.median(puts)
    print(f"  ray.put(x) of {x.nbytes / 2**20:.1f} MiB: {put * 1000:.2f} ms ({x.nbytes / put / 2**30:.2f} GiB/s); "
          f"round trip to all actors (no data): {statistics.median(trips) * 1000:.2f} ms", flush=True)


def row(what: str, local: float, ray: float, same: bool | None, unit: str = "s") -> None:
    scale = 1000.0 if unit == "ms" else 1.0
    eq = "" if same is None else ("identical" if same else "DIFFERENT")
    ratio = f"{ray / local:6.2f}x" if local > 0 else "      "
    print(f"  {what:<38s} {local * scale:10.3f} {ray * scale:10.3f} {unit:<3s} {ratio}  {eq}", flush=True)


def bench(n: int, args, engine) -> None:
    print(f"\n== N = {n:,} symbols", flush=True)
    a, dt = timed(code_like_graph, n)
    p_mat, _leak = pagerank._transition(a, True)
    bpe = (p_mat.data.nbytes + p_mat.indices.nbytes + p_mat.indptr.nbytes) / p_mat.nnz
    print(f"  generated in {dt:.1f}s: {a.nnz:,} edges; P.T in CSR: {bpe:.2f} bytes per edge "
          f"({(p_mat.data.nbytes + p_mat.indices.nbytes + p_mat.indptr.nbytes) / 2**20:.0f} MiB)", flush=True)
    print(f"  {'':<38s} {'local':>10s} {'ray':>10s}", flush=True)

    _, ship = timed(engine.rows, p_mat, transpose=True, cache_on=a, name="bench:P.T")
    row("ship P.T row blocks to the actors", 0.0, ship, None)
    (loc_it, x_loc) = per_iteration(LOCAL, p_mat, a, args.iters)
    (ray_it, x_ray) = per_iteration(engine, p_mat, a, args.iters)
    row(f"PPR one power iteration (median of {args.iters})", loc_it, ray_it, bool(np.array_equal(x_loc, x_ray)), "ms")
    kw = {"personalization": [0, n // 3, n - 1], "tol": 1e-8, "max_iter": 1000}
    loc, t_loc = timed(pagerank.personalized_pagerank, a, **kw)
    ray, t_ray = timed(pagerank.personalized_pagerank, a, engine=engine, **kw)
    row("PPR exact solve (tol 1e-8, 3 seeds)", t_loc, t_ray, bool(np.array_equal(loc, ray)))
    del loc, ray
    memory(engine, "after PageRank")

    mkw = {"personalization": [n // 2], "n_walks": args.walks, "seed": 1}
    (loc_s, _), t_loc = timed(pagerank.monte_carlo_pagerank, a, **mkw)
    (ray_s, _), t_ray = timed(pagerank.monte_carlo_pagerank, a, engine=engine, **mkw)
    row(f"Monte-Carlo PPR ({args.walks:,} walks), first", t_loc, t_ray, bool(np.array_equal(loc_s, ray_s)))
    (loc_s, _), t_loc = timed(pagerank.monte_carlo_pagerank, a, **mkw)
    (ray_s, _), t_ray = timed(pagerank.monte_carlo_pagerank, a, engine=engine, **mkw)
    row("Monte-Carlo PPR, again (matrix shipped)", t_loc, t_ray, bool(np.array_equal(loc_s, ray_s)))
    del loc_s, ray_s

    at = a.T.tocsr()
    feats, trans = [a, at], [at, a]
    rng = np.random.default_rng(3)
    seeds = rng.integers(0, n, size=args.queries)
    loc_t, ray_t, same = [], [], True
    for s in seeds.tolist():
        lo, t1 = timed(overlap.overlap_scores, feats, [s], measure="idf_cosine", transposes=trans)
        rr, t2 = timed(overlap.overlap_scores, feats, [s], measure="idf_cosine", transposes=trans, engine=engine)
        loc_t.append(t1)
        ray_t.append(t2)
        same &= bool(np.array_equal(lo, rr))
    # the first query on a matrix pays the row norms (one pass) and, on Ray, shipping: report both
    row("overlap first query (norms, shipping)", loc_t[0], ray_t[0], None, "ms")
    row(f"overlap query (median of {args.queries - 1})", statistics.median(loc_t[1:]),
        statistics.median(ray_t[1:]), same, "ms")
    del at, feats, trans

    if n <= args.lpa_max:
        sym = (a + a.T).tocsr()
        lab_l, t_loc = timed(clusters.label_propagation, sym, seed=0, max_iter=args.lpa_iter)
        lab_r, t_ray = timed(clusters.label_propagation, sym, seed=0, max_iter=args.lpa_iter, engine=engine)
        row(f"label propagation (<= {args.lpa_iter} sweeps)", t_loc, t_ray, bool(np.array_equal(lab_l, lab_r)))
        print(f"    {int(lab_l.max()) + 1:,} clusters", flush=True)
        del sym, lab_l, lab_r
    else:
        print(f"  label propagation skipped (N > --lpa-max {args.lpa_max:,})", flush=True)

    transport(engine, n)
    halo(p_mat)
    memory(engine, "at the end")
    print(f"  driver peak resident: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:.0f} MiB", flush=True)
    print(f"  broadcast per PPR iteration: x = {n * 8 / 2**20:.1f} MiB once per node (object store), "
          f"results back {n * 8 / 2**20:.1f} MiB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--walks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=21)
    ap.add_argument("--lpa-iter", type=int, default=10)
    ap.add_argument("--lpa-max", type=int, default=2_000_000, help="skip label propagation above this N")
    args = ap.parse_args()
    from threadpoolctl import threadpool_limits

    print(f"bench_engines: sizes {args.sizes}, {args.workers} Ray workers, load {os.getloadavg()[0]:.1f}", flush=True)
    t = time.perf_counter()
    _ray.connect(None, num_cpus=args.workers)
    t_init = time.perf_counter() - t
    from lore.graphs.ray_engine import RayEngine

    engine, t_actors = timed(RayEngine, workers=args.workers)
    engine.memory()  # actors up
    t_actors = time.perf_counter() - t - t_init
    print(f"start-up: ray.init (local instance) {t_init:.2f}s, {args.workers} actors {t_actors:.2f}s", flush=True)
    with threadpool_limits(limits=1, user_api="blas"):
        for n in args.sizes:
            bench(n, args, engine)
    engine.close()
    _ray.shutdown()


if __name__ == "__main__":
    main()
