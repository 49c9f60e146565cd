"""Kotlin's resolution rules: a package is made of the files that declare it (``package a.b``); ``import
a.b.C`` binds ``C``, ``import a.b.*`` all of ``a.b``; the file's own package is visible without import, and
so are the members a class inherits. ``x.f()`` where ``x``'s type has no ``f`` is an extension function
(``fun T.f()``) of the caller's package or one it imports, chosen by the receiver's type. A capitalised
name no package of the repository declares comes from Kotlin or a library: external, never a guess.
"""

from __future__ import annotations

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import (
    CachedRules,
    ImportBinding,
    declared_spaces,
    inherited_member,
    marked_symbols,
    named_import,
    record_of,
    world_cache,
)
from ._parser import RECEIVER

_TYPES = ("class", "interface", "enum")
_UNSEEN = object()
_WEAK = frozenset({"external", "builtin", "unresolved", "same_file_name", "unique_name", "ambiguous_name"})


class KotlinRules(CachedRules):
    language = "kotlin"
    imports_reexported = False
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)
    uppercase_calls_construct = True  # Foo(..) constructs: Kotlin has no new
    builtin_functions = frozenset({  # kotlin.*, kotlin.collections.*, kotlin.io.* ...: imported by default
        "println", "print", "listOf", "mutableListOf", "mapOf", "mutableMapOf", "setOf", "mutableSetOf",
        "emptyList", "emptyMap", "emptySet", "arrayOf", "require", "requireNotNull", "check", "checkNotNull",
        "error", "TODO", "lazy", "run", "with", "apply", "also", "let", "takeIf", "takeUnless", "repeat", "buildList",
        "buildMap", "buildString", "maxOf", "minOf", "Pair", "Triple", "String", "Int", "Long", "Boolean", "Any",
        "Unit", "Nothing", "Exception", "IllegalArgumentException", "IllegalStateException", "RuntimeException",
        "UnsupportedOperationException", "NoSuchElementException", "Throwable", "Result", "runCatching",
        "sequenceOf", "generateSequence", "arrayListOf", "hashMapOf", "linkedMapOf", "sortedMapOf", "to",
    })
    builtin_method_names = frozenset({
        "<init>", "let", "also", "apply", "run", "takeIf", "map", "filter", "forEach", "first", "firstOrNull", "last",
        "lastOrNull", "isEmpty", "isNotEmpty", "size", "get", "put", "add", "remove", "contains", "toString",
        "equals", "hashCode", "joinToString", "toList", "toMutableList", "toSet", "toMap", "flatMap", "mapNotNull",
        "any", "all", "none", "count", "sumOf", "sortedBy", "groupBy", "associate", "associateBy", "plus", "minus",
        "addAll", "removeAll", "clear", "getOrElse", "getOrNull", "getOrPut", "orEmpty", "trim", "split", "substring",
        "startsWith", "endsWith", "replace", "lowercase", "uppercase", "padStart", "padEnd", "format", "append",
        "appendLine", "collect", "emit", "launch", "async", "await", "cancel", "invoke", "compareTo", "copy",
    })
    builtin_prefix = "kotlin"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        spaces = packages(world)
        ids = spaces.get(module)
        if ids:
            return ("pkg", tuple(ids))
        head, _, last = module.rpartition(".")  # import a.b.C.member: the class a.b.C
        for mid in spaces.get(head, ()):
            kids = world.children.get(mid, {}).get(last)
            if kids:
                return ("sym", kids[-1])
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name)
        if got is not None:
            return got
        cache = world_cache(world, "kotlin-package-member", dict)
        key = (ctx.frow.module_id, name)
        try:
            return cache[key]
        except KeyError:
            got = cache[key] = self._package_member_of(world, ctx.frow.module_id, name)
            return got

    def _package_member_of(self, world, own: int, name: str):
        """``name`` as a top-level declaration of the file's package in another file, or an outside type: it
        depends only on the file and the name (symbols and files are fixed while calls resolve)."""
        for pkg in file_packages(world).get(own, ("",)):
            for mid, sid in package_members(world).get(pkg, {}).get(name, ()):
                if mid != own:
                    return ("sym", sid), "module_global"
        if name[:1].isupper() and name not in self.builtin_functions:
            return ("ext", name), "external"  # Kotlin's, Java's or a library's
        return None

    overloads = True  # extension functions are chosen after the lookup, by the receiver's type

    def choose_overload(self, world, ctx, call, targets):
        parts = call.callee.split(".")
        private = _private_constructors(world)
        if private and call.kind == "call":
            targets = [_companion_invoke(world, ctx, call, t) if t[0] in private else t for t in targets]
        implicit = _implicit_receiver(world, ctx, call, parts, targets, self.builtin_method_names)
        if implicit is not None:
            return implicit
        for t in targets:
            if t[0] is not None and t[1] not in _WEAK:
                return [_by_arity(world, t, len(call.args)) for t in targets]
        if call.kind != "call" or len(parts) < 2:
            return targets
        exts = _visible_extensions(world, ctx, parts[-1])
        if not exts:
            return targets
        names = _receiver_types(world, ctx, call, parts)
        this = _this_types(world, exts)
        typed = [e for e in exts if names and this[e][0].rsplit(".", 1)[-1] in names]
        outside = [e for e in exts if not this[e][1]]
        if typed:
            chosen, res = typed, "annotated_type"
        elif not names and len(exts) == 1:
            chosen, res = exts, "unique_name"
        elif names and _outside_value(names) and len(outside) == 1:
            # a library type (Channel) and an extension on another library type (ReceiveChannel): how the two
            # relate is the library's business; the one extension of that name in sight is a guess
            chosen, res = outside, "unique_name"
        else:
            return targets
        return [(e, res, CONFIDENCE[res] / len(chosen)) for e in sorted(chosen)]

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess reaches the files of the caller's package and the packages it imports."""
        cache = world_cache(world, "kotlin-guess-packages", dict)
        seen = cache.get(ctx.frow.id)
        if seen is None:  # the packages the file sees: once per file
            seen = set(file_packages(world).get(ctx.frow.module_id, ("",)))
            seen.update(imp.module for imp in ctx.pf.imports)
            cache[ctx.frow.id] = seen
        pk = file_packages(world)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and set(pk.get(f.module_id, ("",))) & seen:
                out.append(s)
        return out


def _companion_invoke(world, ctx, call, target):
    """``Foo(..)`` where ``Foo``'s constructor is private, called from outside ``Foo``: the companion's
    ``operator fun invoke`` (Kotlin's factory idiom); inside ``Foo`` (the ``invoke`` itself) the constructor."""
    tid = target[0]
    s = world.syms.get(tid) if tid is not None else None
    if s is None or s.kind != "class" or call.kind != "call":
        return target
    _c, sym = record_of(world, tid)
    if sym is None or "private_constructor" not in sym.decorators:
        return target
    i: int | None = call.caller
    while i is not None:  # the caller's enclosing declarations, in its own file
        if ctx.ids[i] == tid:
            return target
        i = ctx.pf.symbols[i].parent
    kids = world.children.get(tid, {}).get("invoke", ())
    return (kids[0], target[1], target[2]) if kids else target


def _implicit_receiver(world, ctx, call, parts: list[str], targets, library_members: frozenset[str]):
    """``m()`` (or ``this.m()``) inside an extension function ``fun T.f()`` or a lambda with receiver
    (``x.apply { }``, ``with(x) { }``, ``buildString { }``): the receiver's member ``m``, which Kotlin
    prefers to the enclosing class's and to top-level functions; ``None`` when the receiver has none
    (then the usual lookup stands). A library receiver's member is the library's (``append`` of
    ``buildString``), when ``m`` is one of the library member names lore knows; ``parts``: the callee's."""
    if call.kind != "call" or not (len(parts) == 1 or (len(parts) == 2 and parts[0] == "this")):
        return None
    if not _receiver_in_sight(world, ctx, call.caller):  # most calls: no receiver to prefer
        return None
    name = parts[-1]
    for t in targets:  # a local function declared in the caller's body comes first
        s = world.syms.get(t[0]) if t[0] is not None else None
        if s is not None and s.parent_id == ctx.ids[call.caller] and t[1] == "local_scope":
            return None
    got = world.resolve_path(ctx, call.caller, RECEIVER, call.line)
    if got is None:
        return None
    tag, what = got[0]
    if tag == "inst" and isinstance(what, int):
        member = world.class_member(what, name)
        if member is None or member[0][0] != "sym":
            return None
        return [_by_arity(world, (member[0][1], "annotated_type", CONFIDENCE["annotated_type"]), len(call.args))]
    if tag in ("extinst", "ext") and name in library_members:  # buildList { add(x) }: the list's add
        qname = f"{what}.{name}"
        return [(world.external(qname), "external", 1.0)]
    return None


def _receiver_in_sight(world, ctx, scope: int) -> bool:
    """Whether a lookup of the implicit receiver from ``scope`` can find one (most calls sit in no extension
    function and no lambda with receiver): a receiver binding of a scope around the call, or one a class or a
    file declares (rare: ``val x = buildString { }`` outside a function), which other files reach through
    inheritance or star imports. ``False`` only when the lookup would find nothing. Once per (file, scope)."""
    cache = world_cache(world, "kotlin-receiver-in-sight", dict)
    key = (ctx.frow.id, scope)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _receiver_reachable(world, ctx, scope)
    return got


def _receiver_reachable(world, ctx, scope: int) -> bool:
    shared_by_class, file_level = world_cache(world, "kotlin-shared-receivers", lambda: _shared_receivers(world))
    if shared_by_class:
        return True
    cache = world_cache(world, "kotlin-receiver-owners", dict)
    owners = cache.get(ctx.frow.id)
    if owners is None:
        owners = cache[ctx.frow.id] = frozenset(b.owner for b in ctx.pf.bindings if b.name == RECEIVER)
    i: int | None = scope
    while i is not None:
        if i in owners:
            return True
        i = ctx.pf.symbols[i].parent
    return bool(file_level) and any(imp.name == "*" and imp.module in file_level for imp in ctx.pf.imports)


def _shared_receivers(world) -> tuple[bool, frozenset[str]]:
    """(whether a class of a Kotlin file binds a receiver in its own scope, the packages of the files that
    bind one at their top level)."""
    by_class, packages_of = False, set[str]()
    for f in sorted(world.files.values(), key=lambda f: f.id):
        c = world.ctx(f.id) if f.language == "kotlin" else None
        if c is None:
            continue
        for b in c.pf.bindings:
            if b.name != RECEIVER:
                continue
            kind = c.pf.symbols[b.owner].kind
            if kind == "module":
                packages_of.update(file_packages(world).get(f.module_id, ("",)))
            elif kind not in ("function", "method"):
                by_class = True
    return by_class, frozenset(packages_of)


def _receiver_types(world, ctx, call, parts: list[str]) -> set[str]:
    got = world.resolve_path(ctx, call.caller, ".".join(parts[:-1]), call.line)
    if got is None:
        return set()
    tag, what = got[0]
    if tag in ("extinst", "ext", "extattr"):
        return {str(what).rsplit(".", 1)[-1], "Any", "?outside"}
    if tag == "inst" and isinstance(what, int):
        out = {"Any"}
        for v in world.mro(what):
            out.add(world.syms[v[1]].name if v[0] == "sym" else str(v[1]).rsplit(".", 1)[-1])
            if v[0] == "sym" and world.syms[v[1]].kind == "type_alias":  # typealias X = Y: Y's extensions too
                _c, sym = record_of(world, v[1])
                if sym is not None and sym.return_type:
                    out.add(sym.return_type.rsplit(".", 1)[-1])
        return out
    return set()


def _repo_type(world, name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return bool(last) and any(world.syms[k].kind in _TYPES for k in world.by_name.get(last, ()))


def _outside_value(names: set[str]) -> bool:
    return "?outside" in names


def _this_type(world, sid: int) -> str:
    _c, sym = record_of(world, sid)
    return sym.params[0][1] if sym is not None and sym.params and sym.params[0][0] == "this" else ""


def _this_types(world, exts: list[int]) -> dict[int, tuple[str, bool]]:
    """Extension function id -> (its receiver type, whether that is a repository type), for (at least)
    ``exts``: one table per world, filled as call sites ask (the symbols do not change while calls resolve)."""
    table = world_cache(world, "kotlin-this-types", dict)
    for e in exts:
        if e not in table:
            this = _this_type(world, e)
            table[e] = (this, _repo_type(world, this))
    return table


def _private_constructors(world) -> frozenset[int]:
    """The ids of the classes whose constructor is private (:func:`_companion_invoke` applies to them only)."""
    def build() -> frozenset[int]:
        marked = marked_symbols(world, "kotlin", "private_constructor", ("class",))
        return frozenset(k for ids in marked.values() for k in ids)

    return world_cache(world, "kotlin-private-constructors", build)


def _visible(world, ctx, sid: int) -> bool:
    s = world.syms[sid]
    f = world.files.get(s.file_id)
    if f is None:
        return False
    theirs = set(file_packages(world).get(f.module_id, ("",)))
    if theirs & set(file_packages(world).get(ctx.frow.module_id, ("",))):
        return True
    return any((imp.name == "*" and imp.module in theirs) or (imp.name == s.name and imp.module in theirs)
               for imp in ctx.pf.imports)


def _visible_extensions(world, ctx, name: str) -> list[int]:
    """The extension functions called ``name`` that file ``ctx`` sees, once per (file, name)."""
    cache = world_cache(world, "kotlin-visible-extensions", dict)
    key = (ctx.frow.id, name)
    got = cache.get(key)
    if got is None:  # asked at most call sites with a receiver: the extension table only on a miss
        got = cache[key] = [e for e in _extensions(world).get(name, ()) if _visible(world, ctx, e)]
    return got


def _extensions(world) -> dict[str, list[int]]:
    """Function name -> the extension functions of that name (``fun T.m()``) of the Kotlin files."""
    return marked_symbols(world, "kotlin", "extension")


def _packages(world):
    """(package -> module ids, module id -> its packages, package -> name -> [(module id, symbol id)])."""
    return declared_spaces(world, "kotlin")


def packages(world) -> dict[str, list[int]]:
    return _packages(world)[0]


def file_packages(world) -> dict[int, tuple[str, ...]]:
    return _packages(world)[1]


def package_members(world) -> dict[str, dict[str, list[tuple[int, int]]]]:
    return _packages(world)[2]


def _by_arity(world, target, n: int):
    """A function of several overloads (same name, same parent) replaced by the one taking ``n`` arguments
    (parameters with a default may be left out; a trailing lambda counts as one), when exactly one does."""
    tid, res, conf = target
    s = world.syms.get(tid) if tid is not None else None
    if s is None or s.kind not in ("function", "method") or s.parent_id is None:
        return target
    cache = world_cache(world, "kotlin-by-arity", dict)  # symbols are fixed while calls resolve
    key = (tid, n)
    one = cache.get(key, _UNSEEN)
    if one is _UNSEEN:
        same = world.children.get(s.parent_id, {}).get(s.name, ())
        fit = [k for k in same if _takes(world, k, n)] if len(same) >= 2 else []
        one = cache[key] = fit[0] if len(fit) == 1 else None
    return (one, res, conf) if one is not None else target


def _takes(world, sid: int, n: int) -> bool:
    _c, sym = record_of(world, sid)
    if sym is None:
        return True
    params = [p for p in sym.params if p[0] != "this"]
    head = sym.signature.find("(", sym.signature.find(sym.name))
    inner = sym.signature[head + 1: sym.signature.rfind(")")] if head >= 0 else ""
    depth, optional, vararg = 0, 0, "vararg " in inner
    for ch in inner:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            optional += 1
    return len(params) - optional <= n <= (1 << 20 if vararg else len(params))
