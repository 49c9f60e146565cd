"""The ``changes`` fit's penalty for new-pair loss (issue 36): history weights that cost the pairs history
never saw are not chosen, though the plain fit on every pair would choose them."""

from __future__ import annotations

import numpy as np

from lore.bench import fit as ft
from lore.graphs import hybrid as hy

STRUCTURE = hy.SIGNALS.index("structure")
HISTORY = hy.SIGNALS.index("history")


def _query(relevant: tuple[float, float], rivals: tuple[float, float]):
    """Ten equal rivals (rows 0-9, which win ties) and one relevant candidate (row 10); (structure, history)."""
    x = np.zeros((11, len(hy.SIGNALS)))
    x[:10, [STRUCTURE, HISTORY]] = rivals
    x[10, [STRUCTURE, HISTORY]] = relevant
    return np.arange(11), x, np.arange(11) == 10, 1


def _blocks():
    # A: a known partner just under its rivals, lifted by any history weight >= 0.25
    a = _query((0.5, 1.0), (0.6, 0.0))
    # C (twice): a weakly known partner, lifted only by a history weight >= 1
    c = _query((0.5, 0.15), (0.6, 0.0))
    # B: a new pair, passed by known partners of the seed once the history weight exceeds 0.4
    b = _query((0.5, 0.0), (0.3, 0.5))
    every = ft.ltr.Blocks.stack([a, c, c, b])
    new = ft.ltr.Blocks.stack([b])
    return every, new


def test_penalty_keeps_history_from_costing_new_pairs():
    every, new = _blocks()
    hold = ("history_reach", "history_file")
    plain = ft.fit_weights([every], hold_zero=hold)
    fair = ft.fit_weights([every], hold_zero=hold, new_pairs=[new], new_pair_penalty=4.0)
    w_plain, w_fair = hy.check_weights(plain.weights), hy.check_weights(fair.weights)
    # the plain fit buys C's two queries with B's: the new pair drops out of the top 10
    assert plain.weights.get("history", 0.0) >= 1.0
    assert ft.new_pair_shortfall(new, w_plain, tuple(hy.SIGNALS.index(s) for s in hy.HISTORY_SIGNALS)) == 1.0
    # with the penalty the history weight lifts A and leaves B where the history-off list has it
    assert fair.weights.get("history") == 0.25
    assert ft.new_pair_shortfall(new, w_fair, tuple(hy.SIGNALS.index(s) for s in hy.HISTORY_SIGNALS)) == 0.0
    assert ft.block_metrics(new, fair.weights)["recall@10"].tolist() == [1.0]


def test_no_penalty_without_new_pairs_or_factor():
    every, new = _blocks()
    plain = ft.fit_weights([every])
    assert ft.fit_weights([every], new_pairs=[new], new_pair_penalty=0.0).weights == plain.weights
    assert ft.fit_weights([every], new_pairs=[], new_pair_penalty=4.0).weights == plain.weights


def test_changes_is_the_only_algorithm_penalised():
    # hybrid holds every history signal at 0: a penalty would have no weight to move
    assert ft.NEW_PAIR_PENALTY["hybrid"] == 0.0 and ft.NEW_PAIR_PENALTY["changes"] > 0.0
    assert set(ft.NEW_PAIR_PENALTY) == set(ft.HOLD_ZERO)


def test_the_written_defaults_say_the_changes_fit_was_penalised():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("loo_script", Path(__file__).resolve().parents[2] / "benchmarks"
                                                  / "structural" / "loo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    report = {"trained_on": {"hybrid": [], "changes": ["flask", "httpx", "requests"]},
              "hold_zero": {"hybrid": ["history"], "changes": ["history_reach", "history_file"]},
              "new_pair_penalty": {"hybrid": 0.0, "changes": 4.0},
              "all_corpora_fit": {"changes": {"weights": {"structure": 1.0}, "objective": 0.6, "queries": 873}}}
    ns: dict = {}
    exec(compile(mod.defaults_module(report, command="loo.py"), "_hybrid_weights.py", "exec"), ns)
    assert "minus 4 x" in ns["CHANGES_PROVENANCE"]["new_pair_penalty"]
    assert "new_pair_penalty" not in ns["PROVENANCE"]
