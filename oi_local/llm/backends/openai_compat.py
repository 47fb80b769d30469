"""A back end for any OpenAI-compatible chat server: llama.cpp (llama_cpp.server or llama-server),
llamafile, LM Studio, Jan, Ollama's /v1, vLLM.

Uses the official `openai` client (imported lazily: it costs ~0.3 s) and turns its pydantic chunks
into the plain dicts of the back-end contract (see base.py). `to_chunks` is shared with the other
back ends so every source of chunks is normalised the same way.
"""
from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

from oi_local.local.providers import normalize_api_base

from .base import LLMError

__all__ = ["OpenAICompatibleBackend", "normalize_api_base", "strip_provider_prefix", "one_line"]

# Prefixes users write to say "talk OpenAI's protocol to this server" (LiteLLM habits, spec pages).
PROVIDER_PREFIXES = ("openai/", "ollama_chat/", "ollama/", "lm_studio/", "llamafile/", "jan/", "local/")

# ChatML framing measured with Qwen2.5 and SmolLM2 (llama.cpp, the models' own templates):
# "<|im_start|>role\n" + content + "<|im_end|>\n" is content + 5, and the generation prompt
# "<|im_start|>assistant\n" is 3. Other templates are within a couple of tokens of this.
PER_MESSAGE_OVERHEAD = 5
GENERATION_PROMPT_OVERHEAD = 3

# Tokenizer endpoints, in the order we try them: (path from the server root, JSON field).
_TOKENIZE_ENDPOINTS = (("/extras/tokenize", "input"), ("/tokenize", "content"))
_NO_ENDPOINT = ""  # remembered when no tokenizer endpoint answered

# How long a reply may go quiet. Before the first token a server on this machine or the local
# network may be reading a long prompt on CPU (8k tokens with a 7B model take minutes), so it
# gets 600 s; a hosted server
# usually starts in seconds, 120 s leaves room for models that think before they stream.
# Once tokens flow, 60 s without one means the server is stuck: the slowest CPU model still
# makes a token every few seconds. Environment variables override both.
FIRST_TOKEN_TIMEOUT_LOCAL = 600.0
FIRST_TOKEN_TIMEOUT_REMOTE = 120.0
STALL_TIMEOUT = 60.0


def strip_provider_prefix(model: str | None) -> str:
    """`openai/x` -> `x`, `ollama/llama3` -> `llama3`; other names unchanged."""
    name = (model or "").strip()
    for prefix in PROVIDER_PREFIXES:
        if name.lower().startswith(prefix):
            return name[len(prefix):]
    return name


def _env_seconds(name: str) -> float | None:
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return None
    return value if value > 0 else None


def _is_local(url: str) -> bool:
    """This machine or the local network (a CPU box on the LAN is as slow as this one)."""
    import ipaddress

    host = (urlsplit(url).hostname or "").lower()
    if host in ("localhost", "0.0.0.0") or host.endswith((".localhost", ".local", ".lan", ".home.arpa")):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local


def one_line(text: object, limit: int = 400) -> str:
    s = re.sub(r"\s+", " ", str(text)).strip()
    return s if len(s) <= limit else s[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------
# Chunk normalisation (shared by all back ends)


def _as_dict(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):  # pydantic v2 (openai, litellm)
        return obj.model_dump()
    if hasattr(obj, "dict") and not isinstance(obj, dict) and callable(obj.dict):  # pydantic v1
        return obj.dict()
    return obj


def _clean_tool_call(tc: Any, fallback_index: int) -> dict[str, Any]:
    tc = _as_dict(tc) or {}
    out: dict[str, Any] = {"index": tc.get("index", fallback_index)}
    if out["index"] is None:
        out["index"] = fallback_index
    if tc.get("id"):
        out["id"] = tc["id"]
    if tc.get("type"):
        out["type"] = tc["type"]
    fn = _as_dict(tc.get("function")) or {}
    func: dict[str, Any] = {}
    if fn.get("name") is not None:
        func["name"] = fn["name"]
    if fn.get("arguments") is not None:
        args = fn["arguments"]
        func["arguments"] = args if isinstance(args, str) else json.dumps(args)
    out["function"] = func
    return out


def _clean_delta(delta: Any) -> dict[str, Any]:
    delta = _as_dict(delta) or {}
    out: dict[str, Any] = {}
    if delta.get("role"):
        out["role"] = delta["role"]
    if delta.get("content"):
        out["content"] = delta["content"]
    # Reasoning models served by llama-server / vLLM stream their thoughts separately.
    for key in ("reasoning_content", "reasoning"):
        if delta.get(key):
            out["reasoning_content"] = delta[key]
            break
    if delta.get("tool_calls"):
        out["tool_calls"] = [_clean_tool_call(tc, i) for i, tc in enumerate(delta["tool_calls"])]
    if delta.get("function_call"):  # legacy functions API
        fc = _as_dict(delta["function_call"])
        out["function_call"] = {k: v for k, v in fc.items() if v is not None}
    return out


def _usage_chunk(usage: Any) -> dict[str, Any] | None:
    usage = _as_dict(usage)
    if not isinstance(usage, dict):
        return None
    return {"usage": {"prompt_tokens": usage.get("prompt_tokens") or 0,
                      "completion_tokens": usage.get("completion_tokens") or 0}}


def to_chunks(obj: Any) -> list[dict[str, Any]]:
    """Turn one chunk or response from any source into contract chunks (plain dicts).

    Accepts OpenAI/LiteLLM pydantic chunks, dict chunks (`choices[].delta`), whole non-streaming
    responses (`choices[].message`) and plain strings (content). Unknown shapes give [].
    """
    if obj is None:
        return []
    if isinstance(obj, bytes):
        obj = obj.decode("utf-8", "replace")
    if isinstance(obj, str):
        return [{"choices": [{"index": 0, "delta": {"content": obj}, "finish_reason": None}]}] if obj else []
    data = _as_dict(obj)
    if not isinstance(data, dict):
        return []
    out: list[dict[str, Any]] = []
    choices = []
    for i, choice in enumerate(data.get("choices") or []):
        choice = _as_dict(choice) or {}
        index = choice.get("index", i) or 0
        finish = choice.get("finish_reason")
        if choice.get("delta") is not None:
            choices.append({"index": index, "delta": _clean_delta(choice["delta"]), "finish_reason": finish})
        elif choice.get("message") is not None:
            # A whole answer: one delta with everything, then the finish as its own chunk.
            delta = _clean_delta(choice["message"])
            delta.pop("role", None)
            if delta:
                out.append({"choices": [{"index": index, "delta": delta, "finish_reason": None}]})
            finish = finish or ("tool_calls" if delta.get("tool_calls") else "stop")
            out.append({"choices": [{"index": index, "delta": {}, "finish_reason": finish}]})
        elif "text" in choice:  # completions-style servers
            text = choice.get("text") or ""
            choices.append({"index": index, "delta": {"content": text} if text else {}, "finish_reason": finish})
    if choices:
        out.append({"choices": choices})
    if data.get("usage"):
        usage = _usage_chunk(data["usage"])
        if usage:
            out.append(usage)
    return out


# ---------------------------------------------------------------------------------------------



def _http_errors(name: str) -> tuple[type[BaseException], ...]:
    """That exception class of httpx and of httpx2, whichever are installed: openai 3.63 runs on
    httpx2, earlier versions on httpx, and a raw error of either escapes mid-stream."""
    import importlib

    found = []
    for module in ("httpx", "httpx2"):
        try:
            found.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    return tuple(found)

class OpenAICompatibleBackend:
    """Streams chat completions from an OpenAI-compatible HTTP server."""

    def __init__(
        self,
        api_base: str,
        api_key: str | None = None,
        model: str | None = "local",
        api_version: str | None = None,
        *,
        timeout: float | None = None,
        connect_timeout: float = 5.0,
        stall_timeout: float | None = None,
    ) -> None:
        self.api_base = normalize_api_base(api_base)
        self.api_key = api_key or "not-needed"  # local servers ignore it; the client insists on one
        self.model = strip_provider_prefix(model) or "local"
        self.api_version = api_version
        # `timeout`: the wait for the first token; `stall_timeout`: the longest gap between tokens.
        first = FIRST_TOKEN_TIMEOUT_LOCAL if _is_local(self.api_base) else FIRST_TOKEN_TIMEOUT_REMOTE
        self.timeout = timeout or _env_seconds("INTERPRETER_LLM_FIRST_TOKEN_TIMEOUT") or first
        self.stall_timeout = stall_timeout or _env_seconds("INTERPRETER_LLM_STALL_TIMEOUT") or STALL_TIMEOUT
        self.connect_timeout = connect_timeout
        self._client: Any = None
        self._tokenize: tuple[str, str, int] | str | None = None  # (url, field, bos offset)
        self._token_cache: dict[str, int] = {}

    # -- plumbing -----------------------------------------------------------------------------

    @property
    def root(self) -> str:
        """The server root (api_base without its trailing /v1), where the tokenizer lives."""
        return re.sub(r"/v1$", "", self.api_base)

    def _get_client(self) -> Any:
        if self._client is None:
            try:
                import openai
            except ImportError as e:  # pragma: no cover - a packaging problem
                raise LLMError(f"The 'openai' package is needed to talk to {self.api_base}: pip install openai") from e
            self._client = openai.OpenAI(
                base_url=self.api_base,
                api_key=self.api_key,
                # openai's own Timeout: openai 3.63 runs on httpx2, which refuses an httpx.Timeout
                timeout=openai.Timeout(self.timeout, connect=self.connect_timeout),
                max_retries=0,  # a local server that refuses now will refuse in 1 s too: say so at once
                default_query={"api-version": self.api_version} if self.api_version else None,
            )
        return self._client

    def served_models(self) -> list[str] | None:
        """The model ids the server lists at /models, or None if it does not answer."""
        try:
            page = self._get_client().with_options(timeout=5.0).models.list()
            return [m.id for m in page.data]
        except Exception:
            return None

    def _error(self, exc: BaseException, model: str) -> LLMError:
        import openai

        where = self.api_base
        if isinstance(exc, openai.APITimeoutError) or isinstance(exc, _http_errors("TimeoutException")):
            return LLMError(f"The model server at {where} did not answer in time (timeout after {self.timeout:g} s).")
        if isinstance(exc, _http_errors("TransportError")):  # raw httpx errors only escape mid-stream
            return LLMError(f"The connection to the model server at {where} broke mid-reply ({one_line(exc, 200)}).")
        if isinstance(exc, openai.APIConnectionError):
            cause: BaseException | None = exc
            while cause is not None:
                if isinstance(cause, ConnectionRefusedError) or "refused" in str(cause).lower():
                    return LLMError(f"Cannot reach the model server at {where} (connection refused). Is it running?")
                cause = cause.__cause__ or cause.__context__
            detail = one_line(exc.__cause__ or exc, 200)
            return LLMError(f"Cannot reach the model server at {where} ({detail}).")
        if isinstance(exc, openai.AuthenticationError):
            return LLMError(f"The model server at {where} refused the API key (HTTP 401). Check api_key.")
        if isinstance(exc, openai.PermissionDeniedError):
            return LLMError(f"The model server at {where} denied access (HTTP 403): {one_line(exc.message, 200)}")
        if isinstance(exc, openai.NotFoundError):
            served = self.served_models()
            if served:
                return LLMError(f"The model '{model}' is not served at {where}. Served models: {', '.join(served)}.")
            if served is None:
                return LLMError(f"The server at {where} answered 404 Not Found: check api_base (it usually ends in /v1) and the model name '{model}'.")
            return LLMError(f"The model '{model}' is not served at {where} (the server lists no models).")
        if isinstance(exc, openai.APIStatusError):
            return LLMError(f"The model server at {where} returned HTTP {exc.status_code}: {one_line(exc.message, 300)}")
        if isinstance(exc, openai.APIError):
            return LLMError(f"The model server at {where} reported an error: {one_line(exc.message, 300)}")
        return LLMError(f"Talking to the model server at {where} failed: {type(exc).__name__}: {one_line(exc, 300)}")

    # -- the contract --------------------------------------------------------------------------

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
    ) -> Iterator[dict[str, Any]]:
        import openai

        name = strip_provider_prefix(model) or self.model
        params: dict[str, Any] = {"model": name, "messages": messages, "stream": stream}
        if max_tokens is not None:
            params["max_tokens"] = max_tokens
        if temperature is not None:
            params["temperature"] = temperature
        if stop:
            params["stop"] = stop
        if tools:
            params["tools"] = tools
        if seed is not None:
            params["seed"] = seed
        response: Any = None
        watch: _Watchdog | None = None
        streaming = False  # the reply had begun: a lost connection now is a break, not "cannot reach"
        try:
            response = self._get_client().chat.completions.create(**params)
            streaming = stream
            if stream:
                watch = _Watchdog(getattr(response, "response", None), self.timeout, self.stall_timeout)
            items: Iterable[Any] = response if stream else [response]
            finished = not stream
            for item in items:
                chunks = to_chunks(item)
                if watch is not None and any(_has_tokens(c) for c in chunks):
                    watch.beat()
                finished = finished or any(ch.get("finish_reason") for c in chunks for ch in c.get("choices") or [])
                yield from chunks
            if watch is not None and watch.fired:
                raise self._stalled(watch)
            if not finished:  # the body ended cleanly but the reply did not: never pass it off as whole
                raise LLMError(f"The model server at {self.api_base} closed the reply before finishing it "
                               "(no finish_reason); the answer is cut off.")
        except (openai.OpenAIError, *_http_errors("HTTPError")) as e:
            if watch is not None and watch.fired:
                raise self._stalled(watch) from None
            # openai 3.x wraps a connection lost mid-stream in APIConnectionError, as it does a refused one.
            if streaming and isinstance(e, openai.APIConnectionError) and not isinstance(e, openai.APITimeoutError):
                raise LLMError(f"The connection to the model server at {self.api_base} broke mid-reply "
                               f"({one_line(e.__cause__ or e, 200)}).") from e
            raise self._error(e, name) from e
        except ValueError as e:  # a `data:` line that is not JSON (openai's stream parses each one)
            if watch is not None and watch.fired:
                raise self._stalled(watch) from None
            sent = getattr(e, "doc", None)
            what = f"'{one_line(sent, 120)}'" if isinstance(sent, str) else one_line(e, 120)
            raise LLMError(f"The model server at {self.api_base} sent a reply line that is not JSON: {what}. "
                           "Is api_base an OpenAI-compatible server?") from None
        finally:
            if watch is not None:
                watch.stop()
            # Early close (GeneratorExit) lands here: dropping the HTTP stream tells the server to stop.
            if stream and response is not None:
                response.close()

    def _stalled(self, watch: "_Watchdog") -> LLMError:
        where = self.api_base
        if watch.started:
            return LLMError(f"The model server at {where} stopped sending tokens for {watch.fired:g} s mid-reply; "
                            "the reply was cut off (INTERPRETER_LLM_STALL_TIMEOUT sets this limit).")
        return LLMError(f"The model server at {where} sent no token within {watch.fired:g} s "
                        "(INTERPRETER_LLM_FIRST_TOKEN_TIMEOUT sets this limit).")

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        total = GENERATION_PROMPT_OVERHEAD
        for message in messages:
            n = self._count_text(message_text(message))
            if n is None:
                return None
            total += n + PER_MESSAGE_OVERHEAD
        return total

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # -- tokenizer ---------------------------------------------------------------------------

    def _post_tokenize(self, url: str, field: str, text: str) -> list[int] | None:
        import httpx

        body: dict[str, Any] = {field: text}
        if field == "input":
            body["model"] = self.model  # llama_cpp.server picks the tokenizer by model alias
        try:
            r = httpx.post(url, json=body, timeout=10.0, headers={"Authorization": f"Bearer {self.api_key}"})
            if r.status_code != 200:
                return None
            tokens = r.json().get("tokens")
        except (httpx.HTTPError, ValueError, AttributeError):
            return None
        return tokens if isinstance(tokens, list) else None

    def _find_tokenizer(self) -> None:
        """Probe once; remember the endpoint that works and how many tokens it adds (BOS) to ''."""
        for path, field in _TOKENIZE_ENDPOINTS:
            url = self.root + path
            empty = self._post_tokenize(url, field, "")
            if empty is not None:
                self._tokenize = (url, field, len(empty))
                return
        self._tokenize = _NO_ENDPOINT

    def _count_text(self, text: str) -> int | None:
        if not text:
            return 0
        if text in self._token_cache:  # conversations re-send the same messages every turn
            return self._token_cache[text]
        if self._tokenize is None:
            self._find_tokenizer()
        if not isinstance(self._tokenize, tuple):
            return None
        url, field, offset = self._tokenize
        tokens = self._post_tokenize(url, field, text)
        if tokens is None:
            return None
        n = max(len(tokens) - offset, 0)
        if len(self._token_cache) > 4096:
            self._token_cache.clear()
        self._token_cache[text] = n
        return n


def _has_tokens(chunk: dict[str, Any]) -> bool:
    """A chunk that shows the model is generating (a bare role chunk may come before the prompt is read)."""
    for choice in chunk.get("choices") or []:
        delta = choice.get("delta") or {}
        if choice.get("finish_reason") or any(delta.get(k) for k in ("content", "reasoning_content", "tool_calls", "function_call")):
            return True
    return False


class _Watchdog:
    """Ends a streamed reply that went quiet. httpx's read timeout cannot do it: SSE keep-alive
    comments reset it, and it is one number for the first token and the gaps after it. Shutting
    the socket down wakes the read blocked in the streaming thread, which then raises."""

    def __init__(self, response: Any, first: float, stall: float) -> None:
        self.limit, self.stall = first, stall
        self.last = time.monotonic()
        self.started = False
        self.fired: float | None = None
        self._done = threading.Event()
        self._sock = _socket_of(response)
        if self._sock is not None:
            threading.Thread(target=self._run, name="oi-llm-watchdog", daemon=True).start()

    def beat(self) -> None:
        self.last = time.monotonic()
        if not self.started:
            self.started, self.limit = True, self.stall

    def _run(self) -> None:
        while not self._done.wait(min(0.25, self.limit / 4)):
            if time.monotonic() - self.last > self.limit:
                self.fired = self.limit
                try:
                    self._sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return

    def stop(self) -> None:
        self._done.set()


def _socket_of(response: Any) -> socket.socket | None:
    """The TCP socket under an httpx response (httpcore exposes it as the network stream's extra info)."""
    try:
        sock = response.extensions["network_stream"].get_extra_info("socket")
    except (AttributeError, KeyError, TypeError):
        return None
    return sock if isinstance(sock, socket.socket) else None


def message_text(message: dict[str, Any]) -> str:
    """The text of a chat message that the model reads: content parts, tool calls and their names."""
    parts: list[str] = []
    content = message.get("content")
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                parts.append(str(part.get("text", "")))
    for call in message.get("tool_calls") or []:
        fn = (call or {}).get("function") or {}
        parts.append(str(fn.get("name", "")))
        parts.append(str(fn.get("arguments", "")))
    return "\n".join(p for p in parts if p)
