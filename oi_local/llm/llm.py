"""`interpreter.llm`: model settings, back-end choice, and turning a model's stream into LMC chunks."""
from __future__ import annotations

import inspect
import json
import re
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator

from oi_local.llm.backends.base import Backend, LLMError
from oi_local.settings import Checked

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.llm.backends import Kind

EXECUTE_TOOL = {
    "type": "function",
    "function": {
        "name": "execute",
        "description": "Executes code on the user's machine, in the users's local environment, and returns the output",
        "parameters": {
            "type": "object",
            "properties": {
                "language": {"type": "string", "description": "The programming language (required parameter to the `execute` function)", "enum": ["python", "shell", "javascript"]},
                "code": {"type": "string", "description": "The code to execute (required)"},
            },
            "required": ["language", "code"],
        },
    },
}

LOCAL_PREFIXES = ("openai/", "ollama/", "ollama_chat/", "lm_studio/", "llamafile/", "jan/", "local/")
EMBEDDED_NAMES = ("", "local", "embedded", "default")


# litellm providers that are not plain OpenAI-compatible servers: with one of these prefixes an
# api_base is that provider's endpoint (an Azure deployment, a Hugging Face endpoint), so the request
# must go through litellm, which speaks their protocols and auth.
HOSTED_PROVIDERS = frozenset(
    "azure azure_ai huggingface anthropic bedrock sagemaker vertex_ai gemini mistral cohere replicate "
    "together_ai groq deepinfra anyscale perplexity fireworks_ai openrouter cloudflare baseten ai21 "
    "nlp_cloud aleph_alpha palm databricks watsonx predibase clarifai voyage xai deepseek cerebras".split()
)


def hosted_provider(model: str) -> str | None:
    """The litellm provider named by the model's prefix (`azure/my-deployment` -> azure), if any."""
    prefix = model.split("/", 1)[0].lower() if "/" in model else ""
    return prefix if prefix in HOSTED_PROVIDERS else None


def is_local_url(url: str | None) -> bool:
    return bool(url) and bool(re.match(r"https?://(localhost|127\.|0\.0\.0\.0|\[::1\])", url or ""))


class Llm(Checked):
    """Settings of the language model, as in the spec (`interpreter.llm.*`)."""

    _settings_prefix = "llm."

    def __init__(self) -> None:
        self.model: str | None = None  # None: the embedded default model
        self.temperature: float = 0.0
        self.context_window: int | None = None
        self.max_tokens: int | None = None
        self.api_base: str | None = None
        self.api_key: str | None = None
        self.api_version: str | None = None
        self.supports_functions: bool | None = None  # None: decided by the back end
        self.supports_vision: bool = False
        self.projector: str | None = None  # embedded vision model: its mmproj GGUF (None: the catalog's, if on disk)
        self.execution_instructions: str | bool | None = None  # None: from the template set
        self._max_output: int | None = None  # spec alias of interpreter.max_output (see link_max_output)
        self._output_owner: Any = None
        self.stop: list[str] | None = None
        self.n_threads: int | None = None
        self.n_gpu_layers: int | None = None  # embedded model: None = as many as the free VRAM holds
        self._completions: Callable[..., Any] | None = None
        self._backend: Backend | None = None
        self._backend_key: tuple | None = None
        # Filled after each call, for verbose output and benchmarks.
        self.last_finish_reason: str | None = None
        self.last_usage: dict[str, Any] = {}
        self.last_stats: dict[str, float] = {}

    # --- llm.max_output: the spec puts it here too; the code output it limits is the computer's ---
    def link_max_output(self, owner: Any) -> None:
        """Make `llm.max_output` read and write `owner.max_output` (the engine's computer)."""
        self._output_owner = owner

    @property
    def max_output(self) -> int | None:
        return self._output_owner.max_output if self._output_owner is not None else self._max_output

    @max_output.setter
    def max_output(self, value: int | None) -> None:
        if self._output_owner is not None and value is not None:
            self._output_owner.max_output = int(value)
        else:
            self._max_output = value

    # --- the user-replaceable completions function (spec: language-models/custom-models) ---
    @property
    def completions(self) -> Callable[..., Any]:
        if self._completions is not None:
            return self._completions
        return self.backend().completions

    @completions.setter
    def completions(self, fn: Callable[..., Any] | None) -> None:
        self._completions = fn
        self._backend_key = None

    # --- back-end choice ---
    def kind(self) -> str:
        """'function', 'embedded', 'server' (OpenAI-compatible URL) or 'hosted' (litellm)."""
        if self._completions is not None:
            return "function"
        model = (self.model or "").strip()
        if self.api_base and hosted_provider(model) is None:
            return "server"
        if model.lower() in EMBEDDED_NAMES or model.endswith(".gguf") or _catalog_path(model) is not None:
            return "embedded"
        if model.startswith(("ollama/", "ollama_chat/")):
            return "server"
        return "hosted"

    def is_local(self) -> bool:
        k = self.kind()
        return k == "embedded" or (k == "server" and is_local_url(self.server_base()))

    def server_base(self) -> str | None:
        if self.api_base:
            return self.api_base
        if (self.model or "").startswith(("ollama/", "ollama_chat/")):
            return "http://localhost:11434/v1"
        return None

    def effective_context_window(self) -> int:
        if self.context_window:
            return int(self.context_window)
        k = self.kind()
        if k == "embedded":
            return 8192
        if k == "hosted":
            return _hosted_context(self.model or "") or 8000
        return 4096

    def effective_max_tokens(self) -> int:
        if self.max_tokens:
            return int(self.max_tokens)
        return min(1024, max(self.effective_context_window() // 4, 64))

    def projector_file(self) -> str | None:
        """The image projector the embedded model loads with: `llm.projector`, else the one the
        catalog pairs with this model when it is on disk. None for other back ends."""
        if self.kind() != "embedded":
            return None
        if self.projector:
            return str(self.projector)
        try:
            from oi_local.local.models import projector_for

            found = projector_for(resolve_embedded_model(self.model)) if self.model else None
        except LLMError:
            return None
        return str(found) if found is not None else None

    def sees_images(self) -> bool:
        """Images may be sent to this model: the user says so (`supports_vision`), or it is an
        embedded vision model with its projector."""
        return bool(self.supports_vision) or self.projector_file() is not None

    def functions_enabled(self) -> bool:
        if self.supports_functions is not None:
            return bool(self.supports_functions)
        return self.kind() == "hosted" and _hosted_supports_functions(self.model or "")

    def backend(self) -> Backend:
        k = self.kind()
        key = (k, self.model, self.api_base, self.api_key, self.api_version, self.effective_context_window(), self.n_threads,
               self.n_gpu_layers, self.projector, id(self._completions))
        if self._backend is not None and key == self._backend_key:
            return self._backend
        self.close()
        self._backend = self._make_backend(k)
        self._backend_key = key
        return self._backend

    def _make_backend(self, k: str) -> Backend:
        from oi_local.llm.backends import KINDS

        return KINDS[k].build(self)

    def capabilities(self) -> "Kind":
        """What this configuration's back end can do (llm/backends/__init__.py)."""
        from oi_local.llm.backends import KINDS

        return KINDS[self.kind()]

    def is_free(self) -> bool:
        """Costs nothing per token: a local model, or the user's own function that names no model."""
        return self.is_local() or (self.kind() == "function" and not (self.model or "").strip())

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        if self._completions is not None:
            return None
        return self.backend().count_tokens(messages)

    def close(self) -> None:
        if self._backend is not None:
            try:
                self._backend.close()
            finally:
                self._backend = None
                self._backend_key = None

    # --- streaming ---
    def stream_text(self, messages: list[dict[str, Any]], *, tools: list[dict] | None = None, max_tokens: int | None = None,
                    stop: list[str] | None = None, temperature: float | None = None,
                    seed: int | None = None, reply_prefix: str | None = None,
                    stable_messages: int = 0) -> Iterator[dict[str, Any]]:
        """Yield normalised deltas: {"content": str} or {"tool_call": {...partial...}}.

        `temperature`/`seed` override the settings for this one request (the loop's sampled retries).
        `reply_prefix` is where the reply must start (e.g. a code fence), for back ends that can
        continue a reply (the embedded one); the others ignore it."""
        params: dict[str, Any] = {
            "messages": messages,
            "model": self.model,
            "stream": True,
            "max_tokens": max_tokens or self.effective_max_tokens(),
            "temperature": self.temperature if temperature is None else temperature,
        }
        if seed is not None:
            params["seed"] = seed
        stop = stop if stop is not None else self.stop
        if stop:
            params["stop"] = stop
        if tools:
            params["tools"] = tools
        if reply_prefix and self.kind() == "embedded":
            params["reply_prefix"] = reply_prefix
        if stable_messages and self.kind() == "embedded" and self._completions is None:
            params["stable_messages"] = stable_messages
        fn = self.completions
        if self._completions is not None:
            params = _accepted(fn, params)
        self.last_finish_reason, self.last_usage = None, {}
        start = time.perf_counter()
        first: float | None = None
        pieces = 0
        result = fn(**params)
        if isinstance(result, dict):
            result = iter([result])
        try:
            for raw in result:
                for delta in _deltas(raw, self):
                    if first is None:
                        first = time.perf_counter()
                    pieces += 1
                    yield delta
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
            end = time.perf_counter()
            self.last_stats = {
                "seconds": end - start,
                "first_token_seconds": (first - start) if first else end - start,
                "pieces": pieces,
                "pieces_per_second": pieces / (end - first) if first and end > first else 0.0,
            }


def _deltas(raw: Any, llm: Llm) -> Iterator[dict[str, Any]]:
    if isinstance(raw, str):
        yield {"content": raw}
        return
    if hasattr(raw, "model_dump"):
        raw = raw.model_dump()
    if not isinstance(raw, dict):
        return
    if raw.get("usage"):
        llm.last_usage = dict(raw["usage"])
    for choice in raw.get("choices") or []:
        delta = choice.get("delta") or choice.get("message") or {}
        if delta.get("content"):
            yield {"content": delta["content"]}
        for tc in delta.get("tool_calls") or []:
            yield {"tool_call": tc}
        if delta.get("function_call"):
            yield {"tool_call": {"index": 0, "function": delta["function_call"]}}
        if choice.get("finish_reason"):
            llm.last_finish_reason = choice["finish_reason"]


def _accepted(fn: Callable[..., Any], params: dict[str, Any]) -> dict[str, Any]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return params
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return params
    return {k: v for k, v in params.items() if k in sig.parameters}


def _catalog_path(name: str) -> Any:
    if not name:
        return None
    try:
        from oi_local.local.models import resolve_model
    except ImportError:
        return None
    try:
        return resolve_model(name)
    except Exception:
        return None


def resolve_embedded_model(name: str | None) -> str:
    """The GGUF file for the embedded back end: a path, a catalog id, or the default model."""
    from pathlib import Path

    if name and name.lower() not in EMBEDDED_NAMES:
        p = Path(name).expanduser()
        if p.suffix == ".gguf":
            return str(p)
        found = _catalog_path(name)
        if found is not None:
            return str(found)
        raise LLMError(f"Unknown local model {name!r}: give a path to a .gguf file or a catalog id")
    from oi_local.local.models import (
        default_model_id,
        get_entry,
        is_installed,
        model_path,
    )

    entry = get_entry(default_model_id())
    path = model_path(entry)
    if not is_installed(entry):  # first use from Python: fetch it, progress on stderr
        import sys

        from oi_local.local.models import fetch
        from oi_local.local.progress import StderrProgress

        print(f"Downloading the default model {entry.id} to {path.parent} (first use) ...", file=sys.stderr, flush=True)
        progress = StderrProgress()
        try:
            fetch(entry, progress=progress)
        finally:
            progress.end()
    return str(path)


def _hosted_context(model: str) -> int | None:
    try:
        from oi_local.llm.backends.litellm_backend import model_info

        info = model_info(model)
        return int(info.get("max_input_tokens") or info.get("max_tokens") or 0) or None
    except Exception:
        return None


def _hosted_supports_functions(model: str) -> bool:
    try:
        from oi_local.llm.backends.litellm_backend import model_info

        return bool(model_info(model).get("supports_function_calling"))
    except Exception:
        return False


def parse_tool_arguments(text: str) -> tuple[str | None, str | None]:
    """Best-effort (language, code) from a possibly partial JSON arguments string."""
    try:
        data = json.loads(text)
        if isinstance(data, dict):
            return data.get("language"), data.get("code")
    except ValueError:
        pass
    lang = re.search(r'"language"\s*:\s*"([^"]*)"', text)
    m = re.search(r'"code"\s*:\s*"', text)
    code = None
    if m:
        code = _decode_partial_json_string(text[m.end():])
    return (lang.group(1) if lang else None), code


def _decode_partial_json_string(s: str) -> str:
    out = []
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == '"':
            break
        if ch == "\\":
            if i + 1 >= len(s):
                break
            nxt = s[i + 1]
            if nxt == "u":
                if i + 6 > len(s):
                    break
                try:
                    out.append(chr(int(s[i + 2:i + 6], 16)))
                except ValueError:
                    pass
                i += 6
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)
