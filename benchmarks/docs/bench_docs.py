"""Retrieval quality of lore's document side on real documentation, with a CI gate.

Corpus: the reStructuredText docs shipped in the Flask 3.0.3 sdist (BSD-3-Clause, written by the
Pallets team), fetched with ``pip download --no-binary :all: --no-deps flask==3.0.3`` and cached.
Every ``docs/**/*.rst`` except ``changes.rst``, ``license.rst`` and ``api.rst`` (generated API pages).

Ground truth, all written by the docs' authors:

search
    Each h2/h3 section heading is a query; its relevant chunks are the chunks of that section (with
    its subsections). Before indexing, the heading text is replaced by a neutral ``Section N`` and the
    ``.. _label:`` lines (often the heading as a slug) are blanked, so a query never finds its own
    words in the heading or breadcrumb: it must find the section by what the section says. Headings
    of fewer than two words, headings that occur twice, and sections without text are skipped.
get-related
    Each chunk that cross-references another document (``:doc:`` or ``:ref:`` to a label in another
    file) is a query; its relevant chunks are the referenced section's chunks (``:ref:``) or the
    referenced document's chunks (``:doc:``). Before indexing, those cross-references are cut out of
    the text (their positions kept to build the truth), so neither the target's name nor the link's
    display text is there to match; scored with the source document excluded (the default) and link
    blending off, so the links that make the ground truth are not used to rank.

Metrics: MRR (reciprocal rank of the first relevant chunk, 0 if not in the top 10) and Recall@k
capped at k: ``|relevant ∩ top-k| / min(|relevant|, k)``, averaged over queries. A random ranking of
the same candidates (seeded, 20 draws) is the baseline, measured in the same run.

Usage::

    python benchmarks/docs/bench_docs.py                 # run, print the table, exit 1 under thresholds
    python benchmarks/docs/bench_docs.py --write-thresholds   # after an improvement: raise the gate
    python benchmarks/docs/bench_docs.py --json out.json --no-minilm
    python benchmarks/docs/bench_docs.py --calibrate     # also: cosines of unrelated text (min_score defaults)

Exit codes: 0 all metrics at or above ``thresholds.json``, 1 a metric below it, 2 setup failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).absolute().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from lore.docs.chunking import _rst_structure  # noqa: E402  (structure only: where headings are)
from lore.docs.ingest import embed_missing, ingest  # noqa: E402
from lore.docs.related import related_chunks  # noqa: E402
from lore.docs.search import search_chunks  # noqa: E402
from lore.docs.vectors import vector_index  # noqa: E402
from lore.errors import EmptyGroundTruthError  # noqa: E402
from lore.store import docs as store  # noqa: E402
from lore.store.db import connect  # noqa: E402
from lore.text.embed import get_embedder, minilm_available  # noqa: E402

PACKAGE, VERSION = "flask", "3.0.3"
SKIP_FILES = {"changes.rst", "license.rst", "api.rst"}
KS = (5, 10)
THRESHOLDS = HERE / "thresholds.json"
_LABEL = re.compile(r"^\.\. _([^:`\n]+):\s*$")
_XREF = re.compile(r":(ref|doc):`(?:[^`<]*<([^>`]+)>|([^`]+))`")
_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")


# ---------------------------------------------------------------- corpus


def fetch_docs(cache: Path) -> Path:
    """The sdist's docs/ directory, downloaded once into ``cache``."""
    target = cache / f"{PACKAGE}-{VERSION}"
    if not (target / "docs").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        sdist = cache / f"{PACKAGE}-{VERSION}.tar.gz"
        if not sdist.exists():
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "--quiet",
                 f"{PACKAGE}=={VERSION}", "-d", str(cache)],
                check=True,
            )  # fmt: skip
        with tarfile.open(sdist) as tar:
            members = [m for m in tar.getmembers() if m.name.startswith(f"{PACKAGE}-{VERSION}/docs/")]
            kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(cache, members=members, **kwargs)
    return target / "docs"


def prepare(
    docs: Path, out: Path
) -> tuple[dict[str, str], dict[str, tuple[str, str | None]], list[tuple[str, int, str, str | None]]]:
    """Copy the docs with the ground truth hidden from the text that gets indexed.

    h2/h3 headings become ``Section N`` and ``.. _label:`` lines are blanked (search truth); every
    ``:ref:`` / ``:doc:`` cross-reference to another indexed document is cut out of the text, its
    position recorded (get-related truth), so neither the link target nor its display text can
    tell a ranker what the answer is. Cross-references elsewhere (intersphinx) stay as written.

    Returns ``placeholder -> heading text``, ``label -> (document path, placeholder or None)`` and
    the hidden links as ``(source path, offset in the indexed text, target path, target
    placeholder or None for the whole document)``.
    """
    headings: dict[str, str] = {}
    labels: dict[str, tuple[str, str | None]] = {}
    texts: dict[str, str] = {}
    n = 0
    for src in sorted(docs.rglob("*.rst")):
        rel = src.relative_to(docs).as_posix()
        if rel in SKIP_FILES or rel.startswith("_"):
            continue
        text = src.read_text(encoding="utf-8")
        lines = text.split("\n")
        starts = np.cumsum([0] + [len(line) + 1 for line in lines[:-1]]).tolist()
        line_of = {s: i for i, s in enumerate(starts)}
        found, _ = _rst_structure(text)
        for pos, level, _title in found:
            i = line_of[pos]
            pending = []
            while _LABEL.match(lines[i]) or not lines[i].strip():  # labels the chunker kept with the section
                if _LABEL.match(lines[i]):
                    pending.append(_LABEL.match(lines[i]).group(1).strip().lower())
                    lines[i] = ""
                i += 1
            over = bool(_ADORN.match(lines[i]))
            t = i + 1 if over else i
            placeholder = None
            if level in (2, 3):
                n += 1
                placeholder = f"Section {n}"
                headings[placeholder] = lines[t].strip()
                width = max(len(lines[t + 1].rstrip()), len(placeholder))
                lines[t] = placeholder
                lines[t + 1] = lines[t + 1][0] * width
                if over:
                    lines[i] = lines[i][0] * width
            for label in pending:
                labels[label] = (rel, placeholder)
        texts[rel] = "\n".join(lines)

    links: list[tuple[str, int, str, str | None]] = []
    paths = set(texts)
    for rel, text in texts.items():
        kept: list[str] = []
        last = size = 0
        for m in _XREF.finditer(text):
            target = (m.group(2) or m.group(3)).strip()
            if m.group(1) == "ref":
                hit = labels.get(target.lower())
            else:
                doc = _resolve_doc(rel, target, paths)
                hit = (doc, None) if doc else None
            if hit is None or hit[0] == rel:
                continue  # not a link between two indexed documents: not truth, left as written
            kept.append(text[last : m.start()])
            size += m.start() - last
            last = m.end()
            links.append((rel, size, hit[0], hit[1]))
        kept.append(text[last:])
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text("".join(kept), encoding="utf-8")
    return headings, labels, links


# ---------------------------------------------------------------- ground truth


def chunk_table(conn) -> tuple[dict[int, dict], dict[str, list[int]]]:
    chunks: dict[int, dict] = {}
    by_doc: dict[str, list[int]] = defaultdict(list)
    for path, doc_id in store.document_paths(conn).items():
        for ch in store.document_chunks(conn, doc_id):
            ch["crumbs"] = ch["breadcrumb"].split(" > ")
            chunks[ch["id"]] = ch
            by_doc[path].append(ch["id"])
    return chunks, dict(by_doc)


def search_truth(headings: dict[str, str], chunks: dict[int, dict]) -> list[tuple[str, set[int]]]:
    texts = [h for h in headings.values()]
    queries = []
    for placeholder, heading in headings.items():
        words = re.findall(r"[^\W_]+", heading)
        if len(words) < 2 or texts.count(heading) > 1:
            continue
        relevant = {cid for cid, ch in chunks.items() if placeholder in ch["crumbs"]}
        if relevant:
            queries.append((heading, relevant))
    return queries


def _resolve_doc(source: str, target: str, paths: set[str]) -> str | None:
    target = target.strip()
    base = "" if target.startswith("/") else os.path.dirname(source)
    cand = os.path.normpath(os.path.join(base, target.lstrip("/"))) + ".rst"
    return cand if cand in paths else None


def related_truth(
    chunks: dict[int, dict], by_doc: dict[str, list[int]], links: list[tuple[str, int, str, str | None]]
) -> list[tuple[int, set[int]]]:
    """Chunks that held a cross-reference -> the chunks of the section (or document) it pointed to."""
    relevant: dict[int, set[int]] = defaultdict(set)
    for source, offset, target, placeholder in links:
        if source not in by_doc or target not in by_doc:
            continue
        answer = {c for c in by_doc[target] if placeholder is None or placeholder in chunks[c]["crumbs"]}
        for cid in by_doc[source]:
            if chunks[cid]["start_char"] <= offset <= chunks[cid]["end_char"] and answer:
                relevant[cid] |= answer
    return sorted(relevant.items())


# ---------------------------------------------------------------- metrics


def score(ranked: list[int], relevant: set[int]) -> dict[str, float]:
    out = {}
    for k in KS:
        out[f"recall@{k}"] = len(relevant & set(ranked[:k])) / min(len(relevant), k)
    first = next((i for i, c in enumerate(ranked[: max(KS)]) if c in relevant), None)
    out["mrr"] = 0.0 if first is None else 1.0 / (first + 1)
    return out


def mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(float(np.mean([r[key] for r in rows])), 4) for key in rows[0]} if rows else {}


def random_baseline(
    queries: list[tuple[object, set[int]]], candidates_of, *, seed: int = 0, draws: int = 20
) -> dict[str, float]:
    rng = random.Random(seed)
    rows = []
    for q, relevant in queries:
        pool = candidates_of(q)
        for _ in range(draws):
            rows.append(score(rng.sample(pool, min(len(pool), max(KS))), relevant))
    return mean(rows)


def random_pair_cosines(
    conn, model: str, chunks: dict[int, dict], *, seed: int = 0, pairs: int = 5000
) -> dict:
    index = vector_index(conn, model)
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(index), pairs)
    b = rng.integers(0, len(index), pairs)
    docs = np.array([chunks[int(i)]["document_id"] for i in index.ids])
    keep = docs[a] != docs[b]
    cos = np.einsum("ij,ij->i", index.matrix[a[keep]], index.matrix[b[keep]])
    return {k: round(float(v), 4) for k, v in
            {"mean": cos.mean(), "p90": np.percentile(cos, 90), "p99": np.percentile(cos, 99)}.items()}  # fmt: skip


# ---------------------------------------------------------------- run


def short_name(model: str) -> str:
    return "minilm" if "minilm" in model.lower() else model.split("-")[0]


def stdlib_docstrings(limit: int = 200) -> list[str]:
    """Module docstrings of the standard library (read with ``ast``, never imported): text that has
    nothing to do with Flask, for the unrelated-pair calibration of ``min_score``."""
    import ast
    import sysconfig

    out = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        try:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        if doc and len(doc) >= 200:
            out.append(doc[:1500])
        if len(out) >= limit:
            break
    return out


def unrelated_cosines(conn, model: str, texts: list[str]) -> dict:
    """Cosine of every Flask chunk with every stdlib docstring: pairs no reader would call related."""
    from lore.text.embed import default_min_score

    index = vector_index(conn, model)
    cos = (get_embedder(model).embed(texts) @ index.matrix.T).ravel()
    return {"mean": round(float(cos.mean()), 4), "p90": round(float(np.percentile(cos, 90)), 4),
            "p99": round(float(np.percentile(cos, 99)), 4), "default_min_score": default_min_score(model),
            "share_above_default": round(float((cos >= default_min_score(model)).mean()), 4)}  # fmt: skip


def run(cache: Path, *, use_minilm: bool, calibrate: bool = False) -> dict:
    t0 = time.perf_counter()
    docs = fetch_docs(cache)
    report: dict = {
        "corpus": f"{PACKAGE} {VERSION} sdist docs/*.rst",
        "runs": {},
        "speed": {},
        "random_pairs": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "docs"
        headings, _labels, links = prepare(docs, work)
        conn = connect(Path(tmp) / ".lore" / "index.db", create=True)
        hashing = get_embedder("hashing")
        t = time.perf_counter()
        # stored paths relative to the docs root: the same paths prepare() recorded the truth under
        ingest(conn, [work], embedder=hashing, root=work, library="flask", version=VERSION, progress=False)
        n_chunks = store.count_chunks(conn)
        report["speed"][hashing.model_id] = round(n_chunks / (time.perf_counter() - t), 1)
        models = [hashing.model_id]
        if use_minilm:
            minilm = get_embedder("minilm")
            t = time.perf_counter()
            embed_missing(conn, minilm, progress=False)
            report["speed"][minilm.model_id] = round(n_chunks / (time.perf_counter() - t), 1)
            models.append(minilm.model_id)
        chunks, by_doc = chunk_table(conn)
        all_ids = sorted(chunks)
        s_queries = search_truth(headings, chunks)
        r_queries = related_truth(chunks, by_doc, links)
        if not s_queries or not r_queries:
            raise EmptyGroundTruthError(
                f"the corpus gave {len(s_queries)} search and {len(r_queries)} get-related queries; "
                "check the cached sdist under --cache"
            )
        report["size"] = {"documents": len(by_doc), "chunks": n_chunks, "search_queries": len(s_queries),
                          "related_queries": len(r_queries)}  # fmt: skip

        def run_search(mode: str, model: str | None) -> dict:
            rows = []
            for query, relevant in s_queries:
                out = search_chunks(conn, query, mode=mode, limit=max(KS), embedder=model, min_score=0.0)
                rows.append(score([r["chunk_id"] for r in out["results"]], relevant))
            return mean(rows)

        report["runs"]["search/random"] = random_baseline(s_queries, lambda q: all_ids)
        report["runs"]["search/keyword"] = run_search("keyword", None)
        for model in models:
            short = short_name(model)
            report["runs"][f"search/vector-{short}"] = run_search("vector", model)
            report["runs"][f"search/hybrid-{short}"] = run_search("hybrid", model)

        def others(cid: int) -> list[int]:
            return [c for c in all_ids if chunks[c]["document_id"] != chunks[cid]["document_id"]]

        report["runs"]["related/random"] = random_baseline(r_queries, others)
        for model in models:
            short = short_name(model)
            rows = []
            for cid, relevant in r_queries:
                out = related_chunks(
                    conn, cid, limit=max(KS), min_score=-1.0, model=model, include_linked=False
                )
                rows.append(score([r["chunk_id"] for r in out["results"]], relevant))
            report["runs"][f"related/{short}"] = mean(rows)
            report["random_pairs"][model] = random_pair_cosines(conn, model, chunks)
            if calibrate:
                report.setdefault("unrelated_pairs", {})[model] = unrelated_cosines(conn, model, stdlib_docstrings())
        conn.close()
    report["seconds"] = round(time.perf_counter() - t0, 1)
    return report


def print_table(report: dict) -> None:
    size = report["size"]
    print(f"corpus: {report['corpus']}: {size['documents']} documents, {size['chunks']} chunks; "
          f"{size['search_queries']} search queries, {size['related_queries']} get-related queries")  # fmt: skip
    print(f"{'run':<24}{'recall@5':>10}{'recall@10':>11}{'MRR':>8}")
    for name, m in report["runs"].items():
        print(f"{name:<24}{m['recall@5']:>10.3f}{m['recall@10']:>11.3f}{m['mrr']:>8.3f}")
    for model, chunks_per_s in report["speed"].items():
        print(f"embedding speed {model}: {chunks_per_s} chunks/s")
    for model, stats in report["random_pairs"].items():
        print(
            f"random-pair cosine within the corpus {model}: mean {stats['mean']}, p90 {stats['p90']}, p99 {stats['p99']}"
        )
    for model, stats in report.get("unrelated_pairs", {}).items():
        print(f"unrelated pairs (Flask chunks x stdlib docstrings) {model}: mean {stats['mean']}, p90 {stats['p90']}, "
              f"p99 {stats['p99']}; default min_score {stats['default_min_score']} keeps "
              f"{stats['share_above_default']:.1%} of them")  # fmt: skip
    print(f"total {report['seconds']} s")


def check(report: dict, thresholds: dict) -> list[str]:
    failures = []
    for name, limits in thresholds.get("runs", {}).items():
        got = report["runs"].get(name)
        if got is None:
            continue  # e.g. minilm runs without the extra
        for metric, floor in limits.items():
            if got[metric] < floor:
                failures.append(f"{name} {metric} {got[metric]:.3f} < threshold {floor:.3f}")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=ROOT / ".lore" / "bench-cache", help="download cache")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--no-minilm", action="store_true", help="skip the MiniLM runs")
    parser.add_argument(
        "--calibrate", action="store_true", help="also measure unrelated-pair cosines (the min_score defaults)"
    )
    parser.add_argument("--write-thresholds", action="store_true", help="set thresholds 0.02 below this run")
    args = parser.parse_args(argv)
    use_minilm = minilm_available() and not args.no_minilm
    try:
        report = run(args.cache, use_minilm=use_minilm, calibrate=args.calibrate)
    except (subprocess.CalledProcessError, OSError, EmptyGroundTruthError) as exc:
        print(f"benchmark setup failed: {exc}", file=sys.stderr)
        return 2
    print_table(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if args.write_thresholds:
        runs = {name: {k: max(0.0, round(v - 0.02, 2)) for k, v in m.items()}
                for name, m in report["runs"].items() if not name.endswith("/random")}  # fmt: skip
        THRESHOLDS.write_text(json.dumps({"corpus": report["corpus"], "runs": runs}, indent=2) + "\n")
        print(f"wrote {THRESHOLDS}")
        return 0
    failures = check(report, json.loads(THRESHOLDS.read_text()) if THRESHOLDS.exists() else {})
    for f in failures:
        print("REGRESSION:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
