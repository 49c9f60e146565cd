"""Baselines every structural algorithm must beat, measured in the same run on the same queries.

Each baseline returns, for one seed row, candidate rows best first. Candidates are always the
rows the api could return for that seed (same exclusion mask), so the comparison is fair.

* :func:`random_ranking` -- a seeded shuffle of every candidate;
* :func:`same_file_ranking` -- the other symbols of the seed's file, nearest line first (See-Also
  pairs often sit in one file, so this is a strong baseline);
* :class:`BM25Names` -- BM25 over name tokens (``get_user_by_id`` -> get, user, by, id), the query being
  the seed's own name tokens;
* :class:`FilePageRank` -- aider's repo-map ranking: PageRank over the file graph (file A -> file B
  weighted by A's references to B's definitions) personalized on the seed's file, then each
  definition gets the rank flowing into it along the references (``sum_src pr[src] * refs(src ->
  def) / refs_out(src)``), with the rank of its own file as a tie-breaker. Computed with networkx, as
  aider does.
"""

from __future__ import annotations

import re

import numpy as np
import scipy.sparse as sp

from ..text.tokens import split_identifier


def random_ranking(candidates: np.ndarray, *, seed: int) -> np.ndarray:
    """The candidate rows in a seeded random order.

    Examples
    --------
    >>> random_ranking(np.arange(5), seed=1).tolist() == random_ranking(np.arange(5), seed=1).tolist()
    True
    >>> sorted(random_ranking(np.arange(5), seed=1).tolist())
    [0, 1, 2, 3, 4]
    """
    rng = np.random.default_rng(seed)
    return rng.permutation(np.asarray(candidates))


def same_file_ranking(seed_row: int, candidates: np.ndarray, file_of: np.ndarray, line_of: np.ndarray) -> np.ndarray:
    """Candidates in the seed's file, nearest definition line first (ties by row).

    Examples
    --------
    >>> files = np.array([0, 0, 0, 1]); lines = np.array([1, 50, 10, 5])
    >>> same_file_ranking(0, np.array([1, 2, 3]), files, lines).tolist()
    [2, 1]
    """
    cand = np.asarray(candidates)
    f = file_of[seed_row]
    if f < 0:
        return cand[:0]
    same = cand[file_of[cand] == f]
    dist = np.abs(line_of[same].astype(np.int64) - int(line_of[seed_row]))
    return same[np.lexsort((same, dist))]


class BM25Names:
    """BM25 over the name tokens of every row (k1=1.2, b=0.75), built once.

    Examples
    --------
    >>> bm = BM25Names(["add_edge", "add_node", "remove_edge", "pagerank"])
    >>> bm.rank(0, np.array([1, 2, 3])).tolist()
    [1, 2]
    """

    def __init__(self, names: list[str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.tokens = [split_identifier(n or "") for n in names]
        vocab: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for i, toks in enumerate(self.tokens):
            counts: dict[int, int] = {}
            for t in toks:
                c = vocab.setdefault(t, len(vocab))
                counts[c] = counts.get(c, 0) + 1
            for c, v in counts.items():
                rows.append(i)
                cols.append(c)
                vals.append(v)
        n = len(names)
        tf = sp.csr_matrix((np.array(vals, dtype=np.float64), (rows, cols)), shape=(n, max(len(vocab), 1)))
        dl = np.array([len(t) for t in self.tokens], dtype=np.float64)
        avgdl = dl.mean() if n and dl.mean() > 0 else 1.0
        df = np.bincount(np.array(cols, dtype=np.int64), minlength=tf.shape[1]).astype(np.float64)
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        tf = tf.tocoo()
        norm = k1 * (1.0 - b + b * dl[tf.row] / avgdl)
        w = idf[tf.col] * tf.data * (k1 + 1.0) / (tf.data + norm)
        self.weights = sp.csc_matrix((w, (tf.row, tf.col)), shape=tf.shape)
        self.vocab = vocab

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        cols = sorted({self.vocab[t] for t in query_tokens if t in self.vocab})
        if not cols:
            return np.zeros(self.weights.shape[0])
        return np.asarray(self.weights[:, cols].sum(axis=1)).ravel()

    def rank(self, seed_row: int, candidates: np.ndarray) -> np.ndarray:
        """Candidates with a positive score for the seed's name tokens, best first (ties by row)."""
        s = self.scores(self.tokens[seed_row])
        cand = np.asarray(candidates)
        cand = cand[s[cand] > 0]
        return cand[np.lexsort((cand, -s[cand]))]


class FilePageRank:
    """aider-style repo map: PageRank over files, rank flowing into definitions along references.

    ``refs`` is a symbol x symbol reference matrix (calls + type mentions); ``file_of`` gives each
    row's file (-1 for none: externals, which are left out).
    """

    def __init__(self, refs: sp.csr_matrix, file_of: np.ndarray, *, alpha: float = 0.85) -> None:
        import networkx as nx

        self.alpha = alpha
        self.file_of = np.asarray(file_of)
        n = refs.shape[0]
        files, fidx = np.unique(self.file_of[self.file_of >= 0], return_inverse=True)
        self.files = files
        self.col_of_row = np.full(n, -1, dtype=np.int64)
        self.col_of_row[self.file_of >= 0] = fidx
        keep = self.file_of >= 0
        coo = refs.tocoo()
        ok = keep[coo.row] & keep[coo.col]
        src_f = self.col_of_row[coo.row[ok]]
        nf = len(files)
        # file -> definition references, row-normalised: the share of a file's rank each definition gets
        self.file_def = sp.csr_matrix((np.ones(ok.sum()), (src_f, coo.col[ok])), shape=(nf, n))
        out = np.asarray(self.file_def.sum(axis=1)).ravel()
        out[out == 0] = 1.0
        self.file_def = sp.diags(1.0 / out) @ self.file_def
        dst_f = self.col_of_row[coo.col[ok]]
        ff = sp.coo_matrix((np.ones(ok.sum()), (src_f, dst_f)), shape=(nf, nf)).tocsr()
        ff.sum_duplicates()
        fc = ff.tocoo()
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(range(nf))
        self.graph.add_weighted_edges_from(
            (int(a), int(b), float(w)) for a, b, w in zip(fc.row, fc.col, fc.data, strict=True) if a != b
        )
        self._cache: dict[int, np.ndarray] = {}

    def file_rank(self, fcol: int) -> np.ndarray:
        got = self._cache.get(fcol)
        if got is None:
            import networkx as nx

            pr = nx.pagerank(self.graph, alpha=self.alpha, personalization={fcol: 1.0}, weight="weight")
            got = np.array([pr[i] for i in range(len(self.files))])
            self._cache[fcol] = got
        return got

    def rank(self, seed_row: int, candidates: np.ndarray) -> np.ndarray:
        fcol = int(self.col_of_row[seed_row])
        cand = np.asarray(candidates)
        if fcol < 0:
            return cand[:0]
        pr = self.file_rank(fcol)
        defs = np.asarray(self.file_def.T @ pr).ravel()
        own = np.where(self.col_of_row >= 0, pr[np.maximum(self.col_of_row, 0)], 0.0)
        score = defs + 1e-9 * own
        cand = cand[score[cand] > 0]
        return cand[np.lexsort((cand, -score[cand]))]



class PlainBM25:
    """Okapi BM25 (k1 = 1.5, b = 0.75, idf ``log(1 + (N - n + 0.5) / (n + 0.5))``) over whole documents,
    words being lowercased runs of letters, digits and underscores: no identifier splitting, no stop
    words, no field weights. The localization benchmark's plain baseline (:mod:`lore.bench.localize`),
    the query being the whole issue text.

    Examples
    --------
    >>> bm = PlainBM25(["def retry(self): pass", "class Session: retry = 3", "unrelated text"])
    >>> bm.top("why does retry fail in Session", 2)
    [1, 0]
    """

    WORD = re.compile(r"\w+")

    def __init__(self, docs, *, k1: float = 1.5, b: float = 0.75) -> None:
        from collections import Counter

        self.k1, self.b = k1, b
        self.postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for d, text in enumerate(docs):
            counts = Counter(self.WORD.findall(text.lower()))
            lengths.append(sum(counts.values()))
            for w, c in counts.items():
                self.postings.setdefault(w, []).append((d, c))
        self.lengths = np.asarray(lengths, dtype=np.float64)
        self.n = len(lengths)
        self.avg = float(self.lengths.mean()) if self.n else 0.0

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(self.n)
        if not self.n:
            return out
        norm = self.k1 * (1 - self.b + self.b * self.lengths / max(self.avg, 1e-9))
        for w in set(self.WORD.findall(query.lower())):
            post = self.postings.get(w)
            if not post:
                continue
            idf = np.log(1 + (self.n - len(post) + 0.5) / (len(post) + 0.5))
            ids = np.fromiter((d for d, _ in post), dtype=np.int64, count=len(post))
            tf = np.fromiter((c for _, c in post), dtype=np.float64, count=len(post))
            out[ids] += idf * tf * (self.k1 + 1) / (tf + norm[ids])
        return out

    def top(self, query: str, k: int) -> list[int]:
        """The ``k`` best documents with a positive score, best first, ties by position."""
        s = self.scores(query)
        order = np.lexsort((np.arange(self.n), -s))
        return [int(i) for i in order[:k] if s[i] > 0]
