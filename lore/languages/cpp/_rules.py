"""C++'s resolution rules: C's (which already know ``this``, classes, namespaces and ``A::m``)."""

from __future__ import annotations

import re

from .._rules import record_of, twin_member
from ..c._build import _not_built
from ..c._overloads import _is_const, _overloads, _relative_name, _signature_const, _takes
from ..c._rules import CRules, _c_classes, _namespace_value
from ._aliases import USING
from ._categories import by_category
from ._dependent import dependent_targets
from ._dependent_constructions import dependent_construction
from ._elements import ELEMENT
from ._implicit import implicit_copy
from ._numbers import number_args
from ._outside import outside_targets, std_alias, std_function, std_skipped
from ._own_file import own_definitions

# members of the standard library's strings, containers and smart pointers: ``x.size()`` on a receiver whose
# type lore does not know is far more often ``std::string::size`` than the repository's one ``size``, so
# such a call is never guessed by name (a receiver of known type still binds to its own ``size``)
STD_MEMBERS = frozenset({
    "c_str", "data", "size", "length", "empty", "clear", "begin", "end", "cbegin", "cend", "rbegin", "rend",
    "front", "back", "push_back", "pop_back", "emplace_back", "push_front", "pop_front", "emplace", "insert",
    "erase", "find", "count", "at", "resize", "reserve", "capacity", "append", "substr", "compare", "swap",
    "get", "reset", "release", "lock", "unlock", "first", "second", "top", "push", "pop", "assign",
    "str", "rfind", "find_first_of", "find_last_of", "starts_with", "ends_with", "contains", "value", "has_value",
    "emplace_hint", "lower_bound", "upper_bound", "equal_range", "shrink_to_fit", "max_size", "load", "store",
    "exchange", "fetch_add", "fetch_sub", "wait", "notify_one", "notify_all", "join", "detach", "what",
})


class CppRules(CRules):
    language = "cpp"
    builtin_prefix = "cpp.std"
    builtin_method_names = STD_MEMBERS
    # the parameters of a lambda written in place are narrowings of its lines (cpp._lambdas), also of its first
    # line: [&](Node* n) { n->run(); } on one line
    narrowing_holds_on_its_line = True

    def constructor(self, world, class_id: int, name: str):
        """C's rule (constructors are not inherited; a class without one constructs itself) over :func:`_twins`."""
        srow = world.syms.get(class_id)
        if srow is None or srow.kind not in ("class", "struct"):
            return None
        for t in [class_id, *_twins(world, class_id)]:
            kids = world.children.get(t, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        return None

    def choose_overload(self, world, ctx, call, targets: list[tuple]) -> list[tuple]:
        """C's choice (a call of a type alias constructs what it names, :func:`_through_alias`; a call on what a
        call returns as ``const``, :func:`_const_result`, calls the ``const`` overload; a call bound to
        constructors only is a construction: its kind becomes ``new``), then of
        methods that stay alike (``bool PerfCounters::Initialize()`` in ``#if defined
        HAVE_LIBPFM`` and again in its ``#else``) the ones a default build compiles, when any is (as C binds a
        name defined in both branches of a flag no file defines)."""
        std = std_function(self, world, ctx, call, targets) or std_skipped(world, ctx, call, targets)
        if std is not None:
            return std
        dependent = dependent_targets(world, ctx, call, targets, STD_MEMBERS)  # h.on_text() with H& h
        if dependent is not None:
            return dependent
        made = dependent_construction(world, call, targets) or implicit_copy(world, ctx, call, targets, _twins)
        if made is not None:
            return made
        targets = outside_targets(world, ctx, call, targets)
        if call.kind in ("call", "new") and any(getattr(world.syms.get(t[0]), "kind", "") == "type_alias" for t in targets):
            targets = [c for t in targets for c in _through_alias(self, world, t, call.kind == "new")]
        if targets and all(t[0] is not None and t[0] not in world.syms for t in targets):
            return targets  # outside the project (a library's member, its type through an alias): no overloads
        recv = call.callee.rpartition(".")[0]
        if recv.endswith("()") and "~const" not in call.args and len(targets) == 1 and targets[0][0] is not None \
                and _overloads(world, targets[0][0]) and _const_result(world, ctx, call, recv, 0):
            call.args = [*call.args, "~const"]  # Root()->Size() with Root returning const Node*: Size() const
        marks = [a for a in call.args if a.startswith("~rv")]  # value categories: read by by_category alone
        if marks:
            call.args = [a for a in call.args if not a.startswith("~rv")]
        targets = _using_base(world, call, targets)
        typed = number_args(world, ctx, call, _twins) if len(targets) > 1 or targets and targets[0][0] in world.syms \
            and _overloads(world, targets[0][0]) else None
        plain, call.args = call.args, typed if typed is not None else call.args  # h.count: =int (cpp._numbers)
        got = super().choose_overload(world, ctx, call, targets)
        call.args = plain if typed is not None else call.args
        if marks:
            call.args = [*call.args, *marks]
        got = by_category(world, call, got)
        if call.kind == "call" and got and all(getattr(world.syms.get(t[0]), "name", "") == "<init>" for t in got):
            call.kind = "new"  # Value("foo"), ns::Slice(p, n): a temporary constructed, as T x(args) and new T(args) are
        got = own_definitions(world, ctx, got) or got  # the Windows source calls its own definition, not _unix's
        if len(got) < 2:
            return got
        built = [t for t in got if t[0] is None or not _not_built(world, t[0])]
        if not built or len(built) == len(got):
            return got
        return [(tid, res, conf * len(got) / len(built)) for tid, res, conf in built]

    def _module_value(self, world, ctx, module: str):
        """C's, but a namespace a using-declaration or -directive names relative to the namespaces around it
        (``using details::os::to_str;`` inside ``namespace sp { namespace sinks {``: ``sp::details::os``) is looked up
        inside the namespaces the file opens, innermost first, when the repository defines no such top-level one."""
        got = super()._module_value(world, ctx, module)
        if got is None or got[0] != "ext" or not module.startswith("namespace:") or module.startswith("namespace:std."):
            return got
        path = module[len("namespace:"):]
        for prefix in _open_namespaces(world, ctx):
            v = _namespace_value(world, f"{prefix}.{path}")
            if v is not None and v[0] != "ext":
                return v
        return got

    def detached_member(self, world, type_id: int, name: str):
        """Members of the class's twins (:func:`_twins`): methods, fields and bases declared or defined apart; of a
        container alias (``typedef std::vector<Json> array``), its element for ``operator[]`` and ``<elem>``
        (:func:`~lore.languages.cpp._elements.foreign_elements`)."""
        if name in ("operator[]", ELEMENT):
            got = _alias_element(world, type_id)
            if got is not None:
                return got
        return twin_member(world, _twins(world, type_id), name)

    def class_twins(self, world, class_id: int) -> list[int]:
        return _twins(world, class_id)


def _using_base(world, call, targets: list[tuple]) -> list[tuple]:
    """``numbers->add_option("n", n, "doc")`` bound to ``Option_group::add_option(Option*)`` alone, which does not
    take three arguments, where ``Option_group`` says ``using App::add_option;``: the base's members of that name
    (their overloads are chosen next), as the compiler sees them. Anything else: ``targets`` unchanged."""
    if len(targets) != 1 or targets[0][0] is None:
        return targets
    srow = world.syms.get(targets[0][0])
    if srow is None or srow.kind != "method" or srow.parent_id is None:
        return targets
    n = sum(not a.startswith("~") for a in call.args)
    family = _overloads(world, srow.id) or [srow.id]
    if any(_takes(world, s, n, family) for s in family):
        return targets
    for cls in [srow.parent_id, *_twins(world, srow.parent_id)]:
        c = world.ctx(world.syms[cls].file_id)
        local = c.local_of.get(cls) if c is not None else None
        binds = c.bindings_of(local).get(USING + srow.name, ()) if local is not None else ()
        base = world.resolve_path(c, local, binds[-1].value, binds[-1].line) if binds else None
        got = world.class_member(base[0][1], srow.name) if base is not None and base[0][0] == "sym" else None
        if got is not None and got[0][0] == "sym":
            return [(got[0][1], targets[0][1], targets[0][2])]
    return targets


def _alias_element(world, sid: int):
    """The element class of a container alias (its ``<elem>`` binding), as what calling ``operator[]`` gives (a
    binding's value is read as a call: the class, whose call makes an instance), or ``None``."""
    srow = world.syms.get(sid)
    if srow is None or srow.kind != "type_alias" or srow.file_id is None:
        return None
    c = world.ctx(srow.file_id)
    local = c.local_of.get(sid) if c is not None else None
    binds = c.bindings_of(local).get(ELEMENT, ()) if local is not None else ()
    got = world.type_value(c, local, binds[-1].annotation, 1) if binds else None
    return (("sym", got[0][1]), "annotated_type") if got is not None and got[0][0] == "inst" else None


def _file_local(world, sid: int) -> bool:
    """Whether a class is declared inside an anonymous namespace (its file's alone)."""
    _c, sym = record_of(world, sid)
    return sym is not None and not sym.exported


def _twins(world, class_id: int) -> list[int]:
    """The other classes of ``class_id``'s name inside the same namespaces (a header's class and the placeholder
    holding its out-of-line methods), but never across files when either is in an anonymous namespace: two sources'
    ``namespace { class Helper }`` are two classes; an alias has none."""
    srow = world.syms[class_id]
    if srow.kind not in ("class", "struct"):  # an alias (typedef SparseSet Workq) has its target's members, no twins
        return []
    local = _file_local(world, class_id)
    return [t for t in _c_classes(world).get(_relative_name(world, class_id), ())[:16]
            if t != class_id and (world.syms[t].file_id == srow.file_id or not (local or _file_local(world, t)))]


def _open_namespaces(world, ctx) -> list[str]:
    """The paths of the namespaces a file opens (``sp.sinks``, ``sp``), the deepest first."""
    paths = {".".join(world._ns_path(ctx.ids[i])) for i, sym in enumerate(ctx.pf.symbols) if sym.kind == "namespace"}
    return sorted(paths, key=lambda p: (-p.count("."), p))


def _through_alias(rules, world, target: tuple, declared: bool = False) -> list[tuple]:
    """``Json::String(s)``, ``SelfType(p)``: a call of an alias of a class constructs that class, so it binds the
    class's constructors (an alias of a library class: that class, outside the repository) rather than the alias;
    an alias of a number type (``UInt(x)``, a conversion), of a template's specialization (``string_view(s)`` with
    ``using string_view = basic_string_view<char>``, where clangd answers the alias) or of what lore cannot follow
    stays bound to the alias. A variable declared with an alias of a standard template (``Members out(3)`` with
    ``typedef std::vector<String> Members``: ``declared``) is constructed by the library's constructor, where clangd
    answers it (a temporary ``Members(3)`` it answers at the alias)."""
    srow = world.syms.get(target[0])
    if srow is None or srow.kind != "type_alias":
        return [target]
    std = std_alias(world, target[0]) if declared else ""
    if std:  # typedef std::vector<String> Members: Members(n) constructs the library's vector
        return [(world.external(std), "external", 1.0)]
    _c, sym = record_of(world, target[0])
    if sym is None or "<" in sym.signature.partition("=")[2 if "=" in sym.signature else 0]:
        return [target]  # an alias of a template's specialization (using view = basic_view<char>): clangd answers it
    bases = world.bases(target[0])
    if not bases:
        return [target]
    v = bases[-1]  # the type as written (an alias of a smart pointer extends what it holds first)
    if v[0] in ("ext", "extinst"):
        return [(world.external(str(v[1])), "external", 1.0)]
    if v[0] == "sym" and getattr(world.syms.get(v[1]), "kind", "") in ("class", "struct"):
        made = rules.constructor(world, v[1], "<init>")
        return [(made[0][1], target[1], target[2])] if made is not None and made[0][0] == "sym" else [(v[1], target[1], target[2])]
    return [target]


_SPECIFIERS = re.compile(r"^(?:template\s*<.*?>\s*)?(?:(?:static|virtual|inline|constexpr|explicit|friend)\s+)*")


def _returns_const(world, sid: int) -> bool:
    """Whether a function returns a pointer or reference to ``const`` (``const Node* Child() const``)."""
    _c, sym = record_of(world, sid)
    sig = sym.signature if sym is not None else ""
    at = sig.find(world.syms[sid].name + "(")
    ret = _SPECIFIERS.sub("", sig[:at]) if at > 0 else ""
    return bool(re.search(r"\bconst\b", ret)) and ("*" in ret or "&" in ret)


def _const_result(world, ctx, call, path: str, depth: int) -> bool:
    """Whether the call ``path`` (``m.Root()``, ``m.Root().Child()``) returns a ``const`` pointer or reference: every
    overload of it that its receiver's constness selects does (the receiver is itself such a call, or ``this`` in a
    ``const`` method, or of unknown constness)."""
    if depth > 3:
        return False
    got = world.resolve_path(ctx, call.caller, path[:-2], call.line)
    if got is None or got[0][0] != "sym" or getattr(world.syms.get(got[0][1]), "kind", "") not in ("function", "method"):
        return False
    family = _overloads(world, got[0][1]) or [got[0][1]]
    inner = path[:-2].rpartition(".")[0]
    if inner.endswith("()"):
        const_recv = _const_result(world, ctx, call, inner, depth + 1)
    else:
        const_recv = not inner and _signature_const(ctx.pf.symbols[call.caller].signature)
    chosen = [s for s in family if _is_const(world, s) == const_recv] or family
    return all(_returns_const(world, s) for s in chosen)
