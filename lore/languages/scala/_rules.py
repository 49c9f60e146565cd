"""Scala's resolution rules: a package is made of the files that declare it (``package a.b``); ``import
a.b.C`` binds ``C``, ``import a.b._`` all of ``a.b`` (or of object ``a.b``); an import path may start from
the file's package (``import parsing.X`` in ``package scala.xml``); the file's own package is visible
without import, and so are the members a class inherits. ``C(..)`` calls the ``apply`` of ``C``'s
companion object when it has one, else constructs ``C`` (a case class); ``x(..)`` on a value of a
repository type calls its ``apply``; ``new C(..)`` and ``this(..)`` pick the auxiliary constructor
(``def this``) their arguments fit, else the primary one (the class). A capitalised name no package of the
repository declares comes from Scala or a library: external, never a guess.
"""

from __future__ import annotations

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import (
    CachedRules,
    ImportBinding,
    declared_spaces,
    inherited_member,
    named_import,
    record_of,
    split_top_level,
    world_cache,
)
from ._parser import OUTER_PACKAGE

_TYPES = ("class", "trait", "enum")
_ROOTS = frozenset({"scala", "java", "javax", "sun", "jdk", "_root_"})
_NUMBERS = frozenset({"Int", "Long", "Short", "Byte", "Double", "Float", "BigInt", "BigDecimal"})
_OUTSIDE = frozenset({"external", "builtin", "unresolved"})
_GUESSES = frozenset({"same_file_name", "unique_name", "ambiguous_name"})
_WEAK = frozenset({"external", "builtin", "unresolved", "same_file_name", "unique_name", "ambiguous_name"})


class ScalaRules(CachedRules):
    language = "scala"
    imports_reexported = False
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    uppercase_calls_construct = True  # Foo(..): a case class or a companion's apply
    builtin_functions = frozenset({  # scala.*, scala.Predef.*, scala.collection.*: in scope without import
        "println", "print", "printf", "require", "assert", "assume", "identity", "implicitly", "locally", "???",
        "Some", "None", "Option", "Left", "Right", "Either", "List", "Nil", "Seq", "IndexedSeq", "Vector", "Map",
        "Set", "Array", "Iterator", "Iterable", "LazyList", "Stream", "Range", "Tuple2", "StringBuilder",
        "BigInt", "BigDecimal", "Try", "Success", "Failure", "Future", "classOf", "sys", "Console", "Ordering",
        "String", "Int", "Long", "Double", "Boolean", "Char", "Unit", "Any", "AnyRef", "Nothing", "Exception",
        "IllegalArgumentException", "IllegalStateException", "RuntimeException", "NoSuchElementException",
        "UnsupportedOperationException", "Throwable", "Error", "ListBuffer", "ArrayBuffer", "ListMap",
        "HashMap", "HashSet", "TreeMap", "Math", "math", "StringContext", "PartialFunction", "Function",
    })
    builtin_method_names = frozenset({
        "<init>", "map", "flatMap", "filter", "filterNot", "foreach", "foldLeft", "foldRight", "fold", "reduce",
        "head", "headOption", "tail", "last", "lastOption", "init", "isEmpty", "nonEmpty", "size", "length", "get",
        "getOrElse", "orElse", "contains", "exists", "forall", "find", "collect", "collectFirst", "zip",
        "zipWithIndex", "take", "drop", "takeWhile", "dropWhile", "mkString", "toList", "toSeq", "toVector",
        "toSet", "toMap", "toArray", "toString", "equals", "hashCode", "append", "prepend", "++", "+=", "-=",
        "update", "updated", "sortBy", "sortWith", "sorted", "groupBy", "distinct", "reverse", "iterator",
        "startsWith", "endsWith", "split", "trim", "substring", "replace", "toLowerCase", "toUpperCase", "format",
        "stripPrefix", "stripSuffix", "charAt", "indexOf", "lastIndexOf", "clear", "insert", "remove",
        "addOne", "subtractOne", "result", "isDefined", "count", "sum", "max", "min", "maxBy", "minBy",
        "asInstanceOf", "isInstanceOf", "close", "flush", "write", "read", "println", "print", "getMessage",
        "copy", "apply", "unapply", "andThen", "compose", "slice", "padTo", "indices", "keys", "values",
        "keySet", "getClass", "capitalize", "toInt", "toLong", "toDouble", "toChar", "toByte", "next", "hasNext",
    })
    builtin_prefix = "scala"
    overloads = True  # overloads are chosen by their arguments, C(..) by the companion's apply

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        if imp.alias == OUTER_PACKAGE:
            return None  # package_member looks into the outer packages, through the index of what they declare
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        got = _path_value(world, module)
        if got is not None:
            return got
        # a path relative to the file's package or an enclosing one (Scala imports are)
        for pkg in file_packages(world).get(ctx.frow.module_id, ("",)):
            parts = pkg.split(".") if pkg else []
            while parts:
                got = _path_value(world, ".".join([*parts, module]))
                if got is not None:
                    return got
                parts.pop()
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        # Some, List, println, a library's class: no class or package of the repository has a member of that
        # name (values a class inherits, its parameters and vals, are no symbols: lowercase names are looked up)
        if name in world.by_name or not (name in self.builtin_functions or name[:1].isupper()):
            got = self._member_in_sight(world, ctx, scope, name)
            if got is not None:
                return got
        # a package named from the root (``mainargs.main``) or from a package in sight (``parsing.X`` in
        # ``package scala.xml`` opened by ``package scala; package xml``)
        spaces = packages(world)
        for head in _sight(world, ctx)[1]:
            got = spaces.get(f"{head}.{name}" if head else name)
            if got:
                return ("pkg", tuple(got)), "import"
        if name in _ROOTS:
            return ("ext", name), "external"
        if name[:1].isupper() and name not in self.builtin_functions:
            return ("ext", name), "external"  # Scala's, Java's or a library's
        return None

    def _member_in_sight(self, world, ctx, scope: int, name: str):
        """``name`` as a member the scope's class inherits or a member of a package in sight."""
        got = inherited_member(world, ctx, scope, name)
        if got is not None:
            return got
        i: int | None = scope  # a class or object body is constructor code: what the type inherits is in sight
        while i is not None and ctx.pf.symbols[i].kind not in _TYPES:
            i = ctx.pf.symbols[i].parent
        if i is not None:
            got = world.class_member(ctx.ids[i], name, skip_self=True)
            if got is not None and got[0][0] in ("sym", "inst", "extinst"):
                return got[0], "self_method"
        own = ctx.frow.module_id
        members = package_members(world)
        for pkg in _sight(world, ctx)[0]:
            for mid, sid in members.get(pkg, {}).get(name, ()):
                if mid != own:
                    return ("sym", sid), "module_global"
        return None

    def choose_overload(self, world, ctx, call, targets):
        if all(t[1] in _OUTSIDE for t in targets):
            if ("." in call.callee and not call.callee.startswith("this.")) or any(t[1] != "unresolved" for t in targets):
                return targets  # a library's function or member: nothing to choose
            applied = _value_apply(world, ctx, call, targets)
            return applied if applied is not None else targets
        if any(t[1] in _GUESSES for t in targets) and (_a_parameter(ctx, call) or _made_value(ctx, call)):
            # f(x) with f a parameter of the caller (a function value); x.m() with x made by ``new T`` or
            # declared ``x: T``, a T lore could not follow (a library's): nothing to guess
            return [(None, "unresolved", 0.0)]
        applied = _value_apply(world, ctx, call, targets)
        if applied is not None:
            return applied
        return [_pick(world, ctx, call, t) for t in targets]

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess reaches the files of the caller's package and the packages it imports; never a
        def local to another def (nor a method of an anonymous class inside one), never a name the caller's
        parameters or imports bind (``f(x)`` with ``f`` a function parameter, ``apache.ZipFile`` imported
        from a package lore does not have)."""
        head = parts[0]
        if head in {imp.alias or imp.name for imp in ctx.pf.imports}:
            return []
        cands = [s for s in cands if world.syms.get(world.syms[s].parent_id) is None
                 or world.syms[world.syms[s].parent_id].kind not in ("function", "method")]
        seen = set(file_packages(world).get(ctx.frow.module_id, ("",)))
        seen.update(imp.module for imp in ctx.pf.imports)
        pk = file_packages(world)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and set(pk.get(f.module_id, ("",))) & seen:
                out.append(s)
        return out


def _a_parameter(ctx, call) -> bool:
    """Whether the head of the callee is a parameter of the caller or of a def around it."""
    head = call.callee.split(".", 1)[0]
    i: int | None = call.caller
    while i is not None:
        sym = ctx.pf.symbols[i]
        if any(p[0] == head for p in sym.params):
            return True
        i = sym.parent
    return False


def _made_value(ctx, call) -> bool:
    """Whether the receiver of ``x.m()`` is a local or member bound to a declared type or a construction."""
    head, dot, _rest = call.callee.partition(".")
    if not dot or head in ("this", "super()"):
        return False
    scopes = set()
    i: int | None = call.caller
    while i is not None:
        scopes.add(i)
        i = ctx.pf.symbols[i].parent
    for b in ctx.pf.bindings:
        if b.owner in scopes and b.name in (head, f"self.{head}") and \
                (b.annotation or b.value.rsplit(".", 1)[-1][:1].isupper()):
            return True
    return False


def _path_value(world, path: str):
    """``a.b`` a package (``pkg``), or ``a.b.C`` / ``a.b.C.D`` a type or object of one (``sym``)."""
    spaces = packages(world)
    ids = spaces.get(path)
    if ids:
        return ("pkg", tuple(ids))
    parts = path.split(".")
    for cut in range(len(parts) - 1, -1, -1):
        head = ".".join(parts[:cut])
        if head not in spaces:
            continue
        found = [sid for _mid, sid in package_members(world).get(head, {}).get(parts[cut], ())]
        for rest in parts[cut + 1:]:
            found = [k for s in found for k in world.children.get(s, {}).get(rest, ())]
        return ("sym", found[-1]) if found else None
    return None


def _value_apply(world, ctx, call, targets):
    """``x(..)`` where ``x`` is a value of a repository type (a ``val``, a parameter): that type's ``apply``."""
    if call.kind != "call" or any(t[0] is not None and t[1] not in _WEAK for t in targets):
        return None
    parts = call.callee.split(".")
    if parts[-1][:1].isupper():
        return None
    got = world.resolve_path(ctx, call.caller, call.callee, call.line)
    if got is None or got[0][0] != "inst" or not isinstance(got[0][1], int):
        return None
    member = world.class_member(got[0][1], "apply")
    if member is None or member[0][0] != "sym":
        return None
    res = "annotated_type"
    return [_by_args(world, (member[0][1], res, CONFIDENCE[res]), call.args)]


def _pick(world, ctx, call, target):
    """One edge refined: a type called or made goes to its companion's ``apply`` (``C(..)``) or to the
    constructor the arguments fit; a function to the overload the arguments fit."""
    tid = target[0]
    s = world.syms.get(tid) if tid is not None else None
    if s is None:
        return target
    if s.kind in _TYPES:
        if call.kind == "call":
            kids = world.children.get(tid, {}).get("apply", ())
            if kids:
                return _by_args(world, (kids[-1], target[1], target[2]), call.args)
            return target
        # the primary constructor (the class) and the auxiliary ones: by number, then by the arguments' types
        ways = [tid, *world.children.get(tid, {}).get("<init>", ())]
        fit = [k for k in ways if _takes(world, k, call.args)]
        if len(fit) > 1:
            fit = [k for k in fit if _literals_fit(world, k, call.args)] or fit
        return (fit[0], target[1], target[2]) if len(fit) == 1 else target
    if target[1] in ("external", "builtin", "unresolved"):
        return target
    return _by_args(world, target, call.args)


def _by_args(world, target, args: list[str]):
    """A function of several overloads (same name, same parent) replaced by the one its arguments fit: by
    their number (defaults may be left out, a ``T*`` takes any more), then by their literals' types."""
    tid, res, conf = target
    s = world.syms.get(tid) if tid is not None else None
    if s is None or s.kind not in ("function", "method") or s.parent_id is None:
        return target
    same = world.children.get(s.parent_id, {}).get(s.name, ())
    if len(same) < 2:
        return target
    fit = [k for k in same if _takes(world, k, args)]
    if len(fit) > 1:
        typed = [k for k in fit if _literals_fit(world, k, args)]
        fit = typed or fit
    if not fit:  # def f: A => B called with arguments: the function f returns
        fit = [k for k in same if _params_text(world, k) is None]
    return (fit[0], res, conf) if len(fit) == 1 else target


def _sight(world, ctx) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the packages whose members file ``ctx`` sees unqualified: its own, then the outer ones of chained
    clauses; the heads a package path may start from there), once per file."""
    cache = world_cache(world, "scala-sight", dict)
    key = ctx.frow.id
    if key not in cache:
        own = file_packages(world).get(ctx.frow.module_id, ("",))
        outer = tuple(imp.module for imp in ctx.pf.imports if imp.alias == OUTER_PACKAGE)
        stars = tuple(imp.module for imp in ctx.pf.imports if imp.name == "*")
        cache[key] = (tuple(own) + outer, ("",) + stars + tuple(p for p in own if p))
    return cache[key]


def _params_text(world, sid: int) -> str | None:
    """The first parameter list of ``sid`` as written (``None`` for a def without one), once per symbol."""
    cache = world_cache(world, "scala-params", dict)
    if sid not in cache:
        cache[sid] = _first_params(world, sid)
    return cache[sid]


def _first_params(world, sid: int) -> str | None:
    _c, sym = record_of(world, sid)
    if sym is None:
        return None
    sig = sym.signature
    at = sig.find(sym.name) + len(sym.name) if sym.name != "<init>" else sig.find("this") + 4
    depth = 0
    for i in range(at, len(sig)):
        ch = sig[i]
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif depth == 0 and ch == "(":
            end, d = i, 0
            for j in range(i, len(sig)):
                d += sig[j] in "([{"
                d -= sig[j] in ")]}"
                if d == 0:
                    end = j
                    break
            inner = sig[i + 1:end]
            return None if inner.lstrip().startswith(("implicit ", "using ")) else inner
        elif depth == 0 and ch in ":={":
            return None
    return None


def _params(world, sid: int) -> list[str] | None:
    """The parameters of the first list of ``sid`` as written, once per symbol."""
    cache = world_cache(world, "scala-param-list", dict)
    if sid not in cache:
        inner = _params_text(world, sid)
        cache[sid] = None if inner is None else [p.strip() for p in split_top_level(inner)]
    return cache[sid]


def _takes(world, sid: int, args: list[str]) -> bool:
    params = _params(world, sid)
    if params is None:
        return not args and world.syms[sid].kind not in _TYPES
    n = len(args)
    optional = sum(1 for p in params if "=" in p.split(":", 1)[-1])
    vararg = bool(params) and params[-1].rstrip().endswith("*")
    return len(params) - optional - vararg <= n <= (1 << 20 if vararg else len(params))


def _literals_fit(world, sid: int, args: list[str]) -> bool:
    """Whether the literal arguments (``'c'``, ``"s"``, ``0``, ``true``) and those of a known type fit the
    parameters' declared types (a function type takes no literal)."""
    params = _params(world, sid) or []
    for a, p in zip(args, params, strict=False):
        t = p.split(":", 1)[-1].split("=", 1)[0].strip()
        if a == "'" and t not in ("Char", "Any", "AnyVal"):
            return False
        if a == '"' and (t in _NUMBERS or t in ("Char", "Boolean") or "=>" in t):
            return False
        if a == "0" and (t in ("String", "Char", "Boolean") or "=>" in t or t.startswith(("Seq[", "List["))):
            return False
        if a == "true" and t not in ("Boolean", "Any", "AnyVal"):
            return False
        head = t.split("[", 1)[0].strip().rsplit(".", 1)[-1]
        if a.startswith(":") and head and len(head) > 1 and head not in ("Any", "AnyRef") \
                and a[1:].rsplit(".", 1)[-1] != head:
            return False
    return True


def _packages(world):
    """(package -> module ids, module id -> its packages, package -> name -> [(module id, symbol id)])."""
    return declared_spaces(world, "scala")


def packages(world) -> dict[str, list[int]]:
    return _packages(world)[0]


def file_packages(world) -> dict[int, tuple[str, ...]]:
    return _packages(world)[1]


def package_members(world) -> dict[str, dict[str, list[tuple[int, int]]]]:
    return _packages(world)[2]
