"""First run: make sure the embedded default model is on disk before the chat starts.

A person at a terminal is asked first; a piped question, `-y`, or the Python API fetch it at
once, with progress on stderr (stdout carries only the conversation).
"""
from __future__ import annotations

import sys
from typing import Any


def ensure_model(interp: Any, ask: bool) -> bool:
    if not interp.llm.capabilities().default_model or (interp.llm.model or "").strip():
        return True
    from oi_local.local.models import default_model_id, get_entry, is_installed
    from oi_local.local.sizes import size

    entry = get_entry(default_model_id())
    if is_installed(entry):
        return True
    if ask:
        try:
            answer = input(f"The default model {entry.id} ({size(entry.size_bytes)}) is not downloaded yet. Download it now? [Y/n] ")
        except (KeyboardInterrupt, EOFError):
            answer = "n"
            print()
        if answer.strip().lower() not in ("", "y", "yes"):
            print("No model, no chat. Pass --model PATH.gguf, or --api_base URL for a model server.", file=sys.stderr)
            return False
    return download_default() == 0


def download_default(model_id: str | None = None) -> int:
    """Fetch and verify a catalog model (the default one unless named). Returns an exit code."""
    from oi_local.errors import LLMError
    from oi_local.local.models import (
        default_model_id,
        fetch,
        get_entry,
        is_installed,
        model_path,
    )
    from oi_local.local.progress import StderrProgress
    from oi_local.local.sizes import size

    entry = get_entry(model_id or default_model_id())
    if is_installed(entry):
        print(f"{entry.id} is already at {model_path(entry)}")
        return 0
    print(f"Downloading {entry.id} ({size(entry.size_bytes)}) to {model_path(entry).parent} ...", file=sys.stderr, flush=True)
    progress = StderrProgress()
    try:
        path = fetch(entry, progress=progress)
    except LLMError as e:
        progress.end()
        print(f"Error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress.end()
        print("Download interrupted; run `interpreter --download` (or start again) to finish it.", file=sys.stderr)
        return 130
    progress.end()
    print(f"Saved and verified: {path}", file=sys.stderr)
    return 0

