"""Python: a name an ``if TYPE_CHECKING:`` block imports and its ``else`` block rebinds to a run-time
stand-in (``Builder = Any``) is the imported class in annotations (issue 34, found on the tuning set of
its fifth session: mashumaro's ``spec.builder.get_pack_method_flags()`` was bound to ``typing.Any``).
"""

from __future__ import annotations

from textwrap import dedent

from tests.index.flow_helpers import RULE, Case, check, index_graph

BUILDER = "class Builder:\n    def run(self): pass\nclass Impl:\n    def run(self): pass\n"

STAND_IN = Case(
    {"b.py": BUILDER, "m.py": dedent("""
        from dataclasses import dataclass
        from typing import TYPE_CHECKING, Any
        if TYPE_CHECKING:
            from b import Builder
        else:
            Builder = Any
        @dataclass
        class Spec:
            builder: Builder
        def use(spec: Spec):
            spec.builder.run()
    """)},
    expect={("m.use", "b.Builder.run", RULE)}, forbid={("m.use", "typing.Any.run")},
)


def test_the_type_checking_import_wins_over_its_stand_in(tmp_path):
    check(index_graph(tmp_path, STAND_IN.files), STAND_IN)


def test_an_else_assignment_of_another_name_still_binds(tmp_path):
    g = index_graph(tmp_path, {"b.py": BUILDER, "m.py": dedent("""
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from b import Builder
        else:
            from b import Impl
            Runner = Impl
        def use(r: "Runner"):
            r.run()
    """)})
    assert g.has("m.use", "b.Impl.run", RULE), sorted(g.triples)
