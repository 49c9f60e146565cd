"""Methods of an object literal that a function returns (TypeScript and JavaScript): the literal is the
namespace ``<return>`` of its function (``make.<return>.find``), reached through a value made by calling the
function, ``ReturnType<typeof make>`` (a parameter, a variable, a ``declare module`` member), and ``this``
inside its methods; a literal merged or mutated later adds nothing. Small programs, each with what must stay
unbound beside it.

Rules: docs/languages/typescript.md (round 11).
"""

from __future__ import annotations

import sqlite3

from lore import index_repo
from lore.store import callsites

REPO = ("export function createRepository(db: number) {\n"                      # 1
        "  return {\n"                                                          # 2
        "    async findById(id: number) { return this.check(id); },\n"         # 3
        "    check(id: number) { return id; },\n"                               # 4
        "    create: async (x: number) => x,\n"                                 # 5
        "  };\n"
        "}\n"
        "export function twoShapes(flag: boolean) {\n"                          # 8
        "  if (flag) {\n    return { a() { return 1; } };\n  }\n"
        "  return { b() { return 2; } };\n"
        "}\n"
        "export const makeApi = () => ({ run() { return 1; } });\n"           # 14
        "export function use(fn: typeof createRepository) {\n"                  # 15
        "  const repo = createRepository(1);\n"
        "  repo.findById(1);\n  repo.create(2);\n  repo.missing();\n"
        "  fn.findById(1);\n"
        "  const t = twoShapes(true);\n  t.a();\n  t.b();\n"
        "  Object.assign(repo, { extra() { return 3; } });\n  repo.extra();\n"
        "  makeApi().run();\n"
        "}\n"
        "export function typed(r: ReturnType<typeof createRepository>,\n"
        "                      w: Awaited<ReturnType<typeof createRepository>>) {\n"
        "  r.findById(1);\n  w.create(1);\n"
        "  const v: ReturnType<typeof createRepository> = createRepository(2);\n  v.check(1);\n"
        "}\n")
OTHER = "export function elsewhere(x: any, y) {\n  x.findById(1);\n  y.create(2);\n  y.check(3);\n}\n"


def _targets(tmp_path, files: dict[str, str], caller: str,
             langs: tuple[str, ...] = ("typescript",)) -> dict[str, set[str | None]]:
    """callee as written -> {bound qualified name} for ``caller``'s calls."""
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    conn = sqlite3.connect(tmp_path / ".lore" / "index.db")
    try:
        rows = callsites.call_site_edges(conn, langs, tests=True)
    finally:
        conn.close()
    out: dict[str, set[str | None]] = {}
    for r in rows:
        if r.caller == caller:
            out.setdefault(r.callee_name, set()).add(r.callee_qname)
    return out


def test_a_value_made_by_calling_the_factory_reaches_the_literal_s_methods(tmp_path):
    got = _targets(tmp_path, {"src/r.ts": REPO, "src/o.ts": OTHER}, "src.r.use")
    assert got["repo.findById"] == {"src.r.createRepository.<return>.findById"}
    assert got["repo.create"] == {"src.r.createRepository.<return>.create"}  # an arrow-valued property
    assert got["makeApi().run"] == {"src.r.makeApi.<return>.run"}  # an arrow's ({...}) body
    # what the literal lacks, the function itself, two literals of one function, a later Object.assign: none
    assert got["repo.missing"] == {None}
    assert got["fn.findById"] == {None}
    assert got["t.a"] == {None} and got["t.b"] == {None}
    assert got["repo.extra"] == {None}


def test_this_in_a_method_of_the_returned_literal_is_the_literal(tmp_path):
    got = _targets(tmp_path, {"src/r.ts": REPO}, "src.r.createRepository.<return>.findById")
    assert set().union(*got.values()) == {"src.r.createRepository.<return>.check"}


def test_return_type_of_a_factory_types_parameters_and_variables(tmp_path):
    got = _targets(tmp_path, {"src/r.ts": REPO}, "src.r.typed")
    assert got["r.findById"] == {"src.r.createRepository.<return>.findById"}
    assert got["w.create"] == {"src.r.createRepository.<return>.create"}
    assert got["v.check"] == {"src.r.createRepository.<return>.check"}


def test_a_name_guess_never_reaches_a_returned_literal_s_method(tmp_path):
    got = _targets(tmp_path, {"src/r.ts": REPO, "src/o.ts": OTHER}, "src.o.elsewhere")
    assert got == {"x.findById": {None}, "y.create": {None}, "y.check": {None}}


FM = ("import { FastifyInstance } from 'fastify'\n"
      "declare module 'fastify' {\n  export interface FastifyInstance {\n"
      "    fileManager: ReturnType<typeof createFileManager>\n  }\n}\n"
      "function createFileManager(fastify: FastifyInstance) {\n"
      "  return {\n    ensureDir(dir: string) { return dir; },\n  };\n}\n")
UPLOADER = ("import { FastifyInstance } from 'fastify'\n"
            "declare module 'fastify' {\n  export interface FastifyInstance {\n"
            "    uploader: ReturnType<typeof createUploader>\n  }\n}\n"
            "function createUploader(fastify: FastifyInstance) {\n"
            "  const { fileManager } = fastify;\n  fileManager.ensureDir('a');\n"
            "  fastify.fileManager.ensureDir('b');\n  fastify.nothing.ensureDir('c');\n"
            "  return { up() { return 1; } };\n}\n")


def test_a_declare_module_member_typed_by_a_factory_reaches_its_literal_from_another_block(tmp_path):
    # uploader.ts declares its own block, so its name FastifyInstance is that block: the other block's
    # member is read beside it; a member no block declares stays unbound
    got = _targets(tmp_path, {"src/fm.ts": FM, "src/uploader.ts": UPLOADER}, "src.uploader.createUploader")
    assert got["fileManager.ensureDir"] == {"src.fm.createFileManager.<return>.ensureDir"}
    assert got["fastify.fileManager.ensureDir"] == {"src.fm.createFileManager.<return>.ensureDir"}
    assert got["fastify.nothing.ensureDir"] == {None}


JS = ("function make(db) {\n"
      "  return {\n    get(k) { return this.put(k); },\n    put: function (k) { return k; },\n  };\n}\n"
      "const mk = () => ({ run() { return 1; } });\n"
      "function use() {\n  const m = make(1);\n  m.get(1);\n  m.put(2);\n  m.gone();\n  mk().run();\n}\n"
      "module.exports = { make, use };\n")


def test_javascript_factories_return_their_literal_too(tmp_path):
    got = _targets(tmp_path, {"lib/m.js": JS}, "lib.m.use", ("javascript",))
    assert got["m.get"] == {"lib.m.make.<return>.get"}
    assert got["m.put"] == {"lib.m.make.<return>.put"}
    assert got["mk().run"] == {"lib.m.mk.<return>.run"}
    assert got["m.gone"] == {None}
    inner = _targets(tmp_path, {}, "lib.m.make.<return>.get", ("javascript",))
    assert set().union(*inner.values()) == {"lib.m.make.<return>.put"}


WRAP = ("import { queryOptions } from '@tanstack/react-query';\n"
        "export function createUtils() {\n"
        "  return {\n    queryOptions(k: string) { return queryOptions({ k }); },\n"
        "    fetch(u: string) { return fetch(u); },\n  };\n}\n"
        "export function prefetch() {\n  return { prefetchQuery() { return 1; } };\n}\n"
        "export function user() {\n  queryOptions({});\n  prefetchQuery();\n  createUtils().fetch('u');\n}\n")


def test_a_method_calling_the_outer_name_of_its_key_keeps_the_outer_one(tmp_path):
    # { queryOptions() { return queryOptions(...) } }: the call is the import, never the method itself;
    # such a literal makes no namespace (the resolver would find the key first), and a bare name never
    # guesses a returned literal's method
    got = _targets(tmp_path, {"src/u.ts": WRAP}, "src.u.createUtils")
    assert got["queryOptions"] == {"@tanstack/react-query.queryOptions"}
    assert got["fetch"] == {"js.global.fetch"}
    got = _targets(tmp_path, {}, "src.u.user")
    assert got["prefetchQuery"] == {None}
    assert got["createUtils().fetch"] == {None}


DECLARED = ("export interface Tracker { record(d: number): void }\n"
            "export const track = (): Tracker => {\n"
            "  return {\n    record(d: number) { this.flush(); },\n    flush() {},\n  };\n}\n"
            "export const inPlace = (): { record: (d: number) => void } => {\n"
            "  return {\n    record(d: number) { return d; },\n  };\n}\n"
            "export function use() {\n  track().record(1);\n  inPlace().record(2);\n}\n")


def test_a_declared_return_type_decides_over_the_literal(tmp_path):
    # TypeScript reads a call's value, and ``this`` in the literal, as the declared type: the literal's
    # methods are symbols (their calls are theirs) but no value reaches them
    got = _targets(tmp_path, {"src/t.ts": DECLARED}, "src.t.use")
    assert got["track().record"] == {"src.t.Tracker.record"}
    assert "src.t.inPlace.<return>.record" not in got["inPlace().record"]  # (a name guess may still be made)
    inner = _targets(tmp_path, {}, "src.t.track.<return>.record")
    assert "src.t.track.<return>.flush" not in inner["this.flush"]


CONST = ("export const api = {\n  fetch(u: string) { return fetch(u); },\n};\n"
         "export const ok = {\n  get() { return 1; },\n};\n"
         "export function use() {\n  api.fetch('u');\n  ok.get();\n}\n")


def test_a_const_literal_whose_method_calls_the_outer_name_of_its_key_is_no_namespace(tmp_path):
    # was a self-loop: api.fetch's fetch() bound api.fetch itself; now the runtime's, and api.fetch() unbound
    got = _targets(tmp_path, {"src/c.ts": CONST}, "src.c.use")
    assert got["api.fetch"] == {None}
    assert got["ok.get"] == {"src.c.ok.get"}
    assert set().union(*_targets(tmp_path, {}, "src.c").values()) <= {"js.global.fetch", None}
