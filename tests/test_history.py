"""Conversation history: saved append-only as it happens, with model and settings, surviving kill -9."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from terminal_support import ROOT, SCRIPTED_PROFILE

from oi_local._paths import conversations_dir
from oi_local.interpreter import OpenInterpreter
from oi_local.terminal import history


def scripted_interp(**settings) -> OpenInterpreter:
    interp = OpenInterpreter(**settings)
    scope = {"__name__": "profile", "interpreter": interp}
    import oi_local

    old = oi_local._default
    oi_local._default = interp
    try:
        exec(SCRIPTED_PROFILE, scope)
    finally:
        oi_local._default = old
    return interp


def records(path: Path) -> list[dict]:
    return [json.loads(l) for l in path.read_text().splitlines()]


def test_chat_is_saved_with_model_and_settings() -> None:
    interp = scripted_interp(auto_run=True)
    try:
        interp.chat("hello there", display=False)
    finally:
        interp.close()
    files = list(conversations_dir().glob("*.jsonl"))
    assert len(files) == 1 and "hello_there" in files[0].name
    recs = records(files[0])
    assert recs[0]["kind"] == "header"
    assert recs[0]["settings"]["auto_run"] is True and recs[0]["settings"]["llm.kind"] == "function"
    assert "llm.model" in recs[0]["settings"]
    assert history.load(files[0]) == [{k: v for k, v in m.items() if k != "closed"} for m in interp.messages]
    kinds = [m["type"] for m in history.load(files[0])]
    assert kinds[:4] == ["message", "message", "code", "console"]


def test_undo_and_edits_are_appended_not_rewritten(tmp_path: Path) -> None:
    log = history.ConversationLog(tmp_path / "c.jsonl")
    msgs = [{"role": "user", "type": "message", "content": "a"},
            {"role": "assistant", "type": "message", "content": "b"}]
    log.sync(msgs)
    size = (tmp_path / "c.jsonl").stat().st_size
    before = (tmp_path / "c.jsonl").read_bytes()
    msgs[1] = {"role": "assistant", "type": "message", "content": "b2"}
    msgs.append({"role": "user", "type": "message", "content": "c"})
    log.sync(msgs)
    del msgs[1:]
    log.sync(msgs)
    log.close()
    data = (tmp_path / "c.jsonl").read_bytes()
    assert data.startswith(before) and len(data) > size  # append-only
    assert [r["kind"] for r in records(tmp_path / "c.jsonl")] == ["message", "message", "truncate", "message", "message", "truncate"]
    assert history.load(tmp_path / "c.jsonl") == [{"role": "user", "type": "message", "content": "a"}]


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps({"kind": "message", "message": {"role": "user", "type": "message", "content": "kept"}}) + "\n"
                 + '{"kind": "message", "message": {"role": "assis')
    assert history.load(p) == [{"role": "user", "type": "message", "content": "kept"}]


def test_settings_history_off_filename_and_path(tmp_path: Path) -> None:
    interp = scripted_interp(auto_run=True, conversation_history=False)
    try:
        interp.chat("hello", display=False)
    finally:
        interp.close()
    assert not conversations_dir().exists() or not list(conversations_dir().iterdir())
    interp = scripted_interp(auto_run=True, conversation_filename="my_conversation.json",
                             conversation_history_path=str(tmp_path / "mine"))
    try:
        interp.chat("hello", display=False)
    finally:
        interp.close()
    saved = tmp_path / "mine" / "my_conversation.json"
    assert saved.is_file() and history.load(saved)[0]["content"] == "hello"


def test_list_is_newest_first_with_titles(tmp_path: Path) -> None:
    for i, text in enumerate(["first question here", "second one"]):
        log = history.ConversationLog(tmp_path / f"{i}.jsonl")
        log.sync([{"role": "user", "type": "message", "content": text}])
        log.close()
        os.utime(tmp_path / f"{i}.jsonl", (1000 + i, 1000 + i))
    entries = history.list_conversations(tmp_path)
    assert [e.title for e in entries] == ["second one", "first question here"]


KILL_SCRIPT = r"""
import sys, oi_local
from oi_local.interpreter import OpenInterpreter
interp = OpenInterpreter(auto_run=True)
oi_local._default = interp
exec(open(sys.argv[1]).read(), {"__name__": "p", "interpreter": interp})
for c in interp.chat("please sleep", display=False, stream=True):
    if c.get("type") == "console" and c.get("format") == "output" and "sleeping" in (c.get("content") or ""):
        print("SLEEPING", flush=True)
"""


@pytest.mark.slow
def test_history_and_profile_survive_kill_9_mid_turn(tmp_path: Path) -> None:
    from oi_local.terminal import profiles

    default = profiles.ensure_default()
    default_text = default.read_text()
    prof = tmp_path / "scripted.py"
    prof.write_text(SCRIPTED_PROFILE)
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(prof)], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT, env=os.environ.copy(), start_new_session=True)
    children: list[psutil.Process] = []
    try:
        assert proc.stdout.readline().strip() == "SLEEPING"  # mid-turn: the code is running
        children = psutil.Process(proc.pid).children(recursive=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for child in children:  # the code runs in its own session: clean it up too
            try:
                child.kill()
            except psutil.Error:
                pass
    files = list(conversations_dir().glob("*.jsonl"))
    assert len(files) == 1
    msgs = history.load(files[0])
    assert msgs[0] == {"role": "user", "type": "message", "content": "please sleep"}
    assert any(m["type"] == "code" and "time.sleep(60)" in m["content"] for m in msgs)
    assert default.read_text() == default_text
    interp = OpenInterpreter()
    profiles.load(interp, "default")  # still a valid profile


@pytest.mark.parametrize("damage", [
    '{"kind": "message", "message": {"role": "user", "ty\x00\x00pe": "mes',  # torn mid-file by a crash
    '{"kind": "truncate", "length": "zero"}',
    '{"kind": "message", "message": "not a message"}',
    '{"kind": "header", "settings": "garbled"}',
    '{"kind": "message", "message": {"role": 7, "type": "message", "content": "x"}}',
    '[1, 2, 3]',
    '{"n": ' + "9" * 5000 + '}',  # json.loads raises a plain ValueError for a too-long number
])
def test_one_damaged_line_is_skipped_once_and_everything_else_loads(tmp_path: Path, capsys, damage: str) -> None:
    """Was: one damaged line broke `--conversations` for every conversation."""
    d = tmp_path / "convs"
    good = history.ConversationLog(d / "2024-01-01_a.jsonl")
    good.sync([{"role": "user", "type": "message", "content": "first chat"}])
    good.close()
    bad = d / "2024-01-02_b.jsonl"
    lines = [json.dumps({"kind": "header", "version": 1, "title": "second", "settings": {"llm.model": "m"}}),
             json.dumps({"kind": "message", "message": {"role": "user", "type": "message", "content": "second chat"}}),
             damage,
             json.dumps({"kind": "message", "message": {"role": "assistant", "type": "message", "content": "reply"}})]
    if damage.startswith('{"kind": "header"'):
        lines = lines[2:3] + lines[1:2] + lines[3:]  # a damaged header is the first line
    bad.write_text("\n".join(lines) + "\n")
    entries = history.list_conversations(d)
    assert sorted(e.title for e in entries) == ["first chat", "second chat"]
    assert [m["content"] for m in history.load(bad)] == ["second chat", "reply"]
    assert isinstance(history.header(bad), dict)
    err = capsys.readouterr().err
    line_no = lines.index(damage) + 1
    assert err.count(f"skipped line {line_no} of {bad}") == 1, err  # said once, though read three times
    assert err.count("Warning") == 1


def test_conversations_command_lists_all_despite_a_damaged_file(tmp_path: Path) -> None:
    d = conversations_dir()
    ok = history.ConversationLog(d / "2024-01-01_ok.jsonl")
    ok.sync([{"role": "user", "type": "message", "content": "healthy one"}])
    ok.close()
    (d / "2024-01-02_bad.jsonl").write_bytes(b'{"kind": "truncate", "length": null}\n\xff\xfe garbage\n'
                                             + json.dumps({"kind": "message", "message": {"role": "user", "type": "message", "content": "damaged one"}}).encode() + b"\n")
    run = subprocess.run([sys.executable, "-m", "oi_local.terminal.cli", "--conversations"], capture_output=True,
                         text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert run.returncode == 0, run.stderr
    assert "healthy one" in run.stdout and "damaged one" in run.stdout
    assert "Traceback" not in run.stderr
    assert "skipped line 1 of" in run.stderr and "skipped line 2 of" in run.stderr
