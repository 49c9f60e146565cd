"""Binding raw names to symbols: the heart of lore's correctness.

Each call site, type mention, import and base class that a parser recorded as text is resolved
here, in the scope it was written in, to a symbol id, and the rule that bound it is recorded
(``resolution``, strongest first in :data:`lore.store.schema.RESOLUTIONS`):

* scopes: enclosing function scopes, then the module (class bodies are not visible from methods);
* imports: aliases, relative imports, re-exports through ``__init__`` modules, star imports;
* ``self.m()`` / ``cls.m()`` / ``super().m()``: the class hierarchy in MRO order (inherited methods);
* ``Cls()``: ``Cls.__init__`` (or the inherited one) plus an ``instantiation`` type reference;
* receivers typed by annotations (parameters, variables, attributes) or by the constructor or
  annotated function they were assigned from (``s = Session(); s.get()``);
* values followed where they are certain: assignments (chained ``a = b = f``, tuple unpacking),
  literal container slots (``d["k"] = f; d["k"]()``, ``fs[0]()``), what an unannotated function
  returns when all its ``return`` statements agree, ``f()()``, ``raise E`` (an instantiation) and
  the protocol methods a ``for`` loop or ``with`` statement calls (only when they are repository code);
* external targets (stdlib, third-party) become ``external`` symbols named by import path;
* only when all of that fails: name heuristics (``same_file_name``, ``unique_name``, and
  ``ambiguous_name`` with confidence ``1/k`` for each of ``k`` candidates), never silently.

The world (every symbol of the index, by id) is loaded from the store; raw records of other files
are loaded lazily when a name leads into them (a re-export chain, a base class, a return type).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from ..parsers.records import Binding, ParsedFile
from ..store.schema import CONFIDENCE, RESOLUTIONS
from .rules import ImportBinding, LanguageRules, rules_for

RANK = {r: i for i, r in enumerate(RESOLUTIONS)}
MAX_AMBIGUOUS = 4  # more candidates than this: unresolved (the name says too little)
MAX_DEPTH = 12  # nested lookups between two memoized steps (module member, MRO, class member, ...)
MAX_NEST = 48  # memoized steps in progress at once (each restarts the depth count)
_NO_CYCLE = 1 << 30
CALLABLE_KINDS = frozenset({"function", "method", "class", "struct", "interface", "trait", "enum"})
TYPE_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "type_alias"})


@dataclass(slots=True)
class SymRow:
    id: int
    file_id: int | None
    name: str
    qualified_name: str
    kind: str
    parent_id: int | None


@dataclass(slots=True)
class FileRow:
    id: int
    path: str
    language: str
    module: str
    module_id: int
    is_package: bool


# A resolved value: (tag, payload). tags: sym (symbol id), inst (instance of class id),
# ext (external dotted name), extinst (instance of an external class), ns (namespace package prefix)
Value = tuple[str, object]


@dataclass
class Edges:
    """Rows produced for one batch of resolved files (tuples in store column order)."""

    refs: list[tuple] = field(default_factory=list)  # caller, callee_id, callee_name, line, col, kind, res, conf
    types: list[tuple] = field(default_factory=list)  # symbol, type_id, type_name, kind, context, line, res, conf
    imports: list[tuple] = field(default_factory=list)  # file, symbol, module, name, alias, level, line, tfile, tid, res, conf
    rels: list[tuple] = field(default_factory=list)  # source, target_id, target_name, kind, line, res, conf


class FileCtx:
    """Scope tables of one parsed file, built once when the file is first needed."""

    def __init__(self, frow: FileRow, pf: ParsedFile, ids: list[int], rules: LanguageRules) -> None:
        self.frow, self.pf, self.ids, self.rules = frow, pf, ids, rules
        self.local_of = {sid: i for i, sid in enumerate(ids)}
        n = len(pf.symbols)
        self.stars: list[list[ImportBinding]] = [[] for _ in range(n)]
        self.import_bindings: list[ImportBinding | None] = []
        # per scope: name -> [(line, what, payload)] of everything that binds the name there
        self._cands: dict[int, dict[str, list[tuple[int, str, object]]]] = {}
        self._bindings: dict[int, dict[str, list[Binding]]] = {}
        by_scope: dict[int, list[tuple[str, int, str, object]]] = defaultdict(list)
        for i, s in enumerate(pf.symbols):
            if s.parent is not None:
                by_scope[s.parent].append((s.name, s.start_line, "def", i))
        for b in pf.bindings:
            by_scope[b.owner].append((b.name, b.line, "bind", b))
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
        self._by_scope = by_scope

    def candidates(self, scope: int) -> dict[str, list[tuple[int, str, object]]]:
        """Everything that binds a name in ``scope``: definitions, imports, assignments (built once per scope)."""
        got = self._cands.get(scope)
        if got is None:
            got = {}
            for name, line, what, payload in self._by_scope.get(scope, ()):
                got.setdefault(name, []).append((line, what, payload))
            self._cands[scope] = got
        return got

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


class World:
    """Every symbol of the index plus lazily loaded per-file scope tables."""

    def __init__(
        self,
        symbols: list[SymRow],
        files: list[FileRow],
        load_records: Callable[[int], tuple[ParsedFile, list[int]] | None],
        next_id: int,
    ) -> None:
        self.syms: dict[int, SymRow] = {s.id: s for s in symbols}
        self.files: dict[int, FileRow] = {f.id: f for f in files}
        self.by_qname: dict[str, list[int]] = defaultdict(list)
        self.children: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self.by_name: dict[str, list[int]] = defaultdict(list)
        self.externals: dict[str, int] = {}
        self.modules: dict[str, int] = {}
        self.module_file: dict[int, int] = {}
        self.namespaces: set[str] = set()
        for s in symbols:
            if s.file_id is None:
                self.externals[s.qualified_name] = s.id
                continue
            self.by_qname[s.qualified_name].append(s.id)
            if s.parent_id is not None:
                self.children[s.parent_id][s.name].append(s.id)
            if s.kind in CALLABLE_KINDS:
                self.by_name[s.name].append(s.id)
        for f in files:
            self.modules[f.module] = f.module_id
            self.module_file[f.module_id] = f.id
            parts = f.module.split(".")
            for k in range(1, len(parts)):
                self.namespaces.add(".".join(parts[:k]))
        self._load_records = load_records
        self._ctx: dict[int, FileCtx | None] = {}
        self.new_externals: list[tuple[int, str, str]] = []
        self.next_id = next_id
        self._mro: dict[int, list[Value]] = {}
        self._members: dict[tuple[int, str], tuple[Value, str] | None] = {}
        self._returns: dict[int, tuple[Value, str] | None] = {}
        self._attr_types: dict[int, dict[str, tuple[Value, str]]] = {}
        self._class_members: dict[tuple[int, str, bool], tuple[Value, str] | None] = {}
        self._active: dict[tuple, int] = {}  # memoized steps in progress -> their position on the stack
        # Memoized steps compute from depth 0, so what they find (MAX_DEPTH cut-offs included) does not
        # depend on where the lookup started. A step that meets a cycle through a step further out on
        # the stack, or the MAX_NEST cut-off, found something that does: it is returned but not
        # memoized (a cycle through the step itself is fine). So files resolve the same in any order
        # and in any worker. ``_low``: the outermost stack position a cycle reached so far.
        self._low = _NO_CYCLE

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
        return low >= pos

    # -- lazy per-file context -----------------------------------------------------------------
    def ctx(self, file_id: int | None) -> FileCtx | None:
        if file_id is None:
            return None
        if file_id not in self._ctx:
            frow = self.files.get(file_id)
            loaded = self._load_records(file_id) if frow is not None else None
            if loaded is None or frow is None:
                self._ctx[file_id] = None
            else:
                pf, ids = loaded
                self._ctx[file_id] = FileCtx(frow, pf, ids, rules_for(frow.language))
        return self._ctx[file_id]

    def preload(self, file_id: int, pf: ParsedFile, ids: list[int]) -> FileCtx:
        frow = self.files[file_id]
        c = FileCtx(frow, pf, ids, rules_for(frow.language))
        self._ctx[file_id] = c
        return c

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

    # -- modules, classes, members ------------------------------------------------------------
    def module_value(self, name: str) -> Value | None:
        mid = self.modules.get(name)
        if mid is not None:
            return ("sym", mid)
        if name in self.namespaces:
            return ("ns", name)
        return None

    def module_member(self, mod_id: int, name: str, depth: int = 0) -> tuple[Value, str] | None:
        key = (mod_id, name)
        if key in self._members:
            return self._members[key]
        frame = self._enter(("mm", key))
        if frame is None:
            return None
        try:
            result = self._module_member(mod_id, name, 0)
        finally:
            keep = self._leave(("mm", key), frame)
        if keep:
            self._members[key] = result
        return result

    def _module_member(self, mod_id: int, name: str, depth: int) -> tuple[Value, str] | None:
        kids = self.children.get(mod_id, {}).get(name)
        if kids:
            return ("sym", kids[-1]), "import"
        file_id = self.module_file.get(mod_id)
        if file_id is None and self.syms[mod_id].kind == "namespace":  # its imports and bindings (C++, Rust, TS)
            file_id = self.syms[mod_id].file_id
        c = self.ctx(file_id)
        if c is not None:
            module_local = c.local_of.get(mod_id, 0)
            got = self._lookup_in_scope(c, module_local, name, 1 << 30, depth + 1, module_level_only=True,
                                        with_imports=c.rules.imports_reexported)
            if got is not None:
                return got[0], "import"
        sub = f"{self.syms[mod_id].qualified_name}.{name}"
        v = self.module_value(sub)
        if v is not None:
            return v, "import"
        return None

    def namespace_member(self, ns_id: int, name: str, depth: int) -> tuple[Value, str] | None:
        """``name`` in another block of the same namespace path (``namespace geo {`` in several files)."""
        if not hasattr(self, "_ns_index"):
            index: dict[tuple[str, ...], list[int]] = defaultdict(list)
            for sid, srow in self.syms.items():
                if srow.kind == "namespace":
                    index[self._ns_path(sid)].append(sid)
            self._ns_index = index
        for other in self._ns_index.get(self._ns_path(ns_id), ())[:64]:
            if other != ns_id:
                kids = self.children.get(other, {}).get(name)
                if kids:
                    return ("sym", kids[-1]), "import"
        return None

    def _ns_path(self, sid: int) -> tuple[str, ...]:
        names: list[str] = []
        srow = self.syms.get(sid)
        while srow is not None and srow.kind == "namespace":
            names.append(srow.name)
            srow = self.syms.get(srow.parent_id) if srow.parent_id is not None else None
        return tuple(reversed(names))

    def bases(self, class_id: int, depth: int = 0) -> list[Value]:
        srow = self.syms.get(class_id)
        if srow is None:
            return []
        c = self.ctx(srow.file_id)
        if c is None:
            return []
        local = c.local_of.get(class_id)
        out: list[Value] = []
        for rel in c.pf.relations:
            if rel.source == local and rel.kind in ("extends", "implements", "embeds"):
                got = self.resolve_path(c, local_parent(c, local), rel.target, rel.line, depth + 1)
                if got is not None:
                    out.append(got[0])
        return out

    def mro(self, class_id: int, depth: int = 0) -> list[Value]:
        """Linearised ancestors of a class, itself first (C3-like: depth-first, left to right, deduplicated)."""
        if class_id in self._mro:
            return self._mro[class_id]
        frame = self._enter(("mro", class_id))
        if frame is None:
            return [("sym", class_id)]
        try:
            seen: set = {("sym", class_id)}
            order: list[Value] = [("sym", class_id)]
            for base in self.bases(class_id, 0):
                if base[0] == "sym" and self.syms.get(base[1]) is not None and self.syms[base[1]].kind in TYPE_KINDS:
                    chain = self.mro(base[1], 0)
                else:
                    chain = [base]
                for v in chain:
                    if v not in seen:
                        seen.add(v)
                        order.append(v)
        finally:
            keep = self._leave(("mro", class_id), frame)
        if keep:
            self._mro[class_id] = order
        return order

    def class_member(self, class_id: int, name: str, *, skip_self: bool = False, depth: int = 0) -> tuple[Value, str] | None:
        """``name`` looked up on a class through its MRO: a method, a nested class or a typed attribute."""
        key = (class_id, name, skip_self)
        if key in self._class_members:
            return self._class_members[key]
        frame = self._enter(("cm", key))
        if frame is None:
            return None
        try:
            got = self._class_member(class_id, name, skip_self, 0)
        finally:
            keep = self._leave(("cm", key), frame)
        if keep:
            self._class_members[key] = got
        return got

    def _class_member(self, class_id: int, name: str, skip_self: bool, depth: int) -> tuple[Value, str] | None:
        for i, v in enumerate(self.mro(class_id, depth)):
            if skip_self and i == 0:
                continue
            if v[0] == "sym":
                cid = v[1]
                kids = self.children.get(cid, {}).get(name)
                if kids:
                    return ("sym", kids[-1]), "self_method"
                if self._rules_of(cid).detached_methods:  # Go, Rust, C++: methods declared in another file
                    got = self._rules_of(cid).detached_member(self, cid, name)
                    if got is not None:
                        return got
                attrs = self.attr_types(cid, depth + 1)
                if name in attrs:
                    return attrs[name]
            elif v[0] in ("ext", "extinst"):
                return ("ext", f"{v[1]}.{name}"), "external"
        return None

    def attr_types(self, class_id: int, depth: int = 0) -> dict[str, tuple[Value, str]]:
        """Types of a class's attributes (``self.x: T``, ``self.x = T()``, class-level ``x: T``)."""
        if class_id in self._attr_types:
            return self._attr_types[class_id]
        frame = self._enter(("at", class_id))
        if frame is None:
            return {}
        srow = self.syms[class_id]
        c = self.ctx(srow.file_id)
        out: dict[str, tuple[Value, str]] = {}
        try:
            if c is not None:
                local = c.local_of.get(class_id)
                if local is not None:
                    for name, binds in c.bindings_of(local).items():
                        if not name.startswith("self."):
                            continue
                        got = self.binding_value(c, local, binds[-1], 0)
                        if got is not None:
                            out[name[5:]] = got
        finally:
            keep = self._leave(("at", class_id), frame)
        if keep:
            self._attr_types[class_id] = out
        return out

    def returns(self, func_id: int, depth: int = 0) -> tuple[Value, str] | None:
        """The value a function returns: from its return annotation, else from its return statements."""
        if func_id in self._returns:
            return self._returns[func_id]
        frame = self._enter(("ret", func_id))
        if frame is None:
            return None
        srow = self.syms[func_id]
        c = self.ctx(srow.file_id)
        result = None
        try:
            if c is not None:
                local = c.local_of.get(func_id)
                if local is not None and c.pf.symbols[local].return_type:
                    result = self.type_value(c, local, c.pf.symbols[local].return_type, 0)
                elif local is not None:
                    result = self._returned_value(c, local)
        finally:
            keep = self._leave(("ret", func_id), frame)
        if keep:
            self._returns[func_id] = result
        return result

    def _returned_value(self, c: FileCtx, local: int) -> tuple[Value, str] | None:
        """What an unannotated function returns: the value of its ``return`` statements when they all
        resolve to the same one (``return None`` aside); anything else infers nothing."""
        found: tuple[Value, str] | None = None
        for b in c.bindings_of(local).get("<return>", ()):
            got = self.binding_value(c, local, b, 0) if (b.value or b.alias_of) else None
            if got is None or got[0][0] == "unknown" or (found is not None and got[0] != found[0]):
                return None
            found = got if found is None else (found[0], weaker(found[1], got[1]))
        return found

    # -- values ---------------------------------------------------------------------------------
    def type_value(self, c: FileCtx, scope: int, annotation: str, depth: int) -> tuple[Value, str] | None:
        """An annotation string -> instance value (Optional[X], X | None and "X" unwrapped)."""
        name = primary_type(annotation)
        if not name:
            return None
        got = self.resolve_path(c, scope, name, 1 << 30, depth + 1)
        if got is None:
            return None
        v, res = got
        return instance_of(self, v), typed_by(res, "annotated_type")

    def binding_value(self, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None:
        if depth > MAX_DEPTH:
            return None
        if b.scope is not None:
            scope = b.scope
        if b.annotation:
            return self.type_value(c, scope, b.annotation, depth + 1)
        if b.value:
            got = self.resolve_path(c, scope, b.value, b.line, depth + 1)
            if got is None:
                return None
            return self.call_result(got[0], got[1], depth + 1)
        if b.alias_of:
            return self.resolve_path(c, scope, b.alias_of, b.line, depth + 1)
        return None

    def call_result(self, v: Value, res: str, depth: int) -> tuple[Value, str] | None:
        """The value a call of ``v`` produces."""
        tag, payload = v
        if tag == "sym":
            srow = self.syms.get(payload)  # type: ignore[arg-type]
            if srow is None:
                return None
            if srow.kind in TYPE_KINDS:
                return ("inst", payload), typed_by(res, "constructor_type")
            if srow.kind in ("function", "method"):
                got = self.returns(payload, depth + 1)  # type: ignore[arg-type]
                if got is not None:
                    return got[0], typed_by(res, "constructor_type")
            return None
        if tag == "ext":
            name = str(payload)
            last = name.rsplit(".", 1)[-1]
            if last[:1].isupper():  # a class by convention: its instances
                return ("extinst", name), typed_by(res, "constructor_type")
            return None
        return None

    def _lookup_in_scope(
        self, c: FileCtx, scope: int, name: str, line: int, depth: int, *, module_level_only: bool = False,
        with_imports: bool = True,
    ) -> tuple[Value, str] | None:
        """``name`` as bound in exactly one scope: definitions, imports, bindings, parameters.

        ``with_imports=False``: what the file's imports bind is left out (seen from another file in a
        language whose imports are private to their file: Java, Go)."""
        sym = c.pf.symbols[scope]
        kind = sym.kind
        base_res = "module_global" if kind == "module" else "local_scope"
        candidates = c.candidates(scope).get(name)
        if candidates and not with_imports:
            candidates = [cand for cand in candidates if cand[1] != "import"]
        if not candidates:
            if not with_imports:
                return None
            if kind in ("function", "method"):
                for idx, (pname, ann) in enumerate(sym.params):
                    if pname == name:
                        return self._param_value(c, scope, idx, pname, ann, depth)
            for ib in c.stars[scope]:
                got = self._import_value(c, ib, depth + 1, member=name)
                if got is not None:
                    return got
            return None
        if len(candidates) == 1:
            pick = candidates[0]
        else:
            before = [cand for cand in candidates if cand[0] <= line]
            pick = max(before or candidates, key=_first)
        _, what, payload = pick
        if what == "def":
            return ("sym", c.ids[payload]), base_res  # type: ignore[index]
        if what == "import":
            return self._import_value(c, payload, depth + 1)  # type: ignore[arg-type]
        got = self.binding_value(c, scope, payload, depth + 1)  # type: ignore[arg-type]
        return got

    def _param_value(self, c: FileCtx, scope: int, idx: int, pname: str, ann: str, depth: int) -> tuple[Value, str] | None:
        sym = c.pf.symbols[scope]
        if idx == 0 and sym.kind == "method" and "staticmethod" not in sym.decorators and c.rules.first_param_is_receiver:
            cls_local = sym.parent
            if cls_local is not None and c.pf.symbols[cls_local].kind in TYPE_KINDS:
                cid = c.ids[cls_local]
                if "classmethod" in sym.decorators or pname == "cls":
                    return ("sym", cid), "self_method"
                return ("inst", cid), "self_method"
        if ann:
            return self.type_value(c, scope, ann, depth + 1)
        return ("unknown", pname), "unresolved"

    def _import_value(self, c: FileCtx, ib: ImportBinding, depth: int, member: str | None = None) -> tuple[Value, str] | None:
        """What an import binding (or ``member`` of a star-imported module) refers to."""
        mod = c.rules.module_value(self, c, ib.module)
        want = member if ib.star else ib.member
        if mod is not None and c.rules.whole_module_exports and not ib.star:  # JS: module.exports = X
            got = c.rules.exports_value(self, mod, want, depth + 1)
            if got is not None:
                return got
        if want is None:
            if mod is not None:
                return mod, "import"
            if ib.relative:
                return None
            return ("ext", ib.module), "external"
        if mod is not None and mod[0] == "sym":
            got = self.module_member(mod[1], want, depth + 1)  # type: ignore[arg-type]
            if got is not None:
                return got[0], "import"
            if ib.star:
                return None
            sub = self.module_value(f"{ib.module}.{want}")
            return (sub, "import") if sub is not None else None
        if mod is not None and mod[0] == "ns":
            sub = self.module_value(f"{ib.module}.{want}")
            return (sub, "import") if sub is not None else None
        if mod is not None and mod[0] == "pkg":  # a package of several files (Go, Java, C header + source)
            got = self.member(mod, want, "import", depth + 1)
            return got if got is not None or ib.relative or ib.star else None
        if ib.relative or ib.star:
            return None
        return ("ext", f"{ib.module}.{want}"), "external"

    def lookup_name(self, c: FileCtx, scope: int, name: str, line: int, depth: int) -> tuple[Value, str] | None:
        """``name`` looked up from ``scope`` outwards, then among builtins."""
        syms = c.pf.symbols
        recv = c.rules.implicit_receivers.get(name)
        if recv is not None:  # this / Self: the enclosing class
            cls = c.enclosing_class(scope)
            if cls is not None:
                return ("inst" if recv == "inst" else "sym", c.ids[cls]), "self_method"
        first = True
        i: int | None = scope
        while i is not None:
            kind = syms[i].kind
            visible = first or kind != "class" or c.rules.class_scopes_visible_to_methods
            if visible:
                got = self._lookup_in_scope(c, i, name, line if first else 1 << 30, depth + 1)
                if got is not None:
                    if got[0][0] == "unknown":
                        return None  # a parameter of unknown type shadows outer names
                    return got
            first = False
            i = syms[i].parent
        rules = c.rules
        got = rules.package_member(self, c, scope, name)
        if got is not None:
            return got
        if name in rules.builtin_functions:
            return ("ext", f"{rules.builtin_prefix}.{name}"), "builtin"
        return None

    def member(self, v: Value, attr: str, res: str, depth: int) -> tuple[Value, str] | None:
        tag, payload = v
        if tag == "sym":
            srow = self.syms.get(payload)  # type: ignore[arg-type]
            if srow is None:
                return None
            if srow.kind in ("module", "namespace"):
                got = self.module_member(payload, attr, depth + 1)  # type: ignore[arg-type]
                if got is None and srow.kind == "namespace":  # C++ / TS namespaces reopen in other files
                    got = self.namespace_member(payload, attr, depth + 1)  # type: ignore[arg-type]
                return (got[0], weaker(res, "import")) if got is not None else None
            if srow.kind in TYPE_KINDS:
                got = self.class_member(payload, attr, depth=depth + 1)  # type: ignore[arg-type]
                return (got[0], weaker(res, got[1] if got[1] != "self_method" else res)) if got else None
            return None
        if tag == "inst":
            got = self.class_member(payload, attr, depth=depth + 1)  # type: ignore[arg-type]
            if got is None:
                return None
            return got[0], weaker(res, got[1]) if got[1] not in ("self_method",) else res
        if tag in ("ext", "extinst"):
            return ("ext", f"{payload}.{attr}"), weaker(res, "external")
        if tag == "ns":
            sub = self.module_value(f"{payload}.{attr}")
            return (sub, res) if sub is not None else None
        if tag == "pkg":  # the files of one package, definitions first: the first that has ``attr``
            for mid in payload:  # type: ignore[attr-defined]
                got = self.module_member(mid, attr, depth + 1)
                if got is not None:
                    return got[0], weaker(res, "import")
        return None

    def resolve_path(self, c: FileCtx, scope: int, path: str, line: int, depth: int = 0) -> tuple[Value, str] | None:
        """Resolve a dotted path as written in ``scope`` of file ``c`` to a value and the rule used."""
        if depth > MAX_DEPTH or not path:
            return None
        parts = split_path(path)
        head = parts[0]
        if head == "super()":
            cls = c.enclosing_class(scope)
            if cls is None or len(parts) < 2:
                return None
            attr = parts[1].rstrip("()")
            got = self.class_member(c.ids[cls], attr, skip_self=True, depth=depth + 1)
            if got is None:
                return None
            cur: tuple[Value, str] | None = (got[0], "self_method")
            rest = parts[1:]
            if rest[0].endswith("()"):
                cur = self.call_result(cur[0], cur[1], depth + 1)
            rest = rest[1:]
        elif head == "<str>":
            cur = ("extinst", f"{c.rules.builtin_prefix}.str"), "builtin"
            rest = parts[1:]
        else:
            call = head.endswith("()")
            name = head[:-2] if call else head
            if not name or name.startswith("<"):
                return None
            cur = self.lookup_name(c, scope, name, line, depth + 1)
            if cur is not None and call:  # a part written as a call stands for what the call returns
                cur = self.call_result(cur[0], cur[1], depth + 1)
            rest = parts[1:]
        for part in rest:
            if cur is None:
                return None
            call = part.endswith("()")
            attr = part[:-2] if call else part
            cur = self.member(cur[0], attr, cur[1], depth + 1)
            if cur is not None and call:
                cur = self.call_result(cur[0], cur[1], depth + 1)
        return cur


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


_CERTAIN = frozenset({"local_scope", "import", "module_global", "self_method"})


def typed_by(lookup: str, typing: str) -> str:
    """The rule recorded for a receiver typed by ``typing`` (annotation, constructor) whose type
    name was found by ``lookup``: the typing rule, unless the lookup itself was a guess."""
    return typing if lookup in _CERTAIN else weaker(lookup, typing)


def instance_of(world: World, v: Value) -> Value:
    if v[0] == "sym":
        srow = world.syms.get(v[1])  # type: ignore[arg-type]
        if srow is not None and srow.kind in TYPE_KINDS:
            return ("inst", v[1])
    if v[0] == "ext":
        return ("extinst", v[1])
    return v


_WRAPPERS = ("Optional[", "typing.Optional[", "Final[", "ClassVar[", "Annotated[", "type[", "Type[")


def primary_type(annotation: str) -> str:
    """The main class an annotation names: ``Optional["Session"]`` -> ``Session``; ``''`` for none.

    Examples
    --------
    >>> primary_type('Optional["requests.Session"]'), primary_type("Foo | None"), primary_type("list[Foo]")
    ('requests.Session', 'Foo', 'list')
    """
    t = annotation.strip().strip("'\"").strip()
    changed = True
    while changed:
        changed = False
        for w in _WRAPPERS:
            if t.startswith(w) and t.endswith("]"):
                t = t[len(w) : -1].split(",")[0].strip().strip("'\"").strip()
                changed = True
    if "|" in t:
        opts = [p.strip() for p in t.split("|") if p.strip() not in ("None", "")]
        t = opts[0] if opts else ""
    t = t.split("[", 1)[0].strip()
    if not t or not all(p.isidentifier() for p in t.split(".")) or t == "None":
        return ""
    return t


class FileResolver:
    """Resolves every raw record of one file into edge rows."""

    def __init__(self, world: World, c: FileCtx, out: Edges) -> None:
        self.w, self.c, self.out = world, c, out
        self.rules = c.rules

    def run(self) -> None:
        self._imports()
        self._relationships()
        self._calls()
        self._types()
        self._bindings_fields()

    # -- imports ----------------------------------------------------------------------------------
    def _imports(self) -> None:
        c, w = self.c, self.w
        fid = c.frow.id
        for imp, ib in zip(c.pf.imports, c.import_bindings, strict=True):
            tfile = tid = None
            res = "unresolved"
            if ib is not None:
                got = w._import_value(c, ib, 1) if not ib.star else (c.rules.module_value(w, c, ib.module), "import")
                if got is not None and got[0] is not None:
                    v, res = got
                    if v[0] == "pkg":  # a package of several files: its first file stands for it
                        v = ("sym", v[1][0])  # type: ignore[index]
                    tid = self._value_id(v)
                    if v[0] == "sym":
                        srow = w.syms.get(v[1])  # type: ignore[arg-type]
                        tfile = srow.file_id if srow else None
                    elif v[0] == "ns":
                        res, tid = "import", None
                elif not ib.relative and ib.star:
                    tid, res = w.external(ib.module), "external"
            conf = CONFIDENCE[res]
            self.out.imports.append(
                (fid, c.ids[imp.owner], imp.module, imp.name, imp.alias, imp.level, imp.line, tfile, tid, res, conf)
            )

    def _value_id(self, v: Value) -> int | None:
        tag, payload = v
        if tag in ("sym", "inst"):
            return payload  # type: ignore[return-value]
        if tag in ("ext", "extinst"):
            return self.w.external(str(payload))
        return None

    # -- relationships ----------------------------------------------------------------------------
    def _relationships(self) -> None:
        c, w = self.c, self.w
        syms = c.pf.symbols
        for i, s in enumerate(syms):
            if s.parent is not None:
                self.out.rels.append((c.ids[s.parent], c.ids[i], s.qualified_name, "contains", s.start_line, "local_scope", 1.0))
        for rel in c.pf.relations:
            got = w.resolve_path(c, local_parent(c, rel.source), rel.target, rel.line, 1)
            tid, res = self._target(got)
            self.out.rels.append((c.ids[rel.source], tid, rel.target, rel.kind, rel.line, res, CONFIDENCE[res]))
        # overrides: a method that redefines a name found further up its class's MRO
        for i, s in enumerate(syms):
            if s.kind != "method" or s.parent is None or syms[s.parent].kind not in TYPE_KINDS:
                continue
            if s.name in ("__init__",) and False:
                continue
            got = w.class_member(c.ids[s.parent], s.name, skip_self=True)
            if got is not None and got[0][0] == "sym":
                tid = got[0][1]
                self.out.rels.append((c.ids[i], tid, w.syms[tid].qualified_name, "overrides", s.start_line, "self_method", CONFIDENCE["self_method"]))  # type: ignore[index]

    def _target(self, got: tuple[Value, str] | None) -> tuple[int | None, str]:
        if got is None:
            return None, "unresolved"
        v, res = got
        if v[0] == "unknown":
            return None, "unresolved"
        tid = self._value_id(v)
        if tid is None:
            return None, "unresolved"
        if v[0] in ("ext", "extinst"):
            res = "builtin" if str(v[1]).startswith(self.rules.builtin_prefix + ".") else "external"
        return tid, res

    # -- calls --------------------------------------------------------------------------------------
    def _calls(self) -> None:
        c, w = self.c, self.w
        for call in c.pf.calls:
            caller = c.ids[call.caller]
            got = w.resolve_path(c, call.caller, call.callee, call.line, 0)
            if call.kind in ("implicit", "raise"):
                targets = self._protocol_targets(got, call.callee, call.caller, call.line, call.kind)
            else:
                targets = self._call_targets(got, call.callee, call.caller, call.line, call.kind)
            for tid, res, conf in targets:
                self.out.refs.append((caller, tid, call.callee, call.line, call.col, call.kind, res, conf))

    def _protocol_targets(self, got: tuple[Value, str] | None, callee: str, caller_local: int, line: int,
                          kind: str) -> list[tuple[int | None, str, float]]:
        """Calls the language makes implicitly: kept only when they bind for certain, never guessed.

        ``implicit`` (``__iter__`` / ``__next__`` of a for loop, ``__enter__`` / ``__exit__`` of a with
        statement): only a method of repository code (the protocol methods of builtins and libraries
        are noise). ``raise E``: an instantiation when ``E`` resolves to a class of the repository
        (``raise ValueError`` adds nothing a reader needs; raising an exception object calls nothing).
        """
        if got is None or got[0][0] != "sym":
            return []
        srow = self.w.syms.get(got[0][1])  # type: ignore[arg-type]
        if srow is None or srow.file_id is None:
            return []
        if kind == "implicit":
            return [(srow.id, got[1], CONFIDENCE[got[1]])] if srow.kind in ("function", "method") else []
        return self._call_targets(got, callee, caller_local, line, "new") if srow.kind in TYPE_KINDS else []

    def _declared(self, tid: int, res: str) -> list[tuple[int | None, str, float]]:
        """A call bound to ``tid``; a declaration (C/C++ prototype) stands for its k definitions, 1/k each."""
        rules = self.w._rules_of(tid)
        defs = rules.definitions(self.w, tid) if rules.separate_declarations else None
        if defs:
            return [(d, res, CONFIDENCE[res] / len(defs)) for d in defs]
        return [(tid, res, CONFIDENCE[res])]

    def _call_targets(self, got: tuple[Value, str] | None, callee: str, caller_local: int, line: int,
                      kind: str = "call") -> list[tuple[int | None, str, float]]:
        w, c = self.w, self.c
        if got is not None and got[0][0] != "unknown":
            v, res = got
            tag, payload = v
            if tag == "sym":
                srow = w.syms.get(payload)  # type: ignore[arg-type]
                if srow is not None and srow.kind in TYPE_KINDS:
                    # constructor: the type reference, and the call edge to __init__ (or the class itself)
                    self.out.types.append((c.ids[caller_local], payload, callee, "instantiation", "", line, res, CONFIDENCE[res]))
                    for ctor in c.rules.constructor_names:
                        m = w.class_member(payload, ctor)  # type: ignore[arg-type]
                        if m is not None and m[0][0] == "sym":
                            return self._declared(m[0][1], res)  # type: ignore[arg-type]
                    return [(payload, res, CONFIDENCE[res])]  # type: ignore[list-item]
                if srow is not None and srow.kind in ("function", "method"):
                    return self._declared(payload, res)  # type: ignore[arg-type]
                if srow is not None and srow.kind == "external":
                    return [(payload, "external", 1.0)]  # type: ignore[list-item]
            elif tag == "inst":
                m = w.class_member(payload, "__call__")  # type: ignore[arg-type]
                if m is not None and m[0][0] == "sym":
                    return [(m[0][1], res, CONFIDENCE[res])]  # type: ignore[list-item]
            elif tag in ("ext", "extinst"):
                name = str(payload)
                r = "builtin" if name.startswith(c.rules.builtin_prefix + ".") else "external"
                if r == "external" and (kind == "new" or (c.rules.uppercase_calls_construct
                                                          and name.rsplit(".", 1)[-1][:1].isupper())):
                    self.out.types.append((c.ids[caller_local], w.external(name), callee, "instantiation", "", line, r, 1.0))
                return [(w.external(name), r, 1.0)]
        return self._heuristic(callee, caller_local)

    def _heuristic(self, callee: str, caller_local: int) -> list[tuple[int | None, str, float]]:
        w, c = self.w, self.c
        parts = split_path(callee)
        if parts and parts[-1].endswith("()"):
            return [(None, "unresolved", 0.0)]  # f()(): what f returns is unknown; its name says nothing
        name = parts[-1] if parts else ""
        dotted_call = len(parts) > 1
        if not name or (dotted_call and name in c.rules.builtin_method_names):
            return [(None, "unresolved", 0.0)]
        cands = self._same_family(w.by_name.get(name, []))  # never a name of another language
        if self.rules.separate_declarations:  # a C/C++ declaration and its definition are one candidate
            cands = list(dict.fromkeys(d for s in cands for d in (self.rules.definitions(w, s) or (s,))))
        if dotted_call:
            cands = [s for s in cands if w.syms[s].kind in ("method", "function")]
        else:
            cands = [s for s in cands if w.syms[s].kind != "method"]
        if not cands:
            return [(None, "unresolved", 0.0)]
        same = [s for s in cands if w.syms[s].file_id == c.frow.id]
        if len(same) == 1:
            return [(same[0], "same_file_name", CONFIDENCE["same_file_name"])]
        if len(cands) == 1:
            return [(cands[0], "unique_name", CONFIDENCE["unique_name"])]
        if len(cands) <= MAX_AMBIGUOUS:
            k = len(cands)
            return [(s, "ambiguous_name", CONFIDENCE["ambiguous_name"] / k) for s in sorted(cands)]
        return [(None, "unresolved", 0.0)]

    # -- type references ----------------------------------------------------------------------------
    def _types(self) -> None:
        c, w = self.c, self.w
        for tr in c.pf.type_refs:
            scope = tr.owner if c.pf.symbols[tr.owner].kind not in TYPE_KINDS or tr.kind != "field" else tr.owner
            got = w.resolve_path(c, scope if tr.kind not in ("param", "return") else local_parent(c, tr.owner), tr.type_name, tr.line, 1)
            tid, res = self._target(got)
            if tid is None:
                tid, res = self._type_heuristic(tr.type_name)
            conf = CONFIDENCE[res]
            self.out.types.append((c.ids[tr.owner], tid, tr.type_name, tr.kind, "", tr.line, res, conf))

    def _same_family(self, ids: list[int]) -> list[int]:
        """The symbols of ``ids`` defined in a language this file can call (in a polyglot repository)."""
        w = self.w
        langs = self.rules.family or (self.c.frow.language,)
        out = []
        for s in ids:
            f = w.files.get(w.syms[s].file_id)  # type: ignore[arg-type]
            if f is not None and f.language in langs:
                out.append(s)
        return out

    def _type_heuristic(self, type_name: str) -> tuple[int | None, str]:
        w = self.w
        name = type_name.rsplit(".", 1)[-1]
        cands = [s for s in self._same_family(w.by_name.get(name, [])) if w.syms[s].kind in TYPE_KINDS]
        same = [s for s in cands if w.syms[s].file_id == self.c.frow.id]
        if len(same) == 1:
            return same[0], "same_file_name"
        if len(cands) == 1:
            return cands[0], "unique_name"
        return None, "unresolved"

    def _bindings_fields(self) -> None:
        """``self.x = Foo()`` in a method types the attribute ``x`` of the class: a ``field`` reference."""
        c, w = self.c, self.w
        for b in c.pf.bindings:
            if not b.name.startswith("self.") or not b.value:
                continue
            if c.pf.symbols[b.owner].kind not in TYPE_KINDS:
                continue
            got = w.attr_types(c.ids[b.owner]).get(b.name[5:])
            if got is None:
                continue
            v, res = got
            if v[0] not in ("inst", "extinst"):
                continue
            tid = self._value_id(v)
            self.out.types.append((c.ids[b.owner], tid, b.value, "field", b.name[5:], b.line, res, CONFIDENCE[res]))


def resolve_files(world: World, file_ids: list[int]) -> Edges:
    """Resolve every record of ``file_ids`` (their contexts must be loadable) into edge rows."""
    out = Edges()
    for fid in file_ids:
        c = world.ctx(fid)
        if c is None:
            continue
        FileResolver(world, c, out).run()
    return out
