"""Containers annotated with their element types: what a loop, an index, ``get`` or ``pop`` gives is an element.

``for line in self._lines`` with ``self._lines: list[Text]`` binds ``line.rstrip()`` to ``Text.rstrip``;
a mapping's loop gives its keys, ``.values()`` / ``[k]`` / ``.get(k)`` its values. What must stay as it
was: a tuple of positions is no container of one type, a repository class with type arguments is
that class, and the calls on the container itself are the external methods they always were.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

CLASSES = "class Text:\n    def rstrip(self): pass\nclass Node:\n    def visit(self): pass\n"

CASES: dict[str, Case] = {
    "a_loop_over_an_attribute_annotated_in_init": Case(
        {"m.py": CLASSES + dedent("""
            from typing import List
            class Lines:
                def __init__(self, lines):
                    self._lines: List["Text"] = list(lines)
                def run(self):
                    for line in self._lines:
                        line.rstrip()
        """)},
        expect={("m.Lines.run", "m.Text.rstrip", "annotated_type")},
    ),
    "a_loop_over_what_a_method_returns": Case(
        {"m.py": CLASSES + dedent("""
            class Command:
                def get_params(self) -> "list[Node]":
                    return []
            def usage(cmd: Command):
                for param in cmd.get_params():
                    param.visit()
        """)},
        expect={("m.usage", "m.Node.visit", RULE)},
    ),
    "index_pop_and_an_optional_container": Case(
        {"m.py": CLASSES + dedent("""
            import typing as t
            def first(xs: t.Optional[t.Sequence[Text]], i: int):
                xs[0].rstrip()
                xs[i].rstrip()
                last = xs[-1]
                last.rstrip()
            def take(stack: list[Node] | None):
                stack.pop().visit()
        """)},
        expect={("m.first", "m.Text.rstrip", RULE), ("m.take", "m.Node.visit", RULE)},
    ),
    "a_mapping_gives_keys_to_a_loop_and_values_otherwise": Case(
        {"m.py": CLASSES + dedent("""
            from typing import Dict
            def walk(nodes: Dict[Text, Node]):
                for key in nodes:
                    key.rstrip()
                for n in nodes.values():
                    n.visit()
                nodes.get("a").visit()
                nodes["b"].visit()
        """)},
        expect={("m.walk", "m.Text.rstrip", RULE), ("m.walk", "m.Node.visit", RULE)},
        forbid={("m.walk", "m.Text.visit"), ("m.walk", "m.Node.rstrip")},
    ),
    "a_mapping_loop_never_gives_its_values": Case(
        {"m.py": CLASSES + dedent("""
            def walk(nodes: dict[str, Node]):
                for name in nodes:
                    name.visit()
        """)},
        # the keys are str: ``visit`` of a str is nothing of ours, never a guess by name
        forbid={("m.walk", "m.Node.visit")},
    ),
    "a_tuple_of_positions_has_no_one_element_type": Case(
        {"m.py": CLASSES + dedent("""
            def pair(p: tuple[Text, Node]):
                for x in p:
                    x.visit()
            def many(p: tuple[Node, ...]):
                for x in p:
                    x.visit()
        """)},
        expect={("m.many", "m.Node.visit", RULE)},
        forbid={("m.pair", "m.Node.visit")},
    ),
    "a_repository_generic_is_its_own_class": Case(
        {"m.py": CLASSES + dedent("""
            class Bag:
                def pop(self):
                    return Text()
            def use(b: "Bag[Node]"):
                b.pop().rstrip()
        """)},
        # Bag's own pop, and what it returns: never the Node its type argument names
        expect={("m.use", "m.Bag.pop", RULE), ("m.use", "m.Text.rstrip", RULE)},
    ),
    "calls_on_the_container_stay_external": Case(
        {"m.py": CLASSES + dedent("""
            def fill(xs: list[Node], n: Node):
                xs.append(n)
                xs.sort()
        """)},
        expect={("m.fill", "builtins.list.append", "builtin"), ("m.fill", "builtins.list.sort", "builtin")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_typed_containers(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])
