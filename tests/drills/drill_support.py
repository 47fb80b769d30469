"""Shared pieces of the reliability drills: misbehaving model servers as real processes, the
environment for `interpreter` children."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


class ModelServer:
    def __init__(self, mode: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(HERE / "sse_server.py"), mode], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, start_new_session=True)
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"the fake model server did not start: {line!r} {self.proc.stderr.read()}")
        self.port = int(line.split()[1])
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)


def cli_env(**extra: str) -> dict[str, str]:
    """The environment for an `interpreter` child: this checkout first, no colour, the test's home."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
               NO_COLOR="1", TERM="dumb")
    env.update(extra)
    return env
