"""A real X server (Xvfb) and a small Tk window for the Computer API tests."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

APP = Path(__file__).with_name("x_test_app.py")


_used: set[int] = set()  # display numbers this test process had: never reused (clients cache connections)


class Xvfb:
    def __init__(self, width: int = 1024, height: int = 768, auth: str | None = None) -> None:
        if not shutil.which("Xvfb"):
            pytest.skip("Xvfb is not installed (scripts/test installs it: apt-get install xvfb)")
        for number in range(100 + os.getpid() % 400, 1000):
            if number in _used or os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
                continue
            _used.add(number)
            self.proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
                                          *(["-auth", auth] if auth else [])],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while not os.path.exists(f"/tmp/.X11-unix/X{number}") and self.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if self.proc.poll() is None and os.path.exists(f"/tmp/.X11-unix/X{number}"):
                self.display = f":{number}"
                return
            self.stop()
        raise RuntimeError("Xvfb did not start")

    def env(self) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class XApp:
    """tests/x_test_app.py in its own process; its state (label, entry) is also written to a file."""

    def __init__(self, x: Xvfb, state: Path) -> None:
        self.state_file = state
        self.proc = subprocess.Popen([sys.executable, str(APP), str(state)], env=x.env())
        deadline = time.monotonic() + 20
        while not state.exists():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the test window did not open")
            time.sleep(0.05)

    def state(self) -> dict:
        return json.loads(self.state_file.read_text())

    def wait_for(self, key: str, value: str, timeout: float = 5) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            s = self.state()
            if s.get(key) == value or time.monotonic() > deadline:
                return s
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(5)
