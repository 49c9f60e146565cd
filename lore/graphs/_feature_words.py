"""The words of one symbol's row, as the ranker's word and role signals read them.

What :mod:`lore.graphs._features` tokenizes per row (the docstring's summary, the parameter names of a
signature, the words left after digits are dropped) and the 64-bit key of everything a row's words
and arity come from (:func:`row_keys`), kept apart from the arrays built over every row.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

_PARAMS = re.compile(r"\((.*)\)", re.DOTALL)
_PARAM_NAME = re.compile(r"^\s*\*{0,2}\s*([A-Za-z_][A-Za-z0-9_]*)")
WORD = re.compile(r"[A-Za-z0-9]+")
_SKIP_PARAMS = frozenset({"self", "cls", "this"})
SKIP_WORDS = frozenset({"def", "class", "async", "self", "cls", "fn", "func", "pub", "static", "public", "private",
                        "return", "returns", "none", "int", "str", "void"})
CLASS_KINDS = ("class", "interface", "struct", "trait", "enum")
SUMMARY_CHARS = 400


def summary(docstring: str | None) -> str:
    """The first paragraph of a docstring, at most ``SUMMARY_CHARS`` characters.

    Examples
    --------
    >>> summary("Add two numbers.\\n\\nSee Also\\n--------\\nsub")
    'Add two numbers.'
    """
    if not docstring:
        return ""
    return docstring.strip().split("\n\n", 1)[0][:SUMMARY_CHARS]


def parameters(signature: str | None) -> list[str]:
    """Parameter names of a signature (``self`` / ``cls`` left out).

    Examples
    --------
    >>> parameters("def f(self, a: int = 1, *args, key=None, **kw) -> int")
    ['a', 'args', 'key', 'kw']
    >>> parameters("class Foo(Base)")
    ['Base']
    """
    if not signature:
        return []
    m = _PARAMS.search(signature)
    if not m:
        return []
    inner = m.group(1)
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in inner:  # split at top-level commas only (annotations and defaults nest)
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    names = []
    for part in out:
        pm = _PARAM_NAME.match(part)
        if pm and pm.group(1) not in _SKIP_PARAMS:
            names.append(pm.group(1))
    return names


def words(tokens) -> list[str]:
    """Tokens that are words: pure digits left out.

    Examples
    --------
    >>> words(["atan", "2", "x85", "0"])
    ['atan', 'x85']
    """
    return [t for t in tokens if not t.isdigit()]


def text_words(name_words: list[str], signature: str, doc: str, split) -> list[str]:
    """The words of a row's name, signature and docstring summary, in order (repeats kept: they are counted).

    Examples
    --------
    >>> text_words(["get", "user"], "def get_user(self, uid: int)", "Fetch a user.", str.split)
    ['get', 'user', 'get', 'user', 'uid', 'Fetch', 'a', 'user']
    """
    sig_words = [w for w in (t.lower() for t in WORD.findall(signature)) if w not in SKIP_WORDS]
    out = list(name_words)
    for w in sig_words + WORD.findall(doc):
        out.extend(p for p in words(split(w)) if p not in SKIP_WORDS)
    return out


def row_keys(names, sigs, docs, dirs, decos, kind: np.ndarray) -> np.ndarray:
    """A 64-bit key per row of everything its words and arity are read from (blake2b: stable across
    processes, unlike ``hash``)."""
    blake = hashlib.blake2b
    kinds = kind.tolist()
    keys = np.empty(len(names), dtype=np.uint64)
    for r, (nm, sg, dc, d, dec) in enumerate(zip(names, sigs, docs, dirs, decos, strict=True)):
        text = f"{nm}\0{sg}\0{dc}\0{d}\0{kinds[r]}\0{chr(1).join(dec)}"
        keys[r] = int.from_bytes(blake(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
    return keys
