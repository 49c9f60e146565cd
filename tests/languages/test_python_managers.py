"""Python: a method that gives back its receiver's class chains on the subclass it was called on.

``qs.filter(...)`` declared on a base, returning ``self``, ``copy.copy(self)``, ``self.__class__(...)`` or
another such method's result (``self._chain()``), gives an instance of ``qs``'s own class: the next call
in the chain binds to the subclass's method. Must stay on the declaring class (or unbound): a method
that returns another object, a parameter, a local assigned from something unknown, a classmethod, a
``copy`` that is not the standard library's, and a ``type()`` call whose class body nobody wrote down.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

_QUERY = dedent("""
    import copy

    class Query:
        def _clone(self):
            c = self.__class__()
            return c
        def _chain(self):
            obj = self._clone()
            return obj
        def filter(self, **kw):
            clone = self._chain()
            clone = clone.annotate()
            return clone
        def annotate(self):
            return self._chain()
        def using(self, db):
            other = copy.copy(self)
            return other
        def sticky(self):
            return self
        def count(self):
            return 0
        def fresh(self):
            return Query()
        def first(self, other):
            return other

    class BookQuery(Query):
        def in_print(self):
            return self.filter(printed=True)
        def count(self):
            return 1
""")

CASES: dict[str, Case] = {
    "a_method_giving_back_a_copy_of_self_chains_on_the_subclass": Case(
        {"m.py": _QUERY + dedent("""
            def use(q: BookQuery):
                q.filter(a=1).in_print()
                q.using("x").in_print()
                q.sticky().in_print()
                q.annotate().in_print()
                q.filter(a=1).using("y").count()
        """)},
        expect={("m.use", "m.BookQuery.in_print", RULE), ("m.use", "m.BookQuery.count", RULE)},
        forbid={("m.use", "m.Query.count")},
    ),
    "a_chain_assigned_to_a_local_keeps_the_subclass": Case(
        {"m.py": _QUERY + dedent("""
            def use():
                qs = BookQuery().filter(a=1)
                qs.in_print()
                more = qs.using("x").sticky()
                more.count()
        """)},
        expect={("m.use", "m.BookQuery.in_print", RULE), ("m.use", "m.BookQuery.count", RULE)},
        forbid={("m.use", "m.Query.count")},
    ),
    "other_returns_keep_the_declared_class": Case(
        {"m.py": _QUERY + dedent("""
            def use(q: BookQuery, p: Query):
                q.fresh().count()
                q.first(p).count()  # gives back p, a Query, whatever the receiver's class (lore.index._given)
        """)},
        expect={("m.use", "m.Query.count", RULE)},
        forbid={("m.use", "m.BookQuery.count")},
    ),
    "what_no_rule_proves_stays_on_the_declaring_class": Case(
        {"m.py": dedent("""
            import copy

            def copy_of(x):
                return x

            class Base:
                def maybe(self, flag):
                    out = self.__class__()
                    if flag:
                        out = make()
                    return out
                def via_own_copy(self):
                    return copy_of(self)
                @classmethod
                def build(cls):
                    return cls
                def made(self, name):
                    return type(name, (Base,), {})()
                def count(self):
                    return 0

            def make():
                return Base()

            class Sub(Base):
                def count(self):
                    return 1

            def use(s: Sub):
                s.maybe(True).count()
                s.made("X").count()
                s.via_own_copy().count()
        """)},
        forbid={("m.use", "m.Sub.count")},
    ),
}


_MANAGER = dedent("""
    class QuerySet:
        def _chain(self):
            return self.__class__()
        def filter(self, **kw):
            return self._chain()
        def all(self):
            return self._chain()
        def delete(self):
            pass

    class BaseManager:
        def db_manager(self, using):
            return copy.copy(self)
        def all(self):
            return QuerySet()
        @classmethod
        def from_queryset(cls, queryset_class):
            return type("M", (cls,), {})

    class Manager(BaseManager.from_queryset(QuerySet)):
        def mine(self):
            pass
""")

CASES["a_method_copied_from_the_delegate_gives_the_delegates_class"] = Case(
    {"m.py": "import copy\n" + _MANAGER + dedent("""
        def use(m: Manager):
            m.filter(a=1).all().delete()
            m.db_manager("x").mine()
    """)},
    expect={("m.use", "m.QuerySet.all", RULE), ("m.use", "m.QuerySet.delete", RULE),
            ("m.use", "m.Manager.mine", RULE)},
    forbid={("m.use", "m.BaseManager.all")},
)


_NODE = dedent("""
    class Node:
        def clone(self):
            obj = self.__class__.__new__(self.__class__)
            return obj

        @staticmethod
        def copy(method):
            def inner(self, *args, **kwargs):
                clone = self.clone()
                method(clone, *args, **kwargs)
                return clone
            return inner

        def size(self):
            return 0

    class Expression(Node):
        def copy_expr(self):
            c = super().clone()
            return c

    class Select(Expression):
        @Node.copy
        def where(self, *conditions):
            self.conditions = conditions

        def size(self):
            return 1

    class Other:
        def run(self):
            pass

    def not_a_method(self):
        return self
""")

CASES["a_decorators_wrapper_and_super_calls_keep_the_receivers_class"] = Case(
    {"m.py": _NODE + dedent("""
        def use(s: Select):
            s.where(1).size()
            s.copy_expr().size()
    """)},
    expect={("m.use", "m.Select.size", RULE)},
    forbid={("m.use", "m.Node.size")},
)


CASES["a_method_annotated_to_return_self_chains_on_the_subclass"] = Case(
    {"m.py": dedent("""
        from typing import Self

        class Query:
            def where(self, *c) -> Self:
                ...
            def count(self):
                return 0

        class Sub(Query):
            def count(self):
                return 1

        def use(s: Sub):
            s.where(1).count()
    """)},
    expect={("m.use", "m.Sub.count", RULE)},
    forbid={("m.use", "m.Query.count")},
)

@pytest.mark.parametrize("name", sorted(CASES))
def test_python_receiver_class(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


def test_a_class_built_by_type_with_unknown_attributes_stays_unbound(tmp_path):
    """``type(name, (base,), attrs)`` whose attrs nobody wrote down: no rule says which methods the class
    has, so a call on it is left to the name guesses (never a rule's edge)."""
    g = index_graph(tmp_path, {"m.py": dedent("""
        class QuerySet:
            def filter(self, **kw):
                return self

        def make_class(base, attrs):
            return type("Made", (object,), attrs)

        class Dyn(make_class(QuerySet, {})):
            pass

        def use(attrs):
            Dyn().filter(a=1)
            type("X", (object,), attrs)().filter(a=2)
    """)})
    assert g.resolutions("m.use", "m.QuerySet.filter") <= {"same_file_name", "unique_name", "ambiguous_name"}


def test_a_copied_method_giving_its_receiver_back_gives_the_delegates_subclass(tmp_path):
    """``class BookManager(BaseManager.from_queryset(BookQuerySet))``: ``objects.filter()`` runs
    ``BookQuerySet``'s inherited ``filter`` on a ``BookQuerySet``, so the chain goes on there."""
    g = index_graph(tmp_path, {"m.py": "import copy\n" + _MANAGER + dedent("""
        class BookQuerySet(QuerySet):
            def published(self):
                return self.filter(p=True)
            def delete(self):
                pass

        class BookManager(BaseManager.from_queryset(BookQuerySet)):
            pass

        def use(m: BookManager):
            m.filter(a=1).published()
            m.filter(a=2).delete()
    """)})
    check(g, Case({}, expect={("m.use", "m.BookQuerySet.published", RULE),
                              ("m.use", "m.BookQuerySet.delete", RULE)},
                  forbid={("m.use", "m.QuerySet.delete")}))
