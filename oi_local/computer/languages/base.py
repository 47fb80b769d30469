"""Common machinery of the built-in languages: one persistent child process per language instance.

Wiring (set up once per process, reused by every run):
  * the child's fd 1 and 2 share ONE pipe, so stdout and stderr keep their true order;
  * control messages (active line, images, "done" + exit status) come over a SEPARATE pipe, one
    line each: ``L<line>``, ``I<base64 png>``, ``D<exit status>``;
  * cells go to the child over a third pipe (the child's stdin is /dev/null, or for bash the pipe
    bash reads its commands from while every cell's stdin is /dev/null).
The child flushes its stdio before every control message. Before it handles "done" or an image,
the parent drains the output pipe, so no output is reported after the "done" of its run; after an
image the child waits for a one-byte acknowledgement, so later output cannot overtake the image.
Active lines are not ordered against output (two pipes cannot be): they are a highlight only.
"""
from __future__ import annotations

import codecs
import os
import selectors
import signal
import subprocess
import time
import weakref
from collections.abc import Iterator
from typing import Any

LMC = dict[str, Any]

CHUNK = 64 * 1024
# After stop(): SIGINT (repeated every RESEND s); GRACE s later SIGKILL the other processes the
# run started (the session survives); 2*GRACE s later SIGKILL the session itself: never a hang.
GRACE = 1.5
POLL = 0.25  # the wait loop also wakes this often, so stop() from another thread acts promptly
RESEND = 0.5  # SIGINT is repeated this often until the stopped run ends
DRAIN_READS = 64  # reads of CHUNK bytes per drain (4 MiB)


def output(text: str) -> LMC:
    return {"type": "console", "format": "output", "content": text}


def active_line(line: str | None) -> LMC:
    return {"type": "console", "format": "active_line", "content": line}


def _signal_name(num: int) -> str:
    try:
        return signal.Signals(num).name
    except ValueError:
        return str(num)


def _run_mark() -> tuple[int, int]:
    """(now in the clock ticks since boot that /proc/<pid>/stat gives a process's start in, the
    last pid the kernel handed out): what tells a run's own processes from older ones."""
    try:
        ticks = int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))
    except (AttributeError, OSError, ValueError):  # not Linux: there is no /proc to look in either
        return 0, 0
    try:
        with open("/proc/sys/kernel/ns_last_pid", "rb") as f:
            return ticks, int(f.read())
    except (OSError, ValueError):
        return ticks + 1, 0  # only what started a tick later counts as the run's


def _stat(pid: int | str) -> list[bytes] | None:
    """Fields of /proc/PID/stat after the command name (index 0 is the state)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:].split()


def _group_procs(pgid: int) -> list[tuple[int, int]]:
    """(pid, start in boot ticks) of the processes in group `pgid` (Linux /proc; empty elsewhere)."""
    procs: list[tuple[int, int]] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return procs
    for entry in entries:
        if not entry.isdigit():
            continue
        fields = _stat(entry)
        if fields and len(fields) > 19 and int(fields[2]) == pgid:
            procs.append((int(entry), int(fields[19])))
    return procs


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children", "rb") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def _with_start(pids: list[int]) -> list[tuple[int, int]]:
    out = []
    for pid in pids:
        fields = _stat(pid)
        if fields and len(fields) > 19 and fields[0] != b"Z":
            out.append((pid, int(fields[19])))
    return out


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (in a PID namespace: everything but its init)."""
    out: list[int] = []
    todo = [pid]
    while todo and len(out) < 100_000:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _describe(pid: int) -> str:
    """`inner pid` and command line of a process, for the background-process note."""
    inner = str(pid)
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("NSpid:"):
                    inner = line.split()[-1]  # the pid the code sees inside its namespace
                    break
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        cmd = ""
    if len(cmd) > 80:
        cmd = cmd[:79] + "…"
    return f"{inner} `{cmd or '?'}`"


def _ignore_sigint() -> None:
    # Until the driver installs its own handler: a stop() that lands while the session is still
    # starting (bubblewrap + Python take a few hundred ms on a busy machine) must not kill it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _reset_sigint() -> None:
    # Only used when our own process ignores SIGINT: bash cannot trap a signal ignored at entry.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _kill_group(proc: subprocess.Popen, fds: list[int], groups: tuple[int, ...] = (), cgroup: Any = None) -> None:
    """Finalizer: kill the child's whole process group (and the sandbox's: its init's death ends
    the PID namespace, and every process in it), empty its cgroup, close our pipe ends."""
    for pgid in (*groups, proc.pid):
        try:  # also when the session itself is gone: what it started in the background may not be
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    for pid in groups:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if cgroup is not None:
        cgroup.remove()
    if proc.poll() is None:
        try:
            proc.wait(timeout=5)
        except (subprocess.TimeoutExpired, OSError):
            pass
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class SubprocessLanguage:
    """A language backed by a persistent child process (see the module docstring).

    Subclasses provide `name`, `aliases`, `_argv()` and optionally `_env()`, `_after_start()`,
    `_frame()`. After each run: `last_exit_code`, `last_interrupted`, `last_timed_out`.
    """

    name: str = ""
    aliases: list[str] = []
    system_message: str | None = None
    stdin_is_command_pipe = False  # bash reads its commands from stdin; the others get /dev/null
    address_space_limit = True  # the rlimit fallback may cap its address space (RLIMIT_AS)
    sigint_ignored_at_start = False  # the child sets its own SIGINT handler once ready (Python)

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self._sel: selectors.BaseSelector | None = None
        self._out = self._ctl = self._cmd = -1
        self._pidfd: int | None = None
        self._finalizer: weakref.finalize | None = None
        self._busy = False  # a cell was sent and its "done" not seen yet
        self._run_id = 0
        self._stop_at: float | None = None
        self.previous_run_stopped = False  # the run before this one was sent SIGINT
        self._sigint_at = 0.0
        self._children_killed = False
        self._mark = (0, 0)  # _run_mark() when the current run began
        self._deadline: float | None = None
        self._ctlbuf = b""
        self._out_eof = False
        self._at_line_start = True
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.last_exit_code: int | None = None
        self.last_interrupted = False
        self.last_timed_out = False
        self.input_answer: str | None = None
        # Set by the computer before each run (sandbox/): how the next session starts. None: as is.
        self.confinement: Any = None
        self._started_with: Any = None
        self._pgid = 0  # the process group holding the code (the sandbox init's, or the child's)
        self._init_pid: int | None = None  # the sandbox's init (outside pid): its namespace holds everything
        self._driver_pid: int | None = None
        self._cgroup: Any = None
        self.scanner: Any = None  # sandbox notes for the current run (set by the computer)

    # ----- hooks for subclasses -----
    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        raise NotImplementedError

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        extra = getattr(self, "env_extra", None)  # set by the Computer: its API settings
        if extra is not None:
            env.update(extra())
        env.setdefault("PAGER", "cat")  # nothing can page: there is no terminal
        env.setdefault("GIT_PAGER", "cat")
        return env

    def _after_start(self) -> None:
        """Called once the child is spawned (the shell sends its set-up here)."""

    def _sandbox_paths(self) -> tuple[str, ...]:
        """Folders of our own the session must be able to write inside the sandbox."""
        return ()

    def _frame(self, code: str) -> bytes:
        """The bytes that ask the child to run `code`."""
        data = code.encode("utf-8", "surrogateescape")
        return b"%d\n" % len(data) + data

    # ----- process life cycle -----
    @property
    def running(self) -> bool:
        return self._busy

    def _start(self) -> None:
        out_r, out_w = os.pipe()
        ctl_r, ctl_w = os.pipe()
        cmd_r, cmd_w = os.pipe()
        prepared = None
        try:
            ignoring = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            argv, env = self._argv(cmd_r, ctl_w), self._env()
            preexec = _ignore_sigint if self.sigint_ignored_at_start else _reset_sigint if ignoring else None
            extra_fds: tuple[int, ...] = ()
            conf = self.confinement
            if conf is not None:
                prepared = conf.prepare(argv, env, self._sandbox_paths())
                argv, env, extra_fds = prepared.argv, prepared.env, prepared.pass_fds()
                preexec = prepared.preexec(preexec)
            from oi_local.computer.sandbox import spawn

            proc = spawn(lambda: subprocess.Popen(
                argv,
                stdin=cmd_r if self.stdin_is_command_pipe else subprocess.DEVNULL,
                stdout=out_w,
                stderr=out_w,
                pass_fds=(ctl_w, cmd_r, *extra_fds),
                start_new_session=True,  # own process group: stop() signals exactly the code's processes
                env=env,
                preexec_fn=preexec,
            ))
        except BaseException:
            for fd in (out_r, out_w, ctl_r, ctl_w, cmd_r, cmd_w):
                os.close(fd)
            if prepared is not None:
                prepared.close()
                if prepared.cgroup is not None:
                    prepared.cgroup.remove()
            raise
        for fd in (out_w, ctl_w, cmd_r):
            os.close(fd)
        self._init_pid = prepared.sandbox_init_pid() if prepared is not None else None
        self._pgid = self._init_pid or proc.pid
        self._driver_pid = None
        self._cgroup = prepared.cgroup if prepared is not None else None
        self._started_with = self.confinement
        os.set_blocking(out_r, False)
        os.set_blocking(ctl_r, False)
        self._proc, self._out, self._ctl, self._cmd = proc, out_r, ctl_r, cmd_w
        sel = selectors.DefaultSelector()
        sel.register(out_r, selectors.EVENT_READ, "o")
        sel.register(ctl_r, selectors.EVENT_READ, "c")
        fds = [out_r, ctl_r, cmd_w]
        try:  # readable when the child exits, even if grandchildren still hold its pipes open
            self._pidfd = os.pidfd_open(proc.pid)
            sel.register(self._pidfd, selectors.EVENT_READ, "p")
            fds.append(self._pidfd)
        except (AttributeError, OSError):
            self._pidfd = None
        self._sel = sel
        self._ctlbuf = b""
        self._out_eof = False
        groups = (self._init_pid,) if self._init_pid else ()
        self._finalizer = weakref.finalize(self, _kill_group, proc, fds, groups, self._cgroup)
        self._after_start()

    def _cleanup(self) -> None:
        """Forget the child (it is dead or being killed); the next run starts a fresh one."""
        if self._sel is not None:
            self._sel.close()
        self._sel = None
        if self._finalizer is not None:
            self._finalizer()  # kills the group if needed, closes the fds
        self._finalizer = None
        self._proc = None
        self._pidfd = None
        self._out = self._ctl = self._cmd = -1
        self._busy = False
        self._init_pid = self._driver_pid = self._cgroup = None

    def _send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._cmd, view):]

    # ----- public protocol -----
    def run(self, code: str, deadline: float | None = None) -> Iterator[LMC]:
        """Run `code` in the persistent session, yielding LMC chunks as output arrives.

        `deadline` (time.monotonic() value) stops the code when reached (`last_timed_out`).
        Closing the generator early stops the running code.
        """
        if self._busy:  # an earlier run was abandoned half-way: let it finish or stop it first
            self._abort()
        self.last_exit_code = None
        self.last_interrupted = False
        self.last_timed_out = False
        notice = ""
        if self._proc is not None and self._proc.poll() is not None:
            notice = self._exit_message(self._proc.returncode, "had ") + "A fresh session was started.\n"
            self._cleanup()
        if self._proc is not None and self.confinement != self._started_with:
            notice = (f"The sandbox settings changed, so a fresh {self.name} session was started "
                      "(earlier variables are gone).\n")
            self._cleanup()
        if self._proc is None:
            from oi_local.computer.sandbox import SandboxUnavailable

            try:
                self._start()
            except SandboxUnavailable as e:
                yield output(f"{notice}The code was not run: computer.sandbox is \"on\" but there is no sandbox "
                             f"here ({e}). Install one, or set the sandbox to auto/off (--sandbox off).\n")
                self.last_exit_code = 126
                yield active_line(None)
                return
            except OSError as e:
                yield output(f"{notice}Could not start {self.name}: {e}\n")
                yield active_line(None)
                return
        if notice:
            yield output(notice)
        self.previous_run_stopped = self._stop_at is not None
        self._stop_at = None
        self._children_killed = False
        self._mark = _run_mark()
        self._deadline = deadline
        self._at_line_start = True
        self._decoder.reset()
        self._run_id += 1
        run_id = self._run_id
        self._busy = True
        try:
            self._send(self._frame(code))
        except BrokenPipeError:
            pass  # the child is dying: the wait loop below reports its exit
        try:
            yield from self._pump()
        finally:
            # Closed early, or an exception (e.g. KeyboardInterrupt) here: stop the code. The id
            # check keeps a generator collected late from stopping a newer run.
            if self._busy and run_id == self._run_id:
                self._abort()
        yield active_line(None)

    def stop(self) -> None:
        """Interrupt the running code (SIGINT to its process group); the session survives."""
        proc = self._proc
        if proc is None or not self._busy:
            return
        if self._stop_at is None:
            self._stop_at = time.monotonic()
        self.last_interrupted = True
        self._signal(signal.SIGINT)

    def terminate(self) -> None:
        """Kill the session; the next run starts a fresh one."""
        if self._proc is not None:
            self._cleanup()

    # ----- the wait loop -----
    def _abort(self) -> None:
        self.stop()
        for _ in self._pump():
            pass  # discard what the stopped code still prints

    def _tick(self) -> float:
        """Act on the deadline and the stop escalation; return how long select may wait."""
        now = time.monotonic()
        if self._stop_at is None:
            if self._deadline is None:
                return POLL
            if now < self._deadline:
                return min(POLL, self._deadline - now)
            self.last_timed_out = True
            self.stop()
            return RESEND
        proc = self._proc
        if proc is None:
            return POLL
        elapsed = now - self._stop_at
        if elapsed >= 2 * GRACE:  # the session itself does not react: kill it (reported as its exit)
            self._signal(signal.SIGKILL)
            return POLL
        if elapsed >= GRACE:
            if not self._children_killed:  # e.g. a program that ignores SIGINT: the session survives
                self._children_killed = True
                self._kill_run_children()
            return min(POLL, 2 * GRACE - elapsed)
        if now - self._sigint_at >= RESEND:
            # A SIGINT that lands between the child reading the cell and starting it is ignored
            # (the drivers only act on it inside a cell), so repeat it until the run ends.
            self._signal(signal.SIGINT)
        return min(POLL, RESEND)

    def _session_procs(self, full: bool = False) -> list[tuple[int, int]]:
        """(pid, start) of the processes the code started, other than the session itself: in the
        sandbox everything in its PID namespace (setsid does not leave it), else the session's
        cgroup, else its descendants (`full`: also its process group, which takes a scan of all
        of /proc: only when stopping a run, not after every run)."""
        proc = self._proc
        if proc is None:
            return []
        skip = {proc.pid}
        if self._init_pid:
            if self._driver_pid is None:
                kids = _with_start(_children(self._init_pid))
                if kids:
                    self._driver_pid = min(kids, key=lambda k: (k[1], k[0]))[0]
            skip |= {self._init_pid, self._driver_pid}
        if self._cgroup is not None and not full:  # one read: the cgroup holds exactly the session
            return _with_start([p for p in self._cgroup.pids() if p not in skip])
        if self._init_pid:
            return [p for p in _with_start(_descendants(self._init_pid)) if p[0] not in skip]
        procs = dict(_with_start(_descendants(proc.pid)))
        if full:
            procs.update(_group_procs(proc.pid))
            if self._cgroup is not None:
                procs.update(_with_start(self._cgroup.pids()))
        for pid in skip:
            procs.pop(pid, None)
        return list(procs.items())

    def _run_procs(self, full: bool = False) -> list[int]:
        """The processes this run started that are still there."""
        ticks, last_pid = self._mark
        if self._proc is None or not ticks:
            return []
        # Start times have clock-tick resolution: within the run's first tick, only pids handed out
        # after it began are its own (pids of a namespace's processes are numbered outside too).
        return [pid for pid, started in self._session_procs(full)
                if started > ticks or (started == ticks and pid > last_pid)]

    def _kill_run_children(self) -> None:
        """SIGKILL the processes this run started, other than the session. What earlier, finished
        runs started in the background (a server the user means to keep) is left alone."""
        for _ in range(20):  # a fork bomb forks while it is killed: repeat until none are left
            pids = self._run_procs(full=True)
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.02)

    def _background_note(self) -> Iterator[LMC]:
        """After a run: name what it left running, and stop a runaway (a fork bomb)."""
        pids = self._run_procs()
        if not pids:
            return
        limit = getattr(getattr(self.confinement, "limits", None), "processes", None)
        # Forked copies of the session may still be printing on their way out, and a fork bomb
        # returns at once and grows behind the prompt: wait a moment, then look again.
        deadline = time.monotonic() + 0.3
        while (again := self._run_procs()) and time.monotonic() < deadline:
            time.sleep(0.02)
        yield from self._read_output(once=False)  # what they printed belongs to this run
        hit = self._cgroup is not None and self._cgroup.hit_process_limit()
        runaway = hit or (limit and len(again) >= limit // 2) or (len(again) >= 32 and len(again) >= 2 * len(pids))
        if runaway:
            self._kill_run_children()
            left = self._run_procs()
            if left:  # still multiplying: end the whole session (the namespace/cgroup goes at once)
                self._cleanup()
            else:
                self._discard_output()  # hundreds of copies of the same error: noise for the next run
            limit_text = f" (limit {limit})" if limit else ""
            yield output(f"[sandbox] The code kept starting processes in the background ({len(again)}+ seen"
                         f"{limit_text}): a fork bomb or runaway loop. They were all stopped"
                         f"{', and the session was restarted' if left else ''}.\n")
            return
        if not again:
            return
        shown = ", ".join(_describe(p) for p in again[:5])
        more = f" and {len(again) - 5} more" if len(again) > 5 else ""
        yield output(f"[background] Still running after this run: {shown}{more}. They keep running until "
                     "the session ends (reset, exit) or they are stopped (kill PID).\n")

    def _signal(self, sig: int) -> None:
        proc, pgid = self._proc, self._pgid  # read once: stop() may run in another thread
        if sig == signal.SIGINT:
            self._sigint_at = time.monotonic()
        if proc is not None:
            targets = (pgid, proc.pid) if sig == signal.SIGKILL and pgid != proc.pid else (pgid or proc.pid,)
            for target in targets:
                try:
                    os.killpg(target, sig)
                except OSError:
                    pass

    def _pump(self) -> Iterator[LMC]:
        sel = self._sel
        while self._busy and sel is self._sel and sel is not None:
            try:
                events = sel.select(self._tick())
            except (OSError, ValueError):
                if sel is self._sel:
                    raise
                return  # terminate() from another thread closed the session under us
            if len(events) > 1:  # control first: an active line usually precedes the output beside it
                events.sort(key=lambda ev: ev[0].data != "c")
            for key, _ in events:
                tag = key.data
                if tag == "o":
                    yield from self._read_output(once=True)
                elif tag == "c":
                    try:
                        data = os.read(self._ctl, CHUNK)
                    except BlockingIOError:
                        continue
                    if data:
                        yield from self._control(data)
                    else:  # the child closed its control pipe: it is exiting
                        sel.unregister(self._ctl)
                        if self._pidfd is None:
                            self._proc.wait()
                            yield from self._exited()
                else:
                    yield from self._exited()
                if not self._busy:
                    break
            if self._pidfd is None and self._busy and self._proc.poll() is not None:
                yield from self._exited()

    def _read_output(self, once: bool) -> Iterator[LMC]:
        # A drain reads what is already in the pipe (at most its capacity when the child has
        # moved on), bounded so a background writer that never stops cannot hold a run open.
        for _ in range(1 if once else DRAIN_READS):
            try:
                data = os.read(self._out, CHUNK)
            except BlockingIOError:
                return
            if not data:  # every writer is gone; the pidfd (or poll) reports the exit
                if not self._out_eof:
                    self._sel.unregister(self._out)
                self._out_eof = True
                return
            text = self._decoder.decode(data)
            if text:
                self._at_line_start = text[-1] == "\n"
                yield output(text)

    def _discard_output(self) -> None:
        for _ in range(4 * DRAIN_READS):
            try:
                if not os.read(self._out, CHUNK):
                    return
            except OSError:
                return

    def _flush_decoder(self) -> Iterator[LMC]:
        text = self._decoder.decode(b"", True)
        if text:
            self._at_line_start = text[-1] == "\n"
            yield output(text)

    def _control(self, data: bytes) -> Iterator[LMC]:
        lines = (self._ctlbuf + data).split(b"\n")
        self._ctlbuf = lines.pop()
        for line in lines:
            kind = line[:1]
            if kind == b"L":
                # Not ordered against output already in its pipe (two pipes cannot be): a highlight.
                if self._stop_at is None:  # lines seen while stopping are the unwinding, not the code
                    yield active_line(line[1:].decode())
            elif kind == b"I":
                # The child waits for our acknowledgement before it goes on, so the output pipe
                # now holds exactly what was printed before the image.
                yield from self._read_output(once=False)
                try:
                    self._send(b"\x06")
                except OSError:
                    pass
                yield {"type": "image", "format": "base64.png", "content": line[1:].decode("ascii")}
            elif kind == b"Q":
                yield from self._ask(line[1:])
            elif kind == b"D":
                yield from self._read_output(once=False)  # everything the run printed is in the pipe
                yield from self._flush_decoder()
                self.last_exit_code = int(line[1:])
                if self._stop_at is not None:
                    self._kill_run_children()
                else:
                    yield from self._background_note()
                self._busy = False
                self._ctlbuf = b""
                return

    def _ask(self, raw: bytes) -> Iterator[LMC]:
        """The code called input(): hand the question to whoever consumes the run, who may answer
        with `answer_input()` before asking for the next chunk; no answer -> EOFError in the code."""
        import json

        yield from self._read_output(once=False)  # what was printed before the question comes first
        yield from self._flush_decoder()
        self.input_answer = None
        asked = time.monotonic()
        yield {"type": "console", "format": "input_request", "content": json.loads(raw.decode() or '""')}
        if self._deadline is not None:  # time spent waiting for a person is not the code's time
            self._deadline += time.monotonic() - asked
        answer, self.input_answer = self.input_answer, None
        data = b"A-1\n" if answer is None else answer.encode("utf-8", "surrogateescape")
        try:
            self._send(data if answer is None else b"A%d\n" % len(data) + data)
        except OSError:
            pass

    def answer_input(self, text: str | None) -> None:
        """The answer to the pending input() request (None: no one can answer)."""
        self.input_answer = text

    def _exit_message(self, rc: int, had: str = "") -> str:
        how = f"exited with code {rc}" if rc >= 0 else f"was killed by signal {_signal_name(-rc)}"
        cgroup = self._cgroup
        if rc == -signal.SIGKILL and cgroup is not None and cgroup.oom_kills():
            how += " after using up its memory limit"
        return (
            f"The {self.name} process {had}{how}; a fresh session will start on the next run, "
            "earlier variables are gone.\n"
        )

    def _exited(self) -> Iterator[LMC]:
        proc = self._proc
        rc = proc.wait()
        if self._init_pid and rc > 128 and rc - 128 in signal.valid_signals():
            rc = 128 - rc  # bubblewrap reports a signal death as 128+N, like a shell
        yield from self._read_output(once=False)
        try:
            data = os.read(self._ctl, CHUNK)
        except OSError:
            data = b""
        if data:
            for chunk in self._control(data):
                if chunk["type"] == "image":
                    yield chunk
        yield from self._flush_decoder()
        msg = self._exit_message(rc)
        yield output(msg if self._at_line_start else "\n" + msg)
        self.last_exit_code = rc if rc >= 0 else 128 - rc
        self._cleanup()
