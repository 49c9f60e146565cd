"""Code embeddings: build and refresh ``code_vectors``, and cosine search over a cached matrix.

Each searchable symbol is embedded from its kind, split name, qualified name, signature, docstring
and the start of its body; each file from its path, exported names and imports. A vector is keyed
by (owner, model) and stores the hash of the text it was made from, so a refresh embeds only the
symbols whose text changed (or that are new) and deletes the vectors of symbols that are gone.
Vectors of two models are never compared: search picks one model.

Search is exact cosine over an in-memory float32 matrix (rows L2-normalised), one matrix per
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
from typing import Any

import numpy as np

from ..docs.embed import get_embedder, minilm_available
from ..docs.vectors import VectorIndex, top_k
from ..errors import MissingExtraError
from ..store import search as store
from ..store.db import generation, write_transaction
from .bm25 import index_key
from .tokens import split_identifier

OWNER_KINDS = ("symbol", "file")
MAX_DOC_CHARS = 1000
MAX_BODY_CHARS = 600
_BATCH = 512


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


def _texts(conn: sqlite3.Connection, owner_kind: str) -> dict[int, str]:
    if owner_kind == "symbol":
        return {
            r[0]: symbol_text((r[3], r[1], r[2], r[4], r[5], r[6], r[7])) for r in store.symbol_texts(conn)
        }
    return {r[0]: file_text(r[1:]) for r in store.file_texts(conn)}


def refresh_code_vectors(
    conn: sqlite3.Connection, *, embedder: str | None = None, path: str = ""
) -> dict[str, Any]:
    """Embed the symbols and files whose text changed since their vector was made; drop stale vectors.

    Parameters
    ----------
    conn : sqlite3.Connection
        A writable index connection.
    embedder : {"hashing", "minilm"}, optional
        The provider (default: MiniLM when installed, else hashing).
    path : str
        The database path, for the busy-index message.

    Returns
    -------
    dict
        ``model``, and per owner kind the counts ``embedded``, ``unchanged``, ``removed``; ``seconds``.
    """
    emb = get_embedder(embedder)
    t0 = time.perf_counter()
    out: dict[str, Any] = {"model": emb.model_id}
    for owner_kind in OWNER_KINDS:
        texts = _texts(conn, owner_kind)
        old = store.vector_hashes(conn, owner_kind, emb.model_id)
        hashes = {i: _hash(t) for i, t in texts.items()}
        todo = [i for i, h in hashes.items() if old.get(i) != h]
        gone = [i for i in old if i not in texts]
        vectors: list[tuple[int, str, np.ndarray]] = []
        for k in range(0, len(todo), _BATCH):
            ids = todo[k : k + _BATCH]
            matrix = emb.embed([texts[i] for i in ids])
            vectors.extend(zip(ids, (hashes[i] for i in ids), matrix, strict=True))
        if vectors or gone:
            with write_transaction(conn, path):
                store.put_vectors(conn, owner_kind, emb.model_id, vectors)
                store.delete_vectors(conn, owner_kind, emb.model_id, gone)
        out[owner_kind] = {"embedded": len(todo), "unchanged": len(texts) - len(todo), "removed": len(gone)}
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


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


_CACHE: dict[tuple[str, str, str], tuple[tuple[int, int], VectorIndex]] = {}
_MODELS: dict[tuple[str, str], tuple[tuple[int, int], list[str]]] = {}
_LOCK = threading.Lock()


def _stored_models(conn: sqlite3.Connection, owner_kind: str) -> list[str]:
    """Models with stored vectors, most used first (cached per index generation and vector stamp)."""
    key = (index_key(conn), owner_kind)
    stamp = (generation(conn), store.vectors_stamp(conn))
    hit = _MODELS.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    models = [m for m, _n in store.vector_models(conn, owner_kind)]
    with _LOCK:
        _MODELS[key] = (stamp, models)
    return models


def vector_index(conn: sqlite3.Connection, owner_kind: str, model: str) -> VectorIndex:
    """The cached matrix of ``model`` for ``owner_kind``; reloaded when the index or its vectors change."""
    key = (index_key(conn), owner_kind, model)
    stamp = (generation(conn), store.vectors_stamp(conn))
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    ids, matrix = store.load_vectors(conn, owner_kind, model)
    index = VectorIndex(ids, matrix, model=model)
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
) -> list[tuple[int, float]]:
    """Best ``k`` (owner id, cosine) for ``query``, restricted to ``allowed`` ids when given."""
    index = vector_index(conn, owner_kind, model)
    if len(index) == 0:
        return []
    qvec = np.asarray(get_embedder(model).embed([query])[0], dtype=np.float32)
    if qvec.shape[0] != index.dim:
        return []
    # einsum, not `matrix @ q`: a matrix-vector product through multi-threaded OpenBLAS cost 10-20x
    # more wall time on a busy 2-core machine (threads spin waiting for each other)
    scores = np.einsum("ij,j->i", index.matrix, qvec)
    mask = None if allowed is None else index.mask_for(allowed)
    ids, cos = top_k(index.ids, scores, k=k, mask=mask, min_score=min_score)
    return list(zip(ids.tolist(), cos.tolist(), strict=True))


def clear_cache() -> None:
    """Forget every cached matrix (tests, or after replacing a database file)."""
    with _LOCK:
        _CACHE.clear()
        _MODELS.clear()
