"""Cluster quality: lore's clusters against module structure and co-change, beside baselines and Louvain.

Three kinds of reference, none of them made by lore:

* **module structure** -- the files (modules) and directories (packages) the authors laid the code out
  in: a noisy human partition. NMI and ARI of a clustering against both.
* **co-change** -- symbol pairs that changed together in at least two commits
  (:mod:`lore.bench.cochange`; requests, httpx and flask). Co-change is a set of pairs, not a
  partition, so it is scored pairwise over the symbols that appear in it: *precision* (of the
  pairs a clustering puts in one cluster, the share that co-changed), *recall* (of the co-changed
  pairs, the share inside one cluster), their F1, and the *modularity* of the clustering on the
  co-change graph (Newman's Q: the share of co-change pairs inside clusters minus what a random
  graph with the same degrees would put there; 0 for one all-in cluster and about 0 for singletons,
  so a trivial clustering cannot score well on it).
* **LFR graphs** with planted communities (seeded networkx generator): the algorithm alone.

Every clustering is scored on the same symbols: non-test, non-external, non-module symbols of the
graph lore clusters (:func:`lore.graphs.related.cluster_adjacency`, test rows left out). Beside lore:
*directories as clusters* and *files as clusters* (the trivial baselines; each equals one of the
structure references by construction), and *Louvain* (``networkx.community.louvain_communities``,
seeded, on the same weighted graph) as the anchor from a well-kept library. NMI (arithmetic
normalisation) rewards many small clusters; ARI does not: read both.
"""

from __future__ import annotations

import time
from pathlib import PurePosixPath

import numpy as np
import scipy.sparse as sp

from ..algorithms.clusters import adjusted_rand_index as ari
from ..algorithms.clusters import canonical_labels
from ..algorithms.clusters import normalized_mutual_info as nmi

# (n, tau1, tau2, mu, average_degree, min_community, seed). The first is networkx's docstring example
# (3 large communities); the others plant 11 communities with a rising share of edges between them.
LFR_GRAPHS = (
    (250, 3, 1.5, 0.1, 5, 20, 10),
    (500, 2, 1.1, 0.2, 10, 20, 3),
    (500, 2, 1.1, 0.3, 10, 20, 3),
    (500, 2, 1.1, 0.4, 10, 20, 3),
)


def cluster_quality(suite, *, seed: int = 0) -> dict:
    """NMI / ARI of the index's clusters against modules and packages, plus LFR results."""
    g = suite.g
    _summary, labels = suite.idx.clusters(seed=seed)
    from ._data import symbol_table

    table = symbol_table(suite.idx)
    keep = (labels >= 0) & ~g.is_test & (g.kind != g.kind_code("module"))
    rows = np.flatnonzero(keep)
    paths = [table[g.nodes.id(int(r))][4] for r in rows]
    module = _codes(paths)
    package = _codes([str(PurePosixPath(p).parent) for p in paths])
    lab = labels[rows]
    out = {
        "symbols": int(len(rows)), "clusters": int(len(np.unique(lab))), "modules": int(module.max() + 1),
        "packages": int(package.max() + 1),
        "nmi_module": round(float(nmi(lab, module)), 4), "ari_module": round(float(ari(lab, module)), 4),
        "nmi_package": round(float(nmi(lab, package)), 4), "ari_package": round(float(ari(lab, package)), 4),
        "scorer": "lore.algorithms.clusters",
    }
    lfr = lfr_quality(seed=seed)
    out["lfr"] = lfr
    if lfr:
        mine = [r for r in lfr if r["method"] == "lore"]
        out["lfr_nmi"] = round(float(np.mean([r["nmi"] for r in mine])), 4)
        out["lfr_ari"] = round(float(np.mean([r["ari"] for r in mine])), 4)
    return out


def _codes(values: list[str]) -> np.ndarray:
    _, codes = np.unique(np.array(values, dtype=object), return_inverse=True)
    return codes


def lfr_quality(*, seed: int = 0) -> list[dict]:
    """Label propagation (as :func:`lore.graphs.related.compute_clusters` runs it) on LFR graphs."""
    import networkx as nx

    from ..algorithms import clusters as lc

    out = []
    for n, t1, t2, mu, deg, minc, gseed in LFR_GRAPHS:
        try:
            G = nx.LFR_benchmark_graph(n, t1, t2, mu, average_degree=deg, min_community=minc, seed=gseed)
        except nx.ExceededMaxIterations:
            continue
        G.remove_edges_from(nx.selfloop_edges(G))
        nodes = sorted(G)
        adj = sp.csr_matrix(nx.to_scipy_sparse_array(G, nodelist=nodes, format="csr", dtype=np.float64))
        comm_of = {}
        for v in nodes:
            comm_of.setdefault(frozenset(G.nodes[v]["community"]), len(comm_of))
        truth = np.array([comm_of[frozenset(G.nodes[v]["community"])] for v in nodes])
        runs = {"lore": lc.label_propagation(adj, seed=seed)}
        try:
            runs["lore, no hub penalty"] = lc.label_propagation(adj, seed=seed, hub_degree_penalty=False)
        except TypeError:
            pass
        for name in list(runs):
            if hasattr(lc, "reattach_small"):
                runs[name] = lc.reattach_small(adj, runs[name], min_size=2)
        ref = np.zeros(len(nodes), dtype=np.int64)
        for k, members in enumerate(nx.community.asyn_lpa_communities(G, seed=seed)):
            for v in members:
                ref[nodes.index(v)] = k
        runs["networkx asyn_lpa (reference)"] = ref
        runs["networkx louvain (anchor)"] = louvain_labels(adj, seed=seed)
        for name, labels in runs.items():
            labels = np.asarray(labels)
            out.append({
                "graph": f"LFR n={n} mu={mu} seed={gseed}", "method": name, "communities": int(truth.max() + 1),
                "clusters": int(len(np.unique(labels))),
                "nmi": round(float(nmi(labels, truth)), 4), "ari": round(float(ari(labels, truth)), 4),
            })
    return out


# --- several corpora: lore beside baselines and the Louvain anchor, against structure and co-change ---------------

METHODS = ("lore", "louvain (networkx)", "baseline: directories", "baseline: files")


def louvain_labels(adjacency, *, seed: int = 0, resolution: float = 1.0) -> np.ndarray:
    """Louvain communities (``networkx.community.louvain_communities``) of a symmetric weighted CSR, per row.

    The anchor from a well-kept library, used in the benchmark only. Rows without an edge are
    singleton communities; labels are numbered in row order of each community's first member.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> a = sp.csr_matrix(([1.0] * 4, ([0, 1, 2, 3], [1, 0, 3, 2])), shape=(4, 4))
    >>> louvain_labels(a, seed=0).tolist()
    [0, 0, 1, 1]
    """
    import networkx as nx

    a = sp.csr_matrix(adjacency, dtype=np.float64)
    a = ((a + a.T) / 2.0).tocsr()
    a.setdiag(0.0)
    a.eliminate_zeros()
    G = nx.from_scipy_sparse_array(a, edge_attribute="weight")
    labels = np.full(a.shape[0], -1, dtype=np.int64)
    for k, members in enumerate(nx.community.louvain_communities(G, weight="weight", resolution=resolution,
                                                                  seed=seed)):
        labels[np.fromiter(members, dtype=np.int64)] = k
    return np.asarray(canonical_labels(labels), dtype=np.int64)


def cochange_agreement(labels, pairs) -> dict:
    """How well a clustering holds co-changed pairs: pairwise precision / recall / F1 and modularity.

    Parameters
    ----------
    labels : array of int
        Cluster per item (items are 0..n-1).
    pairs : array of shape (m, 2)
        Co-changed item pairs (each unordered pair once, no self pairs).

    Returns
    -------
    dict
        ``precision``: share of same-cluster pairs among the items of ``pairs`` that co-changed;
        ``recall``: share of co-changed pairs inside one cluster; ``f1``; ``modularity``: Newman's Q
        of the clustering on the co-change graph (0 for one cluster; 0 or a little below for
        singletons);
        ``items`` and ``pairs``.

    Examples
    --------
    >>> import numpy as np
    >>> r = cochange_agreement(np.array([0, 0, 1, 1]), np.array([[0, 1], [2, 3]]))
    >>> r["precision"], r["recall"], r["modularity"]
    (1.0, 1.0, 0.5)
    >>> cochange_agreement(np.array([0, 0, 0, 0]), np.array([[0, 1], [2, 3]]))["modularity"]
    0.0
    """
    labels = np.asarray(labels)
    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if p.size == 0:
        return {"items": 0, "pairs": 0, "precision": None, "recall": None, "f1": None, "modularity": None}
    items = np.unique(p)
    lab = labels[items]
    _, codes = np.unique(lab, return_inverse=True)
    sizes = np.bincount(codes).astype(np.float64)
    same_pairs = float(np.sum(sizes * (sizes - 1) / 2.0))
    inside = labels[p[:, 0]] == labels[p[:, 1]]
    hits = float(inside.sum())
    m = float(len(p))
    precision = hits / same_pairs if same_pairs > 0 else 0.0
    recall = hits / m
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    # modularity on the co-change graph: sum_c [L_c / m - (D_c / 2m)^2]
    pos = np.searchsorted(items, p)
    degree = np.bincount(pos.ravel(), minlength=len(items)).astype(np.float64)
    d_c = np.bincount(codes, weights=degree)
    modularity = hits / m - float(np.sum((d_c / (2 * m)) ** 2))
    return {"items": int(len(items)), "pairs": int(m), "precision": round(precision, 4), "recall": round(recall, 4),
            "f1": round(f1, 4), "modularity": round(modularity + 0.0, 4)}


def partitions(g, labels: np.ndarray, paths: dict[int, str], *, seed: int = 0) -> tuple[np.ndarray, dict]:
    """(rows scored, method -> labels over those rows): lore, Louvain on the same graph, directories, files.

    ``labels`` are lore's clusters per graph row (-1 outside: tests, externals); ``paths`` maps a
    symbol id to its file path.
    """
    from ..graphs.related import cluster_adjacency

    ext = g.is_external()
    tests = np.asarray(g.is_test, dtype=bool) & ~ext
    keep = sp.diags((~tests & ~ext).astype(np.float64))
    core = (keep @ cluster_adjacency(g) @ keep).tocsr()
    rows = np.flatnonzero((labels >= 0) & ~tests & ~ext & (g.kind != g.kind_code("module")))
    file_of = [paths.get(g.nodes.id(int(r)), "") for r in rows]
    out = {
        "lore": np.asarray(labels)[rows],
        "louvain (networkx)": louvain_labels(core, seed=seed)[rows],
        "baseline: directories": _codes([str(PurePosixPath(p).parent) for p in file_of]),
        "baseline: files": _codes(file_of),
    }
    return rows, out


def corpus_quality(idx, *, cochange: dict[int, list[int]] | None = None, seed: int = 0) -> dict:
    """Every clustering of :data:`METHODS` on one index, against modules, packages and (if given) co-change.

    ``cochange``: symbol id -> ids it changed together with (:func:`lore.bench.cochange.cochange_pairs`).
    """
    from ..graphs.related import compute_clusters
    from ._data import symbol_table

    t0 = time.perf_counter()
    g = idx.graph()
    labels, _sizes, _coh = compute_clusters(g, seed=seed)
    paths = {sid: r[4] or "" for sid, r in symbol_table(idx).items()}
    rows, parts = partitions(g, labels, paths, seed=seed)
    module, package = parts["baseline: files"], parts["baseline: directories"]
    pair_rows = None
    if cochange is not None:
        where = np.full(g.n, -1, dtype=np.int64)
        where[rows] = np.arange(len(rows))
        found = {(min(a, b), max(a, b)) for s, ts in cochange.items() for t in ts
                 for a, b in [(int(where[g.nodes.row(s)]), int(where[g.nodes.row(t)]))] if a >= 0 and b >= 0 and a != b}
        pair_rows = np.array(sorted(found), dtype=np.int64).reshape(-1, 2)
    methods = {}
    for name, lab in parts.items():
        sizes = np.unique(lab, return_counts=True)[1]
        r: dict[str, object] = {
             "clusters": int(sizes.size), "largest": int(sizes.max()), "singletons": int((sizes == 1).sum()),
             "nmi_module": round(float(nmi(lab, module)), 4), "ari_module": round(float(ari(lab, module)), 4),
             "nmi_package": round(float(nmi(lab, package)), 4), "ari_package": round(float(ari(lab, package)), 4)}
        if pair_rows is not None:
            r["cochange"] = cochange_agreement(lab, pair_rows)
        methods[name] = r
    return {"symbols": int(len(rows)), "modules": int(module.max() + 1), "packages": int(package.max() + 1),
            "cochange_pairs": None if pair_rows is None else int(len(pair_rows)), "methods": methods,
            "seconds": round(time.perf_counter() - t0, 2)}
