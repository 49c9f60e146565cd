"""Files a user hands lore (weights, thresholds, baselines, configs): read them or say in one line what is wrong.

Every such read goes through :func:`read_bounded`: a regular file only (``/dev/zero`` would grow
without bound, a FIFO would wait forever for a writer), at most ``limit`` bytes, and an
:class:`~lore.errors.InvalidArgumentError` that names the file and the fix otherwise.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from .errors import InvalidArgumentError

MAX_BYTES = 32 * 1024 * 1024  # far above any weights, thresholds, baseline or config file lore writes or reads


def read_bounded(path: str | os.PathLike[str], what: str, *, fix: str = "", limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else an InvalidArgumentError.

    The file is opened without blocking (a FIFO with no writer answers at once) and checked with
    ``fstat`` on the open descriptor, so what is read is what was checked.

    Examples
    --------
    >>> read_bounded("/dev/zero", "weights file", fix="write one with `lore bench fit`")
    Traceback (most recent call last):
    ...
    lore.errors.InvalidArgumentError: the weights file /dev/zero is not a regular file (a character device); pass a regular file; write one with `lore bench fit`
    """
    p = Path(path)
    tail = f"; {fix}" if fix else ""
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InvalidArgumentError(f"cannot read the {what} {p}: {exc.strerror or exc}{tail}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InvalidArgumentError(f"the {what} {p} is not a regular file ({_kind(st.st_mode)}); "
                                       f"pass a regular file{tail}")
        if st.st_size > limit:
            raise InvalidArgumentError(f"the {what} {p} is {_size(st.st_size)}, more than the {_size(limit)} such a "
                                       f"file can be; pass the right file{tail}")
        chunks, got = [], 0
        while got <= limit:  # the file may grow while it is read: never past the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise InvalidArgumentError(f"the {what} {p} grew past {_size(limit)} while it was read; pass the right "
                                       f"file{tail}")
        return b"".join(chunks)
    except OSError as exc:
        raise InvalidArgumentError(f"cannot read the {what} {p}: {exc.strerror or exc}{tail}") from None
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike[str], what: str, *, fix: str = "", errors: str = "strict",
                      limit: int = MAX_BYTES) -> str:
    """:func:`read_bounded` decoded as UTF-8 (``errors`` as for :meth:`bytes.decode`); not UTF-8 is one line too."""
    data = read_bounded(path, what, fix=fix, limit=limit)
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError:
        tail = f"; {fix}" if fix else ""
        raise InvalidArgumentError(f"the {what} {Path(path)} is not UTF-8 text{tail}") from None


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def _size(n: int) -> str:
    return f"{n / 1048576:.0f} MB" if n >= 1048576 else f"{n} bytes"


def read_json(path: str | os.PathLike[str], what: str, *, fix: str = "", limit: int = MAX_BYTES) -> Any:
    """The JSON value in ``path``, or an :class:`InvalidArgumentError` naming ``what`` it is and ``fix``.

    Read through :func:`read_bounded`: a regular file of at most ``limit`` bytes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.json"
    >>> _ = p.write_text('{"a": 1}')
    >>> read_json(p, "weights file")
    {'a': 1}
    >>> _ = p.write_text("{")
    >>> read_json(p, "weights file", fix="write it with `lore bench fit`")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lore.errors.InvalidArgumentError: .../w.json is not valid JSON (...); write it with `lore bench fit`
    """
    p = Path(path)
    tail = f"; {fix}" if fix else ""
    data = read_bounded(p, what, fix=fix, limit=limit)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        detail = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise InvalidArgumentError(f"{p} is not valid JSON ({detail}){tail}") from None
    except RecursionError:  # thousands of nested brackets: not a file lore wrote
        raise InvalidArgumentError(f"{p} is not valid JSON (nested too deeply){tail}") from None
