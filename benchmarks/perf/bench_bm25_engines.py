"""Which BM25 engine for lore's search: SQLite FTS5 ``bm25()``, bm25s or rank-bm25, on 100k short documents.

The documents are real symbols: the name, qualified name, signature, docstring and path of every
symbol of a lore index (default: the Django 5.1.4 sdist, indexed into a temporary file), as lore
stores them (camelCase / snake_case split), repeated with a copy tag until there are ``--docs`` of
them. Queries are seeded: ``--words`` words drawn from one document's text, so every query has at
least one document holding all its words. Every engine gets the same token lists and returns its
top 10; the time is CPU time per query (``time.process_time``, one thread), warm.

Engines:

* FTS5, all words required (``"a" AND "b" AND "c"``, lore's default) and any word (``OR``), ranked
  by ``bm25()`` in SQLite, on disk, updated row by row by the indexer;
* bm25s (eager sparse scores in a scipy matrix held in memory; rebuilt whole when documents change);
* rank-bm25 ``BM25Okapi`` (a Python loop over every document per query), on fewer queries.

bm25s and rank-bm25 are not lore dependencies: ``pip install bm25s rank-bm25`` to run this.

Usage::

    python benchmarks/perf/bench_bm25_engines.py                   # Django, 100k documents
    python benchmarks/perf/bench_bm25_engines.py --db some/index.db --docs 100000 --queries 300
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lore.store.search import fts_rows

COLUMNS = ("name", "qualified_name", "signature", "docstring", "path")


def load_documents(db: Path, n_docs: int) -> list[list[str]]:
    """Token lists of ``n_docs`` short documents made of the index's symbols (copies tagged ``copyN``)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = [r[1:6] for r in fts_rows(conn)]  # the columns of COLUMNS (the search tables keep no text)
    finally:
        conn.close()
    base = [" ".join(r).split() for r in rows]
    docs: list[list[str]] = []
    copy = 0
    while len(docs) < n_docs:
        tag = [f"copy{copy}"] if copy else []
        docs.extend(toks + tag for toks in base[: n_docs - len(docs)])
        copy += 1
    return docs


def make_queries(docs: list[list[str]], n: int, words: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < n:
        toks = sorted({t for t in rng.choice(docs) if len(t) > 2 and not t.startswith("copy")})
        if len(toks) >= words:
            out.append(rng.sample(toks, words))
    return out


def timed(fn, queries: list[list[str]]) -> tuple[float, float, float]:
    """(p50 ms, p90 ms, mean hits) of CPU time per query."""
    times, hits = [], []
    for q in queries:
        t = time.process_time()
        got = fn(q)
        times.append((time.process_time() - t) * 1000)
        hits.append(len(got))
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], statistics.mean(hits)


def fts5_engine(docs: list[list[str]], workdir: Path):
    conn = sqlite3.connect(workdir / "fts.db")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    t = time.process_time()
    with conn:
        conn.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)", ((i, " ".join(d)) for i, d in enumerate(docs)))
    build = time.process_time() - t

    def search(q: list[str], op: str) -> list[int]:
        expr = f" {op} ".join(f'"{w}"' for w in q)
        return [r[0] for r in conn.execute(
            "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t), rowid LIMIT 10", (expr,))]

    search(["warm", "up"], "OR")
    return build, (lambda q: search(q, "AND")), (lambda q: search(q, "OR")), conn


def bm25s_engine(docs: list[list[str]]):
    import bm25s

    t = time.process_time()
    retriever = bm25s.BM25()
    retriever.index(docs, show_progress=False)
    build = time.process_time() - t

    def search(q: list[str]) -> list[int]:
        res, _scores = retriever.retrieve([q], k=10, show_progress=False, n_threads=0)
        return list(res[0])

    return build, search


def rank_bm25_engine(docs: list[list[str]]):
    import numpy as np
    from rank_bm25 import BM25Okapi

    t = time.process_time()
    bm = BM25Okapi(docs)
    build = time.process_time() - t

    def search(q: list[str]) -> list[int]:
        scores = bm.get_scores(q)
        top = np.argpartition(-scores, 10)[:10]
        return [int(i) for i in top[np.argsort(-scores[top], kind="stable")] if scores[i] > 0]

    return build, search


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, help="a lore index to take the symbols from (default: index Django)")
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--rank-bm25-queries", type=int, default=20, help="rank-bm25 is slow: fewer queries")
    ap.add_argument("--words", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        db = args.db
        if db is None:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from bench_index import fetch_django

            from lore import index_repo

            source = fetch_django(Path.home() / ".cache" / "lore-bench")
            corpus = work / "corpus"
            shutil.copytree(source, corpus, symlinks=True)
            db = work / "index.db"
            index_repo(corpus, db=db)
        docs = load_documents(db, args.docs)
        queries = make_queries(docs, args.queries, args.words, args.seed)
        mean_len = statistics.mean(len(d) for d in docs)
        rows: list[tuple[str, float, float, float, float]] = []
        build, fts_and, fts_or, conn = fts5_engine(docs, work)
        rows.append(("FTS5 bm25(), all words (AND)", *timed(fts_and, queries), build))
        rows.append(("FTS5 bm25(), any word (OR)", *timed(fts_or, queries), build))
        conn.close()
        try:
            build, search = bm25s_engine(docs)
            rows.append(("bm25s (scipy sparse, in memory)", *timed(search, queries), build))
        except ImportError:
            rows.append(("bm25s: not installed (pip install bm25s)", float("nan"), float("nan"), 0.0, 0.0))
        try:
            build, search = rank_bm25_engine(docs)
            rows.append((f"rank-bm25 BM25Okapi ({args.rank_bm25_queries} queries)",
                         *timed(search, queries[: args.rank_bm25_queries]), build))
        except ImportError:
            rows.append(("rank-bm25: not installed (pip install rank-bm25)", float("nan"), float("nan"), 0.0, 0.0))
    print(f"{len(docs)} documents (symbols of {args.db or 'Django 5.1.4'}, {mean_len:.1f} tokens each), "
          f"{len(queries)} queries of {args.words} words, seed {args.seed}; CPU time per query")
    print()
    print(f"| {'engine':<44} | {'p50 ms':>7} | {'p90 ms':>7} | {'hits':>5} | {'build s':>7} |")
    print(f"|{'-' * 46}|{'-' * 9}|{'-' * 9}|{'-' * 7}|{'-' * 9}|")
    for name, p50, p90, hits, build in rows:
        print(f"| {name:<44} | {p50:7.2f} | {p90:7.2f} | {hits:5.1f} | {build:7.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
