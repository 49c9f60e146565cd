"""Swift's resolution rules.

A module is the folder ``Sources/<Module>/`` of a SwiftPM package (:func:`~._parser.swift_module`): the
files of one module see each other's top-level declarations without an import, and ``import Module``
makes another module's visible. ``extension Foo { .. }`` adds members to the type ``Foo`` declares
elsewhere (a *twin* of it): a member looked up on ``Foo`` is found in any of them, and a member of a
protocol extension is found on every type conforming to the protocol. ``Foo(..)`` runs the ``init`` of
``Foo`` (or of an extension) that the call's argument labels choose, and the type itself when it has none
(a struct's memberwise initializer); overloads are told apart by labels as the compiler does. A capitalised
name no visible module declares comes from Swift, Foundation or a library: external, never a guess; a
name-only guess stays inside the modules the caller sees.
"""

from __future__ import annotations

from collections import defaultdict

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import (
    CachedRules,
    ImportBinding,
    inherited_member,
    marked_symbols,
    named_import,
    record_of,
    world_cache,
)
from ._parser import EXTENSION, FUNCTION, swift_module

_TYPES = ("class", "struct", "enum", "interface", "type_alias")


class SwiftRules(CachedRules):
    language = "swift"
    imports_reexported = False
    implicit_receivers = {"self": "inst", "Self": "type"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = False
    constructor_names = ("init",)
    uppercase_calls_construct = True  # Foo(..) constructs: Swift has no new
    detached_methods = True  # extensions
    accessors = True  # computed properties: reading one gives its declared type
    overloads = True  # labels choose among overloads; extensions of library types are not the type
    fields_apart_from_methods = True  # var commandStack and func commandStack(for:) live side by side
    ambiguous_guesses = False  # $0.m() with several m in sight: no edge (a wrong edge is worse than none)
    builtin_functions = frozenset({
        "print", "debugPrint", "dump", "fatalError", "precondition", "preconditionFailure", "assert",
        "assertionFailure", "min", "max", "abs", "zip", "stride", "type", "repeatElement", "sequence", "swap",
        "withUnsafePointer", "withUnsafeMutablePointer", "withUnsafeBytes", "withExtendedLifetime", "readLine",
        "numericCast", "unsafeBitCast", "withTaskGroup", "withThrowingTaskGroup", "withCheckedContinuation",
        "withCheckedThrowingContinuation", "withTaskCancellationHandler", "dispatchPrecondition", "autoreleasepool",
        "isKnownUniquelyReferenced", "exit", "String", "Int", "Double", "Float", "Bool", "Array", "Set",
        "Dictionary", "Character", "Substring", "Data", "URL", "Date", "UUID", "Result", "Task", "Optional",
    })
    builtin_method_names = frozenset({
        "init", "map", "flatMap", "compactMap", "filter", "reduce", "forEach", "contains", "first", "last",
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "popLast", "sorted", "sort",
        "reversed", "joined", "split", "enumerated", "firstIndex", "lastIndex", "index", "prefix", "suffix",
        "dropFirst", "dropLast", "isEmpty", "count", "hasPrefix", "hasSuffix", "lowercased", "uppercased",
        "replacingOccurrences", "trimmingCharacters", "components", "appending", "async", "sync", "asyncAfter",
        "min", "max", "allSatisfy", "union", "intersection", "subtracting", "formUnion", "updateValue",
        "removeValue", "merge", "merging", "mapValues", "zip", "lazy", "encode", "decode", "description",
        "hash", "isEqual", "withUnsafeBytes", "withUnsafeMutableBytes", "lock", "unlock", "cancel", "resume",
        "get", "set", "value", "makeIterator", "next", "distance", "padding", "write", "read", "close", "open",
        "data", "string", "range", "starts", "elementsEqual", "shuffled", "randomElement", "squareRoot",
    })
    builtin_prefix = "swift"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        ids = modules(world)[0].get(module)
        return ("pkg", tuple(ids)) if ids else None

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name, own=True)  # implicit self: members and extensions
        if got is not None:
            return got
        table = modules(world)[2]
        own = ctx.frow.module_id
        for mod in visible_modules(world, ctx):
            for mid, sid in table.get(mod, {}).get(name, ()):
                if mid != own:
                    return ("sym", sid), "module_global"
        if name[:1].isupper() and name not in self.builtin_functions:
            return ("ext", name), "external"
        return None

    def detached_member(self, world, type_id: int, name: str):
        """A member of ``type_id`` declared in another of its twins (the type and its extensions), or in an
        extension of a protocol the type or a twin conforms to."""
        for t in twins(world, type_id):
            kids = world.children.get(t, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        for t in twins(world, type_id):
            attr = world.attr_type(t, name)
            if attr is not None:
                return attr
        for t in twins(world, type_id):  # extension Foo: Proto { }: what Proto and its extensions give
            for v in world.mro(t)[1:]:
                if v[0] == "sym" and world.syms[v[1]].kind in _TYPES:
                    got = world.class_member(v[1], name)
                    if got is not None and got[0][0] == "sym":
                        return got
        return None

    def member_of_name(self, world, ids: list[int]) -> int:
        """A property and a method of one name (``var eventMonitor`` and ``func eventMonitor(_:)``): a member
        read through a path is the property; among methods the labels choose later."""
        props = [i for i in ids if world.syms[i].kind == "property"]
        return props[-1] if props else ids[-1]

    def accessor_value(self, world, sym_id: int, depth: int):
        """A computed property read as a member: a value of its declared type."""
        if world.syms[sym_id].kind != "property":
            return None
        got = world.returns(sym_id, depth + 1)
        return (got[0], "self_method") if got is not None and got[0][0] in ("inst", "extinst") else None

    def constructor(self, world, class_id: int, name: str):
        """``Foo(..)``: an ``init`` of the type or of one of its extensions (the labels choose later, in
        :meth:`choose_overload`); the type itself when none declares one (a memberwise initializer)."""
        group = [class_id, *twins(world, class_id)]
        for t in group:
            kids = world.children.get(t, {}).get(name)
            if kids:
                return ("sym", kids[0]), "self_method"
        if class_id in extension_ids(world):
            real = [t for t in group if t not in extension_ids(world)]
            if real:
                return ("sym", real[0]), "self_method"
        return None

    def choose_overload(self, world, ctx, call, targets):
        out = []
        exts = extension_ids(world)
        if call.callee.endswith(".init") and not any(t[0] is not None and t[1] not in ("external", "builtin")
                                                      for t in targets):
            made = _memberwise(world, ctx, call)
            if made is not None:
                return [made]
        for t in targets:
            tid = t[0]
            if tid is not None and t[1] in ("external", "builtin") and call.kind == "call":
                t = _extension_init(world, ctx, call, t)
                tid = t[0]
            if tid is not None and tid in exts:
                real = [k for k in twins(world, tid) if k not in exts]
                if real:
                    t = (real[0], t[1], t[2])
                else:  # an extension of a library type (String(..)): the library's
                    t = (world.external(f"{self.builtin_prefix}.{world.syms[tid].name[len(EXTENSION):]}"), "external", 1.0)
            elif tid is not None and call.kind == "call":
                t = _by_labels(world, ctx, call, t)
            out.append(t)
        return out

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess reaches only the caller's module and the modules it imports."""
        seen = set(visible_modules(world, ctx))
        per_file = modules(world)[1]
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and per_file.get(f.module_id) in seen:
                out.append(s)
        return out


def _extension_init(world, ctx, call, target):
    """``String(cart: c)``: a library type constructed through an ``init`` that an extension in a module the
    caller sees adds (``extension String { init(cart:) }``), when the labels fit exactly one."""
    parts = call.callee.split(".")
    if parts[-1] == "init":
        parts = parts[:-1]
    name = parts[-1] if parts else ""
    if not name[:1].isupper() or len(parts) > 2:
        return target
    seen = set(visible_modules(world, ctx))
    per_file = modules(world)[1]
    inits = []
    for e in marked_symbols(world, "swift", "extension").get(EXTENSION + name, ()):
        f = world.files.get(world.syms[e].file_id)
        if f is not None and per_file.get(f.module_id) in seen:
            inits.extend(k for k in world.children.get(e, {}).get("init", ()) if _fits(world, k, call.args) is not None)
    return (inits[0], "module_global", CONFIDENCE["module_global"]) if len(inits) == 1 else target


def _memberwise(world, ctx, call):
    """``self.init(..)`` (``Foo.init(..)``) in a type none of whose pieces declares an ``init``: the
    struct's memberwise initializer, which the type stands for."""
    got = world.resolve_path(ctx, call.caller, call.callee[: -len(".init")], call.line)
    if got is None or got[0][0] not in ("inst", "sym") or not isinstance(got[0][1], int):
        return None
    tid = got[0][1]
    if world.syms[tid].kind not in _TYPES:
        return None
    group = [tid, *twins(world, tid)]
    if any(world.children.get(t, {}).get("init") for t in group):
        return None
    real = [t for t in group if t not in extension_ids(world)]
    return (real[0], "self_method", 1.0) if real else None


def modules(world):
    """(module -> module ids of its files, module id -> its module, module -> name -> [(module id, symbol
    id)] of the top-level declarations), over the Swift files, cached per world."""
    def build():
        by_mod: dict[str, list[int]] = defaultdict(list)
        of_file: dict[int, str] = {}
        members: dict[str, dict[str, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
        for f in sorted(world.files.values(), key=lambda f: f.id):
            if f.language != "swift":
                continue
            mod = swift_module(f.path)
            by_mod[mod].append(f.module_id)
            of_file[f.module_id] = mod
            for name, kids in sorted(world.children.get(f.module_id, {}).items()):
                for k in kids:
                    members[mod][name].append((f.module_id, k))
        return dict(by_mod), of_file, {k: dict(v) for k, v in members.items()}
    return world_cache(world, "swift-modules", build)


def visible_modules(world, ctx) -> list[str]:
    """The caller's own module, then the modules its file imports (``import X``, ``@testable import X``)."""
    cache = world_cache(world, "swift-visible", dict)
    got = cache.get(ctx.frow.id)
    if got is None:
        got = [modules(world)[1].get(ctx.frow.module_id, "")]
        for imp in ctx.pf.imports:
            if imp.module not in got:
                got.append(imp.module)
        cache[ctx.frow.id] = got
    return got


def extension_ids(world) -> frozenset[int]:
    return world_cache(world, "swift-extension-ids", lambda: frozenset(
        i for ids in marked_symbols(world, "swift", "extension").values() for i in ids))


def twins(world, type_id: int) -> list[int]:
    """The other pieces of the type ``type_id``: the declaration and the extensions of the same qualified
    name; for a top-level type, also the extensions of its name in other modules whose own module declares
    no such type (``extension ParsableCommand`` in a tool), and the other way round."""
    cache = world_cache(world, "swift-twins", dict)
    got = cache.get(type_id)
    if got is not None:
        return got
    s = world.syms.get(type_id)
    exts = extension_ids(world)
    out: list[int] = []
    if s is not None:
        out = [o for o in world.by_qname.get(s.qualified_name, ()) if o != type_id and world.syms[o].kind in _TYPES]
        if _top_level(world, s):
            base = s.name[len(EXTENSION):] if type_id in exts else s.name
            others = [k for k in world.by_name.get(base, ()) if k not in exts] if type_id in exts \
                else marked_symbols(world, "swift", "extension").get(EXTENSION + base, [])
            for other in others:
                o = world.syms[other]
                if other == type_id or other in out or o.kind not in _TYPES or not _top_level(world, o):
                    continue
                if not _has_real(world, (o if other in exts else s).qualified_name):
                    out.append(other)
    cache[type_id] = out
    return out


def _top_level(world, s) -> bool:
    p = world.syms.get(s.parent_id) if s.parent_id is not None else None
    return p is None or p.kind == "module"


def _has_real(world, qname: str) -> bool:
    exts = extension_ids(world)
    return any(k not in exts and world.syms[k].kind in _TYPES for k in world.by_qname.get(qname, ()))


def _by_labels(world, ctx, call, target):
    """A function of several overloads (the same name in the same type or its extensions) replaced by the
    one whose parameter labels the call's argument labels fit, when exactly one does; among several that
    fit, the one whose parameter types the arguments' known types match best. When none fits, the call is
    not to any of them (Swift's labels are part of the name: ``first(where:)`` of a collection is not the
    type's own ``first(matching:)``)."""
    tid, res, conf = target
    same = _overloads(world, tid)
    if not same:
        return target
    fits = {k: m for k in same if (m := _fits(world, k, call.args)) is not None}
    if not fits:
        return (None, "unresolved", 0.0)
    if len(fits) == 1:
        return (next(iter(fits)), res, conf)
    scores = {k: _type_score(world, ctx, call, k, m) for k, m in fits.items()}
    best = max(scores.values())
    top = [k for k, v in scores.items() if v == best]
    if len(top) > 1:  # a protocol's requirement and its extension's default: the requirement
        exts = extension_ids(world)
        declared = [k for k in top if world.syms[k].parent_id not in exts]
        top = declared if declared else top
    if len(top) == 1 and (best > 0 or tid not in fits):
        return (top[0], res, conf)
    if tid not in fits:
        return (min(top), res, conf)
    return target


def _overloads(world, tid: int) -> list[int]:
    """The functions of ``tid``'s name in its type and the type's twins (``tid`` first), or ``[]`` when
    ``tid`` is no function; once per world."""
    cache = world_cache(world, "swift-overloads", dict)
    got = cache.get(tid)
    if got is None:
        got = []
        s = world.syms.get(tid)
        if s is not None and s.kind in ("function", "method") and s.parent_id is not None:
            got = list(world.children.get(s.parent_id, {}).get(s.name, ()))
            parent = world.syms.get(s.parent_id)
            if parent is not None and parent.kind in _TYPES:
                for t in twins(world, s.parent_id):
                    got.extend(k for k in world.children.get(t, {}).get(s.name, ()) if k not in got)
        cache[tid] = got
    return got


def _params(world, sid: int) -> list[tuple[str, str]] | None:
    cache = world_cache(world, "swift-params", dict)
    if sid not in cache:
        _c, sym = record_of(world, sid)
        cache[sid] = list(sym.params) if sym is not None else None
    return cache[sid]


def _fits(world, sid: int, args: list[str]) -> list[tuple[int, str]] | None:
    """How a call with ``args`` (``"label=path"``, ``"_=path"`` unlabelled, ``"{}"`` a trailing closure) can
    call function ``sid``: each argument takes the next parameter of its label (a trailing closure the next
    parameter), parameters with a default value may be skipped, a variadic one (``label*``) takes the
    unlabelled arguments that follow. The (parameter index, argument path) pairs, or ``None``."""
    params = _params(world, sid)
    if params is None:
        return []
    i = 0
    pairs: list[tuple[int, str]] = []
    for arg in args:
        closure = arg == "{}"
        label, _, path = arg.partition("=")
        if pairs and label == "_" and params[pairs[-1][0]][0].rstrip("=").endswith("*"):
            pairs.append((pairs[-1][0], path))  # one more value of a variadic parameter
            continue
        while i < len(params):
            name = params[i][0]
            plain = name.rstrip("=").rstrip("*")
            if closure or plain == label:
                break
            if not name.endswith("="):
                return None
            i += 1
        else:
            return None
        pairs.append((i, FUNCTION if closure else path))
        i += 1
    if all(p[0].endswith("=") for p in params[i:]):
        return pairs
    return None


def _type_score(world, ctx, call, sid: int, pairs: list[tuple[int, str]]) -> int:
    """How many of the call's arguments have a known type that the parameter they fill names."""
    params = _params(world, sid) or []
    score = 0
    for i, path in pairs:
        ptype = params[i][1].rsplit(".", 1)[-1] if i < len(params) else ""
        if path == FUNCTION:  # a trailing closure: a closure parameter rather than a value of type Value
            score += 1 if ptype == FUNCTION else 0
            continue
        if not path or not ptype or ptype == FUNCTION:
            continue
        got = world.resolve_path(ctx, call.caller, path, call.line)
        if got is None:
            continue
        tag, what = got[0]
        if tag == "inst" and isinstance(what, int):
            names = {world.syms[v[1]].name if v[0] == "sym" else str(v[1]).rsplit(".", 1)[-1] for v in world.mro(what)}
        elif tag in ("extinst", "ext"):
            names = {str(what).rsplit(".", 1)[-1]}
        else:
            continue
        score += 1 if ptype in names else -1
    return score
