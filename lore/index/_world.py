"""The resolver's world: every symbol of the index, per-file scope tables, memoized steps.

:class:`WorldCore` holds the state the other parts of the engine share (symbols by id, by qualified
name, by name and by parent; files and modules; the lazily loaded :class:`FileCtx` of each file; the
external symbols made on the way) and the guard that keeps memoized steps order-independent
(:meth:`WorldCore._enter` / :meth:`WorldCore._leave`). The lookups are added by the mixins of
:mod:`._lookup`, :mod:`._hierarchy` and :mod:`._values`; :class:`lore.index.resolve.World` joins them.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..languages import ImportBinding, LanguageRules, rules_for
from ..parsers.records import Binding, Call, ParsedFile, Symbol
from ..store.schema import RESOLUTIONS
from ._contexts import Segments
from ._symtab import FileRow, SymbolSource, SymRow, eager_tables, lazy_tables, make_eager
from .walk import is_test_path

RANK = {r: i for i, r in enumerate(RESOLUTIONS)}
MAX_AMBIGUOUS = 4  # more candidates than this: unresolved (the name says too little)
MAX_DEPTH = 12  # nested lookups between two memoized steps (module member, MRO, class member, ...)
MAX_NEST = 48  # memoized steps in progress at once (each restarts the depth count)
_NO_CYCLE = 1 << 30
_ABSENT = object()  # not a context, not None: a file whose context is not built (WorldCore.ctx)
TYPE_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "type_alias"})


# A resolved value: (tag, payload). tags: sym (symbol id), inst (instance of class id),
# ext (external dotted name), extinst (instance of an external class), ns (namespace package prefix),
# any (a union: a sorted tuple of values, from lore.index._flow), opaque (a value of an external type
# nobody here defines: its members are never bound, and never guessed by name)
Value = tuple[str, object]


class _ScopeTable(dict):
    """scope -> {name: [(line, what, payload)]}, each scope's table grouped from the records on first read.

    ``what`` is ``def``, ``import``, ``bind`` (an assignment) or ``narrow`` (an ``isinstance`` test: a
    binding that holds on lines ``line`` to ``payload.until`` only). A parameter the function's body
    rebinds or narrows (``x = x.strip()``) is a candidate too: ``(the definition's line, "param", its
    position)``, so a use before the body's first binding of it, or on that binding's own line, reads
    the parameter. A parameter nothing rebinds has no entry: it is looked up directly."""

    def __init__(self, by_scope: dict[int, list[tuple[str, int, str, object]]], symbols: list[Symbol],
                 skipped: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self._by_scope = by_scope
        self._symbols = symbols
        self._skipped = skipped

    @property
    def skipped(self) -> Callable[[str], bool] | None:
        """Whether a definition's condition is skipped; ``None`` when no definition of the file has one."""
        return self._skipped

    def __missing__(self, scope: int) -> dict[str, list[tuple[int, str, object]]]:
        got: dict[str, list[tuple[int, str, object]]] = {}
        for name, line, what, payload in self._by_scope.pop(scope, ()):  # not needed once tabled
            got.setdefault(name, []).append((line, what, payload))
        if self._skipped is not None:
            for name, cands in got.items():
                if len(cands) > 1:
                    got[name] = self._built(cands)
        sym = self._symbols[scope]
        if got and sym.params and sym.kind in ("function", "method"):
            for idx, (pname, _ann) in enumerate(sym.params):
                rebound = got.get(pname)
                if rebound is not None:
                    rebound.append((sym.start_line, "param", idx))
        self[scope] = got
        return got

    def _built(self, cands: list[tuple[int, str, object]]) -> list[tuple[int, str, object]]:
        """C: a definition in a preprocessor branch a default build skips (``#ifdef _WIN32``; see
        ``LanguageRules.skipped_branch``) does not bind its name where the scope defines it again in a
        compiled branch (``#else``), or imports it (Python: the fallback of an import that failed).
        Decided when the table is first read, once the whole index is loaded."""
        assert self._skipped is not None
        syms = self._symbols
        skip = [c for c in cands if c[1] == "def" and syms[c[2]].condition and self._skipped(syms[c[2]].condition)]  # type: ignore[index,call-overload]
        # an import binds it too: Python's ``try: from .h2 import C`` / ``except ImportError: class C``
        if not skip or not any(c[1] in ("def", "import") and c not in skip for c in cands):
            return cands
        return [c for c in cands if c not in skip]


class FileCtx:
    """Scope tables of one parsed file, built once when the file is first needed."""

    def __init__(self, frow: FileRow, pf: ParsedFile, ids: list[int], rules: LanguageRules,
                 skipped: Callable[[str], bool] | None = None) -> None:
        self.frow, self.pf, self.ids, self.rules = frow, pf, ids, rules
        # what the context weighs, in record items (World.bound_contexts counts them)
        self.items = (len(pf.symbols) + len(pf.calls) + len(pf.type_refs) + len(pf.imports) + len(pf.bindings)
                      + len(pf.relations) + 1)
        self.local_of = {sid: i for i, sid in enumerate(ids)}
        n = len(pf.symbols)
        self.stars: list[list[ImportBinding]] = [[] for _ in range(n)]
        self.import_bindings: list[ImportBinding | None] = []
        self._bindings: dict[int, dict[str, list[Binding]]] = {}
        self._lambdas: dict[tuple[int, int], int] | None = None
        by_scope: dict[int, list[tuple[str, int, str, object]]] = defaultdict(list)
        for i, s in enumerate(pf.symbols):
            if s.parent is not None:
                by_scope[s.parent].append((s.name, s.start_line, "def", i))
        for b in pf.bindings:
            by_scope[b.owner].append((b.name, b.line, "narrow" if b.until else "bind", b))
            self._bindings.setdefault(b.owner, {}).setdefault(b.name, []).append(b)
        for imp in pf.imports:
            ib = rules.bind_import(imp, frow.module, frow.is_package)
            self.import_bindings.append(ib)
            if ib is None:
                continue
            if ib.star:
                self.stars[imp.owner].append(ib)
            else:
                by_scope[imp.owner].append((ib.name, imp.line, "import", ib))
        # per scope: name -> [(line, what, payload)] of everything that binds the name there; the hot
        # lookups index it directly (``c.cands[scope]``), a scope's table built on its first read
        has_branches = skipped is not None and any(s.condition for s in pf.symbols)  # C/C++, Python fallbacks
        self.cands = _ScopeTable(by_scope, pf.symbols, skipped if has_branches else None)

    def candidates(self, scope: int) -> dict[str, list[tuple[int, str, object]]]:
        """Everything that binds a name in ``scope``: definitions, imports, assignments (built once per scope)."""
        return self.cands[scope]

    def local_named(self, head: str) -> int | None:
        """The local index of a definition the parser names by position: ``<sym:N>`` (record ``N``) or
        ``<lambda:L:C>`` (the lambda starting at line ``L``, column ``C``); ``None`` if there is none."""
        try:
            if head.startswith("<sym:"):
                n = int(head[5:-1].split("@")[0])
                return n if 0 <= n < len(self.pf.symbols) else None
            if head.startswith("<lambda:"):
                if self._lambdas is None:
                    self._lambdas = {(s.start_line, s.start_col): i for i, s in enumerate(self.pf.symbols)
                                     if s.name == "<lambda>"}
                line, col = head[8:-1].split(":")
                return self._lambdas.get((int(line), int(col)))
        except ValueError:
            return None
        return None

    def bindings_of(self, scope: int) -> dict[str, list[Binding]]:
        return self._bindings.get(scope, {})

    def enclosing_class(self, local: int) -> int | None:
        """The class a method (or a function nested in a method) belongs to."""
        syms = self.pf.symbols
        i: int | None = local
        while i is not None:
            p = syms[i].parent
            if p is not None and syms[p].kind in TYPE_KINDS and syms[i].kind in ("method", "function"):
                return p
            i = p
        return None


class WorldCore:
    """Every symbol of the index plus lazily loaded per-file scope tables (the shared state of the engine)."""

    def __init__(
        self,
        symbols: Iterable[SymRow],
        files: list[FileRow],
        load_records: Callable[[int], tuple[ParsedFile, list[int]] | None],
        next_id: int,
        *,
        lazy: sqlite3.Connection | None = None,
    ) -> None:
        self.files: dict[int, FileRow] = {f.id: f for f in files}
        self.modules: dict[str, int] = {}
        self.module_file: dict[int, int] = {}
        self.namespaces: set[str] = set()
        # a stub (.pyi) beside its module (.py) describes it: lookups answer the implementation
        implemented = {f.module for f in files if not f.path.endswith(".pyi")}
        stubs = {f.id for f in files if f.path.endswith(".pyi") and f.module in implemented}
        # every symbol (a full index), or read from the store key by key (a refresh: lore.index._symtab)
        self._source: SymbolSource | None = None
        if lazy is not None:
            self._source, tables = lazy_tables(lazy, stubs)
        else:
            tables = eager_tables(symbols, stubs)
        self.syms: dict[int, SymRow] = tables[0]
        self.by_qname: dict[str, tuple[int, ...]] = tables[1]
        self.children: dict[int, dict[str, list[int]]] = tables[2]
        self.by_name: dict[str, list[int]] = tables[3]
        self.externals: dict[str, int] = tables[4]
        for f in files:
            self.module_file[f.module_id] = f.id
            if f.id in stubs:
                continue
            self.modules[f.module] = f.module_id
            parts = f.module.split(".")
            for k in range(1, len(parts)):
                self.namespaces.add(".".join(parts[:k]))
        self._load_records = load_records
        self.root: str | None = None  # the repository's folder (a worker elsewhere may lack it: never read it)
        self.project_data: dict = {}  # what languages read from the repository beside its sources, as data
        self._ctx: dict[int, FileCtx | None] = {}
        self._ctx_cap: int | None = None  # record items the contexts may hold (bound_contexts)
        self._ctx_items = 0  # until the bound is first reached; then the segments count them
        self._segments: Segments | None = None  # once the bound is reached: which contexts go first
        # call sites and type mentions of every file whose context was ever built, evicted or not: how
        # the resolver cuts its chunks (resolve_pool._chunks), the same whatever the bound evicted
        self.work_seen: dict[int, int] = {}
        self.new_externals: list[tuple[int, str, str]] = []
        self.next_id = next_id
        self._mro: dict[int, list[Value]] = {}
        self._members: dict[tuple[int, str], tuple[Value, str] | None] = {}
        self._returns: dict[int, tuple[Value, str] | None] = {}
        self._attr_types: dict[tuple[int, str], tuple[Value, str] | None] = {}
        self._assigned: dict[int, frozenset[str]] = {}  # class id -> attribute names its methods assign
        self._class_members: dict[tuple[int, str, bool], tuple[Value, str] | None] = {}
        self._decorated: dict[tuple[int, int], tuple[Value, str] | None] = {}
        self._supers: dict[tuple[int, str], tuple[Value, str] | None] = {}
        self._fixture_results: dict[int, tuple[Value, str] | None] = {}  # lore.index._fixtures
        self._elements: dict[tuple[int, int], tuple[Value, str] | None] = {}  # returned tuples' elements
        self._conftests: dict[str, int] | None = None
        self._subclasses: dict[int, list[int]] | None = None
        # values that travel (lore.index._flow): (function id, parameter position) -> the values callers
        # pass (None: more than FLOW_CAP, unknown); solved once, before any edge is resolved
        self._flow_params: dict[tuple[int, int], set | None] = {}
        self._param_names: dict[int, tuple[list[str], int | None]] = {}
        self._scope_param_cache: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}
        self._used: dict[int, frozenset[str]] = {}  # function id -> names it uses as path heads
        # stable callees of call sites, by (file id, scope, callee text, line): the key _flow.FlowMixin._flow_site builds
        self._site_targets: dict[tuple[int, int, str, int], list[tuple[int, int]]] = {}
        self._site_got: dict[tuple[int, int, str, int], tuple[Value, str]] = {}
        self._flow_state = 0  # 0: not solved, 1: solving, 2: solved
        # lookups from the top of the stack (in a flow round, forgotten with its other memos; in the
        # edge pass), for the file resolved last: (its context, {(scope, path, depth): value}, {(scope,
        # name, depth): value}, {(outer scope, name, depth): value}). A name one binding or none names
        # in its scope reads the same on every line, the scopes further out are read whole, and files
        # resolve one after another (LookupMixin.resolve_path, _head_value, lookup_name)
        self._paths: tuple[FileCtx | None, dict, dict, dict] = (None, {}, {}, {})
        self._by_line = False  # whether a lookup since resolve_path began chose a binding by its line
        # whether the file being resolved follows values strictly (its language's rules.follows_values):
        # a member of an external class's data, or of what an external function returns, stays unknown
        self._strict = False
        # whether what an external method returns is a value of a library type whose members are never
        # guessed among the repository's (rules.external_results_opaque: Java); set with ``_strict``
        self._opaque_results = False
        self._active: dict[tuple, int] = {}  # memoized steps in progress -> their position on the stack
        # Memoized steps compute from depth 0, so what they find (MAX_DEPTH cut-offs included) does not
        # depend on where the lookup started. A step that meets a cycle through a step further out on
        # the stack, or the MAX_NEST cut-off, found something that does: it is returned but not
        # memoized. Neither is the step that closes a cycle (the cycle runs back to it): entered at
        # another of its steps, the cycle gives another value, so that memo would make the answer depend
        # on which lookup came first. So files resolve the same in any order and in any worker.
        # ``_low``: the outermost stack position a cycle reached so far.
        self._low = _NO_CYCLE
        # The flow rounds run in one fixed order, so they memoize such steps too (a round repeats
        # them otherwise) and note them here; they are dropped once the flow is solved
        self._cycle_heads: set[tuple] = set()
        self._test_files: dict[int | None, bool] = {}  # file id -> test code (is_test_file)

    # -- memoized steps ------------------------------------------------------------------------------
    def _enter(self, key: tuple) -> tuple[int, int] | None:
        """Start the memoized step ``key``: ``(position, saved low)``, or ``None`` if it cannot run
        (already in progress: a cycle; or MAX_NEST steps deep)."""
        pos = self._active.get(key)
        if pos is not None:
            self._low = min(self._low, pos)
            return None
        pos = len(self._active)
        if pos >= MAX_NEST:
            self._low = -1
            return None
        self._active[key] = pos
        saved, self._low = self._low, _NO_CYCLE
        return pos, saved

    def _leave(self, key: tuple, frame: tuple[int, int]) -> bool:
        """End the step ``key``; whether its result may be memoized."""
        pos, saved = frame
        del self._active[key]
        low = self._low
        self._low = min(saved, low if low < pos else _NO_CYCLE)
        if low < pos:
            return False
        if low == pos:  # a cycle through this step: its value depends on which step of the cycle came first
            if self._flow_state != 1:
                return False
            self._cycle_heads.add(key)
        return True

    def _step(self, tag: str, memo: dict, key: Any, compute: Callable[[], Any]) -> Any:
        """A memoized step: ``memo[key]``, else ``compute()`` between :meth:`_enter` and :meth:`_leave`
        (``None`` when the step cannot run), remembered when it may be."""
        if key in memo:
            return memo[key]
        frame = self._enter((tag, key))
        if frame is None:
            return None
        result = None
        try:
            result = compute()
        finally:
            keep = self._leave((tag, key), frame)
        if keep:
            memo[key] = result
        return result

    def settled(self, memo: dict, key: Any, compute: Callable[[], Any]) -> Any:
        """``memo[key]``, else ``compute()``, remembered only when it may be: values are solved (the edge
        pass), no step still on the lookup stack was met as a cycle or the depth bound, and no lookup chose
        a binding by its line. For a language's rules that ask the same question many times (no frame of
        its own, so cycles are seen where they were before)."""
        if key in memo:
            return memo[key]
        saved_low, saved_line = self._low, self._by_line
        self._low, self._by_line = _NO_CYCLE, False
        try:
            result = compute()
        finally:
            low, by_line = self._low, self._by_line
            self._low, self._by_line = min(saved_low, low), saved_line or by_line
        if low == _NO_CYCLE and not by_line and self._flow_state == 2:
            memo[key] = result
        return result

    def is_test_file(self, file_id: int | None) -> bool:
        """Whether a file of the world is test code (by its path, as the walker says; once per file)."""
        got = self._test_files.get(file_id)
        if got is None:
            f = self.files.get(file_id)  # type: ignore[arg-type]
            got = self._test_files[file_id] = f is not None and is_test_path(f.path)
        return got

    # -- lazy per-file context -----------------------------------------------------------------
    def ctx(self, file_id: int | None) -> FileCtx | None:
        """The scope tables of a file (``None``: not in the index, or no records), built on first read.

        With a bound (:meth:`bound_contexts`) contexts are dropped once their records hold more items
        than the bound, those read only once since they were built first, then the least recently read
        (:mod:`lore.index._contexts`; reads are ordered only from then on: a repository that fits costs
        nothing more), and built again from the records when read again:
        everything a context holds is derived from its file's records alone, and the memoized steps of
        the world are keyed by ids, never by a context, so a rebuilt context answers as the first did."""
        got = self._ctx.get(file_id, _ABSENT)  # type: ignore[arg-type]
        if got is not _ABSENT:
            if self._segments is not None:
                self._segments.touch(file_id)  # type: ignore[arg-type]
            return got  # type: ignore[return-value]
        if file_id is None:
            return None
        frow = self.files.get(file_id)
        loaded = self._load_records(file_id) if frow is not None else None
        if loaded is None or frow is None:
            self._ctx[file_id] = None
            return None
        pf, ids = loaded
        r = rules_for(frow.language)
        c = FileCtx(frow, pf, ids, r, lambda cond: r.skipped_branch(self, cond, file_id))
        self._ctx[file_id] = c
        self.work_seen[file_id] = len(pf.calls) + len(pf.type_refs)
        if self._ctx_cap is not None:
            self._count_context(file_id, c)
        return c

    def records(self, file_id: int) -> ParsedFile | None:
        """A file's records, as :meth:`ctx` reads them; without building a context when the loader holds them
        decoded (``held``): a whole-tree count (the C macro tally) need not build every context."""
        held = getattr(self._load_records, "held", None) if file_id not in self._ctx else None
        pf = held(file_id) if held is not None and file_id in self.files else None
        if pf is not None:
            self.work_seen[file_id] = len(pf.calls) + len(pf.type_refs)  # as ctx() counts
            return pf
        c = self.ctx(file_id)
        return c.pf if c is not None else None

    def value_contexts(self) -> Iterator[tuple[int, FileCtx]]:
        """``(file id, context)`` of every file of a language that follows values, in id order (what the
        flow solve and the keys that travel read)."""
        for fid in sorted(self.files):
            if rules_for(self.files[fid].language).follows_values:
                c = self.ctx(fid)
                if c is not None:
                    yield fid, c

    def preload(self, file_id: int, pf: ParsedFile, ids: list[int]) -> FileCtx:
        frow = self.files[file_id]
        r = rules_for(frow.language)
        c = FileCtx(frow, pf, ids, r, lambda cond: r.skipped_branch(self, cond, file_id))
        if file_id in self._ctx and self._ctx_cap is not None:  # the one it replaces is forgotten first
            self.drop_contexts()
        self._ctx[file_id] = c
        self.work_seen[file_id] = len(pf.calls) + len(pf.type_refs)
        if self._ctx_cap is not None:
            self._count_context(file_id, c)
        return c

    def _count_context(self, file_id: int, c: FileCtx) -> None:
        if self._segments is not None:
            self._segments.add(file_id, c.items)
        else:
            self._ctx_items += c.items
            if self._ctx_items <= self._ctx_cap:  # type: ignore[operator]
                return
            # the first time over the bound: from now on reads are ordered (lore.index._contexts)
            self._segments = Segments(self._ctx_cap,  # type: ignore[arg-type]
                                      ((fid, k.items) for fid, k in self._ctx.items() if k is not None))
        self._evict_contexts()

    def bound_contexts(self, items: int | None) -> None:
        """Keep file contexts whose records hold at most ``items`` record items (symbols, calls, type
        mentions, imports, bindings) at once (:mod:`lore.index._contexts` says which go first); ``None``:
        keep all."""
        self._ctx_cap, self._segments = items, None
        self._ctx_items = sum(c.items for c in self._ctx.values() if c is not None)
        if items is not None and self._ctx_items > items:
            self._segments = Segments(items, ((fid, c.items) for fid, c in self._ctx.items() if c is not None))
            self._evict_contexts()

    @property
    def contexts_evicted(self) -> bool:
        """Whether the bound of :meth:`bound_contexts` was reached (contexts are dropped and read again)."""
        return self._segments is not None

    def drop_contexts(self) -> None:
        """Forget every file context (built again from the records when read)."""
        self._ctx.clear()
        self._ctx_items = 0
        if self._segments is not None:
            self._segments = Segments(self._segments.cap, ())
        self._paths = (None, {}, {}, {})

    def __getstate__(self) -> dict:
        """A pickled world (what :func:`~lore.index.resolve_pool.resolve_ray` ships) carries no file
        context: each holds a closure over the world, and each is built again from its records when read.
        The C tally is counted before resolution now, which builds contexts before the world is shipped."""
        state = dict(self.__dict__)
        state["_ctx"] = {}
        state["_ctx_items"] = 0
        if state.get("_segments") is not None:
            state["_segments"] = Segments(state["_segments"].cap, ())
        state["_paths"] = (None, {}, {}, {})
        return state

    def release(self) -> None:
        """Let go of everything the world holds. A context's closure (its ``skipped`` test) refers back to
        the world, a cycle that only the garbage collector would free, and the indexer runs with the
        collector off: without this the world of a full index lived on through the upkeep steps."""
        self._ctx.clear()
        self.__dict__.clear()

    def _evict_contexts(self) -> None:
        segments = self._segments
        assert segments is not None
        while segments.over():
            fid = segments.victim()
            if fid is None:
                break
            del self._ctx[fid]

    def of_kinds(self, kinds: frozenset[str]) -> list[SymRow]:
        """The symbols of ``kinds`` (external ones included), in id order: what a rule that looks for every
        symbol of a few kinds iterates, without loading every row into a lazy world."""
        if self._source is not None:
            return self._source.of_kinds(kinds)
        return [s for s in self.syms.values() if s.kind in kinds]

    def make_eager(self) -> None:
        """Read every symbol row into a lazy world's tables (before it is forked or shipped elsewhere: the
        refresh's connection stays in this process); a no-op for a world built whole."""
        if self._source is not None:
            make_eager((self.syms, self.by_qname, self.children, self.by_name, self.externals), self._source)  # type: ignore[arg-type]
            self._source = None

    def _rules_of(self, sym_id: int) -> LanguageRules:
        srow = self.syms.get(sym_id)
        frow = self.files.get(srow.file_id) if srow is not None and srow.file_id is not None else None
        return rules_for(frow.language) if frow is not None else rules_for("python")

    def external(self, qname: str) -> int:
        sid = self.externals.get(qname)
        if sid is None:
            sid = self.next_id
            self.next_id += 1
            self.externals[qname] = sid
            self.new_externals.append((sid, qname.rsplit(".", 1)[-1], qname))
        return sid

    if TYPE_CHECKING:  # what the mixins provide (lore.index.resolve.World joins them)
        def module_value(self, name: str) -> Value | None: ...
        def module_member(self, mod_id: int, name: str, depth: int = 0) -> tuple[Value, str] | None: ...
        def namespace_member(self, ns_id: int, name: str, depth: int) -> tuple[Value, str] | None: ...
        def _ns_path(self, sid: int) -> tuple[str, ...]: ...
        def _lookup_in_scope(self, c: FileCtx, scope: int, name: str, line: int, depth: int, *,
                             module_level_only: bool = False, with_imports: bool = True) -> tuple[Value, str] | None: ...
        def _import_value(self, c: FileCtx, ib: ImportBinding, depth: int,
                          member: str | None = None) -> tuple[Value, str] | None: ...
        def lookup_name(self, c: FileCtx, scope: int, name: str, line: int, depth: int) -> tuple[Value, str] | None: ...
        def member(self, v: Value, attr: str, res: str, depth: int) -> tuple[Value, str] | None: ...
        def resolve_path(self, c: FileCtx, scope: int, path: str, line: int,
                         depth: int = 0) -> tuple[Value, str] | None: ...
        def bases(self, class_id: int, depth: int = 0) -> list[Value]: ...
        def mro(self, class_id: int, depth: int = 0) -> list[Value]: ...
        def class_member(self, class_id: int, name: str, *, skip_self: bool = False,
                         depth: int = 0) -> tuple[Value, str] | None: ...
        def attr_type(self, class_id: int, name: str, depth: int = 0) -> tuple[Value, str] | None: ...
        def returns(self, func_id: int, depth: int = 0) -> tuple[Value, str] | None: ...
        def type_value(self, c: FileCtx, scope: int, annotation: str, depth: int) -> tuple[Value, str] | None: ...
        def binding_value(self, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None: ...
        def bindings_value(self, c: FileCtx, scope: int, binds: list[Binding],
                           depth: int) -> tuple[Value, str] | None: ...
        def call_result(self, v: Value, res: str, depth: int) -> tuple[Value, str] | None: ...
        def param_values(self, func_id: int, idx: int) -> tuple[Value, ...]: ...
        def solve_flow(self) -> None: ...
        def site_callee(self, c: FileCtx, call: Call) -> tuple[Value, str] | None: ...
        def decorated_value(self, sym_id: int, upto: int = -1) -> tuple[Value, str] | None: ...
        def subclasses(self, class_id: int) -> list[int]: ...
        def super_member(self, class_id: int, name: str) -> tuple[Value, str] | None: ...


def _first(t: tuple) -> int:
    return t[0]


def local_parent(c: FileCtx, local: int | None) -> int:
    if local is None:
        return 0
    p = c.pf.symbols[local].parent
    return 0 if p is None else p


def split_path(path: str) -> list[str]:
    """``a.b().c`` -> ``['a', 'b()', 'c']``; parentheses only ever close a part."""
    return path.split(".")


def weaker(a: str, b: str) -> str:
    """The weaker of two resolution rules (the later one in RESOLUTIONS)."""
    return a if RANK.get(a, 99) >= RANK.get(b, 99) else b
