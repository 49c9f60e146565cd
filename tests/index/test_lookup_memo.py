"""The resolver remembers the lookups of a file (a path per scope, a first name per scope, a name in
the scopes further out) once the flow is solved. What it remembers must never stand for a lookup
whose answer depends on the line: a name bound twice in one scope, read on either side of the second
binding, a nested scope that shadows a module name, a binding read from the line it was made on, a
parameter read before the body rebinds it, a use after the branch a binding was made in.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

TWO_CLASSES = "class A:\n    def run(self): pass\nclass B:\n    def run(self): pass\n"

CASES: dict[str, Case] = {
    "the_same_path_on_both_sides_of_a_rebinding": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def main():
                op = A()
                op.run()
                op = B()
                op.run()
                op.run()
        """)},
        expect={("m.main", "m.A.run", RULE), ("m.main", "m.B.run", RULE)},
    ),
    "a_name_bound_once_that_reads_a_rebound_name": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def main():
                op = A()
                x = op
                x.run()
                op = B()
                y = op
                y.run()
                x.run()
        """)},
        # x and y are bound once each, from op as it was on their own lines
        expect={("m.main", "m.A.run", RULE), ("m.main", "m.B.run", RULE)},
    ),
    "a_rebinding_in_one_function_leaves_the_other_alone": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def first():
                op = A()
                op.run()
                op = B()
                op.run()
            def second():
                op = A()
                op.run()
        """)},
        expect={("m.first", "m.A.run", RULE), ("m.first", "m.B.run", RULE), ("m.second", "m.A.run", RULE)},
        forbid={("m.second", "m.B.run")},
    ),
    "an_enclosing_function_shadows_a_module_name": Case(
        {"m.py": """
            def run(): pass
            def plain():
                run()
            def outer():
                def run(): pass
                def inner():
                    run()
                inner()
            def after():
                run()
        """},
        expect={("m.plain", "m.run", RULE), ("m.outer.inner", "m.outer.run", RULE), ("m.after", "m.run", RULE)},
        forbid={("m.outer.inner", "m.run"), ("m.plain", "m.outer.run"), ("m.after", "m.outer.run")},
    ),
    "a_parameter_read_before_the_body_rebinds_it": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def main(op: A):
                op.run()
                op = B()
                op.run()
            def other(op: A):
                op.run()
                op = B()
        """)},
        expect={("m.main", "m.A.run", RULE), ("m.main", "m.B.run", RULE), ("m.other", "m.A.run", RULE)},
        forbid={("m.other", "m.B.run")},
    ),
    "a_binding_that_reads_the_parameter_it_replaces": Case(
        {"m.py": """
            class A:
                def run(self): pass
                def again(self):
                    return A()
            def main(op: A):
                op = op.again()
                op.run()
        """},
        # ``op.again()`` reads the parameter (the binding is not made yet), and the later ``op`` its result
        expect={("m.main", "m.A.again", RULE), ("m.main", "m.A.run", RULE)},
    ),
    "after_a_branch_either_binding": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def maybe(c):
                op = A()
                if c:
                    op = B()
                    op.run()
                op.run()
            def either(c):
                if c:
                    op = A()
                else:
                    op = B()
                op.run()
            def both(c):
                try:
                    op = A()
                except ValueError:
                    op = B()
                op.run()
        """)},
        # Jedi says the same: A.run and B.run after the branch, B.run inside it
        expect={("m.maybe", "m.A.run", RULE), ("m.maybe", "m.B.run", RULE), ("m.either", "m.A.run", RULE),
                ("m.either", "m.B.run", RULE), ("m.both", "m.A.run", RULE), ("m.both", "m.B.run", RULE)},
    ),
    "a_loop_or_a_plain_sequence_keeps_the_last_binding": Case(
        {"m.py": TWO_CLASSES + dedent("""
            def loop(xs):
                op = A()
                for x in xs:
                    op = B()
                op.run()
            def plain():
                op = A()
                op = B()
                op.run()
            def inside(c):
                op = A()
                if c:
                    op = B()
                    op.run()
        """)},
        expect={("m.loop", "m.B.run", RULE), ("m.plain", "m.B.run", RULE), ("m.inside", "m.B.run", RULE)},
        forbid={("m.loop", "m.A.run"), ("m.plain", "m.A.run"), ("m.inside", "m.A.run")},
    ),
    "a_parameter_shadows_a_module_name_in_one_function_only": Case(
        {"m.py": """
            class Job:
                def run(self): pass
            def task(): pass
            def direct():
                task()
            def given(task: Job):
                task.run()
            def again():
                task()
        """},
        expect={("m.direct", "m.task", RULE), ("m.again", "m.task", RULE), ("m.given", "m.Job.run", RULE)},
        forbid={("m.given", "m.task")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_remembered_lookups_keep_their_lines(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
