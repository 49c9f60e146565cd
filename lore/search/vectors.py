"""Code embeddings: build and refresh ``code_vectors``, and cosine search over a cached matrix.

Each searchable symbol is embedded from its kind, split name, qualified name, signature, docstring
and the start of its body; each file from its path, exported names and imports. A vector is keyed
by (owner, model) and stores the hash of the text it was made from, so a refresh embeds only the
symbols whose text changed (or that are new) and deletes the vectors of symbols that are gone.
Vectors of two models are never compared: search picks one model. The default provider is the
no-model hashing embedder (MiniLM costs about 17 ms of CPU per symbol, some 60 symbols per CPU
second, so a whole code base is an explicit choice, ``embedder="minilm"``;
``benchmarks/perf/bench_embed.py``). Texts are embedded shortest first, in slices of ``_BATCH``
(the progress callback runs after each), each text cut to ``MAX_TOKENS`` word pieces by a model
that has them: 256, MiniLM's own limit (128 cost networkx's code search 0.07 R@1 and 0.05 MRR).

Search is exact cosine over an in-memory float32 matrix (rows L2-normalised, held transposed so
a sparse query reads only its nonzero dimensions: :class:`CodeVectors`), one matrix per
(database, owner kind, model), reloaded when the index ``generation`` or the vector stamp changes.

Examples
--------
>>> symbol_text(("function", "getUserById", "app.users.getUserById", "(uid: int)", "Fetch a user.", "a.py", ""))
'function get user by id app users get user by id (uid: int) Fetch a user. a.py'
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import MissingExtraError
from ..store import search as store
from ..store.db import database_key, generation, write_transaction
from ..text.embed import embed_texts, get_embedder, minilm_available
from ..text.tokens import split_identifier
from ..text.vectors import top_k

OWNER_KINDS = ("symbol", "file")
MAX_DOC_CHARS = 1000
MAX_BODY_CHARS = 600
MAX_TOKENS = 256  # word pieces a model reads of each text (MiniLM: its max_seq_length)
_BATCH = 128  # texts per model call: the progress bar moves once per call


def _words(text: str) -> str:
    return " ".join(p for w in text.replace(".", " ").replace("/", " ").split() for p in split_identifier(w))


def symbol_text(row: tuple) -> str:
    """The text embedded for a symbol: (kind, name, qualified_name, signature, docstring, path, body)."""
    kind, name, qname, signature, docstring, path, body = row
    parts = [
        kind,
        _words(name),
        _words(qname),
        signature,
        docstring[:MAX_DOC_CHARS],
        path,
        body[:MAX_BODY_CHARS],
    ]
    return " ".join(p for p in parts if p)


def file_text(row: tuple) -> str:
    """The text embedded for a file: (path, exports, imports)."""
    path, exports, imports = row
    return " ".join(p for p in (path, _words(path), exports, imports) if p)


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=12).hexdigest()


def _texts(conn: sqlite3.Connection, owner_kind: str, changed_since: int | None = None) -> dict[int, str]:
    if owner_kind == "symbol":
        return {
            r[0]: symbol_text((r[3], r[1], r[2], r[4], r[5], r[6], r[7]))
            for r in store.symbol_texts(conn, changed_since=changed_since)
        }
    return {r[0]: file_text(r[1:]) for r in store.file_texts(conn, changed_since=changed_since)}


def refresh_code_vectors(
    conn: sqlite3.Connection,
    *,
    embedder: str | None = None,
    path: str = "",
    full: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Embed the symbols and files whose text changed since their vector was made; drop stale vectors.

    The index generation the vectors were brought up to date with is stored per model, so a
    refresh after ``lore index`` reads only the files written since (the indexer stamps each file
    it writes with its generation) and looks up only their vectors: 0.1 s on Django after a
    one-file change. ``full`` (or a first run) reads every symbol and vector, compares content
    hashes and deletes the vectors of symbols that are gone (about 1 s on Django). Either way only
    symbols whose text changed are embedded again.

    Parameters
    ----------
    conn : sqlite3.Connection
        A writable index connection.
    embedder : {"hashing", "minilm"}, optional
        The provider (default: hashing, the no-model embedder).
    path : str
        The database path, for the busy-index message.
    full : bool
        Compare every symbol, not only those of files written since the last refresh.
    progress : callable, optional
        ``(phase, done, total)`` after every batch (phases ``embed symbols``, ``embed files``).

    Returns
    -------
    dict
        ``model``, and per owner kind the counts ``checked`` (texts compared), ``embedded``,
        ``unchanged`` and ``removed``; ``seconds``.
    """
    emb = get_embedder(embedder or "hashing")
    t0 = time.perf_counter()
    gen = generation(conn)
    since = None if full else store.vectors_generation(conn, emb.model_id)
    out: dict[str, Any] = {"model": emb.model_id}
    writes: list[tuple[str, list[tuple[int, str, np.ndarray]], list[int]]] = []
    for owner_kind in OWNER_KINDS:
        texts = _texts(conn, owner_kind, since)
        hashes = {i: _hash(t) for i, t in texts.items()}
        if since is None:
            old = store.vector_hashes(conn, owner_kind, emb.model_id)
            gone = [i for i in old if i not in texts]
        else:
            # only the rewritten files: no scan of every stored vector. Vectors of symbols that are
            # gone wait for the next full refresh; search drops ids that name nothing
            old = store.vector_hashes(conn, owner_kind, emb.model_id, ids=list(texts))
            gone = []
        # by length (ties by id): each slice holds texts of similar length, so a model pads little
        todo = sorted((i for i, h in hashes.items() if old.get(i) != h), key=lambda i: (len(texts[i]), i))
        vectors: list[tuple[int, str, np.ndarray]] = []
        if progress is not None and todo:
            progress(f"embed {owner_kind}s", 0, len(todo))
        for k in range(0, len(todo), _BATCH):
            ids = todo[k : k + _BATCH]
            matrix = embed_texts(emb, [texts[i] for i in ids], max_tokens=MAX_TOKENS)
            vectors.extend(zip(ids, (hashes[i] for i in ids), matrix, strict=True))
            if progress is not None:
                progress(f"embed {owner_kind}s", len(vectors), len(todo))
        writes.append((owner_kind, vectors, gone))
        out[owner_kind] = {
            "checked": len(texts),
            "embedded": len(todo),
            "unchanged": len(texts) - len(todo),
            "removed": len(gone),
        }
    if any(v or g for _k, v, g in writes) or since != gen:
        with write_transaction(conn, path):
            for owner_kind, vectors, gone in writes:
                if vectors or gone:
                    store.put_vectors(conn, owner_kind, emb.model_id, vectors)
                    store.delete_vectors(conn, owner_kind, emb.model_id, gone)
            store.set_vectors_generation(conn, emb.model_id, gen)
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def changed_since_vectors(conn: sqlite3.Connection, owner_kind: str, model: str) -> set[int]:
    """Symbols (or files) whose file the indexer rewrote after the vectors of ``model`` were last refreshed.

    Their stored vectors (if any) describe older text, so search leaves them out of the vector
    ranking until the next refresh: vectors are never served stale. Empty for vectors made before
    generations were recorded.
    """
    since = store.vectors_generation(conn, model)
    if since is None or since >= generation(conn):
        return set()
    return store.owner_ids(conn, owner_kind, changed_since=since)


def pick_model(conn: sqlite3.Connection, owner_kind: str, embedder: str | None = None) -> str | None:
    """The model to search ``owner_kind`` vectors with: ``embedder``'s, else the most used loadable one.

    ``None`` when no vectors are stored (hybrid then falls back to keyword).
    """
    models = _stored_models(conn, owner_kind)
    if embedder is not None:
        model = get_embedder(embedder).model_id
        return model if model in models else None
    for m in models:
        if m.startswith("hashing") or minilm_available():
            return m
    if models:
        raise MissingExtraError(f"searching code vectors made by {models[0]}", "embed")
    return None


def _transpose(matrix: np.ndarray, block: int = 128) -> np.ndarray:
    """A C-contiguous transpose, block by block: 4-6x faster than ``np.ascontiguousarray(m.T)``
    on a 43k x 384 matrix (40 vs 260 ms), which thrashes the cache."""
    out = np.empty((matrix.shape[1], matrix.shape[0]), dtype=matrix.dtype)
    for i in range(0, matrix.shape[0], block):
        out[:, i : i + block] = matrix[i : i + block].T
    return out


class CodeVectors:
    """The stored vectors of one model and owner kind, held transposed: one row per dimension.

    Cosine against a query is a weighted sum of the rows of the query's nonzero dimensions, so a
    sparse query (the hashing embedder's use 80-100 of 384 dimensions) reads only those rows:
    1.5 ms of CPU instead of 6.6 for a full matrix-vector product on Django's 43k symbols. A dense
    query (MiniLM) takes the full product.
    """

    def __init__(self, ids: np.ndarray, matrix: np.ndarray, *, model: str) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.model = model
        self.by_dim = _transpose(np.asarray(matrix, dtype=np.float32))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def dim(self) -> int:
        return self.by_dim.shape[0] if len(self.ids) else 0

    def mask_for(self, owner_ids: np.ndarray) -> np.ndarray:
        """Boolean row mask: True where the owner id is in ``owner_ids``."""
        return np.isin(self.ids, owner_ids)

    def cosines(self, query: np.ndarray) -> np.ndarray:
        """Dot product of every stored (L2-normalised) vector with ``query``."""
        query = np.asarray(query, dtype=np.float32)
        nz = np.flatnonzero(query)
        if 2 * len(nz) > len(query):
            # einsum, not BLAS: a matrix-vector product through multi-threaded OpenBLAS cost 10-20x
            # more wall time on a busy 2-core machine (threads spin waiting for each other)
            return np.einsum("ij,i->j", self.by_dim, query)
        # one scaled row per nonzero dimension, in place: no gathered copy of the rows
        acc = np.zeros(self.by_dim.shape[1], dtype=np.float32)
        row = np.empty_like(acc)
        for d in nz.tolist():
            np.multiply(self.by_dim[d], query[d], out=row)
            acc += row
        return acc


_CACHE: dict[tuple[str, str, str], tuple[tuple[int, int], CodeVectors]] = {}
_MODELS: dict[tuple[str, str], tuple[tuple[int, int], list[str]]] = {}
_LOCK = threading.Lock()


def _stored_models(conn: sqlite3.Connection, owner_kind: str) -> list[str]:
    """Models with stored vectors, most used first (cached per index generation and vector stamp)."""
    key = (database_key(conn), owner_kind)
    stamp = (generation(conn), store.vectors_stamp(conn))
    hit = _MODELS.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    models = list(store.vector_model_generations(conn))  # meta rows: no scan of the vectors
    if len(models) > 1:  # rare: order them by use, which takes a scan
        models = [m for m, _n in store.vector_models(conn, owner_kind)]
    with _LOCK:
        _MODELS[key] = (stamp, models)
    return models


def vector_index(conn: sqlite3.Connection, owner_kind: str, model: str) -> CodeVectors:
    """The cached matrix of ``model`` for ``owner_kind``; reloaded when the index or its vectors change."""
    key = (database_key(conn), owner_kind, model)
    stamp = (generation(conn), store.vectors_stamp(conn))
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    ids, matrix = store.load_vectors(conn, owner_kind, model)
    index = CodeVectors(ids, matrix, model=model)
    with _LOCK:
        _CACHE[key] = (stamp, index)
    return index


def vector_search(
    conn: sqlite3.Connection,
    owner_kind: str,
    model: str,
    query: str,
    *,
    k: int,
    allowed: np.ndarray | None = None,
    min_score: float | None = None,
    exclude: set[int] | frozenset[int] = frozenset(),
) -> list[tuple[int, float]]:
    """Best ``k`` (owner id, cosine) for ``query``, restricted to ``allowed`` ids and without
    ``exclude`` (stale vectors) when given."""
    index = vector_index(conn, owner_kind, model)
    if len(index) == 0:
        return []
    qvec = np.asarray(get_embedder(model).embed([query])[0], dtype=np.float32)
    if qvec.shape[0] != index.dim:
        return []
    scores = index.cosines(qvec)
    mask = None if allowed is None else index.mask_for(allowed)
    ids, cos = top_k(index.ids, scores, k=k + len(exclude), mask=mask, min_score=min_score)
    hits = [(i, c) for i, c in zip(ids.tolist(), cos.tolist(), strict=True) if i not in exclude]
    # a symbol deleted since the last full refresh keeps its vector until then: never a hit
    live = store.live_owner_ids(conn, owner_kind, [i for i, _c in hits])
    return [(i, c) for i, c in hits if i in live][:k]


def clear_cache() -> None:
    """Forget every cached matrix (tests, or after replacing a database file)."""
    with _LOCK:
        _CACHE.clear()
        _MODELS.clear()
