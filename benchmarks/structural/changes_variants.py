"""Variants of the ``changes`` ranker's history, each scored held out on the co-change corpora (issue 36).

    python benchmarks/structural/changes_variants.py --dump blocks.pkl --workdir DIR \
        --repo requests=PATH --repo httpx=PATH --repo flask=PATH            # index, split, save the blocks
    python benchmarks/structural/changes_variants.py --blocks blocks.pkl    # every variant
    python benchmarks/structural/changes_variants.py --blocks blocks.pkl --variants base,cap

Every number is held out as in ``loo.py``: each co-change corpus is scored with weights fit (coordinate
ascent, :func:`lore.bench.fit.fit_weights`'s procedure) on the other two, and whatever a variant chooses
besides the weights (a cap, a penalty's weights) is chosen on those two as well. Per corpus: Recall@10 on
every pair changed together after the cut, with history and with the same weights and the history
columns at 0, its gain over same-file [95% paired bootstrap]; then the pairs new after the cut, with
history against without [95% interval of the difference]. ``base`` reproduces loo.py's ``changes`` rows
from the same blocks.

The variants (docs/ranking.md, "changes: four designs"):

* ``size``: a pair's commit counts ``1 / (k - 1)`` for a commit changing ``k`` symbols (history columns
  recomputed from the mined commits' symbol lists; the candidates stay);
* ``recency``: every commit weighs ``0.5 ** (years before the newest commit mined)``;
* ``propagate``: two columns for the candidates history never saw with the seed: the seed's co-change
  partners' call neighbours (``sum_p co(seed, p) [p calls or is called by c] / commits(seed)``, saturating)
  and the seed's call neighbours' co-change confidence towards the candidate (mean over the neighbours);
* ``walk``: a personalised walk (restart 0.3, four steps) over the co-change graph and the call graph, each
  row-normalised, mixed half and half; max-normalised over the candidates; for unseen candidates and for all;
* ``cap``: at most ``m`` of the seed's known partners in the top 10 (the rest after every other
  candidate), ``m`` in 0, 1, 2, 3, 5 chosen on the training corpora: the best all-pairs objective among the
  ``m`` that lose no new-pair recall there;
* ``slots``: history reorders only the seed's known partners, among the places the history-off list gives
  partners (every other candidate keeps its history-off place, so no new pair loses one);
* ``penalty``: the history weights re-ascended on the all-pairs objective minus 4 x each training corpus's
  new-pair shortfall against its history-off list (``penalty:LAM`` for another factor);
  ``propagate+penalty`` and ``walk+penalty`` both.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from lore.algorithms import _ltr as ltr  # noqa: E402
from lore.bench import fit as ft  # noqa: E402
from lore.graphs import hybrid as hy  # noqa: E402

CO = ("requests", "httpx", "flask")
S = list(hy.SIGNALS)
HIST = list(hy.HISTORY_SIGNALS)
HOLD = ("history_reach", "history_file")  # as shipped (lore.bench.fit.HOLD_ZERO["changes"])
YEAR = 365 * 86_400
VARIANTS = ("base", "size", "recency", "propagate", "walk", "cap", "slots", "penalty", "propagate+penalty", "walk+penalty")


# ---------------------------------------------------------------- the blocks

def dump(path: Path, workdir: Path, repos: dict[str, str]) -> None:
    """Index and split each co-change corpus as loo.py does; save its blocks, the graph's calls, the
    co-change matrix and the mined commits' symbol lists (for the weighting variants)."""
    from lore.api import open_index
    from lore.bench import loo
    from lore.bench.corpora import COCHANGE
    from lore.index import history as hist

    captured: list[tuple[int, list[int]]] = []
    mapped = hist.touched_symbols

    def spy(commits, spans, **kw):  # the commits the miner counts, with their symbol ids
        for c, ids in mapped(commits, spans, **kw):
            if ids is not None and 0 < len(ids) <= hist.MAX_SYMBOLS and ids[-1] >= 0:
                captured.append((c.time, [i for i in ids if i >= 0]))
            yield c, ids

    out: dict = {}
    for n in CO:
        c = loo.load_corpus(n, workdir, repos=repos)
        captured.clear()
        hist.touched_symbols = spy
        try:
            hist.refresh_history(workdir / f"{n}.db", repos[n], until=COCHANGE[n].cut, force=True)
        finally:
            hist.touched_symbols = mapped
        with open_index(workdir / f"{n}.db") as idx:
            ids = np.asarray(idx.graph().nodes.ids)
        feats = ft.features(c.suite)
        g = c.suite.g

        def same_file(suite):
            return ft.per_query(suite, ft.baseline_rankers(suite, ft.features(suite))["same_file"])

        out[n] = {"blocks": c.blocks, "same_file": same_file(c.suite), "sources": np.asarray(c.suite.sources),
                  "changes": np.asarray(feats.changes, float), "co_change": feats.co_change.to_scipy().tocsr(),
                  "calls": g.arrays("calls").to_scipy().tocsr(), "ids": ids, "commits": list(captured)}
        assert c.new is not None
        out[f"{n}:new"] = {"blocks": c.new[1], "same_file": same_file(c.new[0]), "sources": np.asarray(c.new[0].sources)}
        print(n, len(c.suite.sources), "queries,", len(captured), "commits", flush=True)
        c.suite.idx.close()
    path.write_bytes(pickle.dumps(out))


# ---------------------------------------------------------------- fitting and scoring

def _with(b: ltr.Blocks, x: np.ndarray) -> ltr.Blocks:
    return ltr.Blocks(b.query, b.rows, x, b.relevant, b.n_relevant, b.query_weight)


def _zero(b: ltr.Blocks, cols: list[int]) -> ltr.Blocks:
    x = b.x.copy()
    x[:, cols] = 0.0
    return _with(b, x)


def _recall(b: ltr.Blocks, s: np.ndarray) -> np.ndarray:
    return ltr._metrics_from_scores(b, s, 10)["recall@10"]


def _fit(train: list[ltr.Blocks], names: list[str]) -> np.ndarray:
    """fit_weights' procedure over any columns: both visiting orders, the better kept."""
    w0 = np.zeros(len(names))
    for s, v in ft.INIT.items():
        w0[names.index(s)] = v
    fixed = (names.index("structure"), *[names.index(h) for h in HOLD])
    b = ft.group_blocks(train, None)
    order = tuple(range(len(names)))
    w, o, _ = ltr.coordinate_ascent(b, w0, fixed=fixed, order=order)
    w2, o2, _ = ltr.coordinate_ascent(b, w0, fixed=fixed, order=order[::-1])
    return w2 if o2 > o + 1e-12 else w


Score = Callable[[ltr.Blocks, np.ndarray], np.ndarray]
Stage2 = Callable[[np.ndarray, list[ltr.Blocks], list[ltr.Blocks], list[str], list[int]], tuple[np.ndarray, Score | None, dict]]


def evaluate(data: dict, label: str, extra: dict | None = None, names_extra: tuple[str, ...] = (),
             stage2: Stage2 | None = None) -> dict:
    """Held-out rows of one variant (``extra``: key -> columns appended, counted as history)."""
    names = S + list(names_extra)
    hist_cols = [names.index(h) for h in HIST + list(names_extra)]
    blocks = {k: (_with(d["blocks"], np.hstack([d["blocks"].x, extra[k]])) if extra else d["blocks"])
              for k, d in data.items()}
    res: dict = {"variant": label}
    for held in CO:
        train = [n for n in CO if n != held]
        ta, tn = [blocks[n] for n in train], [blocks[f"{n}:new"] for n in train]
        w = _fit(ta, names)
        score: Score | None = None
        info: dict = {}
        if stage2 is not None:
            w, score, info = stage2(w, ta, tn, names, hist_cols)
        for key in (held, f"{held}:new"):
            b = blocks[key]
            on = _recall(b, score(b, w) if score else b.x @ w)
            off = _recall(_zero(b, hist_cols), _zero(b, hist_cols).x @ w)
            sf = data[key]["same_file"]["recall@10"]
            d_sf = ft.paired_bootstrap(on, sf)
            d_off = ft.paired_bootstrap(on, off)
            res[key] = {"on": round(float(on.mean()), 3), "off": round(float(off.mean()), 3),
                        "same_file": round(float(sf.mean()), 3), "gain": round(float(on.mean() / sf.mean() - 1), 3),
                        "vs same_file": [round(v, 3) for v in d_sf], "on - off": [round(v, 3) for v in d_off]}
        res[f"{held} weights"] = {**{n: float(v) for n, v in zip(names, w, strict=True)
                                     if v and (n in HIST or n in names_extra)}, **info}
    res["met"] = {"+20% over same-file": all(res[h]["gain"] >= 0.2 for h in CO),
                  "new pairs not below history off": all(res[f"{h}:new"]["on"] >= res[f"{h}:new"]["off"] for h in CO)}
    return res


def show(res: dict) -> None:
    print(f"== {res['variant']}: {json.dumps(res['met'])}", flush=True)
    for h in CO:
        a, nw = res[h], res[f"{h}:new"]
        print(f"  {h:9s} all {a['on']:.3f} (off {a['off']:.3f}, same-file {a['same_file']:.3f}, {a['gain']:+.1%} "
              f"{a['vs same_file']}) | new {nw['on']:.3f} vs off {nw['off']:.3f} {nw['on - off']} | "
              f"{res[f'{h} weights']}", flush=True)


# ---------------------------------------------------------------- the variants

def _lookup(m, s: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.asarray(m[np.array(s, copy=True), np.array(c, copy=True)]).ravel()


def _seeds(data: dict, key: str) -> np.ndarray:
    return data[key]["sources"][data[key]["blocks"].query]


def reweighted(data: dict, weight: Callable[[int, int, int], tuple[float, float]]) -> dict:
    """The blocks with history / history_count / history_agrees / churn recomputed from the mined commits,
    each commit weighing ``weight(time, k symbols, newest time) -> (for a symbol's count, for a pair's)``."""
    import scipy.sparse as sp

    at = {s: S.index(s) for s in ("history", "history_count", "history_agrees", "churn")}
    out = {}
    for n in CO:
        ids = data[n]["ids"]
        newest = max(t for t, _ in data[n]["commits"])
        rows, cols, vals = [], [], []
        changes = np.zeros(len(ids))
        for t, syms in data[n]["commits"]:
            pos = np.searchsorted(ids, syms)
            r = np.unique(pos[(pos < len(ids)) & (ids[np.minimum(pos, len(ids) - 1)] == np.asarray(syms))])
            w_one, w_pair = weight(t, len(r), newest)
            changes[r] += w_one
            if len(r) > 1:
                a, b = np.meshgrid(r, r)
                off = a != b
                rows.append(a[off])
                cols.append(b[off])
                vals.append(np.full(int(off.sum()), w_pair))
        co = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(len(ids),) * 2)
        for key in (n, f"{n}:new"):
            b = data[key]["blocks"]
            s = _seeds(data, key)
            together = _lookup(co, s, b.rows)
            x = b.x.copy()
            agree = np.where(x[:, at["history"]] > 0, x[:, at["history_agrees"]] / np.maximum(x[:, at["history"]], 1e-12), 0.0)
            x[:, at["history"]] = np.where(changes[s] > 0, together / np.maximum(changes[s], 1e-12), 0.0)
            x[:, at["history_count"]] = 1 - 1 / (1 + together)
            x[:, at["history_agrees"]] = x[:, at["history"]] * agree
            x[:, at["churn"]] = 1 - 1 / (1 + changes[b.rows] / hy.CHURN_SCALE)
            out[key] = {**data[key], "blocks": _with(b, x)}
    return out


def _graphs(d: dict) -> dict:
    import scipy.sparse as sp

    if "_g" not in d:
        co = d["co_change"].astype(float)
        n = co.shape[0]
        calls = d["calls"][:n, :n]
        adj = ((calls + calls.T) > 0).astype(float).tocsr()
        adj.setdiag(0)
        adj.eliminate_zeros()
        inv = sp.diags(1.0 / np.maximum(d["changes"][:n], 1.0))

        def rows_normalised(m):
            return (sp.diags(1.0 / np.maximum(np.asarray(m.sum(axis=1)).ravel(), 1e-12)) @ m).tocsr()

        d["_g"] = {"co": co, "adj": adj, "partner_calls": (co @ adj).tocsr(), "neighbour_partners": (adj @ (inv @ co)).tocsr(),
                   "walk": (0.5 * rows_normalised(co) + 0.5 * rows_normalised(adj)).T.tocsr()}
    return d["_g"]


def propagate_columns(data: dict, key: str) -> np.ndarray:
    g = _graphs(data[key.split(":")[0]])
    b = data[key]["blocks"]
    s = _seeds(data, key)
    unseen = (_lookup(g["co"], s, b.rows) <= 0).astype(float)
    p1 = _lookup(g["partner_calls"], s, b.rows) / np.maximum(data[key.split(":")[0]]["changes"][s], 1.0)
    degree = np.maximum(np.asarray(g["adj"].sum(axis=1)).ravel()[s], 1.0)
    p2 = _lookup(g["neighbour_partners"], s, b.rows) / degree
    return np.column_stack([p1 / (1 + p1) * unseen, np.minimum(p2, 1.0) * unseen])


def walk_columns(data: dict, key: str, *, restart: float = 0.3, steps: int = 4) -> np.ndarray:
    g = _graphs(data[key.split(":")[0]])
    b = data[key]["blocks"]
    s = _seeds(data, key)
    out = np.zeros(len(b.rows))
    for seed in np.unique(s):
        sel = s == seed
        e = np.zeros(g["walk"].shape[0])
        e[seed] = 1.0
        p = e.copy()
        for _ in range(steps):
            p = restart * e + (1 - restart) * (g["walk"] @ p)
        v = p[b.rows[sel]]
        out[sel] = v / v.max() if v.max() > 0 else 0.0
    unseen = (_lookup(g["co"], s, b.rows) <= 0).astype(float)
    return np.column_stack([out * unseen, out])


def cap_score(m: int) -> Score:
    """At most ``m`` known partners (history_count > 0) in the top 10: the others after every other candidate."""
    known_col = S.index("history_count")

    def score(b: ltr.Blocks, w: np.ndarray) -> np.ndarray:
        s = b.x @ w
        known = b.x[:, known_col] > 0
        order = np.lexsort((b.rows, -s, b.query))
        k = known[order].astype(np.int64)
        q = b.query[order]
        running = np.cumsum(k)
        before = np.concatenate([[0], running])[np.searchsorted(q, np.arange(b.n_queries))][q]
        drop = np.zeros(len(s), bool)
        drop[order] = (k == 1) & (running - before > m)
        return np.where(drop, s - 1e6, s)
    return score


def slot_score(hist_cols: list[int]) -> Score:
    """History reorders the seed's known partners (history_count > 0) among the places the same weights with
    history off give partners; every other candidate keeps its history-off place."""
    known_col = S.index("history_count")

    def score(b: ltr.Blocks, w: np.ndarray) -> np.ndarray:
        on = b.x @ w
        off = _zero(b, hist_cols).x @ w
        order = np.lexsort((b.rows, -off, b.query))
        known = b.x[:, known_col] > 0
        places = order[known[order]]  # candidates holding the partners' places, in history-off order
        kidx = np.flatnonzero(known)
        by_on = kidx[np.lexsort((b.rows[kidx], -on[kidx], b.query[kidx]))]  # the partners by the full score
        final = order.copy()
        final[known[order]] = by_on  # same query order on both sides: queries ascend in each
        assert np.array_equal(b.query[places], b.query[by_on])
        out = np.empty(len(final))
        out[final] = -np.arange(len(final), dtype=float)
        return out
    return score


def slots(w, ta, tn, names, hist_cols):
    return w, slot_score(hist_cols), {}


def capped(w, ta, tn, names, hist_cols):
    ball = ft.group_blocks(ta, None)
    best = None
    for m in (0, 1, 2, 3, 5):
        score = cap_score(m)
        objective = ltr.objective(ball, w, scores=score(ball, w))
        ok = all(_recall(b, score(b, w)).mean() >= _recall(_zero(b, hist_cols), _zero(b, hist_cols).x @ w).mean() for b in tn)
        if best is None or (ok, objective) > best[0]:
            best = ((ok, objective), m)
    return w, cap_score(best[1]), {"m": best[1]}


def penalised(w, ta, tn, names, hist_cols, *, lam: float = 4.0):
    """4c: the history weights re-ascended against the training corpora's new-pair shortfall, by the
    library's own procedure (what loo.py ships for ``changes``), over this variant's columns."""
    free = tuple(j for j in hist_cols if names[j] not in HOLD)
    w, _ = ft.ascend_against_new_pair_loss(ft.group_blocks(ta, None), tn, w, free=free, history=tuple(hist_cols),
                                           penalty=lam)
    return w, None, {"lam": lam}


def run(data: dict, variants: tuple[str, ...]) -> list[dict]:
    out = []
    for v in variants:
        if v == "base":
            res = evaluate(data, "base: the shipped method")
        elif v == "size":
            res = evaluate(reweighted(data, lambda t, k, newest: (1.0, 1.0 / max(k - 1, 1))),
                           "size: a pair's commit counts 1/(k-1)")
        elif v == "recency":
            res = evaluate(reweighted(data, lambda t, k, newest: (0.5 ** ((newest - t) / YEAR),) * 2),
                           "recency: half-life one year")
        elif v == "propagate":
            res = evaluate(data, "propagate: partners' call neighbours, call neighbours' partners",
                           {k: propagate_columns(data, k) for k in data}, ("partner_calls", "neighbour_partners"))
        elif v == "walk":
            res = evaluate(data, "walk: personalised walk over co-change + calls",
                           {k: walk_columns(data, k) for k in data}, ("walk_unseen", "walk_all"))
        elif v == "cap":
            res = evaluate(data, "cap: at most m known partners in the top 10", stage2=capped)
        elif v == "slots":
            res = evaluate(data, "slots: history reorders the known partners in their history-off places", stage2=slots)
        elif v.startswith("penalty"):  # penalty or penalty:LAM
            lam = float(v.split(":", 1)[1]) if ":" in v else 4.0
            res = evaluate(data, f"penalty: history weights fit against new-pair loss (x {lam:g})",
                           stage2=lambda *a, lam=lam: penalised(*a, lam=lam))
        elif v == "walk+penalty":
            res = evaluate(data, "walk, then the history weights fit against new-pair loss (x 4)",
                           {k: walk_columns(data, k) for k in data}, ("walk_unseen", "walk_all"), stage2=penalised)
        elif v == "propagate+penalty":
            res = evaluate(data, "propagate, then the history weights fit against new-pair loss (x 4)",
                           {k: propagate_columns(data, k) for k in data}, ("partner_calls", "neighbour_partners"),
                           stage2=penalised)
        else:
            raise SystemExit(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")
        show(res)
        out.append(res)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dump", type=Path, help="index the co-change corpora and save their blocks here")
    ap.add_argument("--workdir", type=Path, help="with --dump: keep the indexes here")
    ap.add_argument("--repo", action="append", default=[], help="name=PATH of a co-change checkout")
    ap.add_argument("--blocks", type=Path, help="score the variants on blocks saved by --dump")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.dump:
        if args.workdir is None:
            ap.error("--dump needs --workdir")
        args.workdir.mkdir(parents=True, exist_ok=True)
        dump(args.dump, args.workdir, dict(r.split("=", 1) for r in args.repo))
        return 0
    if args.blocks is None:
        ap.error("give --dump or --blocks")
    data = pickle.loads(args.blocks.read_bytes())
    results = run(data, tuple(v.strip() for v in args.variants.split(",") if v.strip()))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
