"""Windows has no ``fcntl`` / ``resource``: ``import lore`` must work, and indexing must end in one line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import write_tree

# A ``None`` entry in sys.modules makes ``import fcntl`` raise ImportError, as on Windows.
WINDOWS_LIKE = """
import sys
sys.modules["fcntl"] = None
sys.modules["resource"] = None
import lore
import lore.index.indexer
from lore.errors import LoreError
try:
    lore.index_repo(sys.argv[1], workers=1)
except LoreError as exc:
    print("LoreError:", exc)
else:
    print("indexed")
"""


def test_import_without_posix_modules_and_one_line_for_indexing(tmp_path: Path):
    root = write_tree(tmp_path / "repo", {"a.py": "def f():\n    return 1\n"})
    res = subprocess.run([sys.executable, "-c", textwrap.dedent(WINDOWS_LIKE), str(root)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("LoreError: writing an index needs POSIX file locks"), res.stdout
    assert res.stdout.count("\n") == 1 and not (root / ".lore" / "index.db").exists()
