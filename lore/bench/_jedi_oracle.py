"""Agreement of lore's call graph with Jedi, an independent resolver, on real projects nobody here wrote.

Jedi (https://github.com/davidhalter/jedi) infers what a name refers to by evaluating the code; it is a
development dependency only, imported inside :func:`jedi_answers`. The method:

1. **Projects**: pinned sdists of three styles -- a web framework (flask), a CLI library (click), a
   scientific library (networkx) -- fetched with pip and checked by sha256 (:mod:`lore.bench._sdist`),
   indexed by lore into the cache directory (a fresh build each run).
2. **Call sites** come from Python's own ``ast`` (every ``Call`` whose function is a name or an
   attribute), not from lore, so the sample does not move when lore's extractor changes; a seeded sample
   (``random.Random(seed)``) of them is judged.
3. **Jedi's answer** at the called name's position (lines 1-based, columns 0-based in characters):
   ``goto(follow_imports=True)``; when that lands on a variable or parameter, ``infer`` (the value that
   is called). Jedi *binds* a site when every function / class it names lies in the project and they are
   one definition (the ``@overload`` stubs of one function count as that function; the implementation,
   the last of them, is the answer). When a package ships ``.pyi`` stubs, Jedi's goto maps the stub back
   to the ``.py`` module and stops at its re-exporting ``from ._impl import f``; that import is followed
   with Jedi's own goto, as goto already does for a package without stubs, and an import it cannot
   follow either is no definition (the site is not bound). The scores as counted before that (and before
   the wrapper rule of 4.) are reported beside the main ones (``old_counting``). Jedi's project path puts the project's sources first, so an installed
   copy of the same package is not used. Answers are cached per (project, version, jedi version, seed).
4. **Mapping** Jedi's definition to a lore symbol: the innermost function / method / class of that name in
   that file whose lines contain Jedi's line; else the symbol with Jedi's qualified name. A class also
   accepts its ``__init__`` (its own, or the first found up lore's ``extends`` edges; all of that class's
   ``__init__`` definitions when it has ``@overload`` signatures), since a constructor call may be
   recorded against either. A decorated function also accepts a function defined inside one of its
   decorators (the wrapper it returns): Jedi's goto names the ``def`` as written, while the call runs
   what the decorator returned. A ``def`` under ``if TYPE_CHECKING:`` (a declaration for type checkers,
   which Jedi prefers, as it prefers a stub) also accepts the run-time definition of the same name.
   A ``.pyi`` stub's definition that no run-time file defines under its qualified name (Jedi's goto
   then answers the stub) accepts the one run-time definition of the same class and member name in its
   package (:mod:`lore.bench._jedi_conventions`; scored beside as ``before_third_round``).
5. **Lore's answer** at the same site: the ``symbol_refs`` rows at that line and column whose callee text
   ends with the called name (not with ``name()``: that row calls what the sampled call returned, as a
   decorator factory's result is called with the function it decorates).

6. **Unions** (issue 34's fourth round): where lore binds a target Jedi's answer does not accept, Jedi
   is asked again with its dynamic parameter search unbounded (:mod:`lore.bench._jedi_unions`); a
   target it then names too is right for precision (``also_true``), never for recall. The strict
   counting is scored beside (``strict_unions``, which also leaves out the fourth round's stub rule:
   a ``.pyi`` declaration accepts the one run-time definition of its own qualified name).

Scores (:func:`lore.bench._jedi_score.score`): *recall* over the sites Jedi binds (lore has an edge from the site to Jedi's
definition), *precision* over the sites both bind in the project (every in-project target of lore is
Jedi's definition: an ambiguous guess among k names is wrong even when one of them is right), and the
*rule share* of all sampled sites (:mod:`lore.bench._rule_share`). Misses and wrong bindings are broken
down by lore's resolution and by a cause label, with examples.
"""

from __future__ import annotations

import ast
import json
import random
import time
from pathlib import Path

from ..errors import LoreError
from ._jedi_conventions import (
    SourceFacts,
    runtime_by_tail,
    runtime_twins,
    source_facts,
    stub_twins,
    through_import,
    wrappers,
)
from ._jedi_project import cached_answers, jedi_project
from ._jedi_projects import HELD_OUT, PROJECTS, SECOND_HELD_OUT, SECOND_TUNING, Project  # noqa: F401 (re-exported)
from ._jedi_score import CallSite, Judgement, Tally, flat_metrics, format_report, score  # noqa: F401 (re-exported)
from ._jedi_unions import UNBOUNDED_VERSION, confirmed, unbounded_answers
from ._rule_share import (
    NAME_GUESSES,
    STRENGTHS,
    LoreSite,
    Sym,
    lore_sites,
    strength_of,
    symbol_rows,
)
from ._sdist import cache_dir, fetch_sdist

# Bumped when Jedi's answers are asked differently (the cached answers of an older method are not reused):
# "stubs" follows a re-exporting import Jedi stops at after mapping a ``.pyi`` stub back to its source.
ORACLE_VERSION = "stubs"
CALLABLE = frozenset({"function", "class"})
DEFINITIONS = frozenset({"function", "method", "class"})
SITE_KINDS = frozenset({"call", "new", "decorator", "raise"})  # lore rows that can sit on an ast Call


class JediMissingError(LoreError):
    """Jedi is not installed (it is a development dependency of the benchmark only)."""

    def __init__(self) -> None:
        super().__init__("the Jedi agreement benchmark needs jedi: pip install jedi (or pip install -e .[dev])")


def _char_col(line_text: str, byte_col: int) -> int:
    return len(line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))


def call_sites_of_source(path: str, source: str) -> list[CallSite]:
    """The call sites of one file's source whose function is a name or an attribute, in source order.

    Examples
    --------
    >>> [(s.name, s.line, s.col, s.name_col) for s in call_sites_of_source("m.py", "x = a.b(c())\\n")]
    [('b', 1, 4, 6), ('c', 1, 8, 8)]
    """
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError):
        return []
    lines = source.splitlines()
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        if isinstance(fn, ast.Name):
            name, nline, nbyte = fn.id, fn.lineno, fn.col_offset
        elif isinstance(fn, ast.Attribute) and fn.end_lineno is not None and fn.end_col_offset is not None:
            name, nline, nbyte = fn.attr, fn.end_lineno, fn.end_col_offset - len(fn.attr.encode("utf-8"))
        else:
            continue
        if nline > len(lines) or node.lineno > len(lines):
            continue
        out.append(CallSite(path, node.lineno, node.col_offset, name, nline, _char_col(lines[nline - 1], nbyte),
                            lines[node.lineno - 1].strip()))
    out.sort(key=lambda s: (s.line, s.col, s.name_line, s.name_col))
    return out


def call_sites_of(root: Path) -> list[CallSite]:
    """Every call site of the ``.py`` files under ``root`` (hidden directories skipped), sorted."""
    root = Path(root)
    out: list[CallSite] = []
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        try:
            source = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        out.extend(call_sites_of_source(rel.as_posix(), source))
    return out


def sample_sites(sites: list[CallSite], n: int, *, seed: int = 0) -> list[CallSite]:
    """A seeded sample of ``n`` sites (all when fewer), in site order.

    >>> s = [CallSite("a.py", i, 0, "f", i, 0, "") for i in range(1, 11)]
    >>> [x.line for x in sample_sites(s, 3, seed=0)] == [x.line for x in sample_sites(s, 3, seed=0)]
    True
    """
    if n >= len(sites):
        return list(sites)
    picked = sorted(random.Random(seed).sample(range(len(sites)), n))
    return [sites[i] for i in picked]


# -- Jedi -----------------------------------------------------------------------------------------


def _import_jedi():
    try:
        import jedi  # type: ignore[import-untyped]
    except ImportError as exc:  # a dev dependency only
        raise JediMissingError() from exc
    return jedi


def _describe(name, root: Path) -> dict:
    path = name.module_path
    in_project = False
    rel = None
    if path is not None:
        try:
            rel = Path(path).resolve().relative_to(root).as_posix()
            in_project = True
        except ValueError:
            rel = str(path)
    return {"type": name.type, "name": name.name, "full_name": name.full_name, "path": rel,
            "line": name.line, "in_project": in_project}


def classify_names(found: list[dict]) -> tuple[str, dict | None]:
    """Jedi's status at a site and its one in-project definition (``"bound"``), from described names.

    Statuses: ``bound``, ``external`` (every function / class lies outside the project), ``multiple``
    (several definitions, or inside and outside), ``other`` (only variables, modules, instances),
    ``none`` (nothing found).

    >>> f = {"type": "function", "name": "f", "full_name": "m.f", "path": "m.py", "in_project": True}
    >>> classify_names([dict(f, line=3), dict(f, line=7)])[1]["line"]  # overloads: the implementation
    7
    """
    if not found:
        return "none", None
    callables = [d for d in found if d["type"] in CALLABLE]
    if not callables:
        return "other", None
    inside = [d for d in callables if d["in_project"]]
    if not inside:
        return "external", None
    if len(inside) != len(callables):
        return "multiple", None
    groups = {(d["path"], d["full_name"] or d["name"]) for d in inside}
    if len(groups) != 1:
        return "multiple", None
    return "bound", max(inside, key=lambda d: d["line"] or 0)


def _ask(script, site: CallSite, root: Path, keep: int = 4) -> dict:
    try:
        names = script.goto(site.name_line, site.name_col, follow_imports=True)
        via = "goto"
        if not any(n.type in CALLABLE for n in names):
            inferred = script.infer(site.name_line, site.name_col)
            if inferred:
                names, via = inferred, "infer"
        raw = [_describe(n, root) for n in names]
        found = [d for n in names for d in through_import(n, lambda m: _describe(m, root))]
    except Exception as exc:  # Jedi's own failures on odd code: recorded, the site counts as not bound
        return {"status": "error", "via": "", "target": None, "found": [], "error": f"{type(exc).__name__}: {exc}"[:200]}
    status, target = classify_names(found)
    answer = {"status": status, "via": via, "target": target, "found": found[:keep]}
    if raw != found:  # the answer before following a stub's re-exporting import, scored beside it
        raw_status, raw_target = classify_names(raw)
        answer["stub_import_stop"] = {"status": raw_status, "target": raw_target, "found": raw[:4]}
    return answer



def jedi_answers(project: Project, root: Path, sites: list[CallSite], *, cache_file: Path | None = None,
                 progress=None) -> dict[str, dict]:
    """Jedi's answer for every site (``site.key -> answer``), read from / written to ``cache_file``.

    Raises
    ------
    JediMissingError
        jedi is not installed.
    """
    jedi = _import_jedi()
    root = Path(root).resolve()
    cached = cached_answers(jedi, cache_file)
    todo = [s for s in sites if s.key not in cached]
    if todo:
        proj = jedi_project(jedi, project, root)
        by_file: dict[str, list[CallSite]] = {}
        for s in todo:
            by_file.setdefault(s.path, []).append(s)
        for k, (path, group) in enumerate(sorted(by_file.items())):
            source = (root / path).read_text(encoding="utf-8")
            script = jedi.Script(source, path=root / path, project=proj)
            for s in group:
                cached[s.key] = _ask(script, s, root)
            if progress is not None:
                progress(k + 1, len(by_file))
        if cache_file is not None:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            cache_file.write_text(json.dumps({"jedi": jedi.__version__, "project": project.name,
                                              "version": project.sdist.version, "answers": cached}, sort_keys=True))
    return {s.key: cached[s.key] for s in sites}


# -- lore's side and the judgement ------------------------------------------------------------------


class LoreView:
    """lore's symbols, call sites and class bases of one index, keyed for the judgement."""

    def __init__(self, symbols: dict[int, Sym], sites: list[LoreSite], bases: dict[int, list[int]],
                 root: Path | None = None) -> None:
        self.symbols = symbols
        self.bases = bases
        self.root = Path(root) if root is not None else None
        self.later_conventions = True  # decorator wrappers and TYPE_CHECKING twins accepted (False: as before)
        self.third_conventions = True  # a stub-only declaration's run-time twin accepted (issue 34's third round)
        self.fourth_conventions = True  # a stub declaration's same-named run-time definition accepted (fourth)
        self._by_tail: dict | None = None
        self._lines: dict[str, list[str]] = {}
        self._source_facts: dict[str, SourceFacts] = {}
        self.by_pos: dict[tuple[str, int, int], list[LoreSite]] = {}
        for s in sites:
            self.by_pos.setdefault((s.path, s.line, s.col), []).append(s)
        self.defs_in_file: dict[str, list[Sym]] = {}
        self.by_qname: dict[str, list[int]] = {}
        for r in symbols.values():
            if r.kind in DEFINITIONS:
                self.defs_in_file.setdefault(r.path, []).append(r)
                self.by_qname.setdefault(r.qualified_name, []).append(r.id)

    @classmethod
    def from_index(cls, idx, root: Path | None = None) -> LoreView:
        """Read one open index (and, for labels, the sources under ``root``)."""
        symbols = symbol_rows(idx)
        bases: dict[int, list[int]] = {}
        for e in idx.edges("symbol_relationships"):
            if e["kind"] == "extends" and e["target_id"] is not None:
                bases.setdefault(e["source_id"], []).append(e["target_id"])
        return cls(symbols, lore_sites(idx, symbols, kinds=SITE_KINDS), bases, root)

    def symbol_for(self, target: dict) -> int | None:
        """The lore symbol of a Jedi definition (``path``, ``line``, ``name``, ``full_name``)."""
        best = None
        line: int = target.get("line") or 0  # none given: by qualified name only
        for r in self.defs_in_file.get(target.get("path") or "", []) if line else ():
            if r.name == target["name"] and r.line is not None and r.line <= line <= (r.end_line or r.line):
                if best is None or (r.line, -r.id) > (best.line, -best.id):
                    best = r
        if best is not None:
            return best.id
        ids = self.by_qname.get(target.get("full_name") or "", [])
        return ids[0] if len(ids) == 1 else None

    def accepted(self, sid: int) -> frozenset[int]:
        """``sid``, and for a class its own or first inherited ``__init__`` (lore's ``extends`` edges); for a
        decorated function, the functions defined inside its decorators (the wrappers they return)."""
        r = self.symbols.get(sid)
        if r is not None and self.later_conventions and self.third_conventions and r.path.endswith(".pyi"):
            if self._by_tail is None:
                self._by_tail = runtime_by_tail(self.symbols)
            twins = stub_twins(self.symbols, self._by_tail, r, same_name=self.fourth_conventions)
            if twins:
                return frozenset({sid}).union(*(self.accepted(t) for t in twins))
        if r is not None and r.kind in ("function", "method") and self.later_conventions:
            facts = self._facts(r.path)
            return frozenset({sid, *wrappers(self.symbols, r, facts), *runtime_twins(self.defs_in_file, r, facts)})
        if r is None or r.kind != "class":
            return frozenset({sid})
        seen, queue = set(), [sid]
        while queue:
            c = queue.pop(0)
            if c in seen:
                continue
            seen.add(c)
            # every ``__init__`` of that class: its ``@overload`` signatures and their implementation
            # are one constructor (as for Jedi's answers, see classify_names)
            inits = {d.id for d in self.defs_in_file.get(self.symbols[c].path, [])
                     if d.parent_id == c and d.name == "__init__"}
            if inits:
                return frozenset({sid, *inits})
            queue.extend(b for b in self.bases.get(c, []) if b in self.symbols and self.symbols[b].kind == "class")
        return frozenset({sid})

    def _facts(self, path: str) -> SourceFacts:
        if path not in self._source_facts:
            self._source_facts[path] = source_facts("\n".join(self._source_lines(path)))
        return self._source_facts[path]

    def lore_answer(self, site: CallSite) -> tuple[list[tuple[int | None, str]], str, str]:
        """(rows, strongest resolution, strength) lore recorded at ``site``."""
        rows: list[tuple[int | None, str]] = []
        for ls in self.by_pos.get((site.path, site.line, site.col), []):
            if _same_call(ls, site):
                rows.extend(ls.targets)
        if not rows:
            return [], "not_extracted", "unresolved"
        order = {s: i for i, s in enumerate(STRENGTHS)}
        best = min(((strength_of(res, self.symbols[c].kind if c in self.symbols else None), res) for c, res in rows),
                   key=lambda t: (order[t[0]], t[1]))
        return sorted(set(rows), key=lambda t: (t[0] is None, t[0] or 0, t[1])), best[1], best[0]

    def _source_lines(self, path: str) -> list[str]:
        if self.root is None:
            return []
        if path not in self._lines:
            try:
                self._lines[path] = (self.root / path).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines[path] = []
        return self._lines[path]

    def is_stub_or_overload(self, sid: int) -> bool:
        """Whether lore's symbol is a ``.pyi`` stub or an ``@overload`` signature."""
        r = self.symbols.get(sid)
        if r is None:
            return False
        if r.path.endswith(".pyi"):
            return True
        lines = self._source_lines(r.path)
        if not lines or r.line is None:
            return False
        window = lines[max(0, r.line - 4): r.line + 2]
        return any(t.lstrip().startswith("@") and "overload" in t for t in window)


def _same_call(ls, site: CallSite) -> bool:
    """Whether lore's row is the sampled call: the called name matches, and it is not the call of that
    call's *result* at the same position (``@factory(x)`` calls ``factory`` there, then calls what it
    returns with the decorated function: lore records that second call as ``factory()``; the sampled
    site, whose function is a name or an attribute, is the first)."""
    return ls.last_name == site.name and not ls.callee_name.endswith(")")


def judge(site: CallSite, answer: dict, view: LoreView) -> Judgement:
    """Put Jedi's answer and lore's rows at one site side by side, with a cause when they disagree."""
    rows, resolution, strength = view.lore_answer(site)
    inside = tuple(sorted({c for c, _ in rows if c is not None and c in view.symbols
                           and view.symbols[c].kind != "external"}))
    j = Judgement(site, answer["status"], lore_targets=inside, lore_resolution=resolution, lore_strength=strength)
    j.lore_label = ", ".join(view.symbols[c].qualified_name for c in inside) or ", ".join(
        sorted({view.symbols[c].qualified_name for c, _ in rows if c is not None and c in view.symbols})) or "-"
    target = answer.get("target")
    if j.jedi_status == "bound" and target is not None:
        j.jedi_label = target.get("full_name") or f"{target.get('path')}:{target.get('line')}"
        j.jedi_target = view.symbol_for(target)
        j.accept = view.accepted(j.jedi_target) if j.jedi_target is not None else frozenset()
        hit = bool(j.accept.intersection(inside))
        wrong = bool(inside) and not set(inside) <= j.accept
        if not hit or wrong:
            j.cause = _cause(j, view, target)
    elif j.jedi_status == "external" and inside:
        found = answer.get("found") or []
        j.jedi_label = next((d["full_name"] for d in found if d.get("full_name")), "external")
        j.cause = ("external-typed receiver bound by name" if resolution in NAME_GUESSES
                   else "rule bound in project, Jedi says external")
    return j


def _cause(j: Judgement, view: LoreView, target: dict) -> str:
    wrong = [c for c in j.lore_targets if c not in j.accept]
    if any(view.is_stub_or_overload(c) for c in wrong):
        return "stub/.pyi or @overload chosen"
    callee_texts = [ls.callee_name for ls in view.by_pos.get((j.site.path, j.site.line, j.site.col), [])
                    if _same_call(ls, j.site)]
    if any(t.startswith("super()") for t in callee_texts):
        return "super()"
    if target.get("type") == "class" or target.get("name") == "__init__" or j.site.name == "__init__":
        return "constructor / inherited __init__"
    if j.jedi_target is None:
        return "no lore symbol for Jedi's definition"
    if j.lore_strength == "unresolved":
        return "unresolved"
    if not j.lore_targets:
        return "bound to an external symbol"
    if j.lore_resolution in NAME_GUESSES:
        return "heuristic guess"
    return "rule bound elsewhere"


# -- the run ----------------------------------------------------------------------------------------


def _judge_unions(project: Project, root: Path, judged: list[Judgement], view: LoreView, cache_file: Path) -> dict:
    """Ask Jedi, its parameter search unbounded, at every site where lore binds a target Jedi's answer
    does not accept (:mod:`lore.bench._jedi_unions`), and record the targets it confirms in ``also_true``."""
    asked = [j for j in judged if j.jedi_status == "bound" and j.lore_targets and not set(j.lore_targets) <= j.accept]
    if not asked:
        return {"asked": 0, "confirmed": 0, "abandoned": 0}
    answers = unbounded_answers(project, root, [j.site for j in asked], _ask, cache_file=cache_file)
    n_ok = 0
    for j in asked:
        extra = confirmed(answers[j.site.key]["found"], view.symbol_for, view.accepted)
        j.also_true = frozenset(t for t in j.lore_targets if t in extra and t not in j.accept)
        n_ok += set(j.lore_targets) <= j.accept | j.also_true
    return {"asked": len(asked), "confirmed": n_ok,
            "abandoned": sum(answers[j.site.key]["status"] == "abandoned" for j in asked)}



def _short(t: Tally) -> dict:
    """Recall and precision of a tally (the scores beside the main ones)."""
    d = t.as_dict()
    return {k: d[k] for k in ("jedi_bound", "lore_hits", "recall", "both_bind", "lore_correct", "precision")}


def run_jedi(projects: tuple[Project, ...] | list[Project] = PROJECTS, *, sites_per_project: int = 1000,
             seed: int = 0, cache: Path | None = None, workers: int | None = None, reuse_index: bool = False,
             roots: dict[str, Path] | None = None, progress=None) -> dict:
    """Judge a seeded sample of call sites per project against Jedi; see the module docstring.

    Parameters
    ----------
    projects : sequence of Project
        Default: flask, click, networkx (pinned sdists).
    sites_per_project : int
        Sample size per project (all sites when a project has fewer).
    seed : int
        Seed of the sample.
    cache : Path, optional
        Downloads, indexes and Jedi's cached answers (default :func:`lore.bench._sdist.cache_dir`).
    roots : dict, optional
        ``{project name: directory}`` to judge a local tree instead of downloading (tests).

    Returns
    -------
    dict
        ``{"projects": {name: scores}, "overall": scores, "seed", "sites_per_project", "jedi", "seconds"}``
        with the scores of :meth:`Tally.as_dict`.
    """
    from ..api import index_repo, open_index

    jedi = _import_jedi()
    t0 = time.perf_counter()
    cache = Path(cache) if cache else cache_dir()
    work = cache / "jedi"
    work.mkdir(parents=True, exist_ok=True)
    overall, overall_stops, overall_before, overall_strict = Tally(), Tally(), Tally(), Tally()
    overall_unions: dict[str, int] = {}
    out: dict[str, dict] = {}
    for p in projects:
        root = Path(roots[p.name]) if roots and p.name in roots else fetch_sdist(p.sdist, cache)
        db = work / f"{p.name}-{p.sdist.version}.db"
        if not (reuse_index and db.exists()):
            index_repo(root, db=db, workers=workers, rebuild=True)
        sample = sample_sites(call_sites_of(root), sites_per_project, seed=seed)
        answers = jedi_answers(p, root, sample, progress=progress,
                               cache_file=work / f"answers-{p.name}-{p.sdist.version}-jedi{jedi.__version__}-seed{seed}"
                                                         f"-{ORACLE_VERSION}.json")
        with open_index(db, readonly=True) as idx:
            view = LoreView.from_index(idx, root)
        judged = [judge(s, answers[s.key], view) for s in sample]
        unions = _judge_unions(p, root, judged, view, work / f"unbounded-{p.name}-{p.sdist.version}-jedi"
                               f"{jedi.__version__}-seed{seed}-{ORACLE_VERSION}-{UNBOUNDED_VERSION}.json")
        tally = score(judged)
        view.fourth_conventions = False  # the counting before issue 34's fourth round, scored beside
        strict = score([judge(s, answers[s.key], view) for s in sample])
        view.third_conventions = False  # the counting before issue 34's third round, scored beside
        before = score([judge(s, answers[s.key], view) for s in sample])
        view.later_conventions = False  # the counting before issue 34's second round, scored beside
        stops = score([judge(s, {**answers[s.key], **answers[s.key].get("stub_import_stop", {})}, view)
                       for s in sample])
        overall.add(tally)
        overall_stops.add(stops)
        out[p.name] = {"style": p.style, "sdist": p.sdist.requirement, **tally.as_dict(),
                       "old_counting": _short(stops), "before_third_round": _short(before),
                       "strict_unions": _short(strict), "unions": unions}
        overall_before.add(before)
        overall_strict.add(strict)
        for k, v in unions.items():
            overall_unions[k] = overall_unions.get(k, 0) + v
    return {"projects": out, "overall": {**overall.as_dict(), "old_counting": _short(overall_stops),
                                          "before_third_round": _short(overall_before),
                                          "strict_unions": _short(overall_strict), "unions": overall_unions},
            "seed": seed, "sites_per_project": sites_per_project,
            "jedi": jedi.__version__, "seconds": round(time.perf_counter() - t0, 1)}
