"""The Python extractor reads the names of an all-ASCII file as slices of its text and those of any other
file from the nodes: both paths must give the same records."""

from __future__ import annotations

import dataclasses

from lore.languages.python import _parser as P
from lore.languages.python._expr import call_args, dotted, text, value_path
from lore.parsers import _ts

SRC = b'''"""Doc."""
import os.path as osp
from .. import sibling as sib

HANDLERS = {"a": run, "b": [make, sib.other]}
first, *rest = osp.join, HANDLERS["a"], HANDLERS["b"][1]


@register
@factory(name="x", cb=lambda v: v.strip())
class Service(Base, mixins.Mixin, metaclass=Meta):
    client_class = Client
    timeout: int = 3

    def __init__(self, session: "Session", *args: int, retries: int = 2, hook=default_hook, **kw) -> None:
        self.session = session or make_session()
        self.cache, self.log = Cache(), logging.getLogger(__name__)
        self.items[0].flush(*args, key=self.key, **kw)

    def run(self, data: dict[str, Result] | None = None) -> list[Result]:
        with self.lock as held, open(osp.join("a", "b")) as fh:
            fh.write(data["k"].value)
        for h in [self.a, self.b]:
            h()
        for row in self.session.query(Model).filter(pk__in=ids).order_by("-pk"):
            yield row
        try:
            isinstance(data, (tuple, mixins.Seq))
        except (ValueError, errors.Bad) as exc:
            raise errors.Wrapped
        d = {}
        d.update({"x": self.run})
        return super().run(  # a comment among the arguments
            data,
        ) if data else None
'''


def _records(pf):
    return {f.name: getattr(pf, f.name) for f in dataclasses.fields(pf) if f.name not in ("symbols",)}


def test_an_ascii_file_and_the_same_file_with_one_non_ascii_byte_give_the_same_records():
    ascii_pf = P.parse("pkg/svc.py", SRC, "pkg.svc")
    other = SRC + "# café\n".encode()  # one more line at the end: nothing before it moves
    assert not other.isascii()
    other_pf = P.parse("pkg/svc.py", other, "pkg.svc")
    assert ascii_pf.calls and ascii_pf.bindings and ascii_pf.type_refs  # the sample exercises every path
    assert _records(ascii_pf) == _records(other_pf)
    assert ascii_pf.symbols[1:] == other_pf.symbols[1:]
    assert ascii_pf.symbols[0].end_line + 1 == other_pf.symbols[0].end_line


def test_expression_helpers_agree_with_and_without_the_file_text():
    tree = _ts.parse("python", SRC)
    src = SRC.decode("ascii")
    stack = [tree.root_node]
    seen = 0
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        assert dotted(node, src) == dotted(node)
        assert value_path(node, src) == value_path(node)
        assert text(node, src) == text(node)
        if node.type == "argument_list":
            assert call_args(node, src) == call_args(node)
            seen += 1
    assert seen > 10
