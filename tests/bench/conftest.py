"""Fixtures of the benchmark tests: a tiny package with See-Also sections, indexed once per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write_tree

SEEALSO_PKG = {
    "pkg/__init__.py": "from .core import *\nfrom .sub.deep import deep_func\n",
    "pkg/core.py": '''
        def alpha(x):
            """First.

            See Also
            --------
            beta, pkg.sub.deep.deep_func
            gamma : the third one,
                described at length.
            nowhere
            """
            return beta(x) + helper(x)


        def beta(x):
            """Second.

            See Also
            --------
            :func:`~pkg.alpha`
            """
            return helper(x)


        def gamma(x):
            return helper(x) + beta(x)


        def helper(x):
            return x


        class Thing:
            """A thing."""

            def run(self):
                """Run it.

                See Also
                --------
                stop
                Thing
                """
                self.stop()

            def stop(self):
                helper(1)
        ''',
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": '''
        from pkg.core import helper


        def deep_func(y):
            """Deep.

            See also
            --------
            alpha
            """
            return helper(y)
        ''',
    "tests/test_core.py": '''
        from pkg.core import alpha


        def test_alpha():
            """Not a source.

            See Also
            --------
            alpha
            """
            assert alpha(1)
        ''',
}




@pytest.fixture
def seealso_repo(tmp_path: Path) -> Path:
    """The package above, indexed; returns the database path."""
    from lore.index import index_repo

    root = write_tree(tmp_path / "repo", SEEALSO_PKG)
    db = tmp_path / "index.db"
    index_repo(root, db=db, workers=1)
    return db
