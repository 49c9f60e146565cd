"""The oracle harness: lore's call edges beside a language's own tool, on a real project.

Each language's script (``benchmarks/langs/<lang>_oracle.py``) indexes a project with lore, samples
call sites here (:func:`sample_sites`, seeded, test code left out), asks its oracle where each call
goes (clangd or gopls over LSP with :class:`LspClient`, javac's Tree API, the TypeScript
LanguageService) as a file and a 1-based line, and hands the answers to :func:`score`, which maps
each answer onto lore's innermost definition at that place and counts:

* **recall**: of the sites the oracle resolves inside the project, the share where lore binds the
  same definition (any of its candidates, when lore keeps several);
* **strict precision**: of the sites where lore binds inside the project and the oracle answers,
  the share where lore's bindings are exactly the oracle's definition;
* **edge precision**: the share of lore's in-project edges at those sites that the oracle agrees with;
* **unresolved**: the share of sampled sites lore left unbound (or bound outside the project);
* **outside_wrong**: of the sites the oracle resolves inside the project, the share lore bound outside
  it (a builtin, a package): wrong edges the precisions above cannot see, since they count lore's
  in-project bindings only; **precision_with_outside** counts them as wrong bindings beside the strict ones.

Disagreements are printed grouped by lore's resolution with examples, so causes can be read off.
Nothing here is tuned per project: choose report projects before changing rules, and tune on others.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from lore.store import callsites

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


@dataclass(frozen=True)
class Site:
    """One call site: where it is, what it names, and what lore bound it to (ids of in-project symbols)."""

    path: str
    line: int  # 1-based
    col: int  # 0-based, of the call expression as lore recorded it
    callee: str
    caller: str
    targets: tuple[int, ...]  # lore's in-project bindings (several for an ambiguous guess)
    target_names: tuple[str, ...]
    resolution: str
    kind: str = "call"  # lore's kind of the site: ``call``, or ``new`` (a construction)
    outside: tuple[str, ...] = ()  # names of lore's bindings outside the project (``JSON.parse``)


@dataclass
class Answer:
    """The oracle's answer for one site: definition places (path relative to the root, 1-based line)."""

    places: list[tuple[str, int]] = field(default_factory=list)
    error: str = ""


def work_folder(given: Path | None, prefix: str = "lore-oracle-") -> Path:
    """``given`` (``--work``, kept), or a new temporary folder removed when the process exits: a run
    without ``--work`` must not leave its indexes behind (they filled the machine's shared disk)."""
    if given is not None:
        return given
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path


def index_project(root: Path, db: Path, *, rebuild: bool = False) -> Path:
    """Index ``root`` into ``db`` with lore, the code alone (no history, no clusters), and return ``db``."""
    from lore.index.pipeline import run_index

    run_index(root, steps=(), db=db, rebuild=rebuild, history="off")
    return db


def sample_sites(db: Path, languages: tuple[str, ...], *, n: int = 400, seed: int = 0) -> list[Site]:
    """Up to ``n`` call sites of ``languages`` (non-test files), a seeded uniform sample, in site order."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        edges = callsites.call_site_edges(conn, languages)
        inside = callsites.indexed_paths(conn)
    finally:
        conn.close()
    grouped: dict[tuple, list[callsites.SiteEdge]] = defaultdict(list)
    for e in edges:
        grouped[(e.path, e.line, e.col, e.callee_name)].append(e)
    keys = sorted(grouped)
    chosen = sorted(random.Random(seed).sample(keys, min(n, len(keys))))
    sites = []
    for key in chosen:
        rows = grouped[key]
        bound = [r for r in rows if r.callee_id is not None and r.callee_path in inside]
        sites.append(Site(path=key[0], line=key[1], col=key[2], callee=key[3], caller=rows[0].caller,
                          targets=tuple(r.callee_id for r in bound), target_names=tuple(r.callee_qname or "" for r in bound),
                          resolution=rows[0].resolution, kind=rows[0].kind,
                          outside=tuple(r.callee_qname or "" for r in rows if r not in bound)))
    return sites


def name_position(root: Path, site: Site) -> tuple[int, int] | None:
    """(0-based line, 0-based character) of the name the call invokes, for an oracle's position query.

    The callee text's last word (``notNull`` of ``Validate.notNull``, ``get`` of ``a.get().get``) is
    found after the call's start; when the word occurs k times in the callee text, its k-th occurrence
    in the source is the one this call invokes (chains repeat names).
    """
    words = _WORD.findall(site.callee)
    if not words:
        return None
    word = words[-1]
    k = words.count(word)
    try:
        lines = (root / site.path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    pattern = re.compile(rf"(?<![A-Za-z0-9_$]){re.escape(word)}(?![A-Za-z0-9_$])")
    seen = 0
    for i in range(site.line - 1, min(len(lines), site.line + 20)):
        text = lines[i]
        start = site.col if i == site.line - 1 else 0
        for m in pattern.finditer(text, start):
            seen += 1
            if seen == k:
                return i, len(text[: m.start()].encode("utf-16-le")) // 2  # LSP counts UTF-16 units
    return None


def innermost(spans: list[callsites.Span], line: int) -> callsites.Span | None:
    """The innermost definition whose lines hold ``line`` (the latest-starting, then the shortest)."""
    best = None
    for s in spans:
        if s.start_line <= line <= max(s.end_line, s.start_line):
            if best is None or (s.start_line, -s.end_line) >= (best.start_line, -best.end_line):
                best = s
    return best


@dataclass
class Report:
    """Counts of one project's sample; :meth:`table` prints them."""

    project: str
    sites: int = 0
    oracle_inside: int = 0
    recall_hits: int = 0
    lore_bound: int = 0
    strict_hits: int = 0
    strict_total: int = 0
    edges_total: int = 0
    edges_agree: int = 0
    unresolved: int = 0
    oracle_errors: int = 0
    outside_wrong: int = 0  # the oracle answers inside the project, lore bound the call outside it
    causes: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=lambda: defaultdict(list))

    def row(self) -> dict:
        def r(a: int, b: int) -> float | None:
            return round(a / b, 3) if b else None

        return {"project": self.project, "sites": self.sites, "oracle_inside": self.oracle_inside,
                "recall": r(self.recall_hits, self.oracle_inside), "precision_strict": r(self.strict_hits, self.strict_total),
                "precision_edges": r(self.edges_agree, self.edges_total), "unresolved": r(self.unresolved, self.sites),
                "oracle_errors": self.oracle_errors, "outside_wrong": r(self.outside_wrong, self.oracle_inside),
                "precision_with_outside": r(self.strict_hits, self.strict_total + self.outside_wrong)}

    def table(self, examples: int = 3) -> str:
        out = [json.dumps(self.row())]
        for cause, count in self.causes.most_common():
            out.append(f"  {count:5d}  {cause}")
            for ex in self.examples[cause][:examples]:
                out.append(f"           {ex}")
        return "\n".join(out)


def score(project: str, root: Path, db: Path, sites: list[Site], answers: dict[Site, Answer]) -> Report:
    """Compare lore's bindings with the oracle's answers (see the module docstring for the measures)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    spans: dict[str, list[callsites.Span]] = {}
    inside = callsites.indexed_paths(conn)
    rep = Report(project)
    try:
        for site in sites:
            rep.sites += 1
            ans = answers.get(site, Answer(error="no answer"))
            if ans.error:
                rep.oracle_errors += 1
            truth: set[int] = set()
            truth_names: list[str] = []
            for path, line in ans.places:
                if path not in inside:
                    continue
                if path not in spans:
                    spans[path] = callsites.definition_spans(conn, path)
                sp = innermost(spans[path], line)
                if sp is not None:
                    truth.add(sp.id)
                    truth_names.append(sp.qualified_name)
            lore = set(site.targets)
            if not lore:
                rep.unresolved += 1
            where = f"{site.path}:{site.line} {site.callee}"
            if truth:
                rep.oracle_inside += 1
                if lore & truth:
                    rep.recall_hits += 1
                elif not lore and site.resolution != "unresolved":
                    rep.outside_wrong += 1
                    cause = f"bound outside, oracle inside ({site.resolution})"
                    rep.causes[cause] += 1
                    rep.examples[cause].append(f"{where} -> lore {list(site.outside)[:2]} oracle {truth_names[:2]}")
                else:
                    cause = f"missed ({site.resolution})" if not lore else f"wrong ({site.resolution})"
                    rep.causes[cause] += 1
                    rep.examples[cause].append(f"{where} -> lore {list(site.target_names)[:3]} oracle {truth_names[:2]}")
            if lore and not ans.error and ans.places:
                rep.lore_bound += 1
                rep.strict_total += 1
                rep.strict_hits += lore == truth
                rep.edges_total += len(lore)
                rep.edges_agree += len(lore & truth)
                if truth and lore != truth and lore & truth:
                    rep.causes[f"extra candidates ({site.resolution})"] += 1
                    rep.examples[f"extra candidates ({site.resolution})"].append(
                        f"{where} -> lore {list(site.target_names)[:4]}")
                if not truth:
                    rep.causes[f"bound, oracle outside the project ({site.resolution})"] += 1
                    rep.examples[f"bound, oracle outside the project ({site.resolution})"].append(
                        f"{where} -> lore {list(site.target_names)[:2]} oracle {ans.places[:1]}")
    finally:
        conn.close()
    return rep


class LspClient:
    """A minimal Language Server Protocol client over stdio: initialize, open files, ask for definitions.

    Used with clangd and gopls (and any server that answers ``textDocument/definition``). One request
    at a time; notifications from the server are read and dropped. ``timeout`` bounds each answer.
    """

    def __init__(self, argv: list[str], root: Path, *, language_id: str, timeout: float = 60.0,
                 init_options: dict | None = None) -> None:
        self.root = root.resolve()
        self.language_id = language_id
        self.timeout = timeout
        self.proc = subprocess.Popen(argv, cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self._id = 0
        self._opened: set[str] = set()
        self.request("initialize", {"processId": os.getpid(), "rootUri": self.uri(self.root),
                                    "capabilities": {"textDocument": {"definition": {"linkSupport": False}}},
                                    "initializationOptions": init_options or {},
                                    "workspaceFolders": [{"uri": self.uri(self.root), "name": self.root.name}]})
        self.notify("initialized", {})

    @staticmethod
    def uri(path: Path) -> str:
        return "file://" + quote(str(path))

    def _send(self, msg: dict) -> None:
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the language server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> object:
        self._id += 1
        rid = self._id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        result: dict = {}

        def wait() -> None:
            while True:
                msg = self._read()
                if msg.get("id") == rid and "method" not in msg:
                    result.update(msg)
                    return
                if "method" in msg and "id" in msg:  # a request from the server (e.g. workDoneProgress/create)
                    self._send({"jsonrpc": "2.0", "id": msg["id"], "result": None})

        t = threading.Thread(target=wait, daemon=True)
        t.start()
        t.join(self.timeout)
        if t.is_alive():
            raise TimeoutError(f"{method} took over {self.timeout:.0f} s")
        if "error" in result:
            raise RuntimeError(str(result["error"]))
        return result.get("result")

    def open(self, rel: str) -> None:
        if rel in self._opened:
            return
        path = self.root / rel
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri(path), "languageId": self.language_id, "version": 1,
            "text": path.read_text(encoding="utf-8", errors="replace")}})
        self._opened.add(rel)

    def definition(self, rel: str, line: int, character: int) -> list[tuple[str, int]]:
        """Definition places of the name at (0-based line, UTF-16 character) as (root-relative path, 1-based line)."""
        self.open(rel)
        res = self.request("textDocument/definition", {"textDocument": {"uri": self.uri(self.root / rel)},
                                                       "position": {"line": line, "character": character}})
        items = res if isinstance(res, list) else [res] if res else []
        places = []
        for item in items:
            uri = item.get("uri") or item.get("targetUri")
            rng = item.get("range") or item.get("targetSelectionRange") or {}
            if not uri:
                continue
            path = Path(unquote(urlparse(uri).path))
            try:
                rel_path = path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                rel_path = str(path)  # outside the project: kept so the score can say so
            places.append((rel_path, int(rng.get("start", {}).get("line", 0)) + 1))
        return places

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def ask_lsp(client: LspClient, root: Path, sites: list[Site], first=None) -> dict[Site, Answer]:
    """Each site's definition places from a language server (failures kept as the answer's error).

    ``first(site, name_position)``, when given, names another position to ask first (clangd answers a
    construction's constructor at its parenthesis); the name's answer counts when that one is empty."""
    answers: dict[Site, Answer] = {}
    for site in sites:
        pos = name_position(root, site)
        if pos is None:
            answers[site] = Answer(error="name not found in the source")
            continue
        try:
            other = first(site, pos) if first is not None else None
            places = client.definition(site.path, *other) if other is not None else []
            answers[site] = Answer(places=places or client.definition(site.path, *pos))
        except (RuntimeError, TimeoutError) as exc:
            answers[site] = Answer(error=str(exc))
    return answers


def cli(description: str, argv: list[str] | None = None):
    """The command line every oracle script shares: projects, sample size, seed, index folder, --json."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("projects", nargs="+", type=Path, help="project checkouts to measure")
    parser.add_argument("--sites", type=int, default=400, help="call sites sampled per project (default 400)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", type=Path, default=None, help="where the indexes go (default: a temp folder)")
    parser.add_argument("--examples", type=int, default=3, help="examples printed per cause")
    parser.add_argument("--json", action="store_true", help="one JSON object per project instead of the table")
    return parser.parse_args(argv)


def run_lsp(description: str, languages: tuple[str, ...], language_id: str, server: list[str],
            argv: list[str] | None = None, *, warmup: float = 0.0, prepare=None) -> list[Report]:
    """Measure each project against a language server (``server`` argv) and print the reports.

    ``prepare(root, work) -> Path``, when given, makes the folder the server reads (a copy the
    oracle needs in another shape, e.g. a Go module whose requirements cannot be downloaded here);
    paths stay relative to the project, so answers map onto lore's index of ``root`` as they are.
    """
    import time

    args = cli(description, argv)
    work = work_folder(args.work)
    reports = []
    for project in args.projects:
        root = project.resolve()
        db = index_project(root, work / f"{root.name}.db")
        sites = sample_sites(db, languages, n=args.sites, seed=args.seed)
        served = prepare(root, work) if prepare else root
        client = LspClient(server, served, language_id=language_id)
        try:
            if warmup:
                time.sleep(warmup)  # let the server load the workspace before the first question
            answers = ask_lsp(client, served, sites)
        finally:
            client.close()
        rep = score(root.name, root, db, sites, answers)
        reports.append(rep)
        print(json.dumps(rep.row()) if args.json else rep.table(args.examples), flush=True)
    return reports
