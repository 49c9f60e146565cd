"""Parameters of a callback that the container it is given to types (TypeScript's contextual typing
through ECMAScript's methods): ``routes.forEach((r) => r.handle())`` with ``routes: Route[]`` (``r`` is a
``Route``), ``p.then((v) => v.run())`` with ``p`` a promise of a project value. The resolver
(:meth:`lore.index._values.ValuesMixin.contextual_value`) asks these first for a callback's parameter and
weakens the rule the container was found by into ``annotated_type``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ._world import FileCtx, Value

# ECMAScript's methods that call their first argument with each element: which parameter gets it
ELEMENT_CALLBACKS = {**dict.fromkeys(("forEach", "map", "filter", "find", "findIndex", "findLast", "findLastIndex",
                                      "some", "every", "flatMap"), 0), "reduce": 1, "reduceRight": 1}


def element_param(world, c: FileCtx, scope: int, head: str, j: int, line: int,
                  depth: int) -> tuple[Value, str] | None:
    """Parameter ``j`` of a callback passed first to ECMAScript's element methods of a container whose
    element types are known (``routes.forEach((r) => r.handle())`` with ``routes: Route[]``; ``(acc, r)
    => ...`` of ``reduce``): an element (a Map's value) and the rule the container was found by, or None."""
    receiver, _dot, method = head.rpartition(".")
    if not receiver or ELEMENT_CALLBACKS.get(method) != j:
        return None
    got = world.resolve_path(c, scope, receiver, line, depth + 1)
    if got is None or got[0][0] != "of":
        return None
    container, iterated, item = cast("tuple[str, Value | None, Value | None]", got[0][1])
    if not container.startswith("js.global."):
        return None
    elem = item if container.endswith(".Map") else iterated
    return (elem, got[1]) if elem is not None else None


def promised(world, c: FileCtx, scope: int, receiver: str, line: int, depth: int) -> tuple[Value, str] | None:
    """``p.then((v) => ...)`` where ``p``'s type has no ``then`` of its own: ``p`` is a promise of it (lore
    reads ``Promise<Foo>`` as a ``Foo``), so ``v`` is that value, with the rule ``p`` was found by."""
    got = world.resolve_path(c, scope, receiver, line, depth + 1)
    if got is None or got[0][0] != "inst":
        return None
    if world.class_member(got[0][1], "then", depth=depth + 1) is not None:
        return None
    return got


def pushed_element(world, c: FileCtx, scope: int, head: str, line: int, depth: int) -> tuple[Value, str] | None:
    """A callback given to ``push`` / ``unshift`` of an array whose element type is known
    (``options.interceptors.push((o) => o.next())`` with ``interceptors: Interceptor[]``): it is an element,
    so the element type's call signature types its parameters. The element and the rule the array was
    found by, or None (an array of unknown or runtime elements, any other method)."""
    receiver, _dot, method = head.rpartition(".")
    if not receiver or method not in ("push", "unshift"):
        return None
    got = world.resolve_path(c, scope, receiver, line, depth + 1)
    if got is None or got[0][0] != "of":
        return None
    container, iterated, _item = cast("tuple[str, Value | None, Value | None]", got[0][1])
    if container != "js.global.Array" or iterated is None:
        return None
    return iterated, got[1]
