"""A generated repository big enough that answers have dozens of rows, walk paths of several hops,
calls, type references, inheritance and overrides."""

from __future__ import annotations

import pytest

N_MODULES = 12


def _module(i: int) -> str:
    prev = (i - 1) % N_MODULES
    return f'''
from app.core import Base, helper_a, helper_b, Record
from app.mod{prev} import Worker{prev}


class Worker{i}(Base):
    def run(self, rec: Record) -> Record:
        helper_a(rec)
        return self.step(rec)

    def step(self, rec: Record) -> Record:
        helper_b(rec)
        return rec


def make{i}(rec: Record) -> Worker{i}:
    w = Worker{i}()
    w.run(rec)
    Worker{prev}().step(rec)
    return w


def use{i}() -> None:
    make{i}(Record())
    helper_a(None)
'''


@pytest.fixture(scope="module")
def wide_index(tmp_path_factory):
    """An open index of ``app``: a core module and 12 modules of one worker class and two functions each."""
    from lore import index_repo, open_index

    from ..conftest import write_tree

    files = {"app/__init__.py": "", "app/core.py": '''
class Record:
    pass


class Base:
    def run(self, rec: Record) -> Record:
        return rec


def helper_a(rec: Record) -> None:
    helper_b(rec)


def helper_b(rec: Record) -> None:
    pass
'''}
    files.update({f"app/mod{i}.py": _module(i) for i in range(N_MODULES)})
    root = write_tree(tmp_path_factory.mktemp("wide"), files)
    index_repo(root, workers=1)
    idx = open_index(root)
    yield idx
    idx.close()
