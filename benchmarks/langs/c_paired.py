"""Two lore indexes of one C/C++ project scored on the same call sites against clangd's answers (paired).

    python benchmarks/langs/c_paired.py OLD_WORK NEW_WORK PROJECT_NAME [--diff]

``OLD_WORK`` and ``NEW_WORK`` are ``--work`` folders of two runs of ``c_oracle.py`` (one per lore version): each holds
``PROJECT_NAME.db`` and ``PROJECT_NAME.answers.json``. Each index samples its own call sites, so two runs ask clangd
about different samples and their rows move by several points with no change of lore's; here every site either run
asked about is scored for both indexes (the sites both have: lore's edges inside the project against clangd's answer
inside it), with the measures of :func:`harness.score` (recall over the sites clangd answers inside the project,
strict precision over the sites lore binds inside it). ``--diff`` lists the sites whose score changed (not for
held-out projects, whose misses are not read). ``--lines`` tells two definitions of one name in one file apart (the
branches of an ``#if``: by default a qualified name stands for both).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse  # noqa: E402
import json  # noqa: E402
import sqlite3  # noqa: E402
from collections import defaultdict  # noqa: E402

from harness import innermost  # noqa: E402

from lore.store import callsites  # noqa: E402


def scored_sites(work: Path, name: str, answers: dict, *, lines: bool = False) -> dict:
    """(path, line, last callee word) -> (lore's targets inside, clangd's answer inside) for the answered sites.

    ``lines``: a target is its qualified name and first line, so two definitions of one name in one file (the
    branches of an ``#if``) are told apart; by default the qualified name alone."""
    conn = sqlite3.connect(f"file:{work / (name + '.db')}?mode=ro", uri=True)
    try:
        starts = dict(conn.execute("SELECT id, start_line FROM symbols")) if lines else {}
        inside = callsites.indexed_paths(conn)
        grouped = defaultdict(list)
        for e in callsites.call_site_edges(conn, ("c", "cpp")):
            grouped[(e.path, e.line, e.col, e.callee_name)].append(e)
        spans: dict[str, list] = {}
        out = {}
        for (path, line, col, callee), rows in grouped.items():
            kinds = (rows[0].kind, "call" if rows[0].kind == "new" else "new")  # the other run may have had the other
            ans = next((answers[k] for k in (f"{path}:{line}:{col}:{kd}:{callee}" for kd in kinds) if k in answers), None)
            if ans is None or ans["error"] or not ans["places"]:
                continue
            truth = set()
            for p, ln in ans["places"]:
                if p in inside:
                    if p not in spans:
                        spans[p] = callsites.definition_spans(conn, p)
                    sp = innermost(spans[p], ln)
                    if sp is not None:
                        truth.add((sp.qualified_name, sp.start_line) if lines else sp.qualified_name)
            lore = {(r.callee_qname, starts.get(r.callee_id)) if lines else r.callee_qname
                    for r in rows if r.callee_id is not None and r.callee_path in inside}
            out[(path, line, callee.rsplit(".", 1)[-1])] = (lore, truth)
        return out
    finally:
        conn.close()


def measures(sites: dict, keys: set) -> dict:
    answered = [k for k in keys if sites[k][1]]
    bound = [k for k in keys if sites[k][0]]
    return {"recall": round(sum(1 for k in answered if sites[k][0] & sites[k][1]) / max(1, len(answered)), 3),
            "precision_strict": round(sum(1 for k in bound if sites[k][0] == sites[k][1]) / max(1, len(bound)), 3),
            "oracle_inside": len(answered), "lore_bound": len(bound)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("project")
    parser.add_argument("--diff", action="store_true")
    parser.add_argument("--lines", action="store_true",
                        help="tell definitions apart by qualified name and first line (an #if's branches in one file)")
    args = parser.parse_args(argv)
    answers: dict = {}
    for work in (args.old, args.new):
        f = work / f"{args.project}.answers.json"
        if f.exists():
            answers.update(json.loads(f.read_text()))
    old = scored_sites(args.old, args.project, answers, lines=args.lines)
    new = scored_sites(args.new, args.project, answers, lines=args.lines)
    keys = set(old) & set(new)
    row = {"project": args.project, "paired_sites": len(keys), "old": measures(old, keys), "new": measures(new, keys)}
    print(json.dumps(row))
    if args.diff:
        for k in sorted(keys):
            (lo, to), (ln, tn) = old[k], new[k]
            if (lo == to) != (ln == tn) or bool(lo & to) != bool(ln & tn):
                print(f"  {k[0]}:{k[1]} {k[2]} | old {sorted(lo)[:2]} | new {sorted(ln)[:2]} | clangd {sorted(tn)[:2]}")
    return row


if __name__ == "__main__":
    main()
