"""Run ONE eval task against one interpreter, in its own process, and write its transcript as JSON.

Runs under the target's own Python (ours: the repo's python; oi043: the 0.4.3 venv), so it uses
only the standard library and the target package. Usage: python worker.py JOB.json

The transcript is rewritten every second by a background thread (and at the end), so a task killed
on timeout still leaves what the model was doing when it hung.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback
from typing import Any, Callable, Iterator

# Our own folder must not shadow anything the target imports.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)


class Transcript:
    """The JSON document, plus a writer thread that snapshots live messages while a turn runs."""

    def __init__(self, path: str, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.live: Callable[[], list[Any]] | None = None  # messages of the running turn
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(1.0):
            self.write()

    def write(self) -> None:
        with self._lock:
            for _ in range(5):  # the lists change under us while the model streams: retry
                try:
                    if self.live is not None and self.data["turns"]:
                        self.data["turns"][-1]["messages"] = list(self.live())
                    text = json.dumps(self.data, default=str, indent=1)
                    break
                except (RuntimeError, ValueError):
                    time.sleep(0.01)
            else:
                return
            tmp = self.path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)

    def close(self) -> None:
        self._stop.set()
        self.write()


def _copy_messages(messages: list[Any]) -> list[dict[str, Any]]:
    return [dict(m) if isinstance(m, dict) else {"raw": str(m)} for m in list(messages)]


def _message_chars(messages: Any) -> int:
    n = 0
    for m in messages or []:
        c = m.get("content") if isinstance(m, dict) else None
        if isinstance(c, str):
            n += len(c)
        elif isinstance(c, list):
            n += sum(len(str(p.get("text", ""))) for p in c if isinstance(p, dict))
    return n


# --- scripted models (ours only): they speak the OpenAI chunk protocol of `llm.completions` ---

def _chunks(text: str, size: int = 7) -> Iterator[dict[str, Any]]:
    # Small pieces, so fences split across chunks exercise the streaming parser.
    for i in range(0, len(text), size):
        yield {"choices": [{"delta": {"content": text[i:i + size]}, "finish_reason": None}]}
    yield {"choices": [{"delta": {}, "finish_reason": "stop"}]}


def oracle_reply(turn: dict[str, Any], k: int) -> str:
    """The k-th reply of a perfect model in this turn: its code steps in order, then its answer."""
    steps = turn.get("steps") or []
    if k < len(steps):
        step = steps[k]
        say = (step.get("say") or "").strip()
        fence = f"```{step['language']}\n{step['code'].rstrip()}\n```"
        return f"{say}\n\n{fence}" if say else fence
    return str(turn.get("answer") or "")


def make_scripted(job: dict[str, Any], state: dict[str, int]) -> Callable[..., Any]:
    model = job["model"]

    def completions(messages: Any, model_name: Any = None, stream: bool = True, max_tokens: Any = None, **_: Any) -> Iterator[dict[str, Any]]:
        k = state["call"]
        state["call"] += 1
        if model["kind"] == "oracle":
            turns = job.get("oracle") or []
            text = oracle_reply(turns[state["turn"]], k) if state["turn"] < len(turns) else ""
        else:  # canned: the same reply every time (used to prove that checks can fail)
            text = model["text"]
        yield from _chunks(text)

    return completions


# --- targets ---

def make_ours(job: dict[str, Any], calls: list[dict[str, Any]], state: dict[str, int]) -> Any:
    from oi_local.interpreter import OpenInterpreter

    interp = OpenInterpreter()
    interp.auto_run = True
    s = job["settings"]
    if s.get("context_window"):  # None: keep the product's defaults, as a user gets them
        interp.llm.context_window = s["context_window"]
    if s.get("max_tokens"):
        interp.llm.max_tokens = s["max_tokens"]
    m = job["model"]
    if m["kind"] in ("oracle", "canned"):
        interp.llm.completions = make_scripted(job, state)
    elif m["kind"] == "embedded":
        interp.llm.model = m["path"]
    elif m["kind"] == "default":
        pass  # no model set: the embedded default from the catalog (OI_LOCAL_MODELS_DIR points at it)
    else:  # server / api
        interp.llm.model = "local"
        interp.llm.api_base = m["api_base"]
        interp.llm.api_key = "x"

    # Record every model call: what it saw, what it said, usage if the back end reports it.
    original = interp.llm.stream_text

    def stream_text(messages: Any, *args: Any, **kw: Any) -> Iterator[dict[str, Any]]:
        call = {"turn": state["turn"], "prompt": _copy_messages(messages), "prompt_chars": _message_chars(messages),
                "text": "", "started": time.time()}
        calls.append(call)
        gen = original(messages, *args, **kw)
        try:
            for delta in gen:
                if isinstance(delta, dict) and isinstance(delta.get("content"), str):
                    if "first_token_s" not in call:
                        call["first_token_s"] = round(time.time() - call["started"], 3)
                    call["text"] += delta["content"]
                yield delta
        finally:
            gen.close()  # so the back end fills last_usage/last_finish_reason before we read them
            call["wall_s"] = round(time.time() - call["started"], 3)
            call["usage"] = dict(getattr(interp.llm, "last_usage", None) or {})
            call["finish_reason"] = getattr(interp.llm, "last_finish_reason", None)

    interp.llm.stream_text = stream_text
    return interp


def make_oi043(job: dict[str, Any], calls: list[dict[str, Any]], state: dict[str, int]) -> Any:
    from interpreter import interpreter  # the original package in its own venv

    s = job["settings"]
    interpreter.offline = True
    interpreter.disable_telemetry = True
    interpreter.anonymized_telemetry = False
    interpreter.auto_run = True
    interpreter.llm.model = "openai/x"
    interpreter.llm.api_key = "x"
    interpreter.llm.api_base = job["model"]["api_base"]
    interpreter.llm.supports_functions = False
    interpreter.llm.context_window = s["context_window"]
    interpreter.llm.max_tokens = s["max_tokens"]

    original = interpreter.llm.completions

    def completions(**params: Any) -> Iterator[Any]:
        call = {"turn": state["turn"], "prompt": _copy_messages(params.get("messages") or []),
                "prompt_chars": _message_chars(params.get("messages")), "text": "", "started": time.time(), "usage": {}}
        calls.append(call)
        try:
            for chunk in original(**params):
                try:
                    choice = chunk.choices[0]
                    piece = getattr(choice.delta, "content", None)
                    if choice.finish_reason:
                        call["finish_reason"] = choice.finish_reason
                    usage = getattr(chunk, "usage", None)
                    if usage:
                        call["usage"] = dict(usage) if isinstance(usage, dict) else usage.model_dump()
                except Exception:
                    piece = None
                if piece:
                    if "first_token_s" not in call:
                        call["first_token_s"] = round(time.time() - call["started"], 3)
                    call["text"] += piece
                yield chunk
        finally:
            call["wall_s"] = round(time.time() - call["started"], 3)

    interpreter.llm.completions = completions
    return interpreter


def main(job_path: str) -> int:
    with open(job_path, encoding="utf-8") as f:
        job = json.load(f)
    t0 = time.time()
    calls: list[dict[str, Any]] = []
    state = {"turn": 0, "call": 0}
    data: dict[str, Any] = {"task": job["task"], "target": job["target"], "model": job["model"],
                            "settings": job["settings"], "started": t0, "turns": [], "calls": calls,
                            "error": None, "finished": False}
    tr = Transcript(job["transcript"], data)
    interp = None
    try:
        interp = (make_ours if job["target"] == "ours" else make_oi043)(job, calls, state)
        data["setup_s"] = round(time.time() - t0, 3)
        data["package"] = os.path.dirname(os.path.abspath(sys.modules[type(interp).__module__].__file__ or ""))
        for i, prompt in enumerate(job["prompts"]):
            state["turn"], state["call"] = i, 0
            start = len(interp.messages)
            turn: dict[str, Any] = {"prompt": prompt, "started": time.time(), "messages": []}
            data["turns"].append(turn)
            tr.live = lambda: _copy_messages(interp.messages[start:])
            try:
                interp.chat(prompt, display=False)
            except BaseException as e:  # a crash inside the product is a result, not a harness error
                turn["error"] = f"{type(e).__name__}: {e}"
                turn["traceback"] = traceback.format_exc()
                tr.live = None
                turn["messages"] = _copy_messages(interp.messages[start:])
                turn["wall_s"] = round(time.time() - turn["started"], 3)
                if isinstance(e, KeyboardInterrupt):
                    raise
                break
            tr.live = None
            turn["messages"] = _copy_messages(interp.messages[start:])
            turn["wall_s"] = round(time.time() - turn["started"], 3)
            tr.write()
        data["finished"] = True
    except BaseException as e:
        data["error"] = f"{type(e).__name__}: {e}"
        data["traceback"] = traceback.format_exc()
    finally:
        data["wall_s"] = round(time.time() - t0, 3)
        tr.live = None
        tr.close()
        try:
            if interp is not None and hasattr(interp, "close"):
                interp.close()
            elif interp is not None and hasattr(interp, "computer"):
                interp.computer.terminate()
        except Exception:
            pass
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1])
    sys.stdout.flush()
    # Skip interpreter teardown: kernels or model workers left behind must not hang the task.
    os._exit(code)
