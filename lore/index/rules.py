"""Per-language knowledge the resolver needs: receiver keywords, constructors, builtins, imports.

The resolver (``lore.index.resolve``) is language-neutral: it walks scopes, follows dotted paths
through modules, classes and typed values, and records how each edge was bound. What differs between
languages lives in a :class:`LanguageRules` subclass, registered in ``RULES`` by language name.
"""

from __future__ import annotations

import builtins
import sys
from dataclasses import dataclass

from ..parsers.records import Import


@dataclass(frozen=True, slots=True)
class ImportBinding:
    """What an import binds: local ``name`` -> ``module`` (absolute), optionally a ``member`` of it.

    ``star`` imports bind every public name of ``module``; ``name`` is then ``''``.
    ``relative`` marks imports that can only point inside the repository.
    """

    name: str
    module: str
    member: str | None = None
    star: bool = False
    relative: bool = False


class LanguageRules:
    """Defaults shared by languages; subclasses override what differs."""

    language = ""
    self_names: frozenset[str] = frozenset({"self"})
    constructor_names: tuple[str, ...] = ()
    builtin_functions: frozenset[str] = frozenset()
    builtin_types: frozenset[str] = frozenset()
    # method names of builtin containers / strings: an unknown receiver calling these is not
    # matched to repository methods by name (x.append() is almost never your own `append`)
    builtin_method_names: frozenset[str] = frozenset()
    builtin_prefix = "builtins"
    class_scopes_visible_to_methods = False
    member_separator = "."

    # names bound implicitly inside methods: "inst" = an instance of the enclosing class (``this``),
    # "type" = the class itself (Rust ``Self``). Python binds ``self`` as the first parameter instead.
    implicit_receivers: dict[str, str] = {}
    # whether a method's first parameter is its receiver (Python ``self``, Go ``func (s *T)``)
    first_param_is_receiver = True

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        """The binding an import record creates in the importing file (``module`` is that file's module)."""
        raise NotImplementedError

    def module_value(self, world, ctx, module: str):
        """The value an import's ``module`` text names, seen from file ``ctx`` (hook: JS paths, Go/Java packages).

        Returns a resolver value (``("sym", module_id)``, ``("pkg", (module_id, ...))`` for a package made of
        several files, ``("ns", prefix)``) or ``None``; Python looks the dotted name up as is.
        """
        return world.module_value(module)

    # whether members may be declared apart from their type (Go, Rust: another file; C++: A::m in the source)
    detached_methods = False

    def detached_member(self, world, type_id: int, name: str):
        """Member ``name`` of type ``type_id`` declared outside the type's body: ``(value, resolution)`` or ``None``."""
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        """``name`` not bound in any scope of the file, as the language still sees it from ``scope``, or ``None``.

        Go and Java: top-level names of other files of the same package; Java and C++: members a class
        inherits, used without ``this``. Returns ``(value, resolution)``; consulted after the file's own
        scopes, before builtins.
        """
        return None

    def is_stdlib(self, module: str) -> bool:
        return False

    # whether what a file imports is visible to the files importing it (Python, JS/TS re-exports, Rust
    # ``pub use``); Java and Go imports are private to their file
    imports_reexported = True

    # languages whose definitions a name heuristic may bind (default: the file's own language)
    family: tuple[str, ...] = ()

    # whether a call of an external name that starts with a capital constructs it (Python ``Session()``);
    # elsewhere only ``new X()`` does (Go ``fmt.Errorf`` and C ``CHECK()`` are calls)
    uppercase_calls_construct = True

    # whether a function may be declared apart from its definitions (C/C++ prototypes in headers)
    separate_declarations = False

    def definitions(self, world, sym_id: int) -> list[int] | None:
        """The definitions a declaration ``sym_id`` stands for (calls are spread over them), or ``None``."""
        return None

    # whether an import of a whole module can name one value (JavaScript ``module.exports = X``)
    whole_module_exports = False

    def exports_value(self, world, mod, want: str | None, depth: int):
        """What ``import``/``require`` of module value ``mod`` binds when the module exports one value:
        ``(value, resolution)``, or ``None`` to look ``want`` up in the module as usual."""
        return None


def _builtin_method_names() -> frozenset[str]:
    names: set[str] = set()
    for t in (list, dict, str, set, bytes, tuple, frozenset, int, float, bytearray):
        names.update(n for n in dir(t) if not n.startswith("__"))
    return frozenset(names)


class PythonRules(LanguageRules):
    language = "python"
    self_names = frozenset({"self", "cls"})
    constructor_names = ("__init__", "__new__")
    builtin_functions = frozenset(n for n in dir(builtins) if not n.startswith("_"))
    builtin_types = frozenset(
        n for n in dir(builtins) if isinstance(getattr(builtins, n), type) and not n.startswith("_")
    )
    builtin_method_names = _builtin_method_names()

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


RULES: dict[str, LanguageRules] = {"python": PythonRules()}


def rules_for(language: str) -> LanguageRules:
    """The rules of ``language``; other languages register theirs in ``lore.index.rules_langs``."""
    if language not in RULES:
        from . import rules_langs  # noqa: F401  (registers the non-Python languages)
    return RULES[language]
