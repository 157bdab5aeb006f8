"""The one-shot `zhiku ask "…"` timed from outside, as a user runs it: wall time of the
subprocess to its printed answer, answered in its own process (``--local``) and through a
running `zhiku serve` of the same home."""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "ZHIKU_HOME": str(home), "PYTHONWARNINGS": "ignore"}


def keyword_home(corpus: Path, home: Path) -> Path:
    """``home`` holding a keyword index of ``corpus``, ingested by the CLI unless it is
    there already (re-ingest skips unchanged files, so a kept home costs a second)."""
    p = subprocess.run([sys.executable, "-m", "zhiku.cli", "ingest", str(corpus), "--no-dense", "--quiet"],
                       env=_env(home), capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"zhiku ingest {corpus} failed:\n{p.stderr[-1500:]}")
    return home


def ask_once(home: Path, question: str, local: bool) -> float:
    """Seconds from starting `zhiku ask QUESTION` to its exit with the answer printed.

    Raises:
        RuntimeError: the ask failed or printed no answer.
    """
    cmd = [sys.executable, "-m", "zhiku.cli", "ask", question, *(["--local"] if local else [])]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=_env(home), capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode or "答：" not in p.stdout:
        raise RuntimeError(f"zhiku ask failed (exit {p.returncode}):\n{p.stderr[-1500:]}")
    return dt


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(home: Path, wait: float = 300.0) -> subprocess.Popen:
    """`zhiku serve` of ``home`` on a free loopback port, once the CLI of that home finds
    it (its ``serve.json``) and it has answered one question (its model and state loaded).

    Raises:
        RuntimeError: it exited or did not come up within ``wait`` seconds.
    """
    from zhiku.config import load_config
    from zhiku.server.local import discover

    proc = subprocess.Popen([sys.executable, "-m", "zhiku.cli", "serve", "--host", HOST, "--port",
                             str(_free_port())], env=_env(home), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"zhiku serve exited: {proc.stderr.read().decode()[-1500:]}")
        if discover(load_config(home=home)) is not None:
            return proc
        time.sleep(0.3)
    stop_server(proc)
    raise RuntimeError(f"zhiku serve did not come up within {wait:.0f} s")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a server :func:`start_server` started (it removes its ``serve.json``)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cli_latency(home: Path, questions: list[str], runs: int) -> dict[str, float]:
    """Median wall seconds of `zhiku ask` over ``runs`` distinct questions (so the answer
    cache serves none), local and through a running server, with the load average.

    Args:
        home: a built ``ZHIKU_HOME``.
        questions: at least ``2 * runs + 2`` questions; each is asked once.
        runs: asks per way.

    Returns:
        ``local_s``, ``served_s`` (medians), ``runs`` and ``load`` (mean 1-minute load).

    Raises:
        RuntimeError: an ask failed or the server did not start.
    """
    if len(questions) < 2 * runs + 2:
        raise ValueError(f"{2 * runs + 2} distinct questions are needed for {runs} runs, got {len(questions)}")
    load = [os.getloadavg()[0]]
    ask_once(home, questions[0], local=True)  # warm OS cache: imports, model and index files read once
    local = [ask_once(home, q, local=True) for q in questions[1 : runs + 1]]
    load.append(os.getloadavg()[0])
    proc = start_server(home)
    try:
        ask_once(home, questions[runs + 1], local=False)  # the server's first answer
        served = [ask_once(home, q, local=False) for q in questions[runs + 2 : 2 * runs + 2]]
    finally:
        stop_server(proc)
    load.append(os.getloadavg()[0])
    return {"local_s": statistics.median(local), "served_s": statistics.median(served), "runs": runs,
            "load": statistics.mean(load)}


def cli_point(laws: Path, questions: list[str], runs: int, keep: str | None) -> dict:
    """The one-shot CLI over the whole laws keyword index (built by `zhiku ingest`, kept
    under ``keep``/laws-keyword when given): :func:`cli_latency` and the index's chunks.

    Raises:
        RuntimeError: the ingest, an ask or the server failed.
    """
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    print("one-shot CLI ask…", file=sys.stderr)
    home = Path(keep) / "laws-keyword" if keep else Path(tempfile.mkdtemp(prefix="zhiku-cli-"))
    try:
        keyword_home(laws, home)
        n = KnowledgeBase(load_config(home=home)).store.count()["chunks"]
        return {**cli_latency(home, questions, runs), "chunks": n}
    finally:
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def cli_table(cli: dict | None) -> str:
    """The rows of :func:`cli_point` as a Markdown table after a blank line ("" for None)."""
    if cli is None:
        return ""
    return "\n".join([
        "", "", f"One-shot `zhiku ask \"…\"` over the whole laws keyword index ({cli['chunks']:,} chunks): wall "
        "seconds from starting the command to its printed answer, warm OS cache, median of "
        f"{cli['runs']} runs, each a question not asked before (so the answer cache serves none):", "",
        "| answered | s | load avg |", "|---|---:|---:|",
        f"| in the CLI's own process (`--local`) | {cli['local_s']:.2f} | {cli['load']:.1f} |",
        f"| through a running `zhiku serve` of the same home | {cli['served_s']:.2f} | {cli['load']:.1f} |"])
