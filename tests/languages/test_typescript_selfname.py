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
