"""Object-like macros that rename a function: ``#define MZ_FCLOSE fclose``, ``#define my_free xfree``,
``#define pcre2_match PCRE2_SUFFIX(pcre2_match_)``.

A call written through such a macro (``MZ_FCLOSE(f)``) is a use of the macro: the compiler (and clangd's
go-to-definition) answers the ``#define`` line, whatever the name it expands to. Each such ``#define`` becomes a
function-like symbol of its file (as ``#define F(x) ...`` is), so the call binds it where the file or its includes
define it, in the preprocessor branch it sits in. A value that is a number, a type or a storage-class word
(``#define BUFSZ 1024``, ``#define uLong unsigned long``, ``#define MEM_STATIC static inline``) renames no function
and is left out; so is a ``#define`` in a branch the file does not surely compile (``#ifdef Z_PREFIX``,
``#if defined(_MSC_VER) ... #else``: which branch a build takes is often what the project cannot tell, and the
macro would then stand beside the function it renames as one more alternative). A call that reaches such a
macro binds it alone (:func:`macro_first`): the preprocessor replaces the name before any function of it is seen.
"""

from __future__ import annotations

import bisect
import re

from ...parsers.records import Symbol
from ...store.schema import CONFIDENCE
from .._rules import record_of, world_cache

# one line (no continuation): the name, then a name or a macro call pasting one name (``PCRE2_SUFFIX(x_)``), then
# at most a comment; a call with a number or several arguments makes a constant (the kernel's ``#define K_F166
# K(KT_FN,175)``, ``#define TCPC_RX_DETECT_SOP1 BIT(1)``: about 150,000 of them would each have become a symbol)
_RENAMING = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*"
                       rb"(\([ \t]*[A-Za-z_]\w*[ \t]*\))?"
                       rb"[ \t]*(?:/\*[^\n]*\*/|//[^\n]*)?[ \t]*$", re.MULTILINE)
# a value in capitals alone names a constant or another macro, not a function (``#define VCN_HWID UVD_HWID``)
_CONSTANT = re.compile(rb"[A-Z0-9_]+")

# words that start a type or a declaration, never a function's name
_NOT_FUNCTIONS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if inline int long "
    "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while "
    "_Bool _Complex _Noreturn _Thread_local __inline __inline__ __restrict __restrict__ __volatile__ __const "
    "__attribute__ __declspec __forceinline __cdecl __stdcall __fastcall __thread __extension__ __typeof__ "
    "typeof bool true false NULL".split())


def renaming_macros(source: bytes) -> list[tuple[int, str, str]]:
    """``(byte of the name, name, value)`` of each ``#define`` that renames a function.

    Examples
    --------
    >>> src = (b"#define MZ_FCLOSE fclose\\n#define print_char PCRE2_SUFFIX(print_char_)  /* x */\\n"
    ...        b"#define BUFSZ 1024\\n#define MEM_STATIC static inline\\n#define F(x) g(x)\\n#define E\\n"
    ...        b"#define ULONG unsigned long\\n#define K_F1 K(KT_FN,175)\\n#define RX BIT(1)\\n#define VCN_HWID UVD_HWID\\n")
    >>> [(n, v) for _, n, v in renaming_macros(src)]
    [('MZ_FCLOSE', 'fclose'), ('print_char', 'PCRE2_SUFFIX(print_char_)')]
    """
    if b"define" not in source:
        return []
    out = []
    for m in _RENAMING.finditer(source):
        if m.group(3) is None and _CONSTANT.fullmatch(m.group(2)):
            continue
        word = m.group(2).decode("utf-8", "replace")
        if word in _NOT_FUNCTIONS:
            continue
        value = word + (m.group(3) or b"").decode("utf-8", "replace").replace(" ", "")
        out.append((m.start(1), m.group(1).decode("utf-8", "replace"), value))
    return out


def add_renaming_macros(ex) -> None:
    """A function-like symbol for each renaming ``#define`` of the file (see the module docstring), at its line and
    in the branch it sits in; none where the file already has a symbol of that name on that line."""
    found = renaming_macros(ex.source)
    if not found:
        return
    have = {(s.name, s.start_line) for s in ex.pf.symbols}
    module = ex.pf.symbols[0].qualified_name
    # a parse with errors may have lost the #if chains around a #define (miniz's `#pragma message` between its
    # per-compiler branches): only a #define outside any #if but the include guard is then sure
    nested = _nested(ex.source) if ex.pf.syntax_errors else None
    for byte, name, value in found:
        line = ex.source.count(b"\n", 0, byte) + 1
        if (name, line) in have:
            continue
        if ex.state_at(byte) != "" or (nested is not None and nested(byte)):  # see the module docstring
            continue
        ex.pf.symbols.append(Symbol(name=name, qualified_name=f"{module}.{name}", kind="function", parent=0,
                                    start_line=line, end_line=line, signature=f"#define {name} {value}", params=[],
                                    exported=False))


_GUARD = re.compile(rb"[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\r?\n[ \t]*#[ \t]*define[ \t]+\1\b")
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", re.MULTILINE)


def _nested(source: bytes):
    """A test of whether a byte of ``source`` sits inside an ``#if`` (other than a first ``#ifndef`` that guards
    the whole file), read from the directives' text alone.

    Examples
    --------
    >>> src = b"#ifndef H\\n#define H\\n#define A a\\n#ifdef X\\n#define B b\\n#endif\\n#endif\\n"
    >>> inside = _nested(src)
    >>> [inside(src.index(w)) for w in (b"A a", b"B b")]
    [False, True]
    """
    marks: list[tuple[int, int]] = []  # (byte, depth after the directive)
    depth = 0
    for m in _DIRECTIVE.finditer(source):
        depth += -1 if m.group(1) == b"endif" else 1
        marks.append((m.start(), depth))
    guard = 1 if marks and _GUARD.match(source, marks[0][0]) else 0
    starts = [b for b, _ in marks]

    def inside(byte: int) -> bool:
        k = bisect.bisect_right(starts, byte) - 1
        return k >= 0 and marks[k][1] > guard

    return inside


def macro_first(world, targets: list[tuple]) -> list[tuple]:
    """Of a call's targets ``(id, resolution, confidence)``, the renaming macros when there are any besides other
    definitions (``#define tuklib_wraps TUKLIB_SYMBOL(tuklib_wraps)`` in the header, the function of that name in
    its source: the call is the macro's), their confidence shared among them; else ``targets`` unchanged."""
    if len(targets) < 2:
        return targets
    macros = [t for t in targets if t[0] is not None and _renames(world, t[0])]
    if not macros or len(macros) == len(targets):
        return targets
    k = len(macros)
    return [(tid, res, CONFIDENCE.get(res, conf) / k if k > 1 else CONFIDENCE.get(res, conf)) for tid, res, conf in macros]


def only_renaming(world, ctx, call, targets: list[tuple]) -> bool:
    """Whether every target is a renaming macro in effect at the call: what the call's arguments cannot choose
    against (the macro replaces the name alone; xz's ``#define tuklib_exit TUKLIB_SYMBOL(tuklib_exit)`` just
    before the prototype). One its own file defines after the call is not (``#define helper helper`` below)."""
    if not targets:
        return False
    for tid, _res, _conf in targets:
        if tid is None or tid not in world.syms or not _renames(world, tid):  # (an external's id is no symbol)
            return False
        if world.syms[tid].file_id == ctx.frow.id:
            _c, sym = record_of(world, tid)
            if sym is None or sym.start_line > call.line:
                return False
    return True


def renamed_in_file(world, ctx, call, targets: list[tuple]) -> list[tuple]:
    """A call of a function its own file renames before the call (pcre2's ``pcre2_printint_inc.h``: ``#define
    print_class PCRE2_SUFFIX(print_class_)`` at its top, then ``static void print_class(...)`` and the calls): the
    preprocessor replaces every later ``print_class``, so the definition is ``print_class_8`` and the call is the
    macro's, as clangd answers it. ``targets`` unchanged when the file has no such ``#define`` before the call."""
    if len(targets) != 1 or targets[0][0] is None:
        return targets
    tid, res, conf = targets[0]
    row = world.syms.get(tid)
    if row is None or row.file_id != ctx.frow.id or _renames(world, tid):
        return targets
    for i, s in enumerate(ctx.pf.symbols):
        if s.name == row.name and s.parent == 0 and s.start_line < call.line and s.signature.startswith("#define ") \
                and _renames(world, ctx.ids[i]):
            return [(ctx.ids[i], res, conf)]
    return targets


def out_of_reach(world, hdr: list[int]) -> list[int]:
    """Of several header definitions none of the caller's includes reach, what still counts: one definition
    besides renaming macros (the kernel's generic headers call x86's ``arch_atomic_and``, which
    ``asm-generic/atomic.h`` also renames: ``#define arch_atomic_and generic_atomic_and``, another configuration's)
    is kept alone, or with its own file's macro (``#define arch_and arch_and`` after it, what the preprocessor
    calls); else none."""
    plain = [h for h in hdr if not _renames(world, h)]
    if len(plain) != 1:
        return []
    home = world.syms[plain[0]].file_id
    return [h for h in hdr if world.syms[h].file_id == home]


def _renames(world, sid: int) -> bool:
    """Whether the symbol ``sid`` is a renaming macro (its signature ``#define NAME VALUE``, no parameters)."""
    cache = world_cache(world, "c-renaming-macros", dict)
    got = cache.get(sid)
    if got is None:
        _c, sym = record_of(world, sid)
        sig = sym.signature if sym is not None else ""
        got = cache[sid] = sig.startswith("#define ") and not sig[8:].lstrip().startswith(f"{sym.name}(")
    return got
