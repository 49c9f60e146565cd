"""C++'s resolution rules: C's (which already know ``this``, classes, namespaces and ``A::m``)."""

from __future__ import annotations

from ..c._rules import CRules


class CppRules(CRules):
    language = "cpp"
    builtin_prefix = "cpp.std"
