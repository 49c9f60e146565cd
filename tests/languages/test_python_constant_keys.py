"""Python: a container literal read with a name bound once to an int or str literal as its key
(``handlers[KEY]()``) gives the slot that key selects, as a literal key does; where the key or the
container may change, every slot, as before (issue 34: PyCG's ``lists/ext_index``). A parameter read
as a key takes the constants its callers pass, when every call of the function is seen and each passes
a constant (PyCG's ``lists/param_index``); otherwise every slot.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from tests.index.flow_helpers import RULE, Case, check, index_graph

FUNCS = dedent("""
    def f1(): pass
    def f2(): pass
    def f3(): pass
""")

CASES: dict[str, Case] = {
    "a_module_constant_int_key_of_a_list": Case(
        {"m.py": FUNCS + "KEY = 1\nls = [f1, f2]\nls[KEY]()\n"},
        expect={("m", "m.f2", RULE)}, forbid={("m", "m.f1")},
    ),
    "a_str_key_of_a_dict_read_in_a_function": Case(
        {"m.py": FUNCS + dedent("""
            MODE = "b"
            table = {"a": f1, "b": f2, "c": f3}
            def run():
                table[MODE]()
        """)},
        expect={("m.run", "m.f2", RULE)}, forbid={("m.run", "m.f1"), ("m.run", "m.f3")},
    ),
    "a_local_constant_key": Case(
        {"m.py": FUNCS + dedent("""
            def run():
                k = 0
                handlers = (f1, f2)
                handlers[k]()
        """)},
        expect={("m.run", "m.f1", RULE)}, forbid={("m.run", "m.f2")},
    ),
    "a_key_imported_from_another_module": Case(
        {"ext.py": "key = 1\n", "m.py": "from ext import key\n" + FUNCS + "ls = [f1, f2]\nls[key]()\n"},
        expect={("m", "m.f2", RULE)}, forbid={("m", "m.f1")},
    ),
    "a_local_key_shadows_a_module_constant": Case(
        {"m.py": FUNCS + dedent("""
            k = 0
            ls = [f1, f2]
            def run(x):
                k = x.pick()
                ls[k]()
        """)},
        expect={("m.run", "m.f1", RULE), ("m.run", "m.f2", RULE)},
    ),
    "a_parameter_every_caller_passes_one_constant": Case(
        {"m.py": FUNCS + "ls = [f1, f2]\ndef func1(key):\n    ls[key]()\nfunc1(1)\n"},
        expect={("m.func1", "m.f2", RULE)}, forbid={("m.func1", "m.f1")},
    ),
    "a_function_stored_in_the_list_it_reads_called_through_it_with_nothing": Case(  # PyCG's lists/param_index
        {"m.py": "def func2():\n    pass\ndef func1(key):\n    ls[key]()\nls = [func1, func2]\nfunc1(1)\n"},
        expect={("m.func1", "m.func2", RULE)}, forbid={("m.func1", "m.func1")},
    ),
    "callers_passing_several_constants_read_the_union_of_their_slots": Case(
        {"m.py": FUNCS + dedent("""
            table = {"a": f1, "b": f2, "c": f3}
            def run(k):
                table[k]()
            run("a")
            run(k="b")
        """)},
        expect={("m.run", "m.f1", RULE), ("m.run", "m.f2", RULE)}, forbid={("m.run", "m.f3")},
    ),
    "a_constant_name_passed_from_another_module_and_along_a_chain": Case(
        {"m.py": FUNCS + dedent("""
            ls = [f1, f2, f3]
            def run(k):
                ls[k]()
            def outer(j):
                run(j)
        """), "ext.py": "from m import outer\nTWO = 2\nouter(TWO)\n"},
        expect={("m.run", "m.f3", RULE)}, forbid={("m.run", "m.f1"), ("m.run", "m.f2")},
    ),
    "an_omitted_parameter_takes_its_literal_default": Case(
        {"m.py": FUNCS + dedent("""
            ls = [f1, f2]
            def run(cb, k=1):
                cb()
                ls[k]()
            run(f3)
        """)},
        expect={("m.run", "m.f2", RULE)}, forbid={("m.run", "m.f1")},
    ),
    "a_function_imported_under_another_name_reads_every_slot": Case(
        {"m.py": FUNCS + "ls = [f1, f2]\ndef run(k):\n    ls[k]()\nrun(1)\n",
         "ext.py": "from m import run as go\ngo(0)\n"},
        expect={("m.run", "m.f1", RULE), ("m.run", "m.f2", RULE)},
    ),
}

# must stay: every slot, because the key or the container may change
KEPT: dict[str, str] = {
    "a_key_reassigned_in_a_loop": dedent("""
        k = 0
        ls = [f1, f2]
        for x in range(2):
            ls[k]()
            k = 1
    """),
    "a_key_reassigned_in_a_branch": dedent("""
        k = 0
        ls = [f1, f2]
        if input():
            k = 1
        ls[k]()
    """),
    "a_key_augmented": dedent("""
        k = 0
        ls = [f1, f2]
        while True:
            ls[k]()
            k += 1
    """),
    "a_key_rebound_by_global": dedent("""
        k = 0
        ls = [f1, f2]
        def bump():
            global k
            k = 1
        ls[k]()
    """),
    "a_key_from_a_loop": dedent("""
        ls = [f1, f2]
        for k in (0, 1):
            ls[k]()
    """),
    "a_key_from_a_parameter_a_caller_passes_an_unknown_value": dedent("""
        ls = [f1, f2]
        def run(k=0):
            ls[k]()
        run(1)
        for n in range(2):
            run(n)
    """),
    "a_key_from_a_parameter_of_a_function_also_passed_as_a_callback": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        register(run)
    """),
    "a_key_from_a_parameter_of_a_function_stored_in_a_container_called_with_an_argument": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        hooks = {"r": run}
        hooks["r"](0)
    """),
    "a_key_from_a_parameter_of_a_function_stored_in_a_container_read_by_a_method": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        hooks = {"r": run}
        hooks.get("r")(0)
    """),
    "a_key_from_a_parameter_of_a_function_stored_in_a_container_passed_on": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        hooks = [run]
        register(hooks)
    """),
    "a_key_from_a_parameter_reassigned_in_the_body": dedent("""
        ls = [f1, f2]
        def run(k):
            k = k - 1
            ls[k]()
        run(1)
    """),
    "a_key_from_a_parameter_the_container_mutated": dedent("""
        ls = [f1]
        ls.append(f2)
        def run(k):
            ls[k]()
        run(0)
    """),
    "a_key_from_a_parameter_a_default_that_is_not_a_constant": dedent("""
        ls = [f1, f2]
        def run(cb, k=len(ls) - 1):
            cb()
            ls[k]()
        run(f3)
    """),
    "a_key_from_a_parameter_a_call_with_star_args": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        run(*sys.argv)
    """),
    "a_key_from_a_parameter_of_a_decorated_function": dedent("""
        ls = [f1, f2]
        def deco(fn):
            return fn
        @deco
        def run(k):
            ls[k]()
        run(1)
    """),
    "a_key_from_a_parameter_a_call_of_the_name_bound_to_nothing": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        def other(obj):
            obj.run(0)
    """),
    "a_key_from_a_parameter_a_call_with_an_expression": dedent("""
        ls = [f1, f2]
        def run(k):
            ls[k]()
        run(1)
        run(2 - 2)
    """),
    "a_container_appended_to": dedent("""
        k = 0
        ls = [f1]
        ls.append(f2)
        ls.insert(0, f2)
        ls[k]()
    """),
    "a_slot_assigned_with_an_unknown_key": dedent("""
        k = "a"
        d = {"a": f1}
        def fill(name):
            d[name] = f2
        d[k]()
    """),
    "a_slot_assigned_in_another_function": dedent("""
        k = "a"
        d = {"a": f1}
        def fill():
            d["a"] = f2
        fill()
        d[k]()
    """),
    "a_container_grown_with_plus_equals": dedent("""
        k = 1
        ls = [f1]
        ls += [f2]
        ls[k]()
    """),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_constant_keys_select_one_slot(tmp_path, name):
    check(index_graph(tmp_path, CASES[name].files), CASES[name])


@pytest.mark.parametrize("name", sorted(KEPT))
def test_keys_that_may_change_read_any_slot(tmp_path, name):
    """The name-keyed read binds what a read with a key nothing is known of binds (``d[*]``)."""
    source = KEPT[name]
    keyed = index_graph(tmp_path / "keyed", {"m.py": FUNCS + source})
    read = "ls[k]()" if "ls[k]()" in source else "d[k]()"
    unknown = index_graph(tmp_path / "unknown", {"m.py": FUNCS + source.replace(read, read.replace("[k]", "[pick()]"))})
    targets = {(a, b) for a, b, r in keyed.triples if b in ("m.f1", "m.f2") and r not in ("same_file_name", "unique_name")}
    assert targets and targets == {(a, b) for a, b, r in unknown.triples if b in ("m.f1", "m.f2")
                                   and r not in ("same_file_name", "unique_name")}


def test_a_refresh_follows_the_constant_a_caller_elsewhere_now_passes(tmp_path):
    """Only ``ext.py`` changes; ``m.run`` reads another slot, so ``m.py`` resolves again (flow digest)."""
    import sqlite3

    from lore.index.indexer import index_repo

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text(FUNCS + "ls = [f1, f2]\ndef run(k):\n    ls[k]()\n")
    (repo / "ext.py").write_text("from m import run\nrun(1)\n")
    db = tmp_path / "index.db"

    def targets() -> set[str]:
        conn = sqlite3.connect(db)
        try:
            return {r[0] for r in conn.execute(
                "SELECT b.qualified_name FROM symbol_refs r JOIN symbols a ON a.id = r.caller_id "
                "JOIN symbols b ON b.id = r.callee_id WHERE a.qualified_name = 'm.run'")}
        finally:
            conn.close()

    index_repo(repo, db=db, workers=1)
    assert targets() == {"m.f2"}
    (repo / "ext.py").write_text("from m import run\nrun(0)\n")
    index_repo(repo, db=db, workers=1)
    assert targets() == {"m.f1"}
