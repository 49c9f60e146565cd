"""Derived files beside the index (the saved graph, the ranker's saved features) damaged on disk.

Before: garbage in ``index.db.features/*/name_tokens.indices.npy`` gave an ``IndexError`` traceback in
``graph related`` that survived ``lore index --rebuild`` (the inputs' digest matched, so the arrays were
reused), and a damaged saved graph gave tracebacks until the next generation. Now each array's dtype,
shape and checksum are recorded when written and checked before use; a damaged state is rebuilt and
every answer is the one a fresh index gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lore import index_repo

from .conftest import run_lore

RELATED = ("graph", "related", "m1.g1", "--json")
CALLERS = ("graph", "callers", "m1.g1", "--json")


def _repo(root: Path) -> Path:
    root.mkdir()
    for i in range(1, 7):
        (root / f"m{i}.py").write_text(
            f"from m{i % 6 + 1} import g{i % 6 + 1}\n\n\ndef f{i}(items):\n    \"\"\"Sum the items.\"\"\"\n"
            f"    return g{i}(items) + g{i % 6 + 1}(items)\n\n\ndef g{i}(items):\n    return len(items)\n")
    return root


def _answer(db: Path, args: tuple[str, ...]) -> list:
    proc = run_lore(*args, "--db", str(db))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-600:]
    return [(r["id"], r.get("score")) for r in json.loads(proc.stdout)["results"]]


def _garbage(path: Path) -> None:
    """Overwrite an array's values in place (its header, dtype and shape stay valid)."""
    a = np.load(path, mmap_mode="r+")
    a[...] = np.iinfo(a.dtype).max if a.dtype.kind in "iu" else 1e300  # (arrays are stored narrow)
    a.flush()
    del a


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: max(128, len(data) // 2)])


def _retype(path: Path) -> None:
    a = np.load(path)
    np.save(path, a.astype(np.float32 if a.dtype.kind != "f" else np.int32))


DAMAGES = {"garbage values": _garbage, "truncated file": _truncate, "another dtype": _retype}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> tuple[Path, dict]:
    root = _repo(tmp_path_factory.mktemp("saved") / "repo")
    db = Path(index_repo(root, workers=1).db)
    return root, {args: _answer(db, args) for args in (RELATED, CALLERS)}


@pytest.mark.parametrize("damage", ["garbage values", "another dtype"])
def test_damaged_saved_features_are_rebuilt_also_across_a_rebuild(fresh, tmp_path: Path, damage: str,
                                                                     tally) -> None:
    root, want = fresh
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    good = [_answer(db, RELATED) == want[RELATED]]  # saves the features beside the index
    files = sorted(db.with_name("index.db.features").glob("*/name_presence.indices.npy"))
    assert files
    DAMAGES[damage](files[0])
    index_repo(root, db=db, workers=1, rebuild=True)  # same inputs: the saved arrays would be reused
    good.append(_answer(db, RELATED) == want[RELATED])
    for f in sorted(db.with_name("index.db.features").glob("*/text_counts.indices.npy")):
        DAMAGES[damage](f)
    good.append(_answer(db, RELATED) == want[RELATED])
    good.append(_answer(db, RELATED) == want[RELATED])  # and the state saved again is good
    tally(f"saved features: {damage}", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert all(good)


@pytest.mark.parametrize("damage", ["garbage values", "truncated file"])
def test_a_damaged_saved_graph_is_rebuilt(fresh, tmp_path: Path, damage: str, tally) -> None:
    root, want = fresh
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    _answer(db, CALLERS)  # the graph is saved beside the index
    good = []
    for name, args in (("calls.T.indices.npy", CALLERS), ("ids.npy", RELATED)):
        files = sorted(db.with_name("index.db.graph").glob(f"*/{name}"))
        assert files
        DAMAGES[damage](files[0])
        good.append(_answer(db, args) == want[args])
    tally(f"saved graph: {damage}", tried=len(good), survived=sum(good), lost=len(good) - sum(good))
    assert all(good)
