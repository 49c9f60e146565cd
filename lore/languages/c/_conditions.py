"""Which preprocessor branches a default build compiles: Linux, x86_64, GCC, no ``-D`` flags.

A C file is walked the way the preprocessor walks it, in order: ``#define`` / ``#undef`` at file level
update what is known, and each ``#if`` / ``#ifdef`` / ``#elif`` / ``#else`` is evaluated with what the file
defined above it and the platform's facts (``_WIN32`` undefined, ``__linux__`` defined). A branch is
*off* when its condition is decided false, *undecided* when the file cannot tell (a macro of a config header,
a ``-D`` of the build), else compiled. Definitions in an off branch stay symbols (a reader navigates to
them) but are not the default build's: resolution prefers the others among alternatives
(:meth:`lore.languages.c._rules.CRules.linkage`). Undecided branches keep all alternatives.

Values are three-valued: an int, or ``None`` for "cannot be decided here".
"""

from __future__ import annotations

import bisect
import re

from ...parsers import _ts
from ._ifexpr import _TOKEN, DEFINED, UNKNOWN, FnMacro, Maybe, _uncommented, evaluate

__all__ = ["Branches", "evaluate"]

_INT = re.compile(r"\(?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?")
_CHAINS = ("preproc_if", "preproc_ifdef")
_LINKS = ("preproc_elif", "preproc_elifdef", "preproc_else")
_INTO = frozenset({"linkage_specification", "declaration_list", "namespace_definition"})  # C++: #if inside a namespace


def _and(a: bool | None, b: bool | None) -> bool | None:
    return False if a is False or b is False else None if a is None or b is None else True


def _or(a: bool | None, b: bool | None) -> bool | None:
    return True if a is True or b is True else None if a is None or b is None else False


def _not(a: bool | None) -> bool | None:
    return None if a is None else not a


class Branches:
    """The byte ranges of a file's off and undecided preprocessor branches (see the module docstring).

    Examples
    --------
    >>> src = (b"#ifndef _WIN32\\nint a;\\n#else\\nint b;\\n#endif\\n#ifdef HAVE_X\\nint c;\\n#endif\\n"
    ...        b"#if __GNUC__ > 5\\nint d;\\n#endif\\n")
    >>> br = Branches(_ts.parse("c", src).root_node, src, cplusplus=False)
    >>> [br.state(src.index(x)) for x in (b"int a", b"int b", b"int c", b"int d")]
    ['', '0', '?0 HAVE_X', '?']
    """

    def __init__(self, root: _ts.Node, source: bytes, *, cplusplus: bool | None, assume: bool = False) -> None:
        self.source = source
        self.cplusplus = cplusplus
        self.assume = assume
        self.macros: dict[str, object] = {}
        self.defines: set[str] = set()
        self.depends: dict[str, frozenset[str]] = {}  # assume pass: macro -> the assumed names its #define needs
        self.off: list[tuple[int, int]] = []
        self.undecided: list[tuple[int, int]] = []
        self.assumed_off: list[tuple[int, int, frozenset[str]]] = []
        self.exprs: list[tuple[int, int, str]] = []  # undecided branches: what decides them, as far as the file tells
        self._outer: list[str] = []  # the conditions of the undecided branches being walked, outermost first
        self._blind = 0  # undecided branches being walked whose condition is not written in _outer
        # a macro the file defines only in undecided branches, first undefined: (the condition, the value) of each
        # definition (None once that is not known: #undef, a branch not written, a condition that reads itself)
        self.cond_defs: dict[str, list[tuple[str, object]] | None] = {}
        self.tested: set[str] = set()  # the names the file's conditions read
        if b"#" in source:
            self._walk(root.children, True, frozenset())
        self.off = _merged(self.off)
        self.undecided = _merged(self.undecided)
        self._off_starts = [a for a, _ in self.off]
        self._und_starts = [a for a, _ in self.undecided]
        self.exprs.sort()
        self._expr_starts = [a for a, _b, _t in self.exprs]
        self._root = root
        self._assuming: Branches | None = None

    def expr(self, byte: int) -> str:
        """The condition under which an undecided ``byte`` is compiled, with what the file decided above it written
        in (``"defined(MINIZ_NO_MALLOC)"``, ``"CONFIG_SMP && !(defined(CONFIG_NUMA))"``): a project's headers or
        configuration decide it later (:func:`lore.languages.c._build._skipped`); ``""`` when none is recorded."""
        k = bisect.bisect_right(self._expr_starts, byte) - 1
        while k >= 0:
            a, b, text = self.exprs[k]
            if a <= byte < b:
                return text
            k -= 1
        return ""

    def values(self) -> dict[str, int]:
        """What ``#if NAME`` reads at the end of the file, for the macros every path through it agrees on and
        that its own conditions test (a configuration's flags, not every constant of a header)."""
        out: dict[str, int] = {}
        for name, v in self.macros.items():
            if name not in self.tested:
                continue
            got = v.reading() if isinstance(v, Maybe) else v if isinstance(v, int) else None
            if got is not None:
                out[name] = got
        return out

    def _frozen(self, text: str) -> str | None:
        """``text`` with the names the file decided above written as their values; ``None`` when it does not
        tokenize or is long."""
        out: list[str] = []
        toks = [m.group(0).strip() for m in _TOKEN.finditer(_uncommented(text))]
        i = 0
        while i < len(toks):
            t = toks[i]
            if not t:
                i += 1
                continue
            if t == "defined":
                paren = i + 1 < len(toks) and toks[i + 1] == "("
                j = i + 2 if paren else i + 1
                name = toks[j] if j < len(toks) else ""
                i = j + 2 if paren else j + 1
                v = self.macros.get(name, UNKNOWN) if name in self.macros else UNKNOWN
                d = v.defined() if isinstance(v, Maybe) else None if v is UNKNOWN else 0 if v is None else 1
                out.append((self._written(name, True) or f"defined({name})") if d is None else str(d))
                continue
            if t[:1].isalpha() or t[:1] == "_":
                v = self.macros.get(t, UNKNOWN)
                r = v.reading() if isinstance(v, Maybe) else v if isinstance(v, int) else 0 if v is None else None
                out.append((self._written(t, False) or t) if r is None else str(r))
            else:
                out.append(t)
            i += 1
        got = " ".join(out)
        return got if len(got) <= 400 else None

    def state(self, byte: int) -> str:
        """``"0"`` in an off branch, ``"?"`` in an undecided one, else ``""``. An undecided branch that is off
        when the project flags it tests are undefined is ``"?0 NAME ..."`` (those names): resolution reads it as
        off when no file of the project defines any of them."""
        if _inside(self.off, self._off_starts, byte):
            return "0"
        if not _inside(self.undecided, self._und_starts, byte):
            return ""
        if self._assuming is None:
            self._assuming = Branches(self._root, self.source, cplusplus=self.cplusplus, assume=True)
        names: set[str] = set()
        covered = False
        for a, b, used in self._assuming.assumed_off:
            if a <= byte < b:
                names |= used
                covered = True
        if covered and not names:  # off whatever the flags: the assumptions it read were defaults the file sets
            return "0"
        return "?0 " + " ".join(sorted(names)) if names else "?"

    def _text(self, node: _ts.Node | None) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""

    def _walk(self, children: list[_ts.Node], active: bool | None, names: frozenset[str]) -> None:
        for child in children:
            t = child.type
            if t in ("preproc_def", "preproc_function_def"):
                self._define(child, active, names)
            elif t == "preproc_call":
                if self._text(child.child_by_field_name("directive")).strip() == "#undef":
                    name = self._text(child.child_by_field_name("argument")).strip()
                    if name and active is not False:
                        self.macros[name] = None if active else UNKNOWN
                        self.cond_defs.pop(name, None) if active else self.cond_defs.__setitem__(name, None)
            elif t in _CHAINS:
                self._chain(child, active, names)
            elif t in _INTO:
                self._walk(child.children, active, names)

    def _define(self, node: _ts.Node, active: bool | None, names: frozenset[str] = frozenset()) -> None:
        name = self._text(node.child_by_field_name("name"))
        self.defines.add(name)
        if names and active is not False:  # assume pass: defined only if those flags are undefined
            # a default (#if !defined(B) ... #define B): B is defined from here whether or not it was before,
            # so whether B is defined elsewhere does not decide the branches that test it below
            self.depends[name] = names - {name}
        if self.assume and active is False and names and name and name not in self.macros:
            # defined only in a branch that is off when those flags are undefined (#ifdef PNG_DEBUG ... #define
            # png_debug ...): undefined below under the same assumption (#ifndef png_debug: the default's branch)
            self.macros[name] = None
            self.depends[name] = names - {name}
        if not name or active is False:
            return
        value: object = DEFINED
        if node.type == "preproc_def":
            raw = self._text(node.child_by_field_name("value")).strip()
            m = _INT.fullmatch(raw)
            if m is not None:
                digits = m.group(1)
                value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if len(digits) > 1 and \
                    digits.startswith("0") else int(digits)
            elif raw and len(raw) < 200:
                value = raw  # an expression of other macros, expanded where a condition reads it
        else:  # #define GCC_AT_LEAST(maj, min) ...: expanded where a condition calls it
            params = node.child_by_field_name("parameters")
            body = self._text(node.child_by_field_name("value")).strip()
            if params is not None and body and len(body) < 300:
                value = FnMacro(((*(self._text(p) for p in params.named_children if p.type == "identifier"),),
                                 _uncommented(body)))
        if active is None and not self.assume:
            self._conditional_value(name, value)
        elif active:
            self.cond_defs.pop(name, None)
        if active is None:  # undecided: the value it has here or had before (a name not seen yet: undefined)
            prior = self.macros.get(name)
            before = prior if isinstance(prior, Maybe) else Maybe({prior}) if prior is None or isinstance(prior, int) \
                else None
            self.macros[name] = Maybe(before | {value}) if before is not None and isinstance(value, int) else UNKNOWN
            return
        self.macros[name] = value

    def _conditional_value(self, name: str, value: object) -> None:
        """Note that ``name`` is defined as ``value`` where the conditions being walked hold (see ``cond_defs``)."""
        known = self.cond_defs.get(name, ())
        if known is None:
            return
        # a default (#ifndef G ... #define G 1 #else #define G 0): read as the value the file gives G
        cond = " && ".join(c for c in self._outer if c != f"(! defined({name}))") or "1"
        # (the substring test first: the pattern is new for every macro name, and compiling it was 4% of a C
        # parse worker's CPU on kmm; a name that is not in ``cond`` cannot match it)
        if self._blind or name in cond and re.search(rf"\b{re.escape(name)}\b", cond) or \
                (not known and self.macros.get(name) is not None):  # defined before: its old value is not known
            self.cond_defs[name] = None
            return
        self.cond_defs[name] = [*known, (cond, value)]

    def _written(self, name: str, defined: bool) -> str | None:
        """What ``defined(name)`` (or ``name``) reads, written as the conditions of the branches that define it
        (``cond_defs``): ``((c1) || (c2))``, ``((c1) ? 1 : ((c2) ? 0 : 0))``; ``None`` when not known or long."""
        defs = self.cond_defs.get(name)
        if not defs:
            return None
        if defined:
            got = "(" + " || ".join(f"({c})" for c, _v in defs) + ")"
        else:
            if not all(isinstance(v, int) and not isinstance(v, bool) for _c, v in defs):
                return None
            got = "0"
            for c, v in reversed(defs):
                got = f"(({c}) ? {v} : {got})"
        return got if len(got) <= 240 else None

    def _negated(self, link: _ts.Node) -> bool:
        """Whether an ``#ifdef``-type link is ``#ifndef`` / ``#elifndef``, however spaced (``#  ifndef X``: the
        directive's words may be indented after ``#``, as zlib's nested ones are)."""
        head = self._text(link.children[0]) if link.children else ""
        return "".join(head.split()) in ("#ifndef", "#elifndef")

    def _condition(self, link: _ts.Node, used: set[str]) -> bool | None:
        if link.type == "preproc_else":
            return True
        if link.type in ("preproc_ifdef", "preproc_elifdef"):
            name = self._text(link.child_by_field_name("name")).strip()
            negate = self._negated(link)
            if negate and link.type == "preproc_ifdef" and name not in self.macros and _guards(link, name, self):
                return True  # an include guard: the first time through, its body is read
            self.tested.add(name)
            if self.assume and name in self.depends:
                used |= self.depends[name]
            got = evaluate(f"defined({name})", self.macros, cplusplus=self.cplusplus,
                           assumed=used if self.assume else None) if name else None
            return _not(got) if negate else got
        text = self._text(link.child_by_field_name("condition"))
        self.tested.update(re.findall(r"[A-Za-z_]\w*", text))
        if self.assume and self.depends:
            for word in re.findall(r"[A-Za-z_]\w*", text):
                used |= self.depends.get(word, frozenset())
        return evaluate(text, self.macros, cplusplus=self.cplusplus, assumed=used if self.assume else None)

    def _chain(self, node: _ts.Node, active: bool | None, outer: frozenset[str]) -> None:
        taken: bool | None = False
        link: _ts.Node | None = node
        used: set[str] = set()  # assumed-undefined names this chain's conditions read so far (assume pass)
        before: list[str | None] = []  # the undecided conditions of the chain's earlier links (not taken here)
        while link is not None:
            cond = self._condition(link, used)
            text = self._link_text(link) if cond is None and not self.assume else None
            branch = _and(active, _and(_not(taken), cond))
            taken = _or(taken, cond)
            pushed = False
            if branch is None and not self.assume:
                parts = [*self._outer, *(f"!({t})" if t else None for t in before)]
                if cond is None:
                    parts.append(text)
                if None not in parts and parts:
                    self._outer.append(" && ".join(f"({p})" for p in parts[len(self._outer):]) or "1")
                    pushed = True
            if cond is None:
                before.append(text)
            alt = link.child_by_field_name("alternative")
            end = alt.start_byte if alt is not None else link.end_byte
            names = outer | used if used else outer
            if branch is False:
                self.off.append((link.start_byte, end))
                if self.assume:
                    self.assumed_off.append((link.start_byte, end, names))
            elif branch is None:
                self.undecided.append((link.start_byte, end))
            head = (link.child_by_field_name("condition"), link.child_by_field_name("name"))  # once, not per child
            body = [c for c in link.children if c.is_named and c.end_byte <= end and c.type not in _LINKS
                    and c != head[0] and c != head[1]]
            if pushed:
                self.exprs.append((link.start_byte, end, " && ".join(self._outer)))
            blind = branch is None and not pushed
            self._blind += blind
            self._walk(body, branch, names)
            self._blind -= blind
            if pushed:
                self._outer.pop()
            link = alt if alt is not None and alt.type in _LINKS else None

    def _link_text(self, link: _ts.Node) -> str | None:
        """A chain link's own condition as an expression, with what the file decided above it written in."""
        if link.type == "preproc_else":
            return "1"
        if link.type in ("preproc_ifdef", "preproc_elifdef"):
            name = self._text(link.child_by_field_name("name")).strip()
            return self._frozen(f"{'!' if self._negated(link) else ''}defined({name})") if name else None
        return self._frozen(self._text(link.child_by_field_name("condition")))


def surely_defined(br: Branches, name: str) -> bool:
    """Whether ``name`` is defined at the end of the file whatever its undecided branches do (what a file that
    includes it can count on: not only in an ``#ifdef O_CLOEXEC`` branch, not ``#undef``'d again).

    Examples
    --------
    >>> src = b"#define A\\n#ifdef O_CLOEXEC\\n#define B\\n#endif\\n#define C 2\\n#undef C\\n"
    >>> br = Branches(_ts.parse("c", src).root_node, src, cplusplus=False)
    >>> [surely_defined(br, n) for n in "ABC"]
    [True, False, False]
    """
    v = br.macros.get(name)
    return v is not None and v is not UNKNOWN and (not isinstance(v, Maybe) or v.defined() == 1)


def defined_unless(br: Branches, name: str) -> tuple[str, ...]:
    """The project flags whose absence surely defines ``name`` (zlib's ``#ifndef NO_GZIP`` / ``#define GUNZIP``:
    ``("NO_GZIP",)``): a build that defines none of them has it; ``()`` when that does not decide it either.

    Examples
    --------
    >>> src = b"#ifndef NO_GZIP\\n#  define GUNZIP\\n#endif\\n#ifdef O_CLOEXEC\\n#define B\\n#endif\\n"
    >>> br = Branches(_ts.parse("c", src).root_node, src, cplusplus=False)
    >>> [defined_unless(br, n) for n in ("GUNZIP", "B")]
    [('NO_GZIP',), ()]
    """
    if br._assuming is None:
        br._assuming = Branches(br._root, br.source, cplusplus=br.cplusplus, assume=True)
    a = br._assuming
    return tuple(sorted(a.depends.get(name, ()))) if surely_defined(a, name) else ()


def _guards(link: _ts.Node, name: str, br: Branches) -> bool:
    first = next((c for c in link.children if c.is_named and c.type not in ("identifier", "comment")), None)
    return first is not None and first.type == "preproc_def" and br._text(first.child_by_field_name("name")) == name


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _inside(ranges: list[tuple[int, int]], starts: list[int], byte: int) -> bool:
    k = bisect.bisect_right(starts, byte) - 1
    return k >= 0 and ranges[k][0] <= byte < ranges[k][1]
