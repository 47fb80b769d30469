"""One real llama.cpp OpenAI-compatible server for a whole eval run, shared by both targets so
that ours and the original are compared on the same model, weights and sampling."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

# Launch llama_cpp.server with the CPU workaround from NOTES.md (AMX crash) applied, when our
# package provides it; otherwise plain.
_LAUNCHER = """
import runpy, sys
try:
    from oi_local.local.llama_safety import apply_cpu_workarounds
    apply_cpu_workarounds()
except Exception:
    pass
sys.argv = ["llama_cpp.server"] + sys.argv[1:]
runpy.run_module("llama_cpp.server", run_name="__main__")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, model: str, n_ctx: int, log: Path) -> None:
        self.model, self.n_ctx, self.log = model, n_ctx, log
        self.proc: subprocess.Popen | None = None
        self.handle: Any = None  # from oi_local.local.llama_server, when it exists
        self.base = ""

    @staticmethod
    def thread_args() -> list[str]:
        """The embedded back end's thread count: llama_cpp.server defaults to half the CPUs."""
        try:
            from oi_local.llm.backends.embedded import default_threads

            n = default_threads()
        except ImportError:
            n = os.cpu_count() or 1
        return ["--n_threads", str(n), "--n_threads_batch", str(n)]

    def start(self, timeout: float = 120) -> str:
        """Start and wait until /v1/models answers; returns the base URL ending in /v1."""
        try:
            from oi_local.local.llama_server import start_llama_server  # type: ignore
        except ImportError:
            start_llama_server = None
        if start_llama_server is not None:
            self.handle = start_llama_server(self.model, n_ctx=self.n_ctx, timeout=timeout, extra_args=self.thread_args())
            self.base = str(self.handle.api_base).rstrip("/")
            return self.base
        port = free_port()
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _LAUNCHER, "--model", self.model, "--host", "127.0.0.1", "--port", str(port),
                 "--n_ctx", str(self.n_ctx), *self.thread_args()],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                env={**os.environ, "HF_HUB_OFFLINE": "1"})
        self.base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(self.base + "/models", timeout=2) as r:
                    if r.status == 200:
                        return self.base
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not answer within {timeout:.0f}s; see {self.log}")

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.stop()
            try:  # keep the server's log with the results
                log_path = getattr(self.handle, "log_path", None)
                if log_path:
                    self.log.parent.mkdir(parents=True, exist_ok=True)
                    self.log.write_bytes(Path(log_path).read_bytes())
            except OSError:
                pass
            self.handle = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
