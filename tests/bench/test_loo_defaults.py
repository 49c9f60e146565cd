"""``benchmarks/structural/loo.py --write-defaults``: what a refit of one family writes."""

import importlib.util
from pathlib import Path

from lore.graphs import _hybrid_weights as shipped

LOO = Path(__file__).resolve().parents[2] / "benchmarks" / "structural" / "loo.py"


def _loo():
    spec = importlib.util.spec_from_file_location("loo_script", LOO)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_refit_on_the_cochange_corpora_alone_keeps_the_shipped_hybrid_weights():
    """``--corpora requests,httpx,flask`` has no See-Also corpus: hybrid's all-corpora "fit" is then a fit on
    the co-change corpora (the held-out table's fallback), which must not replace the shipped hybrid weights."""
    changes = {"structure": 1.0, "same_file": 0.5, "history_agrees": 0.5}
    report = {"trained_on": {"hybrid": [], "changes": ["flask", "httpx", "requests"]},
              "hold_zero": {"hybrid": ["history"], "changes": ["history_reach", "history_file"]},
              "all_corpora_fit": {"hybrid": {"weights": {"structure": 1.0, "package_near": 2.0}, "objective": 0.5,
                                             "queries": 873},
                                  "changes": {"weights": changes, "objective": 0.6, "queries": 873}}}
    text = _loo().defaults_module(report, command="python benchmarks/structural/loo.py --corpora requests,httpx,flask")
    ns: dict = {}
    exec(compile(text, "_hybrid_weights.py", "exec"), ns)
    assert ns["DEFAULT_WEIGHTS"] == shipped.DEFAULT_WEIGHTS
    assert ns["PROVENANCE"] == shipped.PROVENANCE
    assert ns["CHANGES_WEIGHTS"] == changes
    prov = ns["CHANGES_PROVENANCE"]
    assert prov["corpora"] == ["flask", "httpx", "requests"] and prov["held_at_zero"] == ["history_reach", "history_file"]
    assert prov["command"] == "python benchmarks/structural/loo.py --corpora requests,httpx,flask"
