"""lore's C and C++ call edges against clangd (Debian's `clangd`), on real projects.

    python benchmarks/langs/c_oracle.py PATH/TO/PROJECT [...] [--sites 400] [--seed 0] [--work DIR]

clangd reads a ``compile_commands.json``: the project's own when it has one, else CMake's
(``cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON`` into the work folder), else one written here (every
``.c``/``.cc``/``.cpp`` file with ``-I`` the include roots: the project root, every ``include``
folder, the file's own folder; ``-std=gnu11`` / ``-std=c++17``). A Linux kernel tree (``Kbuild`` and
``arch/x86``) gets the kernel's own flags (``-nostdinc``, ``arch/x86/include``, ``include/uapi``,
``-D__KERNEL__``, ``-include linux/kconfig.h`` over an empty ``generated/autoconf.h``). clangd's
background index is on, and the questions wait until it is built (so a call answers with the definition
in another translation unit, not the prototype in a header). A site counts when clangd resolves it inside
the project (see ``benchmarks/langs/harness.py`` for recall and precision). Not run in CI: it takes minutes.

A construction (lore's ``new`` sites: ``new T(...)``, ``T x(...)``, ``T(...)``) is asked at its opening
parenthesis, where clangd answers the constructor that runs (at the type's name it answers the class):
as the TypeScript oracle keeps the constructor, since lore binds a construction to the constructor that
runs. A class without a declared constructor answers nothing there, and is then asked at its name.

The projects, chosen before the rules were written (issue 30):

* tuned on: ``DaveGamble/cJSON`` (C), ``leethomason/tinyxml2`` (C++), the kernel's ``mm/`` with
  ``include/`` and ``arch/x86/include/`` (C, for ``kfree``); for the C++ half of issue 30 also
  ``google/snappy``, ``open-source-parsers/jsoncpp`` (CMake) and ``fmtlib/fmt`` (C++), then
  ``jarro2783/cxxopts``, ``google/re2`` and ``google/double-conversion`` (C++, its third step);
* reported on (their misses were not read while tuning): ``redis/hiredis`` (C), the kernel's
  ``kernel/`` with ``include/`` and ``arch/x86/include/`` (C), ``google/leveldb`` (C++, CMake),
  ``jbeder/yaml-cpp`` (C++, CMake).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from harness import Answer, LspClient, Site, cli, index_project, name_position, sample_sites, score  # noqa: E402

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


def _kernel_commands(root: Path, work: Path) -> list[dict]:
    gen = work / f"{root.name}-generated"
    (gen / "generated").mkdir(parents=True, exist_ok=True)
    (gen / "generated" / "autoconf.h").write_text("#define CONFIG_X86_64 1\n#define CONFIG_64BIT 1\n#define CONFIG_SLUB 1\n")
    flags = ["-nostdinc", "-std=gnu11", "-D__KERNEL__", "-fno-builtin", "-I", str(root / "arch/x86/include"),
             "-I", str(root / "arch/x86/include/uapi"), "-I", str(root / "include"), "-I", str(root / "include/uapi"),
             "-I", str(gen), "-include", str(root / "include/linux/kconfig.h"),
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
    if (root / "compile_commands.json").exists():
        return root
    folder = work / f"{root.name}-cc"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    if is_kernel(root):
        commands = _kernel_commands(root, work)
    else:
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
    answers: dict[Site, Answer] = {}
    for site in sites:
        pos = name_position(root, site)
        if pos is None:
            answers[site] = Answer(error="name not found in the source")
            continue
        try:
            places: list[tuple[str, int]] = []
            paren = paren_position(root, site, pos) if site.kind == "new" else None
            if paren is not None:
                places = client.definition(site.path, *paren)
            answers[site] = Answer(places=places or client.definition(site.path, *pos))
        except (RuntimeError, TimeoutError) as exc:
            answers[site] = Answer(error=str(exc))
    return answers


def main(argv: list[str] | None = None) -> None:
    ensure_tools()
    args = cli(__doc__.splitlines()[0], argv)
    work = (args.work or Path(tempfile.mkdtemp(prefix="lore-oracle-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    for project in args.projects:
        root = project.resolve()
        db = index_project(root, work / f"{root.name}.db")
        sites = sample_sites(db, ("c", "cpp"), n=args.sites, seed=args.seed)
        ccdir = compile_commands(root, work)
        client = LspClient(["clangd", f"--compile-commands-dir={ccdir}", "--background-index", "-j=2",
                            "--log=error", "--pch-storage=memory"], root, language_id="cpp", timeout=300)
        try:
            if sites:
                wait_for_index(client, ccdir, sites[0].path)
            answers = ask_clangd(client, root, sites)
        finally:
            client.close()
        rep = score(root.name, root, db, sites, answers)
        print(json.dumps(rep.row()) if args.json else rep.table(args.examples), flush=True)


if __name__ == "__main__":
    main()
