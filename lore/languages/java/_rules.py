"""Java's resolution rules: a package is a directory ending with the package path
(``src/main/java/com/x``); ``import com.x.Foo`` binds the class; classes of the same package are visible
without import, and so are the members a class inherits.
"""

from __future__ import annotations

from collections import defaultdict

from ...parsers.records import Import
from .._rules import (
    CachedRules,
    ImportBinding,
    dir_modules,
    inherited_member,
    named_import,
    siblings_member,
    world_cache,
)
from ._overloads import choose, getter_first

_JDK_ROOTS = frozenset({"java", "javax", "jdk"})  # the first names of the JDK's packages


# -- Java -----------------------------------------------------------------------------------------------
class JavaRules(CachedRules):
    language = "java"
    imports_reexported = False
    implicit_receivers = {"this": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("<init>",)  # as javap names them: named like the class, a constructor would shadow it
    uppercase_calls_construct = False  # only new X() constructs
    builtin_functions = frozenset({  # java.lang, visible without import (and the usual java.util names)
        "System", "String", "Math", "StrictMath", "Integer", "Long", "Double", "Float", "Short", "Byte", "Boolean",
        "Character", "Number", "Void", "Object", "Class", "ClassLoader", "Enum", "Record", "Thread", "ThreadLocal",
        "Runtime", "Process", "ProcessBuilder", "StringBuilder", "StringBuffer", "CharSequence", "Comparable",
        "Iterable", "Runnable", "AutoCloseable", "Cloneable", "Appendable", "Readable", "Override", "Deprecated",
        "SuppressWarnings", "FunctionalInterface", "SafeVarargs", "Throwable", "Exception", "Error",
        "RuntimeException", "IllegalArgumentException", "IllegalStateException", "NullPointerException",
        "UnsupportedOperationException", "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException",
        "ClassCastException", "ArithmeticException", "NumberFormatException", "InterruptedException",
        "CloneNotSupportedException", "ReflectiveOperationException", "ClassNotFoundException",
        "SecurityException", "StackOverflowError", "OutOfMemoryError", "AssertionError", "InternalError",
        "Objects", "Arrays", "Collections", "List", "Map", "Set", "Optional", "Iterator", "Collection",
        # primitives: the declared type of a field (char LF) as an argument's type names them
        "int", "long", "short", "byte", "char", "boolean", "float", "double",
    })
    builtin_method_names = frozenset({
        "<init>",  # super() of a base without a constructor: the implicit one, never another class's by name
        "println", "print", "printf", "format", "equals", "hashCode", "toString", "get", "put", "add", "remove",
        "size", "isEmpty", "contains", "stream", "map", "filter", "collect", "forEach", "length", "append",
        "valueOf", "of", "orElse", "iterator", "next", "hasNext", "close", "getClass", "compareTo", "keySet",
        "values", "entrySet", "addAll", "clear", "substring", "trim", "split", "startsWith", "endsWith",
    })
    builtin_prefix = "java.lang"
    overloads = True
    fields_apart_from_methods = True
    external_results_opaque = True
    typed_containers = True
    inherited_before_outer = True

    def choose_overload(self, world, ctx, call, targets):
        return choose(world, ctx, call, targets)

    def member_of_name(self, world, ids: list[int]) -> int:
        # a class's overloads: what a chain goes through (``el.tag().namespace()``) is most often the
        # getter, the one without parameters; the call's own edge is chosen by its arguments (choose_overload)
        return getter_first(world, ids)

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        return named_import(imp)

    def _module_value(self, world, ctx, module: str):
        dirs = _java_packages(world)
        ids = dirs.get(module.replace(".", "/"))
        if ids:
            return ("pkg", tuple(ids))
        head, _, last = module.rpartition(".")  # import static a.b.C.m: the class a.b.C
        if head:
            ids = dirs.get(head.replace("/", "."))
            ids = dirs.get(head.replace(".", "/")) or ids
            for mid in ids or ():
                kids = world.children.get(mid, {}).get(last)
                if kids:
                    return ("sym", kids[-1])
        return None

    def package_member(self, world, ctx, scope: int, name: str):
        got = inherited_member(world, ctx, scope, name) or _initializer_member(world, ctx, scope, name) or \
            siblings_member(world, ctx, name, ("java",))
        if got is None and name in _JDK_ROOTS:  # java.util.regex.Matcher written out: the JDK's, not a project class
            return ("ext", name), "external"
        if got is None and name not in self.builtin_functions:
            got = _library_field(world, ctx, scope, name)
        return got


def _initializer_member(world, ctx, scope: int, name: str):
    """A member inherited by the class whose initializer block or field initializer calls it (``new
    ToStringStyle() {{ setUseClassName(true); }}``): there the scope is the class itself."""
    if ctx.pf.symbols[scope].kind not in ("class", "enum"):
        return None
    got = world.class_member(ctx.ids[scope], name, skip_self=True)
    if got is None or got[0][0] not in ("sym", "inst", "extinst"):
        return None
    return got[0], "self_method" if got[1] in ("self_method", "local_scope") else got[1]


def _library_field(world, ctx, scope: int, name: str):
    """A name no scope, class or package of the project declares, in a class derived from a library class
    (``in`` of a ``FilterInputStream``): the library's field, of a type lore does not know; its methods are
    the library's, never guessed among the project's methods of that name."""
    cls = scope if ctx.pf.symbols[scope].kind in ("class", "enum") else ctx.enclosing_class(scope)
    if cls is None:
        return None
    got = world.class_member(ctx.ids[cls], name, skip_self=True)
    if got is None or got[0][0] != "extattr":
        return None
    return ("opaque", got[0][1]), "external"


def _java_packages(world) -> dict[str, list[int]]:
    """Package path (``com/x``) -> module ids, for every suffix of every directory holding Java files."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for d, ids in dir_modules(world, ("java",)).items():
            parts = d.split("/") if d else []
            for k in range(len(parts)):
                out["/".join(parts[k:])].extend(ids)
        return dict(out)

    return world_cache(world, "java-packages", build)
