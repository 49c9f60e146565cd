"""What every C/C++ file's ``#define``\\ s and ``#include``\\ s add up to, kept from one index run to the next.

:mod:`._build` asks whole-project questions (is ``FLAG`` defined by some header a build reads? which file
names does some ``#include`` name? which macros expand to ``static``?). Answering them from every file's
records costs the whole repository on every run: 13 s of a one-file refresh of the Linux kernel. A
:class:`MacroTally` holds, with counts, what each file contributes to those answers, so a refresh
subtracts the old records of the files it re-parsed or removed, adds their new ones
(:meth:`MacroTally.add`), and the answers are derived from the tally exactly as from the files: the
counts make a name defined in two files stay defined when one of them drops it.

The indexer saves the tally with the index's stamp (:mod:`lore.store.derived_state`) and starts the next
run from it (:func:`carried`); without a saved tally of the current state it is built from every file.
"""

from __future__ import annotations

import hashlib
import marshal
import posixpath
from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate

from ...parsers.records import ParsedFile
from ...store import derived_state

STATE_KEY = "c-macro-tally/3"  # the version names the encoding and what a file contributes
_PLAIN_KEY = STATE_KEY + "/names"  # the packed names, saved under their own token
# marshal's version 2 writes no back-references: from version 3 on an object met twice is written once and then
# referenced, so the bytes depend on which strings the process happened to share (a Ray worker interns other ones
# than a forked one) and two equal tallies could be saved as different bytes
_MARSHAL = 2
REPACK_AT = 20_000  # names changed since the names were packed: pack again (else a tenth of them)
_KCONFIG = "include/generated/autoconf.h"
_PLUS_ONE = (1).__add__  # a packed name's length with its newline (mapped in C)


class _Inconsistent(ValueError):
    """A count taken below zero: the saved tally does not describe the records taken away from it."""


def _bump(d: dict, key, by: int) -> None:
    n = d.get(key, 0) + by
    if n > 0:
        d[key] = n
    elif n == 0:
        d.pop(key, None)
    else:
        raise _Inconsistent(key)


class MacroTally:
    """Per-name counts of what the C/C++ files of an index ``#define`` and ``#include``.

    ``plain``: name -> {file name: files of that name defining it unconditionally}; ``cond``: (name,
    file name, the flags of its branch) -> files; ``vals``: (name, file name, value) -> files (``#define
    NAME <int>``); ``static`` / ``alias``: storage-class marks; ``includes``: file name -> files
    including it; ``kconfig``: the options a kernel's ``include/generated/autoconf.h`` defines; ``templates``:
    the paths of the files that include another as a template (``=tpl`` entries, :mod:`._templates`).

    Examples
    --------
    >>> from lore.languages import parse_source
    >>> h = parse_source("a.h", b"#define FLAG 1\\n", "c", "a")
    >>> c = parse_source("b.c", b'#include "a.h"\\n#ifdef FLAG\\n#define MORE\\n#endif\\n', "c", "b")
    >>> t = MacroTally()
    >>> t.add(h, 1); t.add(c, 1)
    >>> "FLAG" in t.project_defines(), "MORE" in t.project_defines()
    (True, False)
    >>> t.add(h, -1); "FLAG" in t.project_defines()
    False
    """

    __slots__ = ("plain", "cond", "vals", "static", "alias", "includes", "kconfig", "templates", "incmacros",
                 "saved_token", "_derived")

    def __init__(self) -> None:
        self.plain = _Plain()
        self.cond: dict[tuple[str, str, str], int] = {}
        self.vals: dict[tuple[str, str, int], int] = {}
        self.static: dict[str, int] = {}
        self.alias: dict[tuple[str, str], int] = {}
        self.includes: dict[str, int] = {}
        self.kconfig: dict[str, int] = {}
        self.templates: dict[str, int] = {}
        self.incmacros: dict[tuple[str, str], int] = {}  # (name, header spec) of `#define NAME <x.h>`
        self.saved_token = ""  # the packed names' token as saved (loaded from, or written by, save())
        self._derived: dict[str, object] = {}

    # -- upkeep ------------------------------------------------------------------------------------
    def add(self, pf: ParsedFile, sign: int) -> None:
        """Count what ``pf`` contributes (``sign`` 1), or take it away again (``sign`` -1)."""
        if pf.language not in ("c", "cpp"):
            return
        self._derived.clear()
        base = posixpath.basename(pf.path)
        kconfig = pf.path.endswith(_KCONFIG)
        template = False
        for name in {posixpath.basename(i.module.strip('<>"')) for i in pf.imports}:
            _bump(self.includes, name, sign)
        for e in pf.defines:
            if e.startswith("="):
                kind, _, rest = e.partition(" ")
                if kind == "=val":
                    name, value = rest.split(" ", 1)
                    _bump(self.vals, (name, base, int(value)), sign)
                elif kind == "=static":
                    _bump(self.static, rest, sign)
                elif kind == "=as":
                    name, word = rest.split(" ", 1)
                    _bump(self.alias, (name, word), sign)
                elif kind == "=tpl":
                    template = True
                elif kind == "=inc":
                    name, spec = rest.split(" ", 1)
                    _bump(self.incmacros, (name, spec), sign)
            elif " " not in e:
                self.plain.bump(e, base, sign)
                if kconfig:
                    _bump(self.kconfig, e, sign)
            else:
                parts = e.split()
                _bump(self.cond, (parts[0], base, " ".join(parts[2:])), sign)
        if template:
            _bump(self.templates, pf.path, sign)

    def include_macro(self, name: str) -> str | None:
        """The header spec every ``#define NAME <x.h>`` of the project agrees on (:mod:`._computed_includes`)."""
        got = self._derived.get("incmacros")
        if not isinstance(got, dict):
            seen: dict[str, set[str]] = {}
            for n, spec in self.incmacros:
                seen.setdefault(n, set()).add(spec)
            got = self._derived["incmacros"] = {n: next(iter(v)) for n, v in seen.items() if len(v) == 1}
        return got.get(name)

    def template_includers(self) -> list[str]:
        """The paths of the files that include another as a template (:mod:`._templates`), sorted."""
        return sorted(self.templates)

    # -- what the files add up to (each derived once per tally state) ------------------------------
    def included(self) -> frozenset[str]:
        """The file names some ``#include`` names (``"x.h"``, ``<a/x.h>``: ``x.h``), also through a macro
        (``#define FT_CONFIG_OPTIONS_H <freetype/config/ftoption.h>``: ``ftoption.h``)."""
        got = self._derived.get("included")
        if got is None:
            named = {posixpath.basename(spec.strip('<>"')) for _n, spec in self.incmacros}
            got = self._derived["included"] = frozenset(self.includes).union(named)
        return got  # type: ignore[return-value]

    def project_defines(self) -> _ProjectDefines:
        """The macro names some included file defines where a default build reads them (a set to test names
        against; see :func:`lore.languages.c._build._project_defines`)."""
        got = self._derived.get("defines")
        if got is None:
            got = self._derived["defines"] = _ProjectDefines(self)
        return got  # type: ignore[return-value]

    def project_values(self) -> dict[str, int]:
        """``NAME -> value`` where every included file that sets ``NAME`` agrees, and every file defining it
        sets it to a value (see :func:`lore.languages.c._build._project_values`)."""
        got = self._derived.get("values")
        if got is None:
            included = self.included()
            values: dict[str, set[int]] = {}
            valued: dict[str, int] = {}
            for (name, base, value), n in self.vals.items():
                if base in included:
                    values.setdefault(name, set()).add(value)
                    valued[name] = valued.get(name, 0) + n
            definers = {name: sum(self.plain.bases(name).values()) for name in values}
            for (name, _base, _needs), n in self.cond.items():
                if name in definers:
                    definers[name] += n
            got = self._derived["values"] = {n: next(iter(vs)) for n, vs in values.items()
                                              if len(vs) == 1 and valued[n] == definers[n]}
        return got  # type: ignore[return-value]

    def conditional(self) -> frozenset[tuple[str, tuple[str, ...]]]:
        """``(NAME, flags)`` of every ``#define NAME`` an included file makes in a branch that needs one of
        ``flags`` (read under a compile command's ``-D``\\ s: :func:`lore.languages.c._build._unit_project_defines`)."""
        got = self._derived.get("conditional")
        if got is None:
            included = self.included()
            got = self._derived["conditional"] = frozenset(
                (name, tuple(needs.split())) for (name, base, needs) in self.cond if base in included)
        return got  # type: ignore[return-value]

    def static_macros(self) -> frozenset[str]:
        """Macro names that expand to ``static``, directly or through other macros."""
        got = self._derived.get("static")
        if got is None:
            out = set(self.static)
            alias = list(self.alias)
            while True:
                more = {name for name, word in alias if word in out and name not in out}
                if not more:
                    break
                out |= more
            got = self._derived["static"] = frozenset(out)
        return got  # type: ignore[return-value]

    def kernel_options(self) -> frozenset[str]:
        """The ``CONFIG_`` options a kernel tree's ``include/generated/autoconf.h`` defines."""
        got = self._derived.get("kconfig")
        if got is None:
            got = self._derived["kconfig"] = frozenset(self.kconfig)
        return got  # type: ignore[return-value]

    def answers(self, names: set[str], marks: frozenset[str] = frozenset({"=val", "=static", "=as", "kconfig"})) -> tuple:
        """What the rules can read of this tally for the macro ``names`` (and of everything a change to one
        file can move for all names: the included file names, the conditional defines, the values, and of
        ``marks`` (the kinds of entries the changed files hold): the ``static`` macros, the kernel options):
        equal before and after a refresh, no resolution changes."""
        defines = self.project_defines()
        return (self.included(), frozenset(defines._conditional()), self.conditional(),
                frozenset(n for n in names if n in defines),
                self.project_values(),  # few names (``#define NAME <int>`` in headers), but any definer counts
                self.static_macros() if marks & {"=static", "=as"} else None,
                self.kernel_options() if "kconfig" in marks else None,
                frozenset(self.templates) if "=tpl" in marks else None,
                frozenset(self.incmacros) if "=inc" in marks else None)

    # -- saved form ----------------------------------------------------------------------------------
    def _small(self) -> bytes:
        return marshal.dumps((1, self.plain.token, self.plain.overlay, self.cond, self.vals, self.static, self.alias,
                              self.includes, self.kconfig, self.templates, self.incmacros), _MARSHAL)

    @classmethod
    def of(cls, records: Iterable[ParsedFile]) -> MacroTally:
        t = cls()
        for pf in records:
            t.add(pf, 1)
        t.plain.compact()
        return t


class _Plain:
    """name -> {file name: files of that name defining it}: a packed part, the names sorted in one string and
    read name by name (a binary search over their offsets: loading it builds no object per name, and the
    kernel's `mm/` with its headers alone has 218,000), plus an overlay of the changes made since it was packed (a refresh's few).

    Examples
    --------
    >>> p = _Plain()
    >>> p.bump("A", "a.h", 1); p.bump("B", "b.h", 1); p.bump("B", "c.h", 1); p.compact()
    >>> p.bases("B"), p.bases("C")
    ({'b.h': 1, 'c.h': 1}, {})
    >>> p.bump("A", "a.h", -1); p.bump("C", "a.h", 1); sorted(p.names())
    ['B', 'C']
    """

    __slots__ = ("text", "starts", "code", "base_names", "multi", "overlay", "token")

    def __init__(self) -> None:
        self.text = ""  # the packed names, sorted, each followed by "\n"
        self.starts = array("i")  # where each packed name starts in ``text``
        self.code = array("i")  # per packed name: its one file name's index (one file), else -1 - index in ``multi``
        self.base_names: list[str] = []
        self.multi: list[dict[str, int]] = []
        self.overlay: dict[str, dict[str, int]] = {}  # name -> {file name: change since packed}
        self.token = ""  # names the packed part (saved once, shared by the states that did not repack it)

    def _packed(self, name: str) -> dict[str, int]:
        text, starts = self.text, self.starts
        lo, hi = 0, len(starts)
        while lo < hi:
            mid = (lo + hi) // 2
            at = starts[mid]
            got = text[at : text.index("\n", at)]
            if got < name:
                lo = mid + 1
            elif got > name:
                hi = mid
            else:
                c = self.code[mid]
                return {self.base_names[c]: 1} if c >= 0 else dict(self.multi[-1 - c])
        return {}

    def bases(self, name: str) -> dict[str, int]:
        """``{file name: count}`` of the files defining ``name`` (empty if none)."""
        got = self._packed(name)
        for base, d in self.overlay.get(name, {}).items():
            n = got.get(base, 0) + d
            if n:
                got[base] = n
            else:
                del got[base]
        return got

    def bump(self, name: str, base: str, sign: int) -> None:
        if sign > 0:  # a count up leaves no count below zero (a full count's every step: kept short)
            ov = self.overlay.get(name)
            if ov is None:
                self.overlay[name] = {base: sign}
                return
            n = ov.get(base, 0) + sign
            if n:
                ov[base] = n
                return
            del ov[base]  # it had been counted down since the names were packed
            if not ov:
                del self.overlay[name]
            return
        if sign < 0 and self.bases(name).get(base, 0) + sign < 0:
            raise _Inconsistent(name)
        ov = self.overlay.setdefault(name, {})
        _bump_delta(ov, base, sign)
        if not ov:
            del self.overlay[name]

    def names(self) -> Iterator[str]:
        """Every name some file defines."""
        packed = self.text.split("\n")[:-1] if self.text else []
        seen = set(packed)
        for name in packed:
            if name not in self.overlay or self.bases(name):
                yield name
        for name in self.overlay:
            if name not in seen and self.bases(name):
                yield name

    def compact(self) -> None:
        """Pack the overlay into the sorted part (a new ``token``, the digest of the packed bytes)."""
        full: dict[str, dict[str, int]] = {}
        code, base_names, multi0 = self.code, self.base_names, self.multi
        if not self.text:  # the first pack (a full count): the overlay is the whole tally, and holds no zero
            full = self.overlay
        for i, name in enumerate(self.text.split("\n")[:-1] if self.text else ()):
            c = code[i]
            full[name] = {base_names[c]: 1} if c >= 0 else multi0[-1 - c]
        for name, changes in self.overlay.items() if full is not self.overlay else ():
            by_base = dict(full.get(name, {}))
            for base, d in changes.items():
                _bump_delta(by_base, base, d)
            if by_base:
                full[name] = by_base
            else:
                full.pop(name, None)
        index: dict[str, int] = {}
        names = sorted(full)
        # where each name starts in the packed text: the lengths before it, each with its newline
        starts = array("i", accumulate(map(_PLUS_ONE, map(len, names)), initial=0))
        starts.pop()
        code = array("i")  # type: ignore[assignment]
        multi: list[dict[str, int]] = []
        add_code, add_multi, one_base = code.append, multi.append, index.setdefault
        for by_base in map(full.__getitem__, names):
            if len(by_base) == 1:
                ((base, n),) = by_base.items()
                if n == 1:
                    add_code(one_base(base, len(index)))
                    continue
            add_code(-1 - len(multi))
            add_multi(by_base)
        self.text = "\n".join(names) + "\n" if names else ""
        self.starts, self.code, self.multi, self.overlay = starts, code, multi, {}
        self.base_names = list(index)
        # named by its content: the same files give the same index, byte for byte, on any executor
        self.token = hashlib.blake2b(self.packed_bytes(), digest_size=16).hexdigest()

    def packed_bytes(self) -> bytes:  # 32-bit offsets and codes: 4 bytes a name fewer than 64-bit ones
        return marshal.dumps((self.text, self.starts.tobytes(), self.code.tobytes(), self.base_names, self.multi), _MARSHAL)

    def unpack(self, data: bytes) -> bool:
        if array("i").itemsize != 4:  # saved as 32-bit ints: a platform with another C int reads none back
            return False
        try:
            text, starts, code, self.base_names, self.multi = marshal.loads(data)
            self.text = text
            self.starts, self.code = array("i"), array("i")
            self.starts.frombytes(starts)
            self.code.frombytes(code)
        except (ValueError, EOFError, TypeError):
            return False
        return len(self.starts) == len(self.code)


def _bump_delta(d: dict, key, by: int) -> None:
    n = d.get(key, 0) + by
    if n:
        d[key] = n
    else:
        d.pop(key, None)


class _ProjectDefines:
    """Membership in the project's defined macro names, read from a tally name by name: a name some
    included file defines unconditionally, or in a branch one of whose flags is such a name (the least
    fixed point over the conditional ones, which are few)."""

    def __init__(self, tally: MacroTally) -> None:
        self.tally = tally
        self._cond: set[str] | None = None
        # name -> its answer: each is a binary search over the packed names, and the rules ask the same
        # names again and again (a tally changed by ``add`` makes a new one of these: MacroTally._derived)
        self._seen: dict[str, bool] = {}

    def _plain(self, name: str) -> bool:
        got = self._seen.get(name)
        if got is None:
            by_base = self.tally.plain.bases(name)
            got = self._seen[name] = bool(by_base) and not self.tally.included().isdisjoint(by_base)
        return got

    def _conditional(self) -> set[str]:
        if self._cond is None:
            included = self.tally.included()
            pending = [(name, needs.split()) for (name, base, needs), _n in self.tally.cond.items() if base in included]
            plain = {n for n in {n for name, needs in pending for n in (name, *needs)} if self._plain(n)}
            out: set[str] = set()
            while pending:  # defined in a branch that holds when one of its flags is defined: once one is
                more = [name for name, needs in pending if name not in out and name not in plain
                        and any(n in out or n in plain for n in needs)]
                if not more:
                    break
                out.update(more)
            self._cond = out
        return self._cond

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (self._plain(name) or name in self._conditional())

    def __iter__(self) -> Iterator[str]:  # for tests and checks: every name, in no particular order
        yield from (n for n in self.tally.plain.names() if self._plain(n))
        yield from (n for n in self._conditional() if not self._plain(n))


def carried(conn, stamp: str, gone: list[ParsedFile] | None,
            new: list[ParsedFile]) -> tuple[MacroTally | None, bool]:
    """The tally of the last state (saved for ``stamp``) with the records of ``gone`` (the old versions of
    re-parsed and removed files) taken away and those of ``new`` added, and whether that changed an answer
    the rules read (a name defined or not, a value, a ``static`` macro, an included file name, a kernel
    option). ``(None, True)`` when no tally is saved for ``stamp`` or ``gone`` is unknown (``None``): then
    it is counted from every file, and the answers may have changed."""
    if gone is None:
        return None, True
    data = derived_state.load(conn, STATE_KEY, stamp)
    if data is None:
        return None, True
    try:
        version, token, overlay, *parts = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None, True
    if version != 1 or len(parts) != 8 or not all(isinstance(p, dict) for p in (overlay, *parts)):
        return None, True
    t = MacroTally()
    t.cond, t.vals, t.static, t.alias, t.includes, t.kconfig, t.templates, t.incmacros = parts
    packed = derived_state.load(conn, _PLAIN_KEY, token)
    if packed is None or not t.plain.unpack(packed):
        return None, True
    t.plain.overlay, t.plain.token, t.saved_token = overlay, token, token
    names, marks = _names(gone, new), _marks(gone, new)
    before = t.answers(names, marks)
    try:
        for pf in gone:
            t.add(pf, -1)
    except _Inconsistent:
        return None, True
    for pf in new:
        t.add(pf, 1)
    return t, t.answers(names, marks) != before


def moved(t: MacroTally, gone: list[ParsedFile], new: list[ParsedFile]) -> bool:
    """Whether ``t``, counted from every file of this run, answers otherwise than it did before ``gone`` were
    replaced by ``new`` (``t`` is left as it was)."""
    names, marks = _names(gone, new), _marks(gone, new)
    after = t.answers(names, marks)
    try:
        for pf in new:
            t.add(pf, -1)
    except _Inconsistent:
        return True
    for pf in gone:
        t.add(pf, 1)
    before = t.answers(names, marks)
    for pf in gone:
        t.add(pf, -1)
    for pf in new:
        t.add(pf, 1)
    return after != before


def _marks(gone: list[ParsedFile], new: list[ParsedFile]) -> frozenset[str]:
    """The kinds of entries the changed files hold that only some answers read (``=val``, ``=static``,
    ``=as``; ``kconfig``: a kernel's ``autoconf.h``)."""
    out = {e.partition(" ")[0] for pf in (*gone, *new) if pf.language in ("c", "cpp") for e in pf.defines
           if e.startswith("=")}
    if any(pf.path.endswith(_KCONFIG) for pf in (*gone, *new)):
        out.add("kconfig")
    return frozenset(out)


def _names(gone: list[ParsedFile], new: list[ParsedFile]) -> set[str]:
    return {n for pf in (*gone, *new) if pf.language in ("c", "cpp") for e in pf.defines for n in e.split()
            if not n.startswith(("=", "?"))}


def save(conn, stamp: str, tally: MacroTally) -> None:
    """Save ``tally`` as the state ``stamp``'s (inside the indexer's transaction); its packed names again
    only when they are not the ones saved already or the overlay grew large."""
    plain = tally.plain
    if len(plain.overlay) > max(REPACK_AT, len(plain.starts) // 10):
        plain.compact()
    if not plain.token:
        plain.compact()
    if plain.token != tally.saved_token:
        derived_state.save(conn, _PLAIN_KEY, plain.token, plain.packed_bytes())
        tally.saved_token = plain.token
    derived_state.save(conn, STATE_KEY, stamp, tally._small())
