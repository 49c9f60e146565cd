"""Python: a value annotated with a type variable (``self.config: config_type``) is an instance of the
variable's bound (``TypeVar("config_type", bound=Config)``), not of ``typing.TypeVar``. A variable with
no bound keeps ``typing.TypeVar``'s members (external: never a guess among the repository's methods). Issue 34, found on the tuning set of its sixth session (``--round7``): sanic's
``app.config.update(...)`` / ``app.config.load(...)`` were bound to ``typing.TypeVar.update`` /
``typing.TypeVar.load``, where ``Sanic.__init__`` sets ``self.config: config_type = cast(...)``.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

BASE = dedent("""
    from typing import Generic, Optional, TypeVar, cast

    class Config:
        def update(self, d): pass
        def load(self, d): pass

    class Context:
        def get(self): pass

    config_type = TypeVar("config_type", bound=Config)
    ctx_type = TypeVar("ctx_type")
    K = TypeVar("K", "Config", "Context")

    class App(Generic[config_type, ctx_type]):
        def __init__(self, config: Optional[config_type] = None, ctx: Optional[ctx_type] = None):
            self.config: config_type = cast(config_type, config or Config())
            self.ctx: ctx_type = cast(ctx_type, ctx or object())
""")

CASES: dict[str, Case] = {
    "an_attribute_typed_by_a_bound_type_variable_is_an_instance_of_the_bound": Case(
        {"m.py": BASE + dedent("""
            def test():
                app = App()
                app.config.update({})
                app.config.load("x")
        """)},
        expect={("m.test", "m.Config.update", RULE), ("m.test", "m.Config.load", RULE)},
        forbid={("m.test", "typing.TypeVar.update"), ("m.test", "typing.TypeVar.load")},
    ),
    "a_parameter_typed_by_a_bound_type_variable": Case(
        {"m.py": BASE + dedent("""
            def test(c: config_type):
                c.update({})
        """)},
        expect={("m.test", "m.Config.update", RULE)}, forbid={("m.test", "typing.TypeVar.update")},
    ),
    "a_bound_imported_from_another_module": Case(
        {"conf.py": dedent("""
            class Config:
                def update(self, d): pass
         """), "m.py": dedent("""
            from typing import TypeVar
            from conf import Config
            C = TypeVar("C", bound=Config)
            def test(c: C):
                c.update({})
        """)},
        expect={("m.test", "conf.Config.update", RULE)}, forbid={("m.test", "typing.TypeVar.update")},
    ),
    # must stay: no bound (or constraints) names no repository class, and never a guess by name
    "an_unbound_type_variable_guesses_no_method": Case(
        {"m.py": BASE + dedent("""
            def test():
                app = App()
                app.ctx.get()
        """)},
        forbid={("m.test", "m.Context.get")},
    ),
    "a_constrained_type_variable_guesses_no_method": Case(
        {"m.py": BASE + dedent("""
            def test(k: K):
                k.get()
        """)},
        forbid={("m.test", "m.Context.get")},
    ),
    # must stay: a self-typed __enter__ (self: T) -> T gives the manager itself, not T's bound (httpx)
    "a_self_typed_enter_gives_the_manager_not_the_bound": Case(
        {"m.py": dedent("""
            from typing import TypeVar
            T = TypeVar("T", bound="Base")
            class Base:
                def __enter__(self: T) -> T:
                    return self
                def __exit__(self, *a): pass
                def send(self): pass
            class Sub(Base):
                def send(self): pass
            def test():
                with Sub() as s:
                    s.send()
        """)},
        expect={("m.test", "m.Sub.send", RULE)}, forbid={("m.test", "m.Base.send")},
    ),
    # must stay: the type arguments of a generic instance still decide
    "a_generic_instance_keeps_its_argument": Case(
        {"m.py": BASE + dedent("""
            class MyConfig(Config):
                def update(self, d): pass
            def test(app: App[MyConfig, Context]):
                app.config.update({})
        """)},
        forbid={("m.test", "typing.TypeVar.update")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_type_variable_annotations(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
