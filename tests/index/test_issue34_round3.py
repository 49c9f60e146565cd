"""Python rules of issue 34's second session (tuned on sqlparse, toolz, boltons, h11), each with what
must stay unbound.

A dict literal read with a key we cannot read is any of its values: ``{CLIENT: Connection(CLIENT)}``
(a key that is a name) and ``self.conn[role]`` of an attribute holding a literal. A container made as a
literal here (``xs = []``, ``self.xs = []``) holds what ``append`` / ``add`` / ``insert`` put into it:
its elements, read by index or by a loop, are those values. ``await f()`` is what ``f`` gives (an
``async def``'s annotation or returns); ``(a,) = f()`` of ``f -> list[A]`` binds ``a`` to an ``A``.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from .flow_helpers import RULE, Case, check, index_graph

CASES: dict[str, Case] = {
    "a_dict_literal_with_keys_we_cannot_read_is_any_of_its_values": Case(
        {"m.py": dedent("""
            CLIENT = object()
            SERVER = object()
            class Connection:
                def receive_data(self, d):
                    pass
                def next_event(self):
                    pass
            class Other:
                def next_event(self):
                    pass
                def close(self):
                    pass
            class Pair:
                def __init__(self):
                    self.conn = {CLIENT: Connection(CLIENT), SERVER: Connection(SERVER)}
                    self.other = {CLIENT: SERVER, SERVER: CLIENT}
                def go(self, role):
                    self.conn[self.other[role]].receive_data(1)
            def use(who):
                p = Pair()
                sc = p.conn[SERVER]
                sc.next_event()
                p.conn[who].receive_data(2)
                p.conn[who].close()
        """)},
        expect={("m.Pair.go", "m.Connection.receive_data", RULE), ("m.use", "m.Connection.next_event", RULE),
                ("m.use", "m.Connection.receive_data", RULE)},
        forbid={("m.use", "m.Other.next_event"), ("m.use", "m.Other.close")},
    ),
    "an_attribute_holding_a_literal_read_with_any_key_is_any_slot": Case(
        {"m.py": dedent("""
            class A:
                def run(self):
                    pass
            class B:
                def run(self):
                    pass
            class C:
                def run(self):
                    pass
            class Table:
                def __init__(self):
                    self.handlers = {"a": A(), "b": B()}
                    self.names = ["x", "y"]
                def go(self, key):
                    self.handlers[key].run()
                    self.names[key].upper()
            def use(t: Table, key):
                t.handlers[key].run()
        """)},
        expect={("m.Table.go", "m.A.run", RULE), ("m.Table.go", "m.B.run", RULE), ("m.use", "m.A.run", RULE),
                ("m.use", "m.B.run", RULE)},
        forbid={("m.Table.go", "m.C.run"), ("m.use", "m.C.run")},
    ),
    "a_list_filled_by_append_holds_what_was_appended": Case(
        {"m.py": dedent("""
            class A:
                def run(self):
                    pass
            class B:
                def run(self):
                    pass
                def stop(self):
                    pass
            class Holder:
                def __init__(self):
                    self.items = []
                    self.seen = set()
                def add(self, a: A):
                    self.items.append(a)
                def go(self):
                    for x in self.items:
                        x.run()
                    self.items[0].run()
            def local(other):
                xs = []
                xs.append(A())
                xs[0].run()
                for x in xs:
                    x.run()
                zs = []
                zs.insert(0, B())
                zs[-1].stop()
            def attr(h: Holder):
                h.items[0].run()
        """)},
        expect={("m.Holder.go", "m.A.run", RULE), ("m.local", "m.A.run", RULE), ("m.attr", "m.A.run", RULE),
                ("m.local", "m.B.stop", RULE)},
        forbid={("m.Holder.go", "m.B.run"), ("m.local", "m.B.run"), ("m.attr", "m.B.run")},
    ),
    "a_loop_over_a_dict_reads_its_keys_not_its_values": Case(
        {"m.py": dedent("""
            class A:
                def run(self):
                    pass
            class Table:
                def __init__(self):
                    self.handlers = {"a": A()}
                    self.runners = [A()]
                def go(self):
                    for k in self.handlers:
                        k.run()
                    for r in self.runners:
                        r.run()
            def local():
                d = {"a": A()}
                for k in d:
                    k.run()
        """)},
        expect={("m.Table.go", "m.A.run", RULE)},
        forbid={("m.local", "m.A.run")},
    ),
    "await_of_a_call_is_what_the_coroutine_gives": Case(
        {"m.py": dedent("""
            class A:
                def run(self):
                    pass
            class B:
                def run(self):
                    pass
            async def make() -> A:
                return A()
            async def make2():
                return A()
            async def forward():
                return await make2()
            async def use():
                s = await make()
                s.run()
                t = await forward()
                t.run()
                (await make()).run()
                for x in await listed():
                    x.run()
            async def listed() -> list[A]:
                return []
        """)},
        expect={("m.use", "m.A.run", RULE)},
        forbid={("m.use", "m.B.run")},
    ),
    "unpacking_a_returned_list_binds_its_elements_and_a_dict_its_keys": Case(
        {"m.py": dedent("""
            from typing import Dict, List
            class Listener:
                def aclose(self):
                    pass
            class Other:
                def aclose(self):
                    pass
            async def open_listeners(port) -> List[Listener]:
                return make()
            def by_name() -> Dict[str, Listener]:
                return make()
            async def use():
                (l1,) = await open_listeners(1)
                await l1.aclose()
            def keys():
                k1, k2 = by_name()
                k1.aclose()
        """)},
        expect={("m.use", "m.Listener.aclose", RULE)},
        forbid={("m.use", "m.Other.aclose"), ("m.keys", "m.Listener.aclose"), ("m.keys", "m.Other.aclose")},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_issue34_round3(tmp_path, name):
    case = CASES[name]
    check(index_graph(tmp_path, case.files), case)
