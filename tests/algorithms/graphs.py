"""Small named toy graphs shared by the algorithm tests (after scikit-network's ``test_graphs``).

Every function returns a fresh ``scipy.sparse.csr_matrix`` of float64 weights, ``A[i, j]`` = weight
of edge ``i -> j``. ``undirected_*`` graphs are symmetric.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp


def _csr(n: int, edges, weights=None) -> sp.csr_matrix:
    edges = list(edges)
    rows = [e[0] for e in edges]
    cols = [e[1] for e in edges]
    data = np.ones(len(edges)) if weights is None else np.asarray(weights, dtype=np.float64)
    return sp.csr_matrix((data, (rows, cols)), shape=(n, n))


def symmetrize(a: sp.csr_matrix) -> sp.csr_matrix:
    return (a + a.T).tocsr()


def empty() -> sp.csr_matrix:
    """No nodes at all."""
    return sp.csr_matrix((0, 0))


def isolated(n: int = 4) -> sp.csr_matrix:
    """``n`` nodes, no edges."""
    return sp.csr_matrix((n, n))


def directed_cycle(n: int = 5) -> sp.csr_matrix:
    """0 -> 1 -> ... -> n-1 -> 0."""
    return _csr(n, [(i, (i + 1) % n) for i in range(n)])


def dangling_chain() -> sp.csr_matrix:
    """0 -> 1 -> 2 -> 3 and 0 -> 2; node 3 has no out-edge."""
    return _csr(4, [(0, 1), (1, 2), (2, 3), (0, 2)])


def house() -> sp.csr_matrix:
    """The 5-node house graph, undirected (a square with a roof)."""
    return symmetrize(_csr(5, [(0, 1), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)]))


def two_triangles() -> sp.csr_matrix:
    """Triangles {0,1,2} and {3,4,5} joined by the edge 2 - 3, undirected."""
    return symmetrize(_csr(6, [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)]))


def star(n: int = 6) -> sp.csr_matrix:
    """Hub 0 joined to leaves 1..n-1, undirected."""
    return symmetrize(_csr(n, [(0, i) for i in range(1, n)]))


def karate_club() -> sp.csr_matrix:
    """Zachary's karate club (34 nodes), undirected."""
    return from_networkx(nx.karate_club_graph(), weight=None)


def weighted_digraph(n: int = 30, seed: int = 3) -> sp.csr_matrix:
    """A random weighted directed graph with a few dangling nodes and a self-loop (seeded)."""
    rng = np.random.default_rng(seed)
    dense = (rng.random((n, n)) < 0.12) * rng.uniform(0.1, 2.0, (n, n))
    dense[[3, 7, 11]] = 0.0  # dangling
    dense[5, 5] = 1.0
    return sp.csr_matrix(dense)


def code_like(n: int = 300, *, seed: int = 0, n_hubs: int = 3, out_degree: int = 4) -> sp.csr_matrix:
    """A directed 'call graph': power-law in-degrees (preferential targets) plus hubs everyone calls."""
    rng = np.random.default_rng(seed)
    pop = rng.pareto(1.5, n) + 1.0
    p = pop / pop.sum()
    rows = np.repeat(np.arange(n), out_degree)
    cols = rng.choice(n, size=rows.size, p=p)
    hubs = np.arange(n_hubs)
    callers = rng.random(n) < 0.5
    rows = np.r_[rows, np.flatnonzero(callers)]
    cols = np.r_[cols, rng.choice(hubs, size=int(callers.sum()))]
    keep = rows != cols
    a = sp.csr_matrix((np.ones(int(keep.sum())), (rows[keep], cols[keep])), shape=(n, n))
    a.sum_duplicates()
    a.data[:] = 1.0
    return a


def planted_with_hubs(
    n_groups: int = 8,
    size: int = 25,
    *,
    p_in: float = 0.3,
    p_out: float = 0.01,
    n_hubs: int = 4,
    seed: int = 0,
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Planted communities plus hub nodes joined to most of the graph; returns (undirected A, groups).

    The hubs get their own group labels (one each) in the returned truth.
    """
    rng = np.random.default_rng(seed)
    n = n_groups * size
    truth = np.repeat(np.arange(n_groups), size)
    prob = np.where(truth[:, None] == truth[None, :], p_in, p_out)
    upper = np.triu(rng.random((n, n)) < prob, 1)
    total = n + n_hubs
    dense = np.zeros((total, total))
    dense[:n, :n] = upper
    hubs = np.arange(n, total)
    dense[np.ix_(hubs, np.arange(n))] = rng.random((n_hubs, n)) < 0.8
    a = sp.csr_matrix(dense)
    return symmetrize(a), np.r_[truth, n_groups + np.arange(n_hubs)]


def lfr(mu: float, *, n: int = 1000, seed: int = 1) -> tuple[sp.csr_matrix, np.ndarray]:
    """A networkx LFR benchmark graph and its planted communities (parameters that generate reliably)."""
    g = nx.LFR_benchmark_graph(
        n, 2.5, 1.5, mu, average_degree=15, min_community=40, max_community=100, max_degree=40, seed=seed
    )
    truth = np.empty(n, dtype=np.int64)
    for i, community in enumerate(sorted({frozenset(g.nodes[v]["community"]) for v in g}, key=min)):
        truth[list(community)] = i
    return from_networkx(g, weight=None), truth


def from_networkx(g, weight: str | None = "weight") -> sp.csr_matrix:
    a = nx.to_scipy_sparse_array(g, nodelist=sorted(g), format="csr", dtype=np.float64, weight=weight)
    return sp.csr_matrix(a)


def to_networkx(a: sp.csr_matrix, *, directed: bool = True):
    return nx.from_scipy_sparse_array(a, create_using=nx.DiGraph if directed else nx.Graph)


# graphs every contract test runs on
DIRECTED = {
    "directed_cycle": directed_cycle,
    "dangling_chain": dangling_chain,
    "weighted_digraph": weighted_digraph,
    "code_like": code_like,
    "isolated": isolated,
}
UNDIRECTED = {
    "house": house,
    "two_triangles": two_triangles,
    "star": star,
    "karate_club": karate_club,
    "isolated": isolated,
}
