"""Scoring of the Jedi agreement benchmark: the judged sites, the counts, the table.

Pure arithmetic over :class:`Judgement` rows (what Jedi and lore say at one call site); how the rows are
made is in :mod:`lore.bench._jedi_oracle`. Ratios are computed from summed counts, never averaged.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from ._rule_share import STRENGTHS

EXAMPLES = int(os.environ.get("LORE_BENCH_EXAMPLES", "3"))  # per cause; more to read every miss of a tuning set
CAUSES = (
    "stub/.pyi or @overload chosen",
    "super()",
    "constructor / inherited __init__",
    "no lore symbol for Jedi's definition",
    "unresolved",
    "bound to an external symbol",
    "heuristic guess",
    "rule bound elsewhere",
    "external-typed receiver bound by name",
    "rule bound in project, Jedi says external",
)


@dataclass(frozen=True)
class CallSite:
    """One call expression found by ``ast``: where it starts and where its called name is."""

    path: str  # relative to the project root, with /
    line: int  # 1-based line of the call's start
    col: int  # 0-based UTF-8 byte column of the call's start (ast's and tree-sitter's convention)
    name: str  # the called name: ``get`` in ``self.client.get(...)``
    name_line: int
    name_col: int  # 0-based character column of the name (Jedi's convention)
    text: str  # the source line, stripped

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.col}:{self.name}"


@dataclass
class Judgement:
    """One sampled site: what Jedi and lore say, reduced to what the scorer counts."""

    site: CallSite
    jedi_status: str  # bound | external | multiple | other | none | error
    jedi_label: str = ""  # Jedi's definition (qualified name, or path:line)
    jedi_target: int | None = None  # the lore symbol of Jedi's definition (None: not bound, or no such symbol)
    accept: frozenset[int] = frozenset()  # lore ids that agree with Jedi
    lore_targets: tuple[int, ...] = ()  # the in-project symbols lore bound the site to
    lore_resolution: str = "not_extracted"  # the strongest of lore's rows ("not_extracted": no row at all)
    lore_strength: str = "unresolved"
    lore_label: str = ""  # lore's target(s), for examples
    cause: str | None = None  # why lore disagrees (misses, wrong bindings, contradictions)
    # lore's targets beyond Jedi's definition that Jedi's unbounded parameter search also names
    # (:mod:`lore.bench._jedi_unions`): right at run time; counted for precision, never for recall
    also_true: frozenset[int] = frozenset()


@dataclass
class Tally:
    """The counts of one project (or of all): ratios are computed from these, never averaged."""

    sites: int = 0
    jedi: Counter = field(default_factory=Counter)  # Jedi status -> sites
    jedi_bound: int = 0
    hits: int = 0
    both: int = 0
    correct: int = 0
    contradicted: int = 0  # Jedi: outside the project; lore: a project symbol
    strengths: Counter = field(default_factory=Counter)
    miss_by_resolution: Counter = field(default_factory=Counter)
    wrong_by_resolution: Counter = field(default_factory=Counter)
    causes: dict[str, dict] = field(default_factory=dict)  # label -> {"misses", "wrong", "contradicted", "examples"}

    def add(self, other: Tally) -> None:
        self.sites += other.sites
        self.jedi_bound += other.jedi_bound
        self.hits += other.hits
        self.both += other.both
        self.correct += other.correct
        self.contradicted += other.contradicted
        for a, b in ((self.jedi, other.jedi), (self.strengths, other.strengths),
                     (self.miss_by_resolution, other.miss_by_resolution),
                     (self.wrong_by_resolution, other.wrong_by_resolution)):
            a.update(b)
        for label, c in other.causes.items():
            mine = self.causes.setdefault(label, {"misses": 0, "wrong": 0, "contradicted": 0, "examples": []})
            for k in ("misses", "wrong", "contradicted"):
                mine[k] += c[k]
            mine["examples"] = (mine["examples"] + c["examples"])[:EXAMPLES]

    def as_dict(self) -> dict:
        def ratio(a: int, b: int) -> float | None:
            return a / b if b else None

        return {
            "sites": self.sites,
            "jedi_status": dict(sorted(self.jedi.items())),
            "jedi_bound": self.jedi_bound,
            "jedi_bound_share": ratio(self.jedi_bound, self.sites),
            "lore_hits": self.hits,
            "recall": ratio(self.hits, self.jedi_bound),
            "both_bind": self.both,
            "lore_correct": self.correct,
            "precision": ratio(self.correct, self.both),
            "rule_bound": self.strengths.get("rule", 0),
            "rule_share": ratio(self.strengths.get("rule", 0), self.sites),
            "strengths": {s: self.strengths.get(s, 0) for s in STRENGTHS},
            "contradicted": self.contradicted,
            "misses_by_resolution": dict(sorted(self.miss_by_resolution.items(), key=lambda kv: (-kv[1], kv[0]))),
            "wrong_by_resolution": dict(sorted(self.wrong_by_resolution.items(), key=lambda kv: (-kv[1], kv[0]))),
            "causes": {k: self.causes[k] for k in CAUSES if k in self.causes},
        }


def score(judgements: list[Judgement]) -> Tally:
    """Count recall, precision, rule share and the disagreement breakdown over judged sites.

    Examples
    --------
    >>> s = CallSite("a.py", 1, 0, "f", 1, 0, "f()")
    >>> t = score([Judgement(s, "bound", jedi_target=2, accept=frozenset({2}), lore_targets=(2,),
    ...                      lore_resolution="import", lore_strength="rule"),
    ...            Judgement(s, "bound", jedi_target=3, accept=frozenset({3}), lore_resolution="unresolved",
    ...                      cause="unresolved"),
    ...            Judgement(s, "none")]).as_dict()
    >>> t["recall"], t["precision"], round(t["rule_share"], 3)
    (0.5, 1.0, 0.333)
    """
    t = Tally()
    for j in judgements:
        t.sites += 1
        t.jedi[j.jedi_status] += 1
        t.strengths[j.lore_strength] += 1
        inside = set(j.lore_targets)
        if j.jedi_status == "bound":
            t.jedi_bound += 1
            miss = not (j.accept & inside)
            if miss:
                t.miss_by_resolution[j.lore_resolution] += 1
                _note(t, j, "misses", example=True)
            else:
                t.hits += 1
            if inside:
                t.both += 1
                if inside <= j.accept | j.also_true:
                    t.correct += 1
                else:  # a miss that is also a wrong binding counts in both columns, its example once
                    t.wrong_by_resolution[j.lore_resolution] += 1
                    _note(t, j, "wrong", example=not miss)
        elif j.jedi_status == "external" and inside:
            t.contradicted += 1
            _note(t, j, "contradicted", example=True)
    return t


def _note(t: Tally, j: Judgement, kind: str, *, example: bool) -> None:
    label = j.cause or "rule bound elsewhere"
    c = t.causes.setdefault(label, {"misses": 0, "wrong": 0, "contradicted": 0, "examples": []})
    c[kind] += 1
    if example and len(c["examples"]) < EXAMPLES:
        c["examples"].append({"site": f"{j.site.path}:{j.site.line}", "text": j.site.text[:120],
                              "lore": f"{j.lore_resolution} -> {j.lore_label}", "jedi": j.jedi_label or j.jedi_status})


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def format_report(report: dict) -> list[str]:
    """The agreement table, the breakdowns and the examples as plain text lines."""
    head = (f"{'project':<26} {'sites':>6} {'jedi-bound':>10} {'share':>6} {'recall':>7} {'both':>5} "
            f"{'precision':>9} {'rule share':>10} {'contradicted':>12}")
    lines = [f"lore vs Jedi {report['jedi']} (seed {report['seed']}, {report['sites_per_project']} call sites "
             f"per project)", head]
    rows = [(f"{n} ({v['style']})", v) for n, v in report["projects"].items()] + [("overall", report["overall"])]
    for label, v in rows:
        lines.append(f"{label:<26} {v['sites']:>6} {v['jedi_bound']:>10} {_pct(v['jedi_bound_share']):>6} "
                     f"{_pct(v['recall']):>7} {v['both_bind']:>5} {_pct(v['precision']):>9} "
                     f"{_pct(v['rule_share']):>10} {v['contradicted']:>12}")
    o = report["overall"]
    lines.append("Jedi status over all sites: " + ", ".join(f"{k} {c}" for k, c in o["jedi_status"].items()))
    lines.append("lore strength over all sites: " + ", ".join(f"{k} {c}" for k, c in o["strengths"].items()))
    lines.append("misses by lore resolution: " + (", ".join(f"{k} {c}" for k, c in o["misses_by_resolution"].items()) or "none"))
    lines.append("wrong bindings by lore resolution: " + (", ".join(f"{k} {c}" for k, c in o["wrong_by_resolution"].items()) or "none"))
    for label, c in o["causes"].items():
        lines.append(f"cause: {label}: misses {c['misses']}, wrong {c['wrong']}, contradicted {c['contradicted']}")
        for e in c["examples"]:
            lines.append(f"    {e['site']}: {e['text']}")
            lines.append(f"        lore {e['lore']} | jedi {e['jedi']}")
    lines.append(f"{report['seconds']} s")
    return lines


def flat_metrics(report: dict) -> dict[str, float]:
    """``{"jedi.overall.recall": 0.95, "jedi.flask.precision": 0.97, ...}`` for the thresholds gate."""
    out: dict[str, float] = {}
    for name, v in [*report["projects"].items(), ("overall", report["overall"])]:
        for q in ("recall", "precision", "rule_share"):
            if v[q] is not None:
                out[f"jedi.{name}.{q}"] = round(v[q], 4)
    return out
