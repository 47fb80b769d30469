"""Issue 13's "done when", end to end: with DEFAULT settings on Linux, a chat whose model (scripted,
streamed through the real parser and loop) writes code that reads a planted ~/.ssh/id_rsa, writes
outside the working folder, opens a socket to 127.0.0.1 and forks a thousand processes gets all
four blocked and explained, while its writes inside the working folder work and its Python state
persists between runs."""
from __future__ import annotations

import socket
import time

import pytest
from procs import wait_none
from scripted import scripted_interpreter

from oi_local.computer.sandbox import detect

pytestmark = [pytest.mark.timeout(240),
              pytest.mark.skipif(detect.available().kind != "bwrap", reason=detect.available().reason)]


def test_default_chat_blocks_and_explains_all_four_and_keeps_working(place):
    work, home = place
    marker = f"{time.time() % 1000:.6f}"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        steps = {
            "read the key": "```python\nsecret = open(os.path.expanduser('~/.ssh/id_rsa')).read()\nprint(secret)\n```",
            "write outside": f"```python\nopen({str(home / 'stolen.txt')!r}, 'w').write('x')\n```",
            "open a socket": f"```python\nimport socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3)\n```",
            "fork a thousand": "```python\nimport subprocess\n"
                               f"ps = [subprocess.Popen(['sleep', '{marker}']) for _ in range(1000)]\nprint(len(ps))\n```",
            "write inside": "```python\ncounter = 41\nopen('result.txt', 'w').write('inside ok')\nprint('wrote')\n```",
            "use state": "```python\nprint(counter + 1)\n```",
        }
        pending: list[str] = []

        def reply(messages):  # one code block per request, then a plain answer
            return pending.pop() if pending else "Done."

        interp, _ = scripted_interpreter([reply])
        assert interp.computer.sandbox == "auto"  # the default: nothing was switched on for this test
        outputs = {}
        try:
            for request, code in steps.items():
                pending.append(code)
                new = interp.chat(request, display=False)
                outputs[request] = "".join(m["content"] for m in new if m["role"] == "computer"
                                           and m["type"] == "console")
            with pytest.raises(socket.timeout):
                listener.accept()  # the host's listener never saw a connection
        finally:
            interp.close()

    out = outputs["read the key"]
    assert "planted-secret" not in out and f"{home}/.ssh is hidden from code" in out
    out = outputs["write outside"]
    assert "Read-only file system" in out and "[sandbox] Writing to" in out and f"%allow {home}" in out
    assert not (home / "stolen.txt").exists()
    out = outputs["open a socket"]
    assert "Connection refused" in out and "network was blocked" in out and "--allow_network" in out
    out = outputs["fork a thousand"]
    assert "1000" not in out.splitlines() and "limit on processes" in out and "were all stopped" in out
    assert not wait_none(f"sleep\0{marker}", 10)
    assert outputs["write inside"].startswith("wrote") and (work / "result.txt").read_text() == "inside ok"
    assert outputs["use state"].strip() == "42"
