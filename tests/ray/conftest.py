"""One local Ray instance (2 CPUs) for every test in this folder; skipped when the extra is missing."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ray_local(tmp_path_factory):
    """Start Ray in local mode once per session and stop it at the end."""
    ray = pytest.importorskip("ray")
    from lore import _ray

    _ray.shutdown()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             _temp_dir=str(tmp_path_factory.mktemp("ray")))
    yield ray
    _ray.shutdown()
