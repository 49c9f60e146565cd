"""Generate the bad-input corpus of the fault suite: a repository a hostile user or a busy team could hand lore.

Usage: ``python tests/faults/make_corpus.py DIR [--seed N] [--depth N]``. Writes, under ``DIR``:

* file names that are not UTF-8 (Latin-1, a lone continuation byte, an overlong sequence), with a
  backslash, with newlines and spaces, and a pair whose escaped forms collided before names were escaped
  injectively (``a\\xe9.py`` and the byte name ``a<e9>.py``: both are indexed now);
* named pipes (one with a language extension, one behind a symlink), a UNIX socket (kept open by the
  caller while indexing), symlink loops, symlinks out of the root and dangling symlinks;
* NUL bytes (a binary file with a source extension, a NUL in the middle of a source file), huge lines,
  invalid UTF-8 inside source, a BOM, CRLF, an empty file, a file of only comments;
* deep nesting in every language (brackets, generics, calls, blocks, annotations) at ``--depth``;
* ``vanish/``: files the caller deletes or swaps for pipes while an index run goes on.

Everything is seeded: the same arguments write the same bytes.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
from pathlib import Path

DEEP = {  # language extension -> (prefix, middle, suffix) repeated ``depth`` times around the middle
    ".py": ("def f(x: ", "A[", "int", "]", "): return " + "(" * 50 + "1" + ")" * 50 + "\n"),
    ".pyi": ("x = ", "[", "0", "]", "\n"),
    ".js": ("function f() { return ", "g(", "1", ")", "; }\n"),
    ".mjs": ("export const f = () => ", "{a: ", "1", "}", ";\n"),
    ".ts": ("function f(x: ", "Array<", "number", ">", ") {}\n"),
    ".tsx": ("const f = () => ", "<div>", "x", "</div>", ";\n"),
    ".go": ("package p\nfunc f() { x := ", "g(", "1", ")", " }\n"),
    ".java": ("class A { void f() { int x = ", "(", "1", ")", "; } }\n"),
    ".rs": ("fn f(x: ", "Foo<(", "Bar", ">)", ") {}\n"),
    ".c": ("int f(void) { return ", "(", "1", ")", "; }\n"),
    ".cpp": ("template<class T> struct S {}; S<", "S<", "int", ">", "> x;\n"),
    ".h": ("#define X ", "(", "1", ")", "\n"),
}


def _w(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def make_corpus(root: Path, *, seed: int = 0, depth: int = 3000) -> dict[str, int]:
    """Write the corpus under ``root``; returns what it wrote, by kind (the test compares skip counts)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    made: dict[str, int] = {}

    def count(kind: str, n: int = 1) -> None:
        made[kind] = made.get(kind, 0) + n

    good = "def ok_{0}(x):\n    return helper_{0}(x)\n\ndef helper_{0}(x):\n    return x\n"
    for i in range(5):
        _w(root / f"good/m{i}.py", good.format(i))
    count("good", 5)
    raw = os.fsencode(root)
    for name in (b"latin\xe9.py", b"lone\x80.py", b"overlong\xc0\xaf.py", b"dir\xff/inner.py"):
        _w(Path(os.fsdecode(raw + b"/names/" + name)), "def named():\n    pass\n")
        count("non-utf8 name")
    _w(root / "names/back\\slash.py", "def b(): pass\n")
    _w(root / "names/new\nline.py", "def n(): pass\n")
    _w(root / "names/sp ace.py", "def s(): pass\n")
    _w(root / "names/a\\xe9.py", "def collide(): pass\n")  # spells the escaped form of a\xe9.py
    _w(Path(os.fsdecode(raw + b"/names/a\xe9.py")), "def collide2(): pass\n")
    count("escape-like name pair", 2)
    special = root / "special"
    special.mkdir(exist_ok=True)
    os.mkfifo(special / "pipe.py")
    os.mkfifo(special / "pipe_noext")
    (special / "to_pipe.py").symlink_to("pipe.py")
    count("pipe", 3)
    (special / "loop_a.py").symlink_to("loop_b.py")
    (special / "loop_b.py").symlink_to("loop_a.py")
    (special / "dir_loop").symlink_to(".")
    (special / "escape.py").symlink_to("/etc/hostname")
    (special / "escape_dir").symlink_to("/usr/lib")
    (special / "dangling.py").symlink_to("nowhere.py")
    count("symlink", 6)
    content = root / "content"
    _w(content / "binary.py", b"\x00\x01\x02" * 1000)
    _w(content / "nul_middle.py", b"def a():\n    pass\n" * 600 + b"\x00" + b"def b(): pass\n")
    _w(content / "huge_line.py", "x = [" + ", ".join(str(rng.randrange(10**6)) for _ in range(150_000)) + "]\n")
    _w(content / "huge_line.js", "var s = '" + "a" * 1_500_000 + "';\n")
    _w(content / "bad_utf8.py", b"def caf\xe9():\n    return '\xff\xfe'\n")
    _w(content / "bom.py", b"\xef\xbb\xbfdef bom():\n    pass\n")
    _w(content / "crlf.py", b"def crlf():\r\n    return 1\r\n")
    _w(content / "empty.rs", b"")
    _w(content / "comments.go", "// only\n" * 1000)
    _w(content / "unterminated.py", "def f(:\n    '''never closed\n" + "x" * 1000)
    _w(content / "random.ts", bytes(rng.randrange(256) for _ in range(20_000)).replace(b"\x00", b" "))
    count("content", 11)
    for ext, (head, open_, mid, close, tail) in DEEP.items():
        _w(root / f"deep/deep{ext}", head + open_ * depth + mid + close * depth + tail)
        count("deep")
    for i in range(20):
        _w(root / f"vanish/v{i}.py", good.format(100 + i))
    count("vanish", 20)
    return made


def open_socket(root: Path) -> socket.socket:
    """Bind a UNIX socket at ``root/special/sock.py`` (the caller closes it after the run)."""
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "special" / "sock.py"))
    return sock


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=3000)
    ns = parser.parse_args()
    print(make_corpus(ns.dir, seed=ns.seed, depth=ns.depth))
