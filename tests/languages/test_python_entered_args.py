"""Python: ``with contextlib.closing(x) as y`` (``nullcontext``, ``aclosing``) makes ``y`` the ``x`` it was
given (issue 34, found on the tuning set of its fifth session: svcs' ``with contextlib.closing(reg) as reg:
reg.register_factory(...)`` lost every call on ``reg``).
"""

from __future__ import annotations

from textwrap import dedent

from tests.index.flow_helpers import RULE, index_graph

REGISTRY = dedent("""
    import contextlib

    class Registry:
        def close(self): pass
        def __enter__(self): return self
        def __exit__(self, *a): pass
        def register(self, x): pass
""")


def test_closing_gives_back_its_argument(tmp_path):
    g = index_graph(tmp_path, {"m.py": REGISTRY + dedent("""
        def use():
            reg = Registry()
            with contextlib.closing(reg) as reg:
                reg.register(1)
            with reg as reg:
                reg.register(2)
            with contextlib.nullcontext(reg) as same:
                same.register(3)
    """)})
    assert g.has("m.use", "m.Registry.register", RULE), sorted(g.triples)
    assert not any(b.startswith("contextlib.") and b.endswith("register") for _a, b, _r in g.triples)


def test_another_manager_still_gives_what_it_enters(tmp_path):
    g = index_graph(tmp_path, {"m.py": REGISTRY + dedent("""
        class Opener:
            def __init__(self, reg): pass
            def __enter__(self): return Other()
            def __exit__(self, *a): pass
        class Other:
            def register(self, x): pass
        def use():
            reg = Registry()
            with Opener(reg) as got:
                got.register(1)
    """)})
    assert g.has("m.use", "m.Other.register", RULE) and not g.has("m.use", "m.Registry.register", RULE)
