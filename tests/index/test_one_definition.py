"""One name, one definition: ``@overload`` signatures and redefinitions answer the code that runs,
and a directory without ``__init__.py`` inside a package is a namespace portion of that package."""

from __future__ import annotations

from tests.index.flow_helpers import index_graph

OVERLOADS = {
    "m.py": (
        "from typing import overload\n\n\n"
        "class Group:\n"
        "    @overload\n"
        "    def command(self, name: str) -> int: ...\n"
        "    @overload\n"
        "    def command(self) -> int: ...\n"
        "    def command(self, name=None):\n"
        "        return 1\n\n\n"
        "def use(g):\n"
        "    g.command('x')\n\n\n"
        "def typed(g: Group):\n"
        "    g.command()\n"
    ),
}


def _lines(graph, caller):
    return sorted(r["callee_line"] for r in graph.callee_rows
                  if r["caller"] == caller and r["callee"] == "m.Group.command")


def test_overloads_answer_the_implementation(tmp_path):
    g = index_graph(tmp_path, OVERLOADS)
    # the receiver's type is unknown: a name guess, but one candidate (the implementation), not three
    assert _lines(g, "m.use") == [9]
    assert _lines(g, "m.typed") == [9]


def test_namespace_portion_inside_a_package(tmp_path):
    g = index_graph(tmp_path, {
        "src/pkg/__init__.py": "",
        "src/pkg/sansio/app.py": "class App:\n    def run(self):\n        pass\n",
        "src/pkg/app.py": "from .sansio.app import App\n\n\nclass Flask(App):\n    def go(self):\n        self.run()\n",
    })
    assert g.has("pkg.app.Flask.go", "pkg.sansio.app.App.run", "self_method")


def test_wrapped_annotations_name_their_class(tmp_path):
    """``t.Optional[Command]`` (typing imported under another name) types the value as ``Command``:
    never an invented ``typing.Optional.to_info_dict``."""
    g = index_graph(tmp_path, {"m.py": (
        "import typing as t\n\n\n"
        "class Command:\n    def to_info_dict(self):\n        return {}\n\n\n"
        "class Group:\n"
        "    def get_command(self) -> t.Optional[Command]:\n        return None\n\n"
        "    def info(self):\n        return self.get_command().to_info_dict()\n\n"
        "    def info2(self, cmd: t.Union[None, Command]):\n        return cmd.to_info_dict()\n"
    )})
    assert g.has("m.Group.info", "m.Command.to_info_dict", "rule")
    assert g.has("m.Group.info2", "m.Command.to_info_dict", "rule")
    assert not any("Optional" in callee or "Union" in callee for _, callee, _ in g.triples)


def test_a_union_of_classes_names_no_class(tmp_path):
    """``-> t.Union[Command, Callable[...]]`` (click's ``command``) may return either: a call of what it
    returns is not ``Command.__call__``."""
    g = index_graph(tmp_path, {"m.py": (
        "import typing as t\n\n\n"
        "class Command:\n    def __call__(self, *a):\n        return 1\n\n\n"
        "def command(name=None) -> t.Union[Command, t.Callable[[t.Any], Command]]:\n"
        "    def deco(f):\n        return Command()\n    return deco\n\n\n"
        "@command()\ndef hello():\n    pass\n"
    )})
    assert not any(callee == "m.Command.__call__" for _, callee, _ in g.triples)


def test_a_base_constructor_never_runs_a_subclass_init(tmp_path):
    """click's ``FloatParamType()`` has no ``__init__``; its subclass ``FloatRange`` has one: the call
    is not ``FloatRange.__init__``."""
    g = index_graph(tmp_path, {"m.py": (
        "class ParamType:\n    pass\n\n\n"
        "class FloatParamType(ParamType):\n    def convert(self, v):\n        return float(v)\n\n\n"
        "class FloatRange(FloatParamType):\n    def __init__(self, lo=None):\n        self.lo = lo\n\n\n"
        "FLOAT = FloatParamType()\n"
    )})
    assert not any(callee == "m.FloatRange.__init__" for _, callee, _ in g.triples)
