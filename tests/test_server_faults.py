"""What the drills found in the server: bodies read whole before any size check, a bad `ack` that
dropped the socket, and a second client on a busy session. Real server processes and sockets."""
from __future__ import annotations

import asyncio
import json
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import psutil
import pytest
import websockets
from test_server_http import SERVER_SCRIPT, _free_port, _wait_http
from test_server_ws import COMPLETE, KEY, connect, say, text_of, until_complete

ROOT = Path(__file__).resolve().parent.parent
AUTH = {"Authorization": f"Bearer {KEY}"}
LIMIT = 4 * 1024 * 1024
BODY = 128 * 1024 * 1024  # 32 times the limit


@pytest.fixture(scope="module")
def server_proc(tmp_path_factory) -> Iterator[tuple[str, psutil.Process, Path]]:
    uploads = tmp_path_factory.mktemp("uploads")
    work = tmp_path_factory.mktemp("work")  # the long-request rule saves a 100,000-character message here
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERPRETER_")}
    env.update(INTERPRETER_PORT=str(port), INTERPRETER_API_KEY=KEY, INTERPRETER_MAX_UPLOAD_BYTES=str(LIMIT),
               INTERPRETER_UPLOAD_DIR=str(uploads), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SERVER_SCRIPT], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=work)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_http(url)
        yield url, psutil.Process(proc.pid), uploads
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def raw_upload(url: str, method: str, path: str, total: int, chunked: bool) -> tuple[int, dict, int]:
    """Send a `total`-byte body over a raw socket while watching for an early answer, as a careful
    client does; stop sending once the server has answered. Returns (status, JSON body, bytes sent)."""
    port = int(url.rsplit(":", 1)[1])
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {KEY}\r\n"
            "Content-Type: application/octet-stream\r\n")
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {total}\r\n"
    s.sendall(head.encode() + b"\r\n")
    block = b"x" * 65536
    piece = b"%x\r\n%s\r\n" % (len(block), block) if chunked else block
    sent, answer = 0, b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            readable, writable, _ = select.select([s], [s] if sent < total else [], [], 1)
            if readable:
                break
            if writable:
                s.sendall(piece)
                sent += len(block)
                if sent >= total and chunked:
                    s.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and hung up; the answer is still in our receive buffer
    try:
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < _length(answer):
            more = s.recv(65536)
            if not more:
                break
            answer += more
    finally:
        s.close()
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1]), sent


def _length(answer: bytes) -> int:
    for line in answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


def peak_rss(proc: psutil.Process) -> int:
    """VmHWM: the most memory the server has ever held, in bytes."""
    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("route", ["put_files", "openai"])
def test_oversized_body_gets_413_and_memory_stays_flat(server_proc, route: str, chunked: bool) -> None:
    url, proc, uploads = server_proc
    before = peak_rss(proc)
    method, path = ("PUT", "/files/big.bin") if route == "put_files" else ("POST", "/openai/chat/completions")
    status, body, sent = raw_upload(url, method, path, BODY, chunked)
    assert status == 413, body
    msg = body["error"]["message"]
    assert "limit of 4194304 bytes" in msg and "INTERPRETER_MAX_UPLOAD_BYTES" in msg
    assert sent < BODY // 4  # refused long before the end of the body
    if not chunked:
        assert sent < 2 * LIMIT  # a declared size over the limit is refused before the body is read
    grew = peak_rss(proc) - before
    assert grew < BODY // 8, f"server peak RSS grew by {grew / 1e6:.0f} MB for a refused {BODY / 1e6:.0f} MB body"
    assert list(uploads.iterdir()) == []  # nothing half-written left behind


def test_curl_with_expect_100_continue_gets_413_without_sending_the_body(server_proc, tmp_path) -> None:
    url, proc, uploads = server_proc
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.truncate(BODY)
    run = subprocess.run(["curl", "-sS", "-o", "-", "-w", "\n%{http_code} %{size_upload}", "-T", str(big),
                          "-H", f"Authorization: Bearer {KEY}", url + "/files/big.bin"],
                         capture_output=True, text=True, timeout=60)
    body, status = run.stdout.rsplit("\n", 1)
    code, uploaded = status.split()
    assert code == "413", run
    assert float(uploaded) < BODY / 4  # curl waited for 100-continue and got the refusal instead
    assert "limit of 4194304 bytes" in json.loads(body)["error"]["message"]


def test_upload_under_the_limit_is_stored_whole(server_proc) -> None:
    url, _, uploads = server_proc
    data = os.urandom(LIMIT - 10)
    r = httpx.put(url + "/files/ok.bin", content=data, headers=AUTH, timeout=60)
    assert r.status_code == 200, r.text
    assert (uploads / "ok.bin").read_bytes() == data
    assert sorted(p.name for p in uploads.iterdir()) == ["ok.bin"]
    (uploads / "ok.bin").unlink()


def test_openai_body_under_the_limit_still_works(server_proc) -> None:
    url, _, _ = server_proc
    r = httpx.post(url + "/openai/chat/completions", headers=AUTH, timeout=60,
                   json={"model": "x", "messages": [{"role": "user", "content": "p" * 100_000}]})
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "pong"


# -- WebSocket --------------------------------------------------------------------------------


@pytest.fixture
def start():
    from test_server_ws import make_template

    from oi_local.server.config import ServerConfig
    from oi_local.server.server import Server

    servers = []

    def _start(tmp: Path, **config: Any) -> Server:
        cfg = ServerConfig.from_env(api_key=KEY, upload_dir=tmp / "uploads")
        for k, v in config.items():
            setattr(cfg, k, v)
        srv = Server(make_template(auto_run=True), cfg).start(port=0)
        servers.append(srv)
        return srv

    yield _start
    for s in servers:
        s.stop()


@pytest.mark.parametrize("bad", [{"x": 1}, "1", True, None, [1], 1.5])
def test_a_bad_ack_gets_an_error_and_the_socket_stays_open(start, tmp_path, bad) -> None:
    srv = start(tmp_path)

    async def main() -> tuple[dict, str]:
        async with connect(srv) as ws:
            await ws.send(json.dumps({"ack": bad}))
            err = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await say(ws, "note still_here")
            return err, text_of(await until_complete(ws))

    err, text = asyncio.run(main())
    assert err["role"] == "server" and err["type"] == "error"
    assert "'ack' takes the id (an integer)" in err["content"]
    assert text == "notes: note still_here"


def test_an_internal_error_closes_with_1011_not_a_dropped_socket(start, tmp_path, monkeypatch) -> None:
    srv = start(tmp_path)
    from oi_local.server.session import Session

    def broken(self, data):  # a bug of ours, as the unhashable ack was
        raise TypeError("unhashable type: 'dict'")

    monkeypatch.setattr(Session, "handle", broken)

    async def main() -> tuple[dict, int]:
        async with connect(srv) as ws:
            await ws.send(json.dumps({"anything": 1}))
            err = json.loads(await asyncio.wait_for(ws.recv(), 10))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            return err, closed.value.rcvd.code

    err, code = asyncio.run(main())
    assert err["type"] == "error" and "internal server error: TypeError" in err["content"]
    assert code == 1011


def test_second_client_on_a_busy_session_is_told_busy_and_streams_the_rest_at_once(start, tmp_path) -> None:
    srv = start(tmp_path)

    async def main() -> tuple[list, float, list]:
        async with connect(srv, session="shared") as first:
            await say(first, "run shell: for i in 1 2 3 4 5 6; do echo tick$i; sleep 0.5; done")
            async with asyncio.timeout(20):
                while "tick1" not in (json.loads(await first.recv()).get("content") or ""):
                    pass
            t0 = time.monotonic()
            async with connect(srv, session="shared") as second:
                hello = json.loads(await asyncio.wait_for(second.recv(), 10))
                waited = time.monotonic() - t0
                rest = await until_complete(second, timeout=30)
                await say(second, "note after")
                after = await until_complete(second)
                return [hello, *rest], waited, after

    got, waited, after = asyncio.run(main())
    assert got[0] == {"role": "server", "type": "status", "content": "busy"}
    assert waited < 3, waited  # not the old 15 s wait
    console = text_of(got, "computer", "console")
    assert "tick6" in console and got[-1] == COMPLETE  # the rest of the running reply, then its end
    assert got.count(COMPLETE) == 1
    assert text_of(after) == "notes: note after"


def test_returning_client_after_its_reply_was_stopped_gets_no_stale_messages(start, tmp_path) -> None:
    srv = start(tmp_path)

    async def main() -> list:
        async with connect(srv, session="back") as ws:
            await say(ws, "run shell: sleep 30")
            async with asyncio.timeout(20):
                while json.loads(await ws.recv()).get("type") != "code":
                    pass
        async with connect(srv, session="back") as ws:  # the leaving stopped the reply
            await say(ws, "note fresh")
            return await until_complete(ws)

    msgs = asyncio.run(main())
    assert msgs[0] != {"role": "server", "type": "status", "content": "busy"}
    assert text_of(msgs) == "notes: note fresh" and msgs.count(COMPLETE) == 1
