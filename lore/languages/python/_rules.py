"""Python's resolution rules: ``self`` / ``cls``, ``__init__``, builtins, relative and star imports."""

from __future__ import annotations

import builtins
import sys

from ...parsers.records import Import
from .._rules import ImportBinding, LanguageRules
from ._delegates import gives_receiver, receiver_value, self_typed


def _builtin_method_names() -> frozenset[str]:
    names: set[str] = set()
    for t in (list, dict, str, set, bytes, tuple, frozenset, int, float, bytearray):
        names.update(n for n in dir(t) if not n.startswith("__"))
    return frozenset(names)


class PythonRules(LanguageRules):
    language = "python"
    self_names = frozenset({"self", "cls"})
    constructor_names = ("__init__", "__new__")
    follows_values = True
    test_fixtures = True
    callback_args = {
        # map / filter: the function among the positional arguments (in code that runs, the first; PyCG's
        # suite also passes it second); functools.partial and threading.Thread run what they are given
        "builtins.map": ("*",), "builtins.filter": ("*",), "builtins.sorted": ("key",), "builtins.min": ("key",),
        "functools.partial": (0,), "threading.Thread": ("target",), "threading.Timer": (1, "function"),
        "builtins.max": ("key",), "builtins.list.sort": ("key",), "functools.reduce": (0,),
        "itertools.starmap": (0,), "itertools.filterfalse": (0,),
        "itertools.takewhile": (0,), "itertools.dropwhile": (0,), "itertools.groupby": (1, "key"),
        "itertools.accumulate": (1, "func"),
    }
    builtin_functions = frozenset(n for n in dir(builtins) if not n.startswith("_"))
    builtin_types = frozenset(
        n for n in dir(builtins) if isinstance(getattr(builtins, n), type) and not n.startswith("_")
    )
    builtin_method_names = _builtin_method_names()

    accessors = True  # a property: reading it gives what its getter returns
    # calling an instance runs its class's __call__: the call gives what __call__ returns (aiohttp's
    # AiohttpClient protocol: client = await aiohttp_client(app) is the TestClient __call__ declares)
    call_signatures_give = True

    def accessor_value(self, world, sym_id: int, depth: int):
        """``@property`` (``cached_property``, any decorator named ``...property``) read as a member: what
        its getter returns (for the ``@x.setter`` / ``@x.deleter`` of the same name: the getter's)."""
        decos = world.decorators_of(sym_id)
        if not decos:
            return None
        if any(d.endswith((".setter", ".deleter")) for d in decos):
            srow = world.syms[sym_id]
            getters = [k for k in world.children.get(srow.parent_id, {}).get(srow.name, ())
                       if k != sym_id and _is_property(world.decorators_of(k))]
            if not getters:
                return None
            sym_id = getters[0]
        elif not _is_property(decos):
            return None
        got = world.call_result(("sym", sym_id), "self_method", depth + 1)
        return got if got is not None and got[0][0] not in ("unknown", "opaque") else None

    def returns_receiver(self, world, method_id: int) -> bool:
        """A method whose every ``return`` gives back ``self``, a copy of it or ``self.__class__(...)``
        (see :mod:`lore.languages.python._delegates`); a decorator's wrapper may (its receiver decides)."""
        return gives_receiver(world, method_id) or self_typed(world, method_id) is not None

    def receiver_value(self, world, method_id: int, receiver):
        """Called on a subclass's instance, such a method gives that class; a method a class only copied
        from the class it delegates to runs on an instance of that class (see ``_delegates.receiver_value``)."""
        return receiver_value(world, method_id, receiver)

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        base = imp.module
        relative = imp.level > 0
        if relative:
            parts = module.split(".") if module else []
            if not is_package:
                parts = parts[:-1]
            drop = imp.level - 1
            if drop > len(parts):
                return None
            parts = parts[: len(parts) - drop] if drop else parts
            base = ".".join(parts + ([imp.module] if imp.module else []))
        if imp.name is None:  # import a.b.c [as x]
            if imp.alias:
                return ImportBinding(imp.alias, base, None, relative=relative)
            return ImportBinding(base.split(".")[0], base.split(".")[0], None, relative=relative)
        if imp.name == "*":
            return ImportBinding("", base, None, star=True, relative=relative)
        return ImportBinding(imp.alias or imp.name, base, imp.name, relative=relative)

    def is_stdlib(self, module: str) -> bool:
        return module.split(".")[0] in sys.stdlib_module_names


def _is_property(decorators: list[str]) -> bool:
    """Whether one of a method's decorators makes it a property (``property``, ``functools.cached_property``,
    a project's own ``cached_property`` / ``lazy_property``, ``@x.getter``)."""
    return any(d.rsplit(".", 1)[-1].endswith("property") or d.endswith(".getter") for d in decorators)
