"""Drill: a real server process (`AsyncInterpreter().server.run()`, as `interpreter --server` runs it)
is reached without the key, with a wrong key, from a foreign web page (Origin), and with the key
where it must not be accepted (a query string over plain HTTP). Every route refuses, the
WebSocket handshake included, and nothing is read, written or run."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import httpx
import pytest
import websockets
from test_server_http import SERVER_SCRIPT, _free_port, _wait_http
from websockets.exceptions import InvalidStatus

ROOT = Path(__file__).resolve().parents[2]
KEY = "drill-key-0123456789"
EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    uploads = tmp_path_factory.mktemp("uploads")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERPRETER_")}
    env.update(INTERPRETER_PORT=str(port), INTERPRETER_API_KEY=KEY, INTERPRETER_UPLOAD_DIR=str(uploads),
               PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", SERVER_SCRIPT], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_http(url)
        yield url, uploads
    finally:
        proc.terminate()
        proc.wait(timeout=30)


ROUTES = [("GET", "/heartbeat", None), ("GET", "/settings", None), ("POST", "/settings", b'{"auto_run": true}'),
          ("PUT", "/files/x.txt", b"planted"), ("GET", "/no/such/route", None),
          ("POST", "/openai/chat/completions", b'{"model": "x", "messages": [{"role": "user", "content": "hi"}]}')]


@pytest.mark.parametrize("method,path,body", ROUTES)
def test_every_route_refuses_a_missing_or_wrong_key(server, method, path, body) -> None:
    url, uploads = server
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"X-API-Key": "wrong"}, {"Authorization": f"Basic {KEY}"}):
        r = httpx.request(method, url + path, content=body, headers=headers)
        assert r.status_code == 401, (headers, r.text)
        assert r.json()["error"]["type"] == "auth_error"
    # A key in the query string is only for browsers' WebSockets; over HTTP it would end up in logs.
    assert httpx.request(method, url + path + f"?api_key={KEY}", content=body).status_code == 401
    assert list(uploads.iterdir()) == []


@pytest.mark.parametrize("method,path,body", ROUTES)
def test_a_foreign_web_page_is_refused_even_with_the_key(server, method, path, body) -> None:
    url, uploads = server
    r = httpx.request(method, url + path, content=body, headers={"Authorization": f"Bearer {KEY}", "Origin": EVIL})
    assert r.status_code == 403 and "Origin not allowed" in r.json()["error"]["message"]
    pre = httpx.options(url + path, headers={"Origin": EVIL, "Access-Control-Request-Method": method})
    assert "access-control-allow-origin" not in pre.headers  # the browser will not send the real request
    assert list(uploads.iterdir()) == []


def test_the_key_works_where_it_should(server) -> None:
    url, _ = server
    own = url  # a page served from the server's own address
    assert httpx.get(url + "/heartbeat", headers={"Authorization": f"Bearer {KEY}"}).json() == {"status": "alive"}
    assert httpx.get(url + "/heartbeat", headers={"X-API-Key": KEY, "Origin": own}).status_code == 200


def test_websocket_handshake_refuses_without_key_or_from_a_foreign_origin(server) -> None:
    url, _ = server
    ws = url.replace("http://", "ws://") + "/"

    async def status(target: str, **kw) -> int | None:
        try:
            async with websockets.connect(target, proxy=None, open_timeout=10, **kw):
                return None
        except InvalidStatus as e:
            return e.response.status_code

    async def main() -> list[int | None]:
        return [
            await status(ws),
            await status(ws, additional_headers={"Authorization": "Bearer wrong"}),
            await status(ws + "?api_key=wrong"),
            await status(ws + f"?api_key={KEY}", origin=EVIL),
            await status(ws, additional_headers={"Authorization": f"Bearer {KEY}"}, origin=EVIL),
            await status(ws + f"?api_key={KEY}", origin=url),  # the server's own page: allowed
        ]

    assert asyncio.run(main()) == [403, 403, 403, 403, 403, None]


def test_an_unauthenticated_upload_is_refused_before_its_body_is_read(server) -> None:
    url, uploads = server
    body = b"x" * (32 * 1024 * 1024)
    try:
        r = httpx.put(url + "/files/big.bin", content=body, timeout=30)
        assert r.status_code == 401
    except httpx.TransportError:
        pass  # the server answered and hung up before taking 32 MB from a stranger: also a refusal
    assert list(uploads.iterdir()) == []
