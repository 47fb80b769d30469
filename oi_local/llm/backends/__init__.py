"""The back ends, one registration line each, with what the rest of the program may ask of them.

`Llm.kind()` decides which one a configuration uses; everything outside `llm/` asks
`Llm.capabilities()` (a `Kind`) instead of comparing kind names. Builders import their back end
only when it is used, so importing this is cheap.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from oi_local.llm.backends.base import Backend
    from oi_local.llm.llm import Llm


@dataclass(frozen=True)
class Kind:
    name: str
    build: Callable[["Llm"], "Backend"]
    family_prompts: bool  # a local model whose family files (templates/families/) set prompts and stop strings
    counts_tokens: bool  # the back end can count a prompt's tokens (else they are estimated)
    shared: bool  # one loaded model can serve every server conversation
    default_model: bool  # with no model named, the bundled default model (downloaded once)
    gpu_layers: bool  # runs the model itself and offloads llm.n_gpu_layers to a GPU
    images: bool  # may be sent images (embedded: only a vision model with its projector, Llm.sees_images)


def _function(llm: "Llm") -> "Backend":
    from oi_local.llm.backends.function import FunctionBackend

    fn = llm._completions
    assert fn is not None  # kind() is "function" only when it is set
    return FunctionBackend(fn)


def _embedded(llm: "Llm") -> "Backend":
    from oi_local.llm.backends.embedded import EmbeddedBackend
    from oi_local.llm.llm import resolve_embedded_model

    return EmbeddedBackend(resolve_embedded_model(llm.model), n_ctx=llm.effective_context_window(), n_threads=llm.n_threads,
                           n_gpu_layers=llm.n_gpu_layers, projector=llm.projector_file())


def _server(llm: "Llm") -> "Backend":
    from oi_local.llm.backends.openai_compat import OpenAICompatibleBackend

    if (llm.model or "").startswith(("ollama/", "ollama_chat/")):  # num_ctx = our budget
        from oi_local.llm.backends.ollama import OllamaBackend

        return OllamaBackend(llm.server_base() or "", llm.effective_context_window(), api_key=llm.api_key,
                             model=llm.model or "local", api_version=llm.api_version)
    return OpenAICompatibleBackend(llm.server_base() or "", api_key=llm.api_key, model=llm.model or "local",
                                   api_version=llm.api_version)


def _hosted(llm: "Llm") -> "Backend":
    from oi_local.llm.backends.litellm_backend import LiteLLMBackend

    return LiteLLMBackend(llm.model or "", api_key=llm.api_key, api_base=llm.api_base, api_version=llm.api_version)


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("function", _function, family_prompts=False, counts_tokens=False, shared=False, default_model=False, gpu_layers=False, images=True),
    Kind("embedded", _embedded, family_prompts=True, counts_tokens=True, shared=True, default_model=True, gpu_layers=True, images=False),
    Kind("server", _server, family_prompts=True, counts_tokens=True, shared=False, default_model=False, gpu_layers=False, images=True),
    Kind("hosted", _hosted, family_prompts=False, counts_tokens=True, shared=False, default_model=False, gpu_layers=False, images=True),
)}
