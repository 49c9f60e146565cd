"""`lore view` in a real browser: Debian's headless Chromium loads the page with no console errors, draws the
expected nodes for a fixture, finds symbols by search; a screenshot is kept ($LORE_ARTIFACTS, for CI).

Skips only when no Chromium is installed (.ci/run installs Debian's package).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lore.cli import app
from lore.queries.view import render_html, view_data

runner = CliRunner()
CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium)")
SEED = "shop.orders.Order.amount"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--enable-logging=stderr", "--v=0",
         "--window-size=1400,900", "--virtual-time-budget=5000"]


def _chromium(tmp_path: Path, url: str, *extra: str) -> tuple[str, list[str]]:
    """(stdout, console lines) of one headless run with a fresh profile."""
    profile = tmp_path / f"profile{len(list(tmp_path.glob('profile*')))}"
    proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, url],
                          capture_output=True, text=True, timeout=120, check=False)
    console = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln]
    return proc.stdout, console


@pytest.fixture
def page(sample_repo, sample_index, tmp_path):
    res = runner.invoke(app, ["view", "--db", str(sample_repo), "-o", str(tmp_path / "view.html"), "--symbol", SEED,
                              "--top", "5"])
    assert res.exit_code == 0, res.output
    data = view_data(sample_index, symbols=[SEED], top=5)
    return tmp_path / "view.html", data


def _expected_hood(data: dict, i: int) -> int:
    """What the page must draw for node ``i``: the seed and each group's new members, capped as the script caps."""
    def adj(rel: str, out: bool) -> list[int]:
        flat = data["edges"][rel]
        pairs = list(zip(flat[::2], flat[1::2], strict=True))
        return [b for a, b in pairs if a == i] if out else [a for a, b in pairs if b == i]

    groups = [(adj("calls", False), 10), (adj("calls", True), 10), (adj("types", True), 6), (adj("types", False), 6),
              (adj("inherits", True), 6), (adj("inherits", False), 6), ([r[0] for r in data["related"].get(str(i), [])], 6)]
    seen, drawn = {i}, 1
    for members, cap in groups:
        new = [j for j in sorted(set(members), key=lambda j: data["nodes"]["id"][j]) if j not in seen]
        seen.update(new)
        drawn += min(cap, len(new))
    return drawn


def _attr(dom: str, element_id: str, name: str) -> str | None:
    m = re.search(rf'<[^>]*id="{element_id}"[^>]*>', dom)
    assert m, f"no #{element_id} in the page"
    a = re.search(rf'{name}="([^"]*)"', m.group(0))
    return a.group(1) if a else None


def test_page_is_self_contained(page):
    path, data = page
    text = path.read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert "default-src 'none'" in text  # the page may fetch nothing, even by accident
    assert '"</' not in render_html({**data, "meta": {**data["meta"], "root": "</script><b>"}})


@needs_chromium
def test_page_renders_in_chromium_without_console_errors(page, tmp_path):
    path, data = page
    seed = data["nodes"]["name"].index(SEED)
    dom, console = _chromium(tmp_path, f"{path.as_uri()}#symbol={data['nodes']['id'][seed]}", "--dump-dom")
    assert console == [], console
    assert 'data-ready="1"' in dom and "data-errors" not in dom
    assert _attr(dom, "map", "data-nodes") == str(len(data["clusters"])) and data["clusters"]
    expected = _expected_hood(data, seed)
    assert expected >= 4  # the fixture's seed has callers, a callee, an override and peers
    assert _attr(dom, "hood", "data-nodes") == str(expected)
    assert len(re.findall(r'<g class="node( seed)?"', dom)) == expected
    assert html.escape(SEED) in dom and f"orders.py:{data['nodes']['line'][seed]}" in dom
    related = re.search(r'<ol id="related">(.*?)</ol>', dom, re.S).group(1)
    assert related.count('class="related-row"') == len(data["related"][str(seed)]) > 0
    artifacts = Path(os.environ.get("LORE_ARTIFACTS") or tmp_path)
    artifacts.mkdir(parents=True, exist_ok=True)
    shot = artifacts / "lore-view.png"
    _chromium(tmp_path, f"{path.as_uri()}#symbol={data['nodes']['id'][seed]}", f"--screenshot={shot}")
    assert shot.is_file() and shot.stat().st_size > 10_000


@needs_chromium
def test_search_in_chromium_finds_symbols(page, tmp_path):
    path, data = page
    dom, console = _chromium(tmp_path, f"{path.as_uri()}#q=amount", "--dump-dom")
    assert console == [], console
    results = re.search(r'<ol id="results">(.*?)</ol>', dom, re.S).group(1)
    found = sorted(html.unescape(t) for t in re.findall(r'title="([^"]+)"', results))
    assert found == sorted(n for n in data["nodes"]["name"] if "amount" in n.lower())
