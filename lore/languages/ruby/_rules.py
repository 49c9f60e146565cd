"""Ruby's resolution rules: constants are global and found by lexical nesting (``Module.nesting``: inside
``module A; class B``, ``C`` is ``A::B::C``, ``A::C`` or ``::C``); a class or module may be reopened in
any file, and its methods are one set; a bare call is a method of ``self``, through the superclass and the
modules mixed in; ``require`` / ``require_relative`` name files (``lib/`` is the load path). A constant
no file of the repository defines comes from Ruby or a gem (external, never a guess); a name guess for a
method stays in the caller's own tree (``lib/``, ``app/``: what its load path reaches).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from ...parsers.records import Import
from .._rules import CachedRules, ImportBinding, inherited_member, record_of, world_cache
from ._core import CORE_METHOD_NAMES

_TYPES = ("class", "trait")
KERNEL = frozenset({  # Kernel and Module methods every object answers: never a method of the repository
    "puts", "print", "p", "pp", "raise", "fail", "require", "require_relative", "load", "format", "sprintf",
    "printf", "loop", "lambda", "proc", "attr_reader", "attr_writer", "attr_accessor", "private", "protected",
    "public", "module_function", "define_method", "instance_variable_get", "instance_variable_set",
    "instance_variable_defined?", "respond_to?", "send", "__send__", "public_send", "block_given?", "catch",
    "throw", "sleep", "rand", "srand", "Integer", "Float", "String", "Array", "Hash", "Rational", "Complex",
    "freeze", "frozen?", "dup", "clone", "tap", "then", "is_a?", "kind_of?", "instance_of?", "nil?",
    "alias_method", "private_constant", "private_class_method", "public_class_method", "warn", "exit",
    "abort", "at_exit", "binding", "caller", "gets", "open", "system", "class", "object_id", "hash",
    "inspect", "to_s", "method", "methods", "extend", "include", "prepend", "const_get", "const_set",
    "const_defined?", "instance_eval", "instance_exec", "class_eval", "class_exec", "module_eval",
    "define_singleton_method", "singleton_class", "attr", "autoload", "__method__", "yield_self", "itself",
    "Struct", "Comparable", "Enumerable", "Kernel", "Object", "BasicObject", "Module", "Class", "Proc",
    "StandardError", "ArgumentError", "RuntimeError", "NotImplementedError", "TypeError", "NameError",
    "NoMethodError", "KeyError", "IndexError", "IOError", "Exception", "File", "Dir", "IO", "Time", "Symbol",
})


class RubyRules(CachedRules):
    language = "ruby"
    imports_reexported = False
    implicit_receivers = {"self": "inst"}
    first_param_is_receiver = False
    class_scopes_visible_to_methods = True
    constructor_names = ("initialize",)
    uppercase_calls_construct = False  # Integer("1") is a Kernel method; only Foo.new constructs
    detached_methods = True  # classes reopened in other files
    builtin_functions = KERNEL
    builtin_method_names = frozenset({
        "initialize", "each", "each_with_index", "each_with_object", "each_pair", "map", "flat_map", "collect",
        "select", "filter", "reject", "find", "detect", "inject", "reduce", "sum", "min", "max", "sort", "sort_by",
        "group_by", "partition", "zip", "to_s", "to_sym", "to_i", "to_f", "to_a", "to_h", "to_str", "to_proc",
        "keys", "values", "merge", "merge!", "fetch", "key?", "has_key?", "include?", "empty?", "any?", "all?",
        "none?", "first", "last", "size", "length", "count", "push", "pop", "shift", "unshift", "join", "split",
        "strip", "chomp", "downcase", "upcase", "capitalize", "gsub", "sub", "gsub!", "sub!", "match", "match?",
        "start_with?", "end_with?", "call", "delete", "dup", "freeze", "inspect", "compact", "uniq", "flatten",
        "concat", "tap", "then", "is_a?", "nil?", "respond_to?", "send", "public_send", "class", "new", "read",
        "write", "close", "open", "exist?", "basename", "dirname", "expand_path", "each_line", "lines",
        "bytes", "encoding", "force_encoding", "encode", "slice", "dig", "transform_values", "transform_keys",
        "update", "store", "clear", "replace", "equal?", "eql?", "hash", "instance_variable_get",
        "frozen?", "to_json", "as_json", "sort!", "map!", "select!", "reject!", "each_key", "each_value", "times",
        "upto", "downto", "step", "between?", "round", "floor", "ceil", "abs", "succ", "pred", "chars", "scan",
        "unpack", "pack", "format", "sprintf", "puts", "print", "warn", "raise",
    })
    builtin_prefix = "Kernel"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        # a required file's classes become constants everywhere: nothing is bound by name here, but the
        # import is resolved to the file (file_imports) through module_value
        return ImportBinding("", imp.module, None, star=True, relative=imp.level > 0)

    def _module_value(self, world, ctx, module: str):
        files = _ruby_files(world)
        if module.startswith("./"):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(ctx.frow.path), module[2:])) + ".rb"
            mid = files["paths"].get(path)
            return ("sym", mid) if mid is not None else None
        mid = files["load"].get(module + ".rb")
        return ("sym", mid) if mid is not None else None

    overloads = True  # (no overloads in Ruby: the hook checks what a call reached through a mixin)

    def choose_overload(self, world, ctx, call, targets):
        """A module's own singleton methods (``def self.m``) are not inherited by the classes that include it:
        reached through an includer, the call means the module's ``ClassMethods`` (the ``self.included`` /
        ``ActiveSupport::Concern`` idiom), or nothing lore can name."""
        out = []
        for target in targets:
            tid = target[0]
            s = world.syms.get(tid) if tid is not None else None
            mod = world.syms.get(s.parent_id) if s is not None and s.parent_id is not None else None
            if s is None or mod is None or mod.kind != "trait" or not _singleton(world, tid):
                out.append(target)
                continue
            parts = call.callee.split(".")
            recv = world.resolve_path(ctx, call.caller, ".".join(parts[:-1]), call.line) if len(parts) > 1 else None
            twins = set(constants(world).get(mod.qualified_name, ()))
            if recv is not None and recv[0][0] == "sym" and recv[0][1] in twins:
                out.append(target)  # HTTParty.get: the module's own
                continue
            kids = [k for cm in constants(world).get(mod.qualified_name + ".ClassMethods", ())
                    for k in world.children.get(cm, {}).get(s.name, ())]
            out.append((kids[-1], target[1], target[2]) if kids else (None, "unresolved", 0.0))
        return out

    def package_member(self, world, ctx, scope: int, name: str):
        consts = constants(world)
        if name[:1].isupper():
            for prefix in _nesting(ctx, scope):  # Module.nesting, innermost first, then the top level
                ids = consts.get(f"{prefix}.{name}" if prefix else name)
                if ids:
                    return ("sym", ids[0]), "module_global"
        got = inherited_member(world, ctx, scope, name, own=True)
        if got is not None:
            return got
        if name[:1].isupper() and name not in self.builtin_functions:
            return ("ext", name), "external"  # Ruby's or a gem's constant (JSON, Net::HTTP, Rack::Utils)
        return None

    def detached_member(self, world, type_id: int, name: str):
        """A method of a class or module reopened in another file: the definitions of the same constant."""
        t = world.syms[type_id]
        for other in constants(world).get(t.qualified_name, ()):
            if other == type_id:
                continue
            kids = world.children.get(other, {}).get(name)
            if kids:
                return ("sym", kids[-1]), "self_method"
        for other in constants(world).get(t.qualified_name, ()):
            if other != type_id:
                attr = world.attr_type(other, name)
                if attr is not None:
                    return attr
        return None

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """A name-only guess stays in the caller's own tree (``lib/``, ``app/``): what its load path reaches.

        ``x.m`` on a receiver whose type is never stated (Ruby states none) is guessed only on strong
        evidence: ``m`` is defined once in the repository and is no method name of Ruby's core classes
        (``uri.port`` is a ``URI``'s, ``b.bytesize`` a ``String``'s; a wrong edge is worse than a missing one).
        """
        if len(parts) > 1 and (len(cands) != 1 or parts[-1] in CORE_METHOD_NAMES):
            return []
        top = _tree(ctx.frow.path)
        out = []
        for s in cands:
            f = world.files.get(world.syms[s].file_id)
            if f is not None and _tree(f.path) == top:
                out.append(s)
        return out


def _tree(path: str) -> str:
    return path.split("/", 1)[0] if "/" in path else ""


def _nesting(ctx, scope: int) -> list[str]:
    """The qualified names of the classes and modules around ``scope``, innermost first, then ``''``."""
    out: list[str] = []
    i: int | None = scope
    syms = ctx.pf.symbols
    while i is not None:
        s = syms[i]
        if s.kind in _TYPES:
            out.append(s.qualified_name)
        i = s.parent
    out.append("")
    return out


def constants(world) -> dict[str, list[int]]:
    """Constant (``A.B``) -> the classes and modules of that name, in every Ruby file (a reopened class has several)."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        ruby = {f.id for f in world.files.values() if f.language == "ruby"}
        for sid in sorted(world.syms):
            s = world.syms[sid]
            if s.kind in _TYPES and s.file_id in ruby:
                out[s.qualified_name].append(sid)
        return dict(out)

    return world_cache(world, "ruby-constants", build)


def _ruby_files(world) -> dict[str, dict[str, int]]:
    """``paths``: file path -> module id; ``load``: path below a ``lib/`` folder (the load path) -> module id."""

    def build():
        paths: dict[str, int] = {}
        load: dict[str, int] = {}
        for f in sorted(world.files.values(), key=lambda f: f.path):
            if f.language != "ruby":
                continue
            paths[f.path] = f.module_id
            parts = f.path.split("/")
            if "lib" in parts[:-1]:
                k = len(parts) - 1 - parts[::-1].index("lib")
                load.setdefault("/".join(parts[k + 1:]), f.module_id)
            load.setdefault(f.path, f.module_id)
        return {"paths": paths, "load": load}

    return world_cache(world, "ruby-files", build)



def _singleton(world, sid: int) -> bool:
    _c, sym = record_of(world, sid)
    return sym is not None and "singleton" in sym.decorators
