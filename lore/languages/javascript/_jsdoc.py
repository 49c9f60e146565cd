"""JSDoc types in JavaScript: ``@param {Option} option`` and ``@returns {Command}``, plain names only.

Examples
--------
>>> jsdoc_types("/**\\n * @param {Option} option\\n * @param {string} [name]\\n * @return {?Command}\\n */")
({'option': 'Option', 'name': ''}, 'Command')
"""

from __future__ import annotations

import re

_JSDOC_PARAM = re.compile(r"@param\s+\{([^{}]+)\}\s+\[?([A-Za-z_$][\w$]*)")
_JSDOC_RETURN = re.compile(r"@returns?\s+\{([^{}]+)\}")
_JSDOC_PLAIN = re.compile(r"[A-Z][\w$]*(\.[A-Z][\w$]*)*")
_JSDOC_SKIP = frozenset({"Object", "Function", "Array", "Promise", "Map", "Set", "String", "Number", "Boolean",
                         "Date", "RegExp", "Error", "Buffer", "Symbol"})


def _jsdoc_name(t: str) -> str:
    """``Option`` of ``{Option}`` / ``{?Option}`` / ``{Option|undefined}``; ``''`` for anything else."""
    parts = [p.strip().lstrip("?!").rstrip("=") for p in t.strip("()").split("|")]
    names = [p for p in parts if p not in ("null", "undefined", "")]
    if len(names) != 1 or not _JSDOC_PLAIN.fullmatch(names[0]) or names[0] in _JSDOC_SKIP:
        return ""
    return names[0]


def jsdoc_types(text: str) -> tuple[dict[str, str], str]:
    """Parameter name -> declared type name, and the declared return type, of a ``/** ... */`` comment."""
    if not text.startswith("/**") or "@" not in text:
        return {}, ""
    declared = {name: _jsdoc_name(t) for t, name in _JSDOC_PARAM.findall(text)}
    ret = _JSDOC_RETURN.search(text)
    return declared, _jsdoc_name(ret.group(1)) if ret else ""
