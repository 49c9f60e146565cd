"""The search text a parse worker prepares per symbol: what each body and rest column holds, read from the
file's bytes as slices (lore.index._parse), equal to the lines' text joined, cut and tokenized."""

from __future__ import annotations

import random

from lore.index._parse import MAX_BODY_CHARS, MAX_REST_CHARS, REST_KINDS, _own_lines, parse_read
from lore.text.tokens import body_text


def _expected(data: bytes, syms: list[tuple]) -> list[tuple[str, str]]:
    """Body and rest of every symbol, from the definition: its lines joined, the first 2,000 characters;
    a function's own lines (its nested definitions' lines out) past them."""
    lines = data.split(b"\n")
    nested: dict[int, list[tuple[int, int]]] = {}
    for s in syms:
        if s[3] is not None and s[2] != "module" and syms[s[3]][2] != "module":
            nested.setdefault(s[3], []).append((s[4], s[5]))
    out = []
    for k, s in enumerate(syms):
        kind, start, end = s[2], s[4], s[5]
        if kind == "module":
            out.append(("", ""))
            continue
        head = b"\n".join(lines[max(0, start - 1) : end])[: MAX_BODY_CHARS * 2]
        body = body_text(head.decode("utf-8", "replace")[:MAX_BODY_CHARS])
        rest = ""
        if kind in REST_KINDS:
            inner = sorted(r for r in nested.get(k, ()) if r[0] > start)
            own = b"\n".join(_own_lines(lines, start, end, inner))
            if len(own) > MAX_BODY_CHARS:
                rest = body_text(own[: MAX_REST_CHARS * 2].decode("utf-8", "replace")[MAX_BODY_CHARS:MAX_REST_CHARS])
        out.append((body, rest))
    return out


def _source(rng: random.Random) -> bytes:
    words = ["getUserById", "x1", "HTTPServer", "é", "naïve_name", "a", "return", "self.run()", "ü" * 3]
    parts = []
    for i in range(rng.randint(1, 6)):
        parts.append(f"class C{i}:\n")
        for j in range(rng.randint(0, 4)):
            parts.append(f"    def m{j}(self, a):\n")
            for _ in range(rng.randint(1, 120)):
                parts.append("        " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 12))) + "\n")
            if rng.random() < 0.4:
                parts.append("        def inner(b):\n            return b\n")
                parts.append("        " + "y = 1; " * rng.randint(1, 400) + "\n")
    parts.append("def f(): return 1\n")
    text = "".join(parts)
    if rng.random() < 0.5:
        text = text.replace("\n", "\r\n")
    data = text.encode()
    if rng.random() < 0.3:  # bytes that are not UTF-8 (a cut multi-byte character)
        cut = rng.randrange(len(data))
        data = data[:cut] + b"\xc3" + data[cut:]
    return data


def test_body_and_rest_are_the_lines_text_cut_and_tokenized():
    rng = random.Random(7)
    checked = 0
    for n in range(80):
        data = _source(rng)
        got = parse_read((f"m{n}.py", "", "python", f"m{n}", False, 1 << 30), "ok", data)
        assert got.status == "ok", got.error
        want = _expected(data, got.syms)
        assert [(row[5], row[6]) for row in got.fts] == want
        checked += sum(1 for _b, r in want if r)
    assert checked > 10  # long methods were among them: their rest column was compared too


def test_a_body_just_over_the_first_part_keeps_its_rest():
    for size in range(MAX_BODY_CHARS - 6, MAX_BODY_CHARS + 30):
        head = b"def f():\n    x = "
        data = head + b"q" * (size - len(head) - 3) + b" zz\n"  # f's lines are `size` bytes, "zz" last
        got = parse_read(("m.py", "", "python", "m", False, 1 << 30), "ok", data)
        (body, rest), = [(row[5], row[6]) for row, s in zip(got.fts, got.syms, strict=True) if s[2] == "function"]
        assert (body, rest) == _expected(data, got.syms)[1]
        assert bool(rest) == (size > MAX_BODY_CHARS) and rest[-1:] in ("", "z")  # one byte past: "z"
