"""C#'s resolution rules: a namespace is made of the files that declare types in it, wherever they sit;
``using N;`` makes its types visible, the file's own namespace and the namespaces around it are visible
without one, and so are the members a class inherits. A ``partial`` type's members are found in every
file that declares a part of it.
"""

from __future__ import annotations

from collections import defaultdict

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, inherited_member, world_cache

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
    })
    builtin_prefix = "System"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True)
        if not imp.name:
            return None
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name)

    def _module_value(self, world, ctx, module: str):
        spaces = namespaces(world)
        ids = spaces.get(module)
        if ids:
            return ("pkg", tuple(ids))
        head, _, last = module.rpartition(".")  # using static N.S.C: the class N.S.C
        for mid in spaces.get(head, ()):
            kids = world.children.get(mid, {}).get(last)
            if kids:
                return ("sym", kids[-1])
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name)
        if got is not None:
            return got
        spaces = namespaces(world)
        own = ctx.frow.module_id
        for ns in visible_namespaces(world, own):  # the file's namespace, then the ones around it
            for mid in spaces.get(ns, ()):
                if mid == own:
                    continue
                kids = world.children.get(mid, {}).get(name)
                if kids and world.syms[kids[-1]].kind in _TYPES:
                    return ("sym", kids[-1]), "module_global"
        return None

    def detached_member(self, world, type_id: int, name: str):
        """A member of a ``partial`` type declared in another file: the part of the same qualified name."""
        t = world.syms[type_id]
        for other in world.by_qname.get(t.qualified_name, ()):
            if other == type_id or world.syms[other].kind not in _TYPES:
                continue
            kids = world.children.get(other, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess reaches only files of a namespace the caller sees: its own, the ones around
        it, and those of its ``using`` directives (a name-only guess never crosses into a file the caller
        cannot see)."""
        seen = set(visible_namespaces(world, ctx.frow.module_id))
        seen.update(imp.module for imp in ctx.pf.imports)
        seen.update(f"{imp.module}.{imp.name}" for imp in ctx.pf.imports if imp.name and imp.name != "*")
        mods = file_namespaces(world)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and (f.module_id == ctx.frow.module_id or mods.get(f.module_id, set()) & seen):
                out.append(s)
        return out


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


def namespaces(world) -> dict[str, list[int]]:
    return _file_spaces(world)[0]


def file_namespaces(world) -> dict[int, set[str]]:
    return _file_spaces(world)[1]


def visible_namespaces(world, module_id: int) -> list[str]:
    """The namespaces a file sees without ``using``: each of its own, then every one around it (``A.B``, ``A``)."""
    out: list[str] = []
    for ns in sorted(file_namespaces(world).get(module_id, ())):
        parts = ns.split(".") if ns else []
        for k in range(len(parts), -1, -1):
            name = ".".join(parts[:k])
            if name not in out:
                out.append(name)
    return out
