"""Exports: the code graph (whole, one cluster, or a symbol's neighbourhood) for Gephi, Graphviz, scripts.

:func:`subgraph` picks the symbols and edges, JSON-ready; :func:`to_networkx` makes it a
``networkx.DiGraph`` and :func:`write_export` writes it as GraphML or GEXF (networkx's writers, read by
Gephi, yEd and Cytoscape), DOT (Graphviz; written here, networkx needs pydot for it), node-link JSON
(networkx's layout, read back by ``networkx.node_link_graph``) or CSV (an edge table, and the nodes
beside it in ``<name>.nodes.csv``, the two files Gephi's spreadsheet import takes).

Every node carries ``label`` (the qualified name), ``name``, ``kind``, ``path``, ``line``, ``cluster``
(-1 for none) and ``is_test``; every edge ``relation`` (the relations joined by ``,`` when two symbols
are linked by several: ``calls,types``) and ``weight`` (the summed edge confidences).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidArgumentError
from ..store import read
from ._index import OpenIndex
from .clusters import cluster_run

if TYPE_CHECKING:
    import networkx as nx

FORMATS = ("graphml", "gexf", "dot", "json", "csv")
RELATIONS = ("calls", "types", "inherits", "contains", "imports")


def _check_relations(relations: Sequence[str]) -> tuple[str, ...]:
    bad = [r for r in relations if r not in RELATIONS]
    if bad or not relations:
        raise InvalidArgumentError(f"unknown relation {bad[0] if bad else '(none)'!r}; choose from {', '.join(RELATIONS)}")
    return tuple(dict.fromkeys(relations))


def subgraph(
    index: OpenIndex,
    *,
    cluster: int | None = None,
    symbol: int | str | None = None,
    depth: int = 1,
    relations: Sequence[str] = RELATIONS,
    include_external: bool = False,
    include_tests: bool = True,
    max_nodes: int | None = None,
) -> dict[str, Any]:
    """The symbols and edges of the whole index, one cluster, or one symbol's neighbourhood.

    Parameters
    ----------
    index : OpenIndex
        An open index.
    cluster : int, optional
        A cluster id (as ``lore graph clusters`` lists them): its members and the edges among them.
    symbol : int or str, optional
        A symbol id or qualified name: it and every symbol within ``depth`` edges of it (either
        direction, any of ``relations``): callers, callees, types, bases, containers, peers.
    depth : int
        Hops from ``symbol`` (1 to 3).
    relations : sequence of str
        Which relations to keep (``calls``, ``types``, ``inherits``, ``contains``, ``imports``).
    include_external, include_tests : bool
        Keep external (library) symbols; keep symbols of test files.
    max_nodes : int, optional
        Keep at most this many nodes (a neighbourhood keeps the nearest, ties by id).

    Returns
    -------
    dict
        ``{"scope", "generation", "nodes": [{id, label, name, kind, path, line, cluster, is_test}],
        "edges": [{source, target, relation, weight}], "truncated"}``, nodes by id, edges by (source, target).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore import index_repo, open_index
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> _ = index_repo(d)
    >>> with open_index(d) as idx:
    ...     sub = subgraph(idx, symbol="m.f", relations=["calls"])
    >>> [n["label"] for n in sub["nodes"]], [(e["relation"], e["weight"]) for e in sub["edges"]]
    (['m.f', 'm.g'], [('calls', 1.0)])
    """
    import numpy as np
    import scipy.sparse as sp

    relations = _check_relations(relations)
    if cluster is not None and symbol is not None:
        raise InvalidArgumentError("pass a cluster or a symbol, not both")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 3:
        raise InvalidArgumentError(f"depth must be 1, 2 or 3, got {depth!r}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise InvalidArgumentError(f"max_nodes must be a positive integer, got {max_nodes!r}")
    g = index.graph()
    keep = np.ones(g.n, dtype=bool)
    if not include_external:
        keep &= ~g.is_external()
    if not include_tests:
        keep &= ~g.is_test
    summary, labels = cluster_run(index)
    order: np.ndarray
    if symbol is not None:
        sid = index.resolve_ref(symbol)
        seed = g.nodes.row(sid)
        keep[seed] = True
        union = sum((g.presence(r) for r in relations), sp.csr_matrix((g.n, g.n)))
        union = (union + union.T).tocsr()
        dist = np.full(g.n, -1, dtype=np.int64)
        dist[seed] = 0
        frontier = np.array([seed])
        for hop in range(1, depth + 1):
            reach = np.unique(union[frontier].indices)
            reach = reach[(dist[reach] < 0) & keep[reach]]
            dist[reach] = hop
            frontier = reach
            if not reach.size:
                break
        rows = np.flatnonzero(dist >= 0)
        order = rows[np.lexsort((g.nodes.ids[rows], dist[rows]))]  # nearest first, ties by id
        scope = f"neighbourhood of {symbol} (depth {depth})"
    elif cluster is not None:
        if str(cluster) not in summary:
            raise InvalidArgumentError(f"no cluster {cluster}; `lore graph clusters` lists them")
        order = np.flatnonzero((labels == cluster) & keep)
        scope = f"cluster {cluster} ({summary[str(cluster)].get('label')})"
    else:
        order = np.flatnonzero(keep)
        scope = "whole graph"
    truncated = max_nodes is not None and order.size > max_nodes
    if truncated:
        order = order[:max_nodes]
    rows = np.sort(order)
    ids = g.nodes.ids[rows]
    info = read.symbols_by_ids(index.conn, ids.tolist())
    nodes = []
    for r, sid in zip(rows.tolist(), ids.tolist(), strict=True):
        s = info.get(sid)
        if s is None:
            continue
        nodes.append({"id": sid, "label": s.qualified_name, "name": s.name, "kind": s.kind, "path": s.path or "",
                      "line": int(s.line or 0), "cluster": int(labels[r]), "is_test": bool(s.is_test)})
    edges: dict[tuple[int, int], dict[str, Any]] = {}
    for rel_name in relations:
        m = g.matrix(rel_name)[rows][:, rows].tocoo()
        for a, b, w in zip(m.row.tolist(), m.col.tolist(), m.data.tolist(), strict=True):
            if a == b:
                continue
            key = (int(ids[a]), int(ids[b]))
            e = edges.setdefault(key, {"source": key[0], "target": key[1], "relation": [], "weight": 0.0})
            e["relation"].append(rel_name)
            e["weight"] += float(w)
    out_edges = [dict(e, relation=",".join(e["relation"]), weight=round(e["weight"], 6))
                 for _, e in sorted(edges.items())]
    return {"scope": scope, "generation": g.generation, "nodes": nodes, "edges": out_edges,
            "truncated": bool(truncated)}


def to_networkx(data: dict[str, Any]) -> nx.DiGraph:
    """The :func:`subgraph` answer as a ``networkx.DiGraph`` (node keys are symbol ids)."""
    import networkx as nx

    G = nx.DiGraph(scope=data["scope"], generation=data["generation"])
    for n in data["nodes"]:
        G.add_node(n["id"], **{k: v for k, v in n.items() if k != "id"})
    for e in data["edges"]:
        G.add_edge(e["source"], e["target"], relation=e["relation"], weight=e["weight"])
    return G


def _dot_quote(value: Any) -> str:
    if isinstance(value, bool):
        return f'"{str(value).lower()}"'
    if isinstance(value, int | float):
        return str(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{text}"'


def to_dot(data: dict[str, Any]) -> str:
    """Graphviz DOT text: nodes boxed and labelled with qualified names, edges labelled with relations.

    Examples
    --------
    >>> print(to_dot({"scope": "s", "generation": 1, "edges": [{"source": 1, "target": 2, "relation": "calls",
    ...        "weight": 1.0}], "nodes": [{"id": 1, "label": "m.f", "kind": "function"},
    ...        {"id": 2, "label": 'm."g"', "kind": "function"}]}))
    digraph lore {
      graph [label="s", generation=1];
      node [shape=box, fontname="Helvetica"];
      "1" [label="m.f", kind="function"];
      "2" [label="m.\\"g\\"", kind="function"];
      "1" -> "2" [relation="calls", label="calls", weight=1.0];
    }
    """
    lines = ["digraph lore {", f"  graph [label={_dot_quote(data['scope'])}, generation={data['generation']}];",
             '  node [shape=box, fontname="Helvetica"];']
    for n in data["nodes"]:
        # `name` is a reserved word of DOT readers (pydot's Node(name, ...)): the short name goes as `short`
        attrs = ", ".join(f"{'short' if k == 'name' else k}={_dot_quote(v)}" for k, v in n.items() if k != "id")
        lines.append(f'  "{n["id"]}" [{attrs}];')
    for e in data["edges"]:
        lines.append(f'  "{e["source"]}" -> "{e["target"]}" [relation={_dot_quote(e["relation"])}, '
                     f'label={_dot_quote(e["relation"])}, weight={e["weight"]}];')
    lines.append("}")
    return "\n".join(lines)


def _csv(rows: list[dict[str, Any]], columns: list[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([r[c] for c in columns])
    return buf.getvalue()


def export_text(data: dict[str, Any], fmt: str) -> dict[str, str]:
    """The export in ``fmt`` as text: ``{"main": text}``, plus ``"nodes"`` for CSV (the node table).

    CSV columns follow Gephi's spreadsheet import: edges ``Source,Target,Type,relation,Weight``,
    nodes ``Id,Label,name,kind,path,line,cluster,is_test``.
    """
    if fmt not in FORMATS:
        raise InvalidArgumentError(f"unknown export format {fmt!r}; choose from {', '.join(FORMATS)}")
    if fmt == "dot":
        return {"main": to_dot(data) + "\n"}
    if fmt == "json":
        import networkx as nx

        return {"main": json.dumps(nx.node_link_data(to_networkx(data), edges="edges"), indent=1,
                                   ensure_ascii=False) + "\n"}
    if fmt == "csv":
        edges = [{"Source": e["source"], "Target": e["target"], "Type": "Directed", "relation": e["relation"],
                  "Weight": e["weight"]} for e in data["edges"]]
        nodes = [{"Id": n["id"], "Label": n["label"], **{k: n[k] for k in ("name", "kind", "path", "line", "cluster", "is_test")}}
                 for n in data["nodes"]]
        return {"main": _csv(edges, ["Source", "Target", "Type", "relation", "Weight"]),
                "nodes": _csv(nodes, ["Id", "Label", "name", "kind", "path", "line", "cluster", "is_test"])}
    import networkx as nx

    buf = io.BytesIO()
    G = to_networkx(data)
    if fmt == "graphml":
        nx.write_graphml(G, buf)
    else:
        nx.write_gexf(G, buf)
    return {"main": buf.getvalue().decode("utf-8")}


def write_export(data: dict[str, Any], fmt: str, path: str | Path) -> list[Path]:
    """Write the export to ``path`` (CSV: the edges there, the nodes in ``<stem>.nodes.csv`` beside it).

    Returns the files written.
    """
    path = Path(path)
    texts = export_text(data, fmt)
    path.write_text(texts["main"], encoding="utf-8")
    written = [path]
    if "nodes" in texts:
        nodes_path = path.with_name(path.stem + ".nodes.csv")
        nodes_path.write_text(texts["nodes"], encoding="utf-8")
        written.append(nodes_path)
    return written
