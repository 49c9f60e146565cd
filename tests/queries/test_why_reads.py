"""Explanations that read well: each fact once, "nearest" only when near, no builtins, no empty words."""

from __future__ import annotations

import re

import pytest

from lore import index_repo, lore_graph, open_index
from lore.graphs import hybrid as hy
from lore.text.tokens import STOP_WORDS

from ..conftest import write_tree

# functions far apart in one long file (the filler pushes them hundreds of lines apart), two of them
# sharing one real callee besides the builtins every function calls; names and docstrings share "a"
_FILLER = "\n".join(f"SETTING_{k} = {k}" for k in range(400))
FILES = {
    "pkg/__init__.py": "",
    "pkg/checks.py": f'''
        """Checks."""


        def check_a_name(value):
            """Check a name of a record."""
            if isinstance(value, str) and len(value) > 1:
                return normalize(value)
            return None


        {_FILLER}


        def check_a_size(value):
            """Check a size of a record."""
            if isinstance(value, int) and len(str(value)) > 2:
                return normalize(value)
            return None


        def normalize(value):
            """Normalize a value."""
            return value
        ''',
    **{f"pkg/other{i}.py": f'''
        def check_{w}(value):
            """Check the {w} of the record."""
            return value
        ''' for i, w in enumerate(("colour", "weight", "height", "depth", "shape"))},
}


@pytest.fixture(scope="module")
def why_index(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("why"), FILES)
    index_repo(root, workers=1)
    idx = open_index(root)
    yield idx
    idx.close()


def _rows(idx, algorithm: str) -> list[dict]:
    return lore_graph(idx, kind="related", source_id="pkg.checks.check_a_name", algorithm=algorithm, limit=20)["results"]


def test_a_distance_is_said_once():
    items = [{"signal": "line_near", "contribution": 0.2, "detail": {"lines_apart": 506}},
             {"signal": "same_file", "contribution": 0.4},
             {"signal": "line_rank", "contribution": 0.1, "detail": {"lines_apart": 506, "nearest": 2}}]
    _texts, summary = hy.why_texts(items)
    assert summary.count("506") == 1, summary


def test_nearest_only_when_near():
    far = [{"signal": "line_rank", "contribution": 0.1, "detail": {"lines_apart": 6574, "nearest": 1}},
           {"signal": "adjacent", "contribution": 0.1, "detail": {"lines_apart": 6574}}]
    texts, summary = hy.why_texts(far)
    assert "nearest" not in summary and "just before" not in summary and summary == "6574 lines apart"
    assert all("nearest" not in t and "just before" not in t for t in texts)
    near = [{"signal": "line_rank", "contribution": 0.1, "detail": {"lines_apart": 4, "nearest": 2}}]
    assert hy.why_texts(near)[1] == "the 2nd nearest definition in the file (4 lines apart)"
    many = [{"signal": "line_rank", "contribution": 0.1, "detail": {"lines_apart": 40, "nearest": 9}}]
    assert hy.why_texts(many)[1] == "40 lines apart"


def test_one_neighbour_is_singular():
    item = {"signal": "structure", "contribution": 1.0, "detail": {"callees": {"count": 1, "rows": [4]}}}
    assert hy.render(item, {4: "normalize"}.get) == "shares 1 callee (normalize)"


def test_every_summary_says_a_distance_once(why_index):
    rows = _rows(why_index, "hybrid")
    far = next(r for r in rows if r["name"] == "check_a_size")  # the fixture: far apart, and ranked by order too
    assert any(s["signal"] == "line_rank" and s["contribution"] > 0 for s in far["why"]["signals"])
    assert "lines apart" in far["why"]["summary"]
    for row in rows:
        summary = row["why"]["summary"]
        assert summary.count("lines apart") <= 1, summary
        apart = re.search(r"(\d+) lines apart", summary)
        if apart and int(apart.group(1)) > hy.NEAR_LINES:
            assert "nearest" not in summary and "just before" not in summary, summary


@pytest.mark.parametrize("algorithm", ("hybrid", "overlap"))
def test_builtins_are_never_shared_neighbours(why_index, algorithm):
    rows = _rows(why_index, algorithm)
    row = next(r for r in rows if r["name"] == "check_a_size")
    if algorithm == "hybrid":
        text = row["why"]["summary"] + " ".join(s["text"] for s in row["why"]["signals"])
        assert "shares 1 callee (normalize)" in text, text
    else:
        text = " ".join(str(s["name"]) for s in row["why"]["shared"])
        assert "pkg.checks.normalize" in text, text
    for builtin in ("isinstance", "len", "str", "int"):
        assert not re.search(rf"\b{builtin}\b", text), text


def test_shared_words_say_something(why_index):
    seen = []
    for row in _rows(why_index, "hybrid"):
        for s in row["why"]["signals"]:
            for prefix in ("name tokens ", "shares words "):
                if s["text"].startswith(prefix):
                    seen += s["text"][len(prefix):].split("/")
    assert "check" in seen, seen
    assert not [w for w in seen if len(w) < 2 or w.isdigit() or w in STOP_WORDS], seen
