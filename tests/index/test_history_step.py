"""The git-history step of an index run: the user's cache of parsed versions, the repository root's history
for any folder, the background miner, ``--history off``, and what ``lore index`` says of it."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.api import index_repo, lore_graph, open_index
from lore.cli import app
from lore.cli.index import history_line
from lore.index import history as hist
from lore.index import history_job
from lore.index import index_repo as index_code
from lore.index._cpu import process_tree_cpu
from lore.index.history_cache import BlobSpans, default_cache_path
from lore.index.linemap import code_pathspecs
from lore.store import db as store_db
from lore.store import history as store_history

from .test_history import CODE, DAY, T0, _bump, _commit, _counts, _git, _write, make_history_repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture(autouse=True)
def _own_cache_and_no_leftover_miner(tmp_path, monkeypatch):
    """Each test its own user cache (LORE_CACHE_DIR, inherited by the miners it starts); no miner outlives it."""
    monkeypatch.setenv("LORE_CACHE_DIR", str(tmp_path / "lore-cache"))
    monkeypatch.delenv("LORE_HISTORY_CACHE", raising=False)  # the folder decides here
    yield
    for proc in list(history_job._SPAWNED):
        if proc.poll() is None:
            proc.wait(timeout=60)
        assert proc.returncode == 0
        history_job._SPAWNED.remove(proc)


@pytest.fixture
def history_repo(tmp_path) -> Path:
    return make_history_repo(tmp_path)


def _copy(repo: Path, dst: Path) -> Path:
    shutil.copytree(repo, dst, ignore=lambda _d, names: [n for n in names if n == ".lore"])
    return dst


def test_a_second_checkout_runs_no_git_log(history_repo, tmp_path):
    first = index_repo(history_repo)
    s1, pairs1, touched1 = _counts(Path(first.db))
    copy = _copy(history_repo, tmp_path / "copy")
    second = index_repo(copy)  # another checkout, another index: the same HEAD
    s2, pairs2, touched2 = _counts(Path(second.db))
    assert s1["log_from"] == "git" and s2["log_from"] == "user cache"
    assert (pairs2, touched2) == (pairs1, touched1)
    rebuilt = index_repo(copy, rebuild=True)
    assert _counts(Path(rebuilt.db))[0]["log_from"] in ("index", "user cache")


def test_a_damaged_cached_log_is_read_from_git_again_and_replaced(history_repo, tmp_path):
    first = index_repo(history_repo)
    s1, pairs1, _ = _counts(Path(first.db))
    key = json.dumps([hist.FORMAT, s1["head"], None, None, hist.MAX_COMMITS, code_pathspecs(["m.py"])])
    cache = BlobSpans()
    try:
        assert cache.load_log(key) is not None
        cache.save_log(key, b"not a zlib stream")
    finally:
        cache.close()
    second = index_repo(_copy(history_repo, tmp_path / "copy"))
    s2, pairs2, _ = _counts(Path(second.db))
    assert s2["log_from"] == "git" and pairs2 == pairs1
    third = index_repo(_copy(history_repo, tmp_path / "copy2"))
    assert _counts(Path(third.db))[0]["log_from"] == "user cache"  # the second run replaced the damaged entry


def test_a_cache_file_that_is_not_a_database_is_set_aside(history_repo, tmp_path):
    path = default_cache_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage" * 1000)
    report = index_repo(history_repo)
    s, pairs, _ = _counts(Path(report.db))
    assert s["log_from"] == "git" and pairs == {("f", "g"): 2, ("f", "h"): 2}
    again = index_repo(_copy(history_repo, tmp_path / "copy"))
    assert _counts(Path(again.db))[0]["log_from"] == "user cache"  # the new cache file holds the log


def test_the_cache_keeps_at_most_its_bound_of_logs(history_repo, tmp_path, monkeypatch):
    from lore.index import history_cache

    monkeypatch.setattr(history_cache, "MAX_CACHE_LOGS", 1)
    index_repo(history_repo)
    other = _copy(history_repo, tmp_path / "other")
    _git(other, "commit", "-q", "--allow-empty", "-m", "another HEAD", when=T0 + 30 * DAY)
    index_repo(other)  # its log replaces the first one's
    again = index_repo(_copy(history_repo, tmp_path / "copy"))
    assert _counts(Path(again.db))[0]["log_from"] == "git"


def _pkg_repo(tmp_path: Path) -> Path:
    """pkg/m.py's f and g change together three times; one of those commits also rewrites three files outside
    pkg (a sweep: too large to count with max_files=2)."""
    repo = tmp_path / "mono"
    (repo / "pkg").mkdir(parents=True)
    (repo / "other").mkdir()
    _git(repo, "init", "-q")
    a = dict(CODE)
    _write(repo / "pkg", "m.py", a)
    for i in range(3):
        (repo / "other" / f"o{i}.py").write_text(f"def o{i}():\n    return 0\n")
    _commit(repo, "create", T0)
    for step in (1, 2, 3):
        a = _bump(a, "f", "g", step=step)
        _write(repo / "pkg", "m.py", a)
        if step == 2:
            for i in range(3):
                (repo / "other" / f"o{i}.py").write_text(f"def o{i}():\n    return {step}\n")
        _commit(repo, f"f+g {step}", T0 + step * DAY)
    return repo


def _pairs_by_name(db: Path) -> tuple[dict, dict]:
    conn = store_db.connect(db)
    try:
        names = {sid: (path.rpartition("pkg/")[2], name) for sid, name, path in conn.execute(
            "SELECT s.id, s.name, f.path FROM symbols s JOIN files f ON f.id = s.file_id")}
        summary, pairs, touched = store_history.load_run(conn, store_db.generation(conn))
    finally:
        conn.close()
    in_pkg = {k: v for k, v in names.items() if v[0] == "m.py"}
    return summary, {(in_pkg[a], in_pkg[b]): int(c) for a, b, c in pairs.tolist() if a in in_pkg and b in in_pkg}


def test_a_folder_gets_the_same_pairs_as_the_repository_root(tmp_path):
    repo = _pkg_repo(tmp_path)
    index_code(repo, db=tmp_path / "root.db")
    index_code(repo / "pkg", db=tmp_path / "pkg.db")
    hist.refresh_history(tmp_path / "root.db", repo, max_files=2)
    hist.refresh_history(tmp_path / "pkg.db", repo / "pkg", max_files=2)
    root_summary, root_pairs = _pairs_by_name(tmp_path / "root.db")
    pkg_summary, pkg_pairs = _pairs_by_name(tmp_path / "pkg.db")
    assert root_pairs == {(("m.py", "f"), ("m.py", "g")): 2}  # the sweep of step 2 is left out
    assert pkg_pairs == root_pairs
    assert pkg_summary["commits_read"] == root_summary["commits_read"] == 4
    assert pkg_summary["skipped_large"] == root_summary["skipped_large"] == 2  # the creation and the sweep


def test_a_folder_tells_a_sweep_by_the_whole_commit(tmp_path):
    """Step 2 changes f and g in pkg and o0..o2 outside: 5 definitions, a sweep with max_symbols=3 for the
    root's index, and so for pkg's too (which does not hold o0..o2: they are read from the working tree)."""
    repo = _pkg_repo(tmp_path)
    index_code(repo, db=tmp_path / "root.db")
    index_code(repo / "pkg", db=tmp_path / "pkg.db")
    hist.refresh_history(tmp_path / "root.db", repo, max_symbols=3)
    hist.refresh_history(tmp_path / "pkg.db", repo / "pkg", max_symbols=3)
    root_summary, root_pairs = _pairs_by_name(tmp_path / "root.db")
    pkg_summary, pkg_pairs = _pairs_by_name(tmp_path / "pkg.db")
    assert root_pairs == {(("m.py", "f"), ("m.py", "g")): 2} and pkg_pairs == root_pairs
    assert pkg_summary["skipped_large"] == root_summary["skipped_large"] == 1


def test_history_off_mines_nothing(history_repo):
    report = index_repo(history_repo, history="off")
    assert report.history == {"state": "off"}
    conn = store_db.connect(report.db)
    try:
        assert store_history.run_summary(conn) is None
    finally:
        conn.close()
    res = CliRunner().invoke(app, ["index", str(history_repo), "--history", "off"])
    assert res.exit_code == 0 and "history: off" in res.output
    res = CliRunner().invoke(app, ["index", str(history_repo), "--history", "later"])
    assert res.exit_code == 2 and "unknown history mode 'later'" in res.output


def test_wait_reports_progress_and_a_summary_line(history_repo):
    seen: list[tuple[str, int, int]] = []
    report = index_repo(history_repo, history="wait", progress=lambda *a: seen.append(a))
    assert ("history", 6, 6) in seen and report.history["commits_used"] == 5
    assert report.seconds["all"] >= report.seconds["total"]
    d = report.to_dict()
    assert d["history"]["state"] == "done" and "seconds" in d and "total" in d["seconds"]
    res = CliRunner().invoke(app, ["index", str(history_repo), "--history", "wait", "--rebuild"])
    assert res.exit_code == 0, res.output
    assert "history: 5 of 6 commits used, 9 hunks carried to today's lines (0 gone since), log from the user cache, in " in res.output
    assert "(code " in res.output.splitlines()[1]
    res = CliRunner().invoke(app, ["index", str(history_repo), "--history", "wait"])
    assert "history: 5 of 6 commits used (unchanged since the last run)" in res.output


def test_the_background_miner_lands_and_the_ranker_sees_it(history_repo):
    report = index_repo(history_repo, history="off")
    with open_index(report.db) as idx:
        before = lore_graph(idx, kind="related", source_id="m.f", algorithm="hybrid", limit=5, weights={"history": 8.0})
    assert not [s for r in before["results"] for s in r["why"]["signals"] if s["family"] == "history"]
    started = index_repo(history_repo, history="background")  # nothing changed in the code: the same generation
    assert started.history["state"] == "background" and started.history["pid"] > 0
    assert history_job.wait(report.db, timeout=120)
    with open_index(report.db) as idx:  # the same process: its in-memory and on-disk feature caches must notice
        after = lore_graph(idx, kind="related", source_id="m.f", algorithm="hybrid", limit=5, weights={"history": 8.0})
    assert after["generation"] == before["generation"]
    rows = {r["name"]: r for r in after["results"]}
    assert "changed together in 2 of 4 commits" in rows["g"]["why"]["summary"]
    assert not history_job.marker_path(report.db).exists()
    again = index_repo(history_repo, history="background")  # the run is current: no miner
    assert again.history["state"] == "kept" and again.history["commits_used"] == 5


def test_a_run_says_its_cpu_and_the_background_miners_counts_its_whole_process(history_repo, tmp_path):
    """What a history costs a user is the miner's CPU, its git processes and (in the background) its own start."""
    waited = index_repo(history_repo, history="wait").history
    assert 0 < waited["cpu"] <= process_tree_cpu()
    db = tmp_path / "other" / "index.db"  # another index of the same checkout: mined by a detached process
    started = index_repo(history_repo, db=db, history="background")
    assert started.history["state"] == "background" and history_job.wait(db, timeout=120)
    run = history_job.current_run(db, history_repo)
    assert run is not None and run["commits_used"] == waited["commits_used"]
    # the same commits (their versions now cached), plus a Python start and lore's imports: more than in a warm process
    assert run["cpu"] > waited["cpu"]


def test_one_miner_per_index_and_stats_show_its_progress(history_repo):
    report = index_repo(history_repo, history="off")
    db = Path(report.db)
    with open(history_job.lock_path(db), "a") as fh:  # a miner at work (this test plays it)
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        history_job.marker_path(db).write_text(json.dumps({"pid": 4242, "done": 3, "total": 10, "started": 0}))
        spawned = len(history_job._SPAWNED)
        got = index_repo(history_repo, history="background")
        assert got.history["state"] == "background" and got.history["already"] is True and got.history["done"] == 3 and len(history_job._SPAWNED) == spawned
        assert history_job.main([str(db), str(history_repo)]) == 0  # a second miner gives way at once
        res = CliRunner().invoke(app, ["stats", "--db", str(db)])
        assert "git history: mining in the background, 3 of 10 commits (pid 4242)" in res.output
        res = CliRunner().invoke(app, ["stats", "--db", str(db), "--json"])
        assert json.loads(res.output)["history_mining"]["done"] == 3
        res = CliRunner().invoke(app, ["index", str(history_repo), "--history", "background"])
        assert "history: mining in the background, 3 of 10 commits (pid 4242)" in res.output
    assert history_job.status(db) is None


def test_a_run_mined_for_a_replaced_index_is_not_written(history_repo):
    report = index_repo(history_repo, history="off")
    replaced: list[bool] = []

    def rebuild_once(phase: str, done: int, total: int) -> None:
        if done and not replaced:  # while mining, another `lore index --rebuild` replaces the index
            replaced.append(True)
            index_code(history_repo, db=report.db, rebuild=True)

    summary = hist.refresh_history(report.db, history_repo, progress=rebuild_once)
    assert replaced and summary["stale"] is True
    conn = store_db.connect(report.db)
    try:
        assert store_history.run_summary(conn) is None
    finally:
        conn.close()
    assert "stale" not in hist.refresh_history(report.db, history_repo)  # the miner's next round


def test_the_miner_process_ends_when_its_index_is_gone(history_repo, tmp_path):
    report = index_repo(history_repo, history="off")
    db = tmp_path / "gone" / "i.db"
    db.parent.mkdir()
    shutil.copy(report.db, db)
    db.unlink()
    done = subprocess.run([sys.executable, "-m", "lore.index.history_job", str(db), str(history_repo)], timeout=60,
                          capture_output=True)
    assert done.returncode == 0 and not history_job.marker_path(db).exists()


def test_a_run_cut_by_its_time_budget_is_finished_by_the_next(history_repo, tmp_path):
    db = tmp_path / "i.db"
    index_code(history_repo, db=db)
    cut = hist.refresh_history(db, history_repo, budget=0.0)  # stops after the newest commit
    assert cut["commits_read"] == 6 and cut["cut_by_budget"] == 5
    assert "history: 1 of 6 commits used" in history_line({**cut, "state": "done"})
    assert "stopped at its time budget, 5 older commits left for the next run" in history_line({**cut, "state": "done"})
    done = hist.refresh_history(db, history_repo)  # not kept: the cut run is not current
    assert "kept" not in done and done["cut_by_budget"] == 0
    assert _counts(db)[1] == {("f", "g"): 2, ("f", "h"): 2}


def test_the_mcp_refresh_tool_takes_the_history_mode(history_repo):
    from lore.mcp_server import LoreTools

    index_repo(history_repo, history="off")
    tools = LoreTools(history_repo / ".lore" / "index.db", allow_refresh=True)
    got = tools.call("lore_refresh", {"history": "wait"})
    assert got["history"]["state"] == "done" and got["history"]["commits_used"] == 5
    with pytest.raises(ValueError):
        tools.call("lore_refresh", {"history": "later"})
    got = tools.call("lore_refresh", {})  # the default: background, and the run is current
    assert got["history"]["state"] == "kept"


GO_SOURCE = b"""package p

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) {
	s.items = append(s.items, v)
}

func (s Stack[T]) Len() int { return len(s.items) }

func (o *Other) Elsewhere() {} // the receiver is declared in another file

type Shape interface {
	Area() float64
	Perimeter() float64
}

func Apply(f func(int) int, x interface{ Scale(int) }) int {
	type local struct{}
	return f(1)
}

func init() {}
"""


def test_go_spans_are_the_go_parsers():
    """The definitions-only Go reader gives what the full parser gives (checked too on the 1,213 Go versions of
    cobra's history and the 1,257 of samber/lo's: no difference)."""
    from lore.index.revisions import _PLACEHOLDER, SPAN_KINDS, go_spans
    from lore.languages import parse_source

    pf = parse_source("p/a.go", GO_SOURCE, "go", _PLACEHOLDER)
    full = sorted((s.start_line, s.end_line, s.qualified_name[len(_PLACEHOLDER) + 1:]) for s in pf.symbols
                  if s.kind in SPAN_KINDS and s.qualified_name.startswith(_PLACEHOLDER + "."))
    assert sorted(go_spans(GO_SOURCE)) == full
    assert {q for *_, q in full} >= {"Stack.Push", "Stack.Len", "Other.Elsewhere", "Shape.Area", "Apply", "init"}
