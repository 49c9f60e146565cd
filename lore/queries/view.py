"""``lore view``: one static, self-contained HTML page of an index (no server, no network).

The page (template and script in ``lore/queries/_view/``, a small SVG renderer of its own) shows:

- the cluster map: clusters as labelled circles sized by members, laid out by networkx's seeded
  spring layout, joined by lines weighted by the calls between them;
- for a chosen symbol: its related list with the ``why``, and its neighbourhood graph (callers,
  callees, types, bases and subclasses, related peers), every node a link to the next symbol;
- a search box over every symbol, and click-through to ``file:line`` (a ``file://`` link, or any
  editor URL given as a template, e.g. ``vscode://file/{abspath}:{line}``).

:func:`view_data` gathers the data (columnar, so a Django-sized index stays a few MB), and
:func:`render_html` puts it into the template. The neighbourhood of any symbol is drawn from the
edges in the page; the related list, which needs the ranker, is computed here for the chosen symbols
and the ``top`` most connected ones.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import InvalidArgumentError
from ..store import db as store_db
from ..store import read
from ._index import OpenIndex
from .clusters import cluster_run

EDGE_RELATIONS = ("calls", "types", "inherits")
DEFAULT_LINK = "file://{abspath}"
_PLACEHOLDER = "__LORE_DATA__"


def why_text(why: Any) -> str:
    """One line for a related row's ``why`` (shared neighbours, a walk, a ranker summary, a cluster).

    Examples
    --------
    >>> why_text({"shared": [{"relation": "callees", "name": "m.g", "weight": 0.5, "direct": False}]})
    'callees m.g (0.5)'
    """
    if not isinstance(why, dict):
        return ""
    if "summary" in why and why["summary"]:
        return str(why["summary"])
    parts = [f"{'direct ' if s.get('direct') else ''}{s.get('relation')} {s.get('name')} ({s.get('weight', 0):.3g})"
             for s in why.get("shared", [])]
    if "hops" in why:
        parts.append("walk: " + (" -> ".join(f"{h.get('to')} [{h.get('edge')}]" for h in why["hops"]) or "direct"))
    if not parts and "cluster" in why:
        parts.append(f"cluster {why['cluster']} ({why.get('label')})")
    return "; ".join(parts)


def _top_connected(g: Any, keep: Any, n: int) -> list[int]:
    """Rows of the ``n`` symbols with the most call and type edges (functions, methods, classes), ties by id."""
    import numpy as np

    deg = np.zeros(g.n)
    for rel in ("calls", "types"):
        m = g.presence(rel)
        deg += np.asarray(m.sum(axis=1)).ravel() + np.asarray(m.sum(axis=0)).ravel()
    eligible = keep & ~g.is_test & np.isin(g.kind, [g.kind_code(k) for k in ("function", "method", "class")])
    rows = np.flatnonzero(eligible & (deg > 0))
    order = rows[np.lexsort((g.nodes.ids[rows], -deg[rows]))]
    return order[:n].tolist()


def view_data(
    index: OpenIndex,
    *,
    symbols: Sequence[int | str] = (),
    top: int = 100,
    related_limit: int = 10,
    max_clusters: int = 150,
    link: str = DEFAULT_LINK,
) -> dict[str, Any]:
    """Everything the page shows, JSON-ready and columnar.

    Parameters
    ----------
    index : OpenIndex
        An open index.
    symbols : ids or qualified names
        Symbols whose related list the page carries (the first is shown when the page opens).
    top : int
        Also carry the related lists of this many of the most connected symbols.
    related_limit : int
        Rows per related list.
    max_clusters : int
        Clusters on the map (largest first; the rest are listed by the search only).
    link : str
        Click-through URL template with ``{abspath}``, ``{path}`` and ``{line}`` (default ``file://{abspath}``).

    Returns
    -------
    dict
        ``meta``, ``files``, ``nodes`` (columns ``id``, ``name``, ``kind``, ``file``, ``line``, ``cluster``),
        ``edges`` (flat ``[source, target, ...]`` node positions per relation), ``clusters`` (with map
        positions), ``cluster_edges`` (``[a, b, calls]``), ``related`` (node position -> rows of
        ``[position, score, why]``) and ``start`` (the node shown first, or -1).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from lore import index_repo, open_index
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.py").write_text("def f():\\n    g()\\n\\ndef h():\\n    g()\\n\\ndef g():\\n    pass\\n")
    >>> _ = index_repo(d)
    >>> with open_index(d) as idx:
    ...     data = view_data(idx, symbols=["m.f"])
    >>> [data["nodes"]["name"][i] for i in data["edges"]["calls"]]
    ['m.f', 'm.g', 'm.h', 'm.g']
    >>> sorted(data["nodes"]["name"][row[0]] for row in data["related"][str(data["start"])])  # g: its callee, h: a sibling
    ['m.g', 'm.h']
    """
    import numpy as np

    from .graph import lore_graph

    for name, v in (("top", top), ("related_limit", related_limit), ("max_clusters", max_clusters)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidArgumentError(f"{name} must be a non-negative integer, got {v!r}")
    if "{" in link and not any(k in link for k in ("{abspath}", "{path}", "{line}")):
        raise InvalidArgumentError(f"--link takes a template with {{abspath}}, {{path}} or {{line}}, got {link!r}")
    g = index.graph()
    keep = ~g.is_external()
    rows = np.flatnonzero(keep)
    pos = np.full(g.n, -1, dtype=np.int64)
    pos[rows] = np.arange(rows.size)
    ids = g.nodes.ids[rows]
    info = read.symbols_by_ids(index.conn, ids.tolist())
    files: dict[str, int] = {}
    kinds: dict[str, int] = {}
    summary, labels = cluster_run(index)
    nodes: dict[str, list] = {"id": [], "name": [], "kind": [], "file": [], "line": [], "cluster": [], "test": []}
    for r, sid in zip(rows.tolist(), ids.tolist(), strict=True):
        s = info[sid]
        nodes["id"].append(sid)
        nodes["name"].append(s.qualified_name)
        nodes["kind"].append(kinds.setdefault(s.kind, len(kinds)))
        nodes["file"].append(files.setdefault(s.path, len(files)))
        nodes["line"].append(int(s.line or 0))
        nodes["cluster"].append(int(labels[r]))
        nodes["test"].append(int(bool(s.is_test)))
    edges: dict[str, list[int]] = {}
    for rel in EDGE_RELATIONS:
        m = g.matrix(rel)[rows][:, rows].tocoo()
        pairs = sorted({(int(a), int(b)) for a, b in zip(m.row.tolist(), m.col.tolist(), strict=True) if a != b})
        edges[rel] = [x for p in pairs for x in p]

    # the cluster map: the largest clusters, a seeded spring layout over the calls between them
    items = sorted(((int(k), v) for k, v in summary.items() if v["size"] >= 2), key=lambda kv: (-kv[1]["size"], kv[0]))
    items = items[:max_clusters]
    slot = {cid: i for i, (cid, _) in enumerate(items)}
    calls = g.matrix("calls").tocoo()
    weight: dict[tuple[int, int], float] = {}
    la, lb = labels[calls.row], labels[calls.col]
    for a, b, w in zip(la.tolist(), lb.tolist(), calls.data.tolist(), strict=True):
        if a != b and a in slot and b in slot:
            key = (min(slot[a], slot[b]), max(slot[a], slot[b]))
            weight[key] = weight.get(key, 0.0) + w
    cluster_edges = [[a, b, round(w, 3)] for (a, b), w in sorted(weight.items())]
    xy = _layout(len(items), cluster_edges)
    clusters = [{"id": cid, "label": v["label"], "size": v["size"], "cohesion": v["cohesion"],
                 "x": xy[i][0], "y": xy[i][1],
                 "top": [int(pos[g.nodes.row(m)]) for m in v["top_members"] if g.nodes.has(m) and pos[g.nodes.row(m)] >= 0]}
                for i, (cid, v) in enumerate(items)]

    chosen = [g.nodes.row(index.resolve_ref(ref)) for ref in symbols]
    for r in chosen:
        if pos[r] < 0:
            raise InvalidArgumentError(f"{g.nodes.id(r)} is an external symbol; choose one defined in the repository")
    wanted = list(dict.fromkeys(chosen + _top_connected(g, keep, top)))
    related: dict[str, list] = {}
    for r in wanted:
        data = lore_graph(index, kind="related", source_id=g.nodes.id(r), limit=related_limit) if related_limit else {"results": []}
        related[str(int(pos[r]))] = [[int(pos[g.nodes.row(x["id"])]), round(float(x.get("score") or 0), 4), why_text(x.get("why"))]
                                     for x in data["results"] if x.get("id") is not None and g.nodes.has(x["id"])
                                     and pos[g.nodes.row(x["id"])] >= 0]
    root = store_db.get_meta(index.conn, "root") or ""
    return {
        "meta": {"root": root, "generation": g.generation, "link": link, "db": str(index.db_path),
                 "kinds": list(kinds), "symbols": len(nodes["id"]), "clusters_total": len(summary)},
        "files": list(files),
        "nodes": nodes,
        "edges": edges,
        "clusters": clusters,
        "cluster_edges": cluster_edges,
        "related": related,
        "start": int(pos[chosen[0]]) if chosen else -1,
    }


def _layout(n: int, edges: list[list]) -> list[tuple[float, float]]:
    """Positions in [0, 1] x [0, 1]: networkx's spring layout, seeded (the same page for the same index)."""
    if n == 0:
        return []
    if n == 1:
        return [(0.5, 0.5)]
    import networkx as nx

    G = nx.Graph()
    G.add_nodes_from(range(n))
    for a, b, w in edges:
        G.add_edge(a, b, weight=math.log1p(w))  # a few heavy links must not pull everything into one spot
    p = nx.spring_layout(G, seed=0, iterations=100, k=1.5 / n ** 0.5)
    # spring layouts crowd the connected core and fling loners to the rim: place each cluster by the
    # rank of its coordinates instead (same order, so neighbours stay near, spread evenly over the page)
    out = []
    for axis in (0, 1):
        order = sorted(range(n), key=lambda i: (p[i][axis], i))
        rank = {i: r for r, i in enumerate(order)}
        out.append([round(rank[i] / (n - 1), 4) for i in range(n)])
    return list(zip(out[0], out[1], strict=True))


def render_html(data: dict[str, Any], *, title: str = "lore") -> str:
    """The page: the template of ``_view/page.html`` with its script and the data inlined (no network)."""
    folder = resources.files(__package__).joinpath("_view")
    page = folder.joinpath("page.html").read_text(encoding="utf-8")
    script = folder.joinpath("view.js").read_text(encoding="utf-8")
    # "</" inside the JSON would end the <script> element early
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    page = page.replace("__LORE_TITLE__", _escape(title)).replace("__LORE_SCRIPT__", script)
    return page.replace(_PLACEHOLDER, blob)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_view(index: OpenIndex, path: str | Path, **options: Any) -> dict[str, Any]:
    """Write the page of ``index`` to ``path``; returns counts (symbols, clusters, related lists, bytes)."""
    data = view_data(index, **options)
    root = data["meta"]["root"]
    html = render_html(data, title=f"lore · {Path(root).name or root}")
    Path(path).write_text(html, encoding="utf-8")
    return {"path": str(path), "symbols": data["meta"]["symbols"], "clusters": len(data["clusters"]),
            "related_lists": len(data["related"]), "bytes": len(html.encode("utf-8")), "start": data["start"]}
