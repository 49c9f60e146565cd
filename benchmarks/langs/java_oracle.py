"""lore's Java call edges against javac's Compiler Tree API (Debian's JDK), on real Java projects.

    apt-get install -y openjdk-17-jdk-headless     # once: javac and the jdk.compiler module
    python benchmarks/langs/java_oracle.py PATH/TO/PROJECT [...] [--sites 400] [--seed 0]

The oracle is ``benchmarks/langs/java/Oracle.java``, compiled here into a temporary folder with
``javac``. It parses and attributes every non-test source of the project at once (``-proc:none
-implicit:none``; missing dependencies leave the calls that need them unattributed, and errors never
stop it), then answers, for each sampled call site, where the method or constructor javac binds the
call to is declared (file and line), or that it lies outside the project (the JDK, a library). Sites
are keyed by the invoked name's position: :func:`harness.name_position` for method calls and
``new T()``, the ``super`` / ``this`` keyword of an explicit constructor call, an enum constant's name.

Prints recall, strict and edge precision, and the unresolved share per project, then the
disagreements by cause with examples (see benchmarks/langs/harness.py). Not run in CI: it needs a JDK
and takes a minute per project.

Projects (chosen before any rule was changed; tune only on the first group, read the second group's
disagreements only at the start and at the end):

* tuned on: jhy/jsoup, apache/commons-lang, square/javapoet
* reported (held out): google/gson, apache/commons-cli
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Answer, Site, cli, index_project, name_position, sample_sites, score, work_folder  # noqa: E402

HERE = Path(__file__).resolve().parent / "java"
EXPORTS = ["--add-exports", "jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED"]


def build_oracle(work: Path) -> Path:
    """Compile Oracle.java into ``work/oracle`` and return that class folder."""
    if shutil.which("javac") is None:
        raise SystemExit("javac not found: apt-get install -y openjdk-17-jdk-headless")
    out = work / "oracle"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", *EXPORTS, "-d", str(out), str(HERE / "Oracle.java")], check=True)
    return out


def _char_col(line_text: bytes, byte_col: int) -> int:
    """A tree-sitter byte column as javac counts columns (UTF-16 units, which Java chars are)."""
    return len(line_text[:byte_col].decode("utf-8", errors="replace").encode("utf-16-le")) // 2


def site_position(root: Path, site: Site) -> tuple[int, int] | None:
    """(1-based line, 0-based char column) of the name the oracle keys ``site`` by.

    ``super(...)`` / ``this(...)`` (lore's callee ``super().<init>`` / ``this.<init>``) and enum
    constants (a call lore records at the constant's name) sit at the call's own start; every other
    call at the invoked name (:func:`harness.name_position`)."""
    try:
        raw = (root / site.path).read_bytes().splitlines()[site.line - 1]
    except (OSError, IndexError):
        return None
    col = _char_col(raw, site.col)
    rest = raw[site.col:].decode("utf-8", errors="replace")
    if site.callee.endswith("<init>"):
        return site.line, col
    if not rest.startswith("new") and rest[:1].isidentifier() and not rest.startswith(site.callee.split(".")[-1] + "("):
        if site.callee.split(".")[-1][:1].isupper() and "." not in site.callee:  # an enum constant
            return site.line, col
    pos = name_position(root, site)
    return (pos[0] + 1, pos[1]) if pos is not None else None


def sources(db: Path) -> list[str]:
    """The project's non-test Java files, as lore indexed them."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [p for (p,) in conn.execute(
            "SELECT path FROM files WHERE language = 'java' AND is_test = 0 ORDER BY path")]
    finally:
        conn.close()


def ask_javac(oracle: Path, root: Path, db: Path, sites: list[Site], work: Path) -> dict[Site, Answer]:
    """Each site's declaration place as javac attributes it."""
    src_list = work / f"{root.name}.sources"
    src_list.write_text("\n".join(sources(db)) + "\n", encoding="utf-8")
    keyed: list[tuple[Site, tuple[int, int]]] = []
    answers: dict[Site, Answer] = {}
    for site in sites:
        pos = site_position(root, site)
        if pos is None:
            answers[site] = Answer(error="name not found in the source")
        else:
            keyed.append((site, pos))
    site_list = work / f"{root.name}.sites"
    site_list.write_text("".join(f"{s.path}\t{line}\t{col}\n" for s, (line, col) in keyed), encoding="utf-8")
    run = subprocess.run(["java", *EXPORTS, "-Xss16m", "-cp", str(oracle), "Oracle", str(root), str(src_list),
                          str(site_list)], capture_output=True, text=True, check=True)
    for line in run.stdout.splitlines():
        i, place = line.split("\t")
        site = keyed[int(i)][0]
        if place == "none":
            answers[site] = Answer(error="javac attributes no call there")
        elif place == "outside":
            answers[site] = Answer(places=[("<outside>", 0)])
        else:
            path, _, ln = place.rpartition(":")
            answers[site] = Answer(places=[(path, int(ln))])
    return answers


def main(argv: list[str] | None = None) -> list:
    args = cli(__doc__.splitlines()[0], argv)
    work = work_folder(args.work, "lore-java-oracle-")
    work.mkdir(parents=True, exist_ok=True)
    oracle = build_oracle(work)
    reports = []
    for project in args.projects:
        root = project.resolve()
        db = index_project(root, work / f"{root.name}.db", rebuild=True)
        sites = sample_sites(db, ("java",), n=args.sites, seed=args.seed)
        answers = ask_javac(oracle, root, db, sites, work)
        rep = score(root.name, root, db, sites, answers)
        reports.append(rep)
        print(json.dumps(rep.row()) if args.json else rep.table(args.examples), flush=True)
    return reports


if __name__ == "__main__":
    main()
