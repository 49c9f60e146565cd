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


def test_the_default_ranker_on_an_unreachable_cluster_is_one_line_exit_2(tmp_path):
    """hybrid (the default) runs its structure signal on the engine: a bad address is not ignored."""
    import os
    import subprocess
    import sys

    from lore import index_repo

    pytest.importorskip("ray")
    (tmp_path / "m.py").write_text("def f():\n    g()\n\n\ndef g():\n    pass\n")
    index_repo(tmp_path, workers=1)
    done = subprocess.run([sys.executable, "-m", "lore", "graph", "related", "m.f", "--engine", "ray",
                           "--ray-address", "127.0.0.1:1", "--db", str(tmp_path / ".lore" / "index.db")],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "RAY_ADDRESS": ""})
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().startswith("lore: error: cannot use the Ray cluster at 127.0.0.1:1")
    assert len(done.stderr.strip().splitlines()) == 1
