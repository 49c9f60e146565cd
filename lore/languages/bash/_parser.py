"""The Bash extractor: functions, the commands a script runs, and the files it ``source``\\ s.

* ``f() { ...; }``, ``function f { ...; }`` and ``function f() ( ... )`` define functions (Bash functions are
  global, whatever they are defined in: one namespace per shell process).
* Every command whose name is a literal word is a call of that name (``greet bob``, ``x=$(greet)``, a
  pipeline's stages); whether it is a function, a builtin or a program is the resolver's question. A
  command named by an expansion (``"$cmd" a``) names nothing lore can read.
* ``source FILE`` / ``. FILE`` imports FILE. The path is read when it is a literal, or starts with the
  sourcing script's own directory (``$(dirname "$0")/``, ``$(dirname "${BASH_SOURCE[0]}")/``,
  ``${BASH_SOURCE%/*}/``, ``$(cd "$(dirname ...)" && pwd)/``): the import's text is then the repository path
  (``lib/util.sh``). Behind any other variable (``"$NVM_DIR/nvm.sh"``) only the literal tail is known: the
  text is ``*/nvm.sh``, a file of the repository whose path ends so.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ...parsers import _ts
from ...parsers._common import Extractor
from ...parsers.records import ParsedFile

__all__ = ["BashExtractor", "parse"]

_SOURCE = frozenset({"source", "."})
# expansions that name the directory of the script being run or sourced
_DIRNAME = r"\$\(\s*dirname\s+(?:--\s+)?\$(?:\{?0\}?|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)\s*\)"
_OWN_DIR = re.compile(  # (quotes removed first)
    rf"^(?:{_DIRNAME}|\$\(\s*cd\s+{_DIRNAME}\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\)"
    r"|\$\{BASH_SOURCE(?:\[0\])?%/\*\}|\$\{0%/\*\})/")


class BashExtractor(Extractor):
    language = "bash"
    grammar = "tree_sitter_bash:language"
    query_files = (Path(__file__).with_name("bash.scm"),)
    primitive_types = frozenset({"comment", "raw_string", "heredoc_body"})

    def define(self, node: _ts.Node, owner: int, kind: str) -> int | None:
        name = self.text(node.child_by_field_name("name"))
        if not name or "." in name:
            return None
        body = node.child_by_field_name("body")
        # a function defined inside another is still global once its definer ran
        return self.add_symbol(node, owner, name, "function", body=body)

    def on_command(self, node: _ts.Node, owner: int) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None or name_node.named_child_count != 1 or name_node.named_children[0].type != "word":
            return  # "$cmd" a, $(which x) a: the name is computed at run time
        name = self.text(name_node).removeprefix("\\")  # \. and \pwd: the same command, never an alias
        if not name or "/" in name or "." in name.strip(".") or "=" in name:
            if name in _SOURCE:
                self._source(node, owner)
                self.add_call(owner, name, name_node)
            return  # ./run.sh, /usr/bin/env: a program by its path
        if name in _SOURCE:
            self._source(node, owner)
        self.add_call(owner, name, name_node)

    def _source(self, node: _ts.Node, owner: int) -> None:
        args = node.children_by_field_name("argument")
        if not args:
            return
        spec = self._path_text(args[0])
        if spec:  # what a sourced file defines is global, wherever the source command ran
            self.add_import(0, spec, node, None, None, level=1)

    def _path_text(self, arg: _ts.Node) -> str:
        """The repository path ``arg`` names, ``*/tail`` when only its literal tail is known, else ``''``."""
        raw = self.text(arg)
        if arg.type == "raw_string":
            raw = raw[1:-1]
        elif arg.type == "string":
            raw = raw[1:-1] if raw.startswith('"') and raw.endswith('"') else raw
        raw = raw.replace('"', "")
        here = posixpath.dirname(self.path)
        m = _OWN_DIR.match(raw)
        if m:
            rest = raw[m.end():]
            if "$" in rest or "`" in rest or not rest:
                return ""
            return posixpath.normpath(posixpath.join(here, rest))
        if "$" not in raw and "`" not in raw and "*" not in raw:
            if raw.startswith(("/", "~")):
                return ""  # /etc/profile, ~/.bashrc: outside the repository
            return posixpath.normpath(posixpath.join(here, raw)) + "|" + posixpath.normpath(raw)
        tail = re.split(r"\$\{[^}]*\}|\$\(.*\)|\$[A-Za-z_][A-Za-z0-9_]*|`[^`]*`", raw)[-1]
        if tail.startswith("/") and "$" not in tail and "*" not in tail and len(tail) > 1:
            return "*" + tail
        return ""

    def file_doc(self, root: _ts.Node) -> str:
        parts = []
        for c in root.children:
            if c.type != "comment":
                break
            t = self.text(c)
            if not t.startswith("#!"):
                parts.append(t.lstrip("#").strip())
        return "\n".join(parts).strip()

    def doc_comment(self, node: _ts.Node) -> str:
        parts: list[str] = []
        prev = node.prev_named_sibling
        line = node.start_point[0]
        while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
            parts.append(self.text(prev).lstrip("#").strip())
            line = prev.start_point[0]
            prev = prev.prev_named_sibling
        return "\n".join(reversed(parts)).strip()[:4000]


def parse(path: str, source: bytes, module: str) -> ParsedFile:
    """The records of one Bash file (never raises on bad input)."""
    return BashExtractor(path, source, module).run()
