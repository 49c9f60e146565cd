"""The hybrid ranker's rows and ``why``, built in one batched pass, equal a straightforward reference.

The reference explains each row signal by signal with plain per-row lookups (one gather per row and
matrix, names from one store query per row) and renders every text on its own, as the ranker did
before its explanation was batched; the answer must be the same, byte for byte.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from lore import lore_graph
from lore.algorithms import _signals as sig
from lore.graphs import hybrid as hy
from lore.graphs import related as rel
from lore.graphs._features import load_features
from lore.graphs._fold import fold_for
from lore.languages import LANGUAGES
from lore.queries._shape import symbol_dict
from lore.queries.related import hybrid_params
from lore.store import read
from lore.text.tokens import STOP_WORDS, split_identifier

N_PACKAGES = 3
N_MODULES = 4


def _module(p: int, i: int) -> str:
    prev = (i - 1) % N_MODULES
    return f'''
"""Storage backend {i} of package {p}."""
import functools

from pkg{p}.base import Backend, Record, cached_value, helper_lookup
from pkg{p}.mod{prev} import Store{prev}


class Store{i}(Backend):
    """Keep records in memory slot {i}."""

    def get_record(self, key: str, default: Record = None) -> Record:
        """Return the record stored under key, or default."""
        helper_lookup(key)
        return self.load_record(key) or default

    def load_record(self, key: str) -> Record:
        """Load one record from slot {i}."""
        return cached_value(key)

    @functools.lru_cache
    def set_record(self, key: str, value: Record, timeout: int = 0) -> None:
        """Store value under key with a timeout."""
        Store{prev}().load_record(key)


@functools.lru_cache
def make_store{i}(name: str, timeout: int = 0) -> Store{i}:
    """Build store {i} and warm its cache."""
    store = Store{i}()
    store.get_record(name)
    return store


def clear_store{i}(store: Store{i}) -> None:
    """Forget every record of the store."""
    helper_lookup(None)
'''


@pytest.fixture(scope="module")
def words_index(tmp_path_factory):
    """Packages of storage backends: docstrings, decorators, parameters, overrides, several directories."""
    from lore import index_repo, open_index

    from ..conftest import write_tree

    files: dict[str, str] = {}
    for p in range(N_PACKAGES):
        files[f"pkg{p}/__init__.py"] = ""
        files[f"pkg{p}/base.py"] = '''
"""Shared backend pieces."""


class Record:
    """One stored record."""


class Backend:
    """The interface every store implements."""

    def get_record(self, key: str, default: Record = None) -> Record:
        """Return the record stored under key."""
        raise NotImplementedError

    def set_record(self, key: str, value: Record, timeout: int = 0) -> None:
        """Store a record."""
        raise NotImplementedError


def cached_value(key: str) -> Record:
    """Look the key up in the process cache."""
    return helper_lookup(key)


def helper_lookup(key: str) -> Record:
    """Find a record by key."""
    return Record()
'''
        files.update({f"pkg{p}/mod{i}.py": _module(p, i) for i in range(N_MODULES)})
    root = write_tree(tmp_path_factory.mktemp("words"), files)
    index_repo(root, workers=1)
    idx = open_index(root)
    yield idx
    idx.close()


def _row_shared(m, seed: int, row: int) -> np.ndarray:
    """The columns of ``row`` that the seed's row stores too, in the row's order (one row at a time)."""
    seed_cols = set(m.indices[m.indptr[seed]:m.indptr[seed + 1]].tolist())
    cols = m.indices[m.indptr[row]:m.indptr[row + 1]]
    return np.array([c for c in cols.tolist() if c in seed_cols], dtype=np.int64)


def _builtin(idx, g, row: int) -> bool:
    """An external under a language's builtin prefix (``builtins.str``), looked up on its own."""
    sid = g.nodes.id(row)
    got = read.symbols_by_ids(idx.conn, [sid]).get(sid)
    prefixes = {lang.rules.builtin_prefix for lang in LANGUAGES}
    return got is not None and got.kind == "external" and any(got.qualified_name.startswith(p + ".") for p in prefixes)


def _reference_explain(idx, g, f, s) -> list[list[dict]]:
    """hybrid.explain as it was: every signal of every row on its own, no sharing between rows."""
    out = []
    contrib = s.x * s.weights[None, :]
    for i, row in enumerate(s.rows.tolist()):
        items = []
        for j in np.lexsort((np.arange(len(hy.SIGNALS)), -np.abs(contrib[i]))):
            c = float(contrib[i, j])
            if c == 0.0:
                continue
            name = hy.SIGNALS[j]
            detail: dict = {}
            if name in ("structure", "structure_abs"):
                for label, m, t, closed in hy._STRUCT_RELS:
                    cols = _row_shared(g.presence(m, transpose=t, closed=closed), s.seed, row)
                    cols = np.array([c for c in cols.tolist() if c != s.seed and not _builtin(idx, g, c)], np.int64)
                    if cols.size:
                        detail[label] = {"count": int(cols.size), "rows": [int(r) for r in cols[:2]]}
            elif name in ("line_near", "line_rank", "adjacent"):
                detail["lines_apart"] = int(abs(f.line[row] - f.line[s.seed]))
                if name == "line_rank":
                    detail["nearest"] = int(round(1.0 / float(s.x[i, j])))
            elif name in ("name_tokens", "text", "text_abs", "decorators", "params"):
                m, vocab = {"name_tokens": (f.name_tokens, f.name_vocab), "text": (f.text_terms, f.vocab),
                            "text_abs": (f.text_terms, f.vocab), "decorators": (f.decorators, f.decorator_vocab),
                            "params": (f.params, f.param_vocab)}[name]
                m = m.whole() if hasattr(m, "whole") else m  # the whole weighted matrix (the query weighs rows read)
                cols = _row_shared(m, s.seed, row)
                if name in ("text", "text_abs"):  # fewest documents first
                    rarity = [-(f.text_bm25.indptr[c + 1] - f.text_bm25.indptr[c]) for c in cols.tolist()]
                else:  # the seed's idf weight, largest first
                    m = m.to_scipy() if hasattr(m, "to_scipy") else m  # saved arrays, as a new process reads them
                    rarity = [float(m[s.seed, c]) for c in cols.tolist()]
                order = np.lexsort((np.array([vocab[c_] for c_ in cols.tolist()], dtype=object), -np.array(rarity)))
                words = [vocab[int(cols[k])] for k in order]
                if name in ("name_tokens", "text", "text_abs"):  # words that say something
                    words = [w for w in words if len(w) > 1 and not w.isdigit() and w not in STOP_WORDS]
                detail["words"] = words[:3]
            elif name == "same_arity":
                detail["parameters"] = int(f.arity[row])
            elif name in ("history", "history_count") and f.co_change is not None and f.changes is not None:
                detail["together"] = int(round(float(f.co_change[s.seed, row])))
                detail["commits"] = int(f.changes[s.seed])
            items.append({"signal": name, "family": hy.FAMILIES[name], "value": round(float(s.x[i, j]), 4),
                          "contribution": round(c, 4), "detail": detail})
        out.append(items)
    return out


def _reference_rows(idx, seed_id: int, limit: int, weights: dict | None) -> list[dict]:
    """The rows of ``related`` (hybrid) built one by one: a store query per row and name."""
    g = idx.graph()
    w, params = hybrid_params(weights)
    srows = g.nodes.rows([seed_id])
    mask = rel.excluded_mask(g, srows, include_tests=False, kinds=None, fold=fold_for(idx.conn, g))
    feats = load_features(idx.conn, g, split=split_identifier, db_path=idx.db_path, save=False)
    top = hy.score(g, feats, srows, mask, w, params=params).top(limit)
    rows = []
    for k, items in enumerate(_reference_explain(idx, g, feats, top)):
        sid = g.nodes.id(int(top.rows[k]))

        def name_of(row: int) -> str:
            got = read.symbols_by_ids(idx.conn, [g.nodes.id(row)])
            return got[g.nodes.id(row)].name if got else f"#{g.nodes.id(row)}"

        d = symbol_dict(read.symbols_by_ids(idx.conn, [sid])[sid])
        d["score"] = round(float(top.scores[k]), 6)
        d["why"] = {"summary": hy.why_text(items, name_of),
                    "signals": [{**{key: it[key] for key in ("signal", "family", "value", "contribution")},
                                 "text": hy.render(it, name_of)} for it in items]}
        rows.append(d)
    return rows


def test_hybrid_rows_equal_the_row_by_row_reference(words_index):
    g = words_index.graph()
    seeds = [r.id for r in read.iter_symbols(words_index.conn) if r.kind in ("method", "function")]
    assert len(seeds) > 40
    signals_seen: set[str] = set()
    # the second weights turn on what the shipped defaults may hold at 0 (text, decorators, shared bases...)
    for weights in (None, {"same_arity": 0.3, "shared_base": 0.5, "same_kind": 0.0, "text": 0.25, "decorators": 0.2}):
        for sid in seeds:
            out = lore_graph(words_index, kind="related", source_id=sid, algorithm="hybrid", limit=12,
                             weights=weights)
            want = _reference_rows(words_index, sid, 12, weights)
            assert json.dumps(out["results"]) == json.dumps(want), (sid, weights)
            signals_seen.update(s["signal"] for r in out["results"] for s in r["why"]["signals"])
    # the fixture exercises every kind of detail the explanation gathers
    assert {"structure", "structure_abs", "line_near", "name_tokens", "text", "decorators", "params",
            "same_arity", "same_class", "shared_base"} <= signals_seen, signals_seen
    assert g.n > 100


def test_batched_helpers_equal_the_signal_functions(words_index):
    g = words_index.graph()
    feats = load_features(words_index.conn, g, split=split_identifier, db_path=words_index.db_path, save=False)
    allowed = ~g.is_external()
    terms = feats.text_terms.to_scipy() if hasattr(feats.text_terms, "to_scipy") else feats.text_terms  # saved arrays
    for seed in range(g.n):
        assert np.array_equal(hy._bm25_scores(feats.text_bm25, feats.text_terms, seed),
                              sig.bm25_scores(feats.text_bm25, terms[seed].indices))
        assert np.array_equal(hy._file_rows(g, seed), np.flatnonzero(np.asarray(g.file) == g.file[seed])
                              if g.file[seed] >= 0 else np.zeros(0, np.int64))
        scores = np.round(np.random.default_rng(seed).random(g.n), 1) * (np.arange(g.n) % 3 > 0)  # ties, zeros
        for n in (1, 5, 40, 10_000):
            assert np.array_equal(hy._top_rows(scores, allowed, n), sig.top_rows(scores, allowed, n))


def test_why_texts_render_each_item_once():
    items = [{"signal": "text", "contribution": 0.5, "detail": {"words": ["add"]}},
             {"signal": "text_abs", "contribution": 0.2, "detail": {"words": ["add"]}},
             {"signal": "private_helper", "contribution": -0.3, "detail": {}},
             {"signal": "line_near", "contribution": 0.1, "detail": {"lines_apart": 3}}]
    texts, summary = hy.why_texts(items)
    assert texts == [hy.render(it) for it in items]
    assert summary == hy.why_text(items) == "shares words add; 3 lines apart"
