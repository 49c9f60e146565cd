"""Calls that go outside the project: never bound to a project symbol of the same name.

- ``::close(fd)``: the global namespace's ``close`` (the C library's), never a member of the class around the call,
  which an unqualified ``close()`` there would be. The extractor marks such a call with the attribute ``~global``
  (:func:`mark_call`); :func:`outside_targets` drops the members it was bound to.
- ``Members out(n)`` with ``typedef std::vector<String> Members`` and ``Ptr p(raw)`` with ``using Ptr =
  std::unique_ptr<T>``: a variable declared with an alias of a standard template is constructed by the library's
  constructor (:func:`std_alias`; clangd answers it). A temporary ``Members(n)`` stays bound to the alias, as
  clangd answers the alias there.
- ``p.reset()``, ``p.release()``, ``p.swap(q)`` of a ``std::unique_ptr<Node> p`` (a ``shared_ptr``, ``weak_ptr``,
  ``optional``): the smart pointer's own member, never ``Node::reset`` (which ``p->reset()`` calls). The extractor
  binds ``p[~]`` to the wrapper (:func:`wrapper_binding`) and marks a ``.`` call of such a name ``~dot``
  (:func:`mark_call`); :func:`outside_targets` asks what ``p[~]`` is.
- ``min(a, b)``, ``sort(v.begin(), v.end())`` in a file that includes the C++ library and sees no declaration of
  the project's ``min`` (C's global linkage alone bound it there): the library's (:func:`std_function`).
- ``string p; p.replace(...)`` after ``using namespace std;``: ``string`` is ``std.string`` (:func:`std_type`).
- ``std::begin(s)`` bound only to the project's ``namespace std { begin(...) }`` of a skipped ``#ifdef`` branch:
  the library's (:func:`std_skipped`).
"""

from __future__ import annotations

import re

from ...parsers import _ts
from .._rules import record_of
from ..c._build import _not_built
from ..c._rules import _globals

_STD_TARGET = re.compile(r"^\s*(?:const\s+)?(?:::)?std::")


# the members of std::unique_ptr / shared_ptr / weak_ptr / optional / reference_wrapper that are their own
WRAPPER_MEMBERS = frozenset({"reset", "release", "swap", "use_count", "unique", "owner_before", "lock", "expired",
                             "get_deleter", "has_value", "value", "value_or", "emplace"})


def mark_call(ex, fn: _ts.Node | None) -> None:
    """Mark the extractor's last call ``~global`` when its function is spelled ``::name``, ``~dot`` when it is
    ``x.reset()`` (a ``.`` call of a name in :data:`WRAPPER_MEMBERS`)."""
    if fn is None or not ex.pf.calls:
        return
    if fn.type == "qualified_identifier" and fn.child_by_field_name("scope") is None:
        name = fn.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            ex.pf.calls[-1].args.append("~global")
    elif fn.type == "field_expression" and ex.text(fn.child_by_field_name("operator")) == "." \
            and ex.text(fn.child_by_field_name("field")) in WRAPPER_MEMBERS:
        ex.pf.calls[-1].args.append("~dot")


def wrapper_binding(ex, owner: int, name: str, tnode: _ts.Node | None, at: _ts.Node, field: bool) -> None:
    """``std::unique_ptr<Node> p``: bind ``p[~]`` to ``std.unique_ptr`` (the wrapper itself, which ``p`` is not:
    its annotation is what it holds)."""
    t = tnode
    while t is not None and t.type == "qualified_identifier":
        t = t.child_by_field_name("name")
    if t is None or t.type != "template_type":
        return
    wrapper = ex.text(t.child_by_field_name("name"))
    if wrapper not in ex.wrapper_names:
        return
    ex.add_binding(owner, f"{name}[~]", at, annotation=f"std.{wrapper}")
    if field:
        ex.add_binding(owner, f"self.{name}[~]", at, annotation=f"std.{wrapper}")


def _is_member(world, sid: int | None) -> bool:
    srow = world.syms.get(sid) if sid is not None else None
    return srow is not None and srow.kind == "method"


def outside_targets(world, ctx, call, targets: list[tuple]) -> list[tuple]:
    """The targets of a ``~global`` call without the class members it was bound to (all of them: the library's
    function of that name, outside the project); of a ``~dot`` call on a smart pointer, its own member."""
    if "~dot" in call.args and any(_is_member(world, t[0]) for t in targets):
        recv, _dot, member = call.callee.rpartition(".")
        got = world.resolve_path(ctx, call.caller, f"{recv}[~]", call.line) if recv else None
        v = got[0] if got is not None else None
        if v is not None and v[0] in ("ext", "extinst") and str(v[1]).startswith("std."):
            return [(world.external(f"{v[1]}.{member}"), "builtin", 1.0)]
    if "~global" not in call.args or not any(_is_member(world, t[0]) for t in targets):
        return targets
    kept = [t for t in targets if not _is_member(world, t[0])]
    return kept or [(world.external(call.callee), "external", 1.0)]


def std_alias(world, sid: int) -> str:
    """``std.vector`` when the alias ``sid`` names a template of the standard library (``typedef std::vector<String>
    Members``, ``using Ptr = std::unique_ptr<T>``), else ``""``."""
    _c, sym = record_of(world, sid)
    if sym is None:
        return ""
    sig = sym.signature
    target = sig.partition("=")[2] if "=" in sig else sig.removeprefix("typedef")
    if not _STD_TARGET.match(target) or "<" not in target:
        return ""
    name = _STD_TARGET.sub("", target).split("<", 1)[0].strip()
    return f"std.{name.replace('::', '.')}" if name.replace("::", "").replace("_", "").isalnum() else ""


# free functions of the standard library a C++ file calls unqualified (after ``using namespace std;``, or found by
# argument-dependent lookup on a std type: ``sort(v.begin(), v.end())``)
STD_FUNCTIONS = frozenset({
    "min", "max", "minmax", "clamp", "swap", "exchange", "move", "forward", "sort", "stable_sort", "partial_sort",
    "nth_element", "find", "find_if", "find_if_not", "search", "count", "count_if", "copy", "copy_if", "copy_n",
    "fill", "fill_n", "remove", "remove_if", "replace", "replace_if", "reverse", "rotate", "unique", "transform",
    "accumulate", "iota", "for_each", "all_of", "any_of", "none_of", "equal", "mismatch", "lower_bound",
    "upper_bound", "equal_range", "binary_search", "min_element", "max_element", "distance", "advance", "next",
    "prev", "begin", "end", "make_pair", "make_tuple", "tie", "get", "to_string", "stoi", "stol", "stoul", "stoll",
    "stoull", "stod", "stof", "getline", "abs", "back_inserter", "inserter", "make_unique", "make_shared",
    "merge", "includes", "set_union", "set_intersection", "set_difference", "lexicographical_compare",
    "is_sorted", "shuffle", "generate", "adjacent_find", "partition", "stable_partition",
})


def _sees_std(ctx) -> bool:
    """Whether a file includes a header of the C++ library (``<algorithm>``, not ``<stdio.h>``) or says
    ``using namespace std;``."""
    return any(i.module == "namespace std" or i.module.startswith("<") and not i.module.endswith(".h>")
               for i in ctx.pf.imports)


def std_function(rules, world, ctx, call, targets: list[tuple]) -> list[tuple] | None:
    """``min(a, b)``, ``sort(v.begin(), v.end())`` in a file that includes the C++ library and sees no declaration
    of the project's ``min`` (C's linkage bound it, to a definition in another source or through a header the file
    does not include): the library's ``std::min``, the one the file sees. ``None`` when the call is no such one."""
    if "." in call.callee or call.callee not in STD_FUNCTIONS or not targets \
            or any(t[1] not in ("global_linkage", "import") or t[0] not in world.syms for t in targets) \
            or not _sees_std(ctx):
        return None
    own = world.syms[ctx.ids[0]].file_id
    if any(world.syms[t[0]].file_id == own for t in targets):
        return None
    defs, hdr, decls = _globals(world, call.callee)
    if not {t[0] for t in targets} <= {*defs, *hdr, *decls}:  # using ns::max; max(a, b): a namespace's, named
        return None
    seen = rules.include_set(world, ctx)
    if any(world.files[world.syms[d].file_id].module_id in seen for d in (*hdr, *decls)):
        return None
    return [(world.external(f"std.{call.callee}"), "builtin", 1.0)]


# class templates and classes of the standard library a file names unqualified after ``using namespace std;``
STD_TYPES = frozenset({
    "string", "wstring", "u16string", "u32string", "string_view", "vector", "map", "multimap", "set", "multiset",
    "unordered_map", "unordered_set", "unordered_multimap", "unordered_multiset", "deque", "list", "forward_list",
    "array", "bitset", "stack", "queue", "priority_queue", "pair", "tuple", "stringstream", "istringstream",
    "ostringstream", "ifstream", "ofstream", "fstream", "ostream", "istream", "thread", "mutex", "atomic",
})


def std_type(ex, name: str) -> str:
    """``std.string`` for ``string`` in a file that says ``using namespace std;`` (or ``using std::string;``) and
    declares no type of that name itself: ``string p; p.replace(...)`` is ``std::string::replace``, never a guess
    at the project's one ``replace``. Any other name as it is."""
    if name not in STD_TYPES:
        return name
    uses = ex.__dict__.get("_uses_std")
    if uses is None:
        uses = ex._uses_std = b"using namespace std" in ex.source or b"using std::" in ex.source
    if not uses or name in ex.type_locals:
        return name
    return f"std.{name}"


def std_skipped(world, ctx, call, targets: list[tuple]) -> list[tuple] | None:
    """``std::begin(text)`` bound only to the project's own ``namespace std { begin(const icu::UnicodeString&) }``
    written in a branch the default build skips (``#ifdef CXXOPTS_USE_UNICODE``): the library's ``std::begin``
    (``None`` when the call is no such one)."""
    if not call.callee.startswith("std.") or not targets \
            or not all(t[0] in world.syms and _not_built(world, t[0], ctx) for t in targets):
        return None
    return [(world.external(call.callee), "builtin", 1.0)]
