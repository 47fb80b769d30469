"""HTTP side of the server: /settings allowlist, the OpenAI-compatible endpoint with the official
`openai` client, user routes, keys and env variables of a real server process."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai
import pytest
from procs import running_with, unique_sleep, wait_some
from test_server_ws import KEY, make_template

from oi_local.server.config import ServerConfig
from oi_local.server.server import Server

AUTH = {"Authorization": f"Bearer {KEY}"}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def srv(tmp_path):
    s = Server(make_template(auto_run=True), ServerConfig.from_env(api_key=KEY, upload_dir=tmp_path / "up")).start(port=0)
    yield s
    s.stop()


def test_harmless_settings_change_and_read_back(srv) -> None:
    r = httpx.post(srv.url + "/settings", headers=AUTH,
                   json={"custom_instructions": "You only write Python code.", "llm": {"temperature": 0.5, "max_tokens": 64}})
    assert r.status_code == 200, r.text
    assert httpx.get(srv.url + "/settings/custom_instructions", headers=AUTH).json() == {"custom_instructions": "You only write Python code."}
    assert httpx.get(srv.url + "/settings/llm.max_tokens", headers=AUTH).json() == {"llm.max_tokens": 64}
    # New conversations get the new defaults.
    assert srv.new_interpreter().custom_instructions == "You only write Python code."


def test_forbidden_settings_are_refused_and_change_nothing(srv) -> None:
    for payload in ({"auto_run": False}, {"system_message": "obey"}, {"llm": {"api_key": "sk-x"}},
                    {"computer": {"languages": ["python"]}}, {"llm": {"model": "gpt-4"}},
                    {"custom_instructions": "sneaky", "auto_run": True}, {"confirm_destructive": False}):
        r = httpx.post(srv.url + "/settings", headers=AUTH, json=payload)
        assert r.status_code == 403, (payload, r.text)
        assert "INTERPRETER_ALLOW_UNSAFE_SETTINGS" in r.json()["error"]["message"]
    assert srv.template.custom_instructions == ""  # the harmless half of a refused request was not applied
    assert srv.template.auto_run is True and srv.template.confirm_destructive is True
    r = httpx.post(srv.url + "/settings", headers=AUTH, json={"fresh_retries": 1, "code_first": False, "file_hints": False})
    assert r.status_code == 200, r.text
    assert (srv.template.fresh_retries, srv.template.code_first, srv.template.file_hints) == (1, False, False)
    assert httpx.get(srv.url + "/settings/llm.api_key", headers=AUTH).status_code == 403
    assert httpx.post(srv.url + "/settings", headers=AUTH, json={"no_such": 1}).status_code == 400
    assert httpx.post(srv.url + "/settings", headers=AUTH, json={"llm": {"temperature": "hot"}}).status_code == 400
    assert httpx.post(srv.url + "/settings", json={"custom_instructions": "x"}).status_code == 401


def test_privileged_settings_need_the_start_flag(tmp_path) -> None:
    cfg = ServerConfig.from_env(api_key=KEY, upload_dir=tmp_path, allow_unsafe_settings=True)
    s = Server(make_template(auto_run=False), cfg).start(port=0)
    try:
        r = httpx.post(s.url + "/settings", headers=AUTH, json={"auto_run": True, "computer": {"languages": ["python", "shell"]}})
        assert r.status_code == 200, r.text
        assert s.template.auto_run is True
        assert httpx.get(s.url + "/settings/computer.languages", headers=AUTH).json() == {"computer.languages": ["python", "shell"]}
        bad = httpx.post(s.url + "/settings", headers=AUTH, json={"computer": {"languages": ["cobol"]}})
        assert bad.status_code == 400 and "cobol" in bad.text
    finally:
        s.stop()


def test_openai_client_non_streaming_uses_the_whole_history(srv) -> None:
    client = openai.OpenAI(base_url=srv.url + "/openai", api_key=KEY, max_retries=0)
    r = client.chat.completions.create(model="anything", messages=[
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "note alpha"},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "note beta"},
    ])
    assert r.choices[0].message.content == "notes: note alpha, note beta"
    assert r.choices[0].finish_reason == "stop" and r.model == "anything"
    # A fresh request knows nothing of the previous one: the history is what the client sends.
    r2 = client.chat.completions.create(model="x", messages=[{"role": "user", "content": "note gamma"}])
    assert r2.choices[0].message.content == "notes: note gamma"


def test_openai_client_streaming_runs_code_and_shows_output(srv) -> None:
    client = openai.OpenAI(base_url=srv.url + "/openai", api_key=KEY, max_retries=0)
    stream = client.chat.completions.create(model="x", stream=True,
                                            messages=[{"role": "user", "content": "run python: print(6*7)"}])
    pieces, finishes = [], []
    for chunk in stream:
        pieces.append(chunk.choices[0].delta.content or "")
        if chunk.choices[0].finish_reason:
            finishes.append(chunk.choices[0].finish_reason)
    text = "".join(pieces)
    assert "```python\nprint(6*7)\n```" in text
    assert "```output\n42\n```" in text
    assert text.rstrip().endswith("Output was 42")
    assert finishes == ["stop"]
    assert len(pieces) > 3


def test_openai_endpoint_refuses_bad_keys_and_bad_bodies(srv) -> None:
    bad = openai.OpenAI(base_url=srv.url + "/openai", api_key="wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        bad.chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}])
    r = httpx.post(srv.url + "/openai/chat/completions", headers=AUTH, json={"model": "x", "messages": []})
    assert r.status_code == 400
    r = httpx.post(srv.url + "/openai/chat/completions", headers=AUTH,
                   json={"model": "x", "messages": [{"role": "user", "content": "boom"}]})
    assert r.status_code == 500 and "scripted model failed" in r.text


def test_user_routes_on_the_app_need_the_key_too(srv) -> None:
    @srv.app.get("/custom")
    async def custom() -> dict[str, str]:
        return {"message": "This is a custom route"}

    assert httpx.get(srv.url + "/custom").status_code == 401
    assert httpx.get(srv.url + "/custom", headers=AUTH).json() == {"message": "This is a custom route"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVER_SCRIPT = """
from interpreter import AsyncInterpreter
def model(messages):
    yield "pong"
ai = AsyncInterpreter()
ai.llm.completions = model
ai.conversation_history = False
ai.server.run()
"""


def _run_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-c", SERVER_SCRIPT], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    banner = ""
    deadline = time.monotonic() + 60
    while "Clients send it" not in banner:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        if not line or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("server did not start: " + banner)
        banner += line
    return proc, banner


@pytest.mark.slow
def test_server_process_generates_and_prints_a_key_and_honours_host_and_port(tmp_path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERPRETER_")}
    env.update(INTERPRETER_PORT=str(port), INTERPRETER_HOST="127.0.0.1", PYTHONPATH=str(ROOT))
    proc, banner = _run_server(env)
    try:
        key = banner.split("API key (generated; set INTERPRETER_API_KEY to choose one): ")[1].split()[0]
        assert len(key) >= 24
        url = f"http://127.0.0.1:{port}"
        _wait_http(url)
        assert httpx.get(url + "/heartbeat").status_code == 401
        assert httpx.get(url + "/heartbeat", headers={"Authorization": "Bearer anything"}).status_code == 401
        client = openai.OpenAI(base_url=url + "/openai", api_key=key, max_retries=0)
        assert client.chat.completions.create(model="x", messages=[{"role": "user", "content": "ping"}]).choices[0].message.content == "pong"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    env["INTERPRETER_API_KEY"] = "chosen-key"
    env["INTERPRETER_PORT"] = str(_free_port())
    proc, banner = _run_server(env)
    try:
        assert "chosen-key" not in banner and "from INTERPRETER_API_KEY" in banner
        url = f"http://127.0.0.1:{env['INTERPRETER_PORT']}"
        _wait_http(url)
        assert httpx.get(url + "/heartbeat", headers={"Authorization": "Bearer chosen-key"}).status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _wait_http(url: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(url + "/heartbeat", timeout=1)
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_async_interpreter_import_does_not_load_fastapi() -> None:
    code = ("import sys; from interpreter import AsyncInterpreter; a = AsyncInterpreter(); "
            "print('fastapi' in sys.modules); a.server; print('fastapi' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.split() == ["False", "True"], out.stderr
    code = "import sys, oi_local.terminal.cli; print(any(m.startswith(('fastapi', 'uvicorn', 'oi_local.server')) for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_openai_stream_closed_by_the_client_stops_its_code(srv) -> None:
    import re

    mark = unique_sleep()  # found by its command line: code in the sandbox has its own pids
    body = {"model": "x", "stream": True, "messages": [{"role": "user", "content": f"run shell: sleep {mark} & echo PID=$!; wait"}]}
    seen = False
    with httpx.stream("POST", srv.url + "/openai/chat/completions", headers=AUTH, json=body, timeout=30) as r:
        for line in r.iter_lines():
            if re.search(r"PID=(\d+)", line):
                seen = bool(wait_some(f"sleep\0{mark}"))
                break  # leaving the block closes the connection mid-reply
    assert seen
    deadline = time.monotonic() + 15
    while running_with(f"sleep\0{mark}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not running_with(f"sleep\0{mark}")


def test_async_interpreter_achat_streams_and_keeps_its_own_history() -> None:
    import asyncio

    ai = make_template(auto_run=True)

    async def main() -> tuple[list, list]:
        first = [c async for c in ai.achat("run python: print(6*7)")]
        second = [c async for c in ai.achat("note one")]
        return first, second

    first, second = asyncio.run(main())
    try:
        # Output may arrive in pieces ("42", "\n" under load): join the output chunks.
        assert "".join(c.get("content") or "" for c in first if c.get("format") == "output") == "42\n"
        assert "".join(c.get("content") or "" for c in second if c.get("type") == "message") == "notes: note one"
        assert [m["role"] for m in ai.messages][:1] == ["user"] and len(ai.messages) >= 5
        other = ai.spawn()
        assert other.messages == ai.messages and other.messages is not ai.messages
        assert other.computer is not ai.computer and other.llm.completions is ai.llm.completions
    finally:
        ai.close()


@pytest.mark.slow
@pytest.mark.parametrize("unsafe", [False, True])
def test_interpreter_dash_dash_server_serves_with_the_cli_settings(tmp_path, unsafe) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INTERPRETER_")}
    env.update(INTERPRETER_API_KEY="cli-key", PYTHONPATH=str(ROOT))
    code = "import sys; from oi_local.terminal.cli import main; sys.exit(main(sys.argv[1:]))"
    flags = ["--allow_unsafe_settings"] if unsafe else []
    proc = subprocess.Popen([sys.executable, "-c", code, "--server", "--port", str(port), "--custom_instructions", "Be terse.", *flags],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_http(url)
        except httpx.TransportError:
            proc.kill()
            raise AssertionError(proc.stdout.read())  # type: ignore[union-attr]
        r = httpx.get(url + "/settings/custom_instructions", headers={"Authorization": "Bearer cli-key"})
        assert r.json() == {"custom_instructions": "Be terse."}
        assert httpx.get(url + "/settings/custom_instructions").status_code == 401
        # auto_run is privileged: only a server started with --allow_unsafe_settings accepts it.
        r = httpx.post(url + "/settings", headers={"Authorization": "Bearer cli-key"}, json={"auto_run": True})
        assert r.status_code == (200 if unsafe else 403), r.text
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_settings_for_one_live_conversation(srv) -> None:
    import asyncio

    from test_server_ws import connect, say, text_of, until_complete

    async def main() -> None:
        async with connect(srv, session="tuned"):
            r = httpx.post(srv.url + "/settings?session=tuned", headers=AUTH, json={"custom_instructions": "Only this one."})
            assert r.status_code == 200
            got = httpx.get(srv.url + "/settings/custom_instructions?session=tuned", headers=AUTH)
            assert got.json() == {"custom_instructions": "Only this one."}
        async with connect(srv) as other:
            await say(other, "note x")
            assert text_of(await until_complete(other)) == "notes: note x"

    asyncio.run(main())
    assert srv.template.custom_instructions == ""
    assert srv.sessions["tuned"].interp.custom_instructions == "Only this one."
    assert httpx.get(srv.url + "/settings/custom_instructions?session=nope", headers=AUTH).status_code == 404
