"""Sources compiled several times with different macros: template-by-include.

Old portable C libraries write one body of code for several sample widths, encodings or hash variants and
include it several times, each time after other macros: brotli's ``histogram.h`` writes
``#define FN(X) X ## Literal`` / ``#include "histogram_inc.h"`` / ``#undef FN`` (then ``Command``, ``Distance``),
and ``histogram_inc.h`` defines ``static void FN(HistogramAdd)(...)``: the unit that includes ``histogram.h`` has
functions ``HistogramAddLiteral``, ``HistogramAddCommand`` and ``HistogramAddDistance``, which its code calls by
those names. libjpeg-turbo's ``turbojpeg.c`` includes ``turbojpeg-mp.c`` after ``#define BITS_IN_JSAMPLE 8``
(then 12, 16), whose ``GET_NAME(tj3Compress, BITS_IN_JSAMPLE)`` pastes ``tj3Compress8``. clangd answers such a
call with the line of the pasted declarator in the included file (the macro use that wrote the name): lore's
symbol there (named by the macro's argument, :mod:`._macro_names`) is what the call binds.

Two halves, each read from one file by the extractor and kept in the file's ``defines`` entries:

- the includer: at each quoted ``#include`` that some macro of the file, defined before it, is ``#undef``'d
  after (the mark of a template inclusion), the macros the file has defined by then: ``"=tpl LINE TARGET
  NAME(PARAMS) BODY"`` (``NAME BODY`` for an object-like one);
- the included file: each definition whose declarator is a macro call of names (``FN(HistogramAdd)``):
  ``"=decl LINE MACRO(ARGS)"``, and the function-like macros of its own that the call expands through
  (``"=tm NAME(PARAMS) BODY"``).

The resolver (:func:`template_targets`) expands each declarator with the included file's macros over the
includer's at that inclusion, and binds a call whose name nothing else defines to the definitions so named in
the units that reach the includer. No symbol is made: the pasted names are aliases of the included file's own.
"""

from __future__ import annotations

import re

from .._rules import path_modules, record_of, world_cache

_MAX_ENV = 48  # macros recorded per inclusion (the latest): a template's parameters sit just before it
_MAX_BODY = 240  # a longer body is no name-pasting macro
_MAX_DEPTH = 16  # nested expansions before giving up

# a directive line of the includer: define (function-like or object-like), undef, quoted include
_DIRECTIVE = re.compile(
    rb"^[ \t]*#[ \t]*(?:(define)[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n]*\\\r?\n)*[^\n]*)"
    rb"|(undef)[ \t]+([A-Za-z_]\w*)|(include)[ \t]*\"([^\"\n]+)\")", re.MULTILINE)
# a definition's declarator written as a macro call of names, then its parameter list:
# ``FN(HistogramAdd)(``, ``GET_NAME(tj3Compress, BITS_IN_JSAMPLE) (``
_DECLARATOR = re.compile(r"\b([A-Z_][A-Z0-9_]*)\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)\s*\(")
_TOKEN = re.compile(r"##|#|[A-Za-z_]\w*|\d\w*|\S")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def includer_entries(source: bytes, state_at) -> list[str]:
    """The ``=tpl`` entries of a file that includes another as a template (see the module docstring);
    ``state_at(byte)`` is the branch state there (``"0"``: a default build skips it).

    Examples
    --------
    >>> src = (b'#define FN(X) X ## Literal\\n#include "h_inc.h"\\n#undef FN\\n'
    ...        b'#define FN(X) X ## Command\\n#include "h_inc.h"\\n#undef FN\\n#include "plain.h"\\n')
    >>> includer_entries(src, lambda b: "")
    ['=tpl 2 h_inc.h FN(X) X##Literal', '=tpl 5 h_inc.h FN(X) X##Command']
    """
    if b"undef" not in source or b"include" not in source:
        return []
    env: dict[str, str] = {}  # name -> entry text after the target
    includes: list[tuple[int, str, dict[str, str]]] = []
    undone: list[tuple[int, str]] = []  # (position, name) of each #undef
    for m in _DIRECTIVE.finditer(source):
        if state_at(m.start()) == "0":
            continue
        if m.group(1):
            name = m.group(2).decode("utf-8", "replace")
            body = re.sub(r"\\\r?\n", " ", m.group(4).decode("utf-8", "replace"))
            body = re.sub(r"\s*##\s*", "##", re.sub(r"/\*.*?\*/|//.*", " ", body)).strip()
            env.pop(name, None)
            if len(body) <= _MAX_BODY:
                params = m.group(3).decode("utf-8", "replace").replace(" ", "") if m.group(3) else ""
                env[name] = f"{name}{params} {body}".rstrip()
        elif m.group(5):
            name = m.group(6).decode("utf-8", "replace")
            env.pop(name, None)
            undone.append((m.start(), name))
        else:
            line = source.count(b"\n", 0, m.start()) + 1
            includes.append((m.start(), f"{line} {m.group(8).decode('utf-8', 'replace')}", dict(env)))
    out = []
    for pos, head, at in includes:
        if not any(p > pos and n in at for p, n in undone):
            continue
        for text in list(at.values())[-_MAX_ENV:]:
            out.append(f"=tpl {head} {text}")
    return out


def declarator_entries(symbols, source: bytes) -> list[str]:
    """The ``=decl`` and ``=tm`` entries of a file whose definitions are named by a macro call (see the module
    docstring): each definition's declarator, and the file's function-like macros the declarators expand
    through.

    Examples
    --------
    >>> from lore.parsers.records import Symbol
    >>> s = Symbol("GET_NAME", "m.GET_NAME", "function", 0, 3, 5,
    ...            signature="int GET_NAME(tj3Compress, BITS) (int h)")
    >>> src = b"#define _GN(n, s) n##s\\n#define GET_NAME(n, s) _GN(n, s)\\nint GET_NAME(tj3Compress, BITS) (int h) {}"
    >>> declarator_entries([s], src)
    ['=decl 3 GET_NAME(tj3Compress,BITS)', '=tm GET_NAME(n,s) _GN(n, s)', '=tm _GN(n,s) n##s']
    """
    out: list[str] = []
    used: list[str] = []
    for s in symbols:
        sig = s.signature
        if s.kind != "function" or s.is_declaration or sig.startswith("#") or (")(" not in sig and ") (" not in sig):
            continue
        m = _DECLARATOR.search(sig)
        if m is None:
            continue
        args = ",".join(a.strip() for a in m.group(2).split(","))
        out.append(f"=decl {s.start_line} {m.group(1)}({args})")
        used.append(m.group(1))
    if not out:
        return out
    from ._macro_names import function_macros

    macros = function_macros(source)
    seen: set[str] = set()
    while used:
        name = used.pop()
        if name in seen or name not in macros:
            continue
        seen.add(name)
        params, body = macros[name]
        if len(body) > _MAX_BODY:
            continue
        out.append(f"=tm {name}({','.join(params)}) {body}")
        used.extend(w for w in _IDENT.findall(body) if w in macros)
    return out


# -- expansion ----------------------------------------------------------------------------------------------

Macro = tuple[list[str] | None, list[str]]  # (parameters, None for object-like; body tokens)


def _macro(entry: str) -> tuple[str, Macro] | None:
    """``NAME(PARAMS) BODY`` / ``NAME BODY`` -> (name, macro)."""
    head, _, body = entry.partition(" ")
    name, paren, params = head.partition("(")
    if not _IDENT.fullmatch(name):
        return None
    plist = [p for p in params.rstrip(")").split(",") if p] if paren else None
    return name, (plist, _TOKEN.findall(body))


def expand(text: str, macros: dict[str, Macro]) -> str | None:
    """The one identifier ``text`` (a macro call) becomes under ``macros``, as the preprocessor expands it
    (arguments expanded first unless pasted, ``##`` pastes, the result scanned again); ``None`` when it is not
    one identifier.

    Examples
    --------
    >>> env = dict(_macro(e) for e in ["EXPAND_CAT(a,b) CAT(a, b)", "CAT(a,b) a##b", "FN(X) EXPAND_CAT(X, HASHER())",
    ...                                  "HASHER() H10", "GN(n,s) _GN(n, s)", "_GN(n,s) n##s", "BITS 12"])
    >>> expand("FN(HashTypeLength)", env), expand("GN(tj3Compress,BITS)", env), expand("_GN(a,BITS)", env)
    ('HashTypeLengthH10', 'tj3Compress12', 'aBITS')
    >>> expand("FN(x)", {}) is None
    True
    """
    out = _expand(_TOKEN.findall(text), macros, frozenset(), 0)
    if out is None or len(out) != 1 or not _IDENT.fullmatch(out[0]):
        return None
    return out[0]


def _expand(tokens: list[str], macros: dict[str, Macro], hidden: frozenset[str], depth: int) -> list[str] | None:
    if depth > _MAX_DEPTH:
        return None
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        mac = macros.get(t) if t not in hidden else None
        if mac is None:
            out.append(t)
            i += 1
            continue
        params, body = mac
        if params is None:
            got = _expand(_paste(body), macros, hidden | {t}, depth + 1)
            if got is None:
                return None
            out.extend(got)
            i += 1
            continue
        if i + 1 >= len(tokens) or tokens[i + 1] != "(":
            out.append(t)
            i += 1
            continue
        args, i = _arguments(tokens, i + 2)
        if args is None:
            return None
        if args == [[]] and not params:
            args = []
        if len(args) != len(params):
            return None
        raw = dict(zip(params, args, strict=True))
        full: dict[str, list[str]] = {}
        for p, a in raw.items():
            got = _expand(a, macros, hidden, depth + 1)
            if got is None:
                return None
            full[p] = got
        subst: list[str] = []
        for k, b in enumerate(body):
            if b in raw:
                pasted = (k > 0 and body[k - 1] == "##") or (k + 1 < len(body) and body[k + 1] == "##")
                subst.extend(raw[b] if pasted else full[b])
            else:
                subst.append(b)
        got = _expand(_paste(subst), macros, hidden | {t}, depth + 1)
        if got is None:
            return None
        out.extend(got)
    return out


def _arguments(tokens: list[str], i: int) -> tuple[list[list[str]] | None, int]:
    """The arguments of a call whose ``(`` was at ``i - 1``, and the position after its ``)``."""
    args: list[list[str]] = [[]]
    level = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "(":
            level += 1
        elif t == ")":
            if level == 0:
                return args, i + 1
            level -= 1
        elif t == "," and level == 0:
            args.append([])
            i += 1
            continue
        args[-1].append(t)
        i += 1
    return None, i


def _paste(tokens: list[str]) -> list[str]:
    """``a ## b`` -> ``ab``."""
    out: list[str] = []
    k = 0
    while k < len(tokens):
        if tokens[k] == "##" and out and k + 1 < len(tokens):
            out[-1] = out[-1] + tokens[k + 1]
            k += 2
            continue
        out.append(tokens[k])
        k += 1
    return out


# -- resolution ---------------------------------------------------------------------------------------------

def _entries(world, fid: int, kind: str) -> list[str]:
    c = world.ctx(fid)
    if c is None:
        return []
    return [e[len(kind):] for e in c.pf.defines if e.startswith(kind)]


def _has_templates(world, fid: int) -> bool:
    cache = world_cache(world, "c-tpl-has", dict)
    got = cache.get(fid)
    if got is None:
        c = world.ctx(fid)
        got = cache[fid] = c is not None and any(e.startswith("=tpl ") for e in c.pf.defines)
    return got


def _pasted_names(rules, world, fid: int) -> dict[str, list[int]]:
    """Pasted name -> the definitions of the files ``fid`` includes as templates that carry it."""
    cache: dict[int, dict[str, list[int]]] = world_cache(world, "c-tpl-names", dict)
    known = cache.get(fid)
    if known is not None:
        return known
    got: dict[str, list[int]] = {}
    cache[fid] = got
    ctx = world.ctx(fid)
    if ctx is None:
        return got
    inclusions: dict[tuple[str, str], dict[str, Macro]] = {}
    for e in _entries(world, fid, "=tpl "):
        line, target, rest = e.split(" ", 2)
        mac = _macro(rest)
        if mac is not None:
            inclusions.setdefault((line, target), {})[mac[0]] = mac[1]
    for (_line, target), env in inclusions.items():
        v = rules.module_value(world, ctx, target)
        if v is None or v[0] != "pkg":
            continue
        for mid in v[1]:
            yid = world.module_file.get(mid)
            if yid is None or yid == fid:
                continue
            own = dict(m for m in map(_macro, _entries(world, yid, "=tm ")) if m is not None)
            decls = _entries(world, yid, "=decl ")
            if not decls:
                continue
            lines = _definitions_by_line(world, yid)
            scope = {**env, **own}
            for d in decls:
                ln, call = d.split(" ", 1)
                name = expand(call, scope)
                sid = lines.get(int(ln))
                if name is not None and sid is not None and name != world.syms[sid].name:
                    got.setdefault(name, [])
                    if sid not in got[name]:
                        got[name].append(sid)
    return got


def _definitions_by_line(world, fid: int) -> dict[int, int]:
    c = world.ctx(fid)
    out: dict[int, int] = {}
    if c is None:
        return out
    for i, s in enumerate(c.pf.symbols):
        if s.kind == "function" and not s.is_declaration and s.parent == 0:
            out.setdefault(s.start_line, c.ids[i])
    return out


def template_targets(rules, world, ctx, name: str) -> list[int]:
    """The definitions named ``name`` by a template inclusion that ``ctx``'s unit reads: the file itself or a
    header its includes reach includes the template after the macros that paste ``name`` (see the module
    docstring); empty when none does. The unit's names are gathered once (a memo of the unit being resolved
    alone, as :func:`._unit_flags._this_unit` keeps)."""
    slot: dict[str, object] = world_cache(world, "c-tpl-unit", dict)
    if slot.get("unit") != ctx.frow.id:
        merged: dict[str, list[int]] = {}
        fids = [ctx.frow.id]
        for mid in rules.include_closure(world, ctx):
            fid = world.module_file.get(mid)
            if fid is not None:
                fids.append(fid)
        for fid in fids:
            if _has_templates(world, fid):
                for n, sids in _pasted_names(rules, world, fid).items():
                    have = merged.setdefault(n, [])
                    have.extend(s for s in sids if s not in have)
        slot["unit"], slot["map"] = ctx.frow.id, merged
    found = slot["map"]
    return sorted(found.get(name, ())) if isinstance(found, dict) else []


def exported_template_targets(rules, world, name: str) -> list[int]:
    """The exported (non-``static``) definitions named ``name`` by any template inclusion of the project: the
    linker's, whichever unit calls them (libjpeg-turbo's ``tj3Compress12``, pasted in ``turbojpeg.c``'s unit and
    called from ``tjunittest.c``). The includers are the project's tally's (:mod:`._macro_tally`), read once."""
    from ._build import _exported, tally_of

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        modules = path_modules(world)
        for path in tally_of(world).template_includers():
            mid = modules.get(path)
            fid = world.module_file.get(mid) if mid is not None else None
            if fid is None:
                continue
            for n, sids in _pasted_names(rules, world, fid).items():
                for sid in sids:
                    _c, sym = record_of(world, sid)
                    if sym is not None and _exported(world, sym) and sid not in out.setdefault(n, []):
                        out[n].append(sid)
        return out

    return sorted(world_cache(world, "c-tpl-exported", build).get(name, ()))
