"""Python: a function that gives back the argument it was called with returns, at each call site, the
argument given there, not every value any caller passes (issue 34: Django's
``decorator.__call__(ExceptionInSetUp)()`` was bound to ``AdminSeleniumTestCase``, a class another
module decorates with the same decorator).
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

# Django's TestContextDecorator, cut down: __call__ gives back decorate_class(decorated), which gives
# back its argument; another class is decorated elsewhere, so the parameter's flow holds both
DECO = dedent("""
    class Deco:
        def decorate_class(self, cls):
            return cls

        def decorate_callable(self, func):
            def inner(*args):
                func(*args)
            return inner

        def __call__(self, decorated):
            if isinstance(decorated, type):
                return self.decorate_class(decorated)
            elif callable(decorated):
                return self.decorate_callable(decorated)
            raise TypeError

    class Mine:
        def run(self): pass

    @Deco()
    class Elsewhere:
        def run(self): pass
""")

CASES: dict[str, Case] = {
    "a_call_on_what_a_method_gives_back": Case(
        {"m.py": DECO + dedent("""
            def test():
                decorator = Deco()
                decorator.__call__(Mine)()
        """)},
        expect={("m.test", "m.Mine", RULE)}, forbid={("m.test", "m.Elsewhere")},
    ),
    "an_instance_called_gives_back_its_argument": Case(
        {"m.py": DECO + dedent("""
            def test():
                decorator = Deco()
                decorator(Mine)()
        """)},
        expect={("m.test", "m.Mine", RULE)}, forbid={("m.test", "m.Elsewhere")},
    ),
    "an_assignment_of_a_call_on_what_a_method_gives_back": Case(
        {"m.py": DECO + dedent("""
            def test():
                decorator = Deco()
                made = decorator.__call__(Mine)()
                made.run()
        """)},
        expect={("m.test", "m.Mine.run", RULE)}, forbid={("m.test", "m.Elsewhere.run")},
    ),
    "a_method_that_registers_and_gives_back_a_class": Case(
        {"m.py": dedent("""
            class Registry:
                def __init__(self):
                    self.items = []
                def add(self, cls):
                    self.items.append(cls)
                    return cls
            class A:
                def run(self): pass
            class B:
                def run(self): pass
            reg = Registry()
            reg.add(B)
            def use():
                reg.add(A)().run()
        """)},
        expect={("m.use", "m.A.run", RULE)}, forbid={("m.use", "m.B.run")},
    ),
    "other_returns_keep_their_values": Case(
        {"m.py": dedent("""
            class Default:
                def run(self): pass
            class A:
                def run(self): pass
            class B:
                def run(self): pass
            def pick(x, flag):
                if flag:
                    return x
                return Default()
            pick(B, 1)
            def use():
                a = A()
                got = pick(a, 0)
                got.run()
        """)},
        expect={("m.use", "m.A.run", RULE), ("m.use", "m.Default.run", RULE)},
        forbid={("m.use", "m.B.run")},
    ),
    # Django's admin.action / admin.display: called with the function, it decorates it; called with
    # keywords only, it returns its decorator. At @action(...) the parameter holds nothing
    "a_decorator_factory_called_with_keywords_only": Case(
        {"m.py": dedent("""
            def action(function=None, *, description=None):
                def decorator(func):
                    func.description = description
                    return func
                if function is None:
                    return decorator
                return decorator(function)
            def plain(request): pass
            action(plain)
            @action(description="x")
            def fancy(request): pass
        """)},
        expect={("m", "m.action.decorator", RULE)}, forbid={("m", "m.plain")},
    ),
}

# must stay as before (the union of what callers pass): the parameter is assigned in the function, so
# what comes back is not the argument; or the argument is not known where the call is
KEPT = {
    "a_parameter_assigned_before_it_is_returned": dedent("""
        class A:
            def run(self): pass
        class B:
            def run(self): pass
        def wrap(c):
            return c
        def norm(cls):
            cls = wrap(cls)
            return cls
        norm(B)
        def use():
            norm(A)().run()
    """),
    # the argument's value is unknown at the site: every value the parameter takes, as before
    "an_argument_nothing_resolves": dedent("""
        class A:
            def run(self): pass
        class B:
            def run(self): pass
        def ident(cls):
            return cls
        ident(A)
        ident(B)
        def use(x):
            ident(x)().run()
    """),
}

# Django's _get_queryset: given a model class it returns klass._default_manager.all(), a manager its
# metaclass makes (nothing lore reads), else klass itself. Where the other return says nothing, the
# site keeps the union (the QuerySet another caller passes), not the class alone
QUERYSET = dedent("""
    class QuerySet:
        def filter(self, **kw): return self
    class Model:
        pass
    class Article(Model):
        pass
    def _get_queryset(klass):
        if hasattr(klass, "_default_manager"):
            return klass._default_manager.all()
        return klass
    def get_list_or_404(klass):
        queryset = _get_queryset(klass)
        return queryset.filter()
    get_list_or_404(Article)
    _get_queryset(QuerySet())
""")


def test_a_return_that_says_nothing_keeps_the_union(tmp_path):
    g = index_graph(tmp_path, {"m.py": QUERYSET})
    assert g.has("m.get_list_or_404", "m.QuerySet.filter", RULE), sorted(g.triples)


@pytest.mark.parametrize("name", sorted(CASES))
def test_given_back_per_call_site(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


@pytest.mark.parametrize("name", sorted(KEPT))
def test_an_assigned_parameter_keeps_the_union(tmp_path, name):
    g = index_graph(tmp_path, {"m.py": KEPT[name]})
    assert g.has("m.use", "m.A.run", RULE) and g.has("m.use", "m.B.run", RULE)
