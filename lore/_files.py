"""Files a user hands lore (weights, thresholds, baselines): read them or say in one line what is wrong."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .errors import InvalidArgumentError


def read_json(path: str | os.PathLike[str], what: str, *, fix: str = "") -> Any:
    """The JSON value in ``path``, or an :class:`InvalidArgumentError` naming ``what`` it is and ``fix``.

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
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidArgumentError(f"cannot read the {what} {p}: {exc.strerror or exc}{tail}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        detail = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise InvalidArgumentError(f"{p} is not valid JSON ({detail}){tail}") from None
