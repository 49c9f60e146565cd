"""``lore docs add|search|similar|related``: thin shells over :mod:`lore.docs.api`.

Each command parses its options, calls one endpoint and prints a table (or the envelope with
``--json``). A :class:`~lore.errors.LoreError` becomes one line on stderr and exit code 2. The
tables fit the terminal's width (100 columns when piped), long names cut on boundaries.

The top-level ``lore related`` (document chunks, beside ``lore graph related`` for symbols) moved to
``lore docs related``; a hidden ``lore related`` stays for a release and only says where it went.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import IndexNotFoundError, InvalidArgumentError, LoreError
from ..store.db import default_db_path
from ._app import command, emit_json, err, find_db, out
from ._format import Column, print_table

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


RESULT_COLUMNS = (Column("chunk", align="right"), Column("score", align="right"), Column("source", "path", min=16),
                  Column("section", "crumbs", min=12), Column("text", "text", min=20))


def _result_rows(results: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for r in results:
        cite = r["citations"][0]
        rows.append((str(r["chunk_id"]), f"{r.get('score', 0.0):.3f}",
                     f"{cite['source_file']} [{cite['chunk_index'] + 1}/{cite['total_chunks']}]", r["breadcrumb"],
                     r["content"]))
    return rows


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

    res = api.add_documents(
        _db(db, create=True), paths, library=library, topic=topic, tags=tags, version=version, embedder=embedder,
        max_chars=max_chars, overlap=overlap,
    )  # fmt: skip
    if as_json:
        emit_json(res)
        return
    out.print(
        f"{res['added']} added, {res['updated']} updated, {res['unchanged']} unchanged, {res['removed']} removed, "
        f"{res['skipped']} skipped; "
        f"{res['chunks']} chunks written, {res['embedded']} embedded with {res['model']} "
        f"({res['reused']} vectors reused), {res['links']} links, {res['mentions']} symbol mentions "
        f"in {res['seconds']:.1f}s", markup=False
    )
    for d in res["documents"]:
        if d["status"] == "skipped":
            err.print(f"skipped {d['path']}: {d['reason']}", markup=False)


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

    res = api.search_docs(
        _db(db), query, mode=mode, limit=limit, min_score=min_score, topic=topic, library=library, tags=tags,
        expand=expand, any_terms=any_terms, count=count, title_boost=title_boost,
    )  # fmt: skip
    if as_json:
        emit_json(res)
        return
    more = " (more available)" if res["has_more"] else ""
    if "keyword_matches" in res:
        more += f" · {res['keyword_matches']} keyword matches"
    if res.get("note"):
        more += f" · {res['note']}"
    title = f"{res['total']} results for {query!r} ({mode}{', ' + res['model'] if res['model'] else ''}){more}"
    print_table(title, RESULT_COLUMNS, _result_rows(res["results"]))


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
        where, res = None, failure(f"Failed to search: {exc}")
    if where is not None:
        res = api.search_similar(where, query, limit=limit)
    if as_json:
        emit_json(res)
    elif res["success"]:
        rows: list[tuple[Any, ...]] = []
        for d in res["documents"]:
            page = f" p.{d['page_number']}" if d["page_number"] is not None else ""
            where_in = f"{d['source_file']} [{d['chunk_index'] + 1}/{d['total_chunks']}]{page}"
            rows.append((str(d["id"]), f"{d['similarity']:.3f}", where_in, d["content"]))
        columns = (Column("id", align="right"), Column("similarity", align="right"), Column("source", "path", min=16),
                   Column("text", "text", min=20))
        print_table(f"{res['count']} documents similar to {query!r}", columns, rows)
    if not res["success"]:
        if not as_json:
            typer.echo(f"lore: error: {res['error']}", err=True)
        raise typer.Exit(2)


@command(docs_app, "related", interrupt=False)
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
    res = api.get_related(
        _db(db), chunk_id, limit=limit, topic=topic, library=library, tags=tags, min_score=min_score,
        include_linked=include_linked, exclude_document=excluded,
    )  # fmt: skip
    if as_json:
        emit_json(res)
        return
    src = res["source"]
    more = " (more available)" if res["has_more"] else ""
    title = (
        f"{res['total']} chunks like {chunk_id} · {src['citations'][0]['source_file']} · "
        f"{src['breadcrumb'] or src['document']['title']} ({res['model']}){more}"
    )
    print_table(title, RESULT_COLUMNS, _result_rows(res["results"]))


MOVED = "lore related is now lore docs related (symbols: lore graph related NAME)"


def moved_related_command(
    args: Annotated[list[str] | None, typer.Argument(help="Ignored: the command moved.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the error as JSON.")] = False,
) -> None:
    """Moved: `lore docs related CHUNK_ID` (document chunks) or `lore graph related NAME` (symbols)."""
    first = next((a for a in args or () if not a.startswith("-")), None)
    if first is not None and not first.isdigit():  # a symbol name, not a chunk id: name the command meant
        raise InvalidArgumentError(f"lore related is now lore docs related; for the symbol {first!r} run "
                                   f"`lore graph related {first}`")
    if first is not None:
        raise InvalidArgumentError(f"lore related is now lore docs related; run `lore docs related {first}` "
                                   f"(symbols: lore graph related NAME)")
    raise InvalidArgumentError(MOVED)


def register(app: typer.Typer) -> None:
    """Add the ``docs`` group, and the hidden ``related`` that says where it moved, to ``app``."""
    app.add_typer(docs_app, name="docs")
    # options of the old command (--limit 5, -n 5) are taken as they come: the answer is the same
    command(app, "related", hidden=True,
            context_settings={"ignore_unknown_options": True, "allow_extra_args": True})(moved_related_command)
