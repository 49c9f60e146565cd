"""Every runnable block of README.md and docs/*.md runs, as written, and exits 0.

A fenced block is runnable when its info string says so: ```` ```bash runnable ```` (a shell script,
run with ``bash -euo pipefail``) or ```` ```python runnable ```` (run with this Python). Each runs in a
fresh copy of this repository (its tracked files and the README's reader's view: no ``.git``, no
``.lore``), indexed once for the session so a block need not start with ``lore index .``; ``lore`` and
``python`` on its PATH are this checkout's. A block whose info string has ``file=PATH`` (say ```` ```yaml
file=.lore/questions.yaml ````) is a file the page asks the reader to write: it is written into the copy
before the page's runnable blocks run. Blocks that need a network, an extra, a server that keeps
running or minutes of benchmarks are left unmarked, and the page says so beside them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMEOUT = 180  # seconds per block; the slowest (the CI recipe) takes a few on a loaded 2-core machine
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
COPY_IGNORE = shutil.ignore_patterns(".git", ".lore", "__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache",
                                     ".hypothesis", ".venv", "venv", "build", "dist", "*.egg-info")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    flags: tuple[str, ...]
    body: str

    @property
    def runnable(self) -> bool:
        return "runnable" in self.flags

    @property
    def writes(self) -> str | None:
        return next((f.partition("=")[2] for f in self.flags if f.startswith("file=")), None)

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of one Markdown page, with their info-string words.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "a.md"
    >>> _ = p.write_text("text\\n\\n```bash runnable\\nlore stats\\n```\\n\\n```toml\\nx = 1\\n```\\n")
    >>> [(b.line, b.lang, b.runnable, b.body) for b in blocks(p)]
    [(3, 'bash', True, 'lore stats\\n'), (7, 'toml', False, 'x = 1\\n')]
    """
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        words = m.group("info").split()
        out.append(Block(page, text.count("\n", 0, m.start()) + 1, words[0] if words else "", tuple(words[1:]),
                         m.group("body")))
    return out


RUNNABLE = [b for page in PAGES for b in blocks(page) if b.runnable]


def test_pages_have_runnable_blocks():
    """The marker is in use where the brief wants it: the README's first command and tour, the CI recipe."""
    ids = {b.page.name for b in RUNNABLE}
    assert {"README.md", "ci.md"} <= ids, ids
    assert all(b.lang in ("bash", "python") for b in RUNNABLE), [b.id for b in RUNNABLE if b.lang not in ("bash", "python")]


def _tracked_files() -> list[Path] | None:
    try:
        res = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None  # not a git checkout (an sdist): copy the tree, ignoring what git would
    return [Path(p) for p in res.stdout.decode().split("\0") if p]


def _copy_repo(dest: Path) -> None:
    files = _tracked_files()
    if files is None:
        shutil.copytree(ROOT, dest, ignore=COPY_IGNORE)
        return
    for rel in files:
        src = ROOT / rel
        if src.is_file():  # deleted in the work tree but still in the index: the reader has no such file
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


@pytest.fixture(scope="session")
def shell_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """PATH with this checkout's ``lore`` and this ``python`` first; PYTHONPATH with this checkout."""
    bin_dir = tmp_path_factory.mktemp("bin")
    lore = bin_dir / "lore"
    lore.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m lore "$@"\n')
    lore.chmod(0o755)
    for name in ("python", "python3"):
        (bin_dir / name).symlink_to(sys.executable)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["COLUMNS"] = "100"
    env.pop("LORE_MCP_SDK", None)
    return env


@pytest.fixture(scope="session")
def indexed_copy(tmp_path_factory: pytest.TempPathFactory, shell_env: dict[str, str]) -> Path:
    """A copy of the repository as a reader has it after `git clone`, indexed once."""
    dest = tmp_path_factory.mktemp("repo") / "lore"
    _copy_repo(dest)
    res = subprocess.run(["lore", "index", "."], cwd=dest, env=shell_env, capture_output=True, text=True,
                         timeout=TIMEOUT)
    assert res.returncode == 0, res.stderr
    return dest


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_runnable_block(block: Block, indexed_copy: Path, shell_env: dict[str, str], tmp_path: Path):
    work = tmp_path / "lore"
    shutil.copytree(indexed_copy, work, symlinks=True)
    for other in blocks(block.page):
        if other.writes:
            target = work / other.writes
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(other.body, encoding="utf-8")
    script = tmp_path / ("block.py" if block.lang == "python" else "block.sh")
    script.write_text(block.body, encoding="utf-8")
    cmd = [sys.executable, str(script)] if block.lang == "python" else ["bash", "-euo", "pipefail", str(script)]
    res = subprocess.run(cmd, cwd=work, env=shell_env, capture_output=True, text=True, timeout=TIMEOUT)
    assert res.returncode == 0, (
        f"{block.id} exited {res.returncode}\n--- block\n{block.body}--- stdout\n{res.stdout[-3000:]}"
        f"--- stderr\n{res.stderr[-3000:]}"
    )


LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def test_links_stay_inside_the_repository():
    """Every relative link of the README and docs/ names a file of this repository that exists.

    (docs/names.md, history.md, indexing.md, ranking.md and commands.md are written on other branches
    of the same issue: until they are merged, this test names them.)
    """
    bad = []
    for page in PAGES:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))  # code blocks hold no links
        for m in LINK.finditer(text):
            target = m.group("target").split("#", 1)[0]
            if not target or re.match(r"[a-z]+:", target):  # an anchor on the page, or a URL
                continue
            path = (page.parent / target).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                bad.append(f"{page.relative_to(ROOT)}: {m.group('target')}")
    assert not bad, bad
