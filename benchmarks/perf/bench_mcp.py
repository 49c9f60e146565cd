"""Latency of a warm ``lore_graph`` kind=related tool call through a real MCP client session.

The server is ``python -m lore serve --db INDEX`` (or ``--http 127.0.0.1:PORT``) started as a
subprocess; the client is the SDK's ``ClientSession`` over stdio or streamable HTTP, exactly what
Claude Desktop, Claude Code or VS Code would use. After one warm-up call per seed (the graph is
loaded once and kept), ``--calls`` calls cycle over a seeded sample of functions and methods. The
same calls through the Python API in this process (``lore.api.lore_graph`` + ``json.dumps``), each
right before its MCP twin so both see the same machine load, are the baseline: the table shows what
the protocol costs on top. Target (issue 5): p50 under 50 ms on an indexed Django.

Usage::

    pip download --no-deps --no-binary :all: Django==5.1.4 -d /tmp/dj && tar xzf /tmp/dj/Django-5.1.4.tar.gz -C /tmp/dj
    lore index /tmp/dj/Django-5.1.4 --db /tmp/django.db
    python benchmarks/perf/bench_mcp.py --db /tmp/django.db [--calls 200] [--seeds 20] [--algorithm overlap]
        [--transport stdio|http|both]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import numpy as np

ROOT = Path(__file__).absolute().parents[2]
sys.path.insert(0, str(ROOT))

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402

from lore.api import lore_graph, open_index  # noqa: E402


def pick_seeds(db: Path, n: int, seed: int) -> list[int]:
    """A seeded sample of non-test functions and methods that have structural neighbours."""
    with open_index(db, readonly=True) as idx:
        pool = [
            s["id"]
            for s in idx.symbols()
            if s["kind"] in ("function", "method") and not (s["path"] or "").startswith("tests/")
        ]
        rng = random.Random(seed)
        rng.shuffle(pool)
        seeds = []
        for sid in pool:
            if lore_graph(idx, kind="related", source_id=sid, limit=1)["total"] > 0:
                seeds.append(sid)
            if len(seeds) == n:
                break
    return seeds


ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


@contextlib.asynccontextmanager
async def connect(db: Path, transport: str):
    """(read, write) streams of a fresh ``lore serve`` subprocess over ``transport``."""
    if transport == "stdio":
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "lore", "serve", "--db", str(db)], env=ENV
        )
        async with stdio_client(params) as (read, write):
            yield read, write
        return
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "lore", "serve", "--db", str(db), "--http", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise SystemExit("bench_mcp: the HTTP server exited") from None
                await anyio.sleep(0.05)
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write):
            yield read, write
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def measure(db: Path, calls: list[dict], warm: list[dict], transport: str) -> dict:
    """Paired latencies: each call through the Python API, then through MCP, so both see the same machine load."""
    out: dict = {"api": [], "mcp": []}
    with open_index(db, readonly=True) as idx:
        t0 = time.perf_counter()
        async with connect(db, transport) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            out["started"] = time.perf_counter() - t0
            t = time.perf_counter()
            first = await session.call_tool("lore_graph", warm[0])
            out["cold"] = time.perf_counter() - t
            if first.is_error:
                raise SystemExit(f"bench_mcp: the first call failed: {first.content[0].text}")
            for c in warm:
                await session.call_tool("lore_graph", c)
                lore_graph(idx, **c)
            for c in calls:
                t = time.perf_counter()
                json.dumps(lore_graph(idx, **c), separators=(",", ":"))
                out["api"].append(time.perf_counter() - t)
                t = time.perf_counter()
                r = await session.call_tool("lore_graph", c)
                out["mcp"].append(time.perf_counter() - t)
                if r.is_error:
                    raise SystemExit(f"bench_mcp: a call failed: {r.content[0].text}")
    return out


def row(name: str, xs: list[float]) -> str:
    ms = np.array(xs) * 1000
    p50, p90, p99 = np.percentile(ms, [50, 90, 99])
    return f"| {name:<26} | {len(ms):>5} | {p50:8.2f} | {p90:8.2f} | {p99:8.2f} | {ms.max():8.2f} |"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", type=Path, required=True, help="an index file (lore index ... --db FILE)")
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--seeds", type=int, default=20, help="distinct seed symbols cycled over")
    p.add_argument("--algorithm", default="overlap")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--transport", choices=("stdio", "http", "both"), default="both")
    ns = p.parse_args()
    if not ns.db.is_file():
        print(f"bench_mcp: no index at {ns.db}; run `lore index ROOT --db {ns.db}` first", file=sys.stderr)
        return 2
    with open_index(ns.db, readonly=True) as idx:
        st = idx.status()
    seeds = pick_seeds(ns.db, ns.seeds, ns.seed)
    if not seeds:
        print("bench_mcp: no function in the index has structural neighbours", file=sys.stderr)
        return 2
    base = {"kind": "related", "algorithm": ns.algorithm, "limit": ns.limit, "compact": True}
    warm = [{**base, "source_id": s} for s in seeds]
    calls = [warm[i % len(warm)] for i in range(ns.calls)]
    transports = ("stdio", "http") if ns.transport == "both" else (ns.transport,)
    runs = {t: anyio.run(measure, ns.db, calls, warm, t) for t in transports}
    print(
        f"index: {st['root']} ({st['files']} files, {st['symbols']} symbols, generation {st['generation']})"
    )
    print(
        f"lore_graph kind=related algorithm={ns.algorithm} limit={ns.limit} compact, {len(seeds)} seeds, "
        f"{ns.calls} calls per transport"
    )
    for t, got in runs.items():
        print(
            f"{t}: server start + initialize {got['started'] * 1000:.0f} ms, "
            f"first call (cold) {got['cold'] * 1000:.0f} ms"
        )
    print("| path                       | calls |  p50 ms  |  p90 ms  |  p99 ms  |  max ms  |")
    print("|----------------------------|-------|----------|----------|----------|----------|")
    for t, got in runs.items():
        print(row(f"python api (paired, {t})", got["api"]))
        print(row(f"mcp {t} tool call", got["mcp"]))
    ok = True
    for t, got in runs.items():
        api, mcp = np.array(got["api"]), np.array(got["mcp"])
        ratio = float(np.median(mcp) / np.median(api))
        overhead = float(np.median(mcp - api)) * 1000
        met = bool(np.median(mcp) < 0.05)
        ok &= met
        print(
            f"{t}: p50 ratio mcp/api {ratio:.2f}x; median paired overhead {overhead:.2f} ms; "
            f"target p50 < 50 ms: {'met' if met else 'NOT met'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
