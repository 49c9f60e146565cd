"""Cursor pages of the list tools: which call a cursor continues, at which index generation, from which row.

A cursor is opaque to the agent (base64 of ``version.call-fingerprint.generation.offset``) and small; the
call's arguments are not in it, so the agent sends them again with it, and a cursor sent with other
arguments, or from before a refresh, is refused with a sentence that says what to do.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InvalidArgumentError

CURSOR_VERSION = "1"
MAX_ROWS_ALL = 1000  # the library's cap on one answer (lore.queries._shape.MAX_LIMIT): pages end there
DEFAULT_LIMITS = {"lore_search": 5, "lore_locate": 10, "lore_graph": 20, "lore_clusters": 20,
                  "lore_search_docs": 10, "lore_docs_related": 10}


def default_limit(name: str, a: dict) -> int:
    """The page size of a call that gives none: the library's own default (file search: 10)."""
    return 10 if name == "lore_search" and a.get("files") else DEFAULT_LIMITS[name]


def call_key(name: str, a: dict) -> str:
    """A short fingerprint of one call (tool and arguments but page size and budget): a cursor continues it only.

    Examples
    --------
    >>> call_key("lore_graph", {"relation": "related", "source_id": 3}) == call_key("lore_graph", {"source_id": 3, "relation": "related"})
    True
    """
    import hashlib

    raw = json.dumps([name, {k: v for k, v in a.items() if k not in ("compact",)}], sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:12]


def encode_cursor(key: str, generation: Any, offset: int) -> str:
    """The opaque ``next_cursor``: which call, at which index generation, from which row.

    Examples
    --------
    >>> c = encode_cursor("0123456789ab", 4, 20)
    >>> decode_cursor("lore_graph", "0123456789ab", c)
    (4, 20)
    """
    import base64

    raw = f"{CURSOR_VERSION}.{key}.{generation}.{offset}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(name: str, key: str, cursor: str) -> tuple[int, int]:
    """(generation, offset) of a cursor made for this very call; a one-sentence error otherwise.

    Examples
    --------
    >>> decode_cursor("lore_graph", "0123456789ab", "bm9wZQ")
    Traceback (most recent call last):
    ...
    lore.errors.InvalidArgumentError: lore_graph: cursor 'bm9wZQ' is not one this server made; pass the next_cursor of an answer unchanged
    """
    import base64
    import binascii

    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        version, made_for, gen, offset = raw.split(".")
        generation, start = int(gen), int(offset)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidArgumentError(f"{name}: cursor {cursor[:40]!r} is not one this server made; pass the "
                                   "next_cursor of an answer unchanged") from None
    if version != CURSOR_VERSION or start < 0:
        raise InvalidArgumentError(f"{name}: cursor {cursor[:40]!r} is not one this server made; pass the "
                                   "next_cursor of an answer unchanged")
    if made_for != key:
        raise InvalidArgumentError(f"{name}: this cursor continues another call; send it with the same arguments "
                                   "as the call that returned it (only limit and max_tokens may change)")
    if start >= MAX_ROWS_ALL:
        raise InvalidArgumentError(f"{name}: pages end at row {MAX_ROWS_ALL}; narrow the query instead")
    return generation, start
