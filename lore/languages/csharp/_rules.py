"""C#'s resolution rules: a namespace is made of the files that declare types in it, wherever they sit;
``using N;`` makes its types visible, the file's own namespace and the namespaces around it are visible
without one, and so are the members a class inherits. A ``partial`` type's members are found in every
file that declares a part of it.
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
    split_top_level,
    world_cache,
)
from ._overloads import by_types

_TYPES = ("class", "struct", "interface", "enum", "type_alias")


class CSharpRules(CachedRules):
    language = "csharp"
    imports_reexported = False
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)
    uppercase_calls_construct = False  # only ``new T()`` constructs
    detached_methods = True  # partial types
    builtin_functions = frozenset({  # System's types every file names without thinking of a using
        "Console", "Math", "String", "Object", "Convert", "Array", "Enum", "Guid", "DateTime", "DateTimeOffset",
        "TimeSpan", "Nullable", "Activator", "GC", "Environment", "Type", "Task", "ValueTask", "Exception",
        "ArgumentException", "ArgumentNullException", "ArgumentOutOfRangeException", "InvalidOperationException",
        "NotSupportedException", "NotImplementedException", "Int32", "Int64", "Double", "Boolean", "Char",
        "Decimal", "Tuple", "ValueTuple", "Buffer", "BitConverter", "Span", "Memory", "ReadOnlySpan",
        "StringComparer", "EqualityComparer", "Comparer", "List", "Dictionary", "HashSet", "Enumerable",
        "Interlocked", "Volatile", "Monitor", "Thread", "Debug", "Trace", "Uri", "Attribute", "Delegate",
        "SByte", "Byte", "Single", "UInt32", "Int16", "UInt16", "UInt64", "IntPtr", "UIntPtr",
    })
    builtin_method_names = frozenset({
        "<init>",
        "ToString", "Equals", "GetHashCode", "GetType", "Add", "Remove", "Contains", "ContainsKey", "TryGetValue",
        "Clear", "Count", "Any", "All", "Where", "Select", "SelectMany", "First", "FirstOrDefault", "Single",
        "SingleOrDefault", "Last", "LastOrDefault", "ToList", "ToArray", "ToDictionary", "OrderBy",
        "OrderByDescending", "ThenBy", "GroupBy", "Concat", "Skip", "Take", "Sum", "Max", "Min", "Distinct",
        "Cast", "OfType", "Aggregate", "Zip", "Reverse", "AddRange", "Insert", "IndexOf", "Substring", "Split",
        "Trim", "StartsWith", "EndsWith", "Replace", "Format", "Join", "Append", "AppendLine", "Dispose",
        "DisposeAsync", "ConfigureAwait", "GetAwaiter", "GetResult", "Invoke", "BeginInvoke", "MoveNext",
        "GetEnumerator", "CompareTo", "CopyTo", "ToUpper", "ToLower", "ToUpperInvariant", "ToLowerInvariant",
        "Wait", "Result", "ContinueWith", "SetResult", "SetException", "Write", "WriteLine", "Read", "ReadLine",
        "Flush", "Close", "Push", "Pop", "Peek", "Enqueue", "Dequeue", "AsEnumerable", "AsQueryable",
        "IsNullOrEmpty", "IsNullOrWhiteSpace", "GetValue", "SetValue", "HasValue", "GetValueOrDefault",
        # System.Type and System.Reflection, what ``x.GetType().M()`` calls
        "GetProperties", "GetProperty", "GetMethods", "GetMethod", "GetFields", "GetField", "GetConstructor",
        "GetConstructors", "GetCustomAttributes", "GetCustomAttribute", "GetInterfaces", "GetGenericArguments",
        "GetGenericTypeDefinition", "MakeGenericType", "MakeGenericMethod", "IsAssignableFrom", "GetParameters",
        "GetGetMethod", "GetSetMethod", "GetElementType", "IsDefined",
    })
    builtin_prefix = "System"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        spaces = namespaces(world)
        module = qualify_using(world, ctx, module)
        ids = spaces.get(module)
        if ids:
            return ("pkg", tuple(ids))
        head, _, last = module.rpartition(".")  # using static N.S.C: the class N.S.C
        for mid in spaces.get(head, ()):
            kids = world.children.get(mid, {}).get(last)
            if kids:
                return ("sym", kids[-1])
        return None

    overloads = True  # methods of one name told apart by their number of arguments; extension methods

    def choose_overload(self, world, ctx, call, targets):
        parts = call.callee.split(".")
        if call.kind != "call" or len(parts) < 2 or parts[0] in ("this", "super()"):
            return [_by_arity(world, ctx, call, t) for t in targets] if call.kind in ("call", "new") else targets
        for t in targets:
            if t[0] is not None and t[1] not in _WEAK:
                return [_by_arity(world, ctx, call, t) for t in targets]
        exts = visible_extensions(world, ctx, parts[-1])
        if not exts:
            return targets
        names = self._receiver_types(world, ctx, call, parts)
        if names:
            this = _this_types(world, exts)
            typed = [e for e in exts if this[e].rsplit(".", 1)[-1] in names]
        else:
            typed = []
        if typed:
            chosen, res = typed, "annotated_type"
        elif names:  # the receiver's type is known: only an extension on any type (``this T x``) takes it
            chosen, res = [e for e in exts if not this[e]], "unique_name"
            if not chosen:
                return targets
        else:
            guessed = {t[0] for t in targets if t[1] in _GUESS}
            if len(exts) > 1 and not guessed & set(exts):
                return targets
            chosen, res = exts, "unique_name"
        fit = [e for e in chosen if _arity_fits(world, e, len(call.args) + 1)] or chosen
        fit = by_types(world, ctx, call, fit, skip=1) or fit
        if len({world.syms[e].parent_id for e in fit}) > 1 and res != "annotated_type":
            return targets  # same-named extensions of several classes: the receiver's type would tell
        k = len(fit)
        return [(e, res, CONFIDENCE[res] / k) for e in sorted(fit)]

    def _receiver_types(self, world, ctx, call, parts: list[str]) -> set[str]:
        """The names of the receiver's type and of every type it derives from (``{"User", "IUser"}``), or
        an empty set when the receiver's type is unknown (or only known to be generic: an extension
        on ``T`` takes it)."""
        got = world.resolve_path(ctx, call.caller, ".".join(parts[:-1]), call.line)
        if got is None:
            return set()
        tag, what = got[0]
        if tag in ("extinst", "ext", "extattr"):
            return {str(what).rsplit(".", 1)[-1]}
        if tag == "inst" and isinstance(what, int):
            out = set()
            for v in world.mro(what):
                if v[0] == "sym":
                    out.add(world.syms[v[1]].name)
                elif v[0] in ("ext", "extinst"):
                    out.add(str(v[1]).rsplit(".", 1)[-1])
            return out
        return set()

    def package_member(self, world, ctx, scope: int, name: str):
        # asked again for every use of a name no scope of the file binds. The answer depends on the scope
        # only through its enclosing class and the types around it: once per (file, those, name)
        by_scope = world_cache(world, "csharp-package-member-scope", dict)
        got = by_scope.get((ctx.frow.id, scope, name), _MISSING)  # a settled answer, asked again from a scope
        if got is not _MISSING:
            return got
        syms = ctx.pf.symbols
        inner: int | None = scope
        while inner is not None and syms[inner].kind not in _TYPES:
            inner = syms[inner].parent
        key = (ctx.frow.id, ctx.enclosing_class(scope), inner, name)
        memo = world_cache(world, "csharp-package-member", dict)
        got = memo.get(key, _MISSING)  # most questions are settled ones: no frame for World.settled
        if got is _MISSING:
            got = world.settled(memo, key, lambda: self._package_member(world, ctx, scope, name))
            if key not in memo:
                return got  # not settled (a cycle, a use line, a flow round): asked again next time
        by_scope[(ctx.frow.id, scope, name)] = got
        return got

    def _package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name, own=True)
        if got is not None:
            return got
        local: int | None = scope
        parted = _partial_types(world)
        while local is not None:  # a nested type or member of an enclosing partial type's other parts
            sym = ctx.pf.symbols[local]
            if sym.kind in _TYPES and ctx.ids[local] in parted:
                got = self.detached_member(world, ctx.ids[local], name)
                if got is not None:
                    return got
            local = sym.parent
        return self._namespace_member(world, ctx, name)

    def _namespace_member(self, world, ctx, name: str):
        """``name`` as a type (or a namespace) of the namespaces the file sees, or an outside type: it depends
        only on the file and the name (symbols and files are fixed while calls resolve), so it is worked
        out once per pair."""
        cache = world_cache(world, "csharp-namespace-member", dict)
        key = (ctx.frow.id, name)
        try:
            return cache[key]
        except KeyError:
            got = cache[key] = self._namespace_member_of(world, ctx, name)
            return got

    def _namespace_member_of(self, world, ctx, name: str):
        spaces = namespaces(world)
        own = ctx.frow.module_id
        types = namespace_types(world)
        for ns in visible_namespaces(world, own):  # the file's namespace, then the ones around it
            for mid, sid in types.get(ns, {}).get(name, ()):
                if mid != own:
                    return ("sym", sid), "module_global"
        for ns in visible_namespaces(world, own):  # a namespace named relative to the file's (``Sub.Type``)
            full = f"{ns}.{name}" if ns else name
            if full in spaces:
                return ("pkg", tuple(spaces[full])), "module_global"
        if name[:1].isupper() and name not in self.builtin_functions and _uses_outside(world, ctx):
            # no type of the repository's visible namespaces has the name: as for the compiler, it comes from
            # a referenced assembly (``using System.Reflection.Emit;`` gives ILGenerator), never a guess
            return ("ext", name), "external"
        return None

    def detached_member(self, world, type_id: int, name: str):
        """A member of a ``partial`` type declared in another file: the part of the same qualified name."""
        if type_id not in _partial_types(world) and world.syms[type_id].file_id is not None:
            return None  # one part only (most types): no other part has members
        # a part of a partial type (Dapper's SqlMapper has 20): asked on every member lookup that misses in
        # its own part, once per (type, name) when settled
        return world.settled(world_cache(world, "csharp-detached", dict), (type_id, name),
                             lambda: self._detached_member(world, type_id, name))

    def _detached_member(self, world, type_id: int, name: str):
        t = world.syms[type_id]
        for other in world.by_qname.get(t.qualified_name, ()):
            if other == type_id or world.syms[other].kind not in _TYPES:
                continue
            kids = world.children.get(other, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        for other in world.by_qname.get(t.qualified_name, ()):
            if other != type_id and world.syms[other].kind in _TYPES:
                attr = world.attr_type(other, name)  # a field or property declared in the other part
                if attr is not None:
                    return attr
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess reaches only files of a namespace the caller sees: its own, the ones around
        it, and those of its ``using`` directives (a name-only guess never crosses into a file the caller
        cannot see)."""
        cache = world_cache(world, "csharp-guess-namespaces", dict)
        seen = cache.get(ctx.frow.id)
        if seen is None:  # the namespaces the file sees: once per file
            seen = set(visible_namespaces(world, ctx.frow.module_id))
            seen.update(qualify_using(world, ctx, imp.module) for imp in ctx.pf.imports)
            seen.update(qualify_using(world, ctx, f"{imp.module}.{imp.name}") for imp in ctx.pf.imports
                        if imp.name and imp.name != "*")
            cache[ctx.frow.id] = seen
        mods = file_namespaces(world)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and (f.module_id == ctx.frow.module_id or mods.get(f.module_id, set()) & seen):
                out.append(s)
        return out


def _partial_types(world) -> frozenset[int]:
    """The ids of the types that share their qualified name with another type (the parts of a ``partial``
    type, wherever declared): only they have members :meth:`CSharpRules.detached_member` can find."""

    def build() -> frozenset[int]:
        out: set[int] = set()
        for ids in world.by_qname.values():
            types = [k for k in ids if world.syms[k].kind in _TYPES]
            if len(types) > 1:
                out.update(types)
        return frozenset(out)

    try:  # asked on every member lookup of a C# type: no frame for world_cache once built
        return world.__dict__["_lang_cache"]["csharp-partial-types"]
    except KeyError:
        return world_cache(world, "csharp-partial-types", build)


def _file_spaces(world) -> tuple[dict[str, list[int]], dict[int, set[str]]]:
    """namespace -> module ids of the C# files declaring a top-level type in it, and the reverse."""

    def build():
        by_ns: dict[str, list[int]] = defaultdict(list)
        by_mod: dict[int, set[str]] = defaultdict(set)
        mods = {f.module_id: f for f in world.files.values() if f.language == "csharp"}
        for mid in sorted(mods):
            modq = world.syms[mid].qualified_name
            for kids in world.children.get(mid, {}).values():
                for k in kids:
                    s = world.syms[k]
                    if s.kind not in _TYPES:
                        continue
                    ns = s.qualified_name[: -len(s.name) - 1] if s.qualified_name != f"{modq}.{s.name}" else ""
                    if ns not in by_mod[mid]:
                        by_mod[mid].add(ns)
                        by_ns[ns].append(mid)
        return dict(by_ns), dict(by_mod)

    return world_cache(world, "csharp-namespaces", build)


def namespace_types(world) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """namespace -> type name -> [(module id, type id)] of the top-level types declared in it."""

    def build():
        out: dict[str, dict[str, list[tuple[int, int]]]] = {}
        for ns, mids in namespaces(world).items():
            table: dict[str, list[tuple[int, int]]] = defaultdict(list)
            prefix = f"{ns}." if ns else ""
            for mid in mids:
                for name, kids in world.children.get(mid, {}).items():
                    sid = kids[-1]
                    s = world.syms[sid]
                    if s.kind in _TYPES and (s.qualified_name == prefix + name or not ns):
                        table[name].append((mid, sid))
            out[ns] = dict(table)
        return out

    return world_cache(world, "csharp-namespace-types", build)


def namespaces(world) -> dict[str, list[int]]:
    try:
        return world.__dict__["_lang_cache"]["csharp-namespaces"][0]
    except KeyError:
        return _file_spaces(world)[0]


def file_namespaces(world) -> dict[int, set[str]]:
    try:
        return world.__dict__["_lang_cache"]["csharp-namespaces"][1]
    except KeyError:
        return _file_spaces(world)[1]


def visible_namespaces(world, module_id: int) -> list[str]:
    """The namespaces a file sees without ``using``: each of its own, then every one around it (``A.B``, ``A``)."""
    cache = world_cache(world, "csharp-visible", dict)
    got = cache.get(module_id)
    if got is None:
        got = cache[module_id] = _visible(world, module_id)
    return got


def _visible(world, module_id: int) -> list[str]:
    out: list[str] = []
    for ns in sorted(file_namespaces(world).get(module_id, ())):
        parts = ns.split(".") if ns else []
        for k in range(len(parts), -1, -1):
            name = ".".join(parts[:k])
            if name not in out:
                out.append(name)
    return out


_MISSING = object()
_WEAK = frozenset({"external", "builtin", "unresolved", "same_file_name", "unique_name", "ambiguous_name"})
_GUESS = frozenset({"same_file_name", "unique_name", "ambiguous_name"})


def _uses_outside(world, ctx) -> bool:
    """Whether the file has a ``using`` of a namespace the repository does not declare (``System``)."""
    cache = world_cache(world, "csharp-uses-outside", dict)
    got = cache.get(ctx.frow.id)
    if got is None:
        spaces = namespaces(world)
        got = cache[ctx.frow.id] = any(imp.name == "*" and qualify_using(world, ctx, imp.module) not in spaces
                                       for imp in ctx.pf.imports)
    return got


def qualify_using(world, ctx, name: str) -> str:
    """The namespace a ``using`` names: inside ``namespace A.B``, ``using C;`` is ``A.B.C`` or ``A.C`` when the
    repository declares one (as the compiler looks it up, innermost first), else ``C`` as written."""
    cache = world_cache(world, "csharp-qualified", dict)
    key = (ctx.frow.module_id, name)
    got = cache.get(key)
    if got is None:
        got = cache[key] = _qualify(world, ctx, name)
    return got


def _qualify(world, ctx, name: str) -> str:
    spaces = namespaces(world)
    if name in spaces:
        return name
    for ns in visible_namespaces(world, ctx.frow.module_id):
        if ns and f"{ns}.{name}" in spaces:
            return f"{ns}.{name}"
    head, _, last = name.rpartition(".")  # using static A.C / using X = A.C: a type in a relative namespace
    if head and head not in spaces:
        for ns in visible_namespaces(world, ctx.frow.module_id):
            if ns and f"{ns}.{head}" in spaces:
                return f"{ns}.{head}.{last}"
    return name


def _extensions(world) -> dict[str, list[int]]:
    """Method name -> the extension methods of that name (``static M(this T x, ...)``) of the C# files."""
    return marked_symbols(world, "csharp", "extension", ("method",))


def visible_extensions(world, ctx, name: str) -> list[int]:
    """The extension methods called ``name`` in the namespaces file ``ctx`` sees (its own, around it, used)."""
    cache = world_cache(world, "csharp-visible-extensions", dict)
    key = (ctx.frow.id, name)
    got = cache.get(key)
    if got is None:  # asked at most call sites with a receiver: the extension table only on a miss
        cands = _extensions(world).get(name)
        got = cache[key] = _visible_extensions(world, ctx, cands) if cands else []
    return got


def _visible_extensions(world, ctx, cands: list[int]) -> list[int]:
    seen = set(visible_namespaces(world, ctx.frow.module_id))
    seen.update(qualify_using(world, ctx, imp.module) for imp in ctx.pf.imports if imp.name == "*")
    mods = file_namespaces(world)
    test_caller = world.is_test_file(ctx.frow.id)
    out = []
    for e in cands:
        f = world.files.get(world.syms[e].file_id)
        if f is None or not (mods.get(f.module_id, set()) & seen):
            continue
        if not test_caller and world.is_test_file(f.id):
            continue
        out.append(e)
    return out


def _this_type(world, sid: int) -> str:
    _c, sym = record_of(world, sid)
    return sym.params[0][1] if sym is not None and sym.params else ""


def _this_types(world, exts: list[int]) -> dict[int, str]:
    """Extension method id -> the type its ``this`` parameter names, for (at least) ``exts``: one table per
    world, filled as call sites ask (the symbols do not change while calls resolve)."""
    table = world_cache(world, "csharp-this-types", dict)
    for e in exts:
        if e not in table:
            table[e] = _this_type(world, e)
    return table


def _arity_range(world, sid: int) -> tuple[int, int]:
    """(fewest, most) arguments method ``sid`` takes: parameters with a default may be left out, a
    ``params`` array takes any number."""
    cache = world_cache(world, "csharp-arity", dict)
    got = cache.get(sid)
    if got is None:
        got = cache[sid] = _arity_of(world, sid)
    return got


def _arity_of(world, sid: int) -> tuple[int, int]:
    _c, sym = record_of(world, sid)
    if sym is None:
        return 0, 1 << 20
    n = len(sym.params)
    sig = sym.signature
    head = sig.find("(")
    inner = sig[head + 1: sig.rfind(")")] if head >= 0 else ""
    pieces = split_top_level(inner, "<([{", ">)]}")
    optional = sum(1 for p in pieces if "=" in p.replace("=>", ""))
    most = 1 << 20 if any(p.strip().startswith("params ") for p in pieces) else n
    return n - optional, most


def _arity_fits(world, sid: int, n: int) -> bool:
    lo, hi = _arity_range(world, sid)
    return lo <= n <= hi


def _by_arity(world, ctx, call, target):
    """A method target replaced by the overload of its class the call's arguments choose (their number,
    then their types where the syntax or the resolver shows them), or, when no member of the type takes
    that many, the one of a base the lookup goes on to (an outside base: the library's)."""
    tid, res, conf = target
    if tid is None:
        return target
    s = world.syms.get(tid)
    if s is None or s.kind != "method" or s.parent_id is None:
        return target
    n = len(call.args)
    fit = list(_fit_by_arity(world, tid, s.name, s.parent_id, n))
    if fit:
        if len(fit) > 1:
            fit = by_types(world, ctx, call, fit) or fit
        return target if tid in fit and len(fit) > 1 else (fit[-1], res, conf)
    parent = world.syms.get(s.parent_id)
    if parent is None or parent.kind not in _TYPES:
        return target
    for v in world.mro(s.parent_id)[1:]:  # no member of the type takes n arguments: lookup goes on to its bases
        if v[0] == "sym":
            fit = [k for k in world.children.get(v[1], {}).get(s.name, ()) if _arity_fits(world, k, n)]
            if fit:
                return (fit[-1], res, conf)
        elif v[0] in ("ext", "extinst"):  # TextWriter.WriteLineAsync(): the library's, not the override's
            return (world.external(f"{v[1]}.{s.name}"), "external", CONFIDENCE["external"])
    return target


def _fit_by_arity(world, tid: int, name: str, parent_id: int, n: int) -> tuple[int, ...]:
    """The methods of ``tid``'s name in its type (``tid`` alone when it has none) taking ``n`` arguments,
    once per (method, number): the symbols do not change while calls resolve."""
    cache = world_cache(world, "csharp-fit-by-arity", dict)
    key = (tid, n)
    got = cache.get(key)
    if got is None:
        same = list(world.children.get(parent_id, {}).get(name, ())) or [tid]
        got = cache[key] = tuple(k for k in same if _arity_fits(world, k, n))
    return got
