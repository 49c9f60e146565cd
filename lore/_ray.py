"""Connecting to Ray, the one scale-out engine lore supports (the optional extra ``lore-graph[ray]``).

Both users of Ray go through :func:`connect`: the Ray graph engine (``lore graph ... --engine ray``)
and Ray indexing (``lore index --executor ray``). Where to connect is decided in one order:

1. the ``address`` argument (``--ray-address``): ``auto`` (a cluster started on this machine with
   ``ray start --head``), ``ray://host:port`` (Ray Client) or ``host:port`` (a GCS address);
2. the ``RAY_ADDRESS`` environment variable, the same values;
3. otherwise a local Ray instance in this process (local mode), started once and reused.

A missing extra raises :class:`~lore.errors.MissingExtraError`; an unreachable cluster, or one whose
Ray, Python or lore version differs from the driver's, raises :class:`~lore.errors.ClusterConnectionError`
(one line; the CLI exits with code 2). Ray is imported only inside these functions.

It imports nothing from lore but the errors, so any layer may use it (lore's version comes from the
installed distribution's metadata).
"""

from __future__ import annotations

import os
import socket
import sys
from types import ModuleType
from typing import Any

from .errors import ClusterConnectionError, MissingExtraError

LOCAL = "local"


def ray_module(feature: str = "Ray scale-out") -> ModuleType:
    """Import and return :mod:`ray`, or raise :class:`~lore.errors.MissingExtraError`.

    Parameters
    ----------
    feature : str
        What needs Ray, for the message (``"--engine ray"``, ``"--executor ray"``).
    """
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError(feature, "ray") from exc
    return ray


def resolve_address(address: str | None) -> str:
    """The address lore will use: the argument, else ``RAY_ADDRESS``, else ``"local"``."""
    chosen = (address or "").strip() or os.environ.get("RAY_ADDRESS", "").strip()
    return chosen or LOCAL


def _versions() -> tuple[str, tuple[int, int], str]:
    from importlib import metadata

    import ray

    try:  # the installed distribution's version (importing lore itself here would close an import cycle)
        lore_version = metadata.version("lore-graph")
    except metadata.PackageNotFoundError:
        lore_version = "not installed"
    return ray.__version__, (sys.version_info[0], sys.version_info[1]), lore_version


def connect(address: str | None = None, *, num_cpus: int | None = None, feature: str = "Ray scale-out") -> ModuleType:
    """Connect to (or start) Ray and check that the cluster runs the driver's versions.

    Parameters
    ----------
    address : str, optional
        ``auto``, ``ray://host:port`` or ``host:port``; ``None`` or empty reads ``RAY_ADDRESS`` and
        falls back to a local instance.
    num_cpus : int, optional
        CPUs of a *local* instance (ignored when joining a cluster); default: all of this machine's.
    feature : str
        What needs Ray, named in the error when the extra is missing.

    Returns
    -------
    module
        The initialised :mod:`ray` module.

    Raises
    ------
    MissingExtraError
        Ray is not installed.
    ClusterConnectionError
        The cluster cannot be reached, or its Ray / Python / lore versions differ from the driver's.
    """
    ray = ray_module(feature)
    where = resolve_address(address)
    if ray.is_initialized():
        return ray
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if where not in (LOCAL, "auto"):
        _probe(where)
    try:
        if where == LOCAL:
            ray.init(address="local", num_cpus=num_cpus, **kwargs)
        else:
            ray.init(address=where, **kwargs)
    except (Exception, SystemExit) as exc:  # Ray raises ConnectionError, RuntimeError, even SystemExit...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterConnectionError(
            where, f"{reason[:200]}; start one with `ray start --head` or leave --ray-address and RAY_ADDRESS unset "
            "for a local instance"
        ) from None
    if where != LOCAL:
        _check_versions(ray, where)
    return ray


def _probe(where: str, timeout: float = 5.0) -> None:
    """Fail in seconds, not minutes, when nothing listens at ``host:port`` (Ray itself retries for long)."""
    hostport = where.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterConnectionError(where, "an address is `auto`, `ray://host:port` or `host:port`")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ClusterConnectionError(
            where, f"nothing answers there ({exc.strerror or type(exc).__name__}); start one with `ray start --head` "
            "or leave --ray-address and RAY_ADDRESS unset for a local instance"
        ) from None


def _check_versions(ray: ModuleType, where: str) -> None:
    mine = _versions()
    try:
        theirs = ray.get(ray.remote(num_cpus=0)(_versions).remote(), timeout=120)
    except Exception as exc:
        ray.shutdown()
        raise ClusterConnectionError(where, f"a probe task failed ({type(exc).__name__}); is lore installed on "
                                     "the cluster's nodes?") from None
    names = ("Ray", "Python", "lore")
    diffs = [f"{n} {_show(t)} on the cluster, {_show(m)} here"
             for n, m, t in zip(names, mine, tuple(theirs), strict=True)
             if _show(m) != _show(t)]
    if diffs:
        ray.shutdown()
        raise ClusterConnectionError(where, "; ".join(diffs) + "; install the same versions on both sides")


def _show(v: object) -> str:
    return ".".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)


def shutdown() -> None:
    """Disconnect from Ray (stop the local instance) if connected; a no-op otherwise."""
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
