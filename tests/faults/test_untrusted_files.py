"""Files a user names on the command line (weights, thresholds, baselines, configs) that are not files.

``--weights /dev/zero`` grew without bound (24 GB before the machine killed it) and a FIFO waited
forever for a writer. Every such read goes through :func:`lore._files.read_bounded`: a regular file of
bounded size, or one line naming the file and the fix.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from lore._files import read_bounded, read_json
from lore.bench.ci import load_baseline
from lore.bench.gate import load_thresholds
from lore.errors import InvalidArgumentError
from lore.graphs.hybrid import load_weights
from lore.index.config import load_settings

from .conftest import one_line_error, tiny_index


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # the old reader of /dev/zero stops here


def _outcome(reader: Callable, path: Path) -> BaseException | str:
    """What ``reader(path)`` raised, or ``"hang"`` (a FIFO read before the fix; then its writer end is closed)."""
    got: list = []

    def run() -> None:
        try:
            reader(path)
            got.append("read")
        except BaseException as exc:  # noqa: BLE001 - the outcome is what the test looks at
            got.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout=10)
    if t.is_alive():
        for fifo in (p for p in (path, *path.iterdir()) if p.is_fifo()) if path.is_dir() else [path]:
            try:  # give the blocked reader an end of file, so the thread ends
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        return "hang"
    return got[0]


def _one_line(outcome: BaseException | str, *names: str) -> bool:
    return (isinstance(outcome, InvalidArgumentError) and "\n" not in str(outcome)
            and any(n in str(outcome) for n in names))


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return tiny_index(tmp_path_factory, "untrusted")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "weights.fifo"
    os.mkfifo(p)
    return p


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_weights_that_are_not_a_file_are_one_line(db: Path, fifo: Path, tally) -> None:
    good, problems = [], []
    for weights in ("/dev/zero", str(fifo), str(db.parent)):
        try:
            proc = subprocess.run([sys.executable, "-m", "lore", "graph", "related", "m.g", "--weights", weights,
                                   "--db", str(db)], capture_output=True, text=True, timeout=30,
                                  preexec_fn=_bounded_memory)
            ok = one_line_error(proc) and weights in proc.stderr and "regular file" in proc.stderr
        except subprocess.TimeoutExpired:  # the FIFO: waiting for a writer that never comes
            ok, proc = False, None
        good.append(ok)
        if not ok:
            problems.append((weights, proc and proc.stderr[-300:]))
    tally("untrusted file: --weights not a regular file", tried=len(good), survived=sum(good),
          lost=len(good) - sum(good))
    assert not problems, problems


def test_every_reader_of_a_user_file_is_bounded(tmp_path: Path, fifo: Path, tally) -> None:
    """Weights, thresholds, baselines and configs: a FIFO, a directory, a file over the limit, nested JSON."""
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # sparse: no disk used, but larger than any such file may be
        fh.truncate(64 << 20)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    readers = [load_weights, load_thresholds, load_baseline]
    tried = survived = 0
    for reader in readers:
        for path in (fifo, tmp_path, big, deep):
            tried += 1
            survived += _one_line(_outcome(reader, path), str(path))
    # configs in the repository being indexed: a FIFO named .loreignore, an oversized .lore/config.toml
    repo = tmp_path / "repo"
    (repo / ".lore").mkdir(parents=True)
    os.mkfifo(repo / ".loreignore")
    with open(repo / ".lore" / "config.toml", "wb") as fh:
        fh.truncate(64 << 20)
    tried += 1
    survived += _one_line(_outcome(load_settings, repo), "config.toml", ".loreignore")
    tally("untrusted file: weights/thresholds/baseline/config", tried=tried, survived=survived,
          lost=tried - survived)
    assert survived == tried


def test_the_bounded_reader_reads_regular_files_whole(tmp_path: Path) -> None:
    p = tmp_path / "w.json"
    p.write_text('{"weights": {}}')
    assert read_bounded(p, "weights file") == b'{"weights": {}}'
    assert read_json(p, "weights file") == {"weights": {}}
    with pytest.raises(InvalidArgumentError, match="more than the 4 bytes"):
        read_bounded(p, "weights file", limit=4)
