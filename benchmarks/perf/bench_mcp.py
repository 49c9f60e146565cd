"""Latency of a warm ``lore_graph`` kind=related tool call through a real MCP client session.

The server is ``python -m lore serve --db INDEX`` (or ``--http 127.0.0.1:PORT``) started as a
subprocess; the client is the SDK's ``ClientSession`` over stdio or streamable HTTP, exactly what
Claude Desktop, Claude Code or VS Code would use. After one warm-up call per seed (the graph is
loaded once and kept), ``--calls`` calls cycle over a seeded sample of functions and methods. The
same calls through the Python API in this process (``lore.api.lore_graph`` + ``json.dumps``), each
right before its MCP twin so both see the same machine load, are the baseline: the table shows what
the protocol costs on top. Target (issue 5): p50 under 50 ms on an indexed Django.

Start-up (issue 16, target: ``initialize`` answered within 0.5 s): ``--handshakes`` fresh servers
each answer one ``initialize`` over raw pipes; the table shows the wall time from process start to
the answer and the server's CPU time at that moment (Linux ``/proc``), medians, interleaved with
the anchors in the same run: the SDK's own minimal low-level server (``mcp.server.Server`` over
``stdio_server``, nothing registered), ``lore serve`` with ``LORE_MCP_SDK=1`` (the SDK serving
lore's tools), and a Python process that answers with a canned line (the interpreter's floor).

Usage::

    pip download --no-deps --no-binary :all: Django==5.1.4 -d /tmp/dj && tar xzf /tmp/dj/Django-5.1.4.tar.gz -C /tmp/dj
    lore index /tmp/dj/Django-5.1.4 --db /tmp/django.db
    python benchmarks/perf/bench_mcp.py --db /tmp/django.db [--calls 200] [--seeds 20] [--algorithm overlap]
        [--transport stdio|http|both] [--handshakes 5]
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


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}) + "\n"
SDK_MINIMAL = """
import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

async def main():
    server = Server("anchor")
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""
CANNED = """
import sys
sys.stdin.readline()
sys.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\\n')
sys.stdout.flush()
sys.stdin.read()
"""


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a running process (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def handshake(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall s from process start to the ``initialize`` answer, the server's CPU s by then)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        proc.stdin.write(INITIALIZE.encode())
        proc.stdin.flush()
        line = proc.stdout.readline()
        wall = time.perf_counter() - t0
        cpu = _cpu_seconds(proc.pid)
        if b'"id":1' not in line.replace(b" ", b""):
            raise SystemExit(f"bench_mcp: {' '.join(cmd)} did not answer initialize: {line[:200]!r}")
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    return wall, cpu


def handshakes(db: Path, repeat: int) -> dict[str, list[tuple[float, float]]]:
    """Start-to-initialized of lore serve and its anchors, ``repeat`` times each, interleaved."""
    lore = [sys.executable, "-m", "lore", "serve", "--db", str(db)]
    plain = {k: v for k, v in ENV.items() if k != "LORE_MCP_SDK"}
    runs = {
        "lore serve": (lore, plain),
        "lore serve, LORE_MCP_SDK=1": (lore, dict(plain, LORE_MCP_SDK="1")),
        "anchor: SDK minimal server": ([sys.executable, "-c", SDK_MINIMAL], plain),
        "anchor: canned answer": ([sys.executable, "-c", CANNED], plain),
    }
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, (cmd, env) in runs.items():
            out[name].append(handshake(cmd, env))
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
    p.add_argument("--handshakes", type=int, default=5, help="fresh servers per row of the start-up table (0: none)")
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
    if ns.handshakes:
        print(f"start to initialized, fresh process, medians of {ns.handshakes} (interleaved):")
        print("| server                       | wall ms | CPU ms | target < 500 ms |")
        print("|------------------------------|---------|--------|-----------------|")
        for name, got in handshakes(ns.db, ns.handshakes).items():
            wall, cpu = (float(np.median([x[i] for x in got])) * 1000 for i in (0, 1))
            mark = ("met" if wall < 500 else "NOT met") if name.startswith("lore") else ""
            print(f"| {name:<28} | {wall:7.0f} | {cpu:6.0f} | {mark:<15} |")
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
