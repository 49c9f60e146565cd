"""`lore export`: every format is read back by networkx (pydot for DOT) and matches the subgraph."""

from __future__ import annotations

import csv
import json
import warnings

import networkx as nx
import pytest
from typer.testing import CliRunner

from lore.cli import app
from lore.errors import InvalidArgumentError
from lore.queries.export import FORMATS, subgraph

runner = CliRunner()


@pytest.fixture
def whole(sample_index):
    return subgraph(sample_index)


def _export(repo, tmp_path, fmt, *extra):
    out = tmp_path / f"g.{fmt}"
    res = runner.invoke(app, ["export", "--format", fmt, "--output", str(out), "--db", str(repo), *extra])
    assert res.exit_code == 0, res.output
    return out


def _read_back(path, fmt) -> nx.DiGraph:
    if fmt == "graphml":
        return nx.read_graphml(path, node_type=int)
    if fmt == "gexf":
        return nx.read_gexf(path, node_type=int)
    if fmt == "json":
        return nx.node_link_graph(json.loads(path.read_text()), edges="edges")
    if fmt == "dot":
        pytest.importorskip("pydot", reason="reading DOT back needs pydot (the dev extra)")
        with warnings.catch_warnings():  # pydot's pyparsing grammar uses names pyparsing 3.2 deprecates
            warnings.simplefilter("ignore")
            G = nx.DiGraph(nx.nx_pydot.read_dot(path))
        return nx.relabel_nodes(G, {n: int(str(n).strip('"')) for n in G})
    G = nx.DiGraph()
    with open(path.with_name(path.stem + ".nodes.csv"), newline="") as fh:
        for row in csv.DictReader(fh):
            G.add_node(int(row["Id"]), label=row["Label"], kind=row["kind"])
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            G.add_edge(int(row["Source"]), int(row["Target"]), relation=row["relation"], weight=float(row["Weight"]))
    return G


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_reads_back_with_networkx(sample_repo, sample_index, whole, tmp_path, fmt):
    G = _read_back(_export(sample_repo, tmp_path, fmt), fmt)
    assert sorted(G.nodes) == [n["id"] for n in whole["nodes"]]
    assert sorted(G.edges) == [(e["source"], e["target"]) for e in whole["edges"]]
    labels = {n: str(G.nodes[n]["label"]).strip('"') for n in G}
    assert "shop.orders.Order.amount" in labels.values()
    rel = {(u, v): str(d["relation"]).strip('"') for u, v, d in G.edges(data=True)}
    assert rel == {(e["source"], e["target"]): e["relation"] for e in whole["edges"]}


def test_whole_graph_has_the_calls_and_no_externals(sample_index, whole):
    by_label = {n["label"]: n["id"] for n in whole["nodes"]}
    assert "logging.getLogger" not in by_label and all(n["kind"] != "external" for n in whole["nodes"])
    calls = {(e["source"], e["target"]) for e in whole["edges"] if "calls" in e["relation"].split(",")}
    assert (by_label["shop.orders.Order.amount"], by_label["shop.models.Item.total"]) in calls


def test_neighbourhood_is_the_symbol_and_its_direct_neighbours(sample_index):
    sub = subgraph(sample_index, symbol="shop.orders.Order.amount", relations=["calls"])
    names = {n["label"] for n in sub["nodes"]}
    # callees and callers, nothing two hops away (place_order calls describe, not amount)
    assert {"shop.orders.Order.amount", "shop.models.Item.total", "shop.orders.Order.describe"} <= names
    assert "shop.orders.place_order" not in names
    deeper = subgraph(sample_index, symbol="shop.orders.Order.amount", relations=["calls"], depth=2)
    assert "shop.orders.place_order" in {n["label"] for n in deeper["nodes"]}
    capped = subgraph(sample_index, symbol="shop.orders.Order.amount", depth=3, max_nodes=2)
    assert capped["truncated"] and len(capped["nodes"]) == 2
    assert "shop.orders.Order.amount" in {n["label"] for n in capped["nodes"]}  # the seed is kept first


def test_cluster_export_is_the_cluster(sample_index, whole):
    cid = next(n["cluster"] for n in whole["nodes"] if n["label"] == "shop.orders.Order.amount")
    sub = subgraph(sample_index, cluster=cid)
    assert sub["nodes"] and {n["cluster"] for n in sub["nodes"]} == {cid}
    assert {n["id"] for n in sub["nodes"]} == {n["id"] for n in whole["nodes"] if n["cluster"] == cid}


@pytest.mark.parametrize("kw,needle", [
    ({"relations": ["friends"]}, "unknown relation"),
    ({"cluster": 99999}, "no cluster 99999"),
    ({"symbol": "shop.orders.Order", "depth": 9}, "depth must be"),
    ({"cluster": 0, "symbol": "shop.orders.Order"}, "not both"),
])
def test_bad_arguments(sample_index, kw, needle):
    with pytest.raises(InvalidArgumentError, match=needle):
        subgraph(sample_index, **kw)


def test_cli_stdout_and_bad_format(sample_repo, sample_index):
    res = runner.invoke(app, ["export", "-f", "dot", "--symbol", "shop.orders.Order", "--db", str(sample_repo)])
    assert res.exit_code == 0 and res.output.startswith("digraph lore {")
    bad = runner.invoke(app, ["export", "-f", "svg", "--db", str(sample_repo)])
    assert bad.exit_code == 2 and "unknown export format 'svg'" in bad.output
