"""`interpreter --local`: look at the machine, see what is installed or running, recommend, get
the model, start what needs starting, and return settings the CLI applies and remembers.

Contract (see the terminal CLI): `choose(remembered, pick_again) -> dict | None`, a flat dict of
dotted settings (`llm.model`, `llm.api_base`, `llm.context_window`, `llm.max_tokens`, `llm.stop`)
plus our own keys without dots (`provider`, `local_path`) that the CLI stores but does not apply.
With a remembered choice and no `pick_again`, there are no questions: servers we own are
started again (on a fresh free port) and Ollama's context variant is re-checked.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from oi_local.errors import LLMError
from oi_local.local.sizes import size as _size

_GIB = 1024 ** 3


def _say(text: str = "") -> None:
    # stderr: with a piped question, stdout carries only the conversation.
    print(text, file=sys.stderr, flush=True)


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _select(message: str, choices: list[tuple[str, Any]], default: Any = None) -> Any:
    import questionary

    qc = [questionary.Choice(title=t, value=v) for t, v in choices]
    chosen = next((c for c in qc if c.value == default), None)
    return questionary.select(message, choices=qc, default=chosen).ask()


# -- settings for each kind of provider ---------------------------------------------------------------


def _settings(provider: str, *, model: str, context: int, max_tokens: int, api_base: str | None = None,
              path: str | None = None, family_of: str | None = None) -> dict[str, Any]:
    from oi_local.local.families import stop_strings

    out: dict[str, Any] = {"provider": provider, "llm.model": model, "llm.api_base": api_base,
                           "llm.context_window": int(context), "llm.max_tokens": int(max_tokens)}
    stops = stop_strings(family_of or model)
    if stops:
        out["llm.stop"] = stops
    if path:
        out["local_path"] = path
    return out


def _file_context(path: Path) -> tuple[int, int]:
    """(context, max_tokens) for a GGUF from its header and this machine's memory."""
    from oi_local.local import hardware
    from oi_local.local.gguf import read_metadata, summary
    from oi_local.local.models import load_catalog
    from oi_local.local.recommend import context_for_file, max_tokens_for, plan

    hw = hardware.detect()
    for entry in load_catalog():
        if entry.file == path.name:
            p = plan(entry, hw)
            if p:
                return p.context, p.max_tokens
    info = summary(read_metadata(path))
    kv = info["kv_cache"]
    per_token = 2 * kv["layers"] * kv["kv_heads"] * kv["head_dim"] * 2
    ctx, _ = context_for_file(path.stat().st_size, per_token, info["context_length"], hw)
    return ctx, max_tokens_for(ctx)


def embedded_settings(path: Path) -> dict[str, Any]:
    from oi_local.local import store

    ctx, mt = _file_context(path)
    store.touch(path)
    return _settings("embedded", model=str(path), context=ctx, max_tokens=mt, path=str(path))


def server_settings(path: Path, *, llamafile: bool = False) -> dict[str, Any]:
    """Start (or reuse) a llama.cpp server or llamafile we own for `path`."""
    from oi_local.local import store
    from oi_local.local.llama_server import reuse_or_start

    ctx, mt = _file_context(path) if not llamafile else (8192, 2048)
    _say(f"Starting {'llamafile' if llamafile else 'llama.cpp server'} for {path.name} ({ctx} tokens of context)…")
    server = reuse_or_start(path, ctx, llamafile=llamafile)
    store.touch(path)
    return _settings("llamafile" if llamafile else "llama-server", model=path.stem, context=ctx, max_tokens=mt,
                     api_base=server.api_base, path=str(path), family_of=str(path))


def server_context(api_base: str) -> int | None:
    """The context a running llama.cpp server was started with (llama-server's /props)."""
    import json
    import urllib.request

    root = api_base.rstrip("/").removesuffix("/v1")
    try:
        with urllib.request.urlopen(root + "/props", timeout=1.0) as r:
            data = json.loads(r.read(1 << 20))
        n = (data.get("default_generation_settings") or {}).get("n_ctx") or data.get("n_ctx")
        return int(n) if n else None
    except Exception:  # noqa: BLE001 - not llama-server: unknown
        return None


def remote_settings(provider: str, api_base: str, model: str) -> dict[str, Any]:
    from oi_local.local.recommend import max_tokens_for

    # A server we do not control keeps the context its own settings gave the model; LM Studio and
    # Jan load models with 4096 by default, so that is the safe assumption when it cannot be asked.
    ctx = server_context(api_base) or 4096
    return _settings(provider, model=model, context=ctx, max_tokens=max_tokens_for(ctx), api_base=api_base)


def ollama_settings(model: str) -> dict[str, Any]:
    from oi_local.local import hardware
    from oi_local.local.providers import (
        ollama_context_length,
        ollama_host,
        ollama_with_context,
    )
    from oi_local.local.recommend import (
        CPU_CONTEXT_CAP,
        GPU_CONTEXT_CAP,
        max_tokens_for,
        usable_ram,
    )

    trained = ollama_context_length(model) or 8192
    hw = hardware.detect()
    cap = GPU_CONTEXT_CAP if hw.accelerator() != "cpu" else CPU_CONTEXT_CAP
    ctx = min(trained, cap)
    if usable_ram(hw) < 8 * _GIB:
        ctx = min(ctx, 8192)
    variant = ollama_with_context(model, ctx)
    out = _settings("ollama", model=f"ollama/{variant}", context=ctx, max_tokens=max_tokens_for(ctx),
                    api_base=ollama_host() + "/v1", family_of=model)
    out["local_path"] = model  # the base model, to rebuild the variant next time
    return out


# -- the questions ------------------------------------------------------------------------------------


def _pick_embedded_model(hw: Any, *, want_server: bool, vision: bool = False) -> Path | None:
    from oi_local.local import manage
    from oi_local.local.models import fetch, load_catalog, model_path
    from oi_local.local.providers import local_gguf_models
    from oi_local.local.recommend import recommend

    plans = recommend(hw, vision=vision)
    if vision and not want_server:
        # A vision model sees the screen; installed text models would otherwise come first.
        plans = [p for p in plans if p.entry.has("vision")] + [p for p in plans if not p.entry.has("vision")]
        shown = plans[:8]
    else:
        shown = []
    # What is already here first (no download), then the best of the rest.
    shown = shown or [p for p in plans if p.installed] + [p for p in plans if not p.installed][:6]
    catalog_files = {e.file for e in load_catalog()}
    choices: list[tuple[str, Any]] = [(p.line(), ("catalog", p.entry.id)) for p in shown]
    for f in local_gguf_models():
        if f.name not in catalog_files:
            choices.append((f"✓ {f.name} (imported, {_size(f.stat().st_size)})", ("file", str(f))))
    choices.append(("Import a GGUF file from disk…", ("import", None)))
    default = next((v for (t, v) in choices if t.startswith("✓")), choices[0][1] if choices else None)
    picked = _select("Which model?" + (" (served by llama.cpp)" if want_server else ""), choices, default)
    if not picked:
        return None
    kind, value = picked
    if kind == "file":
        return Path(value)
    if kind == "import":
        import questionary

        src = questionary.path("Path to the .gguf file:").ask()
        if not src:
            return None
        _say("Checking that it loads…")
        return manage.import_model(src)
    from oi_local.local.models import get_entry, is_installed

    entry = get_entry(value)
    if not is_installed(entry):
        _say(f"Downloading {entry.name} ({_size(entry.size_bytes)})…")
        from oi_local.local.download import progress_bar

        with progress_bar(entry.id) as bar:
            fetch(entry, progress=bar)
    return model_path(entry)


def _auto(hw: Any) -> dict[str, Any] | None:
    """No terminal to ask in: the best model already here, embedded."""
    from oi_local.local.models import model_path
    from oi_local.local.providers import local_gguf_models
    from oi_local.local.recommend import recommend

    installed = [p for p in recommend(hw) if p.installed]
    if installed:
        path = model_path(installed[0].entry)
    else:
        files = local_gguf_models()
        if not files:
            _say("No local model is downloaded yet. Run `interpreter --local` in a terminal to pick one.")
            return None
        path = files[0]
    _say(f"Using {path.name} (no terminal to ask; `interpreter --local --pick` chooses another).")
    return embedded_settings(path)


def choose(remembered: dict[str, Any] | None = None, pick_again: bool = False, vision: bool = False) -> dict[str, Any] | None:
    """The `--local` flow. Returns settings, or None when the user cancels. `vision` (--os,
    --vision): models that see images are recommended first."""
    if remembered and not pick_again:
        try:
            return resume(remembered)
        except LLMError as e:
            _say(f"The remembered local model cannot be used now: {e}")
            if not _interactive():
                return None
    from oi_local.local import hardware, providers

    hw = hardware.detect()
    _say("This machine: " + " · ".join(hw.summary()))
    found = providers.detect()
    _say("Local model providers:")
    for p in found:
        _say(f"  {p.line()}")
    if not _interactive():
        return _auto(hw)
    by_key = {p.key: p for p in found}
    choices: list[tuple[str, Any]] = []
    if by_key["embedded"].installed:
        choices.append(("Built-in llama.cpp (recommended: nothing else to run)", "embedded"))
    if by_key["llama-server"].installed:
        choices.append(("llama.cpp server that oi-local starts and stops", "llama-server"))
    for key in ("ollama", "lmstudio", "jan", "llama-server"):
        p = by_key[key]
        if p.running:
            choices.append((f"{p.label} running at {p.url} ({len(p.models)} models)", f"running:{key}"))
    if by_key["llamafile"].installed:
        choices.append((f"llamafile ({len(by_key['llamafile'].models)} in the models folder)", "llamafile"))
    choices.append(("Another OpenAI-compatible server (URL)…", "url"))
    picked = _select("How should the model run?", choices, choices[0][1])
    if picked is None:
        return None
    try:
        return _finish(picked, hw, by_key, vision)
    except LLMError as e:
        _say(f"Error: {e}")
        return None


def _finish(picked: str, hw: Any, by_key: dict[str, Any], vision: bool = False) -> dict[str, Any] | None:
    import questionary

    from oi_local.local.providers import llamafiles, ollama_pull

    if picked in ("embedded", "llama-server"):
        path = _pick_embedded_model(hw, want_server=picked == "llama-server", vision=vision)
        if path is None:
            return None
        return embedded_settings(path) if picked == "embedded" else server_settings(path)
    if picked == "llamafile":
        files = llamafiles()
        chosen = _select("Which llamafile?", [(f.name, str(f)) for f in files])
        return server_settings(Path(chosen), llamafile=True) if chosen else None
    if picked.startswith("running:"):
        key = picked.split(":", 1)[1]
        prov = by_key[key]
        if key == "ollama":
            options = [(m, m) for m in prov.models] + [("Pull another model…", "__pull__")]
            model = _select("Which Ollama model?", options)
            if model == "__pull__":
                model = questionary.text("Model to pull (e.g. qwen2.5-coder:1.5b):").ask()
                if model:
                    from oi_local.local.download import progress_bar

                    with progress_bar(f"pulling {model}") as bar:
                        ollama_pull(model, bar)
            return ollama_settings(model) if model else None
        if not prov.models:
            raise LLMError(f"{prov.label} answers at {prov.url} but serves no model: load one in it first.")
        model = prov.models[0] if len(prov.models) == 1 else _select(f"Which {prov.label} model?", [(m, m) for m in prov.models])
        provider = "llama-server-running" if key == "llama-server" else key
        return remote_settings(provider, prov.url, model) if model else None
    if picked == "url":
        from oi_local.local.providers import normalize_api_base, openai_models

        url = questionary.text("Server URL (e.g. http://localhost:8000/v1):").ask()
        if not url:
            return None
        base = normalize_api_base(url)
        served = openai_models(base, timeout=3.0)
        if served is None:
            raise LLMError(f"Nothing answers at {base}/models. Is the server running?")
        model = served[0] if len(served) == 1 else (_select("Which model?", [(m, m) for m in served]) if served else "local")
        return remote_settings("openai", base, model) if model else None
    return None


def resume(remembered: dict[str, Any]) -> dict[str, Any]:
    """Bring a remembered choice back to life without questions. Raises LLMError if it can't."""
    provider = remembered.get("provider")
    path = remembered.get("local_path")
    if provider == "embedded":
        p = Path(str(path or remembered.get("llm.model") or ""))
        if not p.is_file():
            raise LLMError(f"{p} is gone")
        out = dict(remembered)
        from oi_local.local import store

        store.touch(p)
        return out
    if provider in ("llama-server", "llamafile"):
        p = Path(str(path or ""))
        if not p.is_file():
            raise LLMError(f"{p} is gone")
        from oi_local.local.llama_server import reuse_or_start

        server = reuse_or_start(p, int(remembered.get("llm.context_window") or 4096), llamafile=provider == "llamafile")
        return {**remembered, "llm.api_base": server.api_base}
    if provider == "ollama":
        from oi_local.local.providers import ollama_models, ollama_with_context

        if ollama_models(timeout=2.0) is None:
            raise LLMError("Ollama is not running")
        base = str(path or "")
        if base:  # cheap and idempotent: make sure the num_ctx variant still exists
            ollama_with_context(base, int(remembered.get("llm.context_window") or 4096))
        return dict(remembered)
    if provider in ("lmstudio", "jan", "openai", "llama-server-running"):
        from oi_local.local.providers import openai_models

        base = str(remembered.get("llm.api_base") or "")
        if openai_models(base, timeout=2.0) is None:
            raise LLMError(f"nothing answers at {base}")
        return dict(remembered)
    # Unknown or older shape: trust it as is.
    return dict(remembered)
