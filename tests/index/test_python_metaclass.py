"""Python metaclasses: what a metaclass sets on the classes it builds is their class attribute.

``class Model(metaclass=ModelBase)``: the attributes ``ModelBase``'s methods set on the class they build
(``setattr(cls, "objects", manager)``, or through a setter method of the metaclass,
``cls.add_to_class("objects", manager)``) are class attributes of ``Model`` and of every class derived
from it; read on the class, the metaclass's own methods and properties answer too (Python looks a class's
missing attribute up on its type). Must stay unbound: a class without that metaclass, a name set from a
variable (not a literal), a setattr on the metaclass itself in ``__new__``, a method the metaclass merely
has read through an instance.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

_BASE = dedent("""
    class QuerySet:
        def filter(self, **kw):
            return self
    class Manager:
        def filter(self, **kw):
            return QuerySet()
    class Options:
        def get_field(self, name):
            pass
    class Builder(type):
        def __new__(cls, name, bases, attrs):
            new_class = super().__new__(cls, name, bases, attrs)
            new_class.add_to_class("_meta", Options())
            setattr(cls, "wrong", Options())
            new_class._prepare()
            return new_class
        def add_to_class(cls, name, value):
            if hasattr(value, "contribute_to_class"):
                value.contribute_to_class(cls, name)
            else:
                setattr(cls, name, value)
        def _prepare(cls):
            manager = Manager()
            cls.add_to_class("objects", manager)
            for name in ("a", "b"):
                cls.add_to_class(name, QuerySet())
        @property
        def _default_manager(cls):
            return Manager()
        def registered(cls):
            return QuerySet()
    class Model(metaclass=Builder):
        def save(self):
            self.objects.filter(a=1)
            self._meta.get_field("x")
    class Book(Model):
        pass
""")

CASES: dict[str, Case] = {
    "an_attribute_a_metaclass_sets_is_the_built_classes": Case(
        {"m.py": _BASE + dedent("""
            def use(book: Book):
                Book.objects.filter(a=1)
                Model.objects.filter(b=2)
                book.objects.filter(c=3)
                Book._meta.get_field("x")
        """)},
        expect={("m.use", "m.Manager.filter", RULE), ("m.use", "m.Options.get_field", RULE),
                ("m.Model.save", "m.Manager.filter", RULE), ("m.Model.save", "m.Options.get_field", RULE)},
    ),
    "a_metaclass_property_is_read_on_the_class": Case(
        {"m.py": _BASE + dedent("""
            def use():
                Book._default_manager.filter(a=1)
                Book.registered().filter(a=1)
        """)},
        expect={("m.use", "m.Manager.filter", RULE), ("m.use", "m.QuerySet.filter", RULE)},
    ),
    "what_a_metaclass_does_not_set_stays_unbound": Case(
        {"m.py": _BASE + dedent("""
            class Plain:
                pass
            def use(book: Book, p: Plain):
                Plain.objects.filter(a=1)
                p.objects.filter(a=1)
                Book.a.filter(x=1)
                Book.wrong.get_field("x")
                book._default_manager.filter(a=1)
                book.registered().filter(a=1)
        """)},
    ),
    "a_manager_built_from_a_queryset_on_a_metaclass_built_class": Case(
        {"m.py": dedent("""
            class QuerySet:
                def filter(self, **kw):
                    return self
            class BaseManager:
                @classmethod
                def from_queryset(cls, queryset_class, class_name=None):
                    return type(class_name, (cls,), {})
            class Manager(BaseManager.from_queryset(QuerySet)):
                pass
            class Builder(type):
                def _prepare(cls):
                    setattr(cls, "objects", Manager())
            class Model(metaclass=Builder):
                pass
            class Book(Model):
                pass
            def use():
                Book.objects.filter(a=1)
        """)},
        expect={("m.use", "m.QuerySet.filter", RULE)},
    ),
}


_GUESSES = {"same_file_name", "unique_name", "ambiguous_name"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_python_metaclass(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


def test_what_a_metaclass_does_not_set_is_bound_by_no_rule(tmp_path):
    g = index_graph(tmp_path, CASES["what_a_metaclass_does_not_set_stays_unbound"].files)
    for callee in ("m.Manager.filter", "m.QuerySet.filter", "m.Options.get_field"):
        assert g.resolutions("m.use", callee) <= _GUESSES, callee
