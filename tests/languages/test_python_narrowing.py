"""Python's branches and ``isinstance`` narrowing, as Python runs them.

1. An assignment made in one branch of an ``if`` / ``elif`` / ``else`` statement never reaches a read in
   another branch of the same statement: only the reads after the whole statement see every branch's
   value (Django's ``ChangeList.get_ordering``: ``order_field = order_field.copy()`` under ``if
   isinstance(order_field, OrderBy)``, then ``order_field.asc()`` in the ``elif``).
2. ``isinstance(path, C)`` with ``path`` an attribute path (``self.rhs``, ``node.value``) narrows the path
   in the positive branch to the project's class ``C`` whatever values were known (Django's ``if
   isinstance(self.rhs, Query): self.rhs.has_limit_one()``); outside the branch, or once the branch
   assigns the path again, nothing changes, and a class the project does not define binds nothing new.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

CLASSES = dedent("""
    class A:
        def run(self): pass
        def go(self): pass
        def stop(self): pass
    class B:
        def run(self): pass
        def go(self): pass
        def stop(self): pass
""")

BRANCHES: dict[str, Case] = {
    "a_sibling_branch_assignment_is_not_read_in_the_elif_or_else": Case(
        {"m.py": CLASSES + dedent("""
            def f(p):
                x = A()
                if p:
                    x = B()
                elif p is None:
                    x.run()
                else:
                    x.go()
                x.stop()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.A.go", RULE),
                ("m.f", "m.A.stop", RULE), ("m.f", "m.B.stop", RULE)},  # after the statement: the union
        forbid={("m.f", "m.B.run"), ("m.f", "m.B.go")},
    ),
    "an_assignment_nested_in_the_first_branch_is_not_read_in_the_elif": Case(
        {"m.py": CLASSES + dedent("""
            def f(x, p, q):
                x = A()
                if isinstance(x, A):
                    if p == "-":
                        x = B()
                        x.go()
                    x.stop()
                elif q:
                    x.run()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.B.go", RULE),
                ("m.f", "m.A.stop", RULE), ("m.f", "m.B.stop", RULE)},
        forbid={("m.f", "m.B.run"), ("m.f", "m.A.go")},
    ),
    "a_sibling_branch_of_an_inner_if_is_not_read_either": Case(
        {"m.py": CLASSES + dedent("""
            def f(p, q):
                x = A()
                if p:
                    if q:
                        x = B()
                    else:
                        x.run()
                    x.go()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.A.go", RULE), ("m.f", "m.B.go", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "in_a_loop_a_branch_s_value_comes_round_to_its_sibling": Case(
        {"m.py": CLASSES + dedent("""
            def f(xs):
                prev = None
                for x in xs:
                    if prev is None:
                        prev = A()
                    else:
                        prev.run()
        """)},
        expect={("m.f", "m.A.run", RULE)},
    ),
    "unless_the_loop_assigns_the_name_before_the_statement": Case(
        {"m.py": CLASSES + dedent("""
            def f(xs, p):
                for x in xs:
                    try:
                        y = A()
                        if p:
                            y = B()
                        else:
                            y.run()
                    except ValueError:
                        continue
        """)},
        expect={("m.f", "m.A.run", RULE)},
        forbid={("m.f", "m.B.run")},
    ),
    "after_the_statement_a_known_branch_stands_for_an_unknown_sibling": Case(
        {"m.py": CLASSES + dedent("""
            def f(x, p):
                if x is None:
                    x = A()
                elif p:
                    x = x.using(p)
                x.run()
        """)},
        expect={("m.f", "m.A.run", RULE)},
    ),
    "an_except_clause_still_sees_what_the_try_may_have_assigned": Case(
        {"m.py": CLASSES + dedent("""
            def f(p):
                x = A()
                try:
                    x = B()
                    p()
                except ValueError:
                    x.run()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.B.run", RULE)},
    ),
    "a_later_if_statement_sees_the_earlier_one_s_branches": Case(
        {"m.py": CLASSES + dedent("""
            def f(p):
                x = A()
                if p:
                    x = B()
                if p is None:
                    x.run()
                else:
                    x.go()
        """)},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.B.run", RULE),
                ("m.f", "m.A.go", RULE), ("m.f", "m.B.go", RULE)},
    ),
}


@pytest.mark.parametrize("name", sorted(BRANCHES))
def test_branches(tmp_path, name):
    check(index_graph(tmp_path, BRANCHES[name].files), BRANCHES[name])


QUERY = dedent("""
    class Query:
        def has_limit_one(self): pass
        def clear(self): pass
    class Other:
        def has_limit_one(self): pass
    class Expr:
        def resolve(self): pass
        def clear(self): pass
""")

ATTRIBUTES: dict[str, Case] = {
    "self_attribute_narrowed_in_its_branch": Case(
        {"m.py": QUERY + dedent("""
            class Lookup:
                def __init__(self):
                    self.rhs = Expr()
                def prep(self):
                    if isinstance(self.rhs, Query):
                        if self.rhs.has_limit_one():
                            self.rhs.clear()
                    self.rhs.resolve()
                def other(self):
                    self.rhs.clear()
        """)},
        expect={("m.Lookup.prep", "m.Query.has_limit_one", RULE), ("m.Lookup.prep", "m.Query.clear", RULE),
                ("m.Lookup.prep", "m.Expr.resolve", RULE), ("m.Lookup.other", "m.Expr.clear", RULE)},
        forbid={("m.Lookup.prep", "m.Expr.clear"), ("m.Lookup.other", "m.Query.clear"),
                ("m.Lookup.prep", "m.Other.has_limit_one")},
    ),
    "an_attribute_of_a_parameter_and_a_tuple_of_classes": Case(
        {"m.py": QUERY + dedent("""
            def f(node):
                if isinstance(node.value, (Query, Other)):
                    node.value.has_limit_one()
        """)},
        expect={("m.f", "m.Query.has_limit_one", RULE), ("m.f", "m.Other.has_limit_one", RULE)},
    ),
    "the_class_imported_inside_the_function": Case(
        {"q.py": QUERY,
         "m.py": dedent("""
            from q import Expr
            class Lookup:
                def __init__(self):
                    self.rhs = Expr()
                def prep(self):
                    from q import Query
                    if isinstance(self.rhs, Query):
                        self.rhs.has_limit_one()
        """)},
        expect={("m.Lookup.prep", "q.Query.has_limit_one", RULE)},
    ),
}

# sites that must stay as they were: (files, caller, callee the narrowing must not give)
UNBOUND: dict[str, tuple[dict[str, str], str, str]] = {
    "after_the_branch": (
        {"m.py": QUERY + dedent("""
            def f(node):
                if isinstance(node.value, Query):
                    pass
                node.value.has_limit_one()
        """)}, "m.f", "m.Query.has_limit_one"),
    "an_elif_of_the_narrowing": (
        {"m.py": QUERY + dedent("""
            def f(node, p):
                if isinstance(node.value, Query):
                    pass
                elif p:
                    node.value.has_limit_one()
        """)}, "m.f", "m.Query.has_limit_one"),
    "the_branch_assigns_the_attribute_again": (
        {"m.py": QUERY + dedent("""
            class Lookup:
                def __init__(self):
                    self.rhs = Expr()
                def prep(self):
                    if isinstance(self.rhs, Query):
                        self.rhs = Expr()
                        self.rhs.clear()
        """)}, "m.Lookup.prep", "m.Query.clear"),
    "a_class_the_project_does_not_define": (
        {"m.py": QUERY + dedent("""
            from lib import Query as Q
            def f(node):
                if isinstance(node.value, Q):
                    node.value.has_limit_one()
        """)}, "m.f", "m.Query.has_limit_one"),
}


@pytest.mark.parametrize("name", sorted(ATTRIBUTES))
def test_attribute_narrowing(tmp_path, name):
    check(index_graph(tmp_path, ATTRIBUTES[name].files), ATTRIBUTES[name])


@pytest.mark.parametrize("name", sorted(UNBOUND))
def test_attribute_narrowing_binds_nothing_else(tmp_path, name):
    files, caller, callee = UNBOUND[name]
    g = index_graph(tmp_path, files)
    assert not g.has(caller, callee, RULE), g.triples


# 3. Narrowing by elimination: where ``isinstance(x, A)`` failed, ``x`` holds no ``A`` (nor a subclass of
# ``A``): the ``else`` / ``elif`` of the test, the branch of ``if not isinstance(x, A):``. Django's
# ``mutable_list.__delitem__``: ``if isinstance(index, int): ... else: index.indices(n)`` is
# ``slice.indices``, never ``int.indices``.
KINDS = CLASSES + dedent("""
    class C(A):
        pass
""")
CALLERS = dedent("""
    f(A())
    f(B())
    f(C())
""")

ELIMINATION: dict[str, Case] = {
    "the_else_of_an_isinstance_test": Case(
        {"m.py": KINDS + dedent("""
            def f(v):
                if isinstance(v, A):
                    v.run()
                else:
                    v.go()
        """) + CALLERS},
        expect={("m.f", "m.A.run", RULE), ("m.f", "m.B.go", RULE)},
        forbid={("m.f", "m.A.go")},  # C is an A: gone too
    ),
    "an_elif_chain_removes_every_earlier_class": Case(
        {"m.py": KINDS + dedent("""
            class D:
                def go(self): pass
            def f(v):
                if isinstance(v, A):
                    pass
                elif isinstance(v, B):
                    v.run()
                else:
                    v.go()
        """) + CALLERS + "f(D())\n"},
        expect={("m.f", "m.B.run", RULE), ("m.f", "m.D.go", RULE)},
        forbid={("m.f", "m.A.run"), ("m.f", "m.A.go"), ("m.f", "m.B.go")},
    ),
    "the_branch_of_not_isinstance": Case(
        {"m.py": KINDS + dedent("""
            def f(v):
                if not isinstance(v, (A, C)):
                    v.stop()
        """) + CALLERS},
        expect={("m.f", "m.B.stop", RULE)},
        forbid={("m.f", "m.A.stop")},
    ),
    "a_builtin_class_after_a_guard": Case(
        {"m.py": dedent("""
            def g(i):
                if not isinstance(i, (int, slice)):
                    raise TypeError
                if isinstance(i, int):
                    return i
                else:
                    return i.indices(3)
            g(1)
            g(slice(1, 2))
        """)},
        expect={("m.g", "builtins.slice.indices", "builtin")},
        forbid={("m.g", "builtins.int.indices")},
    ),
}

# sites elimination must leave as they were: (files, caller, callee that stays bound)
KEPT: dict[str, tuple[dict[str, str], str, str]] = {
    "after_the_statement": (
        {"m.py": KINDS + dedent("""
            def f(v):
                if isinstance(v, A):
                    pass
                else:
                    pass
                v.go()
        """) + CALLERS}, "m.f", "m.A.go"),
    "a_condition_with_and": (
        {"m.py": KINDS + dedent("""
            def f(v, p):
                if isinstance(v, A) and p:
                    pass
                else:
                    v.go()
        """) + CALLERS}, "m.f", "m.A.go"),
    "a_class_the_project_does_not_define": (
        {"m.py": KINDS + dedent("""
            from lib import Thing
            def f(v):
                if isinstance(v, Thing):
                    pass
                else:
                    v.go()
        """) + CALLERS}, "m.f", "m.A.go"),
    "the_else_assigns_the_name_again": (
        {"m.py": KINDS + dedent("""
            def f(v):
                if isinstance(v, A):
                    pass
                else:
                    v = A()
                    v.go()
        """) + CALLERS}, "m.f", "m.A.go"),
    "a_base_class_value_may_be_another_subclass": (
        {"m.py": KINDS + dedent("""
            def f(v):
                if isinstance(v, C):
                    pass
                else:
                    v.go()
            f(A())
        """)}, "m.f", "m.A.go"),
}


@pytest.mark.parametrize("name", sorted(ELIMINATION))
def test_elimination(tmp_path, name):
    check(index_graph(tmp_path, ELIMINATION[name].files), ELIMINATION[name])


@pytest.mark.parametrize("name", sorted(KEPT))
def test_elimination_keeps_what_it_cannot_rule_out(tmp_path, name):
    files, caller, callee = KEPT[name]
    g = index_graph(tmp_path, files)
    assert g.has(caller, callee, RULE), g.triples
