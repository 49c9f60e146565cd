"""lore_graph(kind="related" / "cluster") and list_clusters on a tiny indexed repository."""

from __future__ import annotations

import json

import pytest

from lore import index_repo, list_clusters, lore_graph, open_index
from lore.errors import InvalidArgumentError, UnknownAlgorithmError, UnknownSymbolError
from lore.graphs.related import ALGORITHMS, DEFAULT_ALGORITHM

ROW_FIELDS = {"id", "name", "qualified_name", "kind", "path", "line", "score", "why"}
SEED = "shop.orders.Order.amount"


def related(idx, source=SEED, **kw):
    return lore_graph(idx, kind="related", source_id=source, **kw)


def test_the_api_default_is_the_benchmarked_default(sample_index):
    assert related(sample_index)["query"]["algorithm"] == DEFAULT_ALGORITHM


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_envelope_and_rows(sample_index, algorithm):
    out = related(sample_index, algorithm=algorithm, limit=3)
    assert set(out) >= {"query", "generation", "total", "truncated", "results"}
    assert out["query"]["kind"] == "related" and out["query"]["algorithm"] == algorithm
    assert out["generation"] == sample_index.generation
    assert out["results"], f"{algorithm} found nothing related to {SEED}"
    assert len(out["results"]) <= 3 and out["truncated"] == (out["total"] > len(out["results"]))
    for r in out["results"]:
        assert set(r) >= ROW_FIELDS and r["score"] > 0 and isinstance(r["why"], dict)
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_seed_containers_externals_and_tests_are_never_returned(sample_index, algorithm):
    out = related(sample_index, algorithm=algorithm, limit=100)
    names = {r["qualified_name"] for r in out["results"]}
    assert not names & {SEED, "shop.orders.Order", "shop.orders"}
    assert all(r["kind"] != "external" for r in out["results"])
    assert not any(n.startswith("tests.") for n in names)


def test_include_tests_keeps_test_code(sample_index):
    out = related(sample_index, source="shop.orders.place_order", algorithm="pagerank", include_tests=True, limit=100)
    assert "tests.test_orders.test_place" in {r["qualified_name"] for r in out["results"]}


def test_kind_filter_and_several_seeds(sample_index):
    out = related(sample_index, result_kind="method", limit=100)
    assert out["results"] and {r["kind"] for r in out["results"]} == {"method"}
    seeds = ["shop.orders.Order.amount", "shop.models.Item.total"]
    both = related(sample_index, source=seeds, limit=100)
    assert len(both["query"]["source_ids"]) == 2
    assert not {r["qualified_name"] for r in both["results"]} & set(seeds)


def test_overriding_method_is_related_to_the_method_it_overrides(sample_index):
    # a direct edge counts: overlap compares closed neighbourhoods (each symbol is its own neighbour)
    for algorithm, k in (("fusion", 3), ("overlap", 3), ("pagerank", 5)):
        top = [r["qualified_name"] for r in related(sample_index, algorithm=algorithm, limit=k)["results"]]
        assert "shop.orders.RushOrder.amount" in top, (algorithm, top)
    why = related(sample_index, algorithm="overlap", limit=1)["results"][0]["why"]["shared"]
    assert any(item.get("direct") for item in why)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_deterministic_and_ties_broken_by_id(sample_index, algorithm):
    a = related(sample_index, algorithm=algorithm, limit=100)
    b = related(sample_index, algorithm=algorithm, limit=100)
    assert a == b
    rows = a["results"]
    for x, y in zip(rows, rows[1:], strict=False):
        assert x["score"] > y["score"] or (x["score"] == y["score"] and x["id"] < y["id"])


def test_why_says_what_earned_the_score(sample_index):
    overlap = related(sample_index, algorithm="overlap")["results"][0]["why"]
    assert overlap["shared"] and {"relation", "id", "name", "weight"} <= set(overlap["shared"][0])
    walk = related(sample_index, algorithm="pagerank")["results"][0]["why"]
    assert walk["path"][0] == SEED and walk["hops"] and {"to", "edge", "resolution"} <= set(walk["hops"][0])
    fused = related(sample_index, algorithm="fusion")["results"][0]["why"]
    assert "shared" in fused and "path" in fused
    mc = related(sample_index, algorithm="pagerank_mc")["results"][0]["why"]
    assert mc["stderr"] >= 0
    cluster = related(sample_index, algorithm="cluster")["results"][0]["why"]
    assert {"cluster", "cohesion", "label"} <= set(cluster)


def test_a_seed_without_neighbours_gives_an_empty_answer_not_an_error(make_repo):
    root = make_repo({"alone.py": "def alone():\n    return 1\n", "other.py": "def f():\n    return g()\n\ndef g():\n    return 2\n"})
    index_repo(root, workers=1)
    with open_index(root) as idx:
        for algorithm in ALGORITHMS:
            out = related(idx, source="alone.alone", algorithm=algorithm)
            if algorithm == "cluster":  # never empty while other symbols exist: the nearest clusters, said so
                assert {r["name"] for r in out["results"]} == {"f", "g"} and "nearest" in out["note"]
                continue
            assert out["results"] == [] and out["total"] == 0 and out["note"], algorithm


def test_compact_rows_and_token_budget(sample_index):
    compact = related(sample_index, compact=True, limit=100)
    assert all("at" in r and "path" not in r for r in compact["results"])
    full = related(sample_index, limit=100)
    small = related(sample_index, limit=100, max_tokens=120)
    assert small["truncated"] and len(small["results"]) < len(full["results"])
    assert len(json.dumps(small, separators=(",", ":"))) <= 120 * 4 or small["results"] == []


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"alpha": 1.5}, InvalidArgumentError, "alpha"),
        ({"alpha": 0.0}, InvalidArgumentError, "alpha"),
        ({"limit": -1}, InvalidArgumentError, "limit"),
        ({"algorithm": "magic"}, UnknownAlgorithmError, "magic"),
        ({"measure": "euclid"}, UnknownAlgorithmError, "euclid"),
        ({"direction": "sideways"}, UnknownAlgorithmError, "sideways"),
        ({"algorithm": "overlap", "weights": {"bogus": 1.0}}, UnknownAlgorithmError, "bogus"),
        ({"algorithm": "fusion", "weights": {"bogus": 1.0}}, UnknownAlgorithmError, "bogus"),
        ({"algorithm": "pagerank", "weights": {"calls": -1.0}}, InvalidArgumentError, "calls"),
        ({"source": 10**9}, UnknownSymbolError, str(10**9)),
        ({"source": "no.such.symbol"}, UnknownSymbolError, "no.such.symbol"),
    ],
)
def test_bad_input_is_one_clear_error(sample_index, kwargs, error, match):
    with pytest.raises(error, match=match):
        related(sample_index, **kwargs)


def test_clusters_are_listed_cached_and_invalidated_by_a_refresh(sample_repo, sample_index, monkeypatch):
    out = list_clusters(sample_index, min_size=2)
    assert out["results"] and out["total"] >= len(out["results"])
    for c in out["results"]:
        assert c["size"] >= 2 and 0.0 <= c["cohesion"] <= 1.0 and c["label"] and c["top_members"]
    conn = sample_index.conn
    gen = sample_index.generation
    assert conn.execute("SELECT count(*) FROM cluster_runs WHERE generation = ?", (gen,)).fetchone()[0] == 1
    assert list_clusters(sample_index, min_size=2) == out  # served again, same answer
    summary, labels = sample_index.clusters(min_size=2)
    other = open_index(sample_index.db_path)  # a second reader: no in-memory copy, reads the stored run
    monkeypatch.setattr("lore.graphs.related.compute_clusters", lambda *a, **k: pytest.fail("recomputed"))
    stored_summary, stored_labels = other.clusters(min_size=2)
    assert stored_summary == summary and stored_labels.tolist() == labels.tolist()
    monkeypatch.undo()
    (sample_repo / "shop" / "extra.py").write_text("from shop.models import Item\n\ndef make():\n    return Item('a', 1.0)\n")
    index_repo(sample_repo, workers=1)
    assert conn.execute("SELECT count(*) FROM cluster_runs WHERE generation = ?", (gen,)).fetchone()[0] == 0
    again = list_clusters(sample_index, min_size=1)
    assert again["generation"] == gen + 1
    members = {m["qualified_name"] for c in again["results"] for m in c["top_members"]}
    assert "shop.extra.make" in members or any(c["size"] >= 1 for c in again["results"])


def test_cluster_kind_ranks_members_of_the_seed_cluster(sample_index):
    out = lore_graph(sample_index, kind="cluster", source_id=SEED, limit=100)
    assert out["query"]["cluster"] >= 0
    assert {r["why"]["cluster"] for r in out["results"]} == {out["query"]["cluster"]}
