r"""File names that spell an escape, are not UTF-8, or hold control characters: every reader still works.

Before: a file literally named ``lit\x41.py`` (valid UTF-8) was stored as it is and read back as the
escape it spells (``lit`` + surrogate + ``.py``): ``lore show``, ``Index.status()`` and MCP
``lore_status`` failed for the whole repository ("surrogates not allowed"); ``lit\xff.py`` (a
backslash) and the byte name ``lit<ff>.py`` collided and one was dropped; a newline in a name split
the one-line error, and an escape sequence in a name reached the terminal. Now names are stored by one
injective escape (:func:`lore.index.walk.escape_name`), printable on one line, and every reader that
touches the file system turns them back into the exact bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from lore import index_repo, open_index
from lore.index.walk import unescape_name
from lore.mcp_server import LoreTools

from .conftest import run_lore

BODY = "def f(x):\n    return g(x)\n\n\ndef g(x):\n    return x\n"
NAMES = [b"lit\xff.py", b"lit\\xff.py", b"lit\\x41.py", b"back\\\\slash.py", b"nl\nname.py", b"tab\tname.py",
         b"esc\x1b[31mred.py", "café.py".encode(), b"plain.py"]


def _repo(root: Path) -> Path:
    root.mkdir()
    for raw in NAMES:
        with open(os.path.join(os.fsencode(root), raw), "w") as fh:
            fh.write(BODY)
    return root


def test_every_file_name_round_trips_through_every_reader(tmp_path: Path, tally) -> None:
    root = _repo(tmp_path / "repo")
    report = index_repo(root, workers=1)
    checks: dict[str, bool] = {}
    checks["every file indexed, none dropped as a collision"] = (
        len(report.added) == len(NAMES) and not any("collision" in str(s) for s in report.to_dict().get("skipped", [])))
    stored = sorted(report.added)
    checks["stored names are one printable line"] = all(p.isprintable() for p in stored)
    checks["stored names give back the exact bytes"] = sorted(os.fsencode(unescape_name(p)) for p in stored) == sorted(
        NAMES)
    with open_index(root, readonly=True) as idx:
        status = idx.status()
        checks["Index.status() answers, fresh"] = status["fresh"] is True and status["files"] == len(NAMES)
        snippets = []
        for p in stored:
            module = p[: -len(".py")]
            snippets.append("return g(x)" in (idx.symbol(f"{module}.f", snippet_lines=3).get("snippet") or ""))
        checks["Index.symbol() shows each file's source"] = all(snippets)
    tools = LoreTools(Path(report.db))
    mcp_status = tools.call("lore_status", {})
    checks["MCP lore_status answers, fresh"] = mcp_status["fresh"] is True and mcp_status["files"] == len(NAMES)
    show = run_lore("show", "lit\\\\x41.f", "--db", str(report.db))
    checks["lore show lit\\x41.f"] = show.returncode == 0 and "return g(x)" in show.stdout
    stats = run_lore("stats", "--db", str(report.db))
    listed = run_lore("graph", "related", "nl\\x0aname.f", "--json", "--db", str(report.db))
    checks["lore stats / graph related: no control character on stdout"] = (
        stats.returncode == 0 and listed.returncode == 0 and "\x1b" not in stats.stdout + listed.stdout
        and all("\n" not in r["path"] for r in json.loads(listed.stdout)["results"]))
    again = index_repo(root, workers=1)
    checks["a second run re-parses nothing"] = not again.changed_any
    ok = sum(checks.values())
    tally("file names: escapes, bytes, control characters", tried=len(checks), survived=ok, lost=len(checks) - ok)
    assert all(checks.values()), {k: v for k, v in checks.items() if not v}
