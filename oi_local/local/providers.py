"""Which local model providers are installed or running here, found concurrently and quickly.

Every network probe is a plain HTTP GET on 127.0.0.1 with a short timeout, all at once in
threads, so a machine with nothing running answers in about one timeout (0.5 s by default).
Ollama is probed and driven through the `ollama` library (list, show, pull, create).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from oi_local._paths import models_dir
from oi_local.errors import LLMError


def normalize_api_base(api_base: str) -> str:
    """Accept what users type: no scheme, a trailing slash or space, or a bare host:port.

    A bare `http://localhost:11434` (the spec's Ollama example) gets `/v1`, which is where every
    OpenAI-compatible server we target serves the API.
    """
    base = api_base.strip().rstrip("/")
    if not base:
        raise LLMError("api_base is empty: set it to the server's URL, e.g. http://localhost:8080/v1")
    if "://" not in base:
        base = "http://" + base
    if urlsplit(base).path in ("", "/"):
        base += "/v1"
    return base


# The ports each tool listens on out of the box.
LLAMA_CPP_PORT = 8080  # llama-server and llamafile
OLLAMA_PORT = 11434
LM_STUDIO_PORT = 1234
JAN_PORT = 1337


@dataclass
class Provider:
    key: str  # embedded, llama-server, ollama, llamafile, lmstudio, jan, openai
    label: str
    installed: bool  # we could start or use it
    running: bool  # something answers on its URL now
    url: str | None = None  # OpenAI-compatible base (…/v1) when running
    models: list[str] = field(default_factory=list)
    detail: str = ""

    def line(self) -> str:
        state = "running" if self.running else ("available" if self.installed else "not found")
        models = f": {', '.join(self.models[:4])}{' …' if len(self.models) > 4 else ''}" if self.models else ""
        where = f" at {self.url}" if self.running and self.url else ""
        return f"{self.label}: {state}{where}{models}{' (' + self.detail + ')' if self.detail else ''}"


def openai_models(base: str, timeout: float = 0.5) -> list[str] | None:
    """Model ids served at an OpenAI-compatible base URL (…/v1), or None if nothing answers."""
    url = base.rstrip("/") + "/models"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            data = json.loads(r.read(1 << 20) or b"{}")
    except urllib.error.HTTPError as e:
        return [] if e.code in (401, 403) else None  # serving, but wants a key
    except (urllib.error.URLError, OSError, ValueError):
        return None
    items = data.get("data") if isinstance(data, dict) else None
    return [str(m.get("id")) for m in items or [] if isinstance(m, dict) and m.get("id")]


# -- Ollama ---------------------------------------------------------------------------------------


def ollama_host() -> str:
    host = os.environ.get("OLLAMA_HOST") or f"http://127.0.0.1:{OLLAMA_PORT}"
    if "://" not in host:
        host = "http://" + host
    return host.rstrip("/")


def _ollama_client(timeout: float | None = None, host: str | None = None) -> Any:
    try:
        import ollama
    except ImportError as e:
        raise LLMError("The 'ollama' package is needed to talk to Ollama: pip install 'oi-local[local]'") from e
    return ollama.Client(host=host or ollama_host(), timeout=timeout)


def _ollama_error(e: BaseException, what: str) -> LLMError:
    text = " ".join(str(e).split())[:240]
    if isinstance(e, ConnectionError) or "connect" in text.lower():
        return LLMError(f"Ollama is not running at {ollama_host()} ({what}). Start it with `ollama serve`.")
    return LLMError(f"Ollama could not {what}: {text}")


def ollama_models(timeout: float = 0.5) -> list[str] | None:
    """Names of the models Ollama has, or None if Ollama does not answer."""
    try:
        listing = _ollama_client(timeout).list()
    except LLMError:
        return None
    except Exception:  # noqa: BLE001 - connection refused, timeout, not Ollama
        return None
    return [m.model for m in listing.models if m.model]


def ollama_context_length(model: str) -> int | None:
    """The trained context length Ollama reports for `model` (from /api/show model_info)."""
    try:
        info = _ollama_client(10).show(model)
    except Exception as e:  # noqa: BLE001
        raise _ollama_error(e, f"describe {model}") from e
    for key, value in (info.modelinfo or {}).items():
        if key.endswith(".context_length") and isinstance(value, int):
            return value
    return None


def ollama_pull(model: str, progress: Callable[[str, int, int], None] | None = None) -> None:
    """Pull a model, streaming Ollama's progress (status, completed, total) to `progress`."""
    try:
        for part in _ollama_client(None).pull(model, stream=True):
            if progress:
                progress(f"{part.status or 'pulling'} {model}", int(part.completed or 0), int(part.total or 0))
            if part.status and part.status.startswith("error"):
                raise LLMError(f"Ollama could not pull {model}: {part.status}")
    except LLMError:
        raise
    except Exception as e:  # noqa: BLE001
        raise _ollama_error(e, f"pull {model}") from e


def ollama_with_context(model: str, num_ctx: int, host: str | None = None) -> str:
    """A variant of `model` whose num_ctx is our context budget; returns its name.

    Ollama's OpenAI-compatible /v1 API (what the chat back end speaks) has no way to pass
    num_ctx, and Ollama otherwise silently cuts prompts at its own default (2048 or 4096
    tokens). Ollama's documented fix is a derived model with `PARAMETER num_ctx`: /api/create
    with `from` and `parameters`, which only writes a small manifest (no copy of the weights).
    """
    base = model.split("/")[-1].replace(":", "-")
    name = f"oi-{base}:ctx{num_ctx}"
    try:
        _ollama_client(60, host).create(model=name, from_=model, parameters={"num_ctx": int(num_ctx)})
    except Exception as e:  # noqa: BLE001
        raise _ollama_error(e, f"set the context length of {model}") from e
    return name


# -- everything -------------------------------------------------------------------------------------


def llama_cpp_installed() -> bool:
    # find_spec of the top package only: importing llama_cpp loads its native library (slow).
    return importlib.util.find_spec("llama_cpp") is not None


def llama_cpp_server_installed() -> bool:
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return False
    has_server = (Path(list(spec.submodule_search_locations)[0]) / "server" / "__main__.py").is_file()
    return has_server and all(importlib.util.find_spec(m) for m in ("uvicorn", "fastapi", "sse_starlette"))


def llamafiles(folder: Path | None = None) -> list[Path]:
    d = Path(folder or models_dir())
    return sorted(d.glob("*.llamafile")) if d.is_dir() else []


def local_gguf_models(folder: Path | None = None) -> list[Path]:
    d = Path(folder or models_dir())
    return sorted(p for p in d.glob("*.gguf") if p.is_file()) if d.is_dir() else []


def detect(timeout: float = 0.5, extra_urls: list[str] | None = None) -> list[Provider]:
    """All providers, installed or running. Network probes run concurrently."""
    probes: dict[str, Callable[[], Any]] = {
        "llama-server": lambda: openai_models(f"http://127.0.0.1:{LLAMA_CPP_PORT}/v1", timeout),
        "ollama": lambda: ollama_models(timeout),
        "lmstudio": lambda: openai_models(f"http://127.0.0.1:{LM_STUDIO_PORT}/v1", timeout),
        "jan": lambda: openai_models(f"http://127.0.0.1:{JAN_PORT}/v1", timeout),
    }
    for i, url in enumerate(extra_urls or ()):
        probes[f"url{i}"] = (lambda u=url: openai_models(u, timeout))
    with ThreadPoolExecutor(max_workers=len(probes)) as pool:
        futures = {k: pool.submit(fn) for k, fn in probes.items()}
        found = {k: f.result() for k, f in futures.items()}

    ggufs = local_gguf_models()
    server_bin = shutil.which("llama-server")
    out = [
        Provider("embedded", "Built-in llama.cpp (no server)", llama_cpp_installed(), False,
                 models=[p.name for p in ggufs], detail="" if llama_cpp_installed() else "pip install 'oi-local[local]'"),
        Provider("llama-server", "llama.cpp server", bool(server_bin) or llama_cpp_server_installed(),
                 found["llama-server"] is not None,
                 url=f"http://127.0.0.1:{LLAMA_CPP_PORT}/v1" if found["llama-server"] is not None else None,
                 models=found["llama-server"] or [],
                 detail=f"{server_bin}" if server_bin else ("python -m llama_cpp.server" if llama_cpp_server_installed() else "")),
        Provider("ollama", "Ollama", bool(shutil.which("ollama")) or found["ollama"] is not None,
                 found["ollama"] is not None, url=ollama_host() + "/v1" if found["ollama"] is not None else None,
                 models=found["ollama"] or []),
        Provider("llamafile", "llamafile", bool(llamafiles()), False, models=[p.name for p in llamafiles()],
                 detail=f"in {models_dir()}"),
        Provider("lmstudio", "LM Studio", found["lmstudio"] is not None, found["lmstudio"] is not None,
                 url=f"http://127.0.0.1:{LM_STUDIO_PORT}/v1" if found["lmstudio"] is not None else None,
                 models=found["lmstudio"] or []),
        Provider("jan", "Jan", found["jan"] is not None, found["jan"] is not None,
                 url=f"http://127.0.0.1:{JAN_PORT}/v1" if found["jan"] is not None else None,
                 models=found["jan"] or []),
    ]
    for i, url in enumerate(extra_urls or ()):
        got = found[f"url{i}"]
        out.append(Provider("openai", f"Server at {url}", got is not None, got is not None,
                            url=url if got is not None else None, models=got or []))
    return out
