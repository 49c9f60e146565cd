from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from lore.bench import cochange
from lore.errors import EmptyGroundTruthError, InvalidArgumentError, NotAGitRepositoryError

BASE = """\
def f():
    return 1


def g():
    return 2


def h():
    return 3
"""


def _git(root: Path, *args: str, when: int = 1_700_000_000) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_AUTHOR_DATE": f"@{when} +0000",
           "GIT_COMMITTER_DATE": f"@{when} +0000", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text().replace(old, new))


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """f and g change together three times (once across a rename), h once with them, tests twice with f."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "mod.py").write_text(BASE)
    (root / "tests").mkdir()
    (root / "tests" / "test_mod.py").write_text("def test_f():\n    assert True\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "start", when=1_700_000_000)
    day = 86_400
    _edit(root / "mod.py", "return 1", "return 10")
    _edit(root / "mod.py", "return 2", "return 20")
    _edit(root / "tests" / "test_mod.py", "True", "1")
    _git(root, "commit", "-q", "-am", "f+g", when=1_700_000_000 + day)
    _git(root, "mv", "mod.py", "lib.py")
    _git(root, "commit", "-q", "-m", "rename", when=1_700_000_000 + 2 * day)
    _edit(root / "lib.py", "return 10", "return 11")
    _edit(root / "lib.py", "return 20", "return 21")
    _edit(root / "lib.py", "return 3", "return 30")
    _edit(root / "tests" / "test_mod.py", "assert 1", "assert 2")
    _git(root, "commit", "-q", "-am", "f+g+h", when=1_700_000_000 + 3 * day)
    # a commit touching 11 files: skipped
    for i in range(10):
        (root / f"extra{i}.py").write_text(f"X = {i}\n")
    _edit(root / "lib.py", "return 11", "return 12")
    _edit(root / "lib.py", "return 30", "return 31")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "big", when=1_700_000_000 + 4 * day)
    return root


def _pairs_by_name(root: Path, **kw):
    from lore.api import open_index
    from lore.index import index_repo

    db = root.parent / "idx.db"
    index_repo(root, db=db, workers=1)
    with open_index(db) as idx:
        spans = cochange.symbol_spans(idx, include_tests=kw.pop("include_tests", False))
        commits = cochange.read_history(root)
        co, before = cochange.mine_pairs(commits, spans, **kw)
        name = {s: idx.symbol(s)["qualified_name"] for pair in co.pairs for s in pair}
        return {(name[a], name[b]): n for (a, b), n in co.pairs.items()}, co, before


def test_mining_follows_renames_and_skips_big_commits(history):
    pairs, co, _ = _pairs_by_name(history)
    assert pairs[("lib.f", "lib.g")] == 2  # before and after the rename
    assert pairs[("lib.f", "lib.h")] == 1
    assert co.commits_skipped_large == 1
    assert not any("test_" in a or "test_" in b for a, b in pairs)


def test_tests_included_on_request(history):
    pairs, _, _ = _pairs_by_name(history, include_tests=True)
    assert pairs[("lib.f", "tests.test_mod.test_f")] == 2


def test_run_cochange_scores_pairs(history):
    report = cochange.run_cochange(history, algorithms=("overlap:adamic_adar",))
    assert report["suite"] == "cochange"
    assert report["corpus"]["pairs"] == 2  # f<->g in both directions
    assert report["corpus"]["commits_skipped_large"] == 1
    assert set(report["baselines"]) == {"random", "same_file", "bm25_names"}
    assert report["baselines"]["same_file"]["all"]["recall@10"] == 1.0
    assert report["corpus"]["spans"] == "revision" and "approximation" not in report["corpus"]
    today = cochange.run_cochange(history, algorithms=("overlap:adamic_adar",), spans="today")
    assert "current checkout" in today["corpus"]["approximation"]


def test_time_split(history):
    # from day 3 on, f-g is not new (they changed together before); f-h and g-h are
    report = cochange.run_cochange(history, split="2023-11-17T22:13:20+00:00", min_count=1,
                                   algorithms=("overlap:adamic_adar",))
    assert report["corpus"]["pairs"] == 4
    with pytest.raises(EmptyGroundTruthError):
        cochange.run_cochange(history, split="2023-11-17T22:13:20+00:00", min_count=2)
    _, co, before = _pairs_by_name(history, split=1_700_000_000 + 3 * 86_400)
    assert before is not None and before.commits_seen == 3 and co.commits_seen == 2


def test_not_a_git_repository(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotAGitRepositoryError, match="not a git repository"):
        cochange.run_cochange(plain)
    with pytest.raises(NotAGitRepositoryError):
        cochange.git_root(tmp_path / "missing")


def test_empty_history_is_an_error(tmp_path):
    root = tmp_path / "one"
    root.mkdir()
    _git(root, "init", "-q")
    (root / "m.py").write_text("def f():\n    return 1\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "one")
    with pytest.raises(EmptyGroundTruthError, match="changed together"):
        cochange.run_cochange(root)


def test_parse_time():
    assert cochange.parse_time("1700000000") == 1_700_000_000
    assert cochange.parse_time("2023-11-14T22:13:20+00:00") == 1_700_000_000
    assert cochange.parse_time(None) is None
    from lore.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError):
        cochange.parse_time("yesterday-ish")


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    """f and g change together twice; later, new functions are written above them and old() is deleted."""
    root = tmp_path / "drift"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "m.py").write_text(BASE.replace("def h", "def old") + "\n\ndef k():\n    return 4\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "start", when=1_700_000_000)
    for i, when in enumerate((1_700_100_000, 1_700_200_000)):
        _edit(root / "m.py", f"return {1 + i * 10}", f"return {11 + i * 10}")
        _edit(root / "m.py", f"return {2 + i * 10}", f"return {12 + i * 10}")
        _edit(root / "m.py", f"return {3 + i * 10}", f"return {13 + i * 10}")
        _git(root, "commit", "-q", "-am", f"f+g+old {i}", when=when)
    text = (root / "m.py").read_text()
    start, end = text.index("def old"), text.index("def k")
    top = "".join(f"def new{i}():\n    return {i}\n\n\n" for i in range(4))
    (root / "m.py").write_text(top + text[:start] + text[end:])
    _git(root, "commit", "-q", "-am", "new code above, old() gone", when=1_700_300_000)
    return root


def _mined(root: Path, spans: str) -> set[tuple[str, str]]:
    from lore.api import open_index
    from lore.index import index_repo

    db = root.parent / f"{spans}.db"
    index_repo(root, db=db, workers=1)
    with open_index(db) as idx:
        pairs = cochange.cochange_pairs(idx, root, spans=spans)
        name = {s: idx.symbol(s)["qualified_name"] for s in pairs}
    return {(name[a], name[b]) for a, ts in pairs.items() for b in ts if name[a] < name[b]}


def test_revision_spans_map_old_hunks_onto_the_code_they_changed(drifted):
    # each commit changed f, g and old(); old() is gone today, so only f-g is judged, by name
    assert _mined(drifted, "revision") == {("m.f", "m.g")}
    # today's line spans put the old hunks on whatever sits at those lines now: the new functions
    today = _mined(drifted, "today")
    assert ("m.f", "m.g") not in today and any(a.startswith("m.new") for a, _ in today)


def test_revision_spans_read_each_version_once(drifted):
    from lore.api import open_index
    from lore.index import index_repo

    db = drifted.parent / "once.db"
    index_repo(drifted, db=db, workers=1)
    commits = cochange.read_history(drifted)
    with open_index(db) as idx, cochange.revision_spans(idx, drifted, include_tests=False) as rs:
        co, _ = cochange.mine_pairs(commits, rs, max_files=10)
        co2, _ = cochange.mine_pairs(commits, rs, max_files=10)
    assert co.pairs == co2.pairs
    assert rs.read == 3 and rs.missing == 0  # three changing commits, one version of m.py each
    with pytest.raises(InvalidArgumentError):
        with open_index(db) as idx:
            cochange.cochange_pairs(idx, drifted, spans="yesterday")


def test_revision_spans_answer_in_step_after_a_name_with_a_line_break(drifted):
    from lore.index.revisions import RevisionSpans

    head = subprocess.run(["git", "-C", str(drifted), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    with RevisionSpans(drifted, {}) as rs:
        assert rs._blob(f"{head}:m.py\nm.py") is None
        assert rs._blob(f"{head}:missing.py") is None
        assert rs._blob(f"{head}:m.py") == (drifted / "m.py").read_bytes()


def test_a_methods_own_class_is_dropped_from_its_pairs_and_said(tmp_path):
    """A class's body and its method changed together: for the class, the method is a fair answer;
    for the method, its own class never is (a related query excludes the seed's containers), so that
    pair is dropped and the report and the CLI say so instead of scoring it as every method's miss."""
    from typer.testing import CliRunner

    from lore.cli import app

    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "mod.py").write_text("class C:\n    X = 1\n\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "start")
    for k, (old, new) in enumerate((("X = 1", "X = 2"), ("X = 2", "X = 3"))):
        _edit(root / "mod.py", old, new)
        _edit(root / "mod.py", f"return {2 * k + 1}", f"return {2 * k + 3}")  # C.m's body
        _git(root, "commit", "-q", "-am", f"class and method {k}", when=1_700_000_000 + (k + 1) * 86_400)
    for k in range(2):
        _edit(root / "mod.py", f"return {5 + 2 * k}", f"return {7 + 2 * k}")
        _edit(root / "mod.py", f"return {2 + k}", f"return {3 + k}")  # C.n's body
        _git(root, "commit", "-q", "-am", f"two methods {k}", when=1_700_000_000 + (k + 3) * 86_400)
    report = cochange.run_cochange(root, algorithms=("overlap:adamic_adar",))
    assert report["corpus"]["dropped_pairs"] == {"container": 1}
    assert report["corpus"]["dropped_queries"] == 0
    assert report["corpus"]["queries"] == 3 and report["corpus"]["pairs"] == 3  # C: m; C.m: n (C dropped); C.n: m
    got = CliRunner().invoke(app, ["bench", "cochange", str(root), "--algorithms", "overlap:adamic_adar"])
    assert got.exit_code == 0, got.output
    assert "dropped: 1 container (a related query never returns them); 0 queries left with no pair" in got.output
