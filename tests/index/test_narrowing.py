"""``isinstance`` narrows a name: in the branch of ``if isinstance(x, A):``, after ``assert isinstance(x, A)``
and after a guard that leaves (``if not isinstance(x, A): raise``). Outside the branch the name is what it
was: a parameter, an assignment, a module name; ``or`` proves nothing.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

CLASSES = dedent("""
    class A:
        def run(self): pass
    class B:
        def run(self): pass
        def go(self): pass
    class C:
        def go(self): pass
""")

CASES: dict[str, Case] = {
    "the_branch_and_its_elif": Case(
        {"m.py": CLASSES + dedent("""
            def f(x):
                if isinstance(x, A) and x:
                    x.run()
                elif isinstance(x, (B, C)):
                    x.go()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.B.go", RULE), ("m.f", "m.C.go", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "after_the_branch_the_annotation_again": Case(
        {"m.py": CLASSES + dedent("""
            def f(x: A):
                if isinstance(x, B):
                    x.go()
                x.run()
        """)},
        expect={("m.f", "m.B.go", RULE), ("m.f", "m.A.run", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "a_guard_that_leaves_and_an_assert": Case(
        {"m.py": CLASSES + dedent("""
            def f(x, y):
                if not isinstance(x, C):
                    raise TypeError(x)
                x.go()
                assert isinstance(y, A)
                y.run()
        """)},
        expect={("m.f", "m.C.go", RULE), ("m.f", "m.A.run", RULE)},
        forbid={("m.f", "m.B.go"), ("m.f", "m.B.run")},
    ),
    "a_guard_that_leaves_replaces_the_annotation": Case(
        {"m.py": CLASSES + dedent("""
            def f(x: A):
                if not isinstance(x, B):
                    raise TypeError(x)
                x.run()
        """)},
        # the guard's binding sits on the branch's last line, but it holds after the branch: B only
        expect={("m.f", "m.B.run", RULE)},
        forbid={("m.f", "m.A.run")},
    ),
    "a_guard_that_does_not_leave_narrows_nothing": Case(
        {"m.py": CLASSES + dedent("""
            def f(x: A, log):
                if not isinstance(x, B):
                    log(x)
                x.run()
        """)},
        expect={("m.f", "m.A.run", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "or_proves_nothing": Case(
        {"m.py": CLASSES + dedent("""
            def f(x: A, y):
                if isinstance(x, B) or y:
                    x.run()
        """)},
        expect={("m.f", "m.A.run", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "a_module_name_narrowed_in_one_function": Case(
        {"m.py": CLASSES + dedent("""
            current = A()
            def f():
                if isinstance(current, B):
                    current.go()
                current.run()
            def g():
                current.run()
        """)},
        expect={("m.f", "m.B.go", RULE), ("m.f", "m.A.run", RULE), ("m.g", "m.A.run", RULE)},
        forbid={("m.f", "m.B.run"), ("m.g", "m.B.run")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_narrowing(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
