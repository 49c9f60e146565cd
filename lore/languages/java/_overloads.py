"""Java overloads: which of the methods (or constructors) of one name a call means, as javac would choose.

The resolver binds a call to a method by name (``class_member`` answers the last of a name); here the
call's arguments (``Call.args``, written by the parser: see :mod:`lore.languages.java._parser`) choose
among every method of that name the receiver's class has or inherits, as JLS 15.12 does, within what
the sources show:

1. arity: the candidates whose parameters take that many arguments (a varargs method takes
   ``n - 1`` or more); a candidate whose parameter list cannot be read stays, last;
2. applicability by phase: without boxing or varargs, then with boxing, then with varargs; the
   first phase that has candidates is the only one considered;
3. the most specific: each argument whose type is known scores its parameter (exact type, widening or
   a supertype, ``Object`` or a type variable) and the best total wins.

An argument of unknown type fits every parameter; when candidates stay tied, all of them are kept,
marked ``ambiguous_name`` with the confidence shared (never a guess presented as certain). A name-only
guess (the ``*_name`` heuristics) keeps only the classes that have an applicable overload.
"""

from __future__ import annotations

import re

from ...store.schema import CONFIDENCE
from .._rules import record_of, world_cache

_GUESSES = frozenset({"same_file_name", "unique_name", "ambiguous_name"})
_PRIMITIVE_ORDER = {"byte": 0, "short": 1, "char": 1, "int": 2, "long": 3, "float": 4, "double": 5}
_BOXES = {"int": "Integer", "long": "Long", "short": "Short", "byte": "Byte", "char": "Character",
          "boolean": "Boolean", "float": "Float", "double": "Double"}
_UNBOX = {v: k for k, v in _BOXES.items()}
_STRING_SUPERS = frozenset({"CharSequence", "Comparable", "Serializable", "Constable", "ConstantDesc"})
_NUMBER_SUPERS = frozenset({"Number", "Comparable", "Serializable"})
_ANNOTATION = re.compile(r"@[\w.]+(\s*\((?:[^()]|\([^()]*\))*\))?")
_GENERIC = re.compile(r"<[^<>]*>")
_EXACT, _WIDE, _SUPER, _ANY, _UNKNOWN = 40, 30, 20, 10, 0
# functional interfaces of java.util.function & co. by the number of parameters their lambda takes
_LAMBDA_ARITY = {"Runnable": 0, "Callable": 0, "Supplier": 0, "BooleanSupplier": 0, "IntSupplier": 0,
                 "LongSupplier": 0, "DoubleSupplier": 0, "Function": 1, "Consumer": 1, "Predicate": 1,
                 "UnaryOperator": 1, "IntFunction": 1, "LongFunction": 1, "DoubleFunction": 1, "ToIntFunction": 1,
                 "ToLongFunction": 1, "ToDoubleFunction": 1, "IntPredicate": 1, "IntConsumer": 1,
                 "IntUnaryOperator": 1, "BiFunction": 2, "BiConsumer": 2, "BiPredicate": 2, "BinaryOperator": 2,
                 "Comparator": 2, "IntBinaryOperator": 2, "ToIntBiFunction": 2}
# what common JDK methods return, for an argument that is such a call (``s.charAt(i)``, ``xs.size()``)
_JDK_RETURNS = {"charAt": "char", "length": "int", "size": "int", "indexOf": "int", "lastIndexOf": "int",
                "hashCode": "int", "compareTo": "int", "intValue": "int", "longValue": "long", "doubleValue": "double",
                "floatValue": "float", "booleanValue": "boolean", "toCharArray": "char[]", "getBytes": "byte[]",
                "toString": "String", "substring": "String", "trim": "String", "toLowerCase": "String",
                "toUpperCase": "String", "name": "String", "getName": "String", "getSimpleName": "String",
                "getMessage": "String", "equals": "boolean", "isEmpty": "boolean", "contains": "boolean",
                "startsWith": "boolean", "endsWith": "boolean", "getClass": "Class", "currentTimeMillis": "long",
                "nanoTime": "long", "ordinal": "int", "asList": "List", "emptyList": "List", "singletonList": "List",
                "keySet": "Set", "entrySet": "Set", "iterator": "Iterator", "stream": "Stream", "toPath": "Path",
                "displayName": "String", "toFile": "File", "getPackage": "Package", "getDeclaringClass": "Class",
                "getSuperclass": "Class", "getComponentType": "Class"}
# what common JDK types derive from (an argument of such a type fits no other parameter type)
_COLLECTION = ("Collection", "Iterable")
_JDK_SUPERS = {"List": _COLLECTION, "ArrayList": ("List", "AbstractList", "RandomAccess") + _COLLECTION,
               "LinkedList": ("List", "Deque", "Queue") + _COLLECTION, "Set": _COLLECTION,
               "HashSet": ("Set",) + _COLLECTION, "LinkedHashSet": ("Set", "HashSet") + _COLLECTION,
               "TreeSet": ("Set", "SortedSet", "NavigableSet") + _COLLECTION, "Collection": ("Iterable",),
               "Map": (), "HashMap": ("Map", "AbstractMap"), "LinkedHashMap": ("Map", "HashMap"),
               "TreeMap": ("Map", "SortedMap", "NavigableMap"), "Iterator": (), "StringBuilder": ("CharSequence",
               "Appendable", "AbstractStringBuilder"), "Class": ("Type", "GenericDeclaration", "AnnotatedElement")}


def choose(world, c, call, targets: list[tuple[int | None, str, float]]) -> list[tuple[int | None, str, float]]:
    """The targets of one call with each method replaced by the overload(s) the arguments choose."""
    if len(targets) == 1:  # the common case: one target, often a library's or a method of one signature
        tid, res, _conf = targets[0]
        if tid is None:
            return targets
        srow = world.syms.get(tid)
        if srow is None or srow.kind != "method" or srow.file_id is None:
            return targets
        if res not in _GUESSES:
            known = _memo(world).overloads.get(tid)
            if known is None:
                known = overloads(world, tid)
            if len(known) == 1 and known[0] == tid:
                return targets
    elif not targets or all(t[0] is None for t in targets):
        return targets
    guess = all(t[1] in _GUESSES for t in targets)
    out: list[tuple[int, str]] = []
    for tid, res, _conf in targets:
        if tid is None:
            continue
        srow = world.syms.get(tid)
        if srow is None or srow.kind != "method" or srow.file_id is None:
            out.append((tid, res))
            continue
        cands = overloads(world, tid)
        picked = _pick(world, c, call, cands) if len(cands) > 1 or guess else cands
        if not picked and not guess:
            picked = cands  # nothing applicable: the arguments are wrong or misread; keep what the name says
        out.extend((p, res) for p in picked)
    if not out:
        return [(None, "unresolved", 0.0)]
    seen: dict[int, str] = {}
    for tid, res in out:
        seen.setdefault(tid, res)
    if len(seen) == 1:
        (tid, res), = seen.items()
        return [(tid, res, CONFIDENCE[res])]
    k = len(seen)
    return [(tid, "ambiguous_name", CONFIDENCE["ambiguous_name"] / k) for tid in sorted(seen)]


_MISSING = object()


class _Memo:
    """What this module worked out once per world (the world is rebuilt on every index run)."""

    __slots__ = ("overloads", "params")

    def __init__(self) -> None:
        self.overloads: dict[int, list[int]] = {}
        self.params: dict[int, tuple[list[str], bool] | None] = {}


def _memo(world) -> _Memo:
    got = world.__dict__.get("_java_overloads")
    if got is None:
        got = world.__dict__["_java_overloads"] = _Memo()
    return got


def getter_first(world, ids: list[int]) -> int:
    """Of several members of one name, the method without parameters if there is one, else the last."""
    for m in ids:
        if world.syms[m].kind == "method":
            sig = params_of(world, m)
            if sig is not None and not sig[0]:
                return m
    return ids[-1]


def overloads(world, method_id: int) -> list[int]:
    """Every method of ``method_id``'s name its class has or inherits (one per parameter list: an
    override hides what it overrides); constructors are never inherited."""
    cache = _memo(world).overloads
    got = cache.get(method_id)
    if got is not None:
        return got
    srow = world.syms[method_id]
    cls = srow.parent_id
    if cls is None:
        return [method_id]
    if srow.name == "<init>":
        found = list(world.children.get(cls, {}).get(srow.name, [method_id]))
    else:
        found, sigs = [], set()
        for v in world.mro(cls):
            if v[0] != "sym":
                continue
            for m in world.children.get(v[1], {}).get(srow.name, ()):
                if world.syms[m].kind != "method":
                    continue
                sig = params_of(world, m)
                key = tuple(_erased(t) for t in sig[0]) if sig is not None else ("?", m)
                if key not in sigs:
                    sigs.add(key)
                    found.append(m)
        found = found or [method_id]
    cache[method_id] = found
    return found


def params_of(world, method_id: int) -> tuple[list[str], bool] | None:
    """The parameter type texts of a method (generic arguments dropped) and whether it is varargs, read from
    its signature; ``None`` when the signature does not show them (cut short)."""
    cache = _memo(world).params
    known = cache.get(method_id, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[return-value]
    srow = world.syms[method_id]
    _c, sym = record_of(world, method_id)
    got = None
    if sym is not None:
        name = srow.name if srow.name != "<init>" else world.syms[srow.parent_id].name
        got = parse_params(sym.signature, name)
    cache[method_id] = got
    return got


def parse_params(signature: str, name: str) -> tuple[list[str], bool] | None:
    """Parameter types of a Java method signature.

    Examples
    --------
    >>> parse_params("public static <T> T notNull(final T obj, String msg, Object... values)", "notNull")
    (['T', 'String', 'Object[]'], True)
    >>> parse_params("@Deprecated(since = \\"1\\") void put(Map<String, List<Node>> m, int[] xs, @Nullable Node n)", "put")
    (['Map', 'int[]', 'Node'], False)
    >>> parse_params("Node(String tag)", "Node"), parse_params("void f()", "f"), parse_params("void f(int a", "f")
    ((['String'], False), ([], False), None)
    """
    sig = _ANNOTATION.sub(" ", signature) if "@" in signature else signature
    at = _name_call(sig, name)
    if at < 0:
        return None
    depth, start, parts = 1, at, []
    i = start
    angle = 0
    while i < len(sig):
        ch = sig[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                parts.append(sig[start:i])
                break
        elif ch == "<":
            angle += 1
        elif ch == ">":
            angle -= 1
        elif ch == "," and depth == 1 and angle == 0:
            parts.append(sig[start:i])
            start = i + 1
        i += 1
    else:
        return None
    types, varargs = [], False
    for p in parts:
        while "<" in p:  # generic arguments, innermost first
            q = _GENERIC.sub("", p)
            if q == p:
                break
            p = q
        p = p.replace("final ", " ").strip()
        if not p:
            continue
        if "..." in p:
            varargs = True
            p = p.replace("...", "[] ")
        words = p.split()
        if len(words) < 2:
            return None
        name_dims = words[-1].count("[")
        types.append("".join(words[:-1]).replace(" ", "") + "[]" * name_dims)
    return types, varargs


def _name_call(sig: str, name: str) -> int:
    """The index just after ``name(`` in a signature (``name`` a whole word, spaces allowed before the
    parenthesis), or -1; a plain search, not a regex: compiling one per method name costs more than the rest."""
    i = sig.find(name)
    while i >= 0:
        before = sig[i - 1] if i else " "
        j = i + len(name)
        while j < len(sig) and sig[j] == " ":
            j += 1
        if not (before.isalnum() or before in "_$") and j < len(sig) and sig[j] == "(":
            return j + 1
        i = sig.find(name, i + 1)
    return -1


def _erased(t: str) -> str:
    return t.rsplit(".", 1)[-1]


# -- applicability ----------------------------------------------------------------------------------
def _pick(world, c, call, cands: list[int]) -> list[int]:
    n = len(call.args)
    known = _memo(world).params
    sigs = [known[m] if m in known else params_of(world, m) for m in cands]
    exact = [i for i, sig in enumerate(sigs) if sig is None or sig[1] or len(sig[0]) == n]
    if len(exact) == 1:  # arity alone often decides: then no argument needs a type
        sig = sigs[exact[0]]
        if sig is not None and not sig[1]:
            return [cands[exact[0]]]
    seen: dict[int, object] = {}  # argument k -> its type, worked out once for every candidate
    ranked: list[tuple[int, int, int]] = []  # (phase, -score, id)
    for m, sig in zip(cands, sigs, strict=True):
        if sig is None:
            ranked.append((4, 0, m))
            continue
        types, varargs = sig
        fixed = len(types) - 1 if varargs else len(types)
        if n == len(types):
            got = _score(world, c, call, m, types, n, seen)
            if got is not None:
                ranked.append((got[0], -got[1], m))
                continue
        if varargs and n >= fixed:  # phase 3: the trailing arguments are elements of the array
            spread = types[:fixed] + [types[-1][:-2]] * (n - fixed)
            got = _score(world, c, call, m, spread, n, seen)
            if got is not None:
                ranked.append((3, -got[1], m))
    if not ranked:
        return []
    best = min(r[:2] for r in ranked)
    return sorted(r[2] for r in ranked if r[:2] == best)


def _score(world, c, call, method_id: int, types: list[str], n: int, seen: dict) -> tuple[int, int] | None:
    """(phase, score) of passing the call's arguments to parameters ``types``; ``None`` if one cannot be."""
    phase, total = 1, 0
    for k in range(n):
        if k not in seen:
            seen[k] = _arg_type(world, c, call, k)
        got = _fits(world, seen[k], method_id, types[k])
        if got is None:
            return None
        score, boxed = got
        total += score
        if boxed:
            phase = 2
    return phase, total


def _fits(world, arg, method_id: int, param: str) -> tuple[int, bool] | None:
    """How an argument of type ``arg`` (:func:`_arg_type`) fits a parameter of type ``param``: (score, needs
    boxing), ``None`` if it cannot."""
    if arg is None:
        return _UNKNOWN, False
    kind, name, supers = arg
    p_simple = param.rsplit(".", 1)[-1]
    p_prim = p_simple in _PRIMITIVE_ORDER or p_simple == "boolean"
    p_var = _is_type_var(world, method_id, p_simple)
    if kind == "prim":
        if p_prim:
            if p_simple == name:
                return _EXACT, False
            if name != "boolean" and p_simple != "boolean" and _widens(name, p_simple):
                return _WIDE - (_PRIMITIVE_ORDER[p_simple] - _PRIMITIVE_ORDER[name]), False  # int before long
            return None
        if p_simple == _BOXES.get(name) or p_var or p_simple == "Object":
            return (_WIDE if p_simple == _BOXES.get(name) else _ANY), True
        if p_simple in _NUMBER_SUPERS and name not in ("boolean", "char"):
            return _SUPER, True
        return None
    if kind == "null":
        return None if p_prim else ((_ANY if p_simple == "Object" or p_var else _SUPER), False)
    if kind == "lambda":
        if p_prim or p_simple == "String" or param.endswith("[]"):
            return None
        want = _LAMBDA_ARITY.get(p_simple)
        if want is not None and name and int(name) != want:
            return None  # x -> ... is never a Supplier
        return (_SUPER if want is not None and name else _ANY), False
    # a reference: its class name and what it derives from (None: not known)
    if p_var or p_simple == "Object":
        return _ANY, False
    if name == "Object":  # the root class: only an Object parameter takes it (or a varargs Object...)
        return None
    if name.endswith("[]") and param.endswith("[]"):  # arrays: by their elements
        e, p = name[:-2], p_simple[:-2]
        if e == p:
            return _EXACT, False
        if e in _PRIMITIVE_ORDER or e == "boolean" or p in _PRIMITIVE_ORDER or p == "boolean":
            return None
        return (_ANY if p == "Object" or _is_type_var(world, method_id, p) else _UNKNOWN), False
    if param.endswith("[]") != name.endswith("[]"):
        return None
    if p_prim:
        return (_WIDE, True) if _UNBOX.get(name) == p_simple else None
    if name == p_simple:
        return _EXACT, False
    if name.endswith("[]"):  # arrays: of a subtype, perhaps
        return _UNKNOWN, False
    if supers is not None and p_simple in supers:
        return _SUPER, False
    if p_simple == "String" or p_simple in _UNBOX:
        return None  # final classes: only themselves
    if kind == "sym":  # a project class: what it derives from is known, unless a base could not be followed
        return (_UNKNOWN, False) if supers is None or "?" in supers else None
    if supers is not None:  # String, Integer ...: their supertypes are listed
        return None
    return None if _project_type(world, method_id, p_simple) else (_UNKNOWN, False)


def _widens(a: str, b: str) -> bool:
    if a == "char":
        return b in ("int", "long", "float", "double")
    if b == "char":
        return False
    return _PRIMITIVE_ORDER.get(a, 9) < _PRIMITIVE_ORDER.get(b, -1)


def _is_type_var(world, method_id: int, name: str) -> bool:
    """A type variable of the method or its classes: an all-caps short name the project does not define."""
    return len(name) <= 2 and name.isupper() and not _project_names(world).get(name)


def _project_names(world) -> dict[str, bool]:
    def build() -> dict[str, bool]:
        out: dict[str, bool] = {}
        for s in world.syms.values():
            if s.file_id is not None and s.kind in ("class", "interface", "enum"):
                out[s.name] = True
        return out

    return world_cache(world, "java-type-names", build)


def _project_type(world, method_id: int, simple: str) -> bool:
    return bool(_project_names(world).get(simple))


def _arg_type(world, c, call, k: int):
    """Argument ``k`` as (kind, type name, names it derives from or None); ``None`` when unknown.

    kinds: ``prim`` (name: int, boolean ...), ``null``, ``lambda``, ``sym`` (a project class), ``ext``
    (a library class, named by its last part)."""
    a = call.args[k]
    if not a:
        return None
    if a.startswith("#"):
        body = a[1:]
        if body in _PRIMITIVE_ORDER or body == "boolean":
            return "prim", body, None
        if body == "null":
            return "null", "", None
        if body.startswith("lambda"):
            return "lambda", body[7:], None
        if body == "String":
            return "ext", "String", _STRING_SUPERS
        text = body[2:] if body.startswith("T:") else body
        dims = text.count("[]")
        base = text.replace("[]", "")
        simple = base.rsplit(".", 1)[-1]
        if dims:
            return "ext", simple + "[]" * dims, None
        got = world.resolve_path(c, call.caller, base, call.line, 0)
        if got is None and "." in base:  # a fully qualified name: org.x.Node
            got = _qualified_class(world, base)
        if got is None and simple in _UNBOX and "." not in base:
            return "ext", simple, _NUMBER_SUPERS
        return _value_type(world, got[0] if got else None, simple, instance=False)
    got = world.resolve_path(c, call.caller, a, call.line, 0)
    typed = _value_type(world, got[0], None, instance=True) if got is not None else None
    if typed is None and a.endswith("()"):  # a call whose result the resolver does not type: int size() ...
        returned = _returned(world, c, call, a[:-2])
        if returned:
            return _arg_type(world, c, _Args(call, "#" + returned if returned in _PRIMITIVE_ORDER
                                             or returned in ("boolean", "String") else "#T:" + returned), 0)
    return typed


class _Args:
    """A call seen with one argument (``#`` text): how :func:`_arg_type` reads a type it worked out."""

    def __init__(self, call, arg: str) -> None:
        self.args, self.caller, self.line = [arg], call.caller, call.line


def _returned(world, c, call, callee: str) -> str:
    """The type a called method returns, as its declaration writes it (a project method) or as the JDK's
    common methods are known to (``''`` when unknown)."""
    got = world.resolve_path(c, call.caller, callee, call.line, 0)
    if got is None:
        return ""
    tag, payload = got[0]
    if tag == "sym":
        srow = world.syms.get(payload)
        if srow is None or srow.kind != "method":
            return ""
        _c, sym = record_of(world, payload)
        if sym is None:
            return ""
        head = _ANNOTATION.sub(" ", sym.signature.split("(", 1)[0])
        while "<" in head:
            q = _GENERIC.sub("", head)
            if q == head:
                break
            head = q
        words = head.split()
        return words[-2] if len(words) >= 2 and words[-1] == srow.name else ""
    if tag in ("ext", "extattr", "extinst", "opaque"):
        owner, _, method = str(payload).rpartition(".")
        if method == "valueOf" and owner.rsplit(".", 1)[-1] in ("String", *_UNBOX):
            return owner.rsplit(".", 1)[-1]  # String.valueOf(x), Integer.valueOf(x)
        return _JDK_RETURNS.get(method, "")
    return ""


def _qualified_class(world, name: str):
    """A project class named by its package and name (``org.x.Node``), when exactly one matches."""
    pkg, _, simple = name.rpartition(".")
    found = [s for s in world.by_name.get(simple, ()) if world.syms[s].kind in ("class", "interface", "enum")
             and f".{pkg}.{simple}." in f".{world.syms[s].qualified_name}."]
    return (("sym", found[0]), "import") if len(found) == 1 else None


def _value_type(world, v, written: str | None, *, instance: bool):
    if v is None:
        return ("ext", written, None) if written and not _project_names(world).get(written) else None
    tag, payload = v
    if tag in ("sym", "inst") and (tag == "inst" or not instance):
        srow = world.syms.get(payload)
        if srow is None or srow.kind not in ("class", "interface", "enum"):
            return None
        return "sym", srow.name, _supers(world, payload)
    if tag in ("ext", "extinst") and (tag == "extinst" or not instance):
        simple = str(payload).rsplit(".", 1)[-1]
        if simple in _PRIMITIVE_ORDER or simple == "boolean":  # a field declared char, int ...
            return "prim", simple, None
        if simple == "String":
            return "ext", "String", _STRING_SUPERS
        known = _JDK_SUPERS.get(simple)
        return "ext", simple, (frozenset(known) | {simple, "Object"} if known is not None else None)
    return None


def _supers(world, class_id: int) -> frozenset[str] | None:
    """The simple names of a project class and everything it derives from; ``None`` when one of its
    bases could not be followed (then what it derives from is not known)."""
    cache = world_cache(world, "java-supers", dict)
    if class_id in cache:
        return cache[class_id]
    names = {"Object"}
    known = True
    for v in world.mro(class_id):
        if v[0] == "sym":
            srow = world.syms[v[1]]
            names.add(srow.name)
            c, _sym = record_of(world, v[1])
            if c is not None:
                local = c.local_of.get(v[1])
                declared = sum(1 for r in c.pf.relations if r.source == local)
                if declared > len(world.bases(v[1])):
                    known = False
        else:
            names.add(str(v[1]).rsplit(".", 1)[-1])
            known = False  # a library base: what it derives from is not in the sources
    got = frozenset(names) if known else frozenset(names) | {"?"}
    cache[class_id] = got
    return got
