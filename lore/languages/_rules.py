"""The resolution rules every language starts from, and the helpers several languages share.

The resolver (``lore.index``) is language-neutral: it walks scopes, follows dotted paths through
modules, classes and typed values, and records how each edge was bound. What differs between
languages lives in a :class:`LanguageRules` subclass in ``lore/languages/<lang>/``, held by that
language's :class:`~lore.languages.Language` object.

The rules see the resolver's world and file contexts only through the methods they call on them
(``world.member``, ``world.class_member``, ``ctx.frow`` ...): this layer never imports ``lore.index``.
Caches that depend on the whole set of files (directory -> modules) live on the world object.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from ..parsers.records import Import


@dataclass(frozen=True, slots=True)
class ImportBinding:
    """What an import binds: local ``name`` -> ``module`` (absolute), optionally a ``member`` of it.

    ``star`` imports bind every public name of ``module``; ``name`` is then ``''``.
    ``relative`` marks imports that can only point inside the repository.
    """

    name: str
    module: str
    member: str | None = None
    star: bool = False
    relative: bool = False


class LanguageRules:
    """Defaults shared by languages; subclasses override what differs."""

    language = ""
    self_names: frozenset[str] = frozenset({"self"})
    constructor_names: tuple[str, ...] = ()
    builtin_functions: frozenset[str] = frozenset()
    builtin_types: frozenset[str] = frozenset()
    # method names of builtin containers / strings: an unknown receiver calling these is not
    # matched to repository methods by name (x.append() is almost never your own `append`)
    builtin_method_names: frozenset[str] = frozenset()
    builtin_prefix = "builtins"
    # what the runtime's own functions and methods give back, when the language fixes it: external name
    # -> the external class its result is an instance of (JS ``'a,b'.split(',')`` is an Array)
    builtin_results: dict[str, str] = {}
    # the members of runtime classes the language knows in full (JS ``Error``: message, name, stack...):
    # a class extending one that lacks a name has no such member there, never an invented ``Error.hint``
    builtin_members: dict[str, frozenset[str]] = {}
    # whether a narrowing (``instanceof`` in an ``if``) already holds on the line of its condition: a
    # branch written on that line (``if (e instanceof A) return e.m();``) or a later term of its ``&&``
    narrowing_holds_on_its_line = False
    # whether a property path an ``instanceof`` test narrows (``this.error``, bound by the parser as the
    # path) is read from that narrowing on the lines it holds, without the rest of follows_values
    narrows_paths = False
    # whether calling an instance reached through a member (``opts.handler()``) runs its class's
    # ``__call__`` (Python); in TypeScript what runs is what the property holds, its declaration the
    # definition (a call signature, ``(req: Request): Response``, types the result): only a name holding
    # the instance (``handler()``) is bound to the signature there
    callable_instances = True
    # whether one name in one scope may be a type and a value at once (TypeScript: ``interface X`` beside
    # ``const X = ...``): a member of the type that it does not declare is then the value's
    values_beside_types = False
    # whether calling a value of a type with a call signature (``__call__``) gives what the signature
    # declares (TypeScript's ``(e: Event): Response``, ``new (port: number): Server``)
    call_signatures_give = False
    class_scopes_visible_to_methods = False
    member_separator = "."

    # names bound implicitly inside methods: "inst" = an instance of the enclosing class (``this``),
    # "type" = the class itself (Rust ``Self``). Python binds ``self`` as the first parameter instead.
    implicit_receivers: dict[str, str] = {}
    # whether a method's first parameter is its receiver (Python ``self``, Go ``func (s *T)``)
    first_param_is_receiver = True

    # whether the engine follows values that travel in this language (lore.index._flow): arguments into
    # parameters, returns, decorators, lambdas, containers. Needs the parser to record call arguments.
    follows_values = False
    # whether pytest fills the parameters of tests and fixtures by fixture name (lore.index._fixtures)
    test_fixtures = False
    # library functions that call what they are given: callee -> the positions / keywords of the callables
    # (``map(f, xs)`` calls ``f`` from the caller's point of view)
    callback_args: dict[str, tuple[int | str, ...]] = {}

    def read_project(self, root, data: dict, world=None) -> None:
        """Put into ``data`` what resolution reads from the repository's own files beside its sources
        (TypeScript: the root tsconfig.json's ``paths``; C: ``compile_commands.json``): called once by the
        indexer where it builds the world (``world``, its files and records), which carries ``data`` as
        ``world.project_data``, so resolution never touches the file system (a Ray worker on another
        machine has no such folder), and the index re-resolves a language's files when its part changed.
        Add the repository-relative paths read (or looked for) to the set ``data["inputs"]``: a run
        that parses nothing checks those. Languages without any: nothing."""

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        """The binding an import record creates in the importing file (``module`` is that file's module)."""
        raise NotImplementedError

    def module_value(self, world, ctx, module: str):
        """The value an import's ``module`` text names, seen from file ``ctx`` (hook: JS paths, Go/Java packages).

        Returns a resolver value (``("sym", module_id)``, ``("pkg", (module_id, ...))`` for a package made of
        several files, ``("ns", prefix)``) or ``None``; Python looks the dotted name up as is.
        """
        return world.module_value(module)

    # whether several members of one name in a type are alternatives a call may pick among (Rust: one per
    # ``impl Trait<X> for T``), rather than redefinitions where the last one wins (Python)
    same_name_members_are_alternatives = False

    # whether a name-only guess that leaves several definitions (``x.m()`` on a value of unknown type, ``f()``
    # bound by no scope) binds each of them (1/k each); without, it has no edge (Rust: a wrong edge is worse
    # than a missing one)
    ambiguous_guesses = True

    # whether an unqualified name inside a nested class finds what the nested class inherits before what
    # the classes around it declare (Java, JLS 15.12.1: the innermost class that has a member of the name)
    inherited_before_outer = False

    # whether a type's fields and methods are separate namespaces (Java: ``bitSet.set(i)`` reads the field
    # ``bitSet`` also when the class has a method ``bitSet()``); a name that is not called is a field then
    fields_apart_from_methods = False

    # whether what a library method returns is a value of a library type, its members never guessed among
    # the repository's (Java: ``pattern.matcher(s).replaceAll(r)``); Python's follows_values implies it
    external_results_opaque = False

    # whether a container annotated with its element types (``List<Node>``, written ``List[Node]`` by the
    # parser) types its elements (lore.index._containers) without the rest of follows_values
    typed_containers = False
    # whether a class may type every member it does not declare (TypeScript's ``[key: string]: T``,
    # bound by the parser as ``self.[string]``): ``routes.home.handle()`` is T's ``handle``
    index_signatures = False

    # whether members may be declared apart from their type (Go, Rust: another file; C++: A::m in the source)
    detached_methods = False

    def detached_member(self, world, type_id: int, name: str):
        """Member ``name`` of type ``type_id`` declared outside the type's body: ``(value, resolution)`` or ``None``."""
        return None

    def class_twins(self, world, class_id: int) -> list[int]:
        """Other declarations of the same class (C++: a header's class and the placeholder holding its out-of-line
        methods), read for what one of them lacks (its generic base: :meth:`lore.index._generics.GenericsMixin.generic_base`)."""
        return []

    def package_member(self, world, ctx, scope: int, name: str):
        """``name`` not bound in any scope of the file, as the language still sees it from ``scope``, or ``None``.

        Go and Java: top-level names of other files of the same package; Java and C++: members a class
        inherits, used without ``this``. Returns ``(value, resolution)``; consulted after the file's own
        scopes, before builtins.
        """
        return None

    def is_stdlib(self, module: str) -> bool:
        return False

    # whether what a file imports is visible to the files importing it (Python, JS/TS re-exports, Rust
    # ``pub use``); Java and Go imports are private to their file
    imports_reexported = True

    # languages whose definitions a name heuristic may bind (default: the file's own language)
    family: tuple[str, ...] = ()

    # whether a call of an external name that starts with a capital constructs it (Python ``Session()``);
    # elsewhere only ``new X()`` does (Go ``fmt.Errorf`` and C ``CHECK()`` are calls)
    uppercase_calls_construct = True

    # whether a call the rules cannot bind may be guessed by its name (same_file_name, unique_name, ambiguous_name);
    # C and C++ bind by includes and linkage, and leave calls through function pointers unresolved
    guesses_by_name = True
    # with guesses_by_name off: whether ``x.m()`` on a receiver of unknown type may still bind to the one method
    # of that name in the repository (``unique_name``; C++ members, never a C function-pointer field)
    guesses_members = False

    # whether a function may be declared apart from its definitions (C/C++ prototypes in headers)
    separate_declarations = False

    def definitions(self, world, sym_id: int) -> list[int] | None:
        """The definitions a declaration ``sym_id`` stands for (calls are spread over them), or ``None``."""
        return None

    def skipped_branch(self, world, condition: str, file_id: int | None = None) -> bool:
        """Whether a definition whose parser recorded ``condition`` (C/C++: the preprocessor branch it sits in,
        ``Symbol.condition``) is outside what a default build compiles; a scope that defines its name again
        elsewhere then binds the other one; ``file_id`` is the file whose scope reads it. Default: ``"0"``, a branch
        the file itself decides is skipped."""
        return condition == "0"

    # whether functions of one name are told apart by their parameters (Java, C++ overloads): see choose_overload
    overloads = False

    def choose_overload(self, world, ctx, call, targets: list[tuple[int | None, str, float]]) -> list[tuple[int | None, str, float]]:
        """The call edges ``targets`` of ``call`` with each function replaced by the overload(s) its arguments
        choose (``(id, resolution, confidence)`` rows; called only when :attr:`overloads` is set): by arity,
        then by the argument types the language's records give."""
        return targets

    def constructor(self, world, class_id: int, name: str):
        """The constructor called ``name`` that a construction of class ``class_id`` runs: ``(value, resolution)``
        or ``None`` (the class itself is then the callee). Default: the class's member of that name, inherited
        ones included (Python's ``__init__``)."""
        return world.class_member(class_id, name)

    def member_of_name(self, world, ids: list[int]) -> int:
        """Which of a class's several members of one name a lookup through the class answers (its
        overloads, a redefinition): the last one, unless the language knows better."""
        return ids[-1]

    # whether a class member may be an accessor (JS/TS ``get x()``): reading it gives what it returns
    accessors = False

    def accessor_value(self, world, sym_id: int, depth: int):
        """What reading member ``sym_id`` gives when it is an accessor: ``(value, resolution)``, else ``None``."""
        return None

    # whether ``x.m()`` with ``x`` of unknown type prefers the one ``m`` of the caller's own file over
    # same-named methods elsewhere (JS/TS: no, a receiver of unknown type comes from anywhere)
    same_file_guess_for_members = True

    def super_value(self, world, class_id: int, name: str):
        """What ``super().name`` means in a method of class ``class_id``: ``(value, resolution)`` or ``None``."""
        return world.super_member(class_id, name)

    def returns_receiver(self, world, method_id: int) -> bool:
        """Whether method ``method_id`` may give back the object it was called on (TypeScript's ``return
        this`` and ``: this``): ``sub.use().listen()`` then goes on with ``sub``'s class, not the class that
        declares ``use``. The receiver's value decides in :meth:`receiver_value`. Default: no."""
        return False

    def receiver_value(self, world, method_id: int, receiver):
        """What calling method ``method_id`` on ``receiver`` (an instance value) gives when that depends on
        the receiver, not on the method's declared class; ``None``: what the method itself returns.
        Default: the receiver itself when :meth:`returns_receiver` says so."""
        return receiver if self.returns_receiver(world, method_id) else None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """The definitions a name-only guess of the callee ``parts`` (``['x', 'm']`` for ``x.m()``) from file
        ``ctx`` may still bind, of ``cands`` (same name, same language family, no test code for non-test
        callers): what the language lets this caller see by that name (JS/TS: the modules the file
        imports; Rust: paths lore could follow, and its privacy). Default: all."""
        return cands

    # whether an import of a whole module can name one value (JavaScript ``module.exports = X``)
    whole_module_exports = False

    def exports_value(self, world, mod, want: str | None, depth: int):
        """What ``import``/``require`` of module value ``mod`` binds when the module exports one value:
        ``(value, resolution)``, or ``None`` to look ``want`` up in the module as usual."""
        return None


class CachedRules(LanguageRules):
    """Import targets are looked up once per (file, module text): a star include is consulted for every name."""

    def module_value(self, world, ctx, module: str):
        cache = world_cache(world, "module-values", dict)
        key = (ctx.frow.id, module)
        try:
            return cache[key]
        except KeyError:
            got = cache[key] = self._module_value(world, ctx, module)
            return got

    def _module_value(self, world, ctx, module: str):
        return world.module_value(module)


def _cached(world, key):
    """What :func:`world_cache` holds under ``key``, or ``None`` before it is built."""
    store = world.__dict__.get("_lang_cache")
    return store.get(key) if store is not None else None


def named_import(imp: Import) -> ImportBinding | None:
    """What an import that names a package member binds, as Java, C#, Kotlin, Swift, Scala and PHP write
    them: ``import a.b.*`` (``using a.b;``) every member of ``a.b``; ``import a.b.C`` (``as D``) the name
    ``C`` (``D``); a record without a name binds nothing."""
    if imp.name == "*":
        return ImportBinding("", imp.module, None, star=True)
    if not imp.name:
        return None
    return ImportBinding(imp.alias or imp.name, imp.module, imp.name)


def enclosed(text: str, start: int) -> str:
    """The text after the bracket at ``text[start]`` up to its matching close (any of ``)>]}``), or to the
    end: a signature's parameter list, whatever brackets its types nest.

    Examples
    --------
    >>> enclosed("f(Map<K, V> m, int (*cb)(int)) const", 1)
    'Map<K, V> m, int (*cb)(int)'
    """
    depth = 0
    for i in range(start + 1, len(text)):
        ch = text[i]
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            if depth == 0:
                return text[start + 1:i]
            depth -= 1
    return text[start + 1:]


def split_top_level(text: str, opens: str = "([{", closes: str = ")]}") -> list[str]:
    """``text`` split at the commas outside brackets (``opens`` / ``closes``), a blank last piece dropped.

    Examples
    --------
    >>> split_top_level("a: Int, f: (A, B) => C, ")
    ['a: Int', ' f: (A, B) => C']
    >>> split_top_level("Dictionary<K, V> d, int n", "<([{", ">)]}")
    ['Dictionary<K, V> d', ' int n']
    """
    brackets, marks = _splitters(opens, closes)
    if brackets.search(text) is None:  # no brackets (most parameter lists): every comma splits
        out = text.split(",")
        return out if out[-1].strip() else out[:-1]
    out = []
    depth = start = 0
    for m in marks.finditer(text):  # only the brackets and commas, not every character
        ch = m.group()
        if ch in opens:
            depth += 1
        elif ch in closes:
            depth -= 1
        elif depth == 0:
            out.append(text[start:m.start()])
            start = m.end()
    if text[start:].strip():
        out.append(text[start:])
    return out


@cache
def _splitters(opens: str, closes: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns :func:`split_top_level` searches: any bracket; any bracket or comma."""
    brackets = "".join(re.escape(ch) for ch in opens + closes)
    return re.compile(f"[{brackets}]"), re.compile(f"[{brackets},]")


def imported_files(world, ctx) -> set[int]:
    """The ids of the files whose modules the imports of file ``ctx`` name (Lua's ``require``, Bash's
    ``source``): a name guess may reach into them."""
    out: set[int] = set()
    for ib in ctx.import_bindings:
        if ib is None:
            continue
        mod = ctx.rules.module_value(world, ctx, ib.module)
        if mod is not None and mod[0] == "sym":
            fid = world.module_file.get(mod[1])
            if fid is not None:
                out.add(fid)
    return out


def world_cache(world, key: str | tuple, build):
    """A per-world cache (the world is rebuilt on every index run)."""
    try:  # the hot path: rules ask for their tables once per call site and more
        return world.__dict__["_lang_cache"][key]
    except KeyError:
        store = world.__dict__.setdefault("_lang_cache", {})
        if key not in store:
            store[key] = build()
        return store[key]


def marked_symbols(world, language: str, mark: str, kinds: tuple[str, ...] | None = None) -> dict[str, list[int]]:
    """Name -> ids of the symbols of ``language``'s files whose parser marked them with ``mark`` among their
    decorators (``"extension"``: C#'s ``static M(this T x)``, Kotlin's ``fun T.m()``), of ``kinds`` when
    given; cached per world, files in id order."""
    key = ("marked", language, mark, kinds)
    got = _cached(world, key)  # asked at call sites: no closure, no key formatting once built
    if got is not None:
        return got

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for f in sorted(world.files.values(), key=lambda f: f.id):
            if f.language != language:
                continue
            c = world.ctx(f.id)
            if c is None:
                continue
            for local, sym in enumerate(c.pf.symbols):
                if mark in sym.decorators and (kinds is None or sym.kind in kinds):
                    out[sym.name].append(c.ids[local])
        return dict(out)

    return world_cache(world, key, build)


def declared_spaces(world, language: str, kinds: tuple[str, ...] | None = None) -> tuple[dict, dict, dict]:
    """The packages or namespaces the files of ``language`` declare into (Kotlin's ``package``, PHP's
    ``namespace``), read from their symbols' qualified names, cached per world: (space -> module ids of
    the files declaring something in it; module id -> its spaces; space -> name -> [(module id, symbol
    id)] of what is declared there). ``kinds``: the kinds of top-level symbols that count (default all)."""
    key = ("spaces", language, kinds)
    got = _cached(world, key)
    if got is not None:
        return got

    def build():
        by_space: dict[str, list[int]] = defaultdict(list)
        by_mod: dict[int, list[str]] = defaultdict(list)
        members: dict[str, dict[str, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
        for f in sorted(world.files.values(), key=lambda f: f.id):
            if f.language != language:
                continue
            mid = f.module_id
            modq = world.syms[mid].qualified_name
            for name, kids in sorted(world.children.get(mid, {}).items()):
                for k in kids:
                    s = world.syms[k]
                    if kinds is not None and s.kind not in kinds:
                        continue
                    space = s.qualified_name[: -len(s.name) - 1] if s.qualified_name != f"{modq}.{s.name}" else ""
                    if space not in by_mod[mid]:
                        by_mod[mid].append(space)
                        by_space[space].append(mid)
                    members[space][name].append((mid, k))
        return dict(by_space), {k: tuple(v) for k, v in by_mod.items()}, {k: dict(v) for k, v in members.items()}

    return world_cache(world, key, build)


def is_gomod(path: str) -> bool:
    return path == "go.mod" or path.endswith("/go.mod")


def dir_modules(world, languages: tuple[str, ...]) -> dict[str, list[int]]:
    """Directory -> module symbol ids of the source files of ``languages`` in it (sources before headers;
    ``go.mod`` files are not part of their package)."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for f in sorted(world.files.values(), key=lambda f: (f.path.endswith((".h", ".hpp", ".hh")), f.path)):
            if f.language in languages and not is_gomod(f.path):
                out[posixpath.dirname(f.path)].append(f.module_id)
        return dict(out)

    return world_cache(world, "dirs:" + ",".join(languages), build)


def path_modules(world) -> dict[str, int]:
    return world_cache(world, "paths", lambda: {f.path: f.module_id for f in world.files.values()})


def module_of_path(world, path: str):
    """The module value of a file path without extension (``src/util`` -> module ``src.util``)."""
    mid = world.modules.get(path.replace("/", "."))
    return ("sym", mid) if mid is not None else None


def siblings_member(world, ctx, name: str, languages: tuple[str, ...]):
    """``name`` at the top level of another file in the same directory (Go and Java packages)."""
    d = posixpath.dirname(ctx.frow.path)
    names = world_cache(world, "siblings:" + ",".join(languages), dict)
    table = names.get(d)
    if table is None:  # the directory's top-level names, built once: name -> [(module id, symbol id)]
        table = defaultdict(list)
        for mid in dir_modules(world, languages).get(d, ()):
            for n, kids in world.children.get(mid, {}).items():
                table[n].append((mid, kids[-1]))
        names[d] = table
    own = ctx.frow.module_id
    for mid, sid in table.get(name, ()):
        if mid != own:
            return ("sym", sid), "module_global"
    return None


def inherited_member(world, ctx, scope: int, name: str, own: bool = False, generic: bool = False):
    """A field or method the enclosing class inherits (or, ``own``, has in another file), named without
    ``this`` (Java, C++); ``generic``: also a field typed by a class template with arguments (C++'s
    ``circular_q<log_msg> messages_``, a generic instance)."""
    cls = ctx.enclosing_class(scope)
    if cls is None:
        return None
    got = world.class_member(ctx.ids[cls], name, skip_self=not own)
    if got is None or got[0][0] not in ("sym", "inst", "extinst") and not (generic and got[0][0] == "gin"):
        return None
    return got[0], "self_method" if got[1] in ("self_method", "local_scope") else got[1]


def detached_method(world, type_id: int, name: str, area) -> int | None:
    """Method ``name`` of a type declared in another file (``<file>.Type.name`` at its top level), where
    ``area(path)`` (the package directory, the crate root) is the same as the type's."""
    t = world.syms[type_id]
    f = world.files.get(t.file_id)
    if f is None:
        return None
    where = area(f.path)
    suffix = f".{t.name}.{name}"
    for mid in world.by_name.get(name, ()):
        m = world.syms[mid]
        if m.kind != "method" or m.parent_id == type_id or not m.qualified_name.endswith(suffix):
            continue
        parent = world.syms.get(m.parent_id)
        mf = world.files.get(m.file_id)
        if parent is not None and parent.kind == "module" and mf is not None and area(mf.path) == where:
            return mid
    return None


def twin_member(world, twins: list[int], name: str):
    """``name`` among the twins of a type (the pieces one type is declared in: a C++ class and the placeholders of
    its out-of-line methods, a Rust type and its impl blocks in other files): their own members and fields,
    then what their bases (C++ base classes, Rust traits) provide. Never through the twins' own twins: each
    group is visited once per lookup, whatever its size."""
    for t in twins:
        kids = world.children.get(t, {}).get(name)
        if kids:
            return ("sym", kids[-1]), "self_method"
    for t in twins:
        attr = world.attr_type(t, name)
        if attr is not None:
            return attr
    for t in twins:
        for v in world.mro(t)[1:]:
            if v[0] == "sym":
                got = world.class_member(v[1], name)
                if got is not None:
                    return got
            elif v[0] in ("ext", "extinst"):
                return ("ext", f"{v[1]}.{name}"), "external"
    return None


def record_of(world, sid: int):
    srow = world.syms[sid]
    c = world.ctx(srow.file_id)
    local = c.local_of.get(sid) if c is not None else None
    return (c, c.pf.symbols[local]) if local is not None else (None, None)
