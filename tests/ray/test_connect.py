"""lore._ray: where lore connects, and the one-line errors when it cannot."""

from __future__ import annotations

import pytest

from lore import _ray
from lore.errors import ClusterConnectionError


def test_address_order(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert _ray.resolve_address(None) == "local"
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    assert _ray.resolve_address(None) == "auto"
    assert _ray.resolve_address("ray://h:10001") == "ray://h:10001"


def test_missing_extra_is_one_line(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *a, **k):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(Exception) as info:
        _ray.ray_module("--engine ray")
    assert "pip install 'lore-graph[ray]'" in str(info.value) and "\n" not in str(info.value)


def test_unreachable_cluster_is_one_line():
    pytest.importorskip("ray")
    _ray.shutdown()
    with pytest.raises(ClusterConnectionError) as info:
        _ray.connect("127.0.0.1:1")
    msg = str(info.value)
    assert msg.startswith("cannot use the Ray cluster at 127.0.0.1:1") and "\n" not in msg


def test_local_instance_is_reused(ray_local):
    assert _ray.connect(None) is ray_local
    assert ray_local.is_initialized()
