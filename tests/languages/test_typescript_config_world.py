"""The root tsconfig.json's ``paths``/``baseUrl`` travel with the resolver's world as data: a world pickled
for Ray resolves the same edges on a machine where the repository's folder does not exist."""

from __future__ import annotations

import pickle

from lore.index import indexer, resolve_pool
from lore.index.resolve import resolve_files

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
    captured = {}

    def capture(world, file_ids, db_path, workers, progress=None, *, sink):
        loader = world._load_records  # what resolve_ray ships: the world with every record, pickled first
        world._load_records = resolve_pool._all_records(loader, sorted(world.files))
        captured["blob"] = pickle.dumps(world)
        world._load_records = loader
        captured["ids"] = list(file_ids)
        captured["edges"] = edges = resolve_files(world, file_ids)
        sink(edges)
        return [], 0

    monkeypatch.setattr(indexer, "resolve_parallel", capture)
    indexer.index_repo(root, db=tmp_path / "i.db", workers=1)
    root.rename(tmp_path / "elsewhere")  # the worker's machine: no such folder
    copy = pickle.loads(captured["blob"])
    got = resolve_pool.resolve_chunk(copy, copy.next_id, captured["ids"])[0]
    want = captured["edges"]
    assert got.refs == want.refs and got.imports == want.imports
    names = {s.id: s.qualified_name for s in copy.syms.values()}
    assert {"packages.core.src.router.route", "packages.core.src.router.Router.add"} <= \
        {names.get(r[1]) for r in got.refs}  # the mapped imports are the project's files
