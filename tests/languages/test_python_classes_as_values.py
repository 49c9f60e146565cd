"""Python: a name that holds some class (``cls: type``, ``isinstance(x, type)``) is the class its values
give, not the metaclass ``type``: calling it constructs that class (issue 34: marshmallow's
``schema_class(...)`` under ``isinstance(nested, type)``, attrs' ``cls: type`` parameters).
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

CLASSES = dedent("""
    class A:
        def run(self): pass
    class B:
        def run(self): pass
""")

CASES: dict[str, Case] = {
    "a_parameter_annotated_type_is_the_class_callers_pass": Case(
        {"m.py": CLASSES + dedent("""
            def make(kind: type):
                return kind()
            make(A).run()
        """)},
        expect={("m.make", "m.A", RULE), ("m", "m.A.run", RULE)},
        forbid={("m.make", "builtins.type"), ("m", "m.B.run")},
    ),
    "isinstance_type_keeps_the_classes_the_name_held": Case(
        {"m.py": CLASSES + dedent("""
            def nested(schema):
                if isinstance(schema, type):
                    return schema()
                return schema
            nested(A).run()
            nested(B()).run()
        """)},
        expect={("m.nested", "m.A", RULE), ("m", "m.A.run", RULE), ("m", "m.B.run", RULE)},
        forbid={("m.nested", "builtins.type"), ("m.nested", "m.B")},
    ),
}

# must stay: nothing known of the callers, or no class among the values: ``type`` as before
KEPT: dict[str, tuple[dict[str, str], str, str]] = {
    "no_caller_passes_anything": (
        {"m.py": CLASSES + dedent("""
            def make(kind: type):
                return kind()
        """)}, "m.make", "builtins.type"),
    "isinstance_type_of_values_that_are_no_classes": (
        {"m.py": CLASSES + dedent("""
            def nested(schema):
                if isinstance(schema, type):
                    return schema()
            nested(A())
        """)}, "m.nested", "builtins.type"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_classes_as_values(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


@pytest.mark.parametrize("name", sorted(KEPT))
def test_classes_as_values_keep_type_without_a_class(tmp_path, name):
    files, caller, callee = KEPT[name]
    assert index_graph(tmp_path, files).has(caller, callee, "builtin")
