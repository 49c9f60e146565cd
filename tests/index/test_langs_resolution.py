"""End-to-end edges of the non-Python languages on small fixture projects, with precision and recall.

Each ``tests/fixtures/<lang>/`` holds a multi-file project and ``expected.json``: the symbols (qualified
name -> kind) and the edges a careful reader expects, as ``caller -> callee`` (calls resolved by a
rule, not a name heuristic), ``owner -> type (kind)`` (type references), ``file -> target`` (imports
resolved inside the repository), ``source -kind-> target`` (extends / implements / embeds) and the
calls left to the ``ambiguous_name`` heuristic (1/k each). ``known_missing`` lists edges a reader
expects that lore does not find yet: they count against recall, and the test says when one appears.
The project is copied to a temporary directory, indexed, and compared.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lore import index_repo
from lore.bench.langs import fixture_edges

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# every fixture project: a new language is covered by adding tests/fixtures/<lang>/ with its expected.json
LANGS = sorted(p.parent.name for p in FIXTURES.glob("*/expected.json"))


def actual_edges(root: Path) -> dict[str, set[str]]:
    """The edges of an indexed fixture, in the notation of ``expected.json``."""
    index_repo(root, workers=1)
    return fixture_edges(root / ".lore" / "index.db")


def precision_recall(expected: set[str], actual: set[str]) -> tuple[float, float]:
    hit = len(expected & actual)
    return (hit / len(actual) if actual else 1.0), (hit / len(expected) if expected else 1.0)


def available() -> list[str]:
    return [lang for lang in LANGS if (FIXTURES / lang / "expected.json").exists()]


@pytest.mark.parametrize("lang", available())
def test_fixture_edges(tmp_path, lang):
    root = tmp_path / lang
    shutil.copytree(FIXTURES / lang, root, ignore=shutil.ignore_patterns("expected.json"))
    expected = json.loads((FIXTURES / lang / "expected.json").read_text(encoding="utf-8"))
    actual = actual_edges(root)
    report = []
    problems = []
    for table in ("symbols", "calls", "types", "imports", "relations", "ambiguous"):
        if table not in expected:
            continue
        want = set(expected[table])
        missing_known = set(expected.get("known_missing", {}).get(table, ()))
        got = actual[table]
        p, r = precision_recall(want | missing_known, got)
        report.append(f"{lang} {table}: precision {p:.2f} recall {r:.2f} ({len(want | missing_known)} expected)")
        if want != got:
            problems.append(f"{table}: missing {sorted(want - got)}; unexpected {sorted(got - want)}")
        if missing_known & got:
            problems.append(f"{table}: now found, move out of known_missing: {sorted(missing_known & got)}")
    print("\n".join(report))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", available())
def test_fixture_files_parse_without_handler_errors(lang):
    """Every capture handler succeeds on the fixture files (handler errors are re-raised in strict mode)."""
    from lore.languages import language_for, module_name, parse_source
    from lore.parsers import _common

    root = FIXTURES / lang
    files = [p for p in sorted(root.rglob("*")) if p.is_file() and language_for(p.name) is not None]
    assert files
    _common.Extractor.strict = True
    try:
        for p in files:
            rel = p.relative_to(root).as_posix()
            lang = language_for(p.name).name
            pf = parse_source(rel, p.read_bytes(), lang, module_name(rel, lang))
            assert pf.syntax_errors == 0, rel
    finally:
        _common.Extractor.strict = False


PY_SAMPLE = {
    "py/pkg/__init__.py": "from .a import helper\n",
    "py/pkg/a.py": "import os\n\n\ndef helper(x):\n    return os.path.join(x, 'y')\n\n\n"
                   "class Base:\n    def run(self):\n        self.step()\n\n    def step(self):\n        pass\n",
    "py/main.py": "from pkg import helper\n\n\ndef main():\n    helper('a')\n",
}


@pytest.fixture(scope="module")
def mixed_repo(tmp_path_factory) -> Path:
    """Every fixture side by side (each under its own directory) plus a little Python, indexed once."""
    root = tmp_path_factory.mktemp("mixed") / "mixed"
    for lang in available():
        shutil.copytree(FIXTURES / lang, root / lang, ignore=shutil.ignore_patterns("expected.json"))
    for rel, text in PY_SAMPLE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    index_repo(root, workers=1)
    return root


def test_mixed_language_repository(mixed_repo):
    """In a polyglot repository every language keeps exactly the edges it has alone."""
    actual = fixture_edges(mixed_repo / ".lore" / "index.db")
    for lang in available():
        expected = json.loads((FIXTURES / lang / "expected.json").read_text(encoding="utf-8"))
        # symbols named by their file's path move under <lang>/; those named by a namespace (C#) stay
        modules = [s.rsplit(" (", 1)[0] for s in expected["symbols"] if s.endswith(" (module)")]
        names = {n for n in (s.rsplit(" (", 1)[0] for s in expected["symbols"])
                 if any(n == m or n.startswith(m + ".") for m in modules)}
        stay = {s.rsplit(" (", 1)[0] for s in expected["symbols"]} - names
        for table in ("calls", "types", "relations", "imports"):
            want = {" ".join(f"{lang}.{w}" if w in names else w for w in e.split(" ")) for e in expected[table]}
            if table == "imports":
                want = {f"{lang}/{e}" for e in want}
            got = {e for e in actual[table] if e.startswith((f"{lang}.", f"{lang}/")) or e.split(" ")[0] in stay}
            assert want == got, f"{lang} {table}: missing {sorted(want - got)}; unexpected {sorted(got - want)}"
    assert "py.main.main -> pkg.a.helper" in actual["calls"]
    assert "pkg.a.Base.run -> pkg.a.Base.step" in actual["calls"]


def test_stats_break_down_by_language(mixed_repo):
    """``lore stats`` counts files, symbols and calls per language, in JSON and in its table."""
    from typer.testing import CliRunner

    from lore.cli import app

    runner = CliRunner()
    db = str(mixed_repo / ".lore" / "index.db")
    res = runner.invoke(app, ["stats", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.output)
    langs = {"python", "javascript", "typescript", "tsx", "go", "java", "rust", "c", "cpp"}
    assert langs <= set(stats["files_by_language"])
    assert langs <= set(stats["symbols_by_language"])
    assert all(stats["calls_by_language"][lang]["resolved"] > 0 for lang in langs)
    assert stats["files_by_language"]["java"] == len(list((mixed_repo / "java").rglob("*.java")))
    table = runner.invoke(app, ["stats", "--db", db])
    assert table.exit_code == 0, table.output
    rows = {line.split()[1] for line in table.output.splitlines() if line.startswith("│")}
    assert langs <= rows, table.output


def _refs(root: Path) -> list[tuple[str, str, str, float]]:
    """(caller, callee, resolution, confidence) of every call edge into the repository."""
    from lore.api import open_index
    from lore.bench._data import symbol_table

    with open_index(root / ".lore" / "index.db", readonly=True) as idx:
        table = symbol_table(idx)
        refs = idx.edges("symbol_refs")
    return [(table[e["caller_id"]][2], table[e["callee_id"]][2], e["resolution"], e["confidence"])
            for e in refs if e["callee_id"] is not None and table[e["callee_id"]][10] is not None]


# How an edge was bound is recorded: one edge per rule each language supports, (lang, caller, callee, rule).
RESOLUTION_METHODS = [
    ("javascript", "lib.store.Store.put", "lib.base.Base.validate", "self_method"),  # this.m() through an ES5 base
    ("javascript", "app.view.List", "lib.store.openStore", "import"),  # ES import through an index.js re-export
    ("javascript", "main", "app.api.api.create", "import"),  # default import of module.exports = api
    ("typescript", "src.service.main", "src.repo.index.Repo.find", "annotated_type"),  # const r: Repo
    ("typescript", "src.app.App", "src.service.Service.register", "constructor_type"),  # svc = new Service()
    ("go", "main.main", "store.stack.Stack.Push", "annotated_type"),  # var recent store.Stack[...]
    ("go", "server.Server.Start", "base.Base.Log", "self_method"),  # promoted through the embedded *Base
    ("go", "store.repo.Repo.Save", "store.user.Repo.validate", "self_method"),  # receiver method of another file
    ("java", "src.main.java.com.shop.model.Admin.Admin.greet", "src.main.java.com.shop.model.User.User.greet",
     "self_method"),  # super.greet()
    ("java", "src.main.java.com.shop.service.UserService.UserService.register",
     "src.main.java.com.shop.util.Strings.Strings.clean", "import"),  # import static
    ("rust", "src.lib.demo", "src.display.Circle.diameter", "constructor_type"),  # impl Circle in another file
    ("rust", "src.shapes.circle.Circle.area", "src.shapes.circle.Circle.check", "self_method"),
    ("c", "src.main.main", "src.codec_impl.codec_encode", "import"),  # prototype in codec.h, defined in codec_impl.c
    ("cpp", "app.main.main", "geo.polygon_impl.geo.Polygon.area", "annotated_type"),  # Polygon poly(6);
    ("cpp", "geo.polygon_impl.geo.Polygon.area", "geo.scale.geo.detail.scale", "import"),  # namespace reopened
]


@pytest.mark.parametrize(("lang", "caller", "callee", "rule"), RESOLUTION_METHODS)
def test_resolution_method_is_recorded(mixed_repo, lang, caller, callee, rule):
    refs = _refs(mixed_repo)
    got = {r[2] for r in refs if r[0] == f"{lang}.{caller}" and r[1] == f"{lang}.{callee}"}
    assert got == {rule}


def _indexed_alone(tmp_path: Path, lang: str) -> Path:
    root = tmp_path / lang
    shutil.copytree(FIXTURES / lang, root, ignore=shutil.ignore_patterns("expected.json"))
    index_repo(root, workers=1)
    return root


def test_ambiguity_is_kept_as_candidates(tmp_path):
    """k candidates, 1/k of the rule's confidence each, never one guessed: a name heuristic (JS) and a C
    prototype with two definitions (one per platform file)."""
    from lore.store.schema import CONFIDENCE

    refs = _refs(_indexed_alone(tmp_path, "javascript"))
    js = sorted((r[1], r[2], r[3]) for r in refs if r[0] == "lib.util.shutdown")
    assert js == [("app.api.Conn.close", "ambiguous_name", CONFIDENCE["ambiguous_name"] / 2),
                  ("lib.store.Store.close", "ambiguous_name", CONFIDENCE["ambiguous_name"] / 2)]
    refs = _refs(_indexed_alone(tmp_path, "c"))
    c = sorted((r[1], r[2], r[3]) for r in refs if r[0] == "src.codec_impl.codec_encode")
    assert c == [("src.backend_posix.codec_backend", "import", CONFIDENCE["import"] / 2),
                 ("src.backend_win.codec_backend", "import", CONFIDENCE["import"] / 2)]


FAMILIES = {"javascript": "js", "typescript": "js", "go": "go", "java": "java", "rust": "rust", "c": "c", "cpp": "c"}


def test_name_heuristics_stay_within_a_language(mixed_repo):
    """In a polyglot repository a name heuristic never binds a call to a definition of another language
    (JavaScript and TypeScript call each other, so do C and C++)."""
    crossing = []
    for caller, callee, rule, _conf in _refs(mixed_repo):
        if rule in ("same_file_name", "unique_name", "ambiguous_name"):
            a, b = caller.split(".", 1)[0], callee.split(".", 1)[0]
            if FAMILIES.get(a, a) != FAMILIES.get(b, b):
                crossing.append(f"{caller} -> {callee} ({rule})")
    assert not crossing
    # the family does share: a TypeScript file's guess reaches the JavaScript module it imports
    heuristic = [r for r in _refs(mixed_repo) if r[2] == "ambiguous_name" and r[0] == "typescript.src.service.closeAll"]
    assert {r[1] for r in heuristic} == {"typescript.src.legacy.Pool.close", "typescript.src.legacy.TempFile.close"}


# Edits whose effect reaches other files: a refresh must end where a fresh index of the edited tree ends.
REFRESH_EDITS = [
    ("javascript", "lib/base.js", "module.exports = Base;", "module.exports = check;"),  # what require() returns
    ("go", "go.mod", "module example.com/shop", "module example.com/shop2"),  # import paths no longer match
    ("cpp", "geo/polygon.hpp", "int sides() const;", "int count() const;"),  # a declaration in a header
    ("rust", "src/display.rs", "impl Circle {", "impl crate::shapes::square::Square {"),  # an impl block moves
    ("typescript", "src/models/user.ts", "export class Admin extends User", "export class Admin"),  # a base class
]


@pytest.mark.parametrize(("lang", "rel", "old", "new"), REFRESH_EDITS)
def test_refresh_after_an_edit_equals_a_fresh_index(tmp_path, lang, rel, old, new):
    root = _indexed_alone(tmp_path, lang)
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    index_repo(root, workers=1)
    refreshed = fixture_edges(root / ".lore" / "index.db")
    fresh_root = tmp_path / "fresh"
    shutil.copytree(root, fresh_root, ignore=shutil.ignore_patterns(".lore"))
    index_repo(fresh_root, workers=1)
    fresh = fixture_edges(fresh_root / ".lore" / "index.db")
    for table in fresh:
        assert refreshed[table] == fresh[table], (table, sorted(refreshed[table] ^ fresh[table]))
