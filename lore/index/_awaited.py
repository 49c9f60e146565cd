"""What ``x = await f()`` binds when ``f()`` gives an object that is awaitable by its class.

The Python parser erases ``await``: ``x = await f()`` binds what ``f`` returns, which is right for a
coroutine function (``async def f() -> T``: awaiting its call gives ``T``). A plain function may instead
return an object whose class defines ``__await__`` (aiohttp's ``ClientSession.get`` returns a
``_RequestContextManager``; awaiting it gives a ``ClientResponse``): awaiting that object gives what its
``__await__`` generator returns, never the object itself. The parser marks such a binding with an
``arg`` starting ``<await>`` (the rest is the call's first argument, as for any call binding); for the
object of a repository class with ``__await__`` the value is opaque (known to exist, never named): a call on it stays
unbound, neither bound to the awaitable's own methods nor guessed by name.
"""

from __future__ import annotations

from dataclasses import replace

from ..parsers.records import Binding
from ._world import FileCtx, Value

AWAITED = "<await>"  # Binding.arg's prefix: the value is what awaiting the call's result gives


def awaited_value(w, c: FileCtx, scope: int, b: Binding, depth: int) -> tuple[Value, str] | None:
    """The value of a binding marked :data:`AWAITED`: the call's result, unless it is an instance of a
    repository class that defines ``__await__`` (then opaque: what that ``__await__`` gives)."""
    got = w.binding_value(c, scope, replace(b, arg=b.arg[len(AWAITED):]), depth)
    if got is None:
        return None
    v = got[0]
    cls = v[1][0] if v[0] == "gin" else v[1] if v[0] == "inst" else None  # type: ignore[index]
    if isinstance(cls, int) and (m := w.class_member(cls, "__await__")) is not None and m[0][0] == "sym":
        return ("opaque", f"{w.syms[m[0][1]].qualified_name}()"), got[1]  # known, unnamed: never guessed
    return got
