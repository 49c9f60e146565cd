"""``#if`` expressions as a default build reads them: the platform's predefined macros (Linux, x86_64, GCC, the
C library's limits), three-valued evaluation (an int, or ``None`` for "cannot be decided here"), a macro's
possible values, function-like macros a file defines, and the kernel's ``IS_ENABLED``.
(:mod:`._conditions` walks a file's branches with it; :mod:`._build` evaluates a kept condition with the
project's values.)"""

from __future__ import annotations

import re
from collections.abc import Mapping

# the default configuration's predefined macros (GCC on Linux x86_64); None: defined, value not decided
# (``__GNUC__`` is 4 under clang and 12 under GCC)
PLATFORM_DEFINED: dict[str, int | None] = {
    "__linux__": 1, "__linux": 1, "linux": 1, "__gnu_linux__": 1, "__unix__": 1, "__unix": 1, "unix": 1,
    "__ELF__": 1, "__x86_64__": 1, "__x86_64": 1, "__amd64__": 1, "__amd64": 1, "__LP64__": 1, "_LP64": 1,
    "__GNUC__": None, "__GNUC_MINOR__": None, "__GNUC_PATCHLEVEL__": None, "__STDC__": 1, "__STDC_HOSTED__": 1,
    "__STDC_VERSION__": 201112, "__CHAR_BIT__": 8, "__SIZEOF_POINTER__": 8, "__SIZEOF_LONG__": 8,
    "__SIZEOF_INT__": 4, "__SIZEOF_LONG_LONG__": 8, "__SIZEOF_SHORT__": 2, "__ORDER_LITTLE_ENDIAN__": 1234,
    "__ORDER_BIG_ENDIAN__": 4321, "__BYTE_ORDER__": 1234,
    # the kernel's default architecture (the include search path follows it too)
    "CONFIG_X86": 1, "CONFIG_X86_64": 1, "CONFIG_64BIT": 1,
    # feature tests GCC (5 and later) and clang both define (their answers are not decided here)
    "__has_attribute": None, "__has_builtin": None, "__has_include": None, "__has_cpp_attribute": None,
    # what <stdint.h>, <inttypes.h>, <limits.h> and <stddef.h> define on Linux x86_64 (glibc): a portable header's
    # fallback (#ifndef UINT64_C, #ifndef SIZE_MAX) is not compiled there
    **{f"{s}INT{n}_C": None for s in ("", "U") for n in (8, 16, 32, 64, "MAX")},
    **{f"INT{n}_MAX": 2 ** (n - 1) - 1 for n in (8, 16, 32, 64)}, **{f"UINT{n}_MAX": 2 ** n - 1 for n in (8, 16, 32, 64)},
    **{f"INT{n}_MIN": -2 ** (n - 1) for n in (8, 16, 32, 64)}, **{f"PRI{c}{n}": None for c in "diouxX" for n in
                                                                  (8, 16, 32, 64, "MAX", "PTR")},
    "SIZE_MAX": 2 ** 64 - 1, "INTMAX_MAX": 2 ** 63 - 1, "UINTMAX_MAX": 2 ** 64 - 1, "INTPTR_MAX": 2 ** 63 - 1,
    "UINTPTR_MAX": 2 ** 64 - 1, "PTRDIFF_MAX": 2 ** 63 - 1, "CHAR_BIT": 8, "SCHAR_MAX": 127, "UCHAR_MAX": 255,
    "SHRT_MAX": 32767, "USHRT_MAX": 65535, "INT_MAX": 2 ** 31 - 1, "UINT_MAX": 2 ** 32 - 1, "LONG_MAX": 2 ** 63 - 1,
    "ULONG_MAX": 2 ** 64 - 1, "LLONG_MAX": 2 ** 63 - 1, "ULLONG_MAX": 2 ** 64 - 1, "NULL": None, "offsetof": None,
    "va_copy": None,
    # <errno.h> on Linux: positive constants (libuv's `#if EDOM > 0` picks the negated error codes)
    **{e: v for v, e in enumerate("EPERM ENOENT ESRCH EINTR EIO ENXIO E2BIG ENOEXEC EBADF ECHILD EAGAIN ENOMEM EACCES "
                                  "EFAULT ENOTBLK EBUSY EEXIST EXDEV ENODEV ENOTDIR EISDIR EINVAL ENFILE EMFILE ENOTTY "
                                  "ETXTBSY EFBIG ENOSPC ESPIPE EROFS EMLINK EPIPE EDOM ERANGE".split(), 1)},
    # x86_64's baseline instruction sets (what GCC and clang define without -m flags)
    "__SSE__": 1, "__SSE2__": 1, "__MMX__": 1, "__SSE_MATH__": 1, "__SSE2_MATH__": 1,
}
# what a default x86_64 build does not enable (-mavx2 and the like) and other architectures' sub-models
_PLATFORM_UNDEFINED_PATTERN = re.compile(
    r"__(?:AVX\w*|SSE3|SSSE3|SSE4_1|SSE4_2|SSE4A|BMI2?|FMA|F16C|POPCNT|LZCNT|PCLMUL|AES|SHA|ARM_ARCH_\w+|ARM_FEATURE_\w+|"
    r"ARM_NEON\w*|aarch64\w*|mips\w*|powerpc\w*|PPC\w*|riscv\w*|s390\w*|sparc\w*|ia64\w*)__?")
# what the default configuration does not define: other systems, compilers and architectures
PLATFORM_UNDEFINED = frozenset({
    "_WIN32", "_WIN64", "WIN32", "_WINDOWS", "__WIN32__", "__WINDOWS__", "_MSC_VER", "_MSC_FULL_VER",
    "__MINGW32__", "__MINGW64__", "__CYGWIN__", "__MSYS__", "_WIN32_WCE", "__APPLE__", "__MACH__",
    "__FreeBSD__", "__NetBSD__", "__OpenBSD__", "__DragonFly__", "__FreeBSD_kernel__", "__sun", "__sun__", "sun",
    "__SVR4", "__svr4__", "__hpux", "_AIX", "__ANDROID__", "__EMSCRIPTEN__", "__wasm__", "__wasm32__",
    "__HAIKU__", "__QNX__", "__QNXNTO__", "__OS2__", "__VMS", "__DJGPP__", "__MVS__", "__TOS_MVS__",
    "__WATCOMC__", "__BORLANDC__", "__TURBOC__", "__INTEL_COMPILER", "__TINYC__", "__SUNPRO_C", "__IBMC__",
    "__arm__", "__aarch64__", "_M_ARM", "_M_ARM64", "__i386__", "__i386", "i386", "_M_IX86", "_M_X64",
    "_M_AMD64", "__powerpc__", "__powerpc64__", "__ppc__", "__ppc64__", "__PPC__", "__mips__", "__mips",
    "__riscv", "__s390__", "__s390x__", "__sparc__", "__sparc", "__ia64__", "__alpha__", "__hppa__", "__m68k__",
    "__loongarch__", "__OBJC__", "NDEBUG", "CONFIG_X86_32",
    "__ARM_ARCH", "M_ARM", "__ARM_32BIT_STATE", "__ARM_64BIT_STATE", "__ARM64_ARCH_8__", "__thumb__", "__thumb2__",
    "__ARM_NEON", "__ARM_NEON__", "_M_ARM64EC",  # ARM's, as GCC and clang define them there
    # other compilers' identification macros (Sun/Oracle, PGI, TI, IAR, ARM, IBM XL, HP, CompCert, Intel, Cray...)
    "__SUNPRO_CC", "__PGI", "__PGIC__", "__TI_COMPILER_VERSION__", "__IAR_SYSTEMS_ICC__", "__CC_ARM",
    "__ARMCC_VERSION", "__xlC__", "__xlc__", "__IBMCPP__", "__HP_cc", "__HP_aCC", "__COMPCERT__", "__ICC", "__ICL",
    "__ECC", "__DMC__", "_CRAYC", "__CRAYC", "__KEIL__", "__C51__", "__NVCOMPILER", "__LCC__", "__MWERKS__",
    "__SDCC", "__ghs__", "__CODEGEARC__", "__POCC__", "__PATHCC__", "__open_xl__", "__ibmxl__", "__DCC__",
})

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|(&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^()?:,])"
                    r"|('(?:\\.|[^'])')|(\S))")
_BINARY = {  # precedence climbing, C's order
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
    "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

DEFINED = object()  # defined, value not known
UNKNOWN = object()  # may or may not be defined here (defined in an undecided branch)


class FnMacro(tuple):
    """A function-like macro a condition may call: (parameter names, body text)."""

    def expand(self, args: list[str]) -> str | None:
        params, body = self
        if len(args) != len(params) and not (params == () and args == [""]):
            return None
        sub = dict(zip(params, args, strict=False))
        return " ".join(f"({sub[m.group(0).strip()]})" if m.group(0).strip() in sub else m.group(0)
                        for m in _TOKEN.finditer(body))


class Maybe(frozenset):
    """The values a macro may have here, ``None`` for undefined (``#if defined(__has_feature)`` ``#define X 0``
    then ``#if !defined(X)`` ``#define X 0``: X reads 0 in a condition whichever branch ran)."""

    def reading(self) -> int | None:
        """What ``#if X`` reads (an undefined name reads 0), when every possibility agrees."""
        got = {0 if v is None else v for v in self}
        return got.pop() if len(got) == 1 else None

    def defined(self) -> int | None:
        return 1 if None not in self else 0 if len(self) == 1 else None


class _Expr:
    """A ``#if`` expression evaluated three-valued (``None``: cannot be decided)."""

    def __init__(self, text: str, lookup, depth: int = 0) -> None:
        self.depth = depth
        self.toks: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(_uncommented(text)):
            num, ident, op, char, other = m.groups()
            if num is not None:
                self.toks.append(("num", num))
            elif ident is not None:
                self.toks.append(("id", ident))
            elif op is not None:
                self.toks.append(("op", op))
            elif char is not None:
                self.toks.append(("num", str(ord(char[1])) if len(char) == 3 else "0"))
            elif other is not None:
                self.toks.append(("bad", other))
        self.i = 0
        self.lookup = lookup

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "")

    def take(self) -> tuple[str, str]:
        t = self.peek()
        self.i += 1
        return t

    def value(self) -> int | None:
        try:
            v = self.binary(0)
        except (IndexError, ValueError, ZeroDivisionError, RecursionError):
            return None
        return v if self.peek()[0] == "end" else None

    def binary(self, min_prec: int) -> int | None:
        left = self.unary()
        while True:
            kind, op = self.peek()
            if kind == "op" and op == "?" and min_prec == 0:
                self.take()
                a = self.binary(0)
                if self.take() != ("op", ":"):
                    raise ValueError("?:")
                b = self.binary(0)
                left = (a if left else b) if left is not None else (a if a == b else None)
                continue
            prec = _BINARY.get(op) if kind == "op" else None
            if prec is None or prec < min_prec:
                return left
            self.take()
            right = self.binary(prec + 1)
            left = _apply(op, left, right)

    def unary(self) -> int | None:
        kind, tok = self.take()
        if kind == "num":
            return int(tok, 16) if tok[:2].lower() == "0x" else int(tok, 8) if tok.startswith("0") and len(tok) > 1 \
                else int(tok)
        if kind == "op" and tok in "!~-+":
            v = self.unary()
            if v is None:
                return None
            return int(not v) if tok == "!" else ~v if tok == "~" else -v if tok == "-" else v
        if kind == "op" and tok == "(":
            v = self.binary(0)
            if self.take() != ("op", ")"):
                raise ValueError(")")
            return v
        if kind == "id" and tok == "defined":
            paren = self.peek() == ("op", "(")
            if paren:
                self.take()
            kind, name = self.take()
            if paren and self.take() != ("op", ")"):
                raise ValueError(")")
            got = self.lookup(name)
            if isinstance(got, Maybe):
                return got.defined()
            return None if got is UNKNOWN else 0 if got is None else 1
        if kind == "id" and tok in _KCONFIG_TESTS and self.toks[self.i:self.i + 3:2] == [("op", "("), ("op", ")")] \
                and self.toks[self.i + 1][0] == "id":  # the kernel's IS_ENABLED(CONFIG_X) (linux/kconfig.h)
            name = self.toks[self.i + 1][1]
            self.i += 3
            text = " || ".join(f"defined({name}{suffix})" for suffix in _KCONFIG_TESTS[tok])
            return _Expr(text, self.lookup, self.depth + 1).value()
        if kind == "id":
            if self.peek() == ("op", "("):  # a function-like macro: the file's own expanded, others not decided
                depth = 0
                args: list[list[str]] = [[]]
                while True:
                    k, t = self.take()
                    if k == "end":
                        raise ValueError("(")
                    depth += (t == "(") - (t == ")") if k == "op" else 0
                    if depth == 0:
                        break
                    if depth == 1 and (k, t) == ("op", ","):
                        args.append([])
                    elif depth > 1 or t != "(":
                        args[-1].append(t)
                fn = self.lookup(tok)
                body = fn.expand([" ".join(a) for a in args]) if isinstance(fn, FnMacro) and self.depth < 8 else None
                return _Expr(body, self.lookup, self.depth + 1).value() if body else None
            got = self.lookup(tok)
            if got is None:  # not a macro: 0, as the preprocessor reads it
                return 0
            if isinstance(got, Maybe):
                return got.reading()
            if isinstance(got, str) and self.depth < 8:  # #define LUA_FLOAT_TYPE LUA_FLOAT_DOUBLE: expanded
                return _Expr(got, self.lookup, self.depth + 1).value()
            return got if isinstance(got, int) else None
        raise ValueError(tok)


# linux/kconfig.h's tests of an option: built in (``CONFIG_X`` defined) or a module (``CONFIG_X_MODULE``);
# code built into the kernel (``MODULE`` undefined) reaches only what is built in
_KCONFIG_TESTS = {"IS_ENABLED": ("", "_MODULE"), "IS_BUILTIN": ("",), "IS_MODULE": ("_MODULE",),
                  "IS_REACHABLE": ("",)}


_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _uncommented(text: str) -> str:
    """A condition's text without its comments and line continuations (``#if defined(__cplusplus) /* C++ */``).

    >>> _uncommented("defined(A) /* a */ || B // b")
    'defined(A)   || B  '
    """
    return _COMMENT.sub(" ", text.replace("\\\n", " ")) if "/" in text or "\\" in text else text


def _apply(op: str, a: int | None, b: int | None) -> int | None:
    if op == "&&":
        return 0 if a == 0 or b == 0 else None if a is None or b is None else 1
    if op == "||":
        return 1 if (a is not None and a != 0) or (b is not None and b != 0) else None if a is None or b is None else 0
    if a is None or b is None:
        return None
    if op in ("/", "%") and b == 0:
        return None
    if op in ("<<", ">>") and not 0 <= b < 64:
        return None
    return {"|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b),
            "!=": lambda: int(a != b), "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b),
            ">=": lambda: int(a >= b), "<<": lambda: a << b, ">>": lambda: a >> b, "+": lambda: a + b,
            "-": lambda: a - b, "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a % b}[op]()


# names the C library, POSIX, the compiler or the kernel's configuration define: never assumed undefined
_SYSTEM_NAME = re.compile(
    r"_|CONFIG_|E[A-Z0-9]+$|SIG|O_|S_I|AF_|PF_|SO_|SOL_|IP_|IPV6_|IPPROTO_|TCP_|UDP_|MSG_|SOCK_|CLOCK_|RTLD_|MAP_|"
    r"PROT_|MADV_|POLL|EPOLL|F_|FD_|SEEK_|PTHREAD_|SCHED_|RLIMIT_|W[A-Z]+$|PATH_MAX|NAME_MAX|IOV_MAX|.*_(MAX|MIN|C|"
    r"WIDTH|BIT|BITS|SOURCE)$|INFINITY|NAN|HUGE_VAL|FLT_|DBL_|LDBL_|CHAR_|U?INT|U?LONG|LLONG|S?SIZE_|PRI|SCN|"
    r"BYTE_ORDER|LITTLE_ENDIAN|BIG_ENDIAN|PDP_ENDIAN|STDC|EOF|BUFSIZ|FILENAME_MAX|TMP_MAX|RAND_MAX|MB_|LC_|NULL|"
    r"TRUE|FALSE|IN6?_|INADDR_|NI_|AI_|EAI_|IOC|TIOC|FIO|SIOC|ST_|UTIME_|AT_|GRND_|MFD_|EFD_|TFD_|IN_|SPLICE_|"
    r"PR_|ARCH_|SYS_|NSIG|SA_|SS_|SEGV_|BUS_|ILL_|FPE_|CLD_|POSIX|HAVE___")


def assumable(name: str) -> bool:
    """Whether a name nobody defines may be read as undefined: an upper-case project flag (``HAVE_ALT``,
    ``LUA_USE_APICHECK``), not what a system header or the build's configuration defines (``EINTR``,
    ``O_CLOEXEC``, ``CONFIG_SMP``, ``_GNU_SOURCE``).

    Examples
    --------
    A kernel option (``CONFIG_SMP``) is assumable too: it is defined where the tree's configuration
    (``include/generated/autoconf.h``) defines it, and undecided in a tree that has none
    (:func:`lore.languages.c._build._skipped`).

    >>> [assumable(n) for n in ("HAVE_ALT", "LUA_USE_APICHECK", "EINTR", "O_CLOEXEC", "CONFIG_SMP", "lua_assert")]
    [True, True, False, False, True, False]
    """
    return name.isupper() and (name.startswith("CONFIG_") or _SYSTEM_NAME.match(name) is None)


def evaluate(text: str, macros: Mapping[str, object] | None = None, *, cplusplus: bool | None = False,
             assumed: set[str] | None = None) -> bool | None:
    """Whether ``#if text`` holds in the default configuration: ``True``, ``False`` or ``None`` (not decided).

    ``macros`` maps names the file defined (an int value, the text of its value, :data:`DEFINED`,
    :data:`UNKNOWN`, or ``None`` for ``#undef``); other names follow the platform's facts, and a name neither knows is not decided.
    ``cplusplus``: whether ``__cplusplus`` is defined (``None`` for a header either language includes).
    ``assumed``: when given, a name nobody decides that :func:`assumable` allows is read as undefined and
    added to it (the answer then holds if no file of the project defines those names).

    Examples
    --------
    >>> evaluate("defined(_WIN32) || defined(__CYGWIN__)"), evaluate("!defined(_WIN32)"), evaluate("HAVE_X")
    (False, True, None)
    >>> evaluate("HAVE_X && defined(_MSC_VER)"), evaluate("USE_X || 1"), evaluate("USE_X >= 2", {"USE_X": 3})
    (False, True, True)
    >>> evaluate("__GNUC__ >= 5"), evaluate("__GNUC__ >= 4"), evaluate("__GNUC__ > 3"), evaluate("defined __GNUC__")
    (None, True, True, True)
    >>> evaluate("__has_include(<x.h>) && 0")
    False
    >>> evaluate("FLOAT_TYPE == FLOAT_DOUBLE", {"FLOAT_TYPE": "FLOAT_DEFAULT", "FLOAT_DEFAULT": "FLOAT_DOUBLE",
    ...                                         "FLOAT_DOUBLE": 2})
    True
    """
    macros = {} if macros is None else macros
    if ("__clang__" in text or "__GNUC_MINOR__" in text) and "__clang__" not in macros and "__GNUC__" not in macros:
        # GCC (12) and clang (which says GCC 4.2) both build the default configuration: decided where they agree
        # (`defined(__clang__) || __GNUC__ * 10 + __GNUC_MINOR__ >= 45` holds under both)
        seen: list[set[str]] = []
        answers = []
        for compiler in _COMPILERS:
            more: set[str] | None = set() if assumed is not None else None
            answers.append(evaluate(text, _Layered(compiler, macros), cplusplus=cplusplus, assumed=more))
            seen.append(more or set())
        if answers[0] is not None and answers[0] == answers[1]:
            if assumed is not None:
                assumed.update(*seen)
            return answers[0]
    if "__GNUC__" in text:  # its value is not decided (4 under clang, 12 under GCC), but both are at least 4
        text = _GNUC_AT_LEAST.sub(lambda m: "1" if int(m.group(2)) + (m.group(1) == ">") <= 4 else m.group(0), text)

    def lookup(name: str) -> object:
        if name in macros:
            return macros[name]
        if name == "__cplusplus":
            return UNKNOWN if cplusplus is None else 201703 if cplusplus else None
        if name in PLATFORM_DEFINED:
            v = PLATFORM_DEFINED[name]
            return DEFINED if v is None else v
        if name in PLATFORM_UNDEFINED or (name.startswith("__") and _PLATFORM_UNDEFINED_PATTERN.fullmatch(name)):
            return None
        if assumed is not None and assumable(name):
            assumed.add(name)
            return None
        return UNKNOWN

    v = _Expr(text, lookup).value()
    return None if v is None else v != 0


_COMPILERS: tuple[dict[str, object], ...] = (
    {"__clang__": None, "__GNUC__": 12, "__GNUC_MINOR__": 2, "__GNUC_PATCHLEVEL__": 0},
    {"__clang__": 1, "__GNUC__": 4, "__GNUC_MINOR__": 2, "__GNUC_PATCHLEVEL__": 1})


class _Layered(Mapping):
    """One compiler's identification macros over the file's macros."""

    def __init__(self, top: dict[str, object], base: Mapping[str, object]) -> None:
        self.top, self.base = top, base

    def __contains__(self, name: object) -> bool:
        return name in self.top or name in self.base

    def __getitem__(self, name: str) -> object:
        return self.top[name] if name in self.top else self.base[name]

    def __iter__(self):
        return iter({*self.top, *self.base})

    def __len__(self) -> int:
        return len({*self.top, *self.base})


_GNUC_AT_LEAST = re.compile(r"\b__GNUC__\s*(>=|>)\s*(\d+)\b")
