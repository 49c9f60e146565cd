"""The fault suite: every test here is marked ``faults`` and reports what it tried, what survived and what was lost.

``pytest -m faults`` runs it alone (it is also part of the plain ``python -m pytest``). Each test calls
``tally(category, tried=..., survived=..., lost=...)``: "survived" means the index stayed intact and
every answer was right or a one-line error; "lost" counts wrong answers, tracebacks, hangs or a
damaged index. The terminal summary prints the table that README shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

_TALLY: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(HERE):
            item.add_marker(pytest.mark.faults)


@pytest.fixture
def tally():
    """``tally(category, tried=n, survived=k, lost=m)``: add a row to the fault table."""

    def add(category: str, *, tried: int, survived: int, lost: int) -> None:
        row = _TALLY[category]
        row[0] += tried
        row[1] += survived
        row[2] += lost

    return add


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _TALLY:
        return
    tr = terminalreporter
    width = max(len(k) for k in _TALLY) + 2
    tr.write_sep("=", "fault suite: tried / survived / lost")
    tr.write_line(f"{'fault':<{width}}{'tried':>7}{'survived':>10}{'lost':>6}")
    for name in sorted(_TALLY):
        tried, survived, lost = _TALLY[name]
        tr.write_line(f"{name:<{width}}{tried:>7}{survived:>10}{lost:>6}")
    total = [sum(r[i] for r in _TALLY.values()) for i in range(3)]
    tr.write_line(f"{'total':<{width}}{total[0]:>7}{total[1]:>10}{total[2]:>6}")


def run_lore(*args: str, cwd: Path | None = None, timeout: float = 60, env: dict | None = None
             ) -> subprocess.CompletedProcess:
    """``lore ARGS`` in a subprocess (``python -m lore``), text output, never raising on a non-zero exit."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "lore", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=full_env)


def one_line_error(proc: subprocess.CompletedProcess) -> bool:
    """Exit code 2 and exactly one line on stderr that starts with ``lore: error:``; no traceback."""
    lines = proc.stderr.strip().splitlines()
    return proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("lore: error:")


def tiny_index(tmp_path_factory, name: str) -> Path:
    """A two-function Python repository indexed once (``f`` calls ``g``): the index a module's cases share."""
    from lore.api import index_repo

    root = tmp_path_factory.mktemp(name) / "repo"
    root.mkdir()
    (root / "m.py").write_text("def f(x):\n    return g(x)\n\n\ndef g(x):\n    return x\n")
    return Path(index_repo(root, workers=1).db)
