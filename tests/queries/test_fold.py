"""One row per definition: ``.pyi`` stubs, ``@overload`` copies and header prototypes fold into the implementation.

The fixture's seed ``Canvas.draw`` has neighbours defined three or four times each (``scale``: two
``@overload`` signatures, the implementation and a stub; ``render`` and ``prepare``: the implementation
and a stub), so every algorithm's list would repeat them without the fold.
"""

from __future__ import annotations

from collections import Counter

import pytest

from lore import index_repo, lore_graph, open_index
from lore.graphs._fold import fold_groups
from lore.store import read

from ..conftest import write_tree

ALGORITHMS = ("hybrid", "overlap", "fusion", "pagerank", "pagerank_push", "cluster")

FILES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": '''
        from typing import overload


        class Canvas:
            def draw(self, item):
                return self.render(item) + self.scale(2)

            def render(self, item):
                return prepare(item)

            @overload
            def scale(self, factor: int) -> int: ...
            @overload
            def scale(self, factor: float) -> float: ...
            def scale(self, factor):
                return self.render(factor) * factor


        def prepare(item):
            return item


        def paint(canvas):
            return canvas.draw(prepare(canvas))
        ''',
    "pkg/shapes.pyi": '''
        from typing import overload

        class Canvas:
            def draw(self, item: object) -> int: ...
            def render(self, item: object) -> int: ...
            @overload
            def scale(self, factor: int) -> int: ...
            @overload
            def scale(self, factor: float) -> float: ...

        def prepare(item: object) -> object: ...
        def paint(canvas: Canvas) -> int: ...
        ''',
    # a compiled module: only its stub is indexed, and the stub stands for it
    "pkg/_native.pyi": '''
        from pkg.shapes import Canvas

        def fast_paint(canvas: Canvas) -> int: ...
        def fast_draw(canvas: Canvas) -> int: ...
        ''',
    "cfx/list.h": "int list_len(int *xs);\nint list_sum(int *xs);\n",
    "cfx/list.c": '#include "list.h"\nint list_len(int *xs) { return xs[0]; }\n'
                  "int list_sum(int *xs) { return list_len(xs) + xs[1]; }\n"
                  "int list_max(int *xs) { return list_len(xs) * list_sum(xs); }\n",
    "cpp/shape.hpp": "class Shape {\npublic:\n  int area();\n  int grow(int k);\n};\nint total(Shape *s);\n",
    "cpp/shape.cpp": '#include "shape.hpp"\nint Shape::area() { return 1; }\nint Shape::grow(int k) { return area() * k; }\n'
                     "int total(Shape *s) { return s->area() + s->grow(2); }\n",
    "web/hello.d.ts": "export declare function greet(n: string): string;\nexport declare function wave(n: string): string;\n",
    "web/hello.ts": "export function greet(n: string): string { return n; }\n"
                    "export function wave(n: string): string { return greet(n); }\n"
                    "export function both(n: string): string { return greet(n) + wave(n); }\n",
}


@pytest.fixture(scope="module")
def fold_index(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("fold"), FILES)
    index_repo(root, workers=1)
    idx = open_index(root)
    yield idx
    idx.close()


def _ids(idx, qname: str) -> list[tuple[int, str, int]]:
    """(id, path, line) of every symbol called ``qname``, by id."""
    got = read.symbols_by_ids(idx.conn, read.symbol_ids_by_qname(idx.conn, qname))
    return sorted((sid, r.path, r.line) for sid, r in got.items())


def _implementation(idx, qname: str) -> int:
    return next(sid for sid, path, line in _ids(idx, qname) if path.endswith(".py") and
                "@overload" not in _source_line(idx, path, line))


def _source_line(idx, path: str, line: int) -> str:
    root = idx.stats()["root"]
    with open(f"{root}/{path}", encoding="utf-8") as fh:
        return fh.read().splitlines()[line - 1]


def test_the_fixture_holds_copies(fold_index):
    assert len(_ids(fold_index, "pkg.shapes.Canvas.scale")) == 5  # 2 overloads + implementation, 2 in the stub
    assert len(_ids(fold_index, "pkg.shapes.Canvas.render")) == 2
    assert len(_ids(fold_index, "cfx.list.list_len")) == 2  # prototype and definition


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_list_shows_a_definition_once(fold_index, algorithm):
    seed = _implementation(fold_index, "pkg.shapes.Canvas.draw")
    out = lore_graph(fold_index, kind="related", source_id=seed, algorithm=algorithm, limit=20)
    names = [r["qualified_name"] for r in out["results"]]
    assert names, "the seed has neighbours"
    assert Counter(names).most_common(1)[0][1] == 1, names
    assert "pkg.shapes.Canvas.draw" not in names  # the seed's own stub never appears
    by_name = {r["qualified_name"]: r for r in out["results"]}
    for qname in ("pkg.shapes.Canvas.scale", "pkg.shapes.Canvas.render"):
        if qname in by_name:  # the implementation's row, with every other copy's place
            row = by_name[qname]
            assert row["id"] == _implementation(fold_index, qname)
            others = [f"{p}:{ln}" for sid, p, ln in _ids(fold_index, qname) if sid != row["id"]]
            assert row["also_at"] == others


def test_scale_is_one_row_with_its_overloads_and_stubs(fold_index):
    seed = _implementation(fold_index, "pkg.shapes.Canvas.draw")
    rows = lore_graph(fold_index, kind="related", source_id=seed, limit=20)["results"]
    scale = [r for r in rows if r["name"] == "scale"]
    assert len(scale) == 1
    assert scale[0]["path"] == "pkg/shapes.py" and scale[0]["also_at"] == [
        "pkg/shapes.py:11", "pkg/shapes.py:13", "pkg/shapes.pyi:6", "pkg/shapes.pyi:8"]


@pytest.mark.parametrize("algorithm", ("hybrid", "overlap", "cluster"))
def test_a_seed_named_by_its_stub_means_the_implementation(fold_index, algorithm):
    impl = _implementation(fold_index, "pkg.shapes.Canvas.draw")
    stub = next(sid for sid, path, _ in _ids(fold_index, "pkg.shapes.Canvas.draw") if path.endswith(".pyi"))
    by_stub = lore_graph(fold_index, kind="related", source_id=stub, algorithm=algorithm, limit=20)["results"]
    by_impl = lore_graph(fold_index, kind="related", source_id=impl, algorithm=algorithm, limit=20)["results"]
    assert by_stub == by_impl
    assert impl not in [r["id"] for r in by_stub]


def test_a_stub_without_implementation_stands_for_it(fold_index):
    (sid, path, _line), = _ids(fold_index, "pkg._native.fast_paint")
    assert path == "pkg/_native.pyi"
    rows = lore_graph(fold_index, kind="related", source_id=sid, limit=20)["results"]
    assert [r["id"] for r in rows if r["name"] == "fast_draw"] == [_ids(fold_index, "pkg._native.fast_draw")[0][0]]
    names = [r["qualified_name"] for r in rows]
    assert "pkg.shapes.paint" in names and Counter(names).most_common(1)[0][1] == 1, names


def test_a_header_prototype_folds_into_its_definition(fold_index):
    seed = _ids(fold_index, "cfx.list.list_max")[0][0]
    rows = lore_graph(fold_index, kind="related", source_id=seed, limit=20)["results"]
    names = [r["qualified_name"] for r in rows]
    assert names.count("cfx.list.list_len") == 1 and names.count("cfx.list.list_sum") == 1, names
    row = next(r for r in rows if r["qualified_name"] == "cfx.list.list_len")
    assert row["path"] == "cfx/list.c" and row["also_at"] == ["cfx/list.h:1"]


def test_show_names_the_implementation_of_a_stub(fold_index):
    stub = next(sid for sid, path, _ in _ids(fold_index, "pkg.shapes.Canvas.render") if path.endswith(".pyi"))
    shown = fold_index.symbol(stub)
    assert shown["id"] == _implementation(fold_index, "pkg.shapes.Canvas.render")
    assert shown["path"] == "pkg/shapes.py" and shown["shown_for"] == stub
    assert shown["also_at"] == ["pkg/shapes.pyi:5"]
    overload = _ids(fold_index, "pkg.shapes.Canvas.scale")[0][0]
    assert fold_index.symbol(overload)["signature"].startswith("def scale(self, factor)")


def test_two_implementation_files_of_one_name_stay_apart():
    rows = [(1, 10, "function", 1, 2, "a/main.py", "main"), (2, 20, "function", 1, 2, "b/main.py", "main"),
            (3, 10, "function", 4, 5, "a/main.py", "main")]
    # within a file the last definition stands for the others (it is the one that runs)
    assert fold_groups(rows, []) == ({1: 3}, {3: ["a/main.py:1"]})


def test_compact_rows_keep_the_other_places(fold_index):
    seed = _implementation(fold_index, "pkg.shapes.Canvas.draw")
    rows = lore_graph(fold_index, kind="related", source_id=seed, limit=20, compact=True)["results"]
    scale = [r for r in rows if r["qualified_name"] == "pkg.shapes.Canvas.scale"]
    assert len(scale) == 1 and len(scale[0]["also_at"]) == 4


def test_cpp_methods_fold_into_the_source_and_the_class_into_the_header(fold_index):
    seed = _ids(fold_index, "cpp.shape.total")[0][0]
    rows = {r["qualified_name"]: r for r in lore_graph(fold_index, kind="related", source_id=seed, limit=20)["results"]}
    assert (rows["cpp.shape.Shape.grow"]["path"], rows["cpp.shape.Shape.grow"]["also_at"]) == ("cpp/shape.cpp",
                                                                                               ["cpp/shape.hpp:4"])
    assert (rows["cpp.shape.Shape"]["path"], rows["cpp.shape.Shape"]["also_at"]) == ("cpp/shape.hpp", ["cpp/shape.cpp:2"])


def test_a_declaration_file_folds_into_its_typescript_source(fold_index):
    seed = _ids(fold_index, "web.hello.both")[0][0]
    rows = lore_graph(fold_index, kind="related", source_id=seed, limit=20)["results"]
    assert sorted((r["qualified_name"], r["path"], tuple(r.get("also_at", ()))) for r in rows) == [
        ("web.hello.greet", "web/hello.ts", ("web/hello.d.ts:1",)), ("web.hello.wave", "web/hello.ts", ("web/hello.d.ts:2",))]


def test_the_terminal_row_names_the_other_places(fold_index):
    from lore.cli._format import fitted_lines

    seed = _implementation(fold_index, "pkg.shapes.Canvas.draw")
    out = lore_graph(fold_index, kind="related", source_id=seed, limit=20)
    text = "\n".join(fitted_lines(out, cols=200))
    assert "also at pkg/shapes.py:11, 13; pkg/shapes.pyi:6, 8" in text, text
