"""Logical coupling read from git at index time (lore.index.history) and the hybrid ranker's history signal."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lore.api import index_repo, lore_graph, open_index
from lore.graphs._features import load_features
from lore.index import history as hist
from lore.index import index_repo as index_code
from lore.store import db as store_db
from lore.store import history as store_history
from lore.text.tokens import split_identifier

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

DAY = 86_400
T0 = 1_600_000_000
CUT = T0 + 10 * DAY

CODE = {
    "f": "def f():\n    return 1\n\n\n",
    "g": "def g():\n    return 2\n\n\n",
    "h": "def h():\n    return 3\n\n\n",
}


@pytest.fixture(autouse=True)
def _own_span_cache(tmp_path, monkeypatch):
    """Each test its own user cache (lore.index.history_cache.BlobSpans): the repositories here are made the
    same way, so their logs would be shared through the real ~/.cache/lore."""
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path / "lore-cache"))
    monkeypatch.delenv("LORE_HISTORY_CACHE", raising=False)  # the folder decides here


def _git(repo: Path, *args: str, when: int = T0) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": f"@{when} +0000", "GIT_COMMITTER_DATE": f"@{when} +0000",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo)}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _write(repo: Path, name: str, bodies: dict[str, str]) -> None:
    (repo / name).write_text("".join(bodies.values()))


def _commit(repo: Path, message: str, when: int) -> None:
    _git(repo, "add", "-A", when=when)
    _git(repo, "commit", "-q", "-m", message, when=when)


def _bump(bodies: dict[str, str], *names: str, step: int) -> dict[str, str]:
    """Change the return line of each named function in place (no line moves: today's spans hold for every commit)."""
    out = dict(bodies)
    for n in names:
        head, _, _ = out[n].partition("return ")
        out[n] = f"{head}return {100 * step}\n\n\n"
    return out


@pytest.fixture
def history_repo(tmp_path) -> Path:
    """f and g change together twice before CUT; f and h twice after it; g alone once after."""
    return make_history_repo(tmp_path)


def make_history_repo(tmp_path: Path) -> Path:
    """The repository of :func:`history_repo` (other test modules build it too)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo, "m.py", a)
    _commit(repo, "create", T0)  # a file's creation is not a co-change
    a = _bump(a, "f", "g", step=1)
    _write(repo, "m.py", a)
    _commit(repo, "f+g", T0 + DAY)
    a = _bump(a, "f", "g", step=2)
    _write(repo, "m.py", a)
    _commit(repo, "f+g again", T0 + 2 * DAY)
    a = _bump(a, "f", "h", step=3)
    _write(repo, "m.py", a)
    _commit(repo, "f+h", CUT + DAY)
    a = _bump(a, "f", "h", step=4)
    _write(repo, "m.py", a)
    _commit(repo, "f+h again", CUT + 2 * DAY)
    a = _bump(a, "g", step=5)
    _write(repo, "m.py", a)
    _commit(repo, "g", CUT + 3 * DAY)
    return repo


def _counts(db: Path) -> tuple[dict, dict[tuple[str, str], int], dict[str, int]]:
    conn = store_db.connect(db)
    try:
        names = dict(conn.execute("SELECT id, name FROM symbols"))
        got = store_history.load_run(conn, store_db.generation(conn))
    finally:
        conn.close()
    assert got is not None
    summary, pairs, touched = got
    return (summary, {(names[a], names[b]): int(c) for a, b, c in pairs.tolist()},
            {names[s]: int(c) for s, c in touched.tolist()})


def test_index_pipeline_counts_commits_that_changed_symbols_together(history_repo):
    report = index_repo(history_repo)
    summary, pairs, touched = _counts(Path(report.db))
    assert summary["reason"] == "" and summary["commits_read"] == 6 and summary["commits_used"] == 5
    assert pairs == {("f", "g"): 2, ("f", "h"): 2}
    assert touched == {"f": 4, "g": 3, "h": 2}


def test_stats_say_what_history_the_index_has(history_repo, tmp_path):
    from typer.testing import CliRunner

    from lore.cli import app

    report = index_repo(history_repo)
    with open_index(report.db) as idx:
        h = idx.stats()["history"]
    assert h["commits_read"] == 6 and h["commits_used"] == 5 and not h.get("reason")
    res = CliRunner().invoke(app, ["stats", "--db", str(report.db)])
    assert res.exit_code == 0 and "git history: 5 commits used of 6 read" in res.output
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "m.py").write_text(CODE["f"])
    other = index_repo(tmp_path / "plain")
    res = CliRunner().invoke(app, ["stats", "--db", str(other.db)])
    assert "git history: none (not a git checkout)" in res.output


def test_until_keeps_only_older_commits_and_the_signal_sees_no_later_pair(history_repo, tmp_path):
    db = tmp_path / "i.db"
    index_code(history_repo, db=db)
    summary = hist.refresh_history(db, history_repo, until=str(CUT))
    assert summary["newest"] < CUT and summary["commits_read"] == 3
    _, pairs, touched = _counts(db)
    assert pairs == {("f", "g"): 2}  # f+h changed together only after the cut: not counted
    assert touched == {"f": 2, "g": 2}
    # the same cut as a revision: the commit just before it and its ancestors
    rev = subprocess.run(["git", "-C", str(history_repo), "rev-list", "-n1", f"--before={CUT}", "HEAD"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert hist.refresh_history(db, history_repo, until=rev)["commits_read"] == 3
    assert _counts(db)[1] == {("f", "g"): 2}
    with pytest.raises(ValueError, match="neither a date nor a revision"):
        hist.refresh_history(db, history_repo, until="no-such-branch")


def test_hybrid_history_signal_and_why(history_repo):
    report = index_repo(history_repo)
    with open_index(report.db) as idx:
        env = lore_graph(idx, kind="related", source_id="m.f", algorithm="hybrid", limit=5,
                         weights={"history": 8.0})
        rows = {r["name"]: r for r in env["results"]}
        sigs = {s["signal"]: s for s in rows["g"]["why"]["signals"]}
        assert sigs["history"]["text"] == "changed together in 2 of 4 commits"
        assert sigs["history"]["value"] == pytest.approx(0.5)
        assert "changed together in 2 of 4 commits" in rows["g"]["why"]["summary"]
        g = idx.graph()
        feats = load_features(idx.conn, g, split=split_identifier)
        assert feats.co_change is not None
        co = feats.co_change.to_scipy()  # arrays only in the features; scipy to check the symmetry
        assert co.nnz > 0 and (co != co.T).nnz == 0


def test_no_git_no_history_no_error(tmp_path):
    (tmp_path / "m.py").write_text(CODE["f"] + CODE["g"])
    report = index_repo(tmp_path)
    summary, pairs, touched = _counts(Path(report.db))
    assert summary["reason"] == "not a git checkout" and pairs == {} and touched == {}
    with open_index(report.db) as idx:
        env = lore_graph(idx, kind="related", source_id="m.f", algorithm="hybrid", limit=5)
        for r in env["results"]:
            assert not [s for s in r["why"]["signals"] if s["family"] == "history"]


def test_shallow_clone_and_empty_repository_give_no_history(history_repo, tmp_path):
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{history_repo}", str(shallow)], check=True,
                   capture_output=True)
    db = tmp_path / "s.db"
    index_code(shallow, db=db)
    assert hist.refresh_history(db, shallow)["reason"].startswith("shallow clone")
    empty = tmp_path / "empty"
    empty.mkdir()
    _git(empty, "init", "-q")
    (empty / "m.py").write_text(CODE["f"])
    index_code(empty, db=tmp_path / "e.db")
    assert hist.refresh_history(tmp_path / "e.db", empty)["reason"] == "no commit yet"


def test_large_commits_are_skipped(history_repo, tmp_path):
    db = tmp_path / "i.db"
    index_code(history_repo, db=db)
    summary = hist.refresh_history(db, history_repo, max_files=0)
    assert summary["commits_used"] == 0 and summary["skipped_large"] == 6


def test_subdirectory_root_maps_repository_paths(tmp_path):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo / "pkg", "m.py", a)
    _commit(repo, "create", T0)
    for step in (1, 2):
        a = _bump(a, "f", "g", step=step)
        _write(repo / "pkg", "m.py", a)
        _commit(repo, f"f+g {step}", T0 + step * DAY)
    db = tmp_path / "i.db"
    index_code(repo / "pkg", db=db)
    hist.refresh_history(db, repo / "pkg")
    assert _counts(db)[1] == {("f", "g"): 2}


def test_run_is_kept_while_current_and_ignored_once_stale(history_repo, tmp_path):
    db = tmp_path / "i.db"
    index_code(history_repo, db=db)
    assert "kept" not in hist.refresh_history(db, history_repo)
    assert hist.refresh_history(db, history_repo)["kept"] is True
    (history_repo / "n.py").write_text("def k():\n    pass\n")
    index_code(history_repo, db=db)  # a new generation: the stored run no longer matches the spans
    conn = store_db.connect(db)
    try:
        assert store_history.load_run(conn, store_db.generation(conn)) is None
    finally:
        conn.close()


def test_count_pairs_matches_a_direct_count():
    rng = np.random.default_rng(0)
    commits = [sorted(set(rng.integers(0, 12, size=int(rng.integers(1, 6))).tolist())) for _ in range(40)]
    pairs, touched = hist.count_pairs(commits)
    direct: dict[tuple[int, int], int] = {}
    for ids in commits:
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                direct[(a, b)] = direct.get((a, b), 0) + 1
    assert {(a, b): c for a, b, c in pairs} == direct
    assert dict(touched) == {s: sum(s in c for c in commits) for c in commits for s in c}


def test_benchmark_leak_check(history_repo, tmp_path):
    from lore.bench.loo import check_no_leak

    db = tmp_path / "i.db"
    index_code(history_repo, db=db)
    ok = check_no_leak(history_repo, hist.refresh_history(db, history_repo, until=str(CUT)), str(CUT))
    assert ok["history_commits"] == 3 and ok["judgement_commits"] == 3
    assert ok["history_newest"] < CUT <= ok["judgements_oldest"]
    with pytest.raises(AssertionError, match="leaks"):
        check_no_leak(history_repo, hist.refresh_history(db, history_repo), str(CUT))


def test_fit_on_cochange_never_reads_the_judgements_history(history_repo):
    from lore.bench import fit as ft

    report = index_repo(history_repo)
    leaky = ft.run_fit(report.db, cochange=history_repo, min_count=1)
    assert "left out" in leaky["notes"][0]
    assert "history" not in leaky["weights"] and "history_count" not in leaky["weights"]
    split = ft.run_fit(report.db, cochange=history_repo, min_count=1, split=str(CUT))
    assert str(CUT) in split["notes"][0]
    summary, pairs, _ = _counts(Path(report.db))
    assert summary["until"] == str(CUT) and pairs == {("f", "g"): 2}


def test_a_new_generation_reuses_the_parsed_log_and_a_new_head_rereads_it(history_repo, monkeypatch):
    """An edit re-indexes the code; the commits are the same, so git is not read again (only re-mapped)."""
    report = index_repo(history_repo)
    first = _counts(Path(report.db))
    calls = []
    real = hist.read_history
    monkeypatch.setattr(hist, "read_history", lambda *a, **k: calls.append(1) or real(*a, **k))
    text = (history_repo / "m.py").read_text()
    (history_repo / "m.py").write_text(text.replace("return 500", "return 501"))  # an edit; HEAD does not move
    index_repo(history_repo)
    assert calls == []  # the log came from the store
    summary, pairs, touched = _counts(Path(report.db))
    assert (pairs, touched) == first[1:] and summary["commits_used"] == first[0]["commits_used"]
    _commit(history_repo, "blank lines", CUT + 4 * DAY)  # a new HEAD: the log is read again
    index_repo(history_repo)
    assert calls == [1]


def test_untracked_files_inside_another_repository_say_so(history_repo):
    """A package directory inside someone else's checkout (site-packages under a git-managed toolchain)."""
    pkg = history_repo / "vendor" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "m.py").write_text(CODE["f"])
    report = index_repo(pkg)
    assert _counts(Path(report.db))[0]["reason"] == "no commit touches these files"


def test_old_commits_count_for_the_code_they_changed_not_for_todays_lines(tmp_path):
    """f and g change together twice; then new functions are written above them. Mapped with today's
    line spans the old hunks would land on the new functions; the history counts f-g."""
    repo = tmp_path / "drift"
    repo.mkdir()
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo, "m.py", a)
    _commit(repo, "create", T0)
    for step in (1, 2):
        a = _bump(a, "f", "g", step=step)
        _write(repo, "m.py", a)
        _commit(repo, f"f+g {step}", T0 + step * DAY)
    top = {f"new{i}": f"def new{i}():\n    return {i}\n\n\n" for i in range(4)}
    _write(repo, "m.py", {**top, **a})
    _commit(repo, "new code above", T0 + 3 * DAY)
    report = index_repo(repo)
    summary, pairs, touched = _counts(Path(report.db))
    assert pairs[("f", "g")] == 2 and touched["f"] == touched["g"] == 2  # today's lines: new0 and new1
    assert not any({"f", "g"} & set(p) for p in pairs if p != ("f", "g"))  # the new code changed alone
    assert summary["hunks_mapped"] == 5 and summary["hunks_gone"] == 0  # carried to today's lines, none parsed
    assert "versions_read" not in summary


def test_history_follows_a_definition_through_a_rename_of_its_name(tmp_path):
    """f and g change together twice, then f is renamed to f2 (one line): the line maps carry the old hunks
    to today's f2; mapped by each version's names they counted for an f that no longer exists."""
    repo = tmp_path / "renamed"
    repo.mkdir()
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo, "m.py", a)
    _commit(repo, "create", T0)
    for step in (1, 2):
        a = _bump(a, "f", "g", step=step)
        _write(repo, "m.py", a)
        _commit(repo, f"f+g {step}", T0 + step * DAY)
    a["f"] = a["f"].replace("def f(", "def f2(")
    _write(repo, "m.py", a)
    _commit(repo, "rename f", T0 + 3 * DAY)
    _, pairs, touched = _counts(Path(index_repo(repo).db))
    assert pairs == {("f2", "g"): 2} and touched == {"f2": 3, "g": 2}


def test_a_body_rewritten_later_keeps_the_older_changes_of_its_definition(tmp_path):
    """f and g change together twice; later f's whole body is rewritten (its old lines are gone): the older
    hunks map to the lines that replaced them, inside f, not to nothing and not to a neighbour."""
    repo = tmp_path / "rewritten"
    repo.mkdir()
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo, "m.py", a)
    _commit(repo, "create", T0)
    for step in (1, 2):
        a = _bump(a, "f", "g", step=step)
        _write(repo, "m.py", a)
        _commit(repo, f"f+g {step}", T0 + step * DAY)
    a["f"] = "def f():\n    x = 7\n    y = 8\n    return x + y\n\n\n"
    _write(repo, "m.py", a)
    _commit(repo, "rewrite f", T0 + 3 * DAY)
    summary, pairs, touched = _counts(Path(index_repo(repo).db))
    assert pairs == {("f", "g"): 2} and touched == {"f": 3, "g": 2} and summary["hunks_gone"] == 0


def test_uncommitted_edits_move_no_hunk_onto_a_neighbour(history_repo):
    """The index holds the working tree's lines: HEAD's lines are carried to them through `git diff HEAD`."""
    text = (history_repo / "m.py").read_text()
    (history_repo / "m.py").write_text("def new():\n    return 0\n\n\n" + text)  # uncommitted: every line moves
    _, pairs, touched = _counts(Path(index_repo(history_repo).db))
    assert pairs == {("f", "g"): 2, ("f", "h"): 2} and touched == {"f": 4, "g": 3, "h": 2}


def test_a_refresh_maps_again_without_reading_any_file_version(history_repo, monkeypatch):
    """No old version is read, ever: a new generation re-maps the cached log, a new HEAD reads the log again."""
    from lore.index import revisions

    read = []
    real = revisions.RevisionSpans._version
    monkeypatch.setattr(revisions.RevisionSpans, "_version", lambda self, *a: read.append(a) or real(self, *a))
    report = index_repo(history_repo)
    first = _counts(Path(report.db))
    assert first[0]["log_from"] == "git"
    text = (history_repo / "m.py").read_text()
    (history_repo / "m.py").write_text("\n\n" + text)  # every line moves; the commits stay the same
    index_repo(history_repo)
    again = _counts(Path(report.db))
    assert again[1:] == first[1:] and again[0]["log_from"] == "index"
    (history_repo / "m.py").write_text(text.replace("return 500", "return 900").replace("return 400", "return 901"))
    _git(history_repo, "commit", "-q", "-am", "f+g late", when=CUT + 5 * DAY)  # m.py only (not the index under .lore)
    index_repo(history_repo)
    assert _counts(Path(report.db))[1][("f", "g")] == first[1][("f", "g")] + 1
    assert read == []


def _head(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_test_files_are_not_mapped(tmp_path):
    """Related lists leave tests out: the miner maps no hunk of a test file."""
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    _git(repo, "init", "-q")
    code = dict(CODE)
    tests = {"test_f": "def test_f():\n    assert 1\n\n\n"}
    _write(repo, "m.py", code)
    _write(repo, "tests/test_m.py", tests)
    _commit(repo, "create", T0)
    for step in (1, 2):  # f, g and f's test change together twice
        code = _bump(code, "f", "g", step=step)
        tests = {"test_f": f"def test_f():\n    assert {step + 1}\n\n\n"}
        _write(repo, "m.py", code)
        _write(repo, "tests/test_m.py", tests)
        _commit(repo, f"f+g+test {step}", T0 + step * DAY)
    report = index_repo(repo, history="wait")
    summary, pairs, touched = _counts(Path(report.db))
    assert pairs == {("f", "g"): 2} and touched == {"f": 2, "g": 2}
    assert summary["hunks_mapped"] == 4  # m.py's f and g, twice; tests/test_m.py's hunks are not mapped
