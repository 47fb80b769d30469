"""First run: make sure the embedded default model is on disk before the chat starts."""
from __future__ import annotations

import sys
from typing import Any


def ensure_model(interp: Any, interactive: bool) -> bool:
    if interp.llm.kind() != "embedded" or (interp.llm.model or "").strip():
        return True
    from oi_local.local.models import default_model_id, get_entry, is_installed, model_path

    entry = get_entry(default_model_id())
    if is_installed(entry):
        return True
    size_mb = entry.size_bytes / 1e6
    if interactive:
        answer = input(f"The default model {entry.id} ({size_mb:.0f} MB) is not downloaded yet. Download it now? [Y/n] ")
        if answer.strip().lower() not in ("", "y", "yes"):
            print("No model, no chat. Pass --model PATH.gguf, or --api_base URL for a model server.", file=sys.stderr)
            return False
        return download_default() == 0
    print(
        f"The default model {entry.id} is not downloaded yet ({model_path(entry)}). "
        "Run `interpreter --download` once, or pass --model PATH.gguf or --api_base URL.",
        file=sys.stderr,
    )
    return False


def download_default(model_id: str | None = None) -> int:
    """Fetch and verify a catalog model (the default one unless named). Returns an exit code."""
    from oi_local.llm.backends.base import LLMError
    from oi_local.local.models import default_model_id, fetch, get_entry, is_installed, model_path

    entry = get_entry(model_id or default_model_id())
    if is_installed(entry):
        print(f"{entry.id} is already at {model_path(entry)}")
        return 0
    print(f"Downloading {entry.id} ({entry.size_bytes / 1e6:.0f} MB)...", file=sys.stderr)
    try:
        path = fetch(entry, progress=_progress)
    except LLMError as e:
        print(f"\nError: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nDownload interrupted; run `interpreter --download` again to finish it.", file=sys.stderr)
        return 130
    print(f"\nSaved and verified: {path}", file=sys.stderr)
    return 0


def _progress(stage: str, done: int, total: int) -> None:
    if total:
        label = stage.split()[0] if stage else ""
        sys.stderr.write(f"\r  {label:<11} {done / 1e6:7.1f} / {total / 1e6:.1f} MB ({100 * done / total:5.1f}%)")
        sys.stderr.flush()
