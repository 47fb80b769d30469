"""A back end for hosted models (gpt-4o, claude-..., groq/..., ...) through LiteLLM.

LiteLLM is imported lazily (it takes seconds) and tamed first: by default it downloads its model
cost map and a few config files from GitHub at import or first use, which stalls offline, and it
ships with logging callbacks. Chunks come out as the contract's plain dicts.
"""
from __future__ import annotations

import functools
import os
from typing import Any, Iterator

from .base import LLMError
from .openai_compat import one_line, to_chunks

# Use the copies bundled in the litellm wheel instead of fetching them from GitHub.
_OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "True",
    "LITELLM_LOCAL_BLOG_POSTS": "True",
    "LITELLM_LOCAL_AUTOROUTER_PRESETS": "True",
    "LITELLM_LOCAL_POLICY_TEMPLATES": "True",
}

_litellm: Any = None


def import_litellm() -> Any:
    """Import litellm with its network look-ups and telemetry off. Cached."""
    global _litellm
    if _litellm is not None:
        return _litellm
    for key, value in _OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    try:
        import litellm
    except ImportError as e:
        raise LLMError("The 'litellm' package is needed for hosted models: pip install litellm") from e
    litellm.telemetry = False  # older versions phone home unless told not to
    litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" banners on errors
    litellm.turn_off_message_logging = True
    litellm.success_callback = []
    litellm.failure_callback = []
    litellm.callbacks = []
    litellm.drop_params = True  # providers reject params they do not know; drop them instead
    _litellm = litellm
    return litellm


@functools.lru_cache(maxsize=64)
def model_info(model: str) -> dict[str, Any]:
    """What litellm's bundled model map knows of a hosted model (context window, function
    calling ...); {} for a model it does not know. Offline: the map ships in the litellm wheel."""
    try:
        info = import_litellm().get_model_info(model)
    except Exception:  # noqa: BLE001 - litellm raises plain Exception for unknown models
        return {}
    return dict(info) if info else {}


class LiteLLMBackend:
    def __init__(
        self,
        model: str,
        api_key: str | None = None,
        api_base: str | None = None,
        api_version: str | None = None,
        *,
        timeout: float = 600.0,
    ) -> None:
        self.model = model
        self.api_key = api_key
        self.api_base = api_base
        self.api_version = api_version
        self.timeout = timeout

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
        litellm = import_litellm()
        params: dict[str, Any] = {
            "model": model or self.model,
            "messages": messages,
            "stream": stream,
            "timeout": self.timeout,
            "num_retries": 0,
        }
        for key, value in (("api_key", self.api_key), ("api_base", self.api_base),
                           ("api_version", self.api_version), ("max_tokens", max_tokens),
                           ("temperature", temperature), ("stop", stop or None), ("tools", tools or None),
                           ("seed", seed)):
            if value is not None:
                params[key] = value
        response: Any = None
        try:
            response = litellm.completion(**params)
            for item in response if stream else [response]:
                yield from to_chunks(item)
        except LLMError:
            raise
        except Exception as e:  # litellm maps provider errors onto its own (openai-derived) classes
            raise LLMError(_describe(e, params["model"])) from e
        finally:
            if stream and response is not None:
                # CustomStreamWrapper has no sync close; close the provider stream it wraps.
                inner = getattr(response, "completion_stream", None)
                close = getattr(inner, "close", None)
                if callable(close):
                    try:
                        close()
                    except Exception:
                        pass

    def count_tokens(self, messages: list[dict[str, Any]]) -> int | None:
        # litellm counts with tiktoken, which downloads its vocabularies on first use: offline it
        # fails or stalls. The caller estimates instead.
        return None

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """USD for this many tokens, from litellm's bundled price table; None if the model is unknown."""
        litellm = import_litellm()
        try:
            prompt_cost, completion_cost = litellm.cost_per_token(
                model=self.model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens
            )
        except Exception:
            return None
        return float(prompt_cost) + float(completion_cost)

    def close(self) -> None:
        pass


def _describe(exc: Exception, model: str) -> str:
    message = one_line(getattr(exc, "message", None) or exc, 500)
    # litellm prefixes messages with its class names ("litellm.AuthenticationError: ...").
    for _ in range(3):
        head, sep, rest = message.partition(": ")
        if sep and (head.startswith("litellm.") or head.endswith(("Error", "Exception"))) and " " not in head:
            message = rest
    return f"{model}: {message}" if message else f"{model}: {type(exc).__name__}"


def missing_key_names(llm: Any) -> list[str]:
    """Environment variables litellm wants for this hosted model and does not find ([] if none)."""
    if llm.kind() != "hosted" or llm.api_key:
        return []
    try:
        found = import_litellm().validate_environment(model=llm.model or "", api_base=llm.api_base)
    except Exception:  # noqa: BLE001 - an unknown provider: let the request itself say what is wrong
        return []
    if found.get("keys_in_environment"):
        return []
    # litellm also lists settings that are not secrets (AZURE_API_VERSION, AZURE_API_BASE)
    return [k for k in found.get("missing_keys") or [] if "KEY" in k or "TOKEN" in k]
