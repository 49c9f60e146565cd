"""``lore docs add``, ``lore docs search``, ``lore docs similar`` and ``lore related``: thin shells over :mod:`lore.docs.api`.

Each command parses its options, calls one endpoint and prints a table (or the envelope with
``--json``). A :class:`~lore.errors.LoreError` becomes one line on stderr and exit code 2. The
tables print on a console of the terminal's width (80 columns when piped).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import IndexNotFoundError, InvalidArgumentError, LoreError
from ..store.db import default_db_path
from ._app import command, emit_json, find_db

docs_app = typer.Typer(
    name="docs", help="Index documentation and search it (keyword, vector, hybrid).", no_args_is_help=True
)

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db", "--index", help="Index file or repository root (default: nearest .lore/index.db upwards)."
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the JSON envelope instead of a table.")]
LimitOption = Annotated[int, typer.Option("--limit", "-n", help="Results to return (1-100).")]
MinScoreOption = Annotated[
    float | None, typer.Option("--min-score", help="Drop results scoring below this (default: per model).")
]
TopicOption = Annotated[str | None, typer.Option("--topic", help="Only documents with this topic.")]
LibraryOption = Annotated[str | None, typer.Option("--library", help="Only documents of this library.")]
TagsOption = Annotated[
    str | None, typer.Option("--tags", help="Only documents carrying all these tags (a,b).")
]


def _db(db: Path | None, *, create: bool = False) -> Path:
    """``--db`` (a file or a repository root), else the nearest ``.lore/index.db`` upwards.

    With ``create`` (``lore docs add``) and no index anywhere upwards: ``./.lore/index.db``.
    """
    try:
        return find_db(db)
    except IndexNotFoundError:
        if create:
            return default_db_path(Path.cwd())
        raise


def _snippet(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _results_table(results: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title, show_lines=False)
    table.add_column("chunk", justify="right", style="cyan")
    table.add_column("score", justify="right")
    table.add_column("source")
    table.add_column("section")
    table.add_column("text")
    for r in results:
        cite = r["citations"][0]
        table.add_row(
            str(r["chunk_id"]),
            f"{r.get('score', 0.0):.3f}",
            escape(f"{cite['source_file']} [{cite['chunk_index'] + 1}/{cite['total_chunks']}]"),
            escape(r["breadcrumb"]),
            escape(_snippet(r["content"])),
        )
    return table


@command(docs_app, "add", interrupt=False)
def add_command(
    paths: Annotated[list[Path], typer.Argument(help="Documentation files or directories (md, rst, txt, pdf).")],
    library: Annotated[
        str | None, typer.Option("--library", help="Library the documents describe (default: keep).")
    ] = None,
    topic: Annotated[str | None, typer.Option("--topic", help="Topic of the documents (default: keep).")] = None,
    tags: Annotated[str | None, typer.Option("--tags", help="Comma-separated tags (default: keep).")] = None,
    version: Annotated[
        str | None, typer.Option("--version", help="Version of the library documented (default: keep).")
    ] = None,
    embedder: Annotated[
        str | None,
        typer.Option(
            "--embedder",
            help="hashing or minilm (default: the store's model, else minilm when the embed extra is installed).",
        ),
    ] = None,
    max_chars: Annotated[int, typer.Option("--max-chars", help="Chunk size limit in characters.")] = 1500,
    overlap: Annotated[int, typer.Option("--overlap", help="Overlap between chunks in characters.")] = 150,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add or refresh documents; only changed chunks are embedded again."""
    from ..docs import api  # here, not at import: other commands never load numpy

    out = api.add_documents(
        _db(db, create=True), paths, library=library, topic=topic, tags=tags, version=version, embedder=embedder,
        max_chars=max_chars, overlap=overlap,
    )  # fmt: skip
    if as_json:
        emit_json(out)
        return
    Console().print(
        f"{out['added']} added, {out['updated']} updated, {out['unchanged']} unchanged, {out['removed']} removed, "
        f"{out['skipped']} skipped; "
        f"{out['chunks']} chunks written, {out['embedded']} embedded with {out['model']} "
        f"({out['reused']} vectors reused), {out['links']} links, {out['mentions']} symbol mentions "
        f"in {out['seconds']:.1f}s"
    )
    for d in out["documents"]:
        if d["status"] == "skipped":
            Console(stderr=True).print(escape(f"skipped {d['path']}: {d['reason']}"))


@command(docs_app, "search", interrupt=False)
def search_command(
    query: Annotated[str, typer.Argument(help='Words to find; "quoted phrases" match as phrases.')],
    mode: Annotated[str, typer.Option("--mode", help="hybrid, vector or keyword.")] = "hybrid",
    limit: LimitOption = 10,
    min_score: MinScoreOption = None,
    topic: TopicOption = None,
    library: LibraryOption = None,
    tags: TagsOption = None,
    expand: Annotated[
        int, typer.Option("--expand", help="Follow document links from the hits (hops, 0-3).")
    ] = 0,
    any_terms: Annotated[
        bool, typer.Option("--any", help="Match any word instead of all (keyword ranker).")
    ] = False,
    count: Annotated[
        bool, typer.Option("--count", help="Also count every keyword match exactly (slower).")
    ] = False,
    title_boost: Annotated[
        float,
        typer.Option("--title-boost", help="Score factor when every query word is in the document title (1 = off)."),
    ] = 1.5,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Search document chunks by keywords, meaning, or both fused."""
    from ..docs import api  # here, not at import: other commands never load numpy

    out = api.search_docs(
        _db(db), query, mode=mode, limit=limit, min_score=min_score, topic=topic, library=library, tags=tags,
        expand=expand, any_terms=any_terms, count=count, title_boost=title_boost,
    )  # fmt: skip
    if as_json:
        emit_json(out)
        return
    more = " (more available)" if out["has_more"] else ""
    if "keyword_matches" in out:
        more += f" · {out['keyword_matches']} keyword matches"
    if out.get("note"):
        more += f" · {out['note']}"
    title = (
        f"{out['total']} results for {query!r} ({mode}{', ' + out['model'] if out['model'] else ''}){more}"
    )
    Console().print(_results_table(out["results"], escape(title)))


@command(docs_app, "similar", interrupt=False)
def similar_command(
    query: Annotated[str, typer.Argument(help="Text to compare every chunk with (cosine of embeddings).")],
    limit: Annotated[int, typer.Option("--limit", "-n", help="Documents to return (default 5; clamped to 1-100).")] = 5,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Chunks most similar to QUERY, with citations (the search_similar contract)."""
    from ..docs import api  # here, not at import: other commands never load numpy
    from ..docs.similar import failure

    try:
        where: Path | None = _db(db)
    except LoreError as exc:  # the contract: with --json even a missing index is an envelope
        where, out = None, failure(f"Failed to search: {exc}")
    if where is not None:
        out = api.search_similar(where, query, limit=limit)
    if as_json:
        emit_json(out)
    elif out["success"]:
        table = Table(title=escape(f"{out['count']} documents similar to {query!r}"))
        for col, justify in (("id", "right"), ("similarity", "right"), ("source", "left"), ("text", "left")):
            table.add_column(col, justify=justify)  # type: ignore[arg-type]
        for d in out["documents"]:
            page = f" p.{d['page_number']}" if d["page_number"] is not None else ""
            where_in = f"{d['source_file']} [{d['chunk_index'] + 1}/{d['total_chunks']}]{page}"
            table.add_row(str(d["id"]), f"{d['similarity']:.3f}", escape(where_in), escape(_snippet(d["content"])))
        Console().print(table)
    if not out["success"]:
        if not as_json:
            typer.echo(f"lore: error: {out['error']}", err=True)
        raise typer.Exit(2)


def related_command(
    chunk_id: Annotated[int, typer.Argument(help="A chunk id (from `lore docs search`).")],
    limit: LimitOption = 10,
    topic: TopicOption = None,
    library: LibraryOption = None,
    tags: TagsOption = None,
    min_score: Annotated[float, typer.Option("--min-score", help="Drop chunks below this cosine.")] = 0.0,
    include_linked: Annotated[
        bool,
        typer.Option(
            "--include-linked",
            help="Add the best chunk of each document linked to or from the source, at max(cosine, 0.6), "
            "even below --min-score.",
        ),
    ] = False,
    same_document: Annotated[
        bool, typer.Option("--same-document", help="Also return chunks of the source document.")
    ] = False,
    exclude_document: Annotated[
        str | None,
        typer.Option(
            "--exclude-document", help="Leave out this document (id or stored path) instead of the source's."
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Document chunks most like CHUNK_ID (reuses its stored vector: no model call)."""
    from ..docs import api  # here, not at import: other commands never load numpy

    if same_document and exclude_document is not None:
        raise InvalidArgumentError("give --same-document or --exclude-document, not both")
    excluded: str | bool | None = False if same_document else exclude_document
    out = api.get_related(
        _db(db), chunk_id, limit=limit, topic=topic, library=library, tags=tags, min_score=min_score,
        include_linked=include_linked, exclude_document=excluded,
    )  # fmt: skip
    if as_json:
        emit_json(out)
        return
    src = out["source"]
    more = " (more available)" if out["has_more"] else ""
    title = (
        f"{out['total']} chunks like {chunk_id} · {src['citations'][0]['source_file']} · "
        f"{src['breadcrumb'] or src['document']['title']} ({out['model']}){more}"
    )
    Console().print(_results_table(out["results"], escape(title)))


def register(app: typer.Typer) -> None:
    """Add the ``docs`` group and ``related`` to ``app``."""
    app.add_typer(docs_app, name="docs")
    command(app, "related")(related_command)
