"""Rust's resolution rules: ``crate::`` / ``self::`` / ``super::`` paths and ``mod x;`` map to ``x.rs`` or
``x/mod.rs`` (the crate root is the nearest ``src`` directory, or ``lib.rs`` / ``main.rs``'s directory);
``impl`` blocks in other files of the crate hold a type's methods.
"""

from __future__ import annotations

import posixpath

from ...parsers.records import Import
from ...store.schema import CONFIDENCE
from .._rules import CachedRules, ImportBinding, module_of_path, record_of, twin_member, world_cache


# -- Rust -----------------------------------------------------------------------------------------------
class RustRules(CachedRules):
    language = "rust"
    implicit_receivers = {"self": "inst", "Self": "type"}
    first_param_is_receiver = False
    # names std gives every module, unless the file binds its own; a value of one of these types (a parameter
    # ``buf: &[u8]``, ``v: Vec<T>``) has std's methods, never a crate method guessed by its name
    builtin_functions = frozenset({
        "Some", "None", "Ok", "Err", "Box", "Vec", "String", "drop", "Default", "Option", "Result", "Rc", "Arc",
        "str", "[]", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
        "i128", "isize", "f32", "f64",
    })
    builtin_method_names = frozenset({
        "unwrap", "expect", "clone", "to_string", "into", "iter", "map", "collect", "push", "len", "is_empty",
        "as_ref", "as_str", "to_owned", "get", "insert", "remove", "contains", "ok", "err", "and_then",
        "unwrap_or", "unwrap_or_default", "iter_mut", "into_iter", "filter", "borrow", "borrow_mut", "lock",
        "fmt", "eq", "cmp", "partial_cmp", "hash", "next", "extend", "join", "split", "trim", "parse",
        # slices, str, Option/Result and iterators: a receiver of unknown type calling these is almost
        # always std's
        "as_ptr", "as_mut_ptr", "as_bytes", "as_slice", "as_mut", "chars", "bytes", "starts_with", "ends_with",
        "to_vec", "is_some", "is_none", "is_ok", "is_err", "map_err", "ok_or", "ok_or_else", "unwrap_or_else",
        "write_str", "write_fmt", "push_str", "first", "last", "chain", "rev", "zip", "enumerate", "cloned",
        "copied", "flatten", "flat_map", "filter_map", "to_lowercase", "to_uppercase", "split_at", "as_deref",
    })
    builtin_prefix = "rust.prelude"

    def bind_import(self, imp: Import, module: str, is_package: bool) -> ImportBinding | None:
        relative = imp.module.startswith("path:") or imp.module.split(".")[0] in ("crate", "self", "super")
        if imp.name == "*":
            return ImportBinding("", imp.module, None, star=True, relative=relative)
        if imp.name is None:
            name = imp.alias or imp.module.rsplit(".", 1)[-1]
            return ImportBinding(name, imp.module, None, relative=relative)
        return ImportBinding(imp.alias or imp.name, imp.module, imp.name, relative=relative)

    def _module_value(self, world, ctx, module: str):
        path = ctx.frow.path
        if module.startswith("path:"):  # #[path = "../x.rs"] mod m;
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), module[5:]))
            return module_of_path(world, posixpath.splitext(target)[0])
        parts = module.split(".")
        stem = posixpath.splitext(posixpath.basename(path))[0]
        here = posixpath.dirname(path) if stem in ("mod", "lib", "main") else posixpath.splitext(path)[0]
        if parts[0] == "crate":
            base = _crate_root(path)
            parts = parts[1:]
        elif parts[0] == "self":
            base, parts = here, parts[1:]
        elif parts[0] == "super":
            base = here
            while parts and parts[0] == "super":
                base, parts = posixpath.dirname(base), parts[1:]
        else:  # use circle::Circle: a submodule of this module, else a crate of the repository, else external
            base = here
        got = _rust_path(world, base, parts)
        if got is not None:
            return got
        root = _rust_crates(world).get(parts[0]) if base == here and parts[0] not in ("self", "super") else None
        if root is not None:  # tokio::sync::Mutex in tokio's own tests, or from another crate of the workspace
            if len(parts) == 1:
                return module_of_path(world, f"{root}/lib")
            return _rust_path(world, root, parts[1:])
        return None

    detached_methods = True
    same_name_members_are_alternatives = True
    overloads = True  # T::from(x) among the impl From<X> for T, by x's type
    ambiguous_guesses = False  # x.m() on a value of unknown type with several methods m: no edge, never k guesses

    def choose_overload(self, world, ctx, call, targets):
        return choose_from(world, call, targets)

    def detached_member(self, world, type_id: int, name: str):
        """``impl Type`` / ``impl Trait for Type`` in another file of the crate: the placeholder ``Type`` there
        holds those methods and trait relations; a type and its placeholders see each other's members."""
        twins = _rust_twins(world, type_id)
        if len(twins) == 1 and _rust_twins(world, twins[0]) != [type_id]:  # a placeholder: also its siblings
            twins = [twins[0], *(t for t in _rust_twins(world, twins[0]) if t != type_id)]
        got = twin_member(world, twins, name)
        if got is None:
            t = world.syms[type_id]
            # Status::Complete(n): an enum's tuple variant builds the enum (lore keeps no symbol per variant)
            if t.kind == "enum" and name[:1].isupper():
                return ("sym", type_id), "self_method"
        return got

    def guess_candidates(self, world, ctx, cands: list[int], parts: list[str]) -> list[int]:
        """No guess through a path lore could not follow (``std::net::Ipv4Addr::new``, ``Vec::new``,
        ``sval_ref::ValueRef::f``: a type or crate outside the index), and none of a private item the
        caller's module can't see (Rust's privacy: a module and its descendants only)."""
        if parts[0] in ("std", "core", "alloc") or any(p[:1].isupper() for p in parts[:-1]):
            return []
        if len(parts) > 1 and any(_std_impl(world, s) for s in cands):
            return []  # x.to_value() where the trait is also implemented for str, Option, &T: x may be any
        return [s for s in cands if _visible(world, s, ctx.frow.path)]

    def package_member(self, world, ctx, scope: int, name: str):
        if name in ("crate", "self", "super") or name in _rust_crates(world):  # crate::a::f(), tokio::spawn()
            v = self.module_value(world, ctx, name)
            return (v, "import") if v is not None else None
        return None


def choose_from(world, call, targets: list[tuple[int | None, str, float]]) -> list[tuple[int | None, str, float]]:
    """``T::from(x)`` where ``T`` has several ``from`` (one per ``impl From<X> for T``): the one whose
    parameter has ``x``'s type when the syntax shows it (``"a"``, ``8i8``, ``'c'``); none when it does not
    or no ``from`` lore has takes it (a ``From`` impl a macro wrote, or a type lore cannot read): the
    impl is chosen by a type lore does not know, so no guess among them."""
    if len(targets) < 2 or not call.callee.endswith(".from"):
        return targets
    ids = [t[0] for t in targets]
    rows = [world.syms.get(i) if i is not None else None for i in ids]
    if any(r is None or r.kind != "method" or r.name != "from" for r in rows):
        return targets
    arg = call.args[0] if len(call.args) == 1 else ""
    if not arg:
        return [(None, "unresolved", 0.0)]
    want = _norm_type(arg[1:])
    picked = [t for t in targets if t[0] is not None and _from_param(world, t[0]) == want]
    if len(picked) != 1:
        return [(None, "unresolved", 0.0)]
    tid, res, _conf = picked[0]
    return [(tid, res, CONFIDENCE[res])]


def _from_param(world, method_id: int) -> str:
    """The parameter type of ``fn from(value: T)`` as written in its signature, lifetimes dropped."""
    _c, sym = record_of(world, method_id)
    if sym is None:
        return ""
    inside = sym.signature.partition("(")[2].rpartition(")")[0]
    _name, colon, ty = inside.partition(":")
    return _norm_type(ty) if colon and "," not in ty else ""


def _norm_type(ty: str) -> str:
    """``&'v str`` -> ``&str``: a type text without lifetimes and spaces."""
    out = []
    for word in ty.replace("&", " & ").split():
        if not word.startswith("'"):
            out.append(word)
    return "".join(out)


def _rust_path(world, base: str, parts: list[str]):
    """The module ``base/parts...`` names: the longest prefix that is a file (``x.rs``, ``x/mod.rs``, the crate
    root), then its members (inline ``mod x { }`` blocks, items, re-exports) for the rest."""
    for k in range(len(parts), -1, -1):
        target = "/".join([base, *parts[:k]]) if base else "/".join(parts[:k])
        got = None
        for cand in (target, f"{target}/mod", f"{target}/lib", f"{target}/main"):
            got = module_of_path(world, cand.strip("/"))
            if got is not None:
                break
        if got is None:
            continue
        for part in parts[k:]:
            m = world.member(got, part, "import", 1)
            if m is None:
                return None
            got = m[0]
        return got
    return None


def _rust_crates(world) -> dict[str, str]:
    """Crate name -> its ``src`` directory, for every library crate of the repository: a ``src/lib.rs``
    whose package directory names the crate (``tokio`` or ``tokio-1.24.2``; ``-`` read as ``_``)."""

    def build() -> dict[str, str]:
        out: dict[str, str] = {}
        for f in sorted(world.files.values(), key=lambda f: f.path):
            if f.language != "rust" or not (f.path == "src/lib.rs" or f.path.endswith("/src/lib.rs")):
                continue
            src = posixpath.dirname(f.path)
            package = posixpath.basename(posixpath.dirname(src)) if "/" in src else ""
            head, _, version = package.rpartition("-")
            if head and version[:1].isdigit():  # a registry directory: name-1.2.3
                package = head
            if package:
                out.setdefault(package.replace("-", "_"), src)
        return out

    return world_cache(world, "rust-crates", build)


def _rust_twins(world, type_id: int) -> list[int]:
    """A placeholder's real type (its ``impl`` path resolved in its file), or a type's placeholders in the crate."""
    cache = world_cache(world, "rust-twins", dict)
    if type_id in cache:
        return cache[type_id]
    cache[type_id] = []
    out: list[int] = []
    c, sym = record_of(world, type_id)
    if sym is not None and sym.is_declaration and sym.signature.startswith("impl "):
        scope = sym.parent if sym.parent is not None else 0
        got = world.resolve_path(c, scope, sym.signature[5:].replace("::", "."), 1 << 30, 1)
        if got is not None and got[0][0] == "sym" and got[0][1] != type_id:
            real = world.syms.get(got[0][1])
            if real is not None and real.kind in ("struct", "enum", "trait", "type_alias", "class"):
                out.append(got[0][1])
    elif sym is not None:
        t = world.syms[type_id]
        home = world.files.get(t.file_id)
        crate = _crate_root(home.path) if home is not None else None
        for cand in world.by_name.get(t.name, ()):
            crow = world.syms[cand]
            f = world.files.get(crow.file_id)
            if cand == type_id or crow.kind != "struct" or f is None or f.language != "rust" or _crate_root(f.path) != crate:
                continue
            if _rust_twins(world, cand) == [type_id]:
                out.append(cand)
    cache[type_id] = out
    return out


def _crate_root(path: str) -> str:
    parts = path.split("/")[:-1]
    if "src" in parts:
        k = len(parts) - 1 - parts[::-1].index("src")
        return "/".join(parts[: k + 1])
    return "/".join(parts)


STD_TYPES = frozenset({"Option", "Result", "Vec", "String", "Box", "Rc", "Arc", "HashMap", "HashSet", "BTreeMap",
                       "BTreeSet", "VecDeque", "Cow", "RefCell", "Cell", "Mutex", "RwLock"})


def _std_impl(world, sid: int) -> bool:
    """A method of an ``impl`` for a type that is no crate's own: ``str``, ``()``, ``&T``, ``[S]``, ``Option<T>``."""
    parent = world.syms[sid].parent_id
    name = world.syms[parent].name if parent is not None and parent in world.syms else ""
    return bool(name) and (not name.isidentifier() or name in STD_TYPES)


def _visible(world, sid: int, caller_path: str) -> bool:
    """Whether the item ``sid`` may be named from the file ``caller_path``: public, or private to a module
    that holds the caller (its own file, or a file under the module's directory)."""
    _, sym = record_of(world, sid)
    if sym is None or sym.exported:
        return True
    f = world.files.get(world.syms[sid].file_id)
    if f is None or f.path == caller_path:
        return True
    stem = posixpath.splitext(posixpath.basename(f.path))[0]
    home = posixpath.dirname(f.path) if stem in ("mod", "lib", "main") else posixpath.splitext(f.path)[0]
    return caller_path.startswith(home + "/") if home else True
