"""Resource limits for one code session: a cgroup where one can be made (pids, memory),
otherwise rlimits set in the child before it starts (NPROC, AS, FSIZE). CPU time is bounded per
run by the run timeout; a lower cgroup CPU weight was tried and dropped: on a busy machine it made
CPU-bound code ~1.5x slower than plain Python (measured), and the process cap is what keeps the
machine responsive under a fork bomb.

cgroups: v1 controllers (as root, or where delegated) or a writable v2 subtree. A desktop user's
v2 cgroup is usually not writable (systemd delegates only to user@.service), so rlimits are the
common case there. RLIMIT_NPROC counts all of the user's processes (and is not enforced for
root), so it is set to what the user already runs plus the allowance.
"""
from __future__ import annotations

import itertools
import os
import signal
import time
from dataclasses import dataclass

ROOT = "/sys/fs/cgroup"
_counter = itertools.count(1)


@dataclass(frozen=True)
class Limits:
    processes: int | None = 256
    memory_mb: int | None = None
    file_mb: int | None = None
    address_space: bool = True  # RLIMIT_AS in the rlimit fallback (off for node: V8 reserves a lot)


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _write(path: str, value: str) -> bool:
    try:
        with open(path, "w", encoding="ascii") as f:
            f.write(value)
        return True
    except OSError:
        return False


def _own_paths() -> dict[str, str]:
    """controller (or "" for v2) -> our cgroup path, from /proc/self/cgroup."""
    out: dict[str, str] = {}
    for line in _read("/proc/self/cgroup").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        for ctl in (parts[1].split(",") if parts[1] else [""]):
            out[ctl] = parts[2]
    return out


class Cgroup:
    """A cgroup (one folder per v1 controller, or one v2 folder) holding one code session."""

    def __init__(self, version: int, dirs: dict[str, str]) -> None:
        self.version = version
        self.dirs = dirs  # controller -> folder ("unified" for v2)
        self._events0 = self.process_limit_hits()

    @classmethod
    def create(cls, limits: Limits) -> Cgroup | None:
        if not os.path.isdir(ROOT):
            return None
        name = f"oi-local-{os.getpid()}-{next(_counter)}"
        own = _own_paths()
        if os.path.isfile(f"{ROOT}/pids/cgroup.procs") and "pids" in own:
            return cls._create_v1(name, own, limits)
        if "" in own:
            return cls._create_v2(name, own[""], limits)
        return None

    @classmethod
    def _create_v1(cls, name: str, own: dict[str, str], limits: Limits) -> Cgroup | None:
        dirs: dict[str, str] = {}
        for ctl in ("pids", "memory"):
            base = f"{ROOT}/{ctl}{own.get(ctl, '/')}".rstrip("/")
            if ctl not in own or not os.path.isdir(base):
                continue
            _sweep(base)
            d = f"{base}/{name}"
            try:
                os.mkdir(d)
            except OSError:
                if ctl == "pids":
                    break
                continue
            dirs[ctl] = d
        group = cls(1, dirs)
        ok = "pids" in dirs and (limits.processes is None or _write(f"{dirs['pids']}/pids.max", str(limits.processes)))
        if ok and limits.memory_mb and "memory" in dirs:
            _write(f"{dirs['memory']}/memory.limit_in_bytes", str(limits.memory_mb << 20))
        if not ok:
            group.remove()
            return None
        group._events0 = group.process_limit_hits()
        return group

    @classmethod
    def _create_v2(cls, name: str, own: str, limits: Limits) -> Cgroup | None:
        base = None
        for mount in (ROOT, f"{ROOT}/unified"):
            if os.path.isfile(f"{mount}/cgroup.controllers"):
                base = f"{mount}{own}".rstrip("/")
                break
        if base is None or "pids" not in _read(f"{base}/cgroup.subtree_control").split():
            return None
        _sweep(base)
        d = f"{base}/{name}"
        try:
            os.mkdir(d)
        except OSError:
            return None
        group = cls(2, {"unified": d})
        ok = limits.processes is None or _write(f"{d}/pids.max", str(limits.processes))
        if ok and limits.memory_mb and os.path.exists(f"{d}/memory.max"):
            _write(f"{d}/memory.max", str(limits.memory_mb << 20))
            _write(f"{d}/memory.swap.max", "0")
        if not ok:
            group.remove()
            return None
        group._events0 = group.process_limit_hits()
        return group

    def describe(self) -> str:
        return f"cgroup v{self.version}"

    def enter(self) -> None:
        """Called in the child before exec (preexec): everything it starts stays in the group."""
        pid = str(os.getpid())
        for d in self.dirs.values():
            _write(f"{d}/cgroup.procs", pid)

    def pids(self) -> list[int]:
        d = self.dirs.get("pids") or self.dirs.get("unified")
        if not d:
            return []
        return [int(x) for x in _read(f"{d}/cgroup.procs").split()]

    def process_limit_hits(self) -> int:
        d = self.dirs.get("pids") or self.dirs.get("unified")
        for line in _read(f"{d}/pids.events").splitlines() if d else ():
            key, _, value = line.partition(" ")
            if key == "max":
                return int(value or 0)
        return 0

    def hit_process_limit(self) -> bool:
        """True (once per hit) when a fork failed on the limit since the last call."""
        now = self.process_limit_hits()
        hit, self._events0 = now > self._events0, now
        return hit

    def oom_kills(self) -> int:
        d = self.dirs.get("memory") or self.dirs.get("unified")
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        for line in _read(f"{d}/{name}").splitlines() if d else ():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value or 0)
        return 0

    def kill_all(self) -> None:
        d = self.dirs.get("unified")
        if d and _write(f"{d}/cgroup.kill", "1"):
            return
        for _ in range(50):  # a fork bomb forks while it is killed: repeat until empty
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)

    def remove(self) -> None:
        self.kill_all()
        for d in self.dirs.values():
            for _ in range(20):
                try:
                    os.rmdir(d)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # killed processes take a moment to leave
        self.dirs = {}


def _sweep(base: str) -> None:
    """Remove empty cgroups left by an interpreter that was killed (kill -9)."""
    try:
        entries = os.listdir(base)
    except OSError:
        return
    for e in entries:
        if not e.startswith("oi-local-"):
            continue
        try:
            pid = int(e.split("-")[2])
        except (IndexError, ValueError):
            continue
        if pid == os.getpid() or os.path.exists(f"/proc/{pid}"):
            continue
        try:
            os.rmdir(f"{base}/{e}")
        except OSError:
            pass


def user_process_count() -> int:
    """Processes (threads count too for RLIMIT_NPROC) of this user, as the kernel counts them."""
    uid = os.getuid()
    n = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for e in entries:
        if e.isdigit():
            try:
                st = os.stat(f"/proc/{e}")
            except OSError:
                continue
            if st.st_uid == uid:
                try:
                    n += len(os.listdir(f"/proc/{e}/task"))
                except OSError:
                    n += 1
    return n


def rlimits(limits: Limits, cgroup: bool) -> list[tuple[int, int]]:
    """(resource, soft=hard value) pairs to set in the child. With a cgroup only FSIZE: the
    group already counts processes and memory."""
    import resource

    out = []
    if limits.file_mb:
        out.append((resource.RLIMIT_FSIZE, limits.file_mb << 20))
    if cgroup:
        return out
    if limits.processes and os.getuid() != 0 and hasattr(resource, "RLIMIT_NPROC"):
        out.append((resource.RLIMIT_NPROC, user_process_count() + limits.processes))
    if limits.memory_mb and limits.address_space and hasattr(resource, "RLIMIT_AS"):
        # Address space, not memory in use: allow twice the memory limit (thread stacks, arenas).
        out.append((resource.RLIMIT_AS, 2 * limits.memory_mb << 20))
    return out


def apply_rlimits(pairs: list[tuple[int, int]]) -> None:
    import resource

    for res, value in pairs:
        try:
            soft, hard = resource.getrlimit(res)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)  # an unprivileged process cannot raise its hard limit
            resource.setrlimit(res, (value, value if hard == resource.RLIM_INFINITY else hard))
        except (OSError, ValueError):
            pass


def default_memory_mb() -> int | None:
    """Half of the machine's memory."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
    return max(512, total // 2 >> 20)
