"""Python: PEP 484's self-type idiom. A method whose receiver is annotated with a type variable
(``cls: Type[T]``, ``self: T``) and that returns ``T`` gives an instance of the class it is called on, and
one returning ``type[T]`` gives that class (issue 34, found on the tuning set of its fifth session:
mashumaro's ``DataClass.from_dict(d).to_dict()``, polyfactory's ``Factory.create_factory(...).build()``
were bound to ``typing.TypeVar``'s attributes).
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

BASE = dedent("""
    from typing import Type, TypeVar

    T = TypeVar("T", bound="Mixin")
    F = TypeVar("F")

    class Mixin:
        @classmethod
        def from_dict(cls: Type[T], d) -> T:
            return cls()
        def to_dict(self): pass
        def me(self: T) -> T:
            return self
        @classmethod
        def make(cls: type[F]) -> type[F]:
            return cls
        def echo(self, x: T) -> T:
            return x

    class Data(Mixin):
        def to_dict(self): pass
        def build(self): pass

    class Other(Mixin):
        def to_dict(self): pass
""")

CASES: dict[str, Case] = {
    "a_classmethod_returning_T_gives_an_instance_of_the_receiver": Case(
        {"m.py": BASE + dedent("""
            def test():
                o = Data.from_dict({})
                o.to_dict()
                Data.from_dict({}).to_dict()
        """)},
        expect={("m.test", "m.Data.to_dict", RULE)},
        forbid={("m.test", "typing.TypeVar.to_dict"), ("m.test", "m.Mixin.to_dict")},
    ),
    "a_classmethod_returning_type_T_gives_the_receiver_class": Case(
        {"m.py": BASE + dedent("""
            def test():
                k = Data.make()
                k().build()
        """)},
        expect={("m.test", "m.Data.build", RULE)}, forbid={("m.test", "typing.TypeVar.build")},
    ),
    "self_typed_T_on_an_instance": Case(
        {"m.py": BASE + dedent("""
            def test():
                Data().me().to_dict()
                Data().from_dict({}).to_dict()
        """)},
        expect={("m.test", "m.Data.to_dict", RULE)}, forbid={("m.test", "m.Mixin.to_dict")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_self_types(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


def test_a_type_variable_of_another_parameter_is_not_the_receiver(tmp_path):
    g = index_graph(tmp_path, {"m.py": BASE + dedent("""
        def test():
            Data().echo(Other()).to_dict()
    """)})
    assert not g.has("m.test", "m.Data.to_dict", RULE), sorted(g.triples)
