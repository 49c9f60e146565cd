"""C as the compiler and linker see it: ``<linux/x.h>`` on the include search path, a call bound to the
project's non-``static`` definitions of its name (all of them, as alternatives), ``static`` kept file-local,
calls through function-pointer fields left unresolved, and kernel macro forms that no longer break a file."""

from __future__ import annotations

from pathlib import Path

from lore.index import index_repo
from lore.store.schema import CONFIDENCE

FILES = {
    "include/linux/slab.h": "#ifndef _SLAB_H\n#define _SLAB_H\nvoid kfree(const void *objp);\n"
                            "static inline void *kzalloc(unsigned long size) { return 0; }\n#endif\n",
    "tools/include/linux/slab.h": "static inline void kfree(void *p) { }\n",  # the tools' own copy: not on the path
    "mm/slab_common.c": "#include <linux/slab.h>\nvoid kfree(const void *object)\n{\n}\nEXPORT_SYMBOL(kfree);\n",
    "mm/slob.c": "#include <linux/slab.h>\nvoid kfree(const void *block)\n{\n}\nEXPORT_SYMBOL(kfree);\n",
    "fs/open.c": "#include <linux/slab.h>\n"
                 "static int __init setup(char __user *p, struct file_operations *ops)\n"
                 "{\n\tops->release(p);\n\treturn 0;\n}\n"
                 "SYSCALL_DEFINE1(close, unsigned int, fd)\n{\n\tvoid *p = kzalloc(8);\n\tkfree(p);\n\treturn 0;\n}\n",
    "drivers/a.c": "static void cleanup(void) { }\nvoid do_thing(void) { cleanup(); }\n",
    "drivers/b.c": "static void cleanup(void) { }\nint probe(void) { do_thing(); cleanup(); return 0; }\n",
    "drivers/c.c": "int other(void) { cleanup(); return 0; }\n",
}


def _index_refs(tmp_path: Path, files: dict[str, str]) -> tuple[dict, list[dict]]:
    """Write ``files``, index them, and read back (the symbol table, the call edges)."""
    from lore.api import open_index
    from lore.bench._data import symbol_table

    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    index_repo(tmp_path, workers=1)
    with open_index(tmp_path / ".lore" / "index.db", readonly=True) as idx:
        return symbol_table(idx), idx.edges("symbol_refs")


def _edges(tmp_path: Path) -> tuple[set[tuple[str, str, str, float]], set[str]]:
    table, refs = _index_refs(tmp_path, FILES)
    bound = {(table[e["caller_id"]][2], table[e["callee_id"]][2], e["resolution"], round(e["confidence"], 3))
             for e in refs if e["callee_id"] is not None}
    unresolved = {f"{table[e['caller_id']][2]} {e['callee_name']}" for e in refs if e["callee_id"] is None}
    return bound, unresolved


def test_kernel_style_linkage(tmp_path):
    bound, unresolved = _edges(tmp_path)
    half = round(CONFIDENCE["import"] / 2, 3)
    # <linux/slab.h> is include/linux/slab.h; its prototype stands for both configurations' definitions
    assert ("fs.open.close", "mm.slab_common.kfree", "import", half) in bound
    assert ("fs.open.close", "mm.slob.kfree", "import", half) in bound
    assert not any(c == "fs.open.close" and t.startswith("tools.") for c, t, _r, _c in bound)
    assert ("fs.open.close", "include.linux.slab.kzalloc", "import", 1.0) in bound  # static inline in the header
    # no prototype in sight: the linker's answer, the one non-static definition of the name
    assert ("drivers.b.probe", "drivers.a.do_thing", "global_linkage", CONFIDENCE["global_linkage"]) in bound
    # static stays file-local: each file's own cleanup, and none for a file that has none
    assert ("drivers.b.probe", "drivers.b.cleanup", "module_global", 1.0) in bound
    assert ("drivers.a.do_thing", "drivers.a.cleanup", "module_global", 1.0) in bound
    assert not any(c == "drivers.c.other" for c, _t, _r, _c in bound)
    assert "drivers.c.other cleanup" in unresolved
    # a call through a function-pointer field is unresolved, never guessed by name
    assert "fs.open.setup ops.release" in unresolved


def test_kernel_macro_forms_parse(tmp_path):
    """``__init``, ``__user``, ``SYSCALL_DEFINE1(close, ...)`` and ``EXPORT_SYMBOL(x);`` leave no syntax error."""
    from lore.languages.c import _parser

    for rel in ("fs/open.c", "mm/slab_common.c"):
        pf = _parser.parse(rel, FILES[rel].encode(), rel[:-2].replace("/", "."))
        assert pf.syntax_errors == 0, rel
    names = {s.name for s in _parser.parse("fs/open.c", FILES["fs/open.c"].encode(), "fs.open").symbols}
    assert {"setup", "close"} <= names


def test_header_definitions_out_of_reach_are_no_candidates(tmp_path):
    """A macro or ``static inline`` function in a header the file never includes is not what it calls; with
    nothing else of that name the call stays unresolved (not an error)."""
    files = {
        "vendor/compat.h": "#define jv_copy(x) (x)\nstatic inline int only_here(int a) { return a; }\n"
                           "static inline int twice(int a) { return a; }\n",
        "other/twice.h": "static inline int twice(int a) { return 2 * a; }\n",
        "src/jv.h": "int jv_copy(int x);\n",
        "src/jv.c": '#include "jv.h"\nint jv_copy(int x) { return x; }\n',
        "src/main.c": '#include "jv.h"\nint main(void) { return jv_copy(1) + twice(2) + missing(3); }\n',
    }
    table, edges = _index_refs(tmp_path, files)
    refs = [(table[e["callee_id"]][2] if e["callee_id"] is not None else None, e["callee_name"], e["resolution"])
            for e in edges if table[e["caller_id"]][2] == "src.main.main"]
    assert sorted(refs, key=str) == sorted([("src.jv.jv_copy", "jv_copy", "import"), (None, "twice", "unresolved"),
                                            (None, "missing", "unresolved")], key=str)


def _callees(tmp_path: Path, files: dict[str, str], caller: str) -> set[tuple[str | None, str, str]]:
    table, edges = _index_refs(tmp_path, files)
    return {(table[e["callee_id"]][2] if e["callee_id"] is not None else None, e["callee_name"], e["resolution"])
            for e in edges if table[e["caller_id"]][2] == caller}


def test_default_build_branch_is_chosen(tmp_path):
    """Definitions under ``#ifdef _WIN32`` and their ``#else`` are not alternatives: a default build (Linux) compiles
    the ``#else`` one, as clangd answers; a macro defined only for Windows is not what a Linux call expands."""
    files = {
        "alloc.h": "#ifndef ALLOC_H\n#define ALLOC_H\n#ifndef _WIN32\n"
                   "static inline void hi_free(void *p) { }\n#else\nvoid hi_free(void *p);\n#endif\n#endif\n",
        "alloc.c": '#include "alloc.h"\n#ifdef _WIN32\nvoid hi_free(void *p) { }\n#endif\n',
        "compat.h": "#if defined(_WIN32) || defined(__APPLE__)\n#define close(fd) win32_close(fd)\n"
                    "int win32_close(int fd);\n#endif\n",
        "main.c": '#include "alloc.h"\n#include "compat.h"\nint main(void) { hi_free(0); close(1); return 0; }\n',
    }
    got = _callees(tmp_path, files, "main.main")
    assert ("alloc.hi_free", "hi_free", "import") in got
    assert {t for t, n, _r in got if n == "hi_free"} == {"alloc.hi_free"}
    assert all(t is None for t, n, _r in got if n == "close")
    # the Windows definition is still a symbol a reader finds
    table, _edges = _index_refs(tmp_path, files)
    assert sum(1 for row in table.values() if row[2] == "alloc.hi_free") == 2


def test_undecided_branches_stay_alternatives(tmp_path):
    """``#ifdef USE_JEMALLOC`` depends on the build (a config header defines it, included by some builds): both
    definitions are kept, each an alternative."""
    files = {
        "config.h": "#define USE_JEMALLOC 1\n#define HAVE_ALT 1\n",
        "zmalloc.h": "void zfree(void *p);\n",
        "zmalloc.c": '#include "zmalloc.h"\n#ifdef HAVE_CONFIG_H\n#include "config.h"\n#endif\n'
                     '#ifdef USE_JEMALLOC\nvoid zfree(void *p) { je_free(p); }\n'
                     "#else\nvoid zfree(void *p) { }\n#endif\n",
        "zmalloc_alt.c": '#include "zmalloc.h"\n#if HAVE_ALT\nvoid zfree(void *p) { }\n#endif\n',
        "main.c": '#include "zmalloc.h"\nint main(void) { zfree(0); return 0; }\n',
    }
    table, edges = _index_refs(tmp_path, files)
    ids = {e["callee_id"] for e in edges if table[e["caller_id"]][2] == "main.main"}
    assert sorted(table[i][2] for i in ids) == ["zmalloc.zfree", "zmalloc.zfree", "zmalloc_alt.zfree"]


def test_other_platform_files_are_not_alternatives(tmp_path):
    """``src/unix/core.c`` and ``src/win/core.c`` both define ``uv_run``; a Linux build compiles the first."""
    files = {
        "include/uv.h": "int uv_run(void *loop);\n",
        "src/unix/core.c": "#include <uv.h>\nint uv_run(void *loop) { return 0; }\n",
        "src/win/core.c": "#include <uv.h>\nint uv_run(void *loop) { return 1; }\n",
        "src/unix/darwin.c": "#include <uv.h>\nint uv_run(void *loop) { return 2; }\n",
        "test/run.c": "#include <uv.h>\nint main(void) { return uv_run(0); }\n",
    }
    got = _callees(tmp_path, files, "test.run.main")
    assert got == {("src.unix.core.uv_run", "uv_run", "import")}


def test_include_search_starts_at_the_nearest_include_folder(tmp_path):
    """``tools/lib/slab.c`` includes ``<linux/slab.h>`` as the tools' build does, from ``tools/include``: its
    ``kfree`` implements that header's declaration, not the kernel's, so kernel callers never bind to it."""
    files = {
        "include/linux/slab.h": "void kfree(const void *objp);\n",
        "tools/include/linux/slab.h": "void kfree(void *p);\n",
        "mm/slab_common.c": "#include <linux/slab.h>\nvoid kfree(const void *object) { }\n",
        "mm/slob.c": "#include <linux/slab.h>\nvoid kfree(const void *block) { }\n",
        "tools/lib/slab.c": "#include <linux/slab.h>\nvoid kfree(void *p) { }\n",
        "fs/open.c": "#include <linux/slab.h>\nint f(void) { kfree(0); return 0; }\n",
        "tools/perf/x.c": "#include <linux/slab.h>\nint g(void) { kfree(0); return 0; }\n",
    }
    got = _callees(tmp_path, files, "fs.open.f")
    assert {t for t, _n, _r in got} == {"mm.slab_common.kfree", "mm.slob.kfree"}
    got = _callees(tmp_path, files, "tools.perf.x.g")
    assert {t for t, _n, _r in got} == {"tools.lib.slab.kfree"}


def test_more_kernel_forms_parse():
    """An ``#ifdef`` among initializer fields, an ``else`` closed inside ``#if 0``, a top-level macro statement
    without ``;``, a named variadic ``#define`` parameter, a loop macro of any name and a multi-word type as a
    macro argument leave no syntax error; a prototype whose return type is on the line before stays a symbol."""
    from lore.languages.c import _parser

    src = ("#define dprintk(fmt, args...) printk(fmt, ##args)\n"
           "struct page *\nalloc_thing(int order,\n\t    int node);\n"
           "static int probe(int a, int b)\n{\n\tint n = min_t(unsigned int, a, b);\n"
           "\tskb_queue_walk_safe(q, skb, tmp) {\n\t\tn++;\n\t}\n"
           "#if 0\n\tif (a) {\n\t\tn = 2;\n\t} else\n#endif\n\tif (b)\n\t\tn = 3;\n\treturn n;\n}\n"
           "static struct pci_driver drv = {\n\t.probe = probe,\n#ifdef CONFIG_PM_SLEEP\n"
           "\t.driver = {\n\t\t.pm = &pm_ops,\n\t},\n#endif\n\t.name = \"x\",\n};\n"
           "module_platform_driver(drv)\n\nMODULE_LICENSE(\"GPL\");\n")
    pf = _parser.parse("drivers/x.c", src.encode(), "drivers.x")
    assert pf.syntax_errors == 0
    assert {"probe", "alloc_thing", "dprintk"} <= {s.name for s in pf.symbols}
    assert {"min_t", "skb_queue_walk_safe"} <= {c.callee for c in pf.calls}


def test_same_file_definition_of_the_default_build(tmp_path):
    """One file defines ``g`` under ``#ifndef _WIN32`` and again under ``#else``: its own call binds the first."""
    files = {"n.c": "#ifndef _WIN32\nstatic int g(void) { return 1; }\n#else\nstatic int g(void) { return 2; }\n"
                    "#endif\nint use(void) { return g(); }\n"}
    table, edges = _index_refs(tmp_path, files)
    lines = [table[e["callee_id"]][5] for e in edges if e["callee_name"] == "g"]
    assert lines == [2]


def test_flags_no_file_defines_are_undefined(tmp_path):
    """``#if defined(USE_APICHECK)`` where no file defines ``USE_APICHECK``: a default build (no ``-D``) takes the
    ``#else``; ``HAVE_ALT``, which ``config.h`` defines, stays undecided (both alternatives kept)."""
    files = {
        "config.h": "#define HAVE_ALT 1\n",
        "api.h": "#if defined(USE_APICHECK)\n#define api_check(e) assert(e)\n#else\n#define api_check(e) ((void)0)\n"
                 "#endif\n#ifdef HAVE_ALT\n#define alt(x) (x)\n#else\n#define alt(x) (0)\n#endif\n",
        "main.c": '#include "api.h"\nint main(void) { api_check(1); return alt(2); }\n',
        "alt.c": '#ifdef HAVE_CONFIG_H\n#include "config.h"\n#endif\n',  # some builds include it
    }
    table, edges = _index_refs(tmp_path, files)
    got = sorted((e["callee_name"], table[e["callee_id"]][5]) for e in edges if e["callee_id"] is not None)
    assert got == [("alt", 7), ("alt", 9), ("api_check", 4)]


def test_declaration_out_of_reach_is_the_one_first_on_the_search_path(tmp_path):
    """A file that reaches ``kfree``'s declaration through headers the include closure does not follow (here: none)
    binds to the definitions of the declaration first on the search path, not to ``tools/``'s copy."""
    files = {
        "include/linux/slab.h": "void kfree(const void *objp);\n",
        "tools/include/linux/slab.h": "void kfree(void *p);\n",
        "mm/slab_common.c": "#include <linux/slab.h>\nvoid kfree(const void *object) { }\n",
        "mm/slob.c": "#include <linux/slab.h>\nvoid kfree(const void *block) { }\n",
        "tools/lib/slab.c": "#include <linux/slab.h>\nvoid kfree(void *p) { }\n",
        "drivers/x.c": "int f(void) { kfree(0); return 0; }\n",
    }
    got = _callees(tmp_path, files, "drivers.x.f")
    assert {t for t, _n, _r in got} == {"mm.slab_common.kfree", "mm.slob.kfree"}
