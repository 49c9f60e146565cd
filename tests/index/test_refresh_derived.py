"""A one-file refresh updates the derived data by the change, and answers as a fresh index of the same tree.

The ranker's features reuse the words of every row whose inputs did not change (only the changed file's
symbols are tokenized again) and still equal a build from scratch; ``graph related`` of every symbol
equals a fresh index's; a refresh of a large index leaves the clusters to the first cluster query,
which gives the run a fresh index stores.
"""

from __future__ import annotations

import dataclasses
import functools
import shutil

import numpy as np
import pytest

from lore import index_repo, list_clusters, open_index
from lore.api import lore_graph
from lore.graphs import _features
from lore.queries import clusters as clusters_q
from lore.store import _features as store_features
from lore.store import clusters as clusters_store
from lore.text import tokens

MODELS = '''"""Models."""


class Base:
    def save(self, store):
        """Save into a store."""
        return store.put(self)


class Item(Base):
    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self, count):
        return self.price * count
'''

SHOP = '''from shop.models import Item


def make_item(name):
    """Make an item."""
    return Item(name, 1.0)


def order_total(item, count):
    return item.total(count)


def checkout(names):
    items = [make_item(n) for n in names]
    return sum(order_total(i, 2) for i in items)
'''

UTIL = '''def slugify(text):
    """A slug of a text."""
    return text.lower().replace(" ", "-")


def parse_price(text, default=0.0):
    try:
        return float(text)
    except ValueError:
        return default
'''

CHANGED = SHOP.replace("def order_total(item, count):", "def order_total(item, count, discount=0):") + '''

def refund_item(item, reason):
    """Refund an item for a reason."""
    return order_total(item, -1)
'''


def _tree(root):
    (root / "shop").mkdir(parents=True)
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "models.py").write_text(MODELS)
    (root / "shop" / "orders.py").write_text(SHOP)
    (root / "shop" / "util.py").write_text(UTIL)


@pytest.fixture
def refreshed(tmp_path, monkeypatch):
    """(a tree indexed then refreshed after one file changed, the names split during the refresh, a fresh
    index of the same tree)."""
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    monkeypatch.setattr(_features, "_CACHE", {})  # a new process: nothing of the last build in memory
    split: list[str] = []
    real = tokens.split_identifier

    @functools.wraps(real)  # the same tokenizer (its name is part of the saved rows' version)
    def counting(name):
        split.append(name)
        return real(name)

    monkeypatch.setattr(tokens, "split_identifier", counting)
    read: list[int] = []
    real_rows = store_features.symbol_feature_rows_of

    def rows_of(conn, ids):
        read.extend(ids)
        return real_rows(conn, ids)

    monkeypatch.setattr(store_features, "symbol_feature_rows", lambda conn: pytest.fail("every symbol read"))
    monkeypatch.setattr(store_features, "symbol_feature_rows_of", rows_of)
    (root / "shop" / "orders.py").write_text(CHANGED)
    report = index_repo(root, workers=1)
    monkeypatch.undo()
    assert not report.full and report.changed == ["shop/orders.py"]
    with open_index(root) as idx:  # only the changed file's symbols (and those of no file) were read again
        files = dict(idx.conn.execute("SELECT s.id, COALESCE(f.path, '') FROM symbols s LEFT JOIN files f ON f.id = s.file_id"))
    assert read and {files[i] for i in read} <= {"shop/orders.py", ""}
    fresh = tmp_path / "f"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".lore"))
    index_repo(fresh, workers=1)
    return root, split, fresh


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if hasattr(a, "indptr"):
        return (tuple(a.shape) == tuple(b.shape) and a.format == b.format
                and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("data", "indices", "indptr")))
    return a == b


def test_the_refresh_tokenizes_only_the_changed_rows_and_equals_a_build_from_scratch(refreshed, monkeypatch):
    root, split, _fresh = refreshed
    db = root / ".lore" / "index.db"
    with open_index(db) as idx:
        g = idx.graph()
        names = {r[3] for r in _features.read_inputs(idx.conn)[0]}
        got = _features.load_features(idx.conn, g, split=tokens.split_identifier, db_path=db)
        want = _features.build_features(idx.conn, g, split=tokens.split_identifier)
    # the refresh split the names of the changed file's rows (and their words), not every symbol's
    assert "refund_item" in split and "slugify" not in split and "parse_price" not in split and "Item" not in split
    assert len(set(split) & names) < len(names) / 2
    for f in dataclasses.fields(want):
        if f.name != "stamp":
            assert _same(getattr(got, f.name), getattr(want, f.name)), f.name


def test_related_of_every_symbol_equals_a_fresh_index(refreshed):
    root, _split, fresh = refreshed

    def answers(path):
        out = {}
        with open_index(path) as idx:
            qnames = [r[0] for r in idx.conn.execute("SELECT qualified_name FROM symbols WHERE kind != 'module'")]
            for q in sorted(set(qnames)):
                res = lore_graph(idx, kind="related", source_id=q)["results"]
                out[q] = [(r["qualified_name"], round(r.get("score", 0.0), 9)) for r in res]
        return out

    got, want = answers(root), answers(fresh)
    assert got == want
    assert any(got.values())


def test_a_large_refresh_leaves_the_clusters_to_the_first_query(tmp_path, monkeypatch):
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    monkeypatch.setattr(clusters_q, "REFRESH_LIMIT", 0)  # every index counts as large
    (root / "shop" / "orders.py").write_text(CHANGED)
    report = index_repo(root, workers=1)
    assert report.seconds["clusters"] == 0.0
    fresh = tmp_path / "f"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".lore"))
    index_repo(fresh, workers=1)  # a full build computes and stores them

    def partition(path):
        with open_index(path) as idx:
            out = list_clusters(idx, min_size=1, limit=100, top=100)
            stored = clusters_store.has_run(idx.conn, clusters_q.run_key(), idx.generation)
        return sorted(sorted(m["qualified_name"] for m in c["top_members"]) for c in out["results"]), stored, out

    with open_index(root) as idx:
        assert not clusters_store.has_run(idx.conn, clusters_q.run_key(), idx.generation)
    got, stored, out = partition(root)
    want, _, _ = partition(fresh)
    assert stored  # the first query stored the run of this generation
    assert got == want and got


def _graph_by_name(path) -> dict[str, set]:
    """Every matrix saved with the graph of the index at ``path`` (the relations, their transposes, the
    default walk, the closed neighbourhoods) as a set of (source, target, value) named by path and
    qualified name: ids differ between a refreshed index and a fresh one, names do not."""
    from lore.graphs import _walk, build

    build._MEMORY.clear()  # a new process: the graph as saved beside the index
    _walk._WALK_CACHE.clear()
    with open_index(path) as idx:
        rows = dict((sid, key) for sid, *key in idx.conn.execute(
            "SELECT s.id, COALESCE(f.path, ''), s.qualified_name, s.kind, COALESCE(s.start_line, 0)"
            " FROM symbols s LEFT JOIN files f ON f.id = s.file_id"))
        g = idx.graph()
        names = [tuple(rows[int(i)]) for i in g.nodes.ids]
        mats = {f"{rel}{'.T' if t else ''}": g.arrays(rel, transpose=t) for rel in build.RELATIONS for t in (0, 1)}
        mats.update({k: g.presence_arrays(k.split(".")[0], transpose=".T." in k, closed=True)
                     for k in ("calls.closed", "calls.T.closed", "types.closed", "types.T.closed")})
        mats["walk"] = _walk.walk_arrays(g, _walk.DEFAULT_PPR_WEIGHTS, "both")
        out = {}
        for key, m in mats.items():
            ptr = np.asarray(m.indptr)
            out[key] = {(names[r], names[int(c)], float(v)) for r in range(g.n)
                        for c, v in zip(np.asarray(m.indices)[ptr[r]:ptr[r + 1]], np.asarray(m.data)[ptr[r]:ptr[r + 1]],
                                        strict=True)}
        answers = {}
        for q in sorted({r[1] for r in rows.values()}):
            for kind in ("callers", "related"):
                try:
                    res = lore_graph(idx, kind=kind, source_id=q)["results"]
                except Exception as exc:  # noqa: BLE001 - an ambiguous name: the same error both sides
                    answers[(kind, q)] = type(exc).__name__
                    continue
                answers[(kind, q)] = [(r["qualified_name"], round(r.get("score", 0.0), 9)) for r in res]
    return {**out, "answers": answers}


@pytest.mark.parametrize("edit", [
    SHOP.replace("return Item(name, 1.0)", "return None"),  # a call into another file dropped
    SHOP.replace("from shop.models import Item", "from shop.models import Item\nfrom shop.util import slugify")
    .replace('"""Make an item."""', '"""Make an item."""\n    name = slugify(name)'),  # one added
    SHOP + "\n\ndef probe(a):\n    return a + 1\n",  # a new function that calls nothing (bench_kernel's change)
], ids=["call-dropped", "call-added", "function-added"])
def test_the_refreshed_graph_and_answers_equal_a_fresh_index_by_name(tmp_path, edit):
    root = tmp_path / "r"
    _tree(root)
    index_repo(root, workers=1)
    (root / "shop" / "orders.py").write_text(edit)
    assert index_repo(root, workers=1).changed == ["shop/orders.py"]
    fresh = tmp_path / "f"
    shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(".lore"))
    index_repo(fresh, workers=1)
    got, want = _graph_by_name(root), _graph_by_name(fresh)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == want[key], key
    assert want["calls"] and want["walk"]
