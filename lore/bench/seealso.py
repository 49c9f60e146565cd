"""Relevance judgements from numpydoc "See Also" sections: human-curated related symbols.

networkx documents most public functions with numpydoc docstrings whose ``See Also`` section names
the functions its authors consider related. Those names are resolved to symbols of the index the
way a reader would resolve them:

1. members of the symbol's own class (``to_directed`` in ``Graph.to_undirected``), or of the class
   itself when the symbol is a class;
2. the namespace of the symbol's module: its definitions and its imports (``from x import y as z``,
   star imports followed transitively);
3. the namespaces of the enclosing packages, innermost first, up to the root package (this is how
   ``nx.foo`` / ``networkx.foo`` re-exports of deep modules resolve);
4. dotted names (``Graph.add_edge``, ``networkx.algorithms.foo``, ``nx.foo``) walk module
   namespaces and then class members;
5. only when all of that fails, a name defined exactly once in the non-test code (counted apart
   as ``unique_name``).

Everything else is counted as unresolved. Only the docstrings are read here: the structural
algorithms being scored never see docstrings (they read the call, type, inheritance and import
matrices of :mod:`lore.graphs.build`, which holds no text).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..api import Index
from ._data import symbol_table

_HEADER = re.compile(r"^\s*see also\s*:?\s*$", re.IGNORECASE)
_UNDERLINE = re.compile(r"^\s*[-=~^]{3,}\s*$")
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`([^`]*)`")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
SOURCE_KINDS = ("function", "method", "class")
ROOT_ALIASES = {"nx": "networkx"}


def see_also_entries(docstring: str | None) -> list[str]:
    """Names listed in the numpydoc ``See Also`` section(s) of a docstring, in order.

    Entry lines are ``name``, ``name1, name2``, ``name : description`` or ``name: description``;
    more deeply indented lines continue a description; Sphinx roles (``:func:`~a.b```) and
    backticks are stripped; the section ends at the next ``Header`` / ``------`` pair.

    Examples
    --------
    >>> doc = '''Sum things.
    ...
    ... See Also
    ... --------
    ... add, :func:`~pkg.mod.mul`
    ... divide : the inverse
    ...     of multiply.
    ... `power`
    ...
    ... Notes
    ... -----
    ... nothing
    ... '''
    >>> see_also_entries(doc)
    ['add', 'pkg.mod.mul', 'divide', 'power']
    """
    if not docstring:
        return []
    lines = docstring.expandtabs().splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines) - 1:
        if _HEADER.match(lines[i]) and _UNDERLINE.match(lines[i + 1]):
            j = i + 2
            base: int | None = None
            while j < len(lines):
                line = lines[j]
                if j + 1 < len(lines) and line.strip() and _UNDERLINE.match(lines[j + 1]):
                    break  # next section
                if not line.strip():
                    j += 1
                    continue
                indent = len(line) - len(line.lstrip())
                if base is None:
                    base = indent
                if indent <= base:
                    out.extend(_names_of_entry(line.strip()))
                j += 1
            i = j
        else:
            i += 1
    return out


def _names_of_entry(text: str) -> list[str]:
    text = _ROLE.sub(lambda m: m.group(1), text)
    # "name : description" or "name: description" -> keep the part before the colon
    head = re.split(r"\s+:\s*|:\s+|:$", text, maxsplit=1)[0]
    names = []
    for part in head.split(","):
        name = part.strip().strip("`").strip()
        name = name.lstrip("~").lstrip(".")
        if name.endswith("()"):
            name = name[:-2]
        name = name.rstrip(".")
        if name and _NAME.match(name):
            names.append(name)
        elif name:
            # prose ("the function foo") is not an entry; count it as unparsed
            names.append("\0" + name)
    return names


@dataclass
class Judgements:
    """Resolved See-Also pairs and the bookkeeping of what could not be used."""

    pairs: dict[int, list[int]]  # source symbol id -> related symbol ids (order of the docstring)
    entries: int = 0
    resolved: int = 0
    unresolved: list[tuple[str, str]] = field(default_factory=list)  # (source qname, entry)
    by_rule: Counter = field(default_factory=Counter)
    dropped: Counter = field(default_factory=Counter)  # resolved but not a possible answer, by reason
    sources_with_section: int = 0

    def summary(self) -> dict:
        n_pairs = sum(len(v) for v in self.pairs.values())
        return {
            "symbols_with_see_also": self.sources_with_section,
            "entries": self.entries,
            "resolved": self.resolved,
            "unresolved": len(self.unresolved),
            "resolved_by_rule": dict(sorted(self.by_rule.items())),
            "dropped_pairs": dict(sorted(self.dropped.items())),
            "queries": len(self.pairs),
            "pairs": n_pairs,
            "unresolved_examples": [f"{s}: {e}" for s, e in self.unresolved[:15]],
        }


class NameResolver:
    """Resolve names the way a reader of a module would (see the module docstring)."""

    def __init__(self, idx: Index, *, aliases: dict[str, str] | None = None) -> None:
        self.aliases = dict(ROOT_ALIASES if aliases is None else aliases)
        self.table = symbol_table(idx)
        self.children: dict[int, dict[str, int]] = {}
        self.by_qname: dict[str, int] = {}
        self.by_short: dict[str, list[int]] = {}
        for sid in sorted(self.table):
            r = self.table[sid]
            name, qname, kind, is_test, parent = r[1], r[2], r[3], r[9], r[11]
            if kind == "external":
                continue
            self.by_qname.setdefault(qname, sid)
            if parent is not None:
                self.children.setdefault(parent, {}).setdefault(name, sid)
            if not is_test and kind in SOURCE_KINDS:
                self.by_short.setdefault(name, []).append(sid)
        self.module_of_file: dict[int, int] = {
            r[10]: sid for sid, r in self.table.items() if r[3] == "module" and r[10] is not None
        }
        self.imports: dict[int, dict[str, int]] = {}  # module symbol -> name -> target
        self.stars: dict[int, list[int]] = {}  # module symbol -> star-imported module symbols
        for e in idx.edges("file_imports"):
            mod = self.module_of_file.get(e["file_id"])
            if mod is None or e["target_id"] is None:
                continue
            if e["name"] == "*":
                self.stars.setdefault(mod, []).append(e["target_id"])
            elif e["name"]:
                self.imports.setdefault(mod, {})[e["alias"] or e["name"]] = e["target_id"]
            elif e["alias"]:  # import a.b as c
                self.imports.setdefault(mod, {})[e["alias"]] = e["target_id"]
        self._ns_cache: dict[int, dict[str, int]] = {}
        self.root_modules = {r[2]: sid for sid, r in self.table.items() if r[3] == "module" and "." not in r[2]}
        self.bases: dict[int, list[int]] = {}
        for e in idx.edges("symbol_relationships"):
            if e["kind"] == "extends" and e["target_id"] is not None:
                self.bases.setdefault(e["source_id"], []).append(e["target_id"])

    def namespace(self, module: int) -> dict[str, int]:
        """Names visible at the top level of a module: star imports, then definitions and imports."""
        got = self._ns_cache.get(module)
        if got is not None:
            return got
        self._ns_cache[module] = {}  # cycle guard
        ns: dict[str, int] = {}
        for target in self.stars.get(module, []):
            for k, v in self.namespace(target).items():
                if not k.startswith("_"):
                    ns.setdefault(k, v)
        ns.update(self.imports.get(module, {}))
        ns.update(self.children.get(module, {}))
        self._ns_cache[module] = ns
        return ns

    def member(self, sid: int, name: str, depth: int = 0) -> int | None:
        r = self.table.get(sid)
        if r is None:
            return None
        if r[3] == "module":
            return self.namespace(sid).get(name)
        got = self.children.get(sid, {}).get(name)
        if got is None and r[3] == "class" and depth < 10:
            for b in self.bases.get(sid, []):
                got = self.member(b, name, depth + 1)
                if got is not None:
                    break
        return got

    def dotted(self, start: int, parts: list[str]) -> int | None:
        cur: int | None = start
        for p in parts:
            if cur is None:
                return None
            cur = self.member(cur, p)
        return cur

    def module_chain(self, sid: int) -> list[int]:
        """Enclosing module, then its packages up to the root (module symbols)."""
        r = self.table[sid]
        mod = self.module_of_file.get(r[10])
        chain = []
        if mod is None:
            return chain
        qn = self.table[mod][2]
        parts = qn.split(".")
        chain.append(mod)
        for k in range(len(parts) - 1, 0, -1):
            pkg = self.by_qname.get(".".join(parts[:k]))
            if pkg is not None and self.table[pkg][3] == "module":
                chain.append(pkg)
        return chain

    def resolve(self, source: int, name: str) -> tuple[int | None, str]:
        """(symbol id or None, the rule that resolved it)."""
        parts = name.split(".")
        if parts[0] in self.aliases:
            parts[0] = self.aliases[parts[0]]
        r = self.table[source]
        # 1. class members
        cls = source if r[3] == "class" else (r[11] if r[3] == "method" else None)
        if cls is not None:
            got = self.dotted(cls, parts)
            if got is not None:
                return got, "class_member"
        # 2-3. the module, then its packages
        for i, mod in enumerate(self.module_chain(source)):
            got = self.dotted(mod, parts)
            if got is not None:
                return got, "module" if i == 0 else "package"
        # 4. absolute dotted names
        if parts[0] in self.root_modules:
            got = self.dotted(self.root_modules[parts[0]], parts[1:])
            if got is not None:
                return got, "absolute"
        whole = self.by_qname.get(".".join(parts))
        if whole is not None:
            return whole, "absolute"
        # 5. unique short name
        cands = self.by_short.get(parts[-1], [])
        if len(cands) == 1:
            return cands[0], "unique_name"
        return None, "unresolved"


def extract_judgements(idx: Index, *, answerable: set[int] | None = None,
                       containers: dict[int, set[int]] | None = None,
                       aliases: dict[str, str] | None = None) -> Judgements:
    """See-Also pairs of every non-test function, method and class of the index.

    ``answerable``: symbol ids a related-symbols query may return (targets outside it are dropped
    and counted: modules, tests, externals). ``containers``: per source, the symbols that are
    excluded as its trivial containers (its class and module), also dropped and counted.
    ``aliases``: short import names used in the docstrings (default ``{"nx": "networkx"}``).
    """
    res = NameResolver(idx, aliases=aliases)
    j = Judgements(pairs={})
    for sid in sorted(res.table):
        r = res.table[sid]
        if r[3] not in SOURCE_KINDS or r[9]:
            continue
        entries = see_also_entries(r[8])
        if not entries:
            continue
        j.sources_with_section += 1
        targets: list[int] = []
        for name in entries:
            j.entries += 1
            if name.startswith("\0"):
                j.unresolved.append((r[2], name[1:]))
                continue
            got, rule = res.resolve(sid, name)
            if got is None:
                j.unresolved.append((r[2], name))
                continue
            j.resolved += 1
            j.by_rule[rule] += 1
            if got == sid:
                j.dropped["self"] += 1
            elif containers is not None and got in containers.get(sid, set()):
                j.dropped["container"] += 1
            elif answerable is not None and got not in answerable:
                j.dropped[f"not answerable ({res.table[got][3]}{', test' if res.table[got][9] else ''})"] += 1
            elif got in targets:
                j.dropped["duplicate"] += 1
            else:
                targets.append(got)
        if targets:
            j.pairs[sid] = targets
    return j
