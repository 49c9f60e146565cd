"""What ``lore bench structural`` and ``lore bench questions`` share for CI: extra gates, JUnit, Markdown, progress."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from ._app import err

JunitOpt = Annotated[Path | None, typer.Option("--junit", help="Write JUnit XML here: one test case per gated metric.")]
SummaryOpt = Annotated[Path | None, typer.Option("--summary", help="Append a Markdown summary here (e.g. \"$GITHUB_STEP_SUMMARY\").")]
FailUnderOpt = Annotated[list[str] | None, typer.Option("--fail-under", help="METRIC=VALUE floor (repeatable): recall@10=0.4 gates the --algorithms given (else hybrid, the default); or a full name such as algorithms.pagerank.mrr.")]
BaselineOpt = Annotated[Path | None, typer.Option("--baseline", help="A previous --json report: fail when a metric drops more than --tolerance below it. Missing: this run's report is written there.")]
ToleranceOpt = Annotated[float, typer.Option("--tolerance", help="Allowed drop below --baseline.")]


@contextlib.contextmanager
def progress(what: str, *, quiet: bool = False) -> Iterator[None]:
    """Say on stderr that a long run started, keep a spinner with the elapsed time on a TTY, say when it ends."""
    t0 = time.perf_counter()
    if quiet:
        yield
        return
    if sys.stderr.isatty():
        with err.status(f"{what}…", spinner="dots"):
            yield
    else:
        err.print(f"lore bench: {what}…", markup=False)
        yield
    err.print(f"lore bench: {what}: done in {time.perf_counter() - t0:.1f} s", markup=False)


def ci_gate(suite: str, title: str, report: dict, measured: dict[str, float], *, floors: dict[str, float] | None,
            floors_source: str, fail_under: list[str] | None, baseline: Path | None, tolerance: float,
            junit: Path | None, summary: Path | None, quiet: bool, algorithms: tuple[str, ...] | None = None) -> bool:
    """Run the command-line gates, write the CI files; True when a --fail-under or --baseline check failed.

    Floors from the thresholds file are reported in the files too (the command gates on them itself).
    A bare ``--fail-under`` metric gates ``algorithms`` (the ones the user named), else the default
    algorithm. A ``--baseline`` file that does not exist yet is written with this run's report.
    """
    from ..bench import ci
    from ..graphs.related import DEFAULT_ALGORITHM

    floors_cli = ci.parse_fail_under(fail_under or ())
    previous = None
    if baseline is not None and not baseline.exists():
        ci.write_baseline(baseline, report)  # the first run of a CI recipe: nothing to compare with yet
        if not quiet:
            err.print(f"no baseline at {baseline} yet: wrote this run's report there (commit it; later runs "
                      f"compare with it)", markup=False)
    elif baseline is not None:
        previous = ci.load_baseline(baseline)
    extra = ci.checks(measured, fail_under=floors_cli, baseline=previous, tolerance=tolerance,
                      gated=algorithms or (DEFAULT_ALGORITHM,))
    every = ci.checks(measured, floors=floors, floors_source=floors_source) + extra
    ci.write_outputs(suite, title, report, every, junit=junit, summary=summary, seconds=float(report.get("seconds") or 0))
    failed = [c for c in extra if not c.passed]
    if not quiet and extra:
        for c in failed:
            got = "missing" if c.measured is None else f"{c.measured:.4f}"
            err.print(f"below: {c.metric} = {got} < {c.bound:.4f} ({c.rule})", markup=False)
        if not failed:
            err.print(f"all {len(extra)} --fail-under / --baseline checks passed", markup=False)
    for path, what in ((junit, "JUnit XML"), (summary, "Markdown summary")):
        if path is not None and not quiet:
            err.print(f"wrote the {what} to {path}", markup=False)
    return bool(failed)


def floors_for(section: str, thresholds: Path | None, no_gate: bool) -> tuple[dict[str, float] | None, str]:
    """The floors the command gates ``section`` on (for the CI files), and where they came from."""
    from ..bench import gate

    if no_gate:
        return None, ""
    path = thresholds or gate.default_thresholds_path()
    if path is None:
        return None, ""
    return gate.load_thresholds(path).get(section, {}), Path(path).name
