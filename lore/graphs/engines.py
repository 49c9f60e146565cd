"""Engines by name: what ``--engine`` (CLI), ``engine=`` (Python) and ``lore serve --engine`` choose.

* ``local`` (default): this process, scipy (:data:`lore.algorithms._engine.LOCAL`).
* ``ray``: row blocks on Ray actors (:class:`lore.graphs.ray_engine.RayEngine`), at ``ray_address``
  (``auto``, ``ray://host:port``; default ``RAY_ADDRESS`` or a local Ray instance). One engine per
  address per process, made on first use and remade if Ray was shut down.

The answers do not depend on the engine (the Ray engine is bit-identical); only where the work runs
does. Layers above ``graphs`` pass the *name* and the address, never an engine object.
"""

from __future__ import annotations

from ..algorithms._engine import LOCAL, Engine
from ..errors import UnknownAlgorithmError

ENGINES = ("local", "ray")

_RAY: dict[str, Engine] = {}


def check_engine_name(name: str | None) -> str:
    """``name`` (default ``local``) if lore knows it, else :class:`~lore.errors.UnknownAlgorithmError`.

    Examples
    --------
    >>> check_engine_name(None), check_engine_name("ray")
    ('local', 'ray')
    """
    chosen = name or "local"
    if chosen not in ENGINES:
        raise UnknownAlgorithmError(chosen, ENGINES, what="engine")
    return chosen


def get_engine(name: str | None = "local", ray_address: str | None = None) -> Engine:
    """The engine called ``name``; Ray connects on first use (one-line errors if it cannot).

    Raises
    ------
    UnknownAlgorithmError
        Not one of :data:`ENGINES`.
    MissingExtraError, ClusterConnectionError
        ``ray`` without the extra, or the cluster cannot be reached (see :func:`lore._ray.connect`).
    """
    if check_engine_name(name) == "local":
        return LOCAL
    from .._ray import resolve_address
    from .ray_engine import RayEngine

    where = resolve_address(ray_address)
    engine = _RAY.get(where)
    if engine is None or not engine.alive:  # type: ignore[attr-defined]
        engine = RayEngine(ray_address)
        _RAY[where] = engine
    return engine
