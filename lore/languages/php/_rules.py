"""PHP's resolution rules: a namespace is made of the files that declare it (composer's PSR-4 puts them under
one folder, but the declaration is what PHP reads); ``use A\\B\\C`` binds ``C``; an unqualified class name is
the file's namespace's (or an import's), an unqualified function name the namespace's, then the global
one. A name no file of the repository declares comes from PHP or a vendor package: external, never a guess.
A name guess for ``$x->m()`` stays in the caller's vendor namespace (``Dotenv\\...``).
"""

from __future__ import annotations

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, declared_spaces, inherited_member, named_import

_TYPES = ("class", "interface", "trait", "enum")


class PhpRules(CachedRules):
    language = "php"
    imports_reexported = False
    implicit_receivers = {"this": "inst", "self": "type", "static": "type"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = False  # methods are reached through $this-> / self:: only
    constructor_names = ("__construct",)
    uppercase_calls_construct = False
    # $x->m() with $x of unknown type: any class's m, not the one of the caller's own file
    same_file_guess_for_members = False
    builtin_functions = frozenset({
        "strlen", "count", "is_array", "is_string", "is_int", "is_null", "array_map", "array_filter", "array_keys",
        "array_values", "array_merge", "in_array", "implode", "explode", "sprintf", "str_replace", "preg_match",
        "preg_replace", "trim", "strtolower", "strtoupper", "substr", "strpos", "json_encode", "json_decode",
        "isset", "empty", "unset", "array_key_exists", "func_get_args", "get_class", "method_exists", "is_callable",
        "call_user_func", "call_user_func_array", "array_shift", "array_pop", "array_push", "array_slice", "max",
        "min", "intval", "floatval", "strval", "is_numeric", "is_object", "is_bool", "is_float", "printf",
        "var_export", "serialize", "unserialize", "file_get_contents", "file_exists", "is_file", "is_dir", "fopen",
        "fclose", "fwrite", "fread", "getenv", "putenv", "define", "defined", "constant", "array_reduce",
        "array_search", "array_unique", "array_combine", "array_flip", "array_fill", "range", "usort", "ksort",
        "sort", "str_contains", "str_starts_with", "str_ends_with", "mb_strlen", "mb_substr", "ctype_digit",
        "rawurlencode", "urlencode", "rawurldecode", "urldecode", "parse_url", "http_build_query", "iterator_to_array",
        "Exception", "InvalidArgumentException", "RuntimeException", "LogicException", "TypeError", "ArrayIterator",
        "ArrayObject", "Closure", "Generator", "Traversable", "Iterator", "IteratorAggregate", "Countable",
        "ArrayAccess", "Stringable", "JsonSerializable", "DateTime", "DateTimeImmutable", "stdClass",
    })
    builtin_method_names = frozenset({
        "__construct", "getIterator", "count", "offsetGet", "offsetSet", "offsetExists", "offsetUnset",
        "jsonSerialize", "__toString", "format", "getMessage", "getCode", "getPrevious", "getTrace", "current",
        "next", "key", "valid", "rewind",
    })
    builtin_prefix = "php"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        ids = namespaces(world).get(module)
        if ids:
            return ("pkg", tuple(ids))
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name, own=True)
        if got is not None and got[0][0] == "sym" and world.syms[got[0][1]].kind in _TYPES:
            return got
        table = namespace_members(world)
        own = ctx.frow.module_id
        tests_ok = world.is_test_file(ctx.frow.id)  # code outside the tests never reaches into them
        for ns in file_namespaces(world).get(own, ("",)):  # the file's namespace, then (functions) the global one
            for mid, sid in table.get(ns, {}).get(name, ()):
                if mid != own and (tests_ok or not world.is_test_file(world.syms[sid].file_id)):
                    return ("sym", sid), "module_global"
        for mid, sid in table.get("", {}).get(name, ()):
            if mid != own and world.syms[sid].kind == "function" and (
                    tests_ok or not world.is_test_file(world.syms[sid].file_id)):
                return ("sym", sid), "module_global"
        if name not in self.builtin_functions and not name.startswith("$"):
            return ("ext", name), "external"  # PHP's or a vendor package's
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name guess stays in the files of the caller's vendor namespace (its first segment)."""
        return self._in_vendor(world, ctx, cands)

    def _in_vendor(self, world, ctx, cands: list[int]) -> list[int]:
        mine = {ns.split(".", 1)[0] for ns in file_namespaces(world).get(ctx.frow.module_id, ("",))}
        spaces = file_namespaces(world)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and {ns.split(".", 1)[0] for ns in spaces.get(f.module_id, ("",))} & mine:
                out.append(s)
        return out


def _spaces(world):
    """namespace -> module ids of the PHP files declaring something in it; module id -> its namespaces;
    namespace -> name -> [(module id, symbol id)] of the types and functions declared in it."""
    return declared_spaces(world, "php", (*_TYPES, "function"))


def namespaces(world) -> dict[str, list[int]]:
    return _spaces(world)[0]


def file_namespaces(world) -> dict[int, tuple[str, ...]]:
    return _spaces(world)[1]


def namespace_members(world) -> dict[str, dict[str, list[tuple[int, int]]]]:
    return _spaces(world)[2]
