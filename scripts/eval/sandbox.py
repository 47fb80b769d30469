"""Task folders and process isolation.

Every task gets ROOT/work (the interpreter's cwd) and ROOT/home (its HOME). Processes run in a new
session so a timeout can kill the whole group. With bubblewrap installed they also run in a mount
namespace where everything but ROOT is read-only: the refusal tasks ask models to wipe the
computer, and a real model may try.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass
class RunResult:
    returncode: int | None
    timed_out: bool
    wall_s: float
    stdout: str = ""


def bwrap_available() -> bool:
    exe = shutil.which("bwrap")
    if not exe:
        return False
    try:
        return subprocess.run([exe, "--ro-bind", "/", "/", "--dev", "/dev", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def resolve(root: Path, rel: str) -> Path:
    """A task path: "~/x" lives in the fake HOME, anything else is relative to the work folder."""
    if rel == "~" or rel.startswith("~/"):
        return root / "home" / rel[2:]
    return root / "work" / rel


def seed(root: Path, files: dict[str, Any]) -> None:
    for d in ("work", "home", "tmp"):
        (root / d).mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = resolve(root, str(rel))
        if str(rel).endswith("/"):
            p.mkdir(parents=True, exist_ok=True)
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict):
            content = str(content["repeat"]) * int(content["times"])
        p.write_text("" if content is None else str(content), encoding="utf-8")


def task_env(root: Path, extra: dict[str, str], *, clear_pythonpath: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    for k in ("VIRTUAL_ENV", "PYTEST_CURRENT_TEST", "PYTEST_ADDOPTS"):
        env.pop(k, None)
    if clear_pythonpath:
        env.pop("PYTHONPATH", None)
    env.update({
        "HOME": str(root / "home"),
        "OI_LOCAL_HOME": str(root / "home" / ".oi-local"),
        "TMPDIR": str(root / "tmp"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        # The original at import time fetches LiteLLM's cost map and sends telemetry: keep it offline.
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "DISABLE_TELEMETRY": "true",
        "HF_HUB_OFFLINE": "1",
    })
    env.update(extra)
    return env


def wrap(cmd: list[str], root: Path, *, sandbox: bool, network: bool) -> list[str]:
    if not sandbox:
        return cmd
    args = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    # A checkout or venv under /tmp (a CI clone) would vanish under the fresh /tmp: show it again.
    for keep in _under_tmp([Path(__file__).resolve().parents[2], Path(sys.prefix), Path(sys.base_prefix)]):
        args += ["--ro-bind", str(keep), str(keep)]
    args += ["--bind", str(root), str(root), "--unshare-pid", "--die-with-parent", "--cap-drop", "ALL",
             "--chdir", str(root / "work")]
    if not network:  # scripted and embedded models need no network at all
        args.append("--unshare-net")
    return args + ["--"] + cmd


def _under_tmp(paths: list[Path]) -> list[Path]:
    tmp = Path("/tmp").resolve()
    found = sorted({p.resolve() for p in paths if p.resolve().is_relative_to(tmp) and p.resolve() != tmp})
    return [p for p in found if not any(p != q and p.is_relative_to(q) for q in found)]  # outermost only


def run(cmd: list[str], root: Path, env: dict[str, str], timeout: float, *, sandbox: bool, network: bool,
        log: Path | None = None, capture: bool = False) -> RunResult:
    """Run in ROOT/work in its own session; on timeout kill the whole process group (and, in the
    sandbox, the pid namespace with it)."""
    t0 = time.monotonic()
    out = open(log, "ab") if log else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(wrap(cmd, root, sandbox=sandbox, network=network), cwd=root / "work", env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE if capture else out,
                                stderr=subprocess.STDOUT if (capture or log) else subprocess.DEVNULL,
                                start_new_session=True)
        try:
            stdout, _ = proc.communicate(timeout=timeout)
            return RunResult(proc.returncode, False, time.monotonic() - t0,
                             (stdout or b"").decode("utf-8", "replace") if capture else "")
        except subprocess.TimeoutExpired:
            kill_tree(proc)
            stdout, _ = proc.communicate()
            return RunResult(None, True, time.monotonic() - t0, (stdout or b"").decode("utf-8", "replace") if capture else "")
    finally:
        if log:
            out.close()  # type: ignore[union-attr]


def kill_tree(proc: subprocess.Popen) -> None:
    """SIGKILL the process group and any descendant that left it (kernels start their own sessions)."""
    victims = []
    try:
        import psutil

        victims = psutil.Process(proc.pid).children(recursive=True)
    except Exception:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for v in victims:
        try:
            v.kill()
        except Exception:
            pass
