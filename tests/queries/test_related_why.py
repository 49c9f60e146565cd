"""The why of related rows: gathered in one batched pass, equal to explaining each row on its own."""

from __future__ import annotations

import numpy as np
import pytest

from lore import lore_graph
from lore.algorithms import overlap as ov
from lore.graphs import related as rel
from lore.store import read

PATH_ALGORITHMS = ("fusion", "pagerank", "pagerank_push", "pagerank_mc")
SEED = "app.mod3.Worker3.run"


def _statements(idx, **kw) -> tuple[int, dict]:
    seen: list[str] = []
    idx.conn.set_trace_callback(seen.append)
    try:
        out = lore_graph(idx, kind="related", source_id=SEED, **kw)
    finally:
        idx.conn.set_trace_callback(None)
    return len(seen), out


@pytest.mark.parametrize("algorithm", ("overlap", *PATH_ALGORITHMS, "cluster"))
def test_statements_do_not_grow_with_the_rows(wide_index, algorithm):
    lore_graph(wide_index, kind="related", source_id=SEED, algorithm=algorithm)  # graph and clusters cached
    counts = {}
    for limit in (1, 5, 40):
        counts[limit], out = _statements(wide_index, algorithm=algorithm, limit=limit)
        assert len(out["results"]) == min(limit, out["total"])
    big = _statements(wide_index, algorithm=algorithm, limit=40)[1]
    assert big["total"] > (1 if algorithm == "cluster" else 30), "the fixture must give answers of many rows"
    if algorithm in PATH_ALGORITHMS:
        assert sum(len(r["why"]["hops"]) for r in big["results"]) > 40, "paths of several hops"
    # seed lookup, generation, graph stamp, one query for every symbol, one for every hop's edge,
    # and the BEGIN / COMMIT of the one read snapshot the answer is computed in
    assert counts[1] == counts[5] == counts[40] <= 8, counts


def _reference_why(idx, seeds: list[int], target_id: int, algorithm: str) -> dict:
    """The explanation of one row as lore gave it before the batched pass: a query per name and hop."""
    g = idx.graph()
    params = rel.RelatedParams(algorithm=algorithm)
    srows = g.nodes.rows(seeds)
    target = g.nodes.row(target_id)
    why: dict = {}
    if algorithm in ("overlap", "fusion"):
        feats, trans, ws, names = rel._features(g, params.overlap_weights)
        shared = []
        for s in srows.tolist():
            shared += [(names[r], int(c), float(v)) for r, c, v in ov.overlap_explain(
                feats, s, target, weights=ws, measure=params.measure, transposes=trans, top=3)]
        shared.sort(key=lambda t: (-t[2], t[1]))
        items = []
        for relname, col, contrib in shared[:3]:
            sid = g.nodes.id(col)
            item = {"relation": relname, "id": sid, "name": read.symbols_by_ids(idx.conn, [sid])[sid].qualified_name,
                    "weight": round(contrib, 4)}
            if col == target or col in set(srows.tolist()):
                item["direct"] = True
            items.append(item)
        why["shared"] = items
    if algorithm != "overlap":
        adj = rel.walk_matrix(g, params.ppr_weights, params.direction)
        path = rel.strongest_paths(adj, srows, np.array([target]))[0]
        ids = [g.nodes.id(r) for r in path]
        hops = []
        for a, b in zip(ids, ids[1:], strict=False):
            det = read.edge_details(idx.conn, a, b)
            hops.append({"to": read.symbols_by_ids(idx.conn, [b])[b].qualified_name,
                         "edge": det[0].kind if det else "?", "resolution": det[0].resolution if det else None})
        why["path"] = [read.symbols_by_ids(idx.conn, [i])[i].qualified_name for i in ids]
        why["hops"] = hops
    return why


@pytest.mark.parametrize("algorithm", ("overlap", "fusion", "pagerank", "pagerank_push"))
def test_batched_why_equals_the_row_by_row_why(wide_index, algorithm):
    out = lore_graph(wide_index, kind="related", source_id=[SEED, "app.mod7.make7"], algorithm=algorithm, limit=40)
    seeds = out["query"]["source_ids"]
    assert len(out["results"]) > 5
    for row in out["results"]:
        assert row["why"] == _reference_why(wide_index, seeds, row["id"], algorithm), row["qualified_name"]


def _path_one(adj, seeds, target, max_hops=3):
    """The single-target search the batched :func:`strongest_paths` replaced (stops at the target's hop)."""
    deg = np.asarray(adj.sum(axis=1)).ravel()
    deg[deg == 0] = 1.0
    best = {int(s): (1.0, [int(s)]) for s in seeds.tolist()}
    frontier = dict(best)
    for _ in range(max_hops):
        nxt = {}
        for node, (p, path) in frontier.items():
            lo, hi = adj.indptr[node], adj.indptr[node + 1]
            for c, v in zip(adj.indices[lo:hi].tolist(), (adj.data[lo:hi] / deg[node]).tolist(), strict=True):
                if c not in best or best[c][0] < p * v:
                    best[c] = (p * v, path + [c])
                    nxt[c] = best[c]
        if target in best:
            return best[target][1]
        frontier = nxt
        if not frontier:
            break
    return best[target][1] if target in best else []


@pytest.mark.parametrize("seed", range(5))
def test_strongest_paths_match_one_search_per_target(seed):
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    adj = sp.random(60, 60, density=0.05, random_state=rng, format="csr")
    seeds = np.array([0, 7])
    targets = np.arange(60)
    got = rel.strongest_paths(adj, seeds, targets)
    assert got == [_path_one(adj, seeds, int(t)) for t in targets]
    assert any(len(p) == 4 for p in got), "some path takes three hops"


def test_first_edges_is_the_first_edge_detail_of_every_pair(wide_index):
    conn = wide_index.conn
    pairs = set()
    for table, a, b in (("symbol_refs", "caller_id", "callee_id"), ("type_refs", "symbol_id", "type_id"),
                        ("symbol_relationships", "source_id", "target_id")):
        for e in read.edge_rows(conn, table):
            if e[b] is not None:
                pairs.update({(e[a], e[b]), (e[b], e[a])})
    pairs.add((1, 10**9))  # no edge: left out
    got = read.first_edges(conn, pairs)
    assert len(got) == len(pairs) - 1
    for a, b in pairs:
        det = read.edge_details(conn, a, b)
        assert got.get((a, b)) == (det[0] if det else None), (a, b)
    assert {d.table for d in got.values()} == {"call", "type", "relationship"}
