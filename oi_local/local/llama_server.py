"""Run llama_cpp.server with our CPU workarounds, as a CLI and as a managed subprocess.

`python -m oi_local.local.llama_server [llama_cpp.server args...]` is `python -m llama_cpp.server`
after `apply_cpu_workarounds()`, so the AMX segfault fix (see llama_safety.py) covers the server.
Running inference in a child process also means a native crash cannot take the chat down.
"""
from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from pathlib import Path
from typing import Sequence

from oi_local.errors import LLMError

_PARENT_ENV = "OI_LOCAL_SERVER_PARENT_PID"
_LOG_ENV = "OI_LOCAL_SERVER_LOG"
_running: set["RunningServer"] = set()
_PKG_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds `oi_local`


def _exit_when_orphaned(parent_pid: int, log_path: str | None) -> None:
    """Stop this server if the process that started it dies (even by SIGKILL, where atexit can't run)."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                if log_path:  # nobody is left to read or delete it
                    Path(log_path).unlink(missing_ok=True)
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5.0)
                os._exit(1)

    threading.Thread(target=watch, name="oi-parent-watch", daemon=True).start()


def main(argv: Sequence[str] | None = None) -> None:
    from oi_local.local.llama_safety import apply_cpu_workarounds

    apply_cpu_workarounds()
    parent = os.environ.get(_PARENT_ENV)
    if parent and parent.isdigit():
        _exit_when_orphaned(int(parent), os.environ.get(_LOG_ENV))
    from llama_cpp.server.__main__ import main as server_main

    if argv is not None:
        sys.argv = [sys.argv[0], *argv]
    server_main()


class RunningServer:
    """A llama_cpp.server child process in its own process group. Use as a context manager."""

    def __init__(self, process: subprocess.Popen, host: str, port: int, log_path: Path, model_path: Path) -> None:
        self.process = process
        self.host = host
        self.port = port
        self.log_path = log_path
        self.model_path = model_path

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def pid(self) -> int:
        return self.process.pid

    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return "".join(deque(f, maxlen=lines)).rstrip()
        except OSError:
            return ""

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the whole process group, kill it if it lingers, and reap it. Idempotent."""
        _running.discard(self)
        if self.process.poll() is None:
            for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
                try:
                    os.killpg(self.process.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.process.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        else:
            # The leader exited; anything it spawned in its group must go too.
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.process.wait()
        try:
            self.log_path.unlink()
        except OSError:
            pass

    def __enter__(self) -> "RunningServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"RunningServer(pid={self.pid}, api_base={self.api_base!r}, model={self.model_path.name!r})"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as r:
            return r.status == 200
    except urllib.error.HTTPError:
        return True  # it answers HTTP (e.g. 401 when started with --api_key): it is serving
    except (urllib.error.URLError, OSError, ValueError):
        return False


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.3)
        return s.connect_ex((host, port)) == 0


def _stop_on_signals() -> None:
    """Turn SIGTERM/SIGHUP into SystemExit so atexit stops our servers (SIGKILL is covered by
    each server watching its parent). Only where no one else has claimed the signal."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _exit_on_signal)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def launch(cmd: Sequence[str], *, host: str, port: int, model_path: Path, timeout: float, label: str,
           health_path: str = "/v1/models", env: dict[str, str] | None = None) -> RunningServer:
    """Start `cmd` (a server that will listen on host:port) in its own process group, wait until
    `health_path` answers, and return it. On failure: stop it, raise LLMError with the log tail."""
    if port_in_use(port, host):
        raise LLMError(f"Port {port} on {host} is already in use by another program: choose another port "
                       f"(or leave it unset to pick a free one).")
    log = tempfile.NamedTemporaryFile(prefix="oi-server-", suffix=".log", delete=False)
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env[_PARENT_ENV] = str(os.getpid())
    full_env[_LOG_ENV] = log.name
    full_env["PYTHONUNBUFFERED"] = "1"  # so the log (and the tail in our errors) is current
    _stop_on_signals()
    with log:
        try:
            process = subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                       env=full_env, start_new_session=True)
        except OSError as e:
            Path(log.name).unlink(missing_ok=True)
            raise LLMError(f"Cannot start the {label} ({cmd[0]}): {e.strerror or e}") from e
    server = RunningServer(process, host, port, Path(log.name), model_path)
    _running.add(server)
    deadline = time.monotonic() + timeout
    url = f"http://{host}:{port}{health_path}"
    try:
        while True:
            if process.poll() is not None:
                reason = f"it exited with code {process.returncode} while starting"
                break
            if _ready(url):
                return server
            if time.monotonic() > deadline:
                reason = f"not ready after {timeout:g} s"
                break
            time.sleep(0.1)
    except BaseException:  # Ctrl-C while waiting: no half-started server left behind
        server.stop(timeout=3.0)
        raise
    tail = server.log_tail(20)
    server.stop()
    raise LLMError(f"The {label} for {model_path.name} failed to start ({reason}). Last log lines:\n{tail}")


def start_llama_server(
    model_path: str | os.PathLike[str],
    port: int | None = None,
    n_ctx: int = 2048,
    host: str = "127.0.0.1",
    timeout: float = 60.0,
    *,
    model_alias: str | None = None,
    extra_args: Sequence[str] = (),
) -> RunningServer:
    """Start llama_cpp.server on `model_path` and wait until /v1/models answers.

    Raises LLMError (with the last 20 log lines) if it exits early or is not ready in `timeout` s,
    or at once if `port` is taken. `extra_args` go to llama_cpp.server as is (e.g. ["--api_key", "k"]).
    """
    path = Path(model_path).expanduser()
    if not path.is_file():
        raise LLMError(f"Model file not found: {path}")
    from oi_local.local.models import check_before_use

    check_before_use(path)
    port = port or free_port(host)
    cmd = [sys.executable, "-m", "oi_local.local.llama_server", "--model", str(path),
           "--host", host, "--port", str(port), "--n_ctx", str(n_ctx)]
    if model_alias:
        cmd += ["--model_alias", model_alias]
    from oi_local.local.models import projector_for

    projector = projector_for(path)
    if projector is not None and "--clip_model_path" not in extra_args:  # a vision model: it sees images
        cmd += ["--chat_format", "mtmd", "--clip_model_path", str(projector)]
    cmd += list(extra_args)
    # Make `oi_local` importable in the child even when it is run from a source checkout.
    pythonpath = os.pathsep.join(p for p in (str(_PKG_ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return launch(cmd, host=host, port=port, model_path=path, timeout=timeout, label="llama.cpp server",
                  env={"PYTHONPATH": pythonpath})


def llamafile_command(path: Path, host: str, port: int, n_ctx: int) -> list[str]:
    """The flags a llamafile server needs: --server (no chat UI), --nobrowser, where to listen, -c.
    Run through `sh` because on Linux the APE format may not be registered with binfmt_misc."""
    args = ["--server", "--nobrowser", "--host", host, "--port", str(port), "-c", str(n_ctx)]
    if os.name == "nt":
        return [str(path), *args]
    return ["sh", str(path), *args]


def start_llamafile(path: str | os.PathLike[str], port: int | None = None, n_ctx: int = 4096,
                    host: str = "127.0.0.1", timeout: float = 120.0) -> RunningServer:
    p = Path(path).expanduser()
    if not p.is_file():
        raise LLMError(f"llamafile not found: {p}")
    port = port or free_port(host)
    return launch(llamafile_command(p, host, port, n_ctx), host=host, port=port, model_path=p, timeout=timeout,
                  label="llamafile server")


def reuse_or_start(model_path: str | os.PathLike[str], n_ctx: int, *, llamafile: bool = False,
                   timeout: float = 120.0) -> RunningServer:
    """One server per (model, context) in this process: a second request reuses the first if it
    is still alive and answering, else starts a fresh one."""
    path = Path(model_path).expanduser().resolve()
    for server in list(_running):
        if (server.model_path.resolve() == path and getattr(server, "n_ctx", None) == n_ctx and server.running()
                and _ready(f"http://{server.host}:{server.port}/v1/models")):
            return server
    server = start_llamafile(path, n_ctx=n_ctx, timeout=timeout) if llamafile else \
        start_llama_server(path, n_ctx=n_ctx, timeout=timeout)
    server.n_ctx = n_ctx  # type: ignore[attr-defined]
    return server


def running_servers() -> list[RunningServer]:
    return [s for s in _running if s.running()]


@atexit.register
def _stop_all() -> None:
    for server in list(_running):
        server.stop(timeout=3.0)


if __name__ == "__main__":
    main()
