"""Python: an ``if sys.version_info >= (3, N):`` test that every supported Python decides (N up to
:data:`lore.languages.python._versions.FLOOR`'s minor) leaves its other branch dead: a definition there
does not bind the name where the live branch binds it too (:mod:`lore.languages.python._versions`).
Issue 34, found on the tuning set of its eighth session (``--round8``): apischema's ``typing.py`` imports
``get_type_hints`` from ``typing`` on 3.9 and later and defines its own in the ``else`` branch; lore bound
the callers to that definition, which no supported Python runs.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

CASES: dict[str, Case] = {
    "the_else_of_a_decided_test_does_not_bind": Case(
        {"compat.py": dedent("""
            import sys
            if sys.version_info >= (3, 9):
                from typing import get_type_hints
            else:
                def get_type_hints(obj):
                    return {}
         """), "m.py": dedent("""
            from compat import get_type_hints
            def test(c):
                return get_type_hints(c)
         """)},
        expect={("m.test", "typing.get_type_hints", "external")},
        forbid={("m.test", "compat.get_type_hints")},
    ),
    "the_if_of_a_false_test_does_not_bind": Case(
        {"compat.py": dedent("""
            import sys
            if sys.version_info < (3, 8):
                def cached(f):
                    return f
            else:
                from functools import cache as cached
         """), "m.py": dedent("""
            from compat import cached
            def test(f):
                return cached(f)
         """)},
        expect={("m.test", "functools.cache", "external")}, forbid={("m.test", "compat.cached")},
    ),
    # must stay: a bound newer than the floor depends on the Python: both definitions stay candidates
    "a_newer_bound_stays_undecided": Case(
        {"compat.py": dedent("""
            import sys
            if sys.version_info >= (3, 13):
                from warnings import deprecated
            else:
                def deprecated(msg):
                    return lambda f: f
         """), "m.py": dedent("""
            from compat import deprecated
            def test():
                return deprecated("x")
         """)},
        expect={("m.test", "compat.deprecated", RULE)},
    ),
    # must stay: a definition alone in a dead branch still binds (nothing else binds the name)
    "a_dead_definition_alone_still_binds": Case(
        {"m.py": dedent("""
            import sys
            if sys.version_info < (3, 8):
                def old():
                    pass
            def test():
                old()
         """)},
        expect={("m.test", "m.old", RULE)},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_version_branches(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
