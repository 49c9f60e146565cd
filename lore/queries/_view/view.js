// lore view: a small SVG renderer over the data lore wrote into this page. No network, no libraries.
"use strict";
(function () {
  const errors = [];
  window.addEventListener("error", (e) => {
    errors.push(String(e.message));
    document.body.dataset.errors = errors.join(" | ");
  });

  const D = JSON.parse(document.getElementById("lore-data").textContent);
  const N = D.nodes;
  const count = N.id.length;
  const SVG = "http://www.w3.org/2000/svg";
  const CAP = 10; // nodes per group in the neighbourhood graph ("+k more" beyond)
  const GROUPS = [
    // name, colour, centre of its sector and the most it spreads either side (degrees, 0 = right, 90 = up);
    // the sectors do not overlap, so labels of two groups never collide
    ["callers", "#2f6fde", 180, 38],
    ["callees", "#12a150", 0, 38],
    ["types", "#8e44ad", 62, 16],
    ["users of this type", "#b54708", 118, 16],
    ["bases", "#475467", 236, 12],
    ["subclasses", "#98a2b3", 304, 12],
    ["related", "#d92d20", 270, 18],
  ];

  const idPos = new Map();
  N.id.forEach((id, i) => idPos.set(id, i));

  function adjacency(flat) {
    const out = new Map(), inn = new Map();
    for (let k = 0; k < flat.length; k += 2) {
      const a = flat[k], b = flat[k + 1];
      if (!out.has(a)) out.set(a, []);
      out.get(a).push(b);
      if (!inn.has(b)) inn.set(b, []);
      inn.get(b).push(a);
    }
    return { out, inn };
  }
  const adj = {};
  for (const rel of Object.keys(D.edges)) adj[rel] = adjacency(D.edges[rel]);

  function h(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function s(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }
  function shortName(i) {
    const parts = N.name[i].split(".");
    return parts.slice(-2).join(".");
  }
  function fit(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }
  function path(i) { return D.files[N.file[i]]; }
  function href(i) {
    const root = D.meta.root.replace(/\/$/, "");
    const rel = path(i);
    const abs = root ? root + "/" + rel : rel;
    return D.meta.link.replace("{abspath}", encodeURI(abs)).replace("{path}", encodeURI(rel)).replace("{line}", String(N.line[i]));
  }
  function symButton(i, text) {
    const b = h("button", { class: "sym", type: "button", "data-pos": String(i), title: N.name[i] }, text || N.name[i]);
    b.addEventListener("click", () => showSymbol(i));
    return b;
  }

  // ---- the cluster map
  const map = document.getElementById("map");
  function renderMap() {
    clear(map);
    const C = D.clusters;
    if (!C.length) {
      map.appendChild(s("text", { x: 20, y: 40 }, "no clusters of two or more symbols in this index"));
      return;
    }
    const maxSize = Math.max(...C.map((c) => c.size));
    const maxW = Math.max(1, ...D.cluster_edges.map((e) => e[2]));
    const X = (c) => 60 + 880 * c.x, Y = (c) => 50 + 620 * c.y;
    const lines = s("g", { class: "links" });
    for (const [a, b, w] of D.cluster_edges) {
      lines.appendChild(s("line", { x1: X(C[a]), y1: Y(C[a]), x2: X(C[b]), y2: Y(C[b]),
        "stroke-width": (0.5 + 5 * Math.log1p(w) / Math.log1p(maxW)).toFixed(2) }));
    }
    map.appendChild(lines);
    C.forEach((c, k) => {
      const g = s("g", { class: "cluster", "data-cluster": String(c.id), transform: `translate(${X(c).toFixed(1)},${Y(c).toFixed(1)})` });
      const r = 5 + 32 * Math.sqrt(c.size / maxSize);
      g.appendChild(s("circle", { r: r.toFixed(1) }));
      g.appendChild(s("title", {}, `${c.label} — ${c.size} symbols, cohesion ${c.cohesion}`));
      const right = c.x > 0.7;  // labels of clusters near the right edge go to their left
      if (k < 25) g.appendChild(s("text", { x: (right ? -(r + 3) : r + 3).toFixed(1), y: 4, "text-anchor": right ? "end" : "start" }, fit(c.label, 34)));
      g.addEventListener("click", () => showCluster(k));
      map.appendChild(g);
    });
    map.dataset.nodes = String(C.length);
  }

  function showCluster(k) {
    const c = D.clusters[k];
    map.querySelectorAll(".cluster.active").forEach((e) => e.classList.remove("active"));
    const g = map.querySelector(`.cluster[data-cluster="${c.id}"]`);
    if (g) g.classList.add("active");
    const box = document.getElementById("cluster-info");
    clear(box);
    box.appendChild(h("h2", {}, `Cluster ${c.id}: ${c.label}`));
    box.appendChild(h("div", { class: "why" }, `${c.size} symbols · cohesion ${c.cohesion}`));
    const ol = h("ol");
    for (const i of c.top) ol.appendChild(h("li")).appendChild(symButton(i));
    box.appendChild(ol);
    document.getElementById("hint").hidden = true;
  }

  // ---- a symbol: location, neighbourhood graph, related list
  const hood = document.getElementById("hood");
  function groupsOf(i) {
    const get = (m, key) => (m && m.get(key)) || [];
    const rel = (D.related[String(i)] || []).map((r) => r[0]);
    const lists = [
      get(adj.calls && adj.calls.inn, i), get(adj.calls && adj.calls.out, i),
      get(adj.types && adj.types.out, i), get(adj.types && adj.types.inn, i),
      get(adj.inherits && adj.inherits.out, i), get(adj.inherits && adj.inherits.inn, i), rel,
    ];
    const seen = new Set([i]);
    return lists.map((list) => {
      const uniq = [];
      for (const j of [...new Set(list)].sort((a, b) => N.id[a] - N.id[b])) if (!seen.has(j)) { seen.add(j); uniq.push(j); }
      return uniq;
    });
  }

  function renderHood(i) {
    clear(hood);
    const cx = 360, cy = 230, rx = 210, ry = 170;
    const groups = groupsOf(i);
    const edges = s("g", { class: "edges" }), nodes = s("g", { class: "nodes" });
    hood.appendChild(edges);
    hood.appendChild(nodes);
    let drawn = 1, legendY = 14;
    groups.forEach((list, gi) => {
      const [name, colour, centre, most] = GROUPS[gi];
      if (!list.length) return;
      const shown = list.slice(0, most > 20 ? CAP : 6);
      const spread = Math.min(most, 4.5 * (shown.length - 1));
      const legend = s("g", { class: "legend" });
      legend.appendChild(s("circle", { cx: 10, cy: legendY - 4, r: 4, fill: colour }));
      legend.appendChild(s("text", { x: 18, y: legendY }, `${name} ${list.length}${list.length > shown.length ? ` (${shown.length} shown)` : ""}`));
      hood.appendChild(legend);
      legendY += 15;
      shown.forEach((j, k) => {
        const t = shown.length === 1 ? 0 : k / (shown.length - 1) - 0.5;
        const a = ((centre + 2 * spread * t) * Math.PI) / 180;
        const x = cx + rx * Math.cos(a), y = cy - ry * Math.sin(a);
        edges.appendChild(s("line", { x1: cx, y1: cy, x2: x.toFixed(1), y2: y.toFixed(1), stroke: colour }));
        const g = s("g", { class: "node", "data-pos": String(j), "data-group": name, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
        g.appendChild(s("circle", { r: 6, fill: colour }));
        g.appendChild(s("title", {}, `${N.name[j]} (${name})`));
        const left = Math.cos(a) < -0.2, vertical = Math.abs(Math.sin(a)) > 0.75;
        // top and bottom groups sit side by side: their labels slant away so they do not run into each other
        const slant = vertical ? (Math.sin(a) > 0 ? -35 : 35) : 0;
        g.appendChild(s("text", { x: left ? -9 : 9, y: 4, "text-anchor": left ? "end" : "start",
          transform: slant ? `rotate(${slant})` : "" }, fit(shortName(j), 22)));
        g.addEventListener("click", () => showSymbol(j));
        nodes.appendChild(g);
        drawn += 1;
      });
    });
    const seed = s("g", { class: "node seed", "data-pos": String(i), transform: `translate(${cx},${cy})` });
    seed.appendChild(s("circle", { r: 9 }));
    seed.appendChild(s("text", { x: 0, y: -14, "text-anchor": "middle" }, fit(shortName(i), 40)));
    nodes.appendChild(seed);
    hood.dataset.nodes = String(drawn);
  }

  function showSymbol(i) {
    if (i === undefined || i < 0 || i >= count) return;
    document.getElementById("hint").hidden = true;
    document.getElementById("symbol").hidden = false;
    document.getElementById("sym-name").textContent = N.name[i];
    const loc = document.getElementById("sym-loc");
    clear(loc);
    const kind = D.meta.kinds[N.kind[i]];
    loc.appendChild(h("span", { class: "why" }, `${kind} · id ${N.id[i]}${N.test[i] ? " · test" : ""} · `));
    loc.appendChild(h("a", { href: href(i), class: "file-link" }, `${path(i)}:${N.line[i]}`));
    const c = D.clusters.findIndex((x) => x.id === N.cluster[i]);
    if (c >= 0) {
      loc.appendChild(h("span", { class: "why" }, " · cluster "));
      const b = h("button", { class: "sym", type: "button" }, D.clusters[c].label);
      b.addEventListener("click", () => showCluster(c));
      loc.appendChild(b);
    }
    renderHood(i);
    const ol = document.getElementById("related");
    clear(ol);
    const rows = D.related[String(i)];
    if (!rows) {
      ol.appendChild(h("li", { class: "empty" }, `not in this page: run \`lore view --symbol ${N.id[i]}\` to add its related list`));
    } else if (!rows.length) {
      ol.appendChild(h("li", { class: "empty" }, "no related symbols"));
    }
    for (const [j, score, why] of rows || []) {
      const li = h("li", { class: "related-row" });
      li.appendChild(symButton(j));
      li.appendChild(h("span", { class: "score" }, String(score)));
      li.appendChild(h("a", { href: href(j), class: "file-link why" }, `${path(j)}:${N.line[j]}`));
      if (why) li.appendChild(h("div", { class: "why" }, why));
      ol.appendChild(li);
    }
    if (location.hash !== `#symbol=${N.id[i]}`) history.replaceState(null, "", `#symbol=${N.id[i]}`);
  }

  // ---- search: names whose last part starts with the query first, then any containing it
  const search = document.getElementById("search"), results = document.getElementById("results");
  const lower = N.name.map((x) => x.toLowerCase());
  function runSearch() {
    const q = search.value.trim().toLowerCase();
    clear(results);
    if (!q) return;
    const starts = [], contains = [];
    for (let i = 0; i < count && starts.length < 30; i++) {
      const name = lower[i];
      const at = name.indexOf(q);
      if (at < 0) continue;
      const last = name.lastIndexOf(".") + 1;
      (at === last ? starts : contains).push(i);
    }
    const hits = starts.concat(contains).slice(0, 30);
    if (!hits.length) results.appendChild(h("li", { class: "empty" }, "no symbol matches"));
    for (const i of hits) {
      const li = h("li");
      li.appendChild(symButton(i));
      li.appendChild(h("span", { class: "why" }, ` ${D.meta.kinds[N.kind[i]]}`));
      results.appendChild(li);
    }
  }
  search.addEventListener("input", runSearch);

  document.getElementById("meta").textContent =
    `${count} symbols · ${D.clusters.length} of ${D.meta.clusters_total} clusters mapped · generation ${D.meta.generation}`;
  renderMap();
  // the address says what to show: #symbol=ID and/or #q=text (read before showing a symbol rewrites it)
  const hash = location.hash;
  const m = /symbol=(-?\d+)/.exec(hash);
  const q = /[#&]q=([^&]+)/.exec(hash);
  const fromHash = m ? idPos.get(Number(m[1])) : undefined;
  if (fromHash !== undefined) showSymbol(fromHash);
  else if (D.start >= 0) showSymbol(D.start);
  if (q) { search.value = decodeURIComponent(q[1]); runSearch(); }
  document.body.dataset.ms = String(Math.round(performance.now()));  // from navigation start to drawn
  document.body.dataset.ready = "1";
})();
