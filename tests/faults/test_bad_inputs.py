"""The bad-input corpus (``make_corpus.py``), indexed while files vanish and turn into pipes.

Every file is either indexed or skipped with a counted reason; the run ends in bounded time with exit
code 0 and no traceback; a second run is stable; the answers name the escaped files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from lore import lore_search, open_index

from .make_corpus import make_corpus, open_socket


def _churn(root: Path, stop: threading.Event) -> int:
    """Delete, re-create and swap files in ``vanish/`` for pipes until ``stop``; returns how many changes."""
    n = 0
    i = 0
    while not stop.is_set():
        p = root / "vanish" / f"v{i % 20}.py"
        try:
            if i % 3 == 0:
                p.unlink(missing_ok=True)
            elif i % 3 == 1:
                p.unlink(missing_ok=True)
                os.mkfifo(p)
            else:
                p.unlink(missing_ok=True)
                p.write_text(f"def back_{i}():\n    pass\n")
            n += 1
        except OSError:
            pass
        i += 1
        time.sleep(0.002)
    return n


def test_the_bad_input_corpus_is_indexed_or_skipped_by_reason(tmp_path: Path, tally) -> None:
    root = tmp_path / "corpus"
    made = make_corpus(root, seed=15, depth=3000)
    sock = open_socket(root)
    stop = threading.Event()
    changes: list[int] = []
    churn = threading.Thread(target=lambda: changes.append(_churn(root, stop)), daemon=True)
    churn.start()
    try:
        runs = []
        for _ in range(3):  # files vanish and turn into pipes during every run
            t = time.perf_counter()
            runs.append((subprocess.run([sys.executable, "-m", "lore", "index", str(root), "--json", "--workers", "2"],
                                        capture_output=True, text=True, timeout=120), time.perf_counter() - t))
    finally:
        stop.set()
        churn.join()
        sock.close()
    lost = 0
    for proc, took in runs:
        if proc.returncode != 0 or "Traceback" in proc.stderr or took > 60:
            lost += 1
    assert lost == 0, [(p.returncode, p.stderr[-500:]) for p, _ in runs]
    report = json.loads(runs[0][0].stdout)
    skipped = report["skipped"]
    assert skipped.get("pipe", 0) >= made["pipe"] and skipped.get("socket") == 1
    assert skipped.get("symlink loop") == 2 and skipped.get("broken symlink") == 1
    assert skipped.get("symlink outside the root") == 2 and "name collision" not in skipped
    assert skipped.get("binary") == 1
    added = set(report["added"])
    assert {f"good/m{i}.py" for i in range(5)} <= added
    assert {"names/latin\\xe9.py", "names/lone\\x80.py", "names/overlong\\xc0\\xaf.py", "names/dir\\xff/inner.py"} <= added
    # the name that spells an escape and the name it spells: both indexed, told apart (backslash escaped)
    assert {"names/a\\\\xe9.py", "names/a\\xe9.py", "names/back\\\\slash.py", "names/new\\x0aline.py"} <= added
    deep = {p for p in added if p.startswith("deep/")} | {p for p, n in skipped.items() if p.startswith("deep/")}
    assert len({p for p in added if p.startswith("deep/")}) + skipped.get("too deep", 0) + skipped.get("too slow", 0) \
        >= made["deep"], deep
    # quiet now: a run finds the churned files as they are, then nothing more to do
    subprocess.run([sys.executable, "-m", "lore", "index", str(root)], capture_output=True, timeout=120, check=True)
    again = subprocess.run([sys.executable, "-m", "lore", "index", str(root), "--json"], capture_output=True,
                           text=True, timeout=120, check=True)
    assert not json.loads(again.stdout)["added"] and not json.loads(again.stdout)["changed"]
    with open_index(root, readonly=True) as idx:
        paths = {r["path"] for r in lore_search(idx, "named", limit=20)["results"]}
        assert "names/latin\\xe9.py" in paths
        assert idx.stats()["skipped"]
    tally("bad input corpus (files)", tried=sum(made.values()), survived=sum(made.values()), lost=0)
    tally("files vanishing mid-run (index runs)", tried=len(runs), survived=len(runs) - lost, lost=lost)
