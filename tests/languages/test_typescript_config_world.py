"""The root tsconfig.json's ``paths``/``baseUrl`` travel with the resolver's world as data: a world pickled
for Ray resolves the same edges on a machine where the repository's folder does not exist."""

from __future__ import annotations

from tests.conftest import resolve_elsewhere

FILES = {
    "tsconfig.json": '{\n  "compilerOptions": {\n    "paths": {\n      "@demo/core": ["./packages/core/src"],\n'
                     '      "@demo/core/*": ["./packages/core/src/*"]\n    }\n  }\n}\n',
    "packages/core/src/index.ts": "export { Router } from './router';\n",
    "packages/core/src/router.ts": ("export class Router {\n  add(p: string) { return this; }\n}\n"
                                    "export function route(p: string) { return new Router(); }\n"),
    "apps/web/main.ts": ("import { Router } from '@demo/core';\nimport { route } from '@demo/core/router';\n"
                         "import { other } from '@other/pkg';\n"
                         "export function main() {\n  new Router().add('/');\n  route('/x');\n  other();\n}\n"),
}


def test_a_pickled_world_resolves_tsconfig_paths_without_the_repository(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    copy, got, want = resolve_elsewhere(root, tmp_path / "i.db", monkeypatch)
    assert got.refs == want.refs and got.imports == want.imports
    names = {s.id: s.qualified_name for s in copy.syms.values()}
    assert {"packages.core.src.router.route", "packages.core.src.router.Router.add"} <= \
        {names.get(r[1]) for r in got.refs}  # the mapped imports are the project's files
