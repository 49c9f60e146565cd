"""Source clean-ups before a C-family parse: what the preprocessor would have removed or expanded, blanked
or rewritten in place (same length, so every line and column stays), so that tree-sitter's C and C++
grammars see declarations and calls instead of error nodes: ``extern "C"`` guards, attribute macros
(``__user``, ``__init``, ``__aligned(..)``), ``EXPORT_SYMBOL(x);``, ``SYSCALL_DEFINEn(name, ...)`` (a function
``name``), ``DEFINE_*`` / ``DECLARE_*`` variables, loop macros, a macro as return type, string macros.
Macros are otherwise not expanded.
"""

from __future__ import annotations

import re

from ...parsers._lines import LinePattern

# ``#ifdef __cplusplus`` / ``extern "C" {`` / ``#endif`` ... ``#ifdef __cplusplus`` / ``}`` / ``#endif``: a C header
# readable from C++. The grammar sees the brace of one block without the other, and the whole header
# would be one error node; both are blanked (same length: every position stays).
_CPLUSPLUS_IF = rb"#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[^\n]*\n\s*"
_EXTERN_C_OPEN = re.compile(_CPLUSPLUS_IF + rb'(extern[ \t]+"C"[ \t]*\{)')
_EXTERN_C_CLOSE = re.compile(_CPLUSPLUS_IF + rb"(\})")


def blank_extern_c(source: bytes) -> bytes:
    r"""``source`` with the guarded ``extern "C" {`` and its closing ``}`` replaced by spaces.

    Examples
    --------
    >>> src = b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n'
    >>> blank_extern_c(src).count(b"{"), blank_extern_c(src).count(b"}"), len(blank_extern_c(src)) == len(src)
    (0, 0, True)
    """
    def blank(m: re.Match) -> bytes:
        a, b = m.span(1)
        whole = m.group(0)
        start = a - m.start(0)
        return whole[:start] + b" " * (b - a) + whole[start + (b - a):]

    return _EXTERN_C_CLOSE.sub(blank, _EXTERN_C_OPEN.sub(blank, source))


# A line that is only an upper-case name is a macro used as a statement or as the fields of a struct
# (``UV_REQ_FIELDS`` in ``struct uv_req_s { UV_REQ_FIELDS };``): without a semicolon the grammar loses
# the rest of the file. Such lines are blanked, unless they continue a ``#define``.
_BARE_MACRO = LinePattern(rb"[ \t]*[A-Z_][A-Z0-9_]{2,}[ \t]*\r?$")
# ``#   // a comment`` alone on a directive line: the grammar wants a directive name
_EMPTY_DIRECTIVE = LinePattern(rb"[ \t]*#[ \t]*//[^\n]*")


def blank_macro_noise(source: bytes) -> bytes:
    r"""``source`` with guarded ``extern "C"`` braces and bare macro lines blanked (positions unchanged).

    Examples
    --------
    >>> blank_macro_noise(b"struct s {\n  S_FIELDS\n};\n#define A \\\n  B_C\n")
    b'struct s {\n          \n};\n#define A \\\n  B_C\n'
    """
    if b'extern "C"' in source:
        source = blank_extern_c(source)

    def blank(m: re.Match) -> bytes:
        start = m.start()
        prev = source[max(0, start - 3):start].rstrip(b"\r\n")
        if prev.endswith(b"\\"):  # the last line of a multi-line #define: part of the macro's text
            return m.group(0)
        return b" " * len(m.group(0))

    source = _BARE_MACRO.sub(blank, source)
    if b"#" in source:
        source = _EMPTY_DIRECTIVE.sub(lambda m: b" " * len(m.group(0)), source)
    return _macro_forms(source)


# Attribute macros the kernel (and others) put between a type and a name: ``char __user *p``,
# ``void __iomem *base``, ``static int __init f(void)``. The grammar reads them as a second type name and
# loses the declaration; they are blanked (they carry no name a reader navigates to).
_ATTRIBUTE_WORD = re.compile(
    rb"__(?:user|kernel|iomem|percpu|rcu|force|bitwise|private|safe|nocast|must_check|"
    rb"(?:\w*_)?init(?:data|const)?|(?:\w*_)?exit(?:data)?|ro_after_init|read_mostly|always_inline|noinline|cold|"
    rb"hot|weak|pure|packed|maybe_unused|always_unused|used|visible|noreturn|ref|refdata|sched|noclone|nocfi|"
    rb"noinstr|irq_entry|latent_entropy|randomize_layout|designated_init|deprecated|attribute_const|malloc|"
    rb"cpuidle|kprobes|flatten|mustcheck|unused|lockdep_init|cacheline_aligned\w*|page_aligned_\w+|"
    rb"initdata_memblock|attribute_const__|lockfunc|always_inline__|nocapture|meminit\w*)|_{2,4}cacheline_\w+|notrace|asmlinkage|noinline_for_stack|noinline|noinstr")
_ATTRIBUTE_CALL = re.compile(
    rb"__(?:aligned|section|printf|scanf|must_hold|acquires|releases|cond_acquires|alloc_size|counted_by|"
    rb"nonstring|assume_aligned|cleanup|diagnose_as|no_sanitize_\w+|"
    rb"uint|type|array|ulong)")  # libbpf's map fields: __uint(type, BPF_MAP_TYPE_ARRAY);
# one scan finds the candidates (a word starting with ``__``, or one of the plain attribute words); the two
# patterns above decide, and an attribute call takes its parenthesized arguments with it
# (the test of the character before a word comes after the word's first letter: a pattern that starts with a
# letter is searched in C from candidate to candidate, one that starts with a look-behind is tried at every byte)
_ATTRIBUTE_SCAN = re.compile(rb"(?:_(?<![\w.>]_)_\w+|n(?<![\w.>]n)otrace|a(?<![\w.>]a)smlinkage|n(?<![\w.>]n)oinline_for_stack|"
                             rb"n(?<![\w.>]n)oinline|n(?<![\w.>]n)oinstr)\b(\((?:[^()\n]|\([^()\n]*\))*\))?")
# the same scan where none of the plain words can occur (most files): it starts with the literal ``__``, which
# ``re`` finds with a substring search instead of testing every ``_``, ``n`` and ``a`` (7x faster on kmm)
_UNDERSCORE_SCAN = re.compile(rb"__(?<![\w.>]__)\w+\b(\((?:[^()\n]|\([^()\n]*\))*\))?")


def _blank_attribute(m: re.Match) -> bytes:
    word_end = m.start(1) if m.group(1) is not None else m.end()
    word = m.string[m.start():word_end]
    if m.group(1) is None:
        return b" " * len(m.group(0)) if _ATTRIBUTE_WORD.fullmatch(word) else m.group(0)
    return b" " * len(m.group(0)) if _ATTRIBUTE_CALL.fullmatch(word) else m.group(0)


# ``EXPORT_SYMBOL(kfree);``, ``MODULE_LICENSE("GPL");``, ``module_init(f);`` at the top level: statements the
# grammar cannot read outside a function
_TOP_STATEMENTS = LinePattern(
    rb"(?:EXPORT_SYMBOL\w*|EXPORT_TRACEPOINT_SYMBOL\w*|MODULE_\w+|module_init|module_exit|module_param\w*|"
    rb"(?:core|postcore|arch|subsys|fs|device|late|early|pure|rootfs)_initcall\w*|__setup|early_param|"
    rb"BUILD_BUG_ON\w*|static_assert|ALLOW_ERROR_INJECTION|NOKPROBE_SYMBOL)\([^;\n]*\)[ \t]*;")
# ``CJSON_PUBLIC(cJSON *) cJSON_Parse(...)``: a macro that wraps the return type of a declaration
_RETURN_MACRO = LinePattern(rb"([ \t]*(?:static[ \t]+|extern[ \t]+)?)([A-Z][A-Z0-9_]*\()([^()\n]*)(\))"
                            rb"(?=[ \t*]+\w+[ \t]*\()")
# ``enum XML_Status XMLCALL\nXML_Parse(...)``, ``static int PTRCALL f(...)``, ``XMLPARSEAPI(void) XMLCALL g(...)``,
# ``static void LIBXML_ATTR_FORMAT(3,0)\nf(...)``: a calling-convention, export or attribute macro (with its
# arguments) between a declaration's type (words, or a macro wrapping it) and its name; storage classes and
# qualifiers do not count as the type
_CALL_CONVENTION = LinePattern(
    rb"([ \t]*(?:(?:static|extern|inline|const|volatile)[ \t]+)*(?:(?:enum|struct|union|unsigned|signed)[ \t]+)?"
    rb"(?:[A-Z][A-Z0-9_]*\([^()\n]*\)|(?!(?:static|extern|inline|const|volatile|return|typedef|else|case|goto)\b)"
    rb"[A-Za-z_]\w*)[ \t*]+)"
    rb"([A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?)(?![\w(])(?=(?:[ \t*]+|[ \t*]*\r?\n[ \t]*)\**[A-Za-z_]\w*[ \t]*\()")
# ``class TINYXML2_LIB XMLNode``: an export macro between ``class`` and the name
# (``\bclass`` tested after the word: a pattern that starts with a literal is searched in C, ``\b`` first is not)
_CLASS_MACRO = re.compile(rb"class(?<!\wclass)[ \t]+([A-Z][A-Z0-9_]{2,})(?=[ \t]+[A-Za-z_]\w*\s*[:{])")
# ``SYSCALL_DEFINE3(open, ...) {``: a definition macro that names its function first
_DEFINE_MACRO = LinePattern(rb"([A-Z][A-Z0-9_]*DEFINE[A-Z0-9_]*)\([ \t]*(\w+)[ \t]*(,|\))")
# ``PNG_FUNCTION(void, PNGAPI png_error, (png_const_structrp p, const char *m), PNG_NORETURN) {``: a definition
# written through a macro that takes the return type, the name and the parenthesized parameters as arguments
_FUNCTION_MACRO = LinePattern(rb"[A-Z][A-Z0-9_]*\(")
# ``static DEFINE_SPINLOCK(lock);``, ``DECLARE_BITMAP(bits, 64);``: a variable declared by a macro
_DECLARE_MACRO = LinePattern(rb"[ \t]*(?:static[ \t]+)?(?:_*[A-Z][A-Z0-9_]*_)?(?:DECLARE|DEFINE|LIST_HEAD)[A-Z0-9_]*\(")
# ``static DEVICE_ATTR(name, 0644, show, store);``, ``static SIMPLE_DEV_PM_OPS(pm, s, r);``: any upper-case
# macro at the start of a top-level line (or after ``static``), ended by ``;``, declares something
_TOP_MACRO = LinePattern(rb"(?:static[ \t]+(?:const[ \t]+)?)?[A-Z][A-Z0-9_]*\(")
# ``\tSET_RUNTIME_PM_OPS(suspend, resume)`` alone on its lines, without ``;`` or ``,``: an initializer's or a
# statement's macro the grammar cannot end
_LINE_MACRO = LinePattern(rb"[ \t]+[A-Z][A-Z0-9_]*\(")
# ``case 'a' ... 'z':``: a GNU case range, read as its first value
_CASE_RANGE = re.compile(rb"(case(?<!\wcase)\b[^:\n]*?)([ \t]\.\.\.[^:\n]*)(?=:)")
# ``printk(KERN_INFO "x")``, ``": " DRIVER_DESC "\n"``: an upper-case macro that is a string, next to a literal
_STRING_MACRO = re.compile(rb'[A-Z](?<=[(,"\s][A-Z])[A-Z0-9_]{2,}(?=[ \t]*")')  # the look-behind after the first letter
# the same, searched in the reversed text from the quote (a literal, found by a substring search) instead of from
# every upper-case letter: each match is a whole run of name characters, between its delimiter and its quote
_STRING_MACRO_REVERSED = re.compile(rb'"[ \t]*([A-Z0-9_]{2,}[A-Z])(?=[(,"\s])')
# ``list_for_each_entry(pos, head, member) {``: a loop macro, read as a call statement before its block
_LOOP_MACRO = LinePattern(rb"[ \t]+\w*(?:for_each|foreach)\w*\(")
# ``skb_queue_walk_safe(q, skb, tmp) {``: any other call followed by a block on its line is a loop macro too
_BLOCK_MACRO = LinePattern(rb"[ \t]+(?!(?:if|while|for|switch|return|sizeof|do|else)\b)[a-z_]\w*\((?=[^\n]*\)[ \t]+\{[ \t]*\r?$)")
# ``module_platform_driver(drv)`` / ``core_param(x, y, int, 0644);`` at column 0: a macro used as a top-level
# statement (no C declaration starts with a call)
# (upper case too: SEC("tc"), libevent's IMPL_CTYPE_FN(ISALPHA) lines that each expand to a definition)
_TOP_CALL = LinePattern(rb"[A-Za-z_]\w*\(")
# ``min_t(unsigned int, a, b)``: a type of several words as a macro argument, read as one name
_WORDS_TYPE_ARGUMENT = re.compile(rb"(?<=[(,])([ \t]*)(unsigned|signed|long)[ \t]+(?=(?:long|int|short|char)[ \t]*[,)])")
# what every match of the pattern above holds, without the look-behind that makes ``re`` try it at every byte
_WORDS_TYPE_HINT = re.compile(rb"(?:unsigned|signed|long)[ \t]+(?:long|int|short|char)[ \t]*[,)]")
# the same test as two searches that each start with a literal (``re`` skips to it; ``unsigned`` holds ``signed``)
_WORDS_TYPE_HINTS = (re.compile(rb"signed[ \t]+(?:long|int|short|char)[ \t]*[,)]"),
                     re.compile(rb"long[ \t]+(?:long|int|short|char)[ \t]*[,)]"))
# ``#define dprintk(fmt, args...)``: GNU's named variadic parameter, read as a plain one
_NAMED_VARIADIC = LinePattern(rb"([ \t]*#[ \t]*define[ \t]+\w+\([^)\n]*?\w)(\.\.\.)(?=[ \t]*\))")
# ``char _license[] SEC("license") = ...``, ``void *ctx[] CRYPTO_MINALIGN_ATTR;``: an attribute macro after a
# declarator
_AFTER_DECLARATOR = re.compile(rb"(?<=\])([ \t]+[A-Z][A-Z0-9_]{2,}(?:\([^()\n]*\))?)(?=[ \t]*[;=])")
_AFTER_DECLARATOR_HINT = re.compile(rb"\][ \t]+[A-Z][A-Z0-9_]{2,}")  # in every match of the pattern above
# ``container_of(p, struct page, lru)``: a type as a macro argument
_TYPE_ARGUMENT = re.compile(rb"([(,]\s*)(struct|union)([ \t]+\w+[ \t]*)(?=[,)])")


# ``int\n#if defined(__GNUC__) && __GNUC__ == 11\n__attribute__((noinline))\n#endif\nevent_assign(...)``: a chain whose
# branches hold only attributes, between a declaration's type and its name; the grammar cannot read a directive
# there, and an attribute names nothing: the whole chain becomes spaces
_ATTRIBUTE_CHAIN = re.compile(
    rb"^[ \t]*#[ \t]*if[^\n]*\n(?:[ \t]*(?:__attribute__[ \t]*\(\((?:[^()\n]|\([^()\n]*\))*\)\)|__declspec\([^()\n]*\)|"
    rb"[A-Z][A-Z0-9_]{2,})[ \t]*\n|[ \t]*#[ \t]*(?:else|elif[^\n]*)\n)+[ \t]*#[ \t]*endif[^\n]*$", re.MULTILINE)


def _spaces(m: re.Match, group: int = 0) -> bytes:
    a, b = m.span(group)
    whole = m.group(0)
    start = a - m.start(0)
    return whole[:start] + b" " * (b - a) + whole[start + (b - a):]


def _macro_forms(source: bytes) -> bytes:
    r"""``source`` with common macro forms made readable, every position unchanged.

    Examples
    --------
    >>> _macro_forms(b"static int __init f(char __user *p) { return 0; }")
    b'static int        f(char        *p) { return 0; }'
    >>> _macro_forms(b"CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *v);\nEXPORT_SYMBOL(kfree);\n")
    b'             cJSON *  cJSON_Parse(const char *v);\n                     \n'
    >>> _macro_forms(b"SYSCALL_DEFINE1(close, unsigned int, fd)\n{\n\treturn 0;\n}\n")[:26]
    b'long            close( uns'
    """
    if b"__attribute__" in source or b"__declspec" in source:
        source = _ATTRIBUTE_CHAIN.sub(_blank_chain, source)
    if b"notrace" in source or b"asmlinkage" in source or b"noin" in source:
        source = _ATTRIBUTE_SCAN.sub(_blank_attribute, source)
    elif b"__" in source:
        source = _UNDERSCORE_SCAN.sub(_blank_attribute, source)
    source = _TOP_STATEMENTS.sub(lambda m: b" " * len(m.group(0)), source)
    if b"CALL" in source or b"API" in source or b"EXPORT" in source or b"_ATTR" in source:  # the words they carry
        source = _CALL_CONVENTION.sub(lambda m: _spaces(m, 2), source)
    source = _RETURN_MACRO.sub(lambda m: m.group(1) + b" " * len(m.group(2)) + m.group(3) + b" ", source)
    if b"class" in source:
        source = _CLASS_MACRO.sub(lambda m: _spaces(m, 1), source)
    if b"DEFINE" in source:
        source = _DEFINE_MACRO.sub(_define_as_function, source)
    if b"(" in source:
        source = _statement_macros(source, _FUNCTION_MACRO, _macro_as_function)
    if b"DECLARE" in source or b"DEFINE" in source or b"LIST_HEAD" in source:
        source = _statement_macros(source, _DECLARE_MACRO, _blank_declaration)
    source = _statement_macros(source, _TOP_MACRO, _blank_declaration)
    source = _statement_macros(source, _LINE_MACRO, _blank_line_macro)
    if b"..." in source:
        source = _CASE_RANGE.sub(lambda m: m.group(1) + b" " * len(m.group(2)), source)
    if b'"' in source:
        source = _blank_string_macros(source)
    if b"for_each" in source or b"foreach" in source:
        source = _statement_macros(source, _LOOP_MACRO, _loop_statement)
    if b"..." in source:
        source = _NAMED_VARIADIC.sub(lambda m: m.group(1) + b"   ", source)
    if any(hint.search(source) for hint in _WORDS_TYPE_HINTS):
        source = _WORDS_TYPE_ARGUMENT.sub(lambda m: m.group(1) + m.group(2) + b"_" * (len(m.group(0)) - len(m.group(1))
                                                                                       - len(m.group(2))), source)
    if _AFTER_DECLARATOR_HINT.search(source):
        source = _AFTER_DECLARATOR.sub(lambda m: b" " * len(m.group(1)), source)
    if b"struct" in source or b"union" in source:
        source = _TYPE_ARGUMENT.sub(lambda m: m.group(1) + b" " * len(m.group(2)) + m.group(3), source)
    return source


def _blank_chain(m: re.Match) -> bytes:
    """An attribute-only ``#if`` chain as spaces, its newlines kept, unless it is a whole line's ``#define``'s
    continuation or stands where no declaration continues after it (the next line must name something)."""
    rest = m.string[m.end():m.end() + 200].lstrip(b"\r\n")
    if not re.match(rb"[ \t]*\**[ \t]*[A-Za-z_]\w*[ \t]*\(", rest):
        return m.group(0)
    return bytes(b if b in (10, 13) else 32 for b in m.group(0))


def c_statement_macros(source: bytes) -> bytes:
    r"""C only (in C++ ``my_class(int x) {`` in a class body is a constructor): any call followed by a block on
    its line is a loop macro, and a call at column 0 after a statement or a block is a macro statement.

    Examples
    --------
    >>> c_statement_macros(b"}\nmodule_init(f)\nint g(void) {\n\tskb_queue_walk(q, skb) {\n\t}\n}\n")
    b'}\n              \nint g(void) {\n\tskb_queue_walk(q, skb);{\n\t}\n}\n'
    """
    source = _statement_macros(source, _BLOCK_MACRO, _loop_statement)
    return _statement_macros(source, _TOP_CALL, _blank_top_call)


def _blank_string_macros(source: bytes) -> bytes:
    r"""``_STRING_MACRO.sub(_blank_string_macro, source)``, searched backwards (see ``_STRING_MACRO_REVERSED``).

    Examples
    --------
    >>> _blank_string_macros(b'printk(KERN_INFO "x");\n#define NAME "y"\nf("a"MID"b");\n')
    b'printk(          "x");\n#define NAME "y"\nf("a"   "b");\n'
    """
    n = len(source)
    buf: bytearray | None = None
    for m in _STRING_MACRO_REVERSED.finditer(source[::-1]):
        i, j = m.span(1)
        start, end = n - j, n - i
        if _defined_name(source, start):
            continue
        if buf is None:
            buf = bytearray(source)
        buf[start:end] = b" " * (end - start)
    return bytes(buf) if buf is not None else source


def _defined_name(src: bytes, start: int) -> bool:
    """Whether the name at ``start`` is the one a ``#define`` (``#undef``, ``#ifdef``, ``#ifndef``) line names."""
    line_start = src.rfind(b"\n", 0, start) + 1
    head = src[line_start:start].strip()
    return head.startswith(b"#") and head.replace(b" ", b"").replace(b"\t", b"") in (b"#define", b"#undef", b"#ifdef",
                                                                                   b"#ifndef")


def _blank_string_macro(m: re.Match) -> bytes:
    """Blank the macro unless it is the name a ``#define`` defines (``#define NAME "x"``)."""
    return m.group(0) if _defined_name(m.string, m.start()) else b" " * len(m.group(0))


def _close_paren(source: bytes, i: int) -> int:
    """The index of the parenthesis closing the one at ``i`` (``-1`` if none)."""
    depth = 0
    for j in range(i, min(len(source), i + 20_000)):
        ch = source[j]
        if ch == 40:
            depth += 1
        elif ch == 41:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _statement_macros(source: bytes, pattern: re.Pattern | LinePattern, edit) -> bytes:
    buf = bytearray(source)
    for m in pattern.finditer(source):
        end = _close_paren(source, m.end() - 1)
        if end > 0:
            edit(buf, m.start(), end)
    return bytes(buf)


def _blank_declaration(buf: bytearray, start: int, end: int) -> None:
    """``DEFINE_MUTEX(m);`` -> spaces (newlines kept); a macro followed by a body is left alone."""
    k = end + 1
    while k < len(buf) and buf[k] in b" \t":
        k += 1
    if k < len(buf) and buf[k] == 59:  # ;
        for j in range(start, k + 1):
            if buf[j] != 10:
                buf[j] = 32


def _blank_top_call(buf: bytearray, start: int, end: int) -> None:
    """``name(args);`` or ``name(args)`` ending its line at column 0, not followed by a body or an indented
    line (a K&R definition's parameter declarations): spaces, newlines kept."""
    k = end + 1
    while k < len(buf) and buf[k] in b" \t\r":
        k += 1
    semi = k < len(buf) and buf[k] == 59
    if semi:
        k += 1
        while k < len(buf) and buf[k] in b" \t\r":
            k += 1
    if k < len(buf) and buf[k] != 10:
        return
    if not semi and k + 1 < len(buf):  # a body or an indented line next: a K&R definition, not a statement
        nxt = buf[k + 1:buf.find(b"\n", k + 1) if buf.find(b"\n", k + 1) >= 0 else len(buf)]
        if nxt.lstrip().startswith(b"{") or (nxt[:1] in (b" ", b"\t") and nxt.strip()):
            return
        # an upper-case macro without `;` is a return type (`YAML_DECLARE(int)` / `yaml_parser_initialize(...)`)
        # unless a blank line, a directive or another such macro line follows (IMPL_CTYPE_FN(ISALPHA) lines)
        if chr(buf[start]).isupper() and nxt.strip() and not nxt.lstrip().startswith(b"#") \
                and not _UPPER_CALL_LINE.match(bytes(nxt)):
            return
    if not _after_statement(buf, start):  # struct page *\nalloc_page(gfp_t gfp);: a declaration's second line
        return
    _blank(buf, start, k)


_UPPER_CALL_LINE = re.compile(rb"[A-Z][A-Z0-9_]*\([^\n]*\)[ \t]*\r?$")


def _after_statement(buf: bytearray, start: int) -> bool:
    """Whether what precedes ``start`` (comments and directive lines skipped) ends a statement or a block."""
    p = start - 1
    while p >= 0:
        while p >= 0 and buf[p] in b" \t\r\n":
            p -= 1
        if p >= 1 and buf[p] == 47 and buf[p - 1] == 42:  # the end of a /* comment */
            q = buf.rfind(b"/*", 0, p - 1)
            if q < 0:
                return False
            p = q - 1
            continue
        line = buf.rfind(b"\n", 0, p + 1) + 1
        if buf[line:p + 1].lstrip().startswith((b"#", b"//")):  # a directive or a // comment line
            p = line - 1
            continue
        return buf[p] in b";}"
    return True


def _blank_line_macro(buf: bytearray, start: int, end: int) -> None:
    """``NAME(args)`` that ends its line with nothing after it (and no block next): spaces, newlines kept.
    Never inside a ``#define`` (a line after one ending in a backslash)."""
    p = start - 1
    while p >= 0 and buf[p] in b" \t\r\n":
        p -= 1
    if p >= 0 and buf[p] == 92:
        return
    k = end + 1
    while k < len(buf) and buf[k] in b" \t\r":
        k += 1
    if k < len(buf) and buf[k] != 10:
        return
    n = k
    while n < len(buf) and buf[n] in b" \t\r\n":
        n += 1
    if n < len(buf) and buf[n] in b"{=+-*/&|.,;)?:[":  # the macro continues an expression, or opens a body
        return
    for j in range(start, end + 1):
        if buf[j] != 10:
            buf[j] = 32


def _loop_statement(buf: bytearray, start: int, end: int) -> None:
    """``for_each_x(a, b) {`` -> ``for_each_x(a, b);{``: the call stays, the block is a block."""
    if end + 2 < len(buf) and buf[end + 1] in b" \t" and buf[end + 2] == 123:
        buf[end + 1] = 59
    elif end + 1 < len(buf) and buf[end + 1] in b"\r\n":  # a body without braces: read as ``if (a, b) stmt``
        k = start
        while buf[k] in b" \t":
            k += 1
        opened = buf.index(b"(", k)
        buf[k:opened] = b"if" + b" " * (opened - k - 2)


def _top_args(buf: bytearray, open_: int, close: int) -> list[tuple[int, int]]:
    """The (start, end) spans of the top-level arguments between the parentheses at ``open_`` and ``close``."""
    out, depth, a = [], 0, open_ + 1
    for j in range(open_ + 1, close):
        ch = buf[j]
        if ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
        elif ch == 44 and depth == 0:  # ,
            out.append((a, j))
            a = j + 1
    out.append((a, close))
    return out


def _macro_as_function(buf: bytearray, start: int, end: int) -> None:
    """``MACRO(type, NAME_ATTR name, (params), attrs)`` at column 0 followed by a body -> ``type name (params)``:
    the argument before the first parenthesized one names the function, the arguments before it are its type;
    the macro's name, the commas, upper-case words beside the name (``PNGAPI``) and the arguments after the
    parameters become spaces (newlines kept). Left alone without a body or without such arguments."""
    k = end + 1
    while k < len(buf) and buf[k] in b" \t\r\n":
        k += 1
    if k >= len(buf) or buf[k] != 123:  # {
        return
    open_ = buf.index(b"(", start)
    args = _top_args(buf, open_, end)
    for i in range(1, len(args) - 1):
        params = bytes(buf[args[i + 1][0]:args[i + 1][1]]).strip()
        words = re.findall(rb"[A-Za-z_]\w*|\S", bytes(buf[args[i][0]:args[i][1]]))
        if params.startswith(b"(") and params.endswith(b")") and words and re.fullmatch(rb"[A-Za-z_]\w*", words[-1]) \
                and all(w.isupper() or w == b"*" for w in words[:-1]) and not words[-1].isupper():
            break
    else:
        return
    name_end = args[i][1]
    while buf[name_end - 1] in b" \t\r\n":
        name_end -= 1
    name_start = name_end
    while name_start > args[i][0] and (chr(buf[name_start - 1]).isalnum() or buf[name_start - 1] == 95):
        name_start -= 1
    keep = [(args[j][0], args[j][1]) for j in range(i)] + [(name_start, name_end), args[i + 1]]
    kept = bytearray(buf)
    _blank(buf, start, end + 1)
    for a, b in keep:
        buf[a:b] = kept[a:b]


def _define_as_function(m: re.Match) -> bytes:
    """``NAME_DEFINEn(fn, ...)`` followed by a body -> ``long   fn(...``; left alone elsewhere."""
    source = m.string
    i = _close_paren(source, m.start(1) + len(m.group(1)))  # the invocation's closing parenthesis
    if i < 0:
        return m.group(0)
    rest = source[i + 1:i + 200].lstrip()
    if not rest.startswith(b"{"):
        return m.group(0)
    name, sep = m.group(2), m.group(3)
    width = len(m.group(0))
    head = b"long "
    out = head + b" " * (width - len(head) - len(name) - 1) + name + b"("
    if sep == b")":  # SYSCALL_DEFINE0(name): no parameters
        out = head + b" " * (width - len(head) - len(name) - 2) + name + b"()"
    return out


_SCAN = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                   rb"^[ \t]*#[ \t]*(\w*)(?:[^\n]*\\\r?\n)*[^\n]*|[{}]", re.MULTILINE | re.DOTALL)


def flatten_conditionals(source: bytes) -> bytes:
    r"""``source`` with the preprocessor chains that break a C parse resolved to one branch, as a build would:
    those inside braces (an ``#ifdef`` among a struct initializer's fields, an ``if`` whose ``else`` is in an
    ``#if 0``) and those whose branches open or close braces (two headers of one function). The branch kept is
    the first one a default build decides true (:func:`lore.languages.c._ifexpr.evaluate`), else the first
    undecided one; the directives and the other branches become spaces (newlines kept, positions unchanged).
    Used only for a file whose parse has errors (:func:`lore.languages.c._parser.parse`).

    Examples
    --------
    >>> src = b"struct d x = {\n#ifdef CONFIG_PM\n\t.pm = &ops,\n#endif\n};\n"
    >>> flatten_conditionals(src)
    b'struct d x = {\n                \n\t.pm = &ops,\n      \n};\n'
    >>> src = b"int f(void) {\n#ifdef _WIN32\n\tif (a) {\n#else\n\tif (b) {\n#endif\n\t}\n}\n"
    >>> flatten_conditionals(src).split(b"\n")[4]
    b'\tif (b) {'
    """
    from ._ifexpr import evaluate

    buf = bytearray(source)
    depth = 0
    # open chains: [depth at #if, unbalanced?, [(directive start, directive end, condition or None for #else)]]
    stack: list[list] = []
    for m in _SCAN.finditer(source):
        tok = m.group(0)
        if tok == b"{":
            depth += 1
            continue
        if tok == b"}":
            depth = max(0, depth - 1)
            continue
        word = m.group(1)
        if word is None or not tok.lstrip().startswith(b"#"):
            continue
        rest = tok.lstrip()[1:].lstrip()[len(word):].decode("utf-8", "replace").replace("\\\n", " ")
        rest = re.sub(r"/\*.*?\*/|//.*", " ", rest, flags=re.S).strip()
        if word in (b"if", b"ifdef", b"ifndef"):
            cond = rest if word == b"if" else f"defined({rest})" if word == b"ifdef" else f"!defined({rest})"
            stack.append([depth, False, [(m.start(), m.end(), cond)]])
        elif word in (b"elif", b"else") and stack:
            frame = stack[-1]
            frame[1] = frame[1] or depth != frame[0]
            frame[2].append((m.start(), m.end(), rest if word == b"elif" else None))
            depth = frame[0]
        elif word == b"endif" and stack:
            frame = stack.pop()
            frame[1] = frame[1] or depth != frame[0]
            if frame[0] > 0 or frame[1]:
                _keep_one_branch(buf, frame[2], m.start(), m.end(), evaluate)
    return bytes(buf)


def _keep_one_branch(buf: bytearray, links: list[tuple[int, int, str | None]], end_start: int, end_end: int,
                     evaluate) -> None:
    chosen = None
    for k, (_a, _b, cond) in enumerate(links):  # the first branch not decided false
        if cond is None or evaluate(cond) is not False:
            chosen = k
            break
    for k, (a, b, _cond) in enumerate(links):
        body_end = links[k + 1][0] if k + 1 < len(links) else end_start
        _blank(buf, a, b)
        if k != chosen:
            _blank(buf, b, body_end)
    _blank(buf, end_start, end_end)


def _blank(buf: bytearray, a: int, b: int) -> None:
    for j in range(a, b):
        if buf[j] not in (10, 13):
            buf[j] = 32
