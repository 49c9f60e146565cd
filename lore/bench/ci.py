"""Benchmark results for CI systems: JUnit XML (one test case per gated metric) and a Markdown summary.

``lore bench structural`` and ``lore bench questions`` gate their metrics three ways, any of which
fails the run (exit code 1):

- floors from a thresholds file (``--thresholds``, :mod:`lore.bench.gate`);
- ``--fail-under METRIC=VALUE``: a floor given on the command line, applied to the algorithms a user
  ranks with (``recall@10=0.4`` gates ``algorithms.<each>.recall@10`` of the ones named with
  ``--algorithms``, else of the default ``hybrid`` alone: the other algorithms are scored for
  comparison, and a floor on them would fail a run whose answers did not change) or to one full metric
  name;
- ``--baseline FILE``: a previous ``--json`` report; a metric that drops more than ``--tolerance``
  below it fails. When FILE does not exist yet (the first run of a CI recipe), the run writes its
  own report there (:func:`write_baseline`) instead of failing.

:func:`junit_xml` writes each checked metric as a ``<testcase>`` (GitHub, GitLab, Jenkins and Azure
show them as tests), :func:`markdown_summary` a table for ``$GITHUB_STEP_SUMMARY`` or a PR comment.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from .._files import read_json
from ..errors import InvalidArgumentError

DEFAULT_TOLERANCE = 0.02


@dataclass(frozen=True)
class Check:
    """One gated metric: its value, what it was held to, and whether it passed."""

    metric: str
    measured: float | None
    bound: float
    rule: str  # "floor (thresholds.json)", "--fail-under", "baseline 0.412 - 0.02"
    passed: bool


def parse_fail_under(specs: list[str] | tuple[str, ...]) -> dict[str, float]:
    """``["recall@10=0.4"]`` -> ``{"recall@10": 0.4}``; a malformed spec is a one-line error.

    Examples
    --------
    >>> parse_fail_under(["recall@10=0.4", "algorithms.hybrid.mrr=0.3"])
    {'recall@10': 0.4, 'algorithms.hybrid.mrr': 0.3}
    """
    out = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise InvalidArgumentError(f"--fail-under takes METRIC=VALUE such as recall@10=0.4, got {spec!r}")
    return out


def checks(measured: dict[str, float], *, floors: dict[str, float] | None = None, floors_source: str = "thresholds",
           fail_under: dict[str, float] | None = None, baseline: dict[str, float] | None = None,
           tolerance: float = DEFAULT_TOLERANCE, gated: Iterable[str] | None = None) -> list[Check]:
    """Every check of ``measured`` (flat ``section.name.metric`` values), sorted by metric then rule.

    A bare ``fail_under`` name (``recall@10``) gates that metric of each algorithm in ``gated``
    (None: of every algorithm measured); a full name (``algorithms.pagerank.mrr``) gates that one.

    Examples
    --------
    >>> m = {"algorithms.a.recall@10": 0.5, "algorithms.b.recall@10": 0.3}
    >>> [(c.metric, c.passed) for c in checks(m, fail_under={"recall@10": 0.4})]
    [('algorithms.a.recall@10', True), ('algorithms.b.recall@10', False)]
    >>> [(c.metric, c.passed) for c in checks(m, fail_under={"recall@10": 0.4}, gated=["a"])]
    [('algorithms.a.recall@10', True)]
    >>> [(c.metric, c.rule, c.passed) for c in checks(m, baseline={"algorithms.a.recall@10": 0.53})]
    [('algorithms.a.recall@10', 'baseline 0.53 - 0.02', False)]
    """
    out: list[Check] = []
    for metric, floor in sorted((floors or {}).items()):
        if metric.startswith("_"):
            continue
        got = measured.get(metric)
        out.append(Check(metric, got, floor, f"floor ({floors_source})", got is not None and got >= floor - 1e-9))
    chosen = None if gated is None else sorted(set(gated))
    for name, floor in sorted((fail_under or {}).items()):
        if name in measured:
            targets = [name]
        elif chosen is None:
            targets = sorted(m for m in measured if m.startswith("algorithms.") and m.endswith("." + name))
        else:  # the chosen algorithms' metric, measured or not: a floor on an algorithm never scored fails
            targets = [f"algorithms.{a}.{name}" for a in chosen]
        if not targets:
            out.append(Check(name, None, floor, "--fail-under", False))
        for metric in targets:
            got = measured.get(metric)
            out.append(Check(metric, got, floor, "--fail-under", got is not None and got >= floor - 1e-9))
    for metric, before in sorted((baseline or {}).items()):
        if metric not in measured or not metric.startswith("algorithms."):
            continue  # baselines of the baselines (random, same file) are not lore's to keep
        bound = round(before - tolerance, 6)
        got = measured[metric]
        out.append(Check(metric, got, bound, f"baseline {before:.4g} - {tolerance:g}", got >= bound - 1e-9))
    return out


def load_baseline(path: str | Path) -> dict[str, float]:
    """The flat metrics of a previous ``--json`` report (or of a flat ``{metric: value}`` file)."""
    from .structural import flat_metrics

    p = Path(path)
    data = read_json(p, "baseline", fix="write a baseline with `lore bench ... --json > FILE`")
    if isinstance(data, dict) and "algorithms" in data:
        return flat_metrics(data)
    if isinstance(data, dict) and all(isinstance(v, int | float) for v in data.values()):
        return {k: float(v) for k, v in data.items()}
    raise InvalidArgumentError(f"{p} is neither a `lore bench --json` report nor a {{metric: value}} object")


def write_baseline(path: str | Path, report: dict) -> None:
    """Write ``report`` as the baseline of later runs: the same JSON as ``lore bench ... --json``.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "ci" / "base.json"
    >>> write_baseline(p, {"algorithms": {"hybrid": {"all": {"mrr": 0.5}}}})
    >>> load_baseline(p)
    {'algorithms.hybrid.mrr': 0.5}
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")


def junit_xml(suite: str, results: list[Check], *, seconds: float = 0.0) -> str:
    """JUnit XML: one ``<testcase>`` per check, a ``<failure>`` for each that failed.

    Examples
    --------
    >>> print(junit_xml("q", [Check("algorithms.a.mrr", 0.2, 0.3, "--fail-under", False)]))
    <?xml version="1.0" encoding="utf-8"?>
    <testsuites tests="1" failures="1" time="0.000"><testsuite name="lore bench q" tests="1" failures="1" errors="0" skipped="0" time="0.000"><testcase classname="lore.bench.q" name="algorithms.a.mrr [--fail-under]" time="0"><failure message="algorithms.a.mrr = 0.2000, below 0.3000 (--fail-under)" type="BelowThreshold" /></testcase></testsuite></testsuites>
    """
    failed = sum(not c.passed for c in results)
    root = ET.Element("testsuites", tests=str(len(results)), failures=str(failed), time=f"{seconds:.3f}")
    ts = ET.SubElement(root, "testsuite", name=f"lore bench {suite}", tests=str(len(results)), failures=str(failed),
                       errors="0", skipped="0", time=f"{seconds:.3f}")
    for c in results:
        case = ET.SubElement(ts, "testcase", classname=f"lore.bench.{suite}", name=f"{c.metric} [{c.rule}]", time="0")
        if not c.passed:
            got = "missing" if c.measured is None else f"{c.measured:.4f}"
            ET.SubElement(case, "failure", message=f"{c.metric} = {got}, below {c.bound:.4f} ({c.rule})",
                          type="BelowThreshold")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode")


def markdown_summary(title: str, report: dict, results: list[Check]) -> str:
    """A Markdown summary: the scores of every algorithm and baseline, then the checks (failures first)."""
    lines = [f"### {title}", ""]
    corpus = report.get("corpus") or {}
    facts = [f"{k} {corpus[k]}" for k in ("corpus", "queries", "pairs") if k in corpus]
    if facts:
        lines += [", ".join(map(str, facts)), ""]
    lines += ["| method | R@5 | R@10 | MRR | nDCG@10 | queries |", "|---|---:|---:|---:|---:|---:|"]

    def fmt(v: object) -> str:
        return f"{v:.3f}" if isinstance(v, float) else ("-" if v is None else str(v))

    for section in ("algorithms", "baselines"):
        for name, res in (report.get(section) or {}).items():
            a = res.get("all", {})
            label = f"`{name}`" if section == "algorithms" else f"baseline: {name}"
            lines.append(f"| {label} | {fmt(a.get('recall@5'))} | {fmt(a.get('recall@10'))} | {fmt(a.get('mrr'))} "
                         f"| {fmt(a.get('ndcg@10'))} | {fmt(a.get('queries'))} |")
    failed = [c for c in results if not c.passed]
    lines += [""]
    if not results:
        lines.append("No metric gated (pass --thresholds, --fail-under or --baseline).")
    else:
        verdict = f"**{len(failed)} of {len(results)} checks failed**" if failed else f"All {len(results)} checks passed."
        lines += [verdict, "", "| | metric | measured | bound | rule |", "|---|---|---:|---:|---|"]
        for c in sorted(results, key=lambda c: (c.passed, c.metric)):
            got = "missing" if c.measured is None else f"{c.measured:.4f}"
            lines.append(f"| {'✅' if c.passed else '❌'} | `{c.metric}` | {got} | {c.bound:.4f} | {c.rule} |")
    return "\n".join(lines) + "\n"


def write_outputs(suite: str, title: str, report: dict, results: list[Check], *, junit: Path | None,
                  summary: Path | None, seconds: float = 0.0) -> None:
    """Write the JUnit file (replaced) and append the Markdown summary (``$GITHUB_STEP_SUMMARY`` appends)."""
    if junit is not None:
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.write_text(junit_xml(suite, results, seconds=seconds), encoding="utf-8")
    if summary is not None:
        summary.parent.mkdir(parents=True, exist_ok=True)
        with summary.open("a", encoding="utf-8") as fh:
            fh.write(markdown_summary(title, report, results))
