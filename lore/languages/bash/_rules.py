"""Bash's resolution rules: a command is a function when one of that name is visible to the script, that is
defined in its own file or in a file it sources (``source`` / ``.``, transitively: a sourced file's functions
and what it sources join the shell). Bash builtins (``echo``, ``printf``, ``read``) and programs (``grep``,
``sed``, ``npm``) are outside the project.

Bash has no other way to see a function, but a library file is often loaded by someone else than its caller
(bats' ``lib/*.bash`` are all sourced by the ``bats`` executable, and call each other): a command no visible
file defines, that a file some script sources does, is bound by its name alone, ``name_only`` with the
confidence shared among the candidates; never to a function of a script nothing sources (it runs in a shell
of its own).
"""

from __future__ import annotations

from ...parsers.records import Import
from ...store.schema import CONFIDENCE, NAME_GUESSES
from .._rules import CachedRules, ImportBinding, imported_files, path_modules, world_cache

_HEURISTIC = NAME_GUESSES

# Bash's builtins and keywords run as commands (bash(1), SHELL BUILTIN COMMANDS)
_BUILTINS = frozenset("""
: . [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo
enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd
printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type
typeset ulimit umask unalias unset wait
""".split())


class BashRules(CachedRules):
    language = "bash"
    first_param_is_receiver = False
    uppercase_calls_construct = False
    imports_reexported = True  # what a sourced file sources is in the same shell
    builtin_functions = _BUILTINS
    builtin_prefix = "bash"
    overloads = True  # every bound call goes through choose_overload, which marks name guesses name_only

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return ImportBinding("", imp.module, None, star=True, relative=True)

    def _module_value(self, world, ctx, module: str):
        paths = path_modules(world)
        if module.startswith("*/"):  # source "$DIR/lib/x.sh": the one file whose path ends so
            hits = _by_tail(world).get(module[1:], ())
            return ("sym", paths[hits[0]]) if len(hits) == 1 else None
        for path in module.split("|"):  # beside the sourcing script, then from the repository root
            mid = paths.get(path)
            if mid is not None and not path.startswith(".."):
                return ("sym", mid)
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        if name in _BUILTINS:
            return None
        if not any(world.syms[s].kind == "function" and _is_bash(world, s) for s in world.by_name.get(name, ())):
            return ("ext", name), "external"  # no function of that name anywhere: a program on the PATH
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        if len(parts) != 1:
            return []
        sourced = _sourced_files(world)
        return [s for s in cands if world.syms[s].file_id in sourced or world.syms[s].file_id == ctx.frow.id]

    def choose_overload(self, world, ctx, call, targets):
        guessed = [t for t in targets if t[0] is not None and t[1] in _HEURISTIC]
        if not guessed:
            return targets
        k = len(guessed)
        return [(t[0], "name_only", CONFIDENCE["name_only"] / k) if t in guessed else t for t in targets]


def _is_bash(world, sid: int) -> bool:
    f = world.files.get(world.syms[sid].file_id)
    return f is not None and f.language == "bash"


def _by_tail(world) -> dict[str, list[str]]:
    """``/a/b.sh`` -> the Bash file paths ending so (every tail of every path, at a ``/``)."""

    def build() -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in sorted(world.files.values(), key=lambda f: f.path):
            if f.language != "bash":
                continue
            parts = ("/" + f.path).split("/")
            for i in range(1, len(parts)):
                out.setdefault("/" + "/".join(parts[i:]), []).append(f.path)
        return out

    return world_cache(world, "bash-tails", build)


def _sourced_files(world) -> set[int]:
    """The ids of the Bash files some Bash file of the repository sources (libraries: loaded into a shell)."""

    def build() -> set[int]:
        out: set[int] = set()
        for f in sorted(world.files.values(), key=lambda f: f.id):
            if f.language != "bash":
                continue
            c = world.ctx(f.id)
            if c is not None:
                out |= imported_files(world, c)
        return out

    return world_cache(world, "bash-sourced", build)



