"""A pytest plugin for CI: write the node id of every skipped test to $LORE_CI_SKIPS, one a line.

The README's test command runs first with only the README's install (`.[dev]`); tests that need an
extra (`embed`, `ray`) or a tool (Chromium) skip there. CI then installs the extras and reruns exactly
those node ids, so every test runs once with what it needs and the README's run proves the rest skip
cleanly. Expected failures (xfail) are not skips and are not rerun.
"""

from __future__ import annotations

import os


def pytest_runtest_logreport(report):  # noqa: ANN001, ANN201 - a pytest hook
    path = os.environ.get("LORE_CI_SKIPS")
    if not path or not report.skipped or hasattr(report, "wasxfail"):
        return
    with open(path, "a", encoding="utf-8") as out:
        out.write(report.nodeid + "\n")
