"""A package importing itself by its own name through its ``package.json`` ``exports`` (zod's
``import { z } from 'zod/v3'`` with the ``@zod/source`` condition: lore had bound the external package
``zod/v3`` where TypeScript answers the repository's ``src/v3``), one small program each, with what must
stay external beside it.

Rules: docs/languages/typescript.md (round 13).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))

from test_project_config_refresh import _refreshed_and_fresh  # noqa: E402
from test_ts_js_rules import edges  # noqa: E402

V3 = "export function string() {\n  return 's';\n}\nexport const z = { string };\n"
USE = ("import { string } from 'kit/v3';\nimport { z } from 'kit/v3';\nimport { done } from 'kit/built';\n"
       "export function f() {\n  string();\n  z.string();\n  done();\n}\n")


def _files(mode: str, conditions: list[str], exports: dict) -> dict[str, str]:
    config = {"compilerOptions": {"moduleResolution": mode, "customConditions": conditions}}
    return {"tsconfig.json": json.dumps(config), "package.json": json.dumps({"name": "kit", "exports": exports}),
            "src/v3/index.ts": V3, "src/built.ts": "export function done() {\n  return 1;\n}\n",
            "src/bench/use.ts": USE}


EXPORTS = {"./v3": {"@kit/source": "./src/v3/index.ts", "types": "./v3/index.d.ts", "import": "./v3/index.js"},
           "./built": {"types": "./dist/built.d.ts", "import": "./dist/built.js"}}


def test_the_packages_own_name_resolves_through_its_exports_under_its_conditions(tmp_path):
    got = edges(tmp_path, _files("bundler", ["@kit/source"], EXPORTS), "src.bench.use.f")
    assert got["string"] == {("src.v3.index.string", "import")}
    assert {q for q, _r in got["z.string"]} == {"src.v3.index.string"}
    # an entry whose target is not in the checkout (dist/ of an unbuilt package) stays external
    assert {q for q, _r in got["done"]} != {"src.built.done"}


def test_without_the_condition_or_a_mode_that_reads_exports_the_name_stays_external(tmp_path):
    got = edges(tmp_path / "a", _files("bundler", [], EXPORTS), "src.bench.use.f")
    assert "src.v3.index.string" not in {q for q, _r in got["string"]}  # "types" comes first: ./v3/index.d.ts
    got = edges(tmp_path / "b", _files("node", ["@kit/source"], EXPORTS), "src.bench.use.f")
    assert "src.v3.index.string" not in {q for q, _r in got["string"]}  # node10 reads no exports


def test_changed_exports_reresolve_typescript_files_without_rebuild(tmp_path):
    files = _files("bundler", ["@kit/source"], {"./v3": {"@kit/source": "./src/built.ts"}})
    files["scripts/tool.js"] = "export function tool() {\n  return 1;\n}\n"  # JavaScript reads the config first
    for rel, text in files.items():
        (tmp_path / "r" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "r" / rel).write_text(text, encoding="utf-8")

    def change(root):
        (root / "package.json").write_text(json.dumps({"name": "kit", "exports": EXPORTS}))

    got, want = _refreshed_and_fresh(tmp_path, change)
    assert got == want
    assert "src.v3.index.string@1" in {dict(r)["callee_id"] for r in got["symbol_refs"]}
