"""A new process's first ``related`` reads the builtin prefixes without importing every language's parser.

``builtin_rows`` (which rows a why never names as shared neighbours) needs each language's builtin
prefix; importing :mod:`lore.languages` to read them compiled every parser's regular expressions (about
0.3 CPU s of a first query on the Linux kernel's index). The prefixes are written out in
:mod:`lore.queries.related`; these tests keep them equal to the languages' own and check that a query
process never imports the parsers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from lore import index_repo

from ..conftest import write_tree


def test_written_prefixes_are_every_languages_own():
    from lore.languages import LANGUAGES
    from lore.queries.related import BUILTIN_PREFIXES

    assert BUILTIN_PREFIXES == tuple(sorted({lang.rules.builtin_prefix for lang in LANGUAGES}))


_QUERY = """
import json, sys
from lore import lore_graph, open_index
with open_index(sys.argv[1]) as idx:
    res = lore_graph(idx, kind="related", source_id="pkg.a.run")["results"]
print(json.dumps({"names": [r["qualified_name"] for r in res],
                  "parsers": sorted(m for m in sys.modules if m.startswith("lore.languages"))}))
"""


def test_first_related_imports_no_parser(tmp_path):
    write_tree(tmp_path / "repo", {
        "pkg/__init__.py": "",
        "pkg/a.py": "def run(x):\n    return len(helper(x))\n\n\ndef helper(x):\n    return str(x)\n",
        "pkg/b.py": "from pkg.a import helper\n\n\ndef other(y):\n    return len(helper(y))\n",
    })
    db = tmp_path / "i.db"
    index_repo(tmp_path / "repo", db=db, history="off")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), os.getcwd()) if p)}
    out = subprocess.run([sys.executable, "-c", _QUERY, str(db)], capture_output=True, text=True, env=env,
                         check=True)
    got = json.loads(out.stdout)
    assert "pkg.b.other" in got["names"]  # the query ran and ranked
    assert got["parsers"] == []
