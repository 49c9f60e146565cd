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
    # Django's Field.__init__: ``widget() if isinstance(widget, type) else copy.deepcopy(widget)``. The else
    # holds no class; had it kept the eleven classes, ``self.widget`` would hold each twice (the class and
    # its instance), past the union's cap, and ``self.widget.decompress`` was lost
    "the_else_of_isinstance_type_holds_no_class": Case(
        {"w.py": "".join(f"class W{i}:\n    def render(self): pass\n" for i in range(10))
         + "class Split:\n    def decompress(self, v): pass\n",
         "f.py": "import copy\nfrom w import Split, " + ", ".join(f"W{i}" for i in range(10)) + dedent("""
            class Field:
                widget = W0
                def __init__(self, widget=None):
                    widget = widget or self.widget
                    if isinstance(widget, type):
                        widget = widget()
                    else:
                        widget = copy.deepcopy(widget)
                    self.widget = widget
            class Multi(Field):
                def clean(self, value):
                    return self.widget.decompress(value)
            class SplitField(Multi):
                widget = Split
        """) + "".join(f"class F{i}(Field):\n    widget = W{i}\n" for i in range(1, 10))
         + "F1(widget=W2)\nBoolean = Field(widget=W3)\n"},
        expect={("f.Multi.clean", "w.Split.decompress", RULE)},
    ),
    "the_else_of_isinstance_type_keeps_the_instances": Case(
        {"m.py": CLASSES + dedent("""
            def pick(x):
                if isinstance(x, type):
                    return None
                else:
                    x.run()
            pick(A)
            pick(B())
        """)},
        expect={("m.pick", "m.B.run", RULE)},
        forbid={("m.pick", "m.A.run")},
    ),
    "the_branch_of_not_isinstance_type_keeps_the_instances": Case(
        {"m.py": CLASSES + dedent("""
            def pick(x):
                if not isinstance(x, type):
                    x.run()
            pick(A)
            pick(B())
        """)},
        expect={("m.pick", "m.B.run", RULE)},
        forbid={("m.pick", "m.A.run")},
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

# must stay unbound by any rule: the else of ``isinstance(x, type)`` where every value known is a class
UNBOUND = {
    "only_classes_reach_the_else": {"m.py": CLASSES + dedent("""
        def pick(x):
            if isinstance(x, type):
                return x()
            else:
                x.run()
        pick(A)
    """)},
}


@pytest.mark.parametrize("name", sorted(UNBOUND))
def test_the_else_of_isinstance_type_binds_no_class(tmp_path, name):
    g = index_graph(tmp_path, UNBOUND[name])  # (a guess by name, marked as one, may still bind it)
    assert not g.has("m.pick", "m.A.run", RULE) and not g.has("m.pick", "m.B.run", RULE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_classes_as_values(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


@pytest.mark.parametrize("name", sorted(KEPT))
def test_classes_as_values_keep_type_without_a_class(tmp_path, name):
    files, caller, callee = KEPT[name]
    assert index_graph(tmp_path, files).has(caller, callee, "builtin")
