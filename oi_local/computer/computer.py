"""`Computer`: runs code in its languages and applies what every language shares (output limit,
timeout, the LMC shape of chunks). Languages follow the spec's custom-language protocol."""
from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from oi_local.settings import Checked

from .api import ComputerAPI
from .languages import DEFAULT_LANGUAGES, SubprocessLanguage

LMC = dict[str, Any]


@dataclass
class RunResult:
    """How the last `Computer.run` ended. `exit_code` is None when unknown (e.g. custom
    languages); `interrupted` is true when the run was stopped (stop(), timeout, or the consumer
    closing the stream); `omitted_chars` counts output characters cut by `max_output`."""

    exit_code: int | None = None
    timed_out: bool = False
    interrupted: bool = False
    omitted_chars: int = 0


def _out(text: str) -> LMC:
    return {"role": "computer", "type": "console", "format": "output", "content": text}


class Computer(Checked, ComputerAPI):
    """Runs code. `languages` holds language CLASSES; each Computer makes its own instance of a
    class on first use, so two Computers never share a process. The Computer API parts
    (`display`, `mouse`, ...) come from ComputerAPI, built on first use."""

    _settings_prefix = "computer."

    def __init__(self) -> None:
        self._languages: list[Any] = list(DEFAULT_LANGUAGES)
        self._instances: dict[Any, Any] = {}
        self._running: Any = None
        self._stop_requested = False
        self._run_id = 0
        self.max_output: int = 2800  # characters of output kept per run (head half + tail half)
        self.run_timeout: float | None = None  # default `timeout` of run(); None: no limit
        # When nobody watches (auto_run, the server, display=False) and run_timeout is None, a run
        # stops after this many seconds; None: never. The loop sets `unattended` for each turn.
        self.unattended_run_timeout: float | None = 300.0
        self.unattended: bool = False
        # The sandbox (computer/sandbox/): auto = on where the platform has one, else unconfined
        # with a notice; on = refuse to run code without one; off = run code as the user.
        self._sandbox = "auto"
        self.allow_write: list[str] = []  # folders code may change besides the working folder and /tmp
        self.allow_network: bool = False  # never with offline
        self.hide: list[str] = []  # more paths to hide from code, besides the built-in secrets
        self.allow_env: list[str] = []  # more environment variables code may see (never secret-looking ones)
        self.max_processes: int | None = 256  # per code session (cgroup pids, else RLIMIT_NPROC)
        self.max_memory_mb: int | None = None  # per code session; None: half of the machine's memory
        self.max_file_mb: int | None = 16384  # largest file code may write (RLIMIT_FSIZE)
        # Copy the working folder before each run so `%undo files` can put back what it changed
        # (computer/undo.py; skipped for folders over 2000 files or 64 MB). Off by default: the
        # first copy of a folder delays the first run (279 files / 2.4 MB: 0.4 s on the busy
        # test machine), later runs pay a walk of the folder.
        self.undo_files: bool = False
        self.last_snapshot: Any = None
        self.offline: bool = False
        self.verbose: bool = False
        self.emit_images: bool = True
        self.last_result: RunResult | None = None
        # Called after each run (OS mode: a fresh look at the screen); yields more LMC chunks.
        self.after_run: Any = None

    # ----- sandbox -----
    @property
    def sandbox(self) -> str:
        return self._sandbox

    @sandbox.setter
    def sandbox(self, value: Any) -> None:
        self._sandbox = value  # checked by the settings table (auto | on | off)

    def network_allowed(self) -> bool:
        return bool(self.allow_network) and not self.offline

    def confinement(self, lang: Any = None) -> Any:
        """The snapshot a session starts with (compared before each run: a change restarts it).
        Built again when a setting changes, and every 30 s (a secret folder made meanwhile)."""
        try:
            workdir = os.getcwd()
        except OSError:
            workdir = "/"
        key = (workdir, self._sandbox, tuple(self.allow_write or ()), self.network_allowed(), tuple(self.hide or ()),
               tuple(self.allow_env or ()), os.environ.get("HOME"), os.environ.get("OI_LOCAL_HOME"),
               self.max_processes, self.max_memory_mb, self.max_file_mb, bool(getattr(lang, "address_space_limit", True)),
               int(time.monotonic() // 30), bool(getattr(self, "import_computer_api", False)),
               getattr(self, "skills_path", None), os.environ.get("DISPLAY"), os.environ.get("WAYLAND_DISPLAY"))
        cache = self.__dict__.setdefault("_confinements", {})
        found = cache.get(key)
        if found is not None:
            return found
        from .sandbox import Confinement, Limits, Policy, default_hidden
        from .sandbox.limits import default_memory_mb

        allow = tuple(os.path.realpath(os.path.expanduser(str(p))) for p in (self.allow_write or ()))
        api = bool(getattr(self, "import_computer_api", False))  # the computer API / OS mode: the screen
        reveal: tuple[str, ...] = ()
        # where the session's `computer.skills` keeps them
        from .api.skills import default_path

        skills = os.path.expanduser(str(getattr(self, "skills_path", None) or default_path()))
        try:
            os.makedirs(skills, exist_ok=True)
            reveal = (os.path.realpath(skills),)
        except OSError:
            pass
        policy = Policy(workdir=workdir, allow_write=allow, network=self.network_allowed(),
                        hidden=default_hidden(tuple(self.hide or ())), extra_env=tuple(self.allow_env or ()),
                        display=api, reveal=reveal)
        limits = Limits(processes=self.max_processes,
                        memory_mb=self.max_memory_mb if self.max_memory_mb is not None else default_memory_mb(),
                        file_mb=self.max_file_mb, address_space=key[11])
        if len(cache) > 16:
            cache.clear()
        found = cache[key] = Confinement(self._sandbox, policy, limits)
        return found

    def sandbox_status(self) -> tuple[bool, str]:
        """(confined, one line saying how code runs and why) for %info and the start-up notice."""
        from .sandbox import status

        return status(self._sandbox, self.network_allowed())

    # ----- languages -----
    @property
    def languages(self) -> list[Any]:
        return self._languages

    @languages.setter
    def languages(self, value: list[Any]) -> None:
        self.terminate()  # the old instances must not keep running behind the new list
        self._languages = list(value)

    def get_language(self, name: str) -> Any | None:
        """The instance of the language called `name` (or one of its aliases), or None."""
        key = str(name).strip().lower()
        for cls in self._languages:
            if str(getattr(cls, "name", "")).lower() == key or key in (
                str(a).lower() for a in (getattr(cls, "aliases", None) or ())
            ):
                inst = self._instances.get(cls)
                if inst is None:
                    inst = self._instances[cls] = self._instantiate(cls)
                return inst
        return None

    def _instantiate(self, cls: Any) -> Any:
        if not isinstance(cls, type):
            return cls  # an instance given directly
        # Like Open Interpreter: pass the computer to languages whose __init__ takes an argument.
        code = getattr(getattr(cls, "__init__", None), "__code__", None)
        inst = cls(self) if code is not None and code.co_argcount > 1 else cls()
        if isinstance(inst, SubprocessLanguage):
            inst.env_extra = self.session_settings  # read when the session starts
        return inst

    @property
    def system_message(self) -> str:
        parts = [getattr(cls, "system_message", None) for cls in self._languages]
        return "\n\n".join(p for p in parts if p)

    # ----- running -----
    def run(
        self,
        language: str,
        code: str,
        stream: bool = False,
        display: bool = False,
        timeout: float | None = None,
    ) -> list[LMC] | Iterator[LMC]:
        """Run `code`. stream=False: the list of LMC messages (output merged, active lines
        dropped). stream=True: a generator of LMC chunks; closing it early stops the code.
        `timeout` (seconds) defaults to `run_timeout`; math.inf disables it for one run."""
        chunks = self._run(language, code, timeout)
        if display:
            chunks = self._display(chunks)
        if stream:
            return chunks
        merged: list[LMC] = []
        for c in chunks:
            if c.get("format") == "active_line":
                continue
            if c.get("format") == "output" and merged and merged[-1].get("format") == "output" \
                    and c.get("type") == merged[-1].get("type") == "console":
                merged[-1]["content"] += c.get("content") or ""
            else:
                merged.append(c)
        return merged

    def _run(self, language: str, code: str, timeout: float | None) -> Iterator[LMC]:
        lang = self.get_language(language)
        if lang is None:
            names = ", ".join(str(getattr(c, "name", c)) for c in self._languages)
            self.last_result = RunResult()
            yield _out(f"Unknown language {language!r}. Available languages: {names}.\n")
            return
        if timeout is None:
            timeout = self.run_timeout
        if timeout is None and self.unattended:
            timeout = self.unattended_run_timeout
        deadline = None if timeout is None or timeout == math.inf else time.monotonic() + timeout
        builtin = isinstance(lang, SubprocessLanguage)
        timer: threading.Timer | None = None
        fired: list[bool] = []
        scanner = None
        if builtin and self.undo_files:
            self._snapshot_workdir()
        if builtin:
            conf = lang.confinement = self.confinement(lang)
            if conf.kind() is not None:
                from .sandbox import Scanner

                scanner = Scanner(conf.policy, conf.limits.processes)
            inner = lang.run(code, deadline)  # checks the deadline in its own wait loop
        else:
            inner = iter(lang.run(code))
            if deadline is not None:  # a custom language may block without yielding: use a timer
                timer = threading.Timer(max(timeout, 0), self._expire, (lang, fired))
                timer.daemon = True
                timer.start()

        # max_output, streaming: pass the head through, keep only the newest tail in a bounded
        # deque, and report how much of the middle was dropped. Memory stays O(max_output).
        limit = self.max_output if self.max_output and self.max_output > 0 else None
        head_left = limit // 2 if limit else 0
        tail_cap = limit - head_left if limit else 0
        tail: deque[str] = deque()
        tail_len = omitted = 0
        at_line_start = True

        self._running = lang
        self._stop_requested = False
        self._run_id += 1
        run_id = self._run_id
        try:
            for chunk in inner:
                if isinstance(chunk, str):
                    chunk = {"type": "console", "format": "output", "content": chunk}
                typ = chunk.get("type")
                fmt = chunk.get("format")
                if typ == "console" and fmt == "output":
                    text = chunk.get("content")
                    if not text:
                        continue
                    if not isinstance(text, str):
                        text = str(text)
                    # The sandbox notes explain what the model is shown: the head here, the tail at
                    # the end (scanning all of 100 MB of output would cost seconds).
                    if limit is None:
                        if scanner is not None:
                            scanner.feed(text)
                        at_line_start = text[-1] == "\n"
                        yield _out(text)
                        continue
                    if head_left:
                        if len(text) <= head_left:
                            head_left -= len(text)
                            at_line_start = text[-1] == "\n"
                            if scanner is not None:
                                scanner.feed(text)
                            yield _out(text)
                            continue
                        head, text = text[:head_left], text[head_left:]
                        head_left = 0
                        if scanner is not None:
                            scanner.feed(head + "\n")
                        yield _out(head)
                    if len(text) >= tail_cap:
                        omitted += tail_len + len(text) - tail_cap
                        tail.clear()
                        tail.append(text[-tail_cap:])
                        tail_len = tail_cap
                    else:
                        tail.append(text)
                        tail_len += len(text)
                        while tail_len > tail_cap:
                            excess = tail_len - tail_cap
                            if len(tail[0]) <= excess:
                                dropped = tail.popleft()
                                tail_len -= len(dropped)
                                omitted += len(dropped)
                            else:
                                tail[0] = tail[0][excess:]
                                tail_len -= excess
                                omitted += excess
                elif typ == "console" and fmt == "active_line":
                    if chunk.get("content") is not None:  # one final None is sent below
                        yield {"role": "computer", "type": "console", "format": "active_line",
                               "content": str(chunk["content"])}
                elif typ == "image":
                    if self.emit_images:
                        yield {**chunk, "role": "computer"}
                else:
                    yield {"role": "computer", **chunk}
                if not builtin and deadline is not None and not fired and time.monotonic() >= deadline:
                    self._expire(lang, fired)
        finally:
            if timer is not None:
                timer.cancel()
            close = getattr(inner, "close", None)
            if close is not None:
                close()  # stops the code if the consumer left early
            if builtin:
                result = RunResult(lang.last_exit_code, lang.last_timed_out, lang.last_interrupted, omitted)
            else:
                result = RunResult(getattr(lang, "last_exit_code", None), bool(fired),
                                   bool(fired) or self._stop_requested, omitted)
            if run_id == self._run_id:  # not a stale generator collected during a newer run
                self._running = None
                self.last_result = result

        if tail:
            text = "".join(tail)
            if scanner is not None:
                scanner.feed(text)
            if omitted:
                text = f"\n... [{omitted} characters omitted] ...\n" + text
            at_line_start = text[-1] == "\n"
            yield _out(text)
        if result.timed_out:
            yield _out(("" if at_line_start else "\n") + f"Timed out after {timeout:g} s: the code was stopped.\n")
            at_line_start = True
        for note in scanner.notes() if scanner is not None else ():
            yield _out(("" if at_line_start else "\n") + note + "\n")
            at_line_start = True
        if self.after_run is not None:
            yield from self.after_run()
        yield {"role": "computer", "type": "console", "format": "active_line", "content": None}

    def answer_input(self, text: str | None) -> None:
        """Answer the running code's input() request (an `input_request` chunk); call it before
        asking the run for its next chunk. Without an answer the code gets EOFError."""
        lang = self._running
        if lang is not None and hasattr(lang, "answer_input"):
            lang.answer_input(text)

    def _snapshot_workdir(self) -> None:
        from . import undo

        store = getattr(self, "_undo_store", None)
        if store is None:
            import shutil
            import weakref

            from oi_local._paths import app_dir

            store = self._undo_store = str(app_dir() / "undo" / f"{os.getpid()}-{id(self):x}")
            weakref.finalize(self, shutil.rmtree, store, True)
        try:
            self.last_snapshot = undo.take(os.getcwd(), store, self.last_snapshot)
        except OSError:
            self.last_snapshot = None

    @staticmethod
    def _expire(lang: Any, fired: list[bool]) -> None:
        if not fired:
            fired.append(True)
            lang.stop()

    @staticmethod
    def _display(chunks: Iterator[LMC]) -> Iterator[LMC]:
        for c in chunks:
            if c.get("format") == "output":
                sys.stdout.write(c.get("content") or "")
                sys.stdout.flush()
            elif c.get("type") == "image":
                sys.stdout.write("[image]\n")
            yield c

    def stop(self) -> None:
        """Stop whatever is running (the sessions survive)."""
        running = self._running
        if running is not None:
            self._stop_requested = True
            running.stop()
        for inst in list(self._instances.values()):
            if inst is not running and isinstance(inst, SubprocessLanguage) and inst.running:
                inst.stop()

    def terminate(self) -> None:
        """Kill every language process; each starts again on its next use."""
        instances, self._instances = list(self._instances.values()), {}
        for inst in instances:
            try:
                inst.terminate()
            except Exception:
                pass

    def __enter__(self) -> Computer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.terminate()
