#!/usr/bin/env python3
"""Benchmark the server with no model (a scripted completions function), over real sockets.

Prints, beside a baseline (a bare FastAPI WebSocket route on the same server, same key check):
  - p50/p99 latency of one conversation round trip (user message -> ... -> "complete" status);
  - chunks/s streamed to N concurrent WebSocket sessions.

The server runs in its own process (as in production), the clients in this one.

    .venv/bin/python scripts/bench_server.py [--turns 300] [--sessions 20] [--chunks 500] [--ack]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
KEY = "bench-key"
COMPLETE = {"role": "server", "type": "status", "content": "complete"}

SERVER = r"""
import json, sys
from fastapi import WebSocket, WebSocketDisconnect
from interpreter import AsyncInterpreter

def model(messages):
    last = messages[-1]["content"]
    if last.startswith("stream "):
        for i in range(int(last.split()[1])):
            yield f"w{i} "
    else:
        yield "pong"

ai = AsyncInterpreter(auto_run=True)
ai.llm.completions = model
ai.conversation_history = False
app = ai.server.app

@app.websocket("/echo")
async def echo(ws: WebSocket):
    await ws.accept()
    while True:
        try:
            text = await ws.receive_text()
        except WebSocketDisconnect:
            return
        if text.startswith("blast "):
            n = int(text.split()[1])
            chunk = {"role": "assistant", "type": "message", "content": "w0 "}
            for i in range(n):
                await ws.send_text(json.dumps(chunk))
            await ws.send_text(json.dumps({"role": "server", "type": "status", "content": "complete"}))
        else:
            await ws.send_text(text)

ai.server.run(port=int(sys.argv[1]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(ack: bool) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "INTERPRETER_API_KEY": KEY, "PYTHONPATH": str(ROOT),
           "OI_LOCAL_HOME": os.environ.get("OI_LOCAL_HOME", "/tmp/oi-bench-home")}
    env.pop("INTERPRETER_REQUIRE_ACKNOWLEDGE", None)
    if ack:
        env.update(INTERPRETER_REQUIRE_ACKNOWLEDGE="True", INTERPRETER_ACK_WINDOW="16")
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("server failed: " + (proc.stderr.read() or b"").decode())  # type: ignore[union-attr]
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not start")


def connect(port: int, path: str = "/"):
    return websockets.connect(f"ws://127.0.0.1:{port}{path}", additional_headers={"Authorization": f"Bearer {KEY}"},
                              proxy=None, max_queue=None)


async def turn(ws, text: str, ack: bool) -> int:
    """Send one user message; read until 'complete'; return the number of messages received."""
    await ws.send(json.dumps({"role": "user", "start": True}))
    await ws.send(json.dumps({"role": "user", "type": "message", "content": text}))
    await ws.send(json.dumps({"role": "user", "end": True}))
    n = 0
    while True:
        m = json.loads(await ws.recv())
        n += 1
        if ack and "id" in m:
            await ws.send(json.dumps({"ack": m["id"]}))
            m = {k: v for k, v in m.items() if k != "id"}
        if m == COMPLETE:
            return n


async def latency(port: int, turns: int, ack: bool) -> tuple[list[float], list[float]]:
    ours, base = [], []
    done = 0
    while done < turns + 20:
        # A new conversation every 25 turns: this measures the server, not the prompt fitting of
        # an ever longer history (core/context.py re-measures the whole history on every turn).
        async with connect(port) as ws:
            for _ in range(min(25, turns + 20 - done)):
                t = time.perf_counter()
                await turn(ws, "ping", ack)
                if done >= 20:  # warm-up excluded
                    ours.append(time.perf_counter() - t)
                done += 1
    async with connect(port, "/echo") as ws:
        for i in range(turns + 20):
            t = time.perf_counter()
            await ws.send("ping")
            await ws.recv()
            if i >= 20:
                base.append(time.perf_counter() - t)
    return ours, base


async def throughput(port: int, sessions: int, chunks: int, ack: bool) -> tuple[float, float]:
    async def ours_one() -> int:
        async with connect(port) as ws:
            return await turn(ws, f"stream {chunks}", ack)

    async def base_one() -> int:
        async with connect(port, "/echo") as ws:
            await ws.send(f"blast {chunks + 2}")
            n = 0
            while True:
                n += 1
                if json.loads(await ws.recv()) == COMPLETE:
                    return n

    t = time.perf_counter()
    got = await asyncio.gather(*(ours_one() for _ in range(sessions)))
    ours = sum(got) / (time.perf_counter() - t)
    t = time.perf_counter()
    got = await asyncio.gather(*(base_one() for _ in range(sessions)))
    base = sum(got) / (time.perf_counter() - t)
    return ours, base


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))] * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--chunks", type=int, default=500)
    ap.add_argument("--ack", action="store_true", help="also measure with INTERPRETER_REQUIRE_ACKNOWLEDGE (window 16)")
    args = ap.parse_args()
    results = {}
    for ack in ([False, True] if args.ack else [False]):
        proc, port = start_server(ack)
        try:
            ours, base = asyncio.run(latency(port, args.turns, ack))
            cps, base_cps = asyncio.run(throughput(port, args.sessions, args.chunks, ack))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        label = "acks on" if ack else "acks off"
        results[label] = {
            "round_trip_ms": {"p50": pct(ours, 50), "p99": pct(ours, 99), "mean": statistics.mean(ours) * 1000},
            "baseline_echo_ms": {"p50": pct(base, 50), "p99": pct(base, 99)},
            "chunks_per_s": cps, "baseline_chunks_per_s": base_cps,
            "turns": args.turns, "sessions": args.sessions, "chunks_per_turn": args.chunks,
        }
        print(f"[{label}] round trip, {args.turns} turns, 25 per conversation (user message -> 'complete'):")
        print(f"    oi-local      p50 {pct(ours, 50):7.2f} ms   p99 {pct(ours, 99):7.2f} ms")
        print(f"    baseline echo p50 {pct(base, 50):7.2f} ms   p99 {pct(base, 99):7.2f} ms   (bare FastAPI WebSocket, no interpreter)")
        print(f"[{label}] streaming, {args.sessions} concurrent sessions x {args.chunks} chunks:")
        print(f"    oi-local      {cps:10.0f} chunks/s")
        print(f"    baseline      {base_cps:10.0f} chunks/s   (bare FastAPI WebSocket sending the same JSON chunks)")
    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    (out / "server.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
