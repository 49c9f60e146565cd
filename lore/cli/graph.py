"""``lore graph``: direct edges (call, callers, import, inheritance), related symbols and clusters."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..api import list_clusters, lore_graph
from ..errors import InvalidArgumentError
from ._app import DbOpt, JsonOpt, TestsOpt, command, emit_json, open_db, out
from ._format import FormatOpt, check_format, print_fitted, write_delimited

graph_app = typer.Typer(help="Graph queries: direct edges, related symbols, clusters.", no_args_is_help=True)

LimitOpt = Annotated[int, typer.Option("--limit", "-n", help="Maximum rows.")]
KindOpt = Annotated[list[str] | None, typer.Option("--kind", "-k", help="Keep only results of this symbol kind (repeatable).")]
EngineOpt = Annotated[str, typer.Option("--engine", help="Where the sparse products run: local (this process) | ray (Ray actors; the ray extra). Same answer either way.")]
RayAddressOpt = Annotated[str | None, typer.Option("--ray-address", help="--engine ray: auto | ray://host:port | host:port (default: RAY_ADDRESS, else a local Ray).")]


def _graph(kind: str, refs: list[str], db: Path | None, as_json: bool, compact: bool = False,
           max_tokens: int | None = None, fmt: str = "table", **kw: Any) -> None:
    check_format(fmt)
    with open_db(db) as idx:
        data = lore_graph(idx, kind=kind, source_id=refs if len(refs) > 1 else refs[0], compact=compact,
                          max_tokens=max_tokens, **kw)
    if as_json:
        emit_json(data)
        return
    if fmt != "table":
        write_delimited(data["results"], fmt)
        return
    if compact:
        data["results"] = [dict(r, qualified_name=r["qualified_name"], path=None, line=None) for r in data["results"]]
    print_fitted(f"{kind} of {', '.join(refs)}", data)  # one line per row, why wrapped: fits 100 columns
    if data.get("unresolved_same_name"):
        out.print(f"  {data['unresolved_same_name']} call sites of the same name stayed unresolved: "
                  "this list may be incomplete", markup=False)
    for d in data.get("docs", []) or []:
        doc = d.get("document") or {}
        out.print(f"  doc chunk {d.get('chunk_id')}: {doc.get('path')} > {d.get('breadcrumb', '')}"
                  f" (mentions {', '.join(m.get('mention', '') if isinstance(m, dict) else str(m) for m in d.get('mentions', []))})",
                  markup=False)


@command(graph_app, "call")
def graph_call(ref: str, limit: LimitOpt = 20, kind: KindOpt = None, db: DbOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """What REF calls: targets with resolution, confidence and call-site lines (unresolved names kept)."""
    _graph("call", [ref], db, as_json, fmt=fmt, limit=limit, result_kind=kind)


@command(graph_app, "callers")
def graph_callers(ref: str, limit: LimitOpt = 20, kind: KindOpt = None, include_tests: TestsOpt = False,
                  db: DbOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """Who calls REF, with resolution, confidence and call-site lines."""
    _graph("callers", [ref], db, as_json, fmt=fmt, limit=limit, result_kind=kind, include_tests=include_tests)


@command(graph_app, "import")
def graph_import(
    ref: str,
    direction: Annotated[str, typer.Option(help="out: what REF's file imports; in: who imports it.")] = "out",
    limit: LimitOpt = 20, db: DbOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table",
) -> None:
    """Imports of the file that defines REF (or, with --direction in, the modules importing it)."""
    _graph("import", [ref], db, as_json, fmt=fmt, limit=limit, direction=direction)


@command(graph_app, "inheritance")
def graph_inheritance(
    ref: str,
    direction: Annotated[str, typer.Option(help="out: bases; in: subclasses; both.")] = "both",
    limit: LimitOpt = 20, kind: KindOpt = None, db: DbOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table",
) -> None:
    """Base classes and subclasses of REF (transitively), and the methods it overrides."""
    _graph("inheritance", [ref], db, as_json, fmt=fmt, limit=limit, direction=direction, result_kind=kind)


@command(graph_app, "related")
def graph_related(
    refs: Annotated[list[str], typer.Argument(help="One or more seed symbols (ids or qualified names).")],
    algorithm: Annotated[str, typer.Option("--algorithm", "-a", help="hybrid (default, 'what plays a role like this': structure + place + words + role, fit weights) | changes ('what will I have to change with this': git history + structure + place, fit on co-changes) | overlap | fusion (overlap + PageRank ranks) | pagerank | pagerank_push | pagerank_mc | cluster")] = "hybrid",
    weights: Annotated[str | None, typer.Option("--weights", help="Weights as name=number pairs: overlap relations (callees=1,callers=0.5,types=0.2), PageRank walk relations (calls, types, inherits, contains, imports) or hybrid signals; or a file written by `lore bench fit` (hybrid). Names left out keep their defaults.")] = None,
    limit: LimitOpt = 20,
    kind: KindOpt = None,
    include_tests: TestsOpt = False,
    measure: Annotated[str | None, typer.Option(help="Overlap similarity (overlap, fusion and hybrid's structure signal): idf_cosine | cosine | adamic_adar | resource_allocation | jaccard | count")] = None,
    alpha: Annotated[float, typer.Option(help="PageRank damping, in (0, 1) (the pagerank family and hybrid's walk signal).")] = 0.85,
    direction: Annotated[str | None, typer.Option(help="PageRank walk direction: out | in | both.")] = None,
    walks: Annotated[int, typer.Option(help="Monte-Carlo walks (pagerank_mc).")] = 10_000,
    seed: Annotated[int, typer.Option(help="Random seed (pagerank_mc).")] = 0,
    compact: Annotated[bool, typer.Option("--compact", help="Fewer fields per row.")] = False,
    max_tokens: Annotated[int | None, typer.Option(help="Trim rows so the JSON fits about this many tokens.")] = None,
    with_docs: Annotated[bool, typer.Option("--with-docs", help="Also list document chunks that mention the seeds.")] = False,
    engine: EngineOpt = "local",
    ray_address: RayAddressOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False, fmt: FormatOpt = "table",
) -> None:
    """Symbols that play a role like REFS, ranked by graph structure, each with why."""
    _graph("related", refs, db, as_json, fmt=fmt, compact=compact, max_tokens=max_tokens, algorithm=algorithm, limit=limit,
           result_kind=kind, include_tests=include_tests, measure=measure, alpha=alpha, direction=direction,
           n_walks=walks, seed=seed, with_docs=with_docs, weights=parse_weights(weights), engine=engine,
           ray_address=ray_address)


def parse_weights(spec: str | None) -> dict[str, float] | None:
    """``--weights``: ``name=number`` pairs (``callees=1,callers=0.5,types=0.2``) or a weights file.

    >>> parse_weights("callees=1, callers=0.5,types=.2")
    {'callees': 1.0, 'callers': 0.5, 'types': 0.2}
    """
    if spec is None:
        return None
    if "=" not in spec:  # a file written by `lore bench fit`
        from ..graphs.hybrid import load_weights

        return load_weights(Path(spec))
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, sep, value = (x.strip() for x in part.partition("="))
        try:
            if not (sep and name):
                raise ValueError(part)
            out[name] = float(value)
        except ValueError:
            raise InvalidArgumentError(
                f"--weights takes name=number pairs such as callees=1,callers=0.5,types=0.2, got {part!r}"
            ) from None
    return out


@command(graph_app, "cluster")
def graph_cluster(ref: str, limit: LimitOpt = 20, kind: KindOpt = None, include_tests: TestsOpt = False,
                  engine: EngineOpt = "local", ray_address: RayAddressOpt = None,
                  db: DbOpt = None, as_json: JsonOpt = False, fmt: FormatOpt = "table") -> None:
    """The cluster (subsystem) of REF and its members, ranked."""
    _graph("cluster", [ref], db, as_json, fmt=fmt, limit=limit, result_kind=kind, include_tests=include_tests,
           engine=engine, ray_address=ray_address)


@command(graph_app, "clusters")
def graph_clusters(
    min_size: Annotated[int, typer.Option(help="Hide clusters smaller than this.")] = 3,
    limit: LimitOpt = 20,
    mode: Annotated[str, typer.Option(help="lpa (label propagation) | components")] = "lpa",
    engine: EngineOpt = "local",
    ray_address: RayAddressOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False, fmt: FormatOpt = "table",
) -> None:
    """The subsystems: size, cohesion, a readable label and top members of each cluster."""
    check_format(fmt)
    with open_db(db) as idx:
        data = list_clusters(idx, min_size=min_size, limit=limit, mode=mode, engine=engine, ray_address=ray_address)
    if as_json:
        emit_json(data)
        return
    if fmt != "table":
        write_delimited(data["results"], fmt, ("cluster", "size", "cohesion", "label", "top_members"))
        return
    from ._format import Column, print_table

    columns = (Column("cluster", align="right"), Column("size", align="right"), Column("cohesion", align="right"),
               Column("label", "list", min=12), Column("top members", "list", min=16))
    rows = [(str(r["cluster"]), str(r["size"]), f"{r['cohesion']:.2f}", r["label"],
             ", ".join(m["qualified_name"] for m in r["top_members"])) for r in data["results"]]
    print_table("clusters", columns, rows, f"{len(data['results'])} of {data['total']} clusters with at least "
                f"{min_size} members · generation {data['generation']}")


def register(app: typer.Typer) -> None:
    """Add the ``graph`` group to ``app``."""
    app.add_typer(graph_app, name="graph")
