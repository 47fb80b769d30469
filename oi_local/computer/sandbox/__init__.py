"""Isolation for model-written code: the sandbox a code session starts in, and its limits.

`Confinement` is one snapshot of the computer's settings; `prepare()` turns a session's command
into the command, environment and pre-exec step that start it confined. Linux: bubblewrap
(bwrap.py); macOS: sandbox-exec (macos.py); elsewhere, or without them, code runs unconfined and
the computer says so. Limits (limits.py) apply in every case where the platform has them.
"""
from __future__ import annotations

import json
import os
import queue
import select
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from . import detect
from . import limits as _limits
from .explain import Scanner
from .limits import Cgroup, Limits
from .policy import Policy, clean_env, hidden_paths, strip_secrets

MODES = ("auto", "on", "off")

__all__ = ["MODES", "Confinement", "Limits", "Policy", "Prepared", "Scanner", "SandboxUnavailable", "spawn",
           "status"]


class SandboxUnavailable(Exception):
    """sandbox="on" but this machine has no sandbox: the code is not run."""


@dataclass(frozen=True)
class Confinement:
    mode: str  # auto | on | off
    policy: Policy
    limits: Limits

    def kind(self) -> str | None:
        """The sandbox used: "bwrap", "sandbox-exec" or None (unconfined)."""
        if self.mode == "off":
            return None
        return detect.available().kind

    def check(self) -> None:
        if self.mode == "on" and self.kind() is None:
            raise SandboxUnavailable(detect.available().reason)

    def prepare(self, argv: list[str], env: dict[str, str], extra_writable: tuple[str, ...] = ()) -> Prepared:
        self.check()
        kind = self.kind()
        cgroup = Cgroup.create(self.limits) if sys.platform.startswith("linux") else None
        rl = _limits.rlimits(self.limits, cgroup is not None)
        info_r = info_w = None
        if kind == "bwrap":
            from . import bwrap

            avail = detect.available()
            info_r, info_w = os.pipe()
            env = clean_env(env, frozenset(self.policy.extra_env), self.policy.display)
            env.update(TMPDIR="/tmp", XDG_CACHE_HOME="/tmp/.cache", MPLCONFIGDIR="/tmp/.matplotlib")
            argv = bwrap.build(self.policy, argv, info_w, extra_writable, userns=avail.userns,
                               exe=bwrap.find() or "bwrap")
        elif kind == "sandbox-exec":
            from . import macos

            env = clean_env(env, frozenset(self.policy.extra_env), self.policy.display)
            argv = macos.build(self.policy, argv)
        elif self.mode != "off":
            env = strip_secrets(env)  # unconfined, but API keys still stay out of reach
        return Prepared(argv, env, kind, cgroup, rl, info_r, info_w)


@dataclass
class Prepared:
    argv: list[str]
    env: dict[str, str]
    kind: str | None
    cgroup: Cgroup | None
    rlimits: list[tuple[int, int]] = field(default_factory=list)
    info_r: int | None = None
    info_w: int | None = None

    def preexec(self, also: Callable[[], None] | None = None) -> Callable[[], None]:
        cgroup, rl, linux, kind = self.cgroup, self.rlimits, sys.platform.startswith("linux"), self.kind

        def run() -> None:
            if also is not None:
                also()
            if cgroup is not None:
                cgroup.enter()
            if rl:
                _limits.apply_rlimits(rl)
            if linux and kind != "bwrap":  # bwrap does this itself (--die-with-parent)
                _die_with_parent()
        return run

    def pass_fds(self) -> tuple[int, ...]:
        return (self.info_w,) if self.info_w is not None else ()

    def sandbox_init_pid(self, timeout: float = 5.0) -> int | None:
        """bubblewrap's report: the pid (outside) of the sandbox's init, whose process group holds the
        code (--new-session). Closes the pipe."""
        if self.info_r is None:
            return None
        if self.info_w is not None:
            os.close(self.info_w)
            self.info_w = None
        data = b""
        try:
            while True:
                ready, _, _ = select.select([self.info_r], [], [], timeout)
                if not ready:
                    break
                part = os.read(self.info_r, 4096)
                if not part:
                    break
                data += part
        finally:
            os.close(self.info_r)
            self.info_r = None
        try:
            return int(json.loads(data.decode())["child-pid"])
        except (ValueError, KeyError, TypeError):
            return None

    def close(self) -> None:
        for fd in (self.info_r, self.info_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.info_r = self.info_w = None


def _die_with_parent() -> None:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


# Sessions are started from one long-lived thread. The kernel's parent-death signal (bwrap's
# --die-with-parent, PR_SET_PDEATHSIG) fires when the THREAD that started a child ends, and the
# server runs every turn in a new thread: started there, a session would die after one turn.
_jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]]] = queue.Queue()
_spawner: threading.Thread | None = None
_spawner_lock = threading.Lock()


def _serve() -> None:
    while True:
        fn, reply = _jobs.get()
        try:
            reply.put((True, fn()))
        except BaseException as e:  # noqa: BLE001 - handed back to the caller
            reply.put((False, e))


def spawn(fn: Callable[[], Any]) -> Any:
    """Run `fn` (a Popen) on the spawner thread; its result or exception comes back here. From
    the main thread (the terminal, most scripts) it runs right here: the main thread lives as long
    as the process, and a child forked from another thread answered its warm `1+1` round trip
    ~3 ms slower than one forked from the main thread (measured on the busy 2-core test machine)."""
    global _spawner
    if threading.current_thread() is threading.main_thread():
        return fn()
    with _spawner_lock:
        if _spawner is None or not _spawner.is_alive():
            _spawner = threading.Thread(target=_serve, name="oi-session-spawner", daemon=True)
            _spawner.start()
    reply: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
    _jobs.put((fn, reply))
    ok, value = reply.get()
    if not ok:
        raise value
    return value


def status(mode: str, network: bool = False) -> tuple[bool, str]:
    """(confined, one line for the user) for %info and the start-up notice."""
    if mode == "off":
        return False, "off: code runs unconfined, as you (computer.sandbox is off)"
    avail = detect.available()
    if avail.kind is None:
        what = "refuses to run code" if mode == "on" else "code runs unconfined"
        return False, f"{mode}: {what}: {avail.reason}"
    net = "network allowed" if network else "no network"
    return True, f"{mode}: {avail.reason}; writes only to the working folder, a private /tmp and allowed folders; {net}"


def default_hidden(extra: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(hidden_paths(extra=extra))
