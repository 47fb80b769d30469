"""A GGUF model run by llama-cpp-python in a child process (see _embedded_worker.py).

The model lives in a worker process so that a crash inside llama.cpp costs one answer, not the
chat: the next request restarts the worker with llama.cpp's extra CPU buffer types off (the AMX
segfault workaround in llama_safety.py). Tokens cross a pipe as JSON lines, which costs
microseconds against tens of milliseconds per token.
"""
from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any, Iterator

from oi_local.llm.backends.base import LLMError

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])  # the folder holding `oi_local`
# A cancel stops within a token, or mid-prompt through llama.cpp's abort callback (worker). Ctrl-C
# waits this long for it (or three tokens' time on a busy CPU); past that the worker finishes on
# its own (it serves requests in order; the cancelled one's last lines are dropped).
_CANCEL_WAIT = 0.5
_CRASHED = ("The embedded model crashed ({}); it restarts on the next message with llama.cpp's "
            "extra CPU buffers turned off.")


def default_threads() -> int:
    """Physical cores: llama.cpp gains nothing from hyper-threads and loses to contention."""
    try:
        import psutil

        n = psutil.cpu_count(logical=False)
    except Exception:
        n = None
    return max(1, n or os.cpu_count() or 1)


def check_model_file(path: str | os.PathLike[str]) -> Path:
    """Raise a one-line LLMError unless `path` is an existing file that starts with the GGUF magic."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise LLMError(f"Model file not found: {p}")
    try:
        with open(p, "rb") as f:
            magic = f.read(4)
    except OSError as e:
        raise LLMError(f"Cannot load {p}: {e.strerror or e}") from None
    if magic != b"GGUF":
        raise LLMError(f"Cannot load {p}: not a valid GGUF model (the file does not start with GGUF)")
    from oi_local.local.models import check_before_use

    check_before_use(p)  # structure, and the recorded sha256 (cached): damaged weights load and answer nothing
    return p


class _Dead(Exception):
    """The worker process ended; args[0] names how (e.g. "SIGSEGV")."""


def _describe_exit(rc: int) -> str:
    if rc < 0:
        try:
            return signal.Signals(-rc).name
        except ValueError:
            return f"signal {-rc}"
    return f"exit code {rc}"


class _WorkerProcess:
    """The child process plus a reader thread that routes reply lines to per-request queues, so a
    token count asked from another thread cannot swallow a stream's tokens."""

    def __init__(self, verbose: bool) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "oi_local.llm.backends._embedded_worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, start_new_session=True,  # own group: close() can kill all of it
        )
        self.verbose = verbose
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self.dead: str | None = None
        self._ids = itertools.count(1)
        self._routes: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        with self.proc.stdout:
            for line in self.proc.stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                q = self._routes.get(msg.get("id"))
                if q is not None:
                    q.put(msg)
        how = _describe_exit(self.proc.wait())
        with self._lock:
            self.dead = how
            for q in self._routes.values():
                q.put({"type": "dead"})

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        with self.proc.stderr:
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.stderr_tail.append(line.rstrip())
                if self.verbose:
                    sys.stderr.write(line)

    def start(self, op: str, **fields: Any) -> tuple[int, queue.Queue[dict[str, Any]]]:
        """Send a request; its replies arrive on the returned queue."""
        q: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            if self.dead:
                raise _Dead(self.dead)
            rid = next(self._ids)
            self._routes[rid] = q
        try:
            self.send({"id": rid, "op": op, **fields})
        except _Dead:
            self.finish(rid)
            raise
        return rid, q

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            with self._write_lock:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise _Dead(_describe_exit(self.proc.wait())) from None

    def get(self, q: queue.Queue[dict[str, Any]], timeout: float | None = None) -> dict[str, Any]:
        msg = q.get(timeout=timeout)  # queue.Empty on timeout
        if msg.get("type") == "dead":
            raise _Dead(self.dead)
        return msg

    def finish(self, rid: int) -> None:
        with self._lock:
            self._routes.pop(rid, None)

    def call(self, op: str, **fields: Any) -> dict[str, Any]:
        rid, q = self.start(op, **fields)
        try:
            msg = self.get(q)
        finally:
            self.finish(rid)
        if msg["type"] == "error":
            raise RuntimeError(msg["error"])
        return msg

    def alive(self) -> bool:
        return self.dead is None and self.proc.poll() is None


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the worker and its process group, and reap it. Safe to call twice."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # pgid == pid: started with start_new_session
        except (ProcessLookupError, PermissionError, AttributeError):  # AttributeError: no killpg
            proc.kill()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:  # stdout/stderr are closed by their reader threads when they reach EOF
        if proc.stdin:
            proc.stdin.close()
    except OSError:
        pass


def _prompt_cache_dir() -> str | None:
    """Where the worker keeps the shared start of prompts (OI_LOCAL_PROMPT_CACHE=0: nowhere)."""
    if os.environ.get("OI_LOCAL_PROMPT_CACHE", "1") == "0":
        return None
    from oi_local._paths import app_dir

    return str(app_dir() / "prompt_cache")


class EmbeddedBackend:
    """Backend for a local GGUF file, run in a crash-isolated worker process started on first use."""

    def __init__(self, model_path: str | os.PathLike[str], n_ctx: int = 4096, n_threads: int | None = None,
                 chat_format: str | None = None, verbose: bool = False, n_gpu_layers: int | None = None,
                 projector: str | os.PathLike[str] | None = None) -> None:
        self.model_path = Path(model_path).expanduser()
        # A vision model's image projector (mmproj GGUF): with it, image parts reach the model.
        self.projector = Path(projector).expanduser() if projector else None
        self.n_gpu_layers = n_gpu_layers  # None: as many as the free VRAM holds (oi_local.local.offload)
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self.chat_format = chat_format
        self.verbose = verbose
        self.last_usage: dict[str, Any] | None = None
        self._force_off_extra_bufts = False
        self._worker: _WorkerProcess | None = None
        self._info: dict[str, Any] = {}
        self._start_lock = threading.Lock()
        self._counts: OrderedDict[str, int | None] = OrderedDict()
        self._token_seconds = 0.0  # the latest time between two tokens (how busy the CPU is)
        self._finalizer: weakref.finalize | None = None

    # -- worker lifecycle --
    def load(self) -> dict[str, Any]:
        """Start the worker and load the model now (otherwise the first request does). Returns info()."""
        self._ensure()
        return dict(self._info)

    def _ensure(self) -> _WorkerProcess:
        with self._start_lock:
            w = self._worker
            if w is not None and w.alive():
                return w
            if w is not None:  # it died while idle (or mid-request in another thread)
                self._force_off_extra_bufts = True
                self._stop_worker()
            path = check_model_file(self.model_path)
            if importlib.util.find_spec("llama_cpp") is None:  # the worker runs this same Python
                raise LLMError("The embedded back end needs llama-cpp-python: pip install 'oi-local[local]'")
            layers, why = self._offload(path)
            projector = str(check_model_file(self.projector)) if self.projector is not None else None
            w = _WorkerProcess(self.verbose)
            # Also at interpreter exit (finalize registers with atexit): no orphan outlives us.
            self._finalizer = weakref.finalize(self, _kill, w.proc)
            self._worker = w
            try:
                msg = w.call("load", path=str(path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                             chat_format=self.chat_format, verbose=self.verbose,
                             force_off_extra_bufts=self._force_off_extra_bufts, n_gpu_layers=layers, offload_why=why,
                             projector=projector, prompt_cache=_prompt_cache_dir())
            except _Dead as e:
                self._force_off_extra_bufts = True
                self._stop_worker()
                why = f"the loader crashed: {e.args[0]}"
                last_line = next((t.strip() for t in reversed(w.stderr_tail) if t.strip()), "")
                if last_line and not last_line.startswith("llama"):  # e.g. a Python traceback's last line
                    why += f"; {last_line[:200]}"
                raise LLMError(f"Cannot load {path}: not a valid GGUF model ({why})") from None
            except RuntimeError as e:
                self._stop_worker()
                if str(e).startswith("projector:"):
                    why = str(e)[len("projector: "):]
                    if "Failed to load mtmd context" in why:  # llama.cpp's words repeat the path and say no more
                        why = "llama.cpp cannot read it as an image projector for this model (it must be the mmproj file made for it)"
                    raise LLMError(f"Cannot use the image projector {projector}: {why}") from None
                raise LLMError(f"Cannot load {path}: not a valid GGUF model ({e})") from None
            self._info = {k: v for k, v in msg.items() if k not in ("id", "type")}
            return w

    def _offload(self, path: Path) -> tuple[int, str]:
        if self.n_gpu_layers is not None:
            n = int(self.n_gpu_layers)
            return n, f"n_gpu_layers={n} as set" + (" (all layers)" if n < 0 else "")
        if self._force_off_extra_bufts:  # after a crash: the plainest path
            return 0, "CPU only after a crash"
        try:
            from oi_local.local.offload import plan

            return plan(path, self.n_ctx)
        except Exception as e:  # noqa: BLE001 - detection must never stop the model from loading
            return 0, f"GPU detection failed ({e}); CPU only"

    def _stop_worker(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # runs _kill once
            self._finalizer = None
        self._worker = None

    def _crashed(self, w: _WorkerProcess, how: str | None) -> LLMError:
        self._force_off_extra_bufts = True  # the likely culprit on new CPUs; see llama_safety.py
        with self._start_lock:
            if self._worker is w:  # another thread may already have started a fresh one
                self._stop_worker()
        return LLMError(_CRASHED.format(how or "exited"))

    def close(self) -> None:
        """Kill the worker process (and its group). Idempotent; a later request starts a new one."""
        with self._start_lock:
            self._stop_worker()

    def __enter__(self) -> "EmbeddedBackend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs (for monitoring and tests)."""
        w = self._worker
        return w.proc.pid if w is not None and w.alive() else None

    # -- the Backend contract --
    def completions(
        self,
        *,
        messages: list[dict[str, Any]],
        model: str | None = None,
        stream: bool = True,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: list[str] | None = None,
        tools: list[dict[str, Any]] | None = None,
        seed: int | None = None,
        reply_prefix: str | None = None,
        stable_messages: int = 0,
    ) -> Iterator[dict[str, Any]]:
        """Stream OpenAI-style chunks. Always streams (`stream` and `model` are accepted for the
        common signature). `tools` reach the chat template only; tool calls come back as text.
        `reply_prefix` starts the reply (streamed back first) and the model continues it.
        `stable_messages`: how many leading messages every chat shares (system message, fixed
        examples); the worker keeps their state on disk for the next chat (_prefix_cache.py)."""
        w = self._ensure()
        try:
            rid, q = w.start("chat", messages=messages, max_tokens=max_tokens, temperature=temperature,
                             stop=stop, tools=tools, seed=seed, prefix=reply_prefix, stable=stable_messages)
        except _Dead as e:
            raise self._crashed(w, e.args[0]) from None
        finished = False
        last_delta = 0.0
        try:
            while True:
                try:
                    msg = w.get(q)
                except _Dead as e:
                    finished = True
                    raise self._crashed(w, e.args[0]) from None
                kind = msg.get("type")
                if kind == "delta":
                    now = time.monotonic()
                    if last_delta:
                        self._token_seconds = now - last_delta
                    last_delta = now
                    yield {"choices": [{"delta": {"content": msg["content"]}, "finish_reason": None}]}
                elif kind == "done":
                    finished = True
                    usage = msg.get("usage") or {}
                    self.last_usage = usage
                    yield {"choices": [{"delta": {}, "finish_reason": msg.get("finish_reason") or "stop"}]}
                    yield {"usage": usage}
                    return
                elif kind == "error":
                    finished = True
                    raise LLMError(msg.get("error") or "the embedded model failed")
        finally:
            if not finished:
                self._cancel(w, rid, q)
            w.finish(rid)

    def _cancel(self, w: _WorkerProcess, rid: int, q: queue.Queue[dict[str, Any]]) -> None:
        """Stop generation; wait briefly for the worker's done, never long (Ctrl-C acts at once)."""
        try:
            w.send({"id": None, "op": "cancel", "target": rid})
            # A token is the most a cancel waits for; on a CPU this busy, a few of them.
            deadline = time.monotonic() + max(_CANCEL_WAIT, min(3 * self._token_seconds, 10.0))
            while (left := deadline - time.monotonic()) > 0:
                if w.get(q, timeout=left).get("type") != "delta":
                    return
        except (_Dead, queue.Empty):
            pass  # dead: the next request restarts it; busy: it stops at its next token

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        """Exact prompt tokens: the model's chat template (with the generation prompt) tokenized by
        the model's tokenizer. None if the chat format is a handler we cannot reproduce."""
        key = hashlib.sha1(json.dumps(messages, sort_keys=True, default=str).encode("utf-8")).hexdigest()
        if key in self._counts:
            self._counts.move_to_end(key)
            return self._counts[key]
        n = self._request("count", messages=messages)["tokens"]
        self._counts[key] = n
        if len(self._counts) > 128:
            self._counts.popitem(last=False)
        return n

    def count_text_tokens(self, text: str) -> int:
        """Tokens in plain text (no template, no BOS)."""
        return int(self._request("tokenize", text=text)["tokens"])

    def info(self) -> dict[str, Any]:
        """What the worker knows about the model: n_ctx_train, chat template family, description..."""
        self._info = {k: v for k, v in self._request("info").items() if k not in ("id", "type")}
        return dict(self._info)

    def _request(self, op: str, **fields: Any) -> dict[str, Any]:
        w = self._ensure()
        try:
            return w.call(op, **fields)
        except _Dead as e:
            raise self._crashed(w, e.args[0]) from None
        except RuntimeError as e:
            raise LLMError(str(e)) from None
