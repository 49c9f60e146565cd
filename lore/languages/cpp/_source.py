"""C++ source clean-ups before the parse: what the preprocessor would have removed, blanked in place (same length,
so every line and column stays), on top of C's (:func:`lore.languages.c._macros.blank_macro_noise`)."""

from __future__ import annotations

import re

from ...parsers import _ts
from ..c._macros import blank_macro_noise, flatten_conditionals
from ._macro_forms import condition_macros, if_macros, middle_macros, return_type_macros
from ._pasted import pasted_functions

# An export or attribute macro between a declaration's type and its name (``String JSON_API f(...)``,
# ``JSONCPP_NORETURN void f()``, ``class LEVELDB_EXPORT DB``): the grammar reads a second type and loses
# the declaration. Names ending in these words are what build systems define empty or as an attribute
# (``FMT_CONSTEXPR20``, ``LIB_INLINE``: ``constexpr``, ``inline`` where the compiler has them).
_EXPORT_MACRO = re.compile(rb"(?<![\w#:.>])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API|EXPORT|EXPORTS|DLL|PUBLIC|LIB|NORETURN|"
                           rb"INLINE|NOINLINE|DEPRECATED|NODISCARD|HIDDEN|CONSTEXPR\d*|CONSTEVAL|NOEXCEPT|UNUSED)\b(?![ \t]*\()")
# ``#if`` / ``#else`` / ``#endif`` in the middle of a construct (a member initializer list after a ``,``, an
# argument list after a ``(``, a declaration after ``template <...>``): the grammar cannot place the directive
# there and loses everything up to the end of the file. Such directive lines are blanked, both branches kept.
# a pragma-like macro alone on its line (``CXXOPTS_IGNORE_WARNING("-Weffc++")``, ``_Pragma("once")``): no statement
# (no ``;``) and no declaration wrapper (a string is its only argument); the grammar would join it to the next line
_PRAGMA_MACRO = re.compile(rb'^[ \t]*(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|_Pragma)[ \t]*\([ \t]*"[^"\n]*"[ \t]*\)[ \t]*\r?$',
                           re.MULTILINE)
# ``typename std::enable_if<C>::type* = nullptr`` as a template parameter: the grammar takes no unnamed pointer with a
# default there and loses the template; the ``*`` is blanked (a non-type parameter of the type itself parses)
_SFINAE_POINTER = re.compile(rb"(>(?:::type)?[ \t]*)\*(?=[ \t]*=[ \t]*(?:nullptr|0|NULL)\b)")
# Attribute macros the grammar cannot place (Clang's thread-safety annotations and their kind: ``class LOCKABLE
# Mutex {``, ``void Lock() EXCLUSIVE_LOCK_FUNCTION() {``, ``int n_ GUARDED_BY(mu_);``, ``void f() ABSL_NO_THREAD_SAFETY_
# ANALYSIS {``): upper case, after a class key, after a function's parameters, or after a field's name. Each loses the
# class or function around it; blanked, what they annotate parses.
_MACRO_NAME = rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"
_CLASS_MACRO = re.compile(rb"\b(?:class|struct)[ \t]+(" + _MACRO_NAME + rb")(?=[ \t]+[A-Za-z_]\w*[ \t]*(?:[:{]|final\b|\r?$))",
                          re.MULTILINE)
_TRAILING_MACRO = re.compile(rb"\)\s*(?:const\s*)?(?:override\s*)?(?:noexcept\s*)?(" + _MACRO_NAME
                             + rb"_" + rb"[A-Z0-9_]*(?:[ \t]*\([^()\n]*\))?)(?=[ \t]*(?:[{;]|:(?!:)|\r?$))", re.MULTILINE)
_FIELD_MACRO = re.compile(rb"\b([A-Za-z_]\w*)[ \t]+(" + _MACRO_NAME + rb"_[A-Z0-9_]*[ \t]*\([^()\n]*\))(?=[ \t]*;)")
# a macro alone before a function's return type or a variable's type at the start of its line (``SPDLOG_CONSTEXPR_FUNC
# spdlog::string_view_t to_string_view(``, ``PUGIXML_INLINE_VAR const unsigned int parse_pi = 1;``): an attribute or
# specifier a build defines; the grammar would read two types and lose the declaration. Upper case with an ``_``, no
# ``(`` after it, then a type (qualified, templated, pointer or reference) and a name with its ``(``, ``=``, ``;``,
# ``{`` or ``[`` on the same line.
_DECL_PREFIX_MACRO = re.compile(rb"^[ \t]*(" + _MACRO_NAME + rb"_[A-Z0-9_]*)[ \t]+(?=(?:(?:const|static|inline|constexpr|virtual|"
                                rb"explicit|unsigned|signed|long)[ \t]+)*[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?[ \t*&]+"
                                rb"(?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*[ \t]*[(=;{\[])", re.MULTILINE)
# a braced default argument (``const Options& o = {}``, ``std::vector<int> v = {1, 2}``), which the grammar does not
# take: read as ``0`` (what is passed by default is no call)
_BRACED_DEFAULT = re.compile(rb"(?<=[^=!<>+\-*/%&|^]=)([ \t]*)\{[^{}()\n;]*\}(?=[ \t]*[,)])")
# an explicit instantiation (``template class SPDLOG_API sink<mutex>;``, ``extern template struct X<int>;``), which the
# grammar does not take either; it declares nothing new
_INSTANTIATION = re.compile(rb"^[ \t]*(?:extern[ \t]+)?template[ \t]+(?:class|struct)[ \t]+[^;{}<\n]*<[^;{}\n]*>[ \t]*;",
                            re.MULTILINE)
# an object-like macro this file defines as nothing or as specifiers and attributes only (``#define PUGI_IMPL_FN inline``,
# ``#define LIB_FUNCTION LIB_API``, ``#define NOEXCEPT_IF noexcept``, ``#define UNALIGNED __attribute__((aligned(1)))``):
# wherever the file writes it as a bare word it stands for what the grammar can do without, so it is blanked (every
# ``#define`` of the name must be such; one with a value, ``#define N 4``, keeps the name)
_OBJECT_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*((?:[^\n\\]|\\\r?\n)*)", re.MULTILINE)
_SPECIFIER_WORDS = frozenset({b"inline", b"static", b"constexpr", b"noexcept", b"extern", b"explicit", b"virtual",
                              b"__forceinline", b"__inline", b"__inline__", b"consteval", b"constinit", b"throw", b"const"})
_ATTRIBUTE_FORM = re.compile(rb"__attribute__[ \t]*\(\(.*\)\)|__declspec[ \t]*\([^()]*(?:\([^()]*\))?[^()]*\)|"
                             rb"\[\[[^\[\]]*\]\]|throw[ \t]*\([ \t]*\)|noexcept[ \t]*\([^()]*\)|/\*.*?\*/|//.*", re.S)
# a macro the file defines as namespace openers or closers (``#define PUGI_IMPL_NS_BEGIN namespace pugi { namespace impl {``,
# ``#define PUGI_IMPL_NS_END } }``): where it stands alone on a line, its first definition is written out, so what
# follows is inside those namespaces (the line gets longer or shorter; the lines stay)
_NS_OPEN = re.compile(rb"^(?:(?:inline[ \t]+)?namespace(?:[ \t]+[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)?[ \t]*\{[ \t]*)+$")
_NS_CLOSE = re.compile(rb"^(?:\}[ \t]*)+$")
_NOT_DECLARED = frozenset({b"return", b"throw", b"case", b"else", b"new", b"delete", b"goto", b"co_return", b"co_yield",
                           b"co_await", b"sizeof", b"do"})
_STATEMENT_HEADS = frozenset({b"if", b"while", b"for", b"switch", b"catch", b"return", b"sizeof", b"decltype",
                              b"alignof", b"noexcept", b"static_assert"})
# a block comment on a continued line of a macro definition (``((c) /* note */ \\``): the grammar ends the macro there
_CONTINUED_COMMENT = re.compile(rb"/\*[^\n]*?\*/(?=[^\n]*\\\r?$)", re.MULTILINE)
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_TEMPLATE_HEAD = re.compile(rb"template\s*<.*>$")


def _blank_outside_directives(m: re.Match) -> bytes:
    """An export macro blanked, unless on a preprocessor line (``#define LIB_API __declspec(...)`` stays)."""
    text = m.string
    start = text.rfind(b"\n", 0, m.start()) + 1
    if text[start:m.start()].lstrip().startswith(b"#"):
        return m.group(0)
    return b" " * len(m.group(0))


def specifier_macros(source: bytes) -> frozenset[bytes]:
    r"""The object-like macros ``source`` defines as nothing, specifiers or attributes only (see ``_OBJECT_DEFINE``).

    Examples
    --------
    >>> sorted(specifier_macros(b"#define FN inline\n#define API\n#define F2 API static\n#define N 4\n#define G(x) x\n"))
    [b'API', b'F2', b'FN']
    >>> sorted(specifier_macros(b"#ifdef X\n#define FN inline\n#else\n#define FN 1\n#endif\n"))
    []
    """
    values: dict[bytes, list[bytes]] = {}
    for m in _OBJECT_DEFINE.finditer(source):
        values.setdefault(m.group(1), []).append(_ATTRIBUTE_FORM.sub(b" ", m.group(2).replace(b"\\\n", b" ")))
    good: set[bytes] = set()
    changed = True
    while changed:  # a macro defined as another such macro (#define LIB_FUNCTION LIB_API) is one too
        changed = False
        for name, vals in values.items():
            if name not in good and all(set(v.split()) <= _SPECIFIER_WORDS | good for v in vals):
                good.add(name)
                changed = True
    return frozenset(good)


def namespace_macros(source: bytes) -> bytes:
    r"""``source`` with the macros it defines as namespace openers or closers written out where they stand alone on a
    line (see ``_NS_OPEN``); every line stays where it was.

    Examples
    --------
    >>> src = b"#define NS_BEGIN namespace pg { namespace impl {\n#define NS_END } }\nNS_BEGIN\nint f();\nNS_END\n"
    >>> namespace_macros(src).split(b"\n")[2:5]
    [b'namespace pg { namespace impl {', b'int f();', b'} }']
    """
    found: dict[bytes, bytes] = {}
    for m in _OBJECT_DEFINE.finditer(source):
        value = m.group(2).split(b"//", 1)[0].strip()
        if m.group(1) not in found and (_NS_OPEN.match(value) or _NS_CLOSE.match(value)):
            found[m.group(1)] = value
    if not found:
        return source
    alone = re.compile(rb"^([ \t]*)(" + b"|".join(re.escape(n) for n in sorted(found)) + rb")([ \t]*(?://[^\n]*)?)$",
                       re.MULTILINE)
    return alone.sub(lambda m: m.group(1) + found[m.group(2)] + m.group(3), source)


def _blank_group(m: re.Match, group: int) -> bytes:
    whole = m.group(0)
    a, b = m.start(group) - m.start(0), m.end(group) - m.start(0)
    return whole[:a] + b" " * (b - a) + whole[b:]


def _trailing(m: re.Match) -> bytes:
    """A macro after a parameter list, unless the list is a statement's condition (``if (x) FOO_BAR(y);``)."""
    text = m.string
    depth, i = 0, m.start()
    while i >= 0:  # the ( that the matched ) closes
        ch = text[i]
        depth += ch == 0x29
        depth -= ch == 0x28
        if depth == 0:
            break
        i -= 1
    j = i - 1
    while j >= 0 and text[j] in b" \t":
        j -= 1
    k = j
    while k >= 0 and (chr(text[k]).isalnum() or text[k] == 0x5F):
        k -= 1
    head = text[k + 1:j + 1]
    if not head and re.search(rb"\boperator[ \t]*[^\w\s(]+$", text[max(0, j - 24):j + 1]):
        head = b"operator"  # ``operator=(X&& r) LIB_NOEXCEPT``
    if i < 0 or not head or head in _STATEMENT_HEADS or _on_directive(text, m.start()):
        return m.group(0)
    return _blank_group(m, 1)


def _on_directive(text: bytes, at: int) -> bool:
    start = text.rfind(b"\n", 0, at) + 1
    return text[start:at].lstrip().startswith(b"#")


def annotation_macros(source: bytes) -> bytes:
    r"""``source`` with the attribute macros above blanked, positions unchanged.

    Examples
    --------
    >>> annotation_macros(b"class LOCKABLE Mutex {\n void Lock() EXCLUSIVE_LOCK_FUNCTION() { }\n int n_ GUARDED_BY(mu_);")
    b'class          Mutex {\n void Lock()                           { }\n int n_                ;'
    >>> annotation_macros(b"if (x) FOO_BAR(y);\nreturn MAKE_IT(y);\nstruct FOO bar;")
    b'if (x) FOO_BAR(y);\nreturn MAKE_IT(y);\nstruct FOO bar;'
    >>> annotation_macros(b"SP_CONSTEXPR_FUNC sp::view_t to_view(const buf_t &b)\nMY_FLAG x = 1;\nLOG_EVERY_N(INFO, 3) << f(x);")
    b'                  sp::view_t to_view(const buf_t &b)\nMY_FLAG x = 1;\nLOG_EVERY_N(INFO, 3) << f(x);'
    """
    source = _CLASS_MACRO.sub(lambda m: m.group(0) if _on_directive(m.string, m.start()) else _blank_group(m, 1), source)
    source = _DECL_PREFIX_MACRO.sub(lambda m: _blank_group(m, 1), source)
    source = _TRAILING_MACRO.sub(_trailing, source)
    return _FIELD_MACRO.sub(lambda m: m.group(0) if m.group(1) in _NOT_DECLARED or _on_directive(m.string, m.start())
                            else _blank_group(m, 2), source)


def cpp_source(source: bytes, header: bool = True) -> bytes:
    r"""``source`` cleaned for the C++ grammar, every position unchanged: :func:`blank_macro_noise`, export
    macros, pragma-like macro lines, braced default arguments, explicit instantiations, SFINAE pointers in template
    parameters, and conditional directives that split a construct; in a source file (``header=False``) also its own
    namespace macros (:func:`namespace_macros`: a header's are used by other files too, which do not define them,
    and would put its names in namespaces those files' names are not in).

    Examples
    --------
    >>> cpp_source(b"template <class T, typename std::enable_if<B<T>::value>::type* = nullptr> void f();")
    b'template <class T, typename std::enable_if<B<T>::value>::type  = nullptr> void f();'
    >>> cpp_source(b"#define A(c) \\\n  ((c) /* why */ \\\n  ? 1 : 0)\n")
    b'#define A(c) \\\n  ((c)           \\\n  ? 1 : 0)\n'
    >>> cpp_source(b"void f(const std::string& t = {}, Opts o = {1, 2});\ntemplate class SP_API sink<mu>;\nint x = {};")
    b'void f(const std::string& t = 0 , Opts o = 0     );\n                               \nint x = {};'
    >>> cpp_source(b'LIB_IGNORE_WARNING("-Weffc++")\nint f();\n')
    b'                              \nint f();\n'
    >>> cpp_source(b"String JSON_API f(int);\nA::A()\n    : a_(1),\n#ifdef X\n      b_(2),\n#endif\n      c_(3) {}\n")
    b'String          f(int);\nA::A()\n    : a_(1),\n        \n      b_(2),\n      \n      c_(3) {}\n'
    """
    if header is False and b"#" in source and b"define" in source and b"namespace" in source:
        source = namespace_macros(source)  # before C's blanks the macro lines; a source's own macros only
    if b"##" in source:
        source = pasted_functions(source)  # before C's blanks: its macro lines are read here
    if b"_" in source:  # before C's blanks and the annotation macros, which would take the condition too
        source = condition_macros(source)
    source = blank_macro_noise(source)
    if b"#" in source and b"define" in source:
        names = specifier_macros(source)
        if names:
            bare = re.compile(rb"(?<![\w#])(?:" + b"|".join(re.escape(n) for n in sorted(names)) + rb")(?![\w(])")
            source = bare.sub(_blank_outside_directives, source)
    if b"_" in source:
        source = _EXPORT_MACRO.sub(_blank_outside_directives, source)
        source = annotation_macros(source)
        if b"))" in source:
            source = return_type_macros(source)
        if b"_IF_CONSTEXPR" in source or b"_CONSTEXPR_IF" in source:
            source = if_macros(source)
        source = middle_macros(source)
        source = _PRAGMA_MACRO.sub(lambda m: b" " * len(m.group(0).rstrip(b"\r")) + b"\r" * m.group(0).endswith(b"\r"),
                                   source)
    if b"{" in source:
        source = _BRACED_DEFAULT.sub(lambda m: m.group(1) + b"0" + b" " * (len(m.group(0)) - len(m.group(1)) - 1), source)
    if b"template" in source:
        source = _INSTANTIATION.sub(lambda m: b" " * len(m.group(0)), source)
    if b"nullptr" in source or b"NULL" in source:
        source = _SFINAE_POINTER.sub(lambda m: m.group(1) + b" ", source)
    if b"#" not in source:
        return source
    if b"/*" in source:
        source = _CONTINUED_COMMENT.sub(lambda m: b" " * len(m.group(0)), source)
    lines = source.split(b"\n")
    prev = b""
    opened: list[bool] = []  # per open #if: whether it was blanked (its #else and #endif go with it)
    for i, line in enumerate(lines):
        s = line.strip()
        if not s or s.startswith((b"//", b"/*", b"*")):
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            if not s.startswith(b"#"):
                prev = s
            continue
        word = m.group(1)
        if word.startswith(b"if"):
            opened.append(prev.endswith((b",", b"(")) or _TEMPLATE_HEAD.match(prev) is not None)
            blank = opened[-1]
        else:
            blank = bool(opened) and opened[-1]
            if word == b"endif" and opened:
                opened.pop()
        if blank:
            lines[i] = b" " * len(line.rstrip(b"\r")) + (b"\r" if line.endswith(b"\r") else b"")
    return b"\n".join(lines)


def parse_loss(tree: _ts.Tree) -> tuple[int, int]:
    """How much of the source a parse lost: the bytes under its ERROR nodes (one unbalanced brace can turn the whole
    file into one ERROR, which a count of errors would score as a single one), then the number of ERROR and MISSING
    nodes (a missing ``}`` is empty, but it nests every later function in the one before)."""
    lost = count = 0
    stack = [tree.root_node] if tree.root_node.has_error else []
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            lost += node.end_byte - node.start_byte
            count += 1
        elif node.has_error:
            stack.extend(node.children)
    return lost, count


def one_branch(source: bytes) -> bytes | None:
    r"""``source`` with the ``#if`` chains that break the parse read as a build would, one branch each
    (:func:`~lore.languages.c._macros.flatten_conditionals`), when that parse loses less of the file; else ``None``.
    Called only for a file whose parse has errors: ``#ifdef X`` / ``if (a) {`` / ``#else`` / ``if (b) {`` / ``#endif``
    opens two braces for one close, and the grammar loses everything to the end of the file (every namespace and class
    around it).

    Examples
    --------
    >>> src = b"namespace g {\nvoid f() {\n#ifdef X\n  if (a) {\n#else\n  if (b) {\n#endif\n    h();\n  }\n}\nvoid k() {}\n}\n"
    >>> one_branch(src).split(b"\n")[3:6]
    [b'  if (a) {', b'     ', b'          ']
    >>> one_branch(b"int f();\n") is None
    True
    """
    if b"#" not in source:
        return None
    flat = flatten_conditionals(source)
    if flat == source or parse_loss(_ts.parse("cpp", flat)) >= parse_loss(_ts.parse("cpp", source)):
        return None
    return flat
