"""A rows x words matrix built a block of rows at a time, in numpy arrays rather than Python lists.

The ranker's word matrices (:mod:`lore.graphs._features`) used to be built from every row's word list
at once: on the Linux kernel (1.1M symbols) the lists of words and the Python ints of the
(row, column) pairs made the saved-feature build the largest step of ``lore index`` (4.46 GB). Here
each block's words become int32 column ids as soon as the block is tokenized, so what grows with
the repository is 12 bytes per (row, word) pair plus the vocabulary.

Columns are numbered in the order words are first met while building, then renumbered at the end to
the words in sorted order; each row's columns are then sorted and a word repeated in a row summed
(``sum_duplicates``). The result equals the matrix built from every list at once
(``csr_matrix((ones, (rows, cols)))``): same vocabulary, same canonical arrays and dtypes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import scipy.sparse as sp


class WordMatrix:
    """Accumulates rows of a rows x words matrix; :meth:`finish` gives the CSR matrix and its vocabulary.

    ``presence``: a row counts each of its words once (else every occurrence: term counts). ``old``
    and ``old_vocab`` are the matrix and vocabulary of an earlier build whose rows :meth:`add_kept`
    copies.

    Examples
    --------
    >>> m = WordMatrix(presence=False)
    >>> m.add([2, 0], [["b", "a", "b"], ["c"]])
    >>> csr, vocab = m.finish(3)
    >>> vocab, csr.toarray().tolist()
    (['a', 'b', 'c'], [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 2.0, 0.0]])
    >>> again = WordMatrix(presence=True, old=csr, old_vocab=vocab)
    >>> again.add_kept(np.array([0]), np.array([2]))
    >>> again.add([1], [["d", "d"]])
    >>> csr2, vocab2 = again.finish(2)
    >>> vocab2, csr2.toarray().tolist()
    (['a', 'b', 'd'], [[1.0, 2.0, 0.0], [0.0, 0.0, 1.0]])
    """

    def __init__(self, *, presence: bool, old: Any = None, old_vocab: Sequence[str] = ()) -> None:
        self.presence = presence
        self.ids: dict[str, int] = {}  # word -> column in the order first met
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # rows, counts, cols, data
        self.old = old.to_scipy() if old is not None and hasattr(old, "to_scipy") else old
        self.old_vocab = old_vocab
        # the kept rows' parts hold the old build's columns, renumbered at the end (finish): its vocabulary
        # is sorted, so the words kept rows use stay in order and only the new words are sorted and merged in
        self.old_used = np.zeros(max(len(old_vocab), 1), dtype=bool)  # old columns some kept row uses
        self.kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # rows, counts, old cols, data

    def add(self, rows: Sequence[int], lists: Sequence[Sequence[str]]) -> None:
        """Rows ``rows`` (each once over the whole build) with the words ``lists``."""
        ids = self.ids
        cols: list[int] = []
        counts: list[int] = []
        for ws in lists:
            got = set(ws) if self.presence else ws
            counts.append(len(got))
            cols.extend([ids.setdefault(w, len(ids)) for w in got])
        c = np.array(cols, dtype=np.int32)
        self.parts.append((np.asarray(rows, dtype=np.int64), np.array(counts, dtype=np.int64), c,
                           np.ones(c.size, dtype=np.float64)))

    def add_kept(self, rows: np.ndarray, old_rows: np.ndarray) -> None:
        """Rows ``rows`` copied from the rows ``old_rows`` of the earlier build's matrix."""
        if not rows.size:
            return
        sub = self.old[old_rows].tocsr()
        self.old_used[sub.indices] = True
        self.kept.append((np.asarray(rows, dtype=np.int64), np.diff(sub.indptr).astype(np.int64),
                          np.asarray(sub.indices, dtype=np.int32), np.asarray(sub.data, dtype=np.float64)))

    def finish(self, n: int) -> tuple[sp.csr_matrix, list[str]]:
        """(``n`` x words CSR matrix, the words in column order); the parts are released as they are copied."""
        import scipy.sparse as sp

        vocab, rank_new, rank_old = self._vocabulary()
        counts = np.zeros(n, dtype=np.int64)
        for rows, cnt, _c, _d in (*self.parts, *self.kept):
            counts[rows] = cnt
        total = int(counts.sum())
        idx = np.int32 if max(total, n) < np.iinfo(np.int32).max else np.int64
        indptr = np.zeros(n + 1, dtype=idx)
        np.cumsum(counts, out=indptr[1:])
        del counts
        indices = np.empty(total, dtype=np.int32)
        data = np.empty(total, dtype=np.float64)
        for parts, rank in ((self.parts, rank_new), (self.kept, rank_old)):
            while parts:
                rows, cnt, cols, vals = parts.pop()
                if cols.size:
                    # where each part's pairs go: its rows' starts, then consecutive within a row
                    pos = np.arange(cols.size, dtype=np.int64)
                    pos += np.repeat(indptr[rows].astype(np.int64) - (np.cumsum(cnt) - cnt), cnt)
                    indices[pos] = rank[cols]
                    data[pos] = vals
                del rows, cnt, cols, vals
        m = sp.csr_matrix((data, indices, indptr), shape=(n, max(len(vocab), 1)))
        m.sum_duplicates()  # each row's words sorted, a word repeated in a row added up
        return m, vocab

    def _vocabulary(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(the words in sorted order, the final column of each column of :meth:`add`, of each old column).

        The old vocabulary is sorted, so the old words the kept rows use are in order already; the words of
        the added rows are sorted alone and merged in by binary search (one the kept rows use too takes its
        column): a refresh that keeps all rows but a few sorts a few words, not the whole vocabulary."""
        words = list(self.ids)
        self.ids = {}
        old_cols = np.flatnonzero(self.old_used)
        self.old_used = np.zeros(1, dtype=bool)
        ow = [self.old_vocab[c] for c in old_cols.tolist()]
        order = sorted(range(len(words)), key=words.__getitem__)
        # per added word (sorted): how many old words sort before it, and whether it is one of them
        at = [bisect_left(ow, words[i]) for i in order]
        same = [p < len(ow) and ow[p] == words[i] for p, i in zip(at, order, strict=True)]
        new_at = np.array([p for p, s in zip(at, same, strict=True) if not s], dtype=np.int64)
        rank_old = np.zeros(max(len(self.old_vocab), 1), dtype=np.int32)
        old_rank = np.arange(len(ow), dtype=np.int64) + np.searchsorted(new_at, np.arange(len(ow)), side="right")
        rank_old[old_cols] = old_rank
        rank_new = np.empty(max(len(words), 1), dtype=np.int32)
        k = 0
        for i, p, s in zip(order, at, same, strict=True):
            if s:
                rank_new[i] = old_rank[p]
            else:
                rank_new[i] = p + k
                k += 1
        vocab: list[str] = []  # the old words with the new ones inserted where they sort (slices: no pass per word)
        start = 0
        for i, p, s in zip(order, at, same, strict=True):
            if not s:
                vocab.extend(ow[start:p])
                vocab.append(words[i])
                start = p
        vocab.extend(ow[start:])
        return vocab, rank_new, rank_old
