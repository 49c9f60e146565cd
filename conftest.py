"""Doctests that need an optional extra are skipped, not failed, where the extra is not installed.

The README's test command runs after ``pip install -e ".[dev]"``, which installs none of the extras
``ray`` (Ray, pyarrow), ``embed`` (onnxruntime, tokenizers) or ``pdf`` (pypdf). Tests under ``tests/``
skip themselves (``pytest.importorskip``); a doctest cannot, so this file reads each doctest's source
and skips it when it uses an extra that is missing. It sits at the repository root (not in ``lore/``)
so that it never ships in the wheel.
"""

from __future__ import annotations

import importlib.util

import pytest

# (text in a doctest's examples, module it needs, extra that installs it)
EXTRA_USES = (
    ('edge_store="parquet"', "pyarrow", "ray"),
    ("import pyarrow", "pyarrow", "ray"),
    ('executor="ray"', "ray", "ray"),
    ('engine="ray"', "ray", "ray"),
    ("import ray", "ray", "ray"),
    ('embedder="minilm"', "onnxruntime", "embed"),
    ("import onnxruntime", "onnxruntime", "embed"),
    ("import tokenizers", "tokenizers", "embed"),
    ("import pypdf", "pypdf", "pdf"),
)


def missing_extra(source: str) -> str | None:
    """The reason to skip a doctest whose ``source`` uses an extra that is not installed, else None.

    Examples
    --------
    >>> missing_extra('index_repo(d, edge_store="hashing")') is None
    True
    >>> missing_extra("import no_such_module_at_all") is None
    True
    """
    for text, module, extra in EXTRA_USES:
        if text in source and importlib.util.find_spec(module) is None:
            return f"needs {module} (pip install -e '.[{extra}]')"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        dtest = getattr(item, "dtest", None)  # a DoctestItem's parsed doctest
        if dtest is None:
            continue
        reason = missing_extra("\n".join(example.source for example in dtest.examples))
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))
