"""The bottom layer for words and vectors, shared by ``index``, ``search`` and ``docs``.

:mod:`lore.text.tokens`
    identifiers split at camelCase / snake_case / digit boundaries, stop words, FTS text.
:mod:`lore.text.embed`
    embedding providers: the deterministic hashing embedder and MiniLM (the ``embed`` extra).
:mod:`lore.text.vectors`
    exact top-k over cosine scores (ties by id) and the matrix-vector product behind it.
:mod:`lore.text.fusion`
    Reciprocal Rank Fusion and score normalisation.

It imports only :mod:`lore.errors`, numpy and the standard library, never SQLite or the store, so
everything above it can use it. The submodules are imported by name (``from lore.text.tokens
import tokenize``): importing this package loads none of them, so the tokenizer never pulls in numpy.
"""
