"""Child process that owns one `llama_cpp.Llama`; run as `python -m oi_local.llm.backends._embedded_worker`.

Why a child: a crash inside llama.cpp (e.g. the AMX segfault, see llama_safety.py) kills this process
only, never the chat. Protocol: one JSON object per line. Requests on stdin carry `id` and `op`
(load, chat, cancel, count, tokenize, info); replies on stdout carry the same `id` and a `type`:
  delta  {"content": str}                                  (chat only, as tokens are generated)
  done   {"finish_reason": "stop"|"length"|"cancelled", "usage": {...}}   (ends a chat)
  result {...}                                             (ends load/count/tokenize/info)
  error  {"error": one line}                               (ends any request; the worker lives on)
llama.cpp writes logs to fd 1 and 2, so fd 1 is pointed at stderr and replies go to a dup of it.
EOF on stdin means the parent is gone: exit at once, so no orphan keeps a model in memory.
"""
from __future__ import annotations

import ctypes
import json
import os
import queue
import sys
import threading
import time
from collections import deque
from typing import Any, Callable

_TEMPLATE_FAMILIES = (  # marker in the Jinja template -> family name, first match wins
    ("<|im_start|>", "chatml"),
    ("<|start_header_id|>", "llama-3"),
    ("<start_of_turn>", "gemma"),
    ("<|User|>", "deepseek"),
    ("<|user|>", "phi-3"),
    ("[INST]", "mistral/llama-2"),
)


class _Out:
    """Writes reply lines to the saved protocol fd; one lock so lines never interleave."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()

    def send(self, msg: dict[str, Any]) -> None:
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8")
        with self.lock:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _closure_var(fn: Any, name: str) -> Any:
    """Read a variable a closure captured. llama_cpp wraps each chat *formatter* in a handler
    closure; we need the formatter itself to tokenize prompts exactly as the handler would."""
    code = getattr(fn, "__code__", None)
    if code is None or name not in code.co_freevars or not fn.__closure__:
        return None
    return fn.__closure__[code.co_freevars.index(name)].cell_contents


def _normalise(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Templates expect string content: join OpenAI content parts, and None becomes ""."""
    out = []
    for m in messages:
        m = dict(m)
        c = m.get("content")
        if c is None:
            m["content"] = ""
        elif isinstance(c, list):
            m["content"] = "".join(p.get("text", "") for p in c if isinstance(p, dict))
        out.append(m)
    return out


def _has_images(messages: list[dict[str, Any]]) -> bool:
    return any(isinstance(m.get("content"), list) and any(isinstance(p, dict) and p.get("type") == "image_url"
                                                           for p in m["content"]) for m in messages)


class Worker:
    def __init__(self, out: _Out) -> None:
        self.out = out
        self.llm: Any = None
        self.formatter: Any = None  # ChatFormatter, or None when only the handler is usable
        self.handler: Any = None
        self.vision: Any = None  # the image projector's chat handler (llama.cpp mtmd), for requests with images
        self.prefix_cache: Any = None  # the shared start of every chat's prompt, saved on disk (_prefix_cache.py)
        self.extra_bufts_off = False
        self.cancelled: set[int] = set()
        self.errors: deque[str] = deque(maxlen=8)  # llama.cpp error log lines, for load failures
        self.verbose = False
        self.n_threads = 0
        self.n_gpu_layers = 0
        self.offload = "CPU only"
        self._sampled: list[int] = []
        self._first_token_at = 0.0
        self._current: int | None = None  # the chat being served, for the abort callback
        self._abort_cb: Any = None
        self._install_log_callback()

    # -- llama.cpp logging: keep error lines so a failed load can say why in one line --
    def _install_log_callback(self) -> None:
        import llama_cpp

        @llama_cpp.llama_log_callback
        def on_log(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
            msg = text.decode("utf-8", "replace")
            # ggml's ERROR level is 4 in this build (llama_cpp._logger still assumes 3, and so
            # hides errors as DEBUG); match on the words too, to survive the enum moving again.
            lowered = msg.lower()
            if level in (3, 4) and ("fail" in lowered or "error" in lowered or "invalid" in lowered):
                self.errors.append(msg.strip())
            if self.verbose:
                sys.stderr.write(msg)

        self._log_cb = on_log  # keep a reference: ctypes callbacks die with their Python object
        llama_cpp.llama_log_set(on_log, ctypes.c_void_p(0))

    # -- requests --
    def load(self, req: dict[str, Any]) -> dict[str, Any]:
        from llama_cpp import Llama, llama_chat_format

        from oi_local.local.llama_safety import apply_cpu_workarounds

        if self.llm is not None:
            self.llm.close()
            self.llm = None
        self.verbose = bool(req.get("verbose"))
        self.extra_bufts_off = apply_cpu_workarounds(bool(req.get("force_off_extra_bufts")))
        self.n_threads = int(req.get("n_threads") or os.cpu_count() or 1)
        self.errors.clear()
        import llama_cpp

        layers = int(req.get("n_gpu_layers") or 0)
        self.offload = str(req.get("offload_why") or "CPU only")
        if layers and not llama_cpp.llama_supports_gpu_offload():
            self.offload = (f"CPU only: this llama-cpp-python is a CPU build (wanted: {self.offload}); "
                            "rebuild it for the GPU with installers/install.sh --accel cuda|rocm|metal|vulkan")
            layers = 0
        self.n_gpu_layers = layers
        try:
            llm = Llama(
                model_path=req["path"],
                n_ctx=int(req.get("n_ctx") or 4096),
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                chat_format=req.get("chat_format"),
                n_gpu_layers=layers,
                verbose=self.verbose,
            )
        except Exception as e:
            # The first llama.cpp error is the specific one ("failed to read key-value pairs");
            # later ones and the exception only say "failed to load model".
            reason = self.errors[0].split(": ", 1)[-1] if self.errors else str(e)
            raise RuntimeError(_one_line(reason, 200)) from e
        # chat_format None means "the GGUF's own template"; llama_cpp would otherwise swap in a
        # built-in format when the template merely equals a known one.
        if req.get("chat_format") is None and "chat_template.default" in llm._chat_handlers:
            llm.chat_format = "chat_template.default"
        self.handler = (
            llm.chat_handler
            or llm._chat_handlers.get(llm.chat_format)
            or llama_chat_format.get_chat_completion_handler(llm.chat_format)
        )
        self.formatter = _closure_var(self.handler, "chat_formatter")
        # Record each sampled token (one cheap call per token): exact completion counts and timings.
        original_sample = llm.sample

        def sample(*args: Any, **kwargs: Any) -> int:
            token = original_sample(*args, **kwargs)
            if not self._sampled:
                self._first_token_at = time.perf_counter()
                self._abort_when_cancelled(False)
            self._sampled.append(token)
            return token

        llm.sample = sample
        self.llm = llm
        self._abort_cb = None
        self.vision = self._load_projector(req.get("projector"), bool(layers)) if req.get("projector") else None
        self.prefix_cache = None
        if req.get("prompt_cache"):
            from oi_local.llm.backends._prefix_cache import PrefixCache, model_folder

            self.prefix_cache = PrefixCache(model_folder(req["prompt_cache"], req["path"]))
        return self.info()

    def _load_projector(self, path: str, use_gpu: bool) -> Any:
        """llama.cpp's multimodal (mtmd) handler for this model and its projector, loaded now so a
        wrong or damaged projector is one error at load time, not at the first image."""
        from llama_cpp.llama_chat_format import MTMDChatHandler

        self.errors.clear()
        try:
            handler = MTMDChatHandler(clip_model_path=path, verbose=self.verbose, use_gpu=use_gpu)
            handler._init_mtmd_context(self.llm)
        except Exception as e:
            reason = self.errors[0].split(": ", 1)[-1] if self.errors else str(e)
            raise RuntimeError("projector: " + _one_line(reason, 200)) from e
        return handler

    def _abort_when_cancelled(self, on: bool) -> None:
        """While the prompt is read (one llama_decode per 512 tokens, seconds on a CPU), llama.cpp
        asks this callback between graph nodes, so a cancel stops it at once. Off once tokens
        flow: each call takes the GIL, and the stopping criteria cancel per token from then on."""
        import llama_cpp

        if on and self._abort_cb is None:
            self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: self._current in self.cancelled)
        callback = self._abort_cb if on else llama_cpp.ggml_abort_callback()  # no argument: NULL
        llama_cpp.llama_set_abort_callback(self.llm._ctx.ctx, callback, None)

    def _need_model(self) -> Any:
        if self.llm is None:
            raise RuntimeError("no model loaded")
        return self.llm

    def _prompt(self, messages: list[dict[str, Any]], tools: Any = None, prefix: str = "") -> tuple[list[int], Any]:
        """Format with the model's chat template (generation prompt added) and tokenize, exactly
        as llama_cpp's chat handler does, so count == what chat evaluates. `prefix` is the start of
        the reply, already written: the model goes on from it."""
        llm = self._need_model()
        result = self.formatter(messages=_normalise(messages), tools=tools)
        tokens = llm.tokenize((result.prompt + prefix).encode("utf-8"), add_bos=not result.added_special, special=True)
        return tokens, result

    def _stable_length(self, req: dict[str, Any], tokens: list[int]) -> int:
        """How many tokens of this prompt every chat shares: those of its first `stable` messages
        (the system message and fixed examples, as the caller says), up to where the next one starts."""
        from oi_local.llm.backends._prefix_cache import MIN_TOKENS

        k = int(req.get("stable") or 0)
        messages = req["messages"]
        if k <= 0 or k >= len(messages):
            return 0
        probe, _ = self._prompt(messages[:k] + [{"role": "user", "content": "\x01"}])
        n = 0
        for a, b in zip(tokens, probe):
            if a != b:
                break
            n += 1
        return n if MIN_TOKENS <= n < len(tokens) - 1 else 0

    def count(self, req: dict[str, Any]) -> dict[str, Any]:
        self._need_model()
        if self.formatter is None:
            return {"tokens": None}
        return {"tokens": len(self._prompt(req["messages"], req.get("tools"))[0])}

    def tokenize(self, req: dict[str, Any]) -> dict[str, Any]:
        llm = self._need_model()
        return {"tokens": len(llm.tokenize(str(req["text"]).encode("utf-8"), add_bos=False, special=True))}

    def info(self, req: dict[str, Any] | None = None) -> dict[str, Any]:
        llm = self._need_model()
        template = llm.metadata.get("tokenizer.chat_template", "")
        family = next((f for marker, f in _TEMPLATE_FAMILIES if marker in template), None)
        return {
            "path": llm.model_path,
            "name": llm.metadata.get("general.name"),
            "architecture": llm.metadata.get("general.architecture"),
            "description": llm._model.desc(),
            "n_params": llm._model.n_params(),
            "size_bytes": llm._model.size(),
            "n_ctx": llm.n_ctx(),
            "n_ctx_train": llm._model.n_ctx_train(),
            "n_threads": self.n_threads,
            "chat_format": llm.chat_format,
            "template_family": family,
            "has_template": bool(template),
            "exact_count": self.formatter is not None,
            "extra_bufts_off": self.extra_bufts_off,
            "n_gpu_layers": self.n_gpu_layers,
            "offload": self.offload,
            "vision": self.vision is not None,
        }

    def chat(self, rid: int, req: dict[str, Any]) -> None:
        import llama_cpp
        from llama_cpp.llama import Llama, StoppingCriteriaList

        llm = self._need_model()
        params: dict[str, Any] = {
            "max_tokens": req.get("max_tokens"),
            "temperature": 0.2 if req.get("temperature") is None else float(req["temperature"]),
            "top_p": 0.95, "top_k": 40, "min_p": 0.05, "repeat_penalty": 1.0,
            "seed": req.get("seed"),
            "stream": True,
        }
        user_stop = req.get("stop") or []
        user_stop = [user_stop] if isinstance(user_stop, str) else list(user_stop)
        is_cancelled: Callable[..., bool] = lambda *_: rid in self.cancelled  # noqa: E731
        start = time.perf_counter()
        self._sampled = []
        prompt_tokens: int | None = None
        cached = from_disk = save_first = 0
        if self.vision is not None and _has_images(req["messages"]):
            # Images go through llama.cpp's mtmd handler, which formats with the model's own template.
            stream = self.vision(llama=llm, messages=req["messages"], stop=user_stop, **params)
            text_of = lambda chunk: chunk["choices"][0].get("delta", {}).get("content")  # noqa: E731
        elif self.formatter is not None:
            prefix = str(req.get("prefix") or "")
            tokens, result = self._prompt(req["messages"], req.get("tools"), prefix)
            if prefix:  # part of the reply: the caller sees it like any other text
                self.out.send({"id": rid, "type": "delta", "content": prefix})
            prompt_tokens = len(tokens)
            if self.prefix_cache is not None and llm.n_tokens == 0:  # a new chat: its shared start from disk
                from_disk = self.prefix_cache.load(llm, tokens)
                save_first = 0 if from_disk else self._stable_length(req, tokens)
            # What llama_cpp's prefix reuse will skip (it always re-evaluates at least one token).
            cached = min(Llama.longest_token_prefix(llm._input_ids.tolist(), tokens), len(tokens) - 1)
            rstop = result.stop if isinstance(result.stop, list) else [result.stop] if result.stop else []
            # The cancel check as a stopping criterion also covers text llama_cpp holds back.
            criteria = StoppingCriteriaList(list(result.stopping_criteria or []) + [is_cancelled])
            stream = llm.create_completion(
                prompt=tokens, stop=user_stop + rstop, stopping_criteria=criteria, **params
            )
            text_of = lambda chunk: chunk["choices"][0].get("text")  # noqa: E731
        else:  # a handler we cannot reproduce (e.g. function-calling formats): let it do everything
            stream = llm.create_chat_completion(messages=_normalise(req["messages"]), stop=user_stop, **params)
            text_of = lambda chunk: chunk["choices"][0].get("delta", {}).get("content")  # noqa: E731
        llama_cpp.llama_perf_context_reset(llm._ctx.ctx)
        finish = None
        self._current = rid
        self._abort_when_cancelled(True)
        try:
            if save_first:  # read the shared start alone first, and keep it for the next chats
                llm.eval(tokens[:save_first])
                self.prefix_cache.save(llm, save_first)
            for chunk in stream:
                if rid in self.cancelled:
                    finish = "cancelled"
                    break
                text = text_of(chunk)
                if text:
                    self.out.send({"id": rid, "type": "delta", "content": text})
                finish = chunk["choices"][0].get("finish_reason") or finish
        except RuntimeError:
            if rid not in self.cancelled:
                raise
            # llama_decode aborted mid-prompt: llama_cpp counts only the batches that completed,
            # and its next eval drops the rest from the KV cache, so the model stays usable.
        finally:
            self._current = None
            self._abort_when_cancelled(False)
            close = getattr(stream, "close", None)
            if close:
                close()
        end = time.perf_counter()
        if rid in self.cancelled:
            finish = "cancelled"
        sampled = self._sampled
        completion = len(sampled)
        if sampled and llama_cpp.llama_vocab_is_eog(llm._model.vocab, sampled[-1]):
            completion -= 1  # the end-of-turn token is not part of the reply
        perf = llama_cpp.llama_perf_context(llm._ctx.ctx)
        first = self._first_token_at if sampled else end
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion,
            "cached_tokens": cached,
            "disk_cached_tokens": from_disk,
            "prompt_eval_tokens": int(perf.n_p_eval),
            "prompt_eval_ms": round((first - start) * 1000, 2),
            "generation_ms": round((end - first) * 1000, 2),
            "llama_prompt_eval_ms": round(perf.t_p_eval_ms, 2),
            "llama_eval_ms": round(perf.t_eval_ms, 2),
        }
        self.out.send({"id": rid, "type": "done", "finish_reason": finish or "stop", "usage": usage})


def _reader(requests: "queue.Queue[dict[str, Any]]", worker: Worker, out: _Out) -> None:
    """Read stdin on a thread so `cancel` lands while the main thread is generating."""
    for raw in sys.stdin.buffer:
        try:
            req = json.loads(raw)
        except ValueError:
            out.send({"id": None, "type": "error", "error": "bad request: not JSON"})
            continue
        if req.get("op") == "cancel":
            worker.cancelled.add(int(req.get("target", -1)))
        else:
            requests.put(req)
    os._exit(0)  # parent closed our stdin or died: stop now, even mid-generation


def main() -> None:
    proto_fd = os.dup(1)
    os.dup2(2, 1)  # anything printed by llama.cpp or Python lands on stderr, not in the protocol
    sys.stdout = sys.stderr
    out = _Out(proto_fd)
    worker = Worker(out)
    requests: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_reader, args=(requests, worker, out), daemon=True).start()
    simple = {"load": worker.load, "count": worker.count, "tokenize": worker.tokenize, "info": worker.info}
    while True:
        req = requests.get()
        rid, op = req.get("id"), req.get("op")
        try:
            if op == "chat":
                if rid in worker.cancelled:  # cancelled before it started
                    out.send({"id": rid, "type": "done", "finish_reason": "cancelled", "usage": {}})
                else:
                    worker.chat(rid, req)
            elif op in simple:
                out.send({"id": rid, "type": "result", **simple[op](req)})
            else:
                out.send({"id": rid, "type": "error", "error": f"unknown op {op!r}"})
        except Exception as e:  # report and keep serving: one bad request must not end the model
            out.send({"id": rid, "type": "error", "error": _one_line(str(e) or type(e).__name__)})
        finally:
            worker.cancelled.discard(rid)


if __name__ == "__main__":
    main()
