"""The bubblewrap command line for a policy (Linux).

Layout inside: the whole system read-only, fresh /dev, /proc (own PID namespace, so other
processes and their environments are invisible), private /tmp and /run, then the writable
folders bound read-write, then the secrets covered. Own user, IPC, UTS and network namespaces
(network shared only when allowed), no capabilities, killed with its parent.
"""
from __future__ import annotations

import os
import shutil

from .policy import Policy


def find() -> str | None:
    return shutil.which("bwrap")


def _uid_args() -> list[str]:
    # Started by root, `--unshare-user` alone keeps uid 0 with every capability inside: code
    # runs as an ordinary uid instead (files it writes are still owned by the caller outside).
    if os.geteuid() == 0:
        return ["--unshare-user", "--uid", "1000", "--gid", "1000"]
    return ["--unshare-user"]


def _under_tmp(path: str) -> bool:
    return path == "/tmp" or path.startswith("/tmp/")


def runtime_paths() -> list[str]:
    """What the sessions run from (Python, its venv, this package, PYTHONPATH) when it lives in
    /tmp, which the private /tmp would hide: bound back read-only."""
    import sys

    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    candidates = [sys.prefix, sys.base_prefix, os.path.dirname(sys.executable),
                  os.path.dirname(os.path.realpath(sys.executable)), here]
    candidates += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    out: list[str] = []
    for p in candidates:
        real = os.path.realpath(p)
        if _under_tmp(real) and os.path.exists(real) and not any(real == o or real.startswith(o + "/") for o in out):
            out.append(real)
    return out


def build(policy: Policy, inner: list[str], info_fd: int | None = None,
          extra_writable: tuple[str, ...] = (), userns: bool = True, exe: str = "bwrap") -> list[str]:
    argv = [exe, "--unshare-all", *(_uid_args() if userns else []), "--cap-drop", "ALL",
            "--die-with-parent", "--new-session"]
    if policy.network:
        argv.append("--share-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/dev/shm"]
    # /run holds the user's agent and keyring sockets (ssh-agent, gpg-agent, D-Bus, docker): a
    # read-only mount does not stop connect() on a socket, so /run is replaced; with network
    # allowed, the resolver file it may hold is put back.
    if os.path.isdir("/run"):
        argv += ["--tmpfs", "/run"]
        if policy.network:
            resolv = os.path.realpath("/etc/resolv.conf")
            if resolv.startswith("/run/") and os.path.exists(resolv):
                argv += ["--ro-bind", resolv, resolv]
    for path in runtime_paths():
        argv += ["--ro-bind", path, path]
    for path in (*policy.writable(), *extra_writable):
        argv += ["--bind", path, path]
    for path in policy.display_paths():
        argv += ["--ro-bind", path, path]  # connect() works on a socket in a read-only mount
    covered = []
    for path in policy.hidden:
        real = os.path.realpath(path)
        if real == "/tmp" or real.startswith("/tmp/") and not any(
                real.startswith(w.rstrip("/") + "/") for w in (*policy.writable(), *extra_writable)):
            continue  # already invisible behind the private /tmp
        if os.path.isdir(real):
            argv += ["--tmpfs", real]
            covered.append(real)
        elif os.path.exists(real):
            argv += ["--ro-bind", "/dev/null", real]
    for path in policy.reveal:  # mount points are made in the empty tmpfs before it turns read-only
        real = os.path.realpath(path)
        if os.path.isdir(real):
            argv += ["--bind", real, real]
    for real in covered:
        argv += ["--remount-ro", real]
    argv += ["--chdir", os.path.realpath(policy.workdir)]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    return argv + ["--", *inner]
