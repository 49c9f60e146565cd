r"""The project's namespace and attribute macros, read in every C++ file that uses them (round 11).

The parser sees one file; fmt's ``FMT_BEGIN_NAMESPACE`` (``namespace fmt { inline namespace v9 {``) is defined
in ``core.h`` and opened in every other fmt header, which without it put their names outside ``fmt`` (calls not
bound, names not qualified). :func:`build_table` reads the ``#define`` lines of the project's C++ headers (a
regular expression over those lines only, nothing else of the files) and keeps the object-like macros whose value
opens namespaces (``namespace a { inline namespace v1 {``), closes them (``} }``), or is nothing, specifiers or
attributes (``__declspec(dllexport)``, ``__attribute__((visibility("default")))``, ``[[nodiscard]]``, another
such macro). A name defined several times (``#if`` branches, several headers) is kept only when every
definition a default build may read (:mod:`._project_branches`: the branches the header itself decides) is of one
kind, and a namespace macro only when every such definition writes the same namespaces: where the table cannot
tell which branch a build takes, an opener that disagrees with its closer would put the rest of the file in the
wrong namespace. A closer is kept only beside its opener (:func:`_paired`). The table is capped at
:data:`MAX_MACROS` names.

The indexer builds the table once per run, before the parse workers start (:func:`use_table`; forked workers
inherit it), and stores its :func:`fingerprint`: a run whose table differs parses every C++ file again (which
files use a changed macro would need every file read; tables change when a config header's macro does, rarely).
:func:`apply_table` writes a namespace macro out where it stands alone on a line and blanks an attribute macro
where it stands as a bare word outside a directive; lines stay where they are.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from ._project_branches import defined_names, taken_defines, uncommented
from ._source import _ATTRIBUTE_FORM, _NS_CLOSE, _NS_OPEN, _SPECIFIER_WORDS, _blank_outside_directives

MAX_MACROS = 4096  # names kept (a project's config headers define tens; a generated header could define thousands)
MAX_HEADER_BYTES = 2 << 20  # headers read for the table (a bigger one is generated data, not a config header)
HEADER_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp")
# upper case with an ``_`` (``FMT_BEGIN_NAMESPACE``, ``SPDLOG_API``): ``#define override`` or a lower-case
# configuration word is left to the file that defines it
_NAME = re.compile(rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\Z")
_COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_WORD = re.compile(rb"[A-Z][A-Z0-9_]+")
_IDENT = re.compile(rb"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")
_PAIR = re.compile(rb"_(?:END|CLOSE)(?=_|\Z)")
_STATIC_ASSERT = re.compile(rb"\bstatic_assert[ \t]*\([^()]*(?:\([^()]*\)[^()]*)*\)[ \t]*;?")
_INLINE_CALL = re.compile(rb"\binline[ \t]+namespace[ \t]+([A-Za-z_]\w*)[ \t]*\([^()]*\)")
# an opener whose last namespace takes its ``{`` at the use (``TOML_NAMESPACE_START\n{``)
_NS_HEAD = re.compile(rb"^(?:(?:inline )?namespace(?: [A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)? ?\{ ?)*(?:inline )?namespace "
                      rb"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*$")
# an include guard (``#define FOO_BAR_H``) is empty too, and never written outside a directive
_GUARD = re.compile(rb"_(?:H|HH|HPP|HXX|INL|INCLUDED|DEFINED)_*\Z")

_TABLE: dict[bytes, bytes] = {}  # this process's table: name -> what it is written out as (b"" to blank)


def _kind(value: bytes, table: dict[bytes, bytes], blanks: set[bytes], names: dict[bytes, bytes]) -> tuple[str, bytes] | None:
    """``("open" | "close", text)`` for a namespace macro's value, ``("blank", b"")`` for specifiers and
    attributes, else ``None``. ``static_assert(...)`` (toml++ ends its macros with one, for the ``;`` after a use)
    is dropped, an inline namespace named by a macro call keeps the macro's name (an inline namespace's members
    are its enclosing namespace's), and another namespace macro of the table is written out, as is a macro whose
    every definition is one name (``namespace RAPIDJSON_NAMESPACE {``, ``#define RAPIDJSON_NAMESPACE rapidjson``).

    Examples
    --------
    >>> _kind(b"namespace toml { inline namespace TOML_CONCAT(v, TOML_LIB_MAJOR)", {}, set(), {})
    ('open', b'namespace toml { inline namespace TOML_CONCAT')
    >>> _kind(b"} TOML_NAMESPACE_END", {b"TOML_NAMESPACE_END": b"}"}, set(), {})
    ('close', b'} }')
    >>> _kind(b"namespace RAPIDJSON_NAMESPACE {", {}, set(), {b"RAPIDJSON_NAMESPACE": b"rapidjson"})
    ('open', b'namespace rapidjson {')
    """
    value = _STATIC_ASSERT.sub(b" ", value)
    if b"namespace" in value or b"}" in value:
        value = _INLINE_CALL.sub(rb"inline namespace \1", value)
        value = _WORD.sub(lambda m: table.get(m.group(0)) or names.get(m.group(0)) or m.group(0), value)
        value = b" ".join(value.split())
        if _NS_OPEN.match(value) or _NS_HEAD.match(value):
            return "open", value
        if _NS_CLOSE.match(value):
            return "close", value
    if set(_ATTRIBUTE_FORM.sub(b" ", value).split()) <= _SPECIFIER_WORDS | blanks:
        return "blank", b""
    return None


def build_table(texts: Iterable[bytes]) -> dict[bytes, bytes]:
    r"""The namespace and attribute macros the ``texts`` (the project's C++ headers) define, see the module.

    Examples
    --------
    >>> h = b"#define NS_BEGIN \\\n  namespace lib { \\\n  inline namespace v2 {\n#define NS_END } }\n#define LIB_API\n"
    >>> sorted(build_table([h, b"#ifdef _WIN32\n#define LIB_API __declspec(dllexport)\n#endif\n#define N 4\n"]).items())
    [(b'LIB_API', b''), (b'NS_BEGIN', b'namespace lib { inline namespace v2 {'), (b'NS_END', b'} }')]
    >>> build_table([b"#if __cplusplus > 201402L\n#define NS_BEGIN namespace a {\n#else\n#define NS_BEGIN namespace b {\n#endif\n"])
    {}
    >>> build_table([b"#if A\n#define NS_BEGIN namespace a {\n#else\n#define NS_BEGIN namespace b {\n#endif\n"])
    {b'NS_BEGIN': b'namespace b {'}
    >>> build_table([b"#define MY_FLAG\n", b"#define MY_FLAG 1\n"])
    {}
    """
    kept = [uncommented(t) for t in texts if b"define" in t]
    anywhere = {n for t in kept for n in defined_names(t)}
    values: dict[bytes, set[bytes]] = {}
    for text in kept:
        for name, raw in taken_defines(text, anywhere):  # the #if branches a default build reads, where it tells
            if _NAME.match(name) and not _GUARD.search(name):
                value = _COMMENT.sub(b" ", raw.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")).strip()
                values.setdefault(name, set()).add(value)
    names = {n: next(iter(v)) for n, v in values.items() if len(v) == 1 and _IDENT.fullmatch(next(iter(v)))}
    table: dict[bytes, bytes] = {}
    blanks: set[bytes] = set()
    changed = True
    while changed:  # a macro defined as another such macro (``#define FMT_INLINE FMT_ALWAYS_INLINE``) is one too
        changed = False
        for name in sorted(values):
            if name in table:
                continue
            kinds = [_kind(v, table, blanks, names) for v in values[name]]
            if any(k is None for k in kinds) or len({k for k in kinds}) != 1:  # type: ignore[misc]
                continue
            kind, text = kinds[0]  # type: ignore[misc]
            table[name] = text
            if kind == "blank":
                blanks.add(name)
            changed = True
            if len(table) >= MAX_MACROS:
                return _paired(table)
    return _paired(table)


def _paired(table: dict[bytes, bytes]) -> dict[bytes, bytes]:
    """``table`` without the closers whose opener (``_END`` -> ``_START`` / ``_BEGIN``, ``_CLOSE`` -> ``_OPEN``) is
    not in it opening as many braces (a head form, ``TOML_NAMESPACE_START\n{ ... }\nTOML_NAMESPACE_END;``, takes its
    last ``{`` and ``}`` at its uses): toml++'s
    ``TOML_ABI_NAMESPACE_END`` closes what the function-like ``TOML_ABI_NAMESPACE_START(name)`` opens, and a lone
    ``}`` would close the enclosing namespace.

    Examples
    --------
    >>> _paired({b"A_BEGIN": b"namespace a {", b"A_END": b"}", b"B_END": b"}", b"C_START": b"namespace c {", b"C_END": b"} }"})
    {b'A_BEGIN': b'namespace a {', b'A_END': b'}', b'C_START': b'namespace c {'}
    """
    out = {}
    for name, text in table.items():
        if text.startswith(b"}"):
            n = text.count(b"}")
            openers = [_PAIR.sub(lambda m, w=w: w if m.group(0) != b"_CLOSE" else b"_OPEN", name)  # type: ignore[misc]
                       for w in (b"_START", b"_BEGIN")]
            if not any(o in table and table[o].count(b"{") == n
                       and not table[o].startswith(b"}") for o in openers):
                continue
        out[name] = text
    return out


def fingerprint(table: dict[bytes, bytes]) -> str:
    """A short digest of ``table`` ("" when empty: a C project stores nothing)."""
    if not table:
        return ""
    h = hashlib.blake2b(digest_size=12)
    for name in sorted(table):
        h.update(name + b"=" + table[name] + b"\n")
    return h.hexdigest()


def use_table(table: dict[bytes, bytes]) -> None:
    """Make ``table`` the one this process (and the parse workers it forks next) reads C++ files with."""
    global _TABLE
    _TABLE = dict(table)


def table_in_use() -> dict[bytes, bytes]:
    """A copy of the table this process reads C++ files with: what a worker that is not forked from it (a Ray task)
    must be given, or its C++ parses differ from a local run's."""
    return dict(_TABLE)


def apply_table(source: bytes, table: dict[bytes, bytes] | None = None) -> bytes:
    r"""``source`` with the table's macros read as their expansion: a namespace macro alone on a line written out,
    an attribute macro blanked where it stands as a bare word outside a directive (every line stays).

    Examples
    --------
    >>> t = {b"NS_BEGIN": b"namespace lib {", b"NS_END": b"}", b"LIB_API": b""}
    >>> apply_table(b"#include <x>\nNS_BEGIN\nclass LIB_API Node {};\nNS_END\n#ifdef LIB_API\n", t)
    b'#include <x>\nnamespace lib {\nclass         Node {};\n}\n#ifdef LIB_API\n'
    """
    table = _TABLE if table is None else table
    if not table:
        return source
    used = set(_WORD.findall(source)).intersection(table)  # one pass over the file, not one per name
    if not used:
        return source
    opens = sorted(n for n in used if table[n])
    if opens:
        alone = re.compile(rb"^([ \t]*)(" + b"|".join(re.escape(n) for n in opens) + rb")([ \t]*;?[ \t]*(?://[^\n]*)?)\r?$",
                           re.MULTILINE)
        source = alone.sub(lambda m: m.group(1) + table[m.group(2)] + m.group(3), source)
    blanks = sorted(n for n in used if not table[n])
    if blanks:
        bare = re.compile(rb"(?<![\w#])(?:" + b"|".join(re.escape(n) for n in blanks) + rb")(?![\w(])")
        source = bare.sub(_blank_outside_directives, source)
    return source


def project_table(files: Iterable[tuple[str, str, str]]) -> dict[bytes, bytes]:
    """The table of a project's walked ``(path, abspath, language)`` files: its C++ headers are read (up to
    :data:`MAX_HEADER_BYTES` each; one that cannot be read adds nothing)."""
    def texts() -> Iterable[bytes]:
        for path, abspath, language in files:
            if language != "cpp" or not path.endswith(HEADER_EXTENSIONS):
                continue
            try:
                with open(abspath, "rb") as fh:
                    yield fh.read(MAX_HEADER_BYTES)
            except OSError:
                continue
    return build_table(texts())
