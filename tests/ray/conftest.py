"""One local Ray instance (2 CPUs) for every test in this folder; skipped when the extra is missing."""

from __future__ import annotations

import shutil
import tempfile

import pytest


@pytest.fixture(scope="session")
def ray_local():
    """Start Ray in local mode once per session and stop it at the end.

    Ray's session folder holds Unix sockets, whose paths may not exceed 107 bytes: it goes in a short
    folder under /tmp, not under pytest's temporary folder (which CI puts below a longer TMPDIR).
    """
    ray = pytest.importorskip("ray")
    from lore import _ray

    _ray.shutdown()
    short = tempfile.mkdtemp(prefix="ray", dir="/tmp" if len(tempfile.gettempdir()) > 12 else None)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             _temp_dir=short)
    yield ray
    _ray.shutdown()
    shutil.rmtree(short, ignore_errors=True)
