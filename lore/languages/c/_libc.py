"""The C library's functions by the standard header that declares them: a call of ``free`` in a file that reads
``<stdlib.h>`` is the library's, whatever a project header restates (zlib's ``extern void free(voidpf ptr);``
for pre-standard compilers) or another program of the repository defines (lz4's ``tests/freestanding.c``
``memcpy``, libuv's ``src/win/snprintf.c``). (:meth:`lore.languages.c._rules.CRules.linkage` asks
:func:`libc_declares`; a tree that compiles without the C library, as the kernel does with ``-nostdinc``,
includes none of these headers, so its own ``memcpy`` stays its own.)"""

from __future__ import annotations

from .._rules import world_cache

_BY_HEADER: dict[str, frozenset[str]] = {h: frozenset(names.split()) for h, names in {
    "stdlib.h": "malloc calloc realloc free aligned_alloc abort exit _Exit atexit at_quick_exit quick_exit atoi atol "
                "atoll atof strtol strtoul strtoll strtoull strtod strtof strtold getenv setenv unsetenv putenv "
                "system qsort bsearch abs labs llabs div ldiv rand srand random srandom mkstemp realpath "
                "posix_memalign mblen mbtowc wctomb mbstowcs wcstombs",
    "string.h": "memcpy memmove memset memcmp memchr memrchr memmem strlen strnlen strcmp strncmp strcoll strcpy "
                "strncpy stpcpy strcat strncat strchr strrchr strstr strdup strndup strerror strerror_r strtok "
                "strtok_r strspn strcspn strpbrk strxfrm strsignal",
    "strings.h": "strcasecmp strncasecmp bzero bcopy bcmp ffs index rindex",
    "stdio.h": "printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf dprintf asprintf vasprintf "
               "scanf fscanf sscanf vscanf vfscanf vsscanf puts fputs putchar fputc putc getchar fgetc getc ungetc "
               "fgets gets fopen freopen fdopen fclose fread fwrite fflush fseek fseeko ftell ftello rewind fgetpos "
               "fsetpos feof ferror clearerr perror remove rename tmpfile tmpnam setvbuf setbuf fileno popen pclose "
               "getline getdelim",
    "unistd.h": "read write close lseek pread pwrite unlink rmdir access getpid getppid getuid geteuid getgid "
                "sleep usleep dup dup2 pipe fork execv execve execvp execl execlp isatty getcwd chdir fsync "
                "ftruncate truncate sysconf getpagesize readlink symlink link chown fchown _exit alarm pause "
                "gethostname setsid getopt",
    "fcntl.h": "open openat creat fcntl posix_fallocate",
    "ctype.h": "isalpha isdigit isalnum isspace isupper islower isxdigit isprint isgraph iscntrl ispunct isblank "
               "isascii toupper tolower",
    "time.h": "time clock difftime mktime gmtime gmtime_r localtime localtime_r strftime asctime ctime "
              "nanosleep clock_gettime",
    "assert.h": "assert",
    "math.h": "sqrt pow exp log log2 log10 floor ceil fabs fmod sin cos tan atan atan2 round trunc frexp ldexp "
              "modf isnan isinf",
    "signal.h": "signal raise kill sigaction sigemptyset sigfillset sigaddset sigprocmask",
    "setjmp.h": "setjmp longjmp sigsetjmp siglongjmp",
    "stdarg.h": "va_start va_end va_arg va_copy",
}.items()}


_ALL = frozenset().union(*_BY_HEADER.values())


def libc_named(name: str) -> bool:
    """Whether some standard header of :data:`_BY_HEADER` declares ``name`` (a cheap test before the includes)."""
    return name in _ALL


def libc_declares(world, rules, ctx, closure, name: str) -> bool:
    """Whether one of the standard headers the file ``ctx`` or the project headers it reaches (``closure``: their
    module ids) include declares ``name``, as ``#include <h>`` found outside the repository (a project that
    ships its own ``string.h`` on the search path declares its own names)."""
    headers = [h for h, names in _BY_HEADER.items() if name in names]
    if not headers:
        return False
    cache = world_cache(world, "c-libc-sight", dict)
    got = cache.get(ctx.frow.id)
    if got is None:
        found = set(_own_headers(world, rules, ctx.frow.id, ctx))
        for mid in closure:
            found.update(_own_headers(world, rules, world.module_file.get(mid)))
        got = cache[ctx.frow.id] = frozenset(found)
    return any(h in got for h in headers)


def _own_headers(world, rules, fid: int | None, ctx=None) -> frozenset[str]:
    """The standard headers of :data:`_BY_HEADER` the file ``fid`` (its context ``ctx``, when at hand) includes
    itself: kept per file, so a header every unit reaches is read once, not once per unit that calls a library
    name."""
    if fid is None:
        return frozenset()
    cache = world_cache(world, "c-libc-own", dict)
    got = cache.get(fid)
    if got is None:
        c = ctx if ctx is not None else world.ctx(fid)
        found = set()
        for imp in c.pf.imports if c is not None else ():
            spec = imp.module
            if spec.startswith("<") and spec[1:-1] in _BY_HEADER and rules.module_value(world, c, spec) is None:
                found.add(spec[1:-1])
        got = cache[fid] = frozenset(found)
    return got
