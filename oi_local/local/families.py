"""Per-family prompt settings (templates/families/*.yaml): which family a model belongs to, the
prompt keys that family overrides, and its stop strings.

The family comes from, in order: the catalog entry's `chat_template`; a GGUF file's own header
(`general.architecture` and name); the model name matched against each family's `match` regexes.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from oi_local._paths import bundled


@lru_cache(maxsize=1)
def load_families() -> dict[str, dict[str, Any]]:
    import yaml

    out: dict[str, dict[str, Any]] = {}
    folder = bundled("templates") / "families"
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        name = str(data.get("name") or path.stem)
        prompt = data.get("prompt") or {}  # its keys are core/prompts.py's (checked by tests/test_architecture.py)
        out[name] = {
            "name": name,
            "match": [re.compile(m, re.I) for m in data.get("match") or ()],
            "architectures": [str(a) for a in data.get("architectures") or ()],
            "stop": [str(s) for s in data.get("stop") or ()],
            "prompt": dict(prompt),
        }
    return out


def _by_name(text: str) -> str | None:
    for name, fam in load_families().items():
        if any(rx.search(text) for rx in fam["match"]):
            return name
    return None


@lru_cache(maxsize=64)
def family_for(model: str | None) -> str | None:
    """The family name for a model id, GGUF path or server model name; None if unknown."""
    if not model:
        from oi_local.local.models import default_model_id

        model = default_model_id()
    families = load_families()
    try:
        from oi_local.local.models import get_entry

        entry = get_entry(str(model))
        if entry.chat_template in families:
            return entry.chat_template
        return _by_name(f"{entry.id} {entry.name}")
    except Exception:  # noqa: BLE001 - not a catalog model: look further
        pass
    name = str(model)
    for prefix in ("ollama_chat/", "ollama/", "openai/", "lm_studio/", "jan/", "llamafile/", "local/"):
        if name.lower().startswith(prefix):
            name = name[len(prefix):]
    p = Path(name).expanduser()
    if p.suffix.lower() == ".gguf" and p.is_file():
        try:
            from oi_local.local.gguf import read_metadata

            meta = read_metadata(p)
            arch = str(meta.get("general.architecture", ""))
            by_meta = _by_name(f"{meta.get('general.name', '')} {p.name}")
            if by_meta:
                return by_meta
            for fam_name, fam in families.items():
                if arch in fam["architectures"]:
                    return fam_name
            template = str(meta.get("tokenizer.chat_template", ""))
            if "<|im_start|>" in template:
                return "chatml"
        except Exception:  # noqa: BLE001 - an unreadable header just means "unknown family"
            pass
    return _by_name(name)


def prompt_overrides(model: str | None) -> dict[str, Any]:
    fam = load_families().get(family_for(model) or "")
    return dict(fam["prompt"]) if fam else {}


def stop_strings(model: str | None) -> list[str]:
    fam = load_families().get(family_for(model) or "")
    return list(fam["stop"]) if fam else []
