"""The CI gate: a floor per metric in a JSON file; a run fails when any metric falls below its floor.

::

    {"structural": {"algorithms.pagerank.mrr": 0.30, ...}, "callgraph": {"overall.all.recall": 0.55, ...}}

Floors sit a little under the value measured when they were set (:func:`floors_from`); raise them
when a change improves the numbers (``benchmarks/structural/run.py --update-thresholds``).
"""

from __future__ import annotations

import math
from pathlib import Path

from .._files import read_json
from ..errors import InvalidArgumentError

MARGIN = 0.02


def default_thresholds_path() -> Path | None:
    """``benchmarks/structural/thresholds.json`` of the current directory or of lore's source checkout."""
    here = Path.cwd() / "benchmarks" / "structural" / "thresholds.json"
    if here.exists():
        return here
    src = Path(__file__).resolve().parents[2] / "benchmarks" / "structural" / "thresholds.json"
    return src if src.exists() else None


def load_thresholds(path: str | Path) -> dict[str, dict[str, float]]:
    p = Path(path)
    data = read_json(p, "thresholds file")
    if not isinstance(data, dict):
        raise InvalidArgumentError(f"{p} must map suite names to {{metric: floor}} objects")
    return data


def check(measured: dict[str, float], floors: dict[str, float]) -> list[dict]:
    """Every metric below its floor (a metric that is missing from the run also fails).

    Examples
    --------
    >>> check({"a": 0.5, "b": 0.2}, {"a": 0.4, "b": 0.3, "c": 0.1})
    [{'metric': 'b', 'floor': 0.3, 'measured': 0.2}, {'metric': 'c', 'floor': 0.1, 'measured': None}]
    """
    failures = []
    for metric, floor in sorted(floors.items()):
        if metric.startswith("_"):
            continue  # comments
        got = measured.get(metric)
        if got is None or got < floor - 1e-9:
            failures.append({"metric": metric, "floor": floor, "measured": got})
    return failures


def floors_from(measured: dict[str, float], *, margin: float = MARGIN) -> dict[str, float]:
    """Floors a little under today's values (``margin`` below, rounded down to 3 decimals).

    Examples
    --------
    >>> floors_from({"x": 0.5, "y": 0.01})
    {'x': 0.48, 'y': 0.0}
    """
    return {k: max(0.0, math.floor((v - margin) * 1000 + 1e-9) / 1000) for k, v in sorted(measured.items())}
