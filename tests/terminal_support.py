"""Helpers for the terminal tests: a scripted model (as a Python profile) and a tmux driver.

The scripted model is a real `llm.completions` function: it reads the conversation it is sent
and answers by keyword, so terminal tests are deterministic without a language model.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

SCRIPTED_PROFILE = r'''
# A scripted model for tests: answers by keyword, in OpenAI-style streamed chunks.
import re
import time
from interpreter import interpreter

REPLIES = {
    "sleep": "I will wait.\n```python\nimport time\nprint('sleeping now', flush=True)\ntime.sleep(60)\nprint('woke up')\n```\n",
    "danger": "```shell\nrm -rf /\n```\n",
    "planted": "```python\nimport subprocess\ncmd = 'echo planted'\nsubprocess.call(cmd, shell=True)\n```\n",
    "shell": "```shell\necho shell-says-hi\n```\n",
    "slowly": "Let me think. " + " ".join(f"w{i}" for i in range(400)),
    "slowcode": "```python\n# slow\n" + "".join(f"print('line {i}')\n" for i in range(60)) + "```\n",
    "emoji": "Half an emoji: \ud83d, and the rest of the reply.",
    "plot": "```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.show()\nprint('plotted')\n```\n",
}
DEFAULT = "Here is code.\n```python\nprint('hello from code', 6 * 7)\n```\n"


def completions(messages, **kwargs):
    import json, os
    if os.environ.get("OI_TEST_PROMPT_LOG"):  # what the model was sent, for tests to read
        with open(os.environ["OI_TEST_PROMPT_LOG"], "a", encoding="utf-8") as f:
            f.write(json.dumps(messages, ensure_ascii=True) + "\n")
    last = messages[-1]["content"] if messages else ""
    last = last if isinstance(last, str) else str(last)
    if "END OUTPUT" in last and "\n\n" not in last.rsplit("END OUTPUT", 1)[1]:  # output, no newer request
        out = last.rsplit("CODE OUTPUT:", 1)[-1]
        lines = [l for l in out.splitlines() if l.strip()]
        text = "Done: the code printed " + (lines[0].strip() if len(lines) > 1 else "nothing") + "."
    else:
        request = last.split("\n\n")[-1].lower()  # a new request merged after an output
        text = DEFAULT
        for key, reply in REPLIES.items():
            if key in request:
                text = reply
                break
    slow = text.startswith("Let me think") or text.startswith("```python\n# slow")
    for piece in re.findall(r"\s*\S+|\s+", text):
        if slow:
            time.sleep(0.05)
        yield {"choices": [{"delta": {"content": piece}}]}


interpreter.llm.completions = completions
interpreter.llm.model = None
# Our own output templates, so the script does not depend on the bundled prompt wording.
interpreter.code_output_template = "CODE OUTPUT:\n{content}\nEND OUTPUT"
interpreter.empty_code_output_template = "CODE OUTPUT:\n(nothing)\nEND OUTPUT"
interpreter.code_output_sender = "user"
'''


def write_scripted_profile(folder: Path) -> Path:
    path = folder / "scripted.py"
    path.write_text(SCRIPTED_PROFILE)
    return path


class Tmux:
    """One program running in its own tmux server, driven with send-keys and read with capture-pane."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, width: int = 160, height: int = 50) -> None:
        self.socket = f"oi-test-{uuid.uuid4().hex[:8]}"
        full_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color", "PYTHONUNBUFFERED": "1",
                    "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **env}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in full_env.items())
        # `trap : INT`: the wrapping shell survives Ctrl-C (the program still gets it) to report the exit code.
        inner = f"trap : INT; cd {shlex.quote(str(cwd))} && env {exports} {shlex.join(argv)}; echo \"[exit $?]\"; sleep 600"
        self._tmux("new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height), "sh", "-c", inner)

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True).stdout

    def send(self, text: str, enter: bool = True) -> None:
        if text:
            self._tmux("send-keys", "-t", "main", "-l", text)
        if enter:
            self._tmux("send-keys", "-t", "main", "Enter")

    def key(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "main", *keys)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-J", "-t", "main", "-S", "-3000")

    def wait_for(self, pattern: str, timeout: float = 30.0, after: int = 0) -> str:
        """Wait until `pattern` (a regex) appears on the screen after character `after`; return the screen."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if re.search(pattern, text[after:]):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {pattern!r}; screen was:\n{text}")

    def count(self, pattern: str) -> int:
        return len(re.findall(pattern, self.screen()))

    def close(self) -> None:
        path = subprocess.run(["tmux", "-L", self.socket, "display-message", "-p", "#{socket_path}"],
                              capture_output=True, text=True).stdout.strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if path:
            Path(path).unlink(missing_ok=True)  # tmux leaves the socket file behind


def interpreter_argv(*args: str) -> list[str]:
    return [PYTHON, "-m", "oi_local.terminal.cli", *args]
