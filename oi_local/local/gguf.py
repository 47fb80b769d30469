"""Read a GGUF file's header metadata without loading the model (no llama_cpp import).

Used to check an imported file looks like a model, to learn its architecture, trained context
length and name (for templates and context settings), and to tell a truncated file at once.
"""
from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, BinaryIO

from oi_local.llm.backends.base import LLMError

_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_KEEP_ARRAYS = 0  # arrays (the vocabulary) are skipped: we only want scalars


def _read(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise EOFError
    return data


def _string(f: BinaryIO) -> str:
    (n,) = struct.unpack("<Q", _read(f, 8))
    if n > 1 << 26:
        raise ValueError("string too long")
    return _read(f, n).decode("utf-8", "replace")


def _value(f: BinaryIO, kind: int) -> Any:
    if kind in _SCALARS:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, _read(f, struct.calcsize(fmt)))[0]
    if kind == _STRING:
        return _string(f)
    if kind == _ARRAY:
        (item_kind,) = struct.unpack("<I", _read(f, 4))
        (count,) = struct.unpack("<Q", _read(f, 8))
        if item_kind in _SCALARS:
            f.seek(struct.calcsize(_SCALARS[item_kind]) * count, 1)
        else:
            for _ in range(count):
                _value(f, item_kind)
        return None
    raise ValueError(f"unknown GGUF value type {kind}")


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The scalar key/values of a GGUF header, plus `gguf.version` and `gguf.tensor_count`.

    Raises LLMError with a plain reason when the file is not GGUF or is cut short.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        with open(p, "rb") as f:
            if f.read(4) != b"GGUF":
                raise LLMError(f"{p.name} is not a GGUF model file (wrong magic bytes).")
            (version,) = struct.unpack("<I", _read(f, 4))
            if version == 1:
                tensors, kvs = struct.unpack("<II", _read(f, 8))
            else:
                tensors, kvs = struct.unpack("<QQ", _read(f, 16))
            meta: dict[str, Any] = {"gguf.version": version, "gguf.tensor_count": tensors}
            for _ in range(kvs):
                key = _string(f)
                (kind,) = struct.unpack("<I", _read(f, 4))
                value = _value(f, kind)
                if value is not None:
                    meta[key] = value
                if f.tell() > size:
                    raise EOFError
    except EOFError:
        raise LLMError(f"{p.name} is truncated or corrupt: its GGUF header ends early.") from None
    except (ValueError, struct.error, UnicodeError) as e:
        raise LLMError(f"{p.name} is corrupt: unreadable GGUF header ({e}).") from None
    except OSError as e:
        raise LLMError(f"Cannot read {p}: {e.strerror or e}") from None
    return meta


def summary(meta: dict[str, Any]) -> dict[str, Any]:
    """The facts we use: architecture, name, trained context length, KV shape."""
    arch = str(meta.get("general.architecture", ""))

    def get(key: str) -> Any:
        return meta.get(f"{arch}.{key}")

    heads = get("attention.head_count") or 0
    embed = get("embedding_length") or 0
    head_dim = get("attention.key_length") or (embed // heads if heads else 0)
    return {
        "architecture": arch,
        "name": meta.get("general.name") or "",
        "size_label": meta.get("general.size_label") or "",
        "context_length": int(get("context_length") or 0),
        "kv_cache": {"layers": int(get("block_count") or 0), "kv_heads": int(get("attention.head_count_kv") or heads or 0),
                     "head_dim": int(head_dim or 0)},
    }
