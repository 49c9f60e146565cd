"""The seven failures of issue 15, each pinned by a test that failed before its fix."""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from lore import index_repo, lore_search, open_index
from lore.index._parse import parse_job

from .conftest import one_line_error, run_lore


def _tiny(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "ok.py").write_text("def g():\n    f()\n\ndef f():\n    pass\n")
    return root


# 2. a file name that is not valid UTF-8 ------------------------------------------------------------
def test_a_file_name_that_is_not_utf8_is_indexed_escaped_and_round_trips(tmp_path: Path, tally) -> None:
    root = _tiny(tmp_path / "repo")
    raw = b"latin\xe9.py"
    (root / os.fsdecode(raw)).write_text("def h():\n    f()\n")
    report = index_repo(root)
    from lore.index.walk import unescape_name

    assert "latin\\xe9.py" in report.added and "ok.py" in report.added
    with open_index(root, readonly=True) as idx:
        hits = lore_search(idx, "h", limit=5)["results"]
        path = next(r["path"] for r in hits if r["qualified_name"].endswith(".h"))
    assert os.fsencode(unescape_name(path)) == raw  # lossless: the stored text gives back the exact bytes
    assert (root / unescape_name(path)).is_file()
    again = index_repo(root)
    assert not again.changed_any  # the escaped name is matched on the next run: nothing re-parsed
    tally("bad input: non-UTF-8 names", tried=1, survived=1, lost=0)


def test_a_repository_root_that_is_not_utf8(tmp_path: Path, tally) -> None:
    root = _tiny(tmp_path / os.fsdecode(b"caf\xe9"))
    (root / os.fsdecode(b"\xff.py")).write_text("def odd():\n    f()\n")
    report = index_repo(root)
    assert report.added == ["\\xff.py", "ok.py"]
    with open_index(root, readonly=True) as idx:
        assert idx.status()["fresh"] is True  # the escaped root and names find the files again
        assert "def odd" in idx.symbol("\\xff.odd", snippet_lines=2)["snippet"]
    tally("bad input: non-UTF-8 names", tried=1, survived=1, lost=0)


# 3. a source file replaced by a named pipe; pipes, sockets, symlinks to pipes before the run --------
def test_a_file_replaced_by_a_named_pipe_is_skipped_not_waited_for(tmp_path: Path, tally) -> None:
    fifo = tmp_path / "gone.py"
    os.mkfifo(fifo)
    got: list = []
    worker = threading.Thread(target=lambda: got.append(parse_job(("gone.py", str(fifo), "python", "gone", False,
                                                                  2_000_000))), daemon=True)
    worker.start()
    worker.join(timeout=5)
    if worker.is_alive():  # release the blocked open so the thread can end, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a named pipe blocked")
    assert got[0].status == "pipe"
    tally("bad input: pipe swapped in mid-run", tried=1, survived=1, lost=0)


def test_pipes_sockets_and_symlinks_to_them_are_counted(tmp_path: Path, tally) -> None:
    root = _tiny(tmp_path / "repo")
    os.mkfifo(root / "p.py")
    (root / "lp.py").symlink_to("p.py")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(root / "s.py"))
        report = index_repo(root)
    finally:
        sock.close()
    assert report.skipped.get("pipe") == 2 and report.skipped.get("socket") == 1
    with open_index(root, readonly=True) as idx:
        assert idx.stats()["skipped"] == report.skipped  # `lore stats` shows them too
    tally("bad input: pipes and sockets", tried=3, survived=3, lost=0)


# 4. a huge file with a raised --max-file-size -------------------------------------------------------
def test_a_huge_file_over_the_parse_budget_is_skipped_in_bounded_time(tmp_path: Path, tally) -> None:
    root = _tiny(tmp_path / "repo")
    line = "def func_{0}(a):\n    return helper_{0}(a) + {0}\n\n"
    (root / "big.py").write_text("".join(line.format(i) for i in range(120_000)))  # about 6 MB
    t = time.perf_counter()
    proc = run_lore("index", str(root), "--max-file-size", "60000000", "--json", timeout=120,
                    env={"LORE_FILE_MEMORY_MB": "48", "LORE_FILE_SECONDS": "1.5"})
    took = time.perf_counter() - t
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert '"too big to parse": 1' in proc.stdout or '"too slow": 1' in proc.stdout, proc.stdout[-400:]
    assert took < 30
    tally("bad input: huge file", tried=1, survived=1, lost=0)


# 5. pathological nesting ------------------------------------------------------------------------------
def test_deep_rust_nesting_is_linear_and_deep_python_annotations_index(tmp_path: Path, tally) -> None:
    from lore.languages import parse_source

    n = 5000
    src = ("fn f(x: " + "Foo<(" * n + "Bar" + ">)" * n + ") {}\n").encode()
    t = time.perf_counter()
    pf = parse_source("deep.rs", src, "rust", "deep")
    assert time.perf_counter() - t < 3.0  # cubic before: ~6 s at 5,000 (65 s for the file)
    assert len(pf.type_refs) == n + 1
    root = _tiny(tmp_path / "repo")
    (root / "deep.py").write_text("def f(x: " + "A[" * 500 + "int" + "]" * 500 + "): pass\n")
    (root / "deeper.py").write_text("def f(x: " + "A[" * 8000 + "int" + "]" * 8000 + "): pass\n")
    report = index_repo(root)
    assert "deep.py" in report.added  # a RecursionError dropped it as "unreadable" before
    assert report.skipped.get("too deep") == 1 and "unreadable" not in report.skipped
    tally("bad input: deep nesting", tried=3, survived=3, lost=0)


# 6. --db never overwrites what is not a lore index -------------------------------------------------
@pytest.mark.parametrize("target", ["mydata.lock", "notes.txt", "/dev/null", "locked.db"])
def test_db_refuses_files_that_are_not_an_index(tmp_path: Path, target: str, tally) -> None:
    root = _tiny(tmp_path / "repo")
    work = tmp_path / "work"
    work.mkdir()
    (work / "mydata.lock").write_text("my data\n")
    (work / "notes.txt").write_text("my notes\n")
    (work / "notes.lock").write_text("my lock notes\n")
    (work / "locked.db.lock").write_text("someone's file\n")
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    proc = run_lore("index", str(root), "--db", target, cwd=work)
    assert one_line_error(proc), (proc.returncode, proc.stderr)
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before  # nothing changed, nothing created
    assert not Path("/dev/null-journal").exists() or target != "/dev/null"
    tally("--db targets that are not an index", tried=1, survived=1, lost=0)


# 7. one line, exit 2, for every user error ------------------------------------------------------------
BAD_COMMANDS = [
    ("show", "99999999999999999999999"),
    ("graph", "related", "ok.g", "--algorithm", "pagerank_mc", "--walks", "99999999999999999999"),
    ("show", "-5"),
    ("graph", "related", "abc"),
    ("related", "abc"),
    ("graph", "related", "ok.g", "--limit", "1e20"),
    ("search", "f", "--limit", "1e20"),
    ("graph", "callers", "ok.f", "--limit", "1e20"),
    ("graph", "nosuch"),
    ("index", ".", "--max-file-size", "-1"),
]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> Path:
    root = _tiny(tmp_path_factory.mktemp("cli") / "repo")
    index_repo(root)
    return root


@pytest.mark.parametrize("args", BAD_COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_user_errors_are_one_line_with_exit_2(indexed: Path, args: tuple[str, ...], tally) -> None:
    proc = run_lore(*args, cwd=indexed)
    ok = one_line_error(proc)
    tally("bad command lines", tried=1, survived=int(ok), lost=int(not ok))
    assert ok, (proc.returncode, proc.stderr)


def test_max_file_size_minus_one_is_refused_by_the_api(tmp_path: Path) -> None:
    from lore.errors import InvalidArgumentError
    from lore.index import index_repo as raw_index_repo

    with pytest.raises(InvalidArgumentError):
        raw_index_repo(_tiny(tmp_path / "repo"), max_file_size=-1)


def test_the_index_survives_any_of_these(indexed: Path) -> None:
    conn = sqlite3.connect(indexed / ".lore" / "index.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_every_command_caps_a_huge_limit_the_same_way(indexed: Path, tally) -> None:
    huge = "99999999999999999999"
    procs = [run_lore("graph", "related", "ok.g", "--limit", huge, "--json", cwd=indexed),
             run_lore("graph", "callers", "ok.f", "--limit", huge, "--json", cwd=indexed),
             run_lore("search", "f", "--limit", huge, "--json", cwd=indexed)]
    ok = [p.returncode == 0 and not p.stderr.strip() for p in procs]
    tally("bad command lines", tried=len(ok), survived=sum(ok), lost=len(ok) - sum(ok))
    assert all(ok), [p.stderr for p in procs]
