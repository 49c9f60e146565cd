"""Reciprocal Rank Fusion and score normalisation (:mod:`lore.text.fusion`)."""

from __future__ import annotations

import pytest

from lore.errors import InvalidArgumentError
from lore.text.fusion import normalise, ranked, rrf, rrf_contributions


def test_rrf_math():
    fused = rrf([["a", "b", "c"], ["c", "a"]], k=60)
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert [key for key, _ in ranked(fused)] == ["a", "c", "b"]
    assert rrf([["x", "x", "y"]], k=1) == {"x": 0.5, "y": 1 / 4}  # a repeat counts once, at its first rank
    weighted = rrf([["a"], ["b"]], k=1, weights=[2.0, 1.0])
    assert weighted == {"a": 1.0, "b": 0.5}
    assert normalise(fused)["a"] == 1.0 and max(normalise(fused).values()) == 1.0
    assert normalise({}) == {}
    assert rrf_contributions({"kw": ["a"], "vec": ["b", "a"]}, k=60)["a"] == {
        "kw": (1, 1 / 61),
        "vec": (2, 1 / 62),
    }


def test_rrf_bad_arguments():
    with pytest.raises(InvalidArgumentError):
        rrf([["a"]], k=0)
    with pytest.raises(InvalidArgumentError):
        rrf([["a"]], weights=[1.0, 2.0])
    with pytest.raises(InvalidArgumentError):
        rrf([["a"]], weights=[-1.0])
