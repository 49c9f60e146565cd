"""C++'s resolution rules: C's (which already know ``this``, classes, namespaces and ``A::m``)."""

from __future__ import annotations

from ..c._rules import CRules

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
