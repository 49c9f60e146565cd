"""lore's C and C++ call edges against clangd (Debian's `clangd`), on real projects.

    python benchmarks/langs/c_oracle.py PATH/TO/PROJECT [...] [--sites 400] [--seed 0] [--work DIR]
    python benchmarks/langs/c_oracle.py PATH/TO/LINUX --kernel-subsystem kernel [--json]

clangd reads a ``compile_commands.json``: the project's own when it has one (at its root or in ``build/``, where
lore reads it too), else CMake's
(``cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON`` into the work folder), else one written here (every
``.c``/``.cc``/``.cpp`` file with ``-I`` the include roots: the project root, every ``include``
folder, the file's own folder; ``-std=gnu11`` / ``-std=c++17``). A Linux kernel tree (``Kbuild`` and
``arch/x86``) gets the kernel's own flags (``-nostdinc``, ``arch/x86/include``, ``include/uapi``,
``-D__KERNEL__``, ``-include linux/kconfig.h`` and ``linux/compiler_types.h``) over a written
``generated/autoconf.h`` (``x86_64_defconfig``'s options, :func:`kernel_config`) and the ``asm/`` wrappers of
``asm-generic`` headers (:func:`kernel_generated`); the headers ``make`` generates from tables are missing, and
the sites clangd then cannot answer are counted (``oracle_no_answer``). ``--kernel-subsystem DIR`` measures
one folder of a kernel tree with the headers it is compiled against (a hard-linked copy of ``DIR``,
``include/``, ``arch/x86/include/``), since clangd's index of the whole tree does not fit here; the kernel's
clangd index is kept in the work folder between runs with the same commands. clangd's
background index is on, and the questions wait until it is built (so a call answers with the definition
in another translation unit, not the prototype in a header). A site counts when clangd resolves it inside
the project (see ``benchmarks/langs/harness.py`` for recall and precision). Not run in CI: it takes minutes.

Every row also prints ``recall_decl`` and ``precision_strict_decl``: the same sample with clangd's answers on a
prototype read as the definitions lore bound for it (:func:`declaration_answers`; issue 30 asks for the
definition, clangd answers the prototype when its index lacks it; a macro renaming the function is read as that function),
and ``oracle_prototype``, how many sites were read that way; the plain columns are unchanged.

``--callable`` adds columns that read clangd's answers as what runs (:func:`callable_answers`),
``--answers-from DIR`` reuses the answers a run with ``--work DIR`` saved, and ``--config-in-tree`` puts the
kernel configuration clangd reads into a measured kernel subsystem's copy, for lore to read too.

A construction (lore's ``new`` sites: ``new T(...)``, ``T x(...)``, ``T(...)``) is asked at its opening
parenthesis, where clangd answers the constructor that runs (at the type's name it answers the class):
as the TypeScript oracle keeps the constructor, since lore binds a construction to the constructor that
runs. A class without a declared constructor answers nothing there, and is then asked at its name.

The projects, chosen before the rules were written (issue 30):

* tuned on: ``DaveGamble/cJSON`` (C), ``leethomason/tinyxml2`` (C++), the kernel's ``mm/`` with
  ``include/`` and ``arch/x86/include/`` (C, for ``kfree``), ``redis/hiredis`` and ``lua/lua`` (C); for the
  C++ half of issue 30 also ``google/snappy``, ``open-source-parsers/jsoncpp`` (CMake) and ``fmtlib/fmt``
  (C++), then ``jarro2783/cxxopts``, ``google/re2`` and ``google/double-conversion`` (C++, its third step);
  then ``google/glog``, ``gflags/gflags``, ``google/benchmark`` and ``google/crc32c`` (C++, CMake, its fourth step);
  for the C rules of issue 30's third step also ``akheron/jansson``, ``libevent/libevent``,
  ``google/brotli`` (CMake) and ``facebook/zstd``'s ``lib/`` (C);
* for issue 30's fourth step also ``pnggroup/libpng``, ``richgel999/miniz``, ``tukaani-project/xz`` (CMake),
  ``Cyan4973/xxHash`` (C) and the kernel's ``mm/``;
* for issue 30's fifth step (a project's ``compile_commands.json``): CMake builds into ``build/``
  (``cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON``) of libpng, xz, brotli, jansson, libevent and
  miniz (tuned); the report projects below as they are and, for zlib, lz4 (``-S build/cmake``) and libuv, also
  built that way;
* for issue 30's sixth step (expat-like C, old portable libraries with export and calling-convention macros):
  also ``PCRE2Project/pcre2``, ``json-c/json-c`` and ``libarchive/bzip2`` (CMake into ``build/``), tuned; held out
  as in the fifth step: ``yaml/libyaml``, ``libexpat/libexpat``'s ``expat/`` and ``c-ares/c-ares``;
* for issue 30's C++ round 9 also ``ToruNiina/toml11`` (``single_include/`` removed; CMake with
  ``-DTOML11_PRECOMPILE=ON`` into ``build/``) and ``KjellKod/g3log`` (CMake into ``build/``), tuned; held out:
  ``zxing-cpp/zxing-cpp``, ``ninja-build/ninja``, ``google/leveldb``, ``jbeder/yaml-cpp``;
* for issue 30's C++ round 10 also ``marzer/tomlplusplus`` (``toml.hpp``, tests, examples and tools removed; a
  written ``build/compile_commands.json`` compiling ``src/toml.cpp``), tuned; held out as in round 9;
* reported on (their misses were not read while tuning): ``jqlang/jq``, ``madler/zlib``, ``lz4/lz4`` and
  ``libuv/libuv`` (C), the kernel's ``kernel/`` with ``include/`` and ``arch/x86/include/`` (C,
  ``--kernel-subsystem kernel``), ``google/leveldb`` (C++, CMake), ``jbeder/yaml-cpp`` (C++, CMake).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

from harness import (  # noqa: E402
    Answer,
    LspClient,
    Site,
    ask_lsp,
    cli,
    index_project,
    innermost,
    sample_sites,
    score,
    work_folder,
)

from lore.store import callsites  # noqa: E402

C_SOURCES = (".c",)
CPP_SOURCES = (".cc", ".cpp", ".cxx", ".c++")
SKIP_DIRS = {".git", ".lore", ".cache", "build", "node_modules"}


def ensure_tools() -> None:
    """clangd (and cmake) from Debian when missing."""
    missing = [pkg for pkg, exe in (("clangd", "clangd"), ("cmake", "cmake")) if shutil.which(exe) is None]
    if missing:
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=False)


def is_kernel(root: Path) -> bool:
    return (root / "Kbuild").exists() and (root / "arch" / "x86").is_dir()


def _sources(root: Path) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if any(part in SKIP_DIRS for part in rel) or not p.is_file():
            continue
        if p.suffix.lower() in C_SOURCES + CPP_SOURCES:
            out.append(p)
    return out


# Always on in an x86_64 build, whatever the defconfig lists (Kconfig defaults it does not repeat).
KERNEL_BASE_CONFIG = {"CONFIG_X86": "1", "CONFIG_X86_64": "1", "CONFIG_64BIT": "1", "CONFIG_MMU": "1",
                      "CONFIG_SLUB": "1", "CONFIG_NR_CPUS": "64", "CONFIG_HZ": "1000", "CONFIG_PGTABLE_LEVELS": "4",
                      "CONFIG_GENERIC_BUG": "1", "CONFIG_GENERIC_HWEIGHT": "1", "CONFIG_ARCH_HAS_FAST_MULTIPLIER": "1",
                      "CONFIG_X86_L1_CACHE_SHIFT": "6", "CONFIG_PHYSICAL_START": "0x1000000",
                      "CONFIG_PHYSICAL_ALIGN": "0x200000", "CONFIG_PAGE_OFFSET": "0xffff888000000000",
                      "CONFIG_ILLEGAL_POINTER_VALUE": "0xdead000000000000"}


def kernel_config(root: Path) -> str:
    """``generated/autoconf.h`` for a default x86_64 build: ``arch/x86/configs/x86_64_defconfig`` (``=y`` as
    1, ``=m`` as ``_MODULE``, values as they are) over the options every x86_64 build has. The real one is
    generated by ``make defconfig``; this tree is not configured, so options that only Kconfig's defaults turn
    on are missing (the oracle then reads the ``#else`` branch, as lore does)."""
    config = dict(KERNEL_BASE_CONFIG)
    defconfig = root / "arch" / "x86" / "configs" / "x86_64_defconfig"
    lines = defconfig.read_text(errors="replace").splitlines() if defconfig.exists() else []
    for line in lines:
        m = re.match(r"(CONFIG_\w+)=(.*)$", line.strip())
        if not m:
            continue
        name, value = m.groups()
        if value == "y":
            config[name] = "1"
        elif value == "m":
            config[name + "_MODULE"] = "1"
        elif value != "n":
            config[name] = value
    return "".join(f"#define {k} {v}\n" for k, v in sorted(config.items()))


def _kbuild_names(path: Path, kinds: tuple[str, ...]) -> list[str]:
    if not path.exists():
        return []
    return re.findall(rf"^(?:{'|'.join(kinds)})\s*\+=\s*(\S+\.h)", path.read_text(errors="replace"), re.M)


def kernel_generated(root: Path, gen: Path) -> None:
    """What ``make`` would generate for the include paths and is cheap to write: ``generated/autoconf.h``
    (:func:`kernel_config`) and the ``asm/`` wrappers of ``asm-generic`` headers x86 does not have
    (``generic-y`` of ``arch/x86/include/asm/Kbuild``, ``mandatory-y`` of ``include/asm-generic/Kbuild``; the
    same for ``uapi``). Headers generated from tables (``asm-offsets.h``, ``bounds.h``, the syscall lists) are
    not written: the sites that need them are counted as ones clangd does not resolve."""
    (gen / "generated").mkdir(parents=True, exist_ok=True)
    (gen / "generated" / "autoconf.h").write_text(kernel_config(root))
    for sub, arch_kbuild, generic_kbuild in (
            ("", "arch/x86/include/asm/Kbuild", "include/asm-generic/Kbuild"),
            ("uapi", "arch/x86/include/uapi/asm/Kbuild", "include/uapi/asm-generic/Kbuild")):
        arch_dir = root / "arch" / "x86" / "include" / sub / "asm"
        names = _kbuild_names(root / arch_kbuild, ("generic-y",))
        names += [n for n in _kbuild_names(root / generic_kbuild, ("mandatory-y",)) if not (arch_dir / n).exists()]
        out = gen / sub / "asm"
        out.mkdir(parents=True, exist_ok=True)
        for name in sorted(set(names)):
            (out / name).write_text(f"#include <asm-generic/{name}>\n")


def _kernel_commands(root: Path, work: Path) -> list[dict]:
    gen = work / f"{root.name}-generated"
    kernel_generated(root, gen)
    flags = ["-nostdinc", "-std=gnu11", "-D__KERNEL__", "-fno-builtin", "-I", str(root / "arch/x86/include"),
             "-I", str(gen), "-I", str(root / "arch/x86/include/uapi"), "-I", str(gen / "uapi"),
             "-I", str(root / "include"), "-I", str(root / "include/uapi"),
             "-include", str(root / "include/linux/kconfig.h"),
             "-include", str(root / "include/linux/compiler_types.h")]
    out = []
    for p in _sources(root):
        rel = p.relative_to(root).parts
        if rel[0] == "arch" and (len(rel) < 2 or rel[1] != "x86"):
            continue
        if rel[0] in ("tools", "scripts", "samples", "Documentation", "usr"):
            continue
        out.append({"directory": str(root), "file": str(p), "arguments": ["clang", *flags, "-I", str(p.parent), "-c", str(p)]})
    return out


def kernel_subsystem(kernel: Path, sub: str, work: Path, *, config_in_tree: bool = False) -> Path:
    """A tree of the kernel's ``sub`` folder (e.g. ``mm``, ``kernel``, ``lib``) with the headers it is compiled
    against (``include/``, ``arch/x86/include/``, ``Kbuild``), hard-linked into ``work`` so that lore and clangd
    both read it as a project of its own (the whole kernel is too large for clangd's index here).

    ``config_in_tree``: the copy also holds the configuration clangd reads (``include/generated/autoconf.h``,
    :func:`kernel_config`), as a configured tree does after ``make defconfig``, so that lore reads the same
    options; without it the copy is unconfigured (the file is removed if an earlier run wrote it)."""
    out = work / f"linux-{sub.strip('/').replace('/', '-')}"
    _kernel_copy(kernel, sub, out)
    config = out / "include" / "generated" / "autoconf.h"
    if config_in_tree:
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(kernel_config(kernel))
    elif config.exists():
        config.unlink()
    return out


def _kernel_copy(kernel: Path, sub: str, out: Path) -> None:
    if not out.exists():
        for part in ("Kbuild", "include", "arch/x86/include", "arch/x86/configs", sub.strip("/")):
            src, dst = kernel / part, out / part
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                subprocess.run(["cp", "-al", str(src), str(dst)], check=True)
            elif src.exists():
                shutil.copy2(src, dst)


def _written_commands(root: Path) -> list[dict]:
    includes = [root] + sorted(d for d in root.rglob("include") if d.is_dir() and not (SKIP_DIRS & set(d.relative_to(root).parts)))
    out = []
    for p in _sources(root):
        cpp = p.suffix.lower() in CPP_SOURCES
        flags = ["clang++" if cpp else "clang", "-std=c++17" if cpp else "-std=gnu11"]
        for d in [p.parent, *includes]:
            flags += ["-I", str(d)]
        out.append({"directory": str(root), "file": str(p), "arguments": [*flags, "-c", str(p)]})
    return out


def compile_commands(root: Path, work: Path) -> Path:
    """The folder holding the ``compile_commands.json`` clangd reads for ``root``."""
    for own in (root, root / "build"):  # the project's own database (lore reads the same one)
        if (own / "compile_commands.json").is_file():
            return own
    folder = work / f"{root.name}-cc"
    if is_kernel(root):
        commands = _kernel_commands(root, work)
        written = folder / "compile_commands.json"
        if written.exists() and json.loads(written.read_text()) == commands:
            return folder  # the same commands: clangd's index of the last run (``.cache``) is still good
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    else:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        if (root / "CMakeLists.txt").exists() and shutil.which("cmake"):
            got = subprocess.run(["cmake", "-S", str(root), "-B", str(folder), "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                                  "-DCMAKE_BUILD_TYPE=Debug"], capture_output=True, text=True)
            if got.returncode == 0 and (folder / "compile_commands.json").exists():
                return folder
        commands = _written_commands(root)
    (folder / "compile_commands.json").write_text(json.dumps(commands))
    return folder


def wait_for_index(client: LspClient, ccdir: Path, first: str, *, quiet: float = 20.0, limit: float = 3600.0) -> None:
    """Open ``first`` (clangd loads the compilation database, and starts its background index, on the first
    file it sees), then wait until the index (``.cache/clangd/index`` beside the database) stops growing."""
    client.open(first)
    index = ccdir / ".cache" / "clangd" / "index"
    start = last_change = time.monotonic()
    count = -1
    while time.monotonic() - start < limit:
        time.sleep(5)
        n = len(list(index.glob("*"))) if index.is_dir() else 0
        if n != count:
            count, last_change = n, time.monotonic()
        elif n and time.monotonic() - last_change > quiet:
            return


def paren_position(root: Path, site: Site, pos: tuple[int, int]) -> tuple[int, int] | None:
    """The opening parenthesis of a construction whose type name is at ``pos``: ``T(``, ``T<A>(``, ``T x(``."""
    try:
        text = (root / site.path).read_text(encoding="utf-8", errors="replace").splitlines()[pos[0]]
    except (OSError, IndexError):
        return None
    i = pos[1]
    while i < len(text) and (text[i].isalnum() or text[i] == "_"):
        i += 1
    if text[i:].lstrip().startswith("<"):  # template arguments
        i = text.index("<", i)
        depth = 0
        for j in range(i, len(text)):
            depth += {"<": 1, ">": -1}.get(text[j], 0)
            if depth == 0:
                i = j + 1
                break
        else:
            return None
    rest = text[i:]
    m = re.match(r"\s*(?:[A-Za-z_]\w*\s*)?\(", rest)  # T x( or T(
    return (pos[0], i + m.end() - 1) if m else None


def ask_clangd(client: LspClient, root: Path, sites: list[Site]) -> dict[Site, Answer]:
    """Each site's definition places: a call at its name, a construction at its parenthesis (see above)."""
    return ask_lsp(client, root, sites, first=lambda site, pos: paren_position(root, site, pos)
                   if site.kind == "new" else None)


def _own_flags(argv: list[str] | None) -> tuple[list[str], bool, Path | None, bool, list[str]]:
    """This script's flags beside the shared ones of ``harness.cli``: ``--kernel-subsystem DIR`` (repeatable)
    measures a kernel tree's ``DIR`` with its headers (:func:`kernel_subsystem`) instead of the whole tree;
    ``--config-in-tree`` puts the kernel configuration clangd reads into that copy, for lore to read too;
    ``--answers-from DIR`` reuses the clangd answers a run with ``--work DIR`` saved (:func:`_load_answers`);
    ``--callable`` adds the columns of :func:`callable_answers` to each row."""
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--kernel-subsystem", action="append", default=[])
    parser.add_argument("--config-in-tree", action="store_true")
    parser.add_argument("--answers-from", type=Path, default=None)
    parser.add_argument("--callable", action="store_true")
    own, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    return own.kernel_subsystem, own.config_in_tree, own.answers_from, own.callable, rest


def _line(root: Path, path: str, line: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else ""


def callable_answers(root: Path, db: Path, sites: list[Site], answers: dict[Site, Answer]) -> tuple[dict, Counter]:
    """clangd's answers read as definitions of what runs (the ``callable`` columns, beside the plain ones):

    * an answer inside the project on a line where lore's innermost definition is not named like the callee and
      the callee's name is not followed by ``(`` is a field, parameter or variable holding a function
      (``pZip->m_pFree(...)``, ``read_callback(...)``; the harness would map it onto the struct or function
      around it) or an object-like macro (``#define log evdns_log_``, no symbol in lore): no definition runs
      there, so the site leaves recall's count (``oracle_field``), and a lore binding there still counts against
      precision;
    * an answer on a prototype of the callee (``XXH32_reset(...);`` in ``xxhash.h``, a ``;`` before any ``{``:
      clangd answers a declaration when its index lacks the definition) agrees with lore's binding to a definition of that name
      in the same file, or a non-``static`` one elsewhere (``oracle_declaration``)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        edges = callsites.call_site_edges(conn, ("c", "cpp"))
        inside = callsites.indexed_paths(conn)
        spans: dict[str, list] = {}
        texts: dict[str, list[str]] = {}

        def spans_of(path: str) -> list:
            if path not in spans:
                spans[path] = callsites.definition_spans(conn, path)
            return spans[path]

        targets: dict[tuple, list[tuple[str, int]]] = {}
        for e in edges:
            if e.callee_id is not None and e.callee_path:
                sp = next((x for x in spans_of(e.callee_path) if x.id == e.callee_id), None)
                if sp is not None:
                    targets.setdefault((e.path, e.line, e.col, e.callee_name), []).append((e.callee_path, sp.start_line))
        counts: Counter = Counter()
        out: dict[Site, Answer] = {}
        for site in sites:
            ans = answers.get(site)
            word = re.findall(r"[A-Za-z_]\w*", site.callee)
            if ans is None or ans.error or not ans.places or not word:
                if ans is not None:
                    out[site] = ans
                continue
            name = word[-1]
            lore = targets.get((site.path, site.line, site.col, site.callee), [])
            places: list[tuple[str, int]] = []
            kinds = set()
            for path, line in ans.places:
                if path not in inside:  # outside the project: as it is
                    places.append((path, line))
                    continue
                sp = innermost(spans_of(path), line)
                if sp is not None and sp.qualified_name.rsplit(".", 1)[-1] in (name, "<init>"):
                    places.append((path, line))
                    continue
                text = _line(root, path, line, texts)
                if re.search(rf"\b{re.escape(name)}\s*,?\s*\(", text):  # a function's line (PNG_FUNCTION(t, f,(...)))
                    after = " ".join(_line(root, path, k, texts) for k in range(line, line + 4))
                    after = after[after.find(name):]
                    prototype = ";" in after and ("{" not in after or after.index(";") < after.index("{"))
                    if prototype and (sp is None or sp.kind in ("class", "struct")) and lore and all(
                            t[0] == path or not _line(root, *t, texts).lstrip().startswith("static") for t in lore):
                        kinds.add("oracle_declaration")
                        places.extend(lore)
                    else:
                        places.append((path, line))
                    continue
                kinds.add("oracle_field")
                places.append(("<not a definition>", 0))
            counts.update(kinds if len(kinds) == 1 else ())
            out[site] = Answer(places=places)
        return out, counts
    finally:
        conn.close()


def _prototype_at(root: Path, path: str, line: int, name: str, texts: dict[str, list[str]]) -> bool:
    """Whether ``path:line`` declares ``name`` without a body: a ``;`` after the name before any ``{``."""
    after = " ".join(_line(root, path, k, texts) for k in range(line, line + 4))
    at = after.find(name)
    if at < 0 or not re.match(rf"{re.escape(name)}\s*,?\s*\(", after[at:]):
        return False
    after = after[at:]
    return ";" in after and ("{" not in after or after.index(";") < after.index("{"))


def _renaming_macro_at(root: Path, path: str, line: int, name: str, texts: dict[str, list[str]]) -> bool:
    """Whether ``path:line`` is ``#define name <text naming name>``: a namespace-like macro that renames a function
    at its calls and at its definition alike (xz's ``#define tuklib_wraps TUKLIB_SYMBOL(tuklib_wraps)``)."""
    m = re.match(rf"\s*#\s*define\s+{re.escape(name)}\s+(.*)", _line(root, path, line, texts))
    return m is not None and re.search(rf"\b{re.escape(name)}\b", m.group(1)) is not None


def declaration_answers(root: Path, db: Path, sites: list[Site], answers: dict[Site, Answer]) -> tuple[dict, int]:
    """clangd's answers with a prototype read as the definitions lore bound for it (the ``decl`` columns).

    Issue 30 asks a call to bind to the project's definition of a global name, not to a header's prototype;
    clangd answers the prototype when its index lacks the definition (a file no command compiles: minizip in
    zlib's CMake build, lz4's fuzzers). Where clangd's place is a prototype of the callee (a ``;`` after the name
    before any ``{``) and every lore binding is a definition of that name (in the prototype's file, or not
    ``static``: what the linker could join), the answer is taken as lore's bindings; so is an answer on a macro that
    renames the callee at its calls and its definition alike (:func:`_renaming_macro_at`: clangd answers the
    macro, the function so renamed is what runs). Returns the answers and how
    many sites were read that way. Everything else is as clangd answered."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = {r[0]: r[1:] for r in conn.execute(
            "SELECT s.id, f.path, s.start_line, s.name FROM symbols s JOIN files f ON f.id = s.file_id")}
    finally:
        conn.close()
    texts: dict[str, list[str]] = {}
    out: dict[Site, Answer] = dict(answers)
    changed = 0
    for site in sites:
        ans = answers.get(site)
        word = re.findall(r"[A-Za-z_]\w*", site.callee)
        if ans is None or ans.error or not ans.places or not word or not site.targets:
            continue
        name = word[-1]
        lore = [rows[t] for t in site.targets if t in rows]
        if not lore or any(r[2] != name for r in lore):
            continue
        protos = [(p, ln) for p, ln in ans.places if not p.startswith("/") and (
            _prototype_at(root, p, ln, name, texts) or _renaming_macro_at(root, p, ln, name, texts))]
        if not protos or len(protos) != len(ans.places):
            continue
        if any(_prototype_at(root, r[0], r[1], name, texts) for r in lore):
            continue  # lore bound a prototype itself: nothing to read differently
        if not all(r[0] in {p for p, _ in protos} or not _line(root, r[0], r[1], texts).lstrip().startswith("static")
                   for r in lore):
            continue
        out[site] = Answer(places=[(r[0], r[1]) for r in lore])
        changed += 1
    return out, changed


def unanswered(answers: dict[Site, Answer]) -> int:
    """Sites clangd answered with no place at all (in the kernel: mostly a generated header it lacks)."""
    return sum(1 for a in answers.values() if not a.error and not a.places)


def _site_key(site: Site) -> str:
    return f"{site.path}:{site.line}:{site.col}:{site.kind}:{site.callee}"


def _load_answers(folder: Path | None, root: Path) -> dict[str, Answer]:
    """clangd's answers of an earlier run (``--answers-from DIR``: its ``<project>.answers.json``), so that a
    rerun after a change to lore asks clangd only about the sites it has not answered (the project unchanged)."""
    path = folder / f"{root.name}.answers.json" if folder is not None else None
    if path is None or not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {k: Answer(places=[tuple(p) for p in v["places"]], error=v["error"]) for k, v in data.items()}


def _save_answers(path: Path, root: Path, answers: dict[Site, Answer]) -> None:
    path.write_text(json.dumps({_site_key(s): {"places": a.places, "error": a.error} for s, a in answers.items()}))


def main(argv: list[str] | None = None) -> None:
    ensure_tools()
    subsystems, config_in_tree, answers_from, read_callable, rest = _own_flags(argv)
    args = cli(__doc__.splitlines()[0], rest)
    work = work_folder(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    roots = []
    for project in args.projects:
        if subsystems and is_kernel(project.resolve()):
            roots += [kernel_subsystem(project.resolve(), sub, work, config_in_tree=config_in_tree)
                      for sub in subsystems]
        else:
            roots.append(project.resolve())
    for root in roots:
        db = index_project(root, work / f"{root.name}.db")
        sites = sample_sites(db, ("c", "cpp"), n=args.sites, seed=args.seed)
        cache = _load_answers(answers_from, root)
        answers = {s: cache[_site_key(s)] for s in sites if _site_key(s) in cache}
        todo = [s for s in sites if s not in answers]
        if todo:
            ccdir = compile_commands(root, work)
            client = LspClient(["clangd", f"--compile-commands-dir={ccdir}", "--background-index", "-j=2",
                                "--log=error", "--pch-storage=memory"], root, language_id="cpp", timeout=300)
            try:
                wait_for_index(client, ccdir, todo[0].path)
                answers.update(ask_clangd(client, root, todo))
            finally:
                client.close()
        _save_answers(work / f"{root.name}.answers.json", root, answers)
        rep = score(root.name, root, db, sites, answers)
        row = {**rep.row(), "oracle_no_answer": unanswered(answers)}
        # the same sample with clangd's prototype answers read as the definitions lore bound (issue 30 wants the
        # definition; clangd answers a prototype when its index lacks it), beside the plain columns
        decl, n_decl = declaration_answers(root, db, sites, answers)
        alt_decl = score(root.name, root, db, sites, decl).row()
        row.update({"recall_decl": alt_decl["recall"], "precision_strict_decl": alt_decl["precision_strict"],
                    "oracle_prototype": n_decl})
        if read_callable:
            fixed, counts = callable_answers(root, db, sites, answers)
            alt = score(root.name, root, db, sites, fixed).row()
            row.update({"recall_callable": alt["recall"], "precision_strict_callable": alt["precision_strict"],
                        **{k: counts.get(k, 0) for k in ("oracle_field", "oracle_declaration")}})
        print(json.dumps(row) if args.json else "\n".join([json.dumps(row), *rep.table(args.examples).splitlines()[1:]]),
              flush=True)


if __name__ == "__main__":
    main()
