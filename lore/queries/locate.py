"""``locate``: where to start on a bug report (long text, tracebacks included): files and functions, with reasons.

Three kinds of evidence, fused by weighted reciprocal rank (each list ranks its own rows; a row found by
several lists adds up):

* **stack frames** quoted in the text (``File "x.py", line 9, in f``, ``x.go:12``, ``(X.java:40)``),
  mapped onto the indexed symbol at that line: the strongest evidence, innermost frame first;
* **search hits**: :func:`lore.queries.search.lore_search` over the whole text (any word may match),
  for symbols and for files;
* **the graph**: the same search fused with the graph around its best hits
  (:mod:`lore.search.graphfuse`): a row linked to a strong hit rises, and a neighbour with no words of
  its own enters; each such row keeps the link that raised it (``called by X``, ``in X``).

The graph step once fused the ``related`` lists of the three best candidates: on ``lore bench
localize``'s 35 tuning instances that lost 9 to 12 points at every function-level any@k (any@10 55.9%
-> 44.1%) against the search's own graph fusion, and cost 1 to 5 s a query on a 50k-symbol index
opened read-only (the ranker's features rebuilt in every process).

Every row's ``why`` keeps the evidence (``frames``, ``search``, ``graph``) and a ``summary`` line.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import InvalidArgumentError, LoreError
from ._index import OpenIndex, one_generation
from ._shape import check_limit
from .search import lore_search

RRF_K = 60  # the usual reciprocal-rank constant: a top rank counts about twice the 60th
# A quoted stack frame is direct evidence, a search rank only a hint: frames get a small constant (the innermost
# frame counts clearly more than the next) and a weight that puts any frame above any search hit alone.
FRAME_K = 5
WEIGHTS = {"frame": 0.3, "search": 1.0, "file": 1.0}
MAX_FRAMES = 40
_EXT = r"(?:py|pyi|go|java|kt|js|jsx|ts|tsx|mjs|cjs|rs|rb|c|h|cc|cpp|hpp|cs|php|swift|scala)"
_FRAME_RES = (
    re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)'),  # Python
    re.compile(r"(?P<path>[\w.@~/\\-]+\." + _EXT + r"):(?P<line>\d+)"),  # Go, JS, Rust, C: path:line[:col]
    re.compile(r"\((?P<path>[\w.$-]+\." + _EXT + r"):(?P<line>\d+)\)"),  # Java, Kotlin: (File.java:40)
)


def frames_in(text: str) -> list[tuple[str, int]]:
    """The ``(path, line)`` places a text quotes, innermost frame first, each once.

    Python prints the innermost frame last, so its frames are reversed; other formats print it first.

    Examples
    --------
    >>> frames_in('File "/a/shop/x.py", line 3, in f\\n  File "/a/shop/y.py", line 9, in g\\nValueError')
    [('/a/shop/y.py', 9), ('/a/shop/x.py', 3)]
    >>> frames_in("panic: boom\\nmain.run()\\n\\t/src/app/main.go:12 +0x1d")
    [('/src/app/main.go', 12)]
    """
    python = [(m["path"], int(m["line"])) for m in _FRAME_RES[0].finditer(text)]
    rest = [(m["path"], int(m["line"])) for r in _FRAME_RES[1:] for m in r.finditer(text)]
    rest.sort(key=lambda f: text.find(f"{f[0]}:{f[1]}"))
    return list(dict.fromkeys(python[::-1] + rest))[:MAX_FRAMES]


def _frame_symbol(index: OpenIndex, path: str, line: int) -> int | None:
    """The indexed symbol at ``path:line``, trying the path's tails ('/home/u/shop/x.py' -> 'shop/x.py')."""
    parts = [p for p in re.split(r"[\\/]", path) if p]
    for k in range(len(parts)):
        try:
            return index.resolve_ref(f"{'/'.join(parts[k:])}:{line}")
        except LoreError:  # not this tail (or ambiguous): a shorter one may name the file
            continue
    return None


def _rrf(rank: int, weight: float, k: int = RRF_K) -> float:
    return weight / (k + rank)


@one_generation
def locate(index: OpenIndex, text: str, *, limit: int = 10, files: int = 5, include_tests: bool = False,
           graph: bool = True) -> dict:
    """Files and functions to read first for a bug report, each with its reasons.

    Parameters
    ----------
    index : Index
    text : the report: prose, error messages, stack traces (any length; frames are read from it)
    limit : maximum symbol rows (1..1000)
    files : maximum file rows (0: none)
    include_tests : keep symbols and files of test code (stack frames in tests are kept anyway)
    graph : fuse the graph around the best search hits into their ranking (:mod:`lore.search.graphfuse`)

    Returns
    -------
    dict with ``query``, ``generation``, ``total``, ``truncated``, ``results`` (symbol rows: id, name,
    qualified_name, kind, path, line, score, why) and ``files`` (path, score, why); ``why`` holds the
    evidence (``frames``, ``search``, ``graph``) and a one-line ``summary``; ``match`` (how much of the
    report's code words the index holds, :mod:`lore.search.match`) and ``weak``, a one-line note when
    that is under half: the report is probably about other code.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore.api import index_repo, open_index
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "qty.py").write_text("def check_qty(q):\\n    if q < 1:\\n        raise ValueError('bad qty')\\n")
    >>> _ = index_repo(d)
    >>> out = locate(open_index(d), 'File "/srv/app/qty.py", line 3, in check_qty\\nValueError: bad qty')
    >>> out["results"][0]["qualified_name"], out["files"][0]["path"]
    ('qty.check_qty', 'qty.py')
    >>> out["results"][0]["why"]["summary"][:40]
    'stack frame 1 (qty.py:3); search hit 1; '
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidArgumentError("locate needs the text of a bug report (an error message, a traceback, a description)")
    limit = check_limit(limit)
    n_files = check_limit(files) if files else 0
    pool = max(limit, 20)
    score: dict[int, float] = {}
    why: dict[int, dict[str, Any]] = {}
    rows: dict[int, dict] = {}

    def credit(sid: int, amount: float, key: str, evidence: Any) -> None:
        score[sid] = score.get(sid, 0.0) + amount
        why.setdefault(sid, {}).setdefault(key, []).append(evidence)

    # stack frames: innermost first
    frames = frames_in(text)
    for rank, (path, line) in enumerate(frames, 1):
        sid = _frame_symbol(index, path, line)
        if sid is not None:
            credit(sid, _rrf(rank, WEIGHTS["frame"], FRAME_K), "frames", {"frame": rank, "line": line})

    # words and the graph: the whole text as one any-term query, fused with the graph around its best hits
    hits = lore_search(index, text, any_terms=True, min_score=0.0, limit=pool, expand=0, graph=graph,
                       include_tests=include_tests)
    for rank, r in enumerate(hits["results"], 1):
        rows[r["id"]] = r
        fb = r.get("found_by") or {}
        credit(r["id"], _rrf(rank, WEIGHTS["search"]), "search", {"rank": rank, "score": r["score"]})
        if isinstance(fb.get("graph"), dict):
            link = fb["graph"]
            why[r["id"]]["graph"] = [{"seed": link["seed_qualified_name"], "edge": link["edge"],
                                      "direction": link["direction"],
                                      "text_match": any(k in fb for k in ("keyword", "vector"))}]

    missing = [s for s in score if s not in rows]
    rows.update(_heads_full(index, missing))
    ranked = sorted((s for s in score if s in rows), key=lambda s: (-score[s], s))
    if not include_tests:
        ranked = [s for s in ranked if not rows[s].get("is_test") or "frames" in why[s]]
    results = []
    for sid in ranked:
        r = rows[sid]
        w = why[sid]
        w["summary"] = _summary(w, r)
        results.append({"id": sid, "name": r.get("name"), "qualified_name": r.get("qualified_name"),
                        "kind": r.get("kind"), "path": r.get("path"), "line": r.get("line"),
                        "score": round(score[sid] * 1000, 4), "why": w})

    file_rows = _files(index, text, results, include_tests, pool) if n_files else []
    notes = {k: hits[k] for k in ("match", "weak") if k in hits}  # whether anything matched well
    return {
        "query": {"text": text if len(text) <= 200 else text[:200] + "…", "limit": limit, "files": n_files,
                  "frames": len(frames)},
        "generation": index.generation,
        "total": len(results),
        "truncated": len(results) > limit,
        "results": results[:limit],
        "files": file_rows[:n_files],
        **notes,
    }


def _summary(w: dict, row: dict) -> str:
    parts = []
    for f in w.get("frames", [])[:1]:
        parts.append(f"stack frame {f['frame']} ({row.get('path')}:{f['line']})")
    for s in w.get("search", [])[:1]:
        parts.append(f"search hit {s['rank']}")
    for g in w.get("graph", [])[:1]:
        parts.append(f"{_LINK.get((g['edge'], g['direction']), g['edge'])} {'.'.join(g['seed'].split('.')[-2:])}")
    return "; ".join(parts)


# how a graph-raised row relates to the hit that raised it (the vote's edge seen from the hit)
_LINK = {("calls", "out"): "called by", ("calls", "in"): "calls", ("contains", "out"): "in",
         ("contains", "in"): "holds", ("overrides", "out"): "overridden by", ("overrides", "in"): "overrides",
         ("extends", "out"): "base of", ("extends", "in"): "extends", ("implements", "out"): "implemented by",
         ("implements", "in"): "implements", ("embeds", "out"): "embedded in", ("embeds", "in"): "embeds"}


def _heads_full(index: OpenIndex, ids: list[int]) -> dict[int, dict]:
    from ..store import read
    from ._shape import symbol_dict

    return {sid: symbol_dict(row) for sid, row in read.symbols_by_ids(index.conn, ids).items()}


def _files(index: OpenIndex, text: str, results: list[dict], include_tests: bool, pool: int) -> list[dict]:
    """Files ranked by their best symbol's fused score plus the file search's own rank (a sum over symbols
    would favour big files)."""
    score: dict[str, float] = {}
    why: dict[str, dict[str, Any]] = {}
    for r in results:
        if not r["path"]:
            continue
        score[r["path"]] = max(score.get(r["path"], 0.0), r["score"] / 1000)
        why.setdefault(r["path"], {}).setdefault("symbols", []).append(r["qualified_name"])
    found = lore_search(index, text, files=True, any_terms=True, min_score=0.0, limit=pool,
                        include_tests=include_tests)
    for rank, r in enumerate(found["results"], 1):
        score[r["path"]] = score.get(r["path"], 0.0) + _rrf(rank, WEIGHTS["file"])
        why.setdefault(r["path"], {})["search"] = {"rank": rank, "score": r["score"]}
    out = []
    for path in sorted(score, key=lambda p: (-score[p], p)):
        w = why[path]
        parts = []
        if w.get("symbols"):
            names = ", ".join(list(dict.fromkeys(q.split(".")[-1] for q in w["symbols"]))[:3])  # two `send`s: once
            parts.append(f"holds {names}")
        if "search" in w:
            parts.append(f"file search hit {w['search']['rank']}")
        w["summary"] = "; ".join(parts)
        out.append({"path": path, "score": round(score[path] * 1000, 4), "why": w})
    return out
