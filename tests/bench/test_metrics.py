from __future__ import annotations

import pytest

from lore.bench import gate, metrics


def test_ranking_metrics_perfect_and_empty():
    m = metrics.ranking_metrics(["a", "b", "c"], {"a", "b"})
    assert m == {"recall@5": 1.0, "recall@10": 1.0, "mrr": 1.0, "ndcg@10": 1.0}
    z = metrics.ranking_metrics([], {"a"})
    assert z == {"recall@5": 0.0, "recall@10": 0.0, "mrr": 0.0, "ndcg@10": 0.0}


def test_recall_cut_and_ndcg_order():
    assert metrics.recall_at_k(list("xxxxxa"), {"a"}, 5) == 0.0
    assert metrics.recall_at_k(list("xxxxxa"), {"a"}, 10) == 1.0
    assert metrics.ndcg_at_k(["a", "x"], {"a"}) > metrics.ndcg_at_k(["x", "a"], {"a"})


def test_precision_recall_undefined_is_none():
    tp, found, expected = metrics.precision_recall(set(), set())
    assert metrics.ratio(tp, found) is None and metrics.f1(None, 0.5) is None


def test_gate_check_and_floors():
    floors = gate.floors_from({"m": 0.5})
    assert floors == {"m": 0.48}
    assert gate.check({"m": 0.49}, floors) == []
    assert gate.check({"m": 0.47}, floors) == [{"metric": "m", "floor": 0.48, "measured": 0.47}]
    assert gate.check({}, {"_comment": "x"}) == []


def test_gate_bad_file(tmp_path):
    from lore.errors import InvalidArgumentError

    p = tmp_path / "t.json"
    p.write_text("{nope")
    with pytest.raises(InvalidArgumentError, match="not valid JSON"):
        gate.load_thresholds(p)
