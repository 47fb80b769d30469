"""Read a GGUF file's header metadata without loading the model (no llama_cpp import).

Used to check an imported file looks like a model, to learn its architecture, trained context
length and name (for templates and context settings), and to tell a truncated file at once.
`check_structure` also reads the tensor table and checks every tensor lies inside the file where
its shape and type say it must: a cut, padded or spliced file fails there in milliseconds.
"""
from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, BinaryIO

from oi_local.errors import LLMError

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


def _skip_strings(f: BinaryIO, count: int) -> None:
    """Skip `count` length-prefixed strings, walking a buffer (a read per string costs ~0.5 s on a
    150k-token vocabulary)."""
    buf, pos = b"", 0
    while count:
        if len(buf) - pos >= 8:
            (n,) = struct.unpack_from("<Q", buf, pos)
            if n > 1 << 26:
                raise ValueError("string too long")
            if len(buf) - pos - 8 >= n:
                pos += 8 + n
                count -= 1
                continue
            need = 8 + n
        else:
            need = 8
        more = f.read(max(1 << 20, need))
        if not more:
            raise EOFError
        buf, pos = buf[pos:] + more, 0
    f.seek(pos - len(buf), 1)  # hand back what was read ahead


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
        elif item_kind == _STRING:  # the vocabulary: 100k+ strings
            _skip_strings(f, count)
        else:
            for _ in range(count):
                _value(f, item_kind)
        return None
    raise ValueError(f"unknown GGUF value type {kind}")


def _header(f: BinaryIO, name: str, size: int) -> dict[str, Any]:
    if f.read(4) != b"GGUF":
        raise LLMError(f"{name} is not a GGUF model file (wrong magic bytes).")
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
    return meta


def _open(path: str | Path, body: Any) -> Any:
    """Run body(f, name, size) on the open file, turning read errors into one-line LLMErrors."""
    p = Path(path)
    try:
        size = p.stat().st_size
        with open(p, "rb") as f:
            return body(f, p.name, size)
    except EOFError:
        raise LLMError(f"{p.name} is truncated or corrupt: its GGUF header ends early.") from None
    except (ValueError, struct.error, UnicodeError) as e:
        raise LLMError(f"{p.name} is corrupt: unreadable GGUF header ({e}).") from None
    except OSError as e:
        raise LLMError(f"Cannot read {p}: {e.strerror or e}") from None


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The scalar key/values of a GGUF header, plus `gguf.version` and `gguf.tensor_count`.

    Raises LLMError with a plain reason when the file is not GGUF or is cut short.
    """
    return _open(path, _header)


# ggml type id -> (elements per block, bytes per block), from llama.cpp's gguf-py (GGML_QUANT_SIZES).
_QK = 256
TYPE_SIZES: dict[int, tuple[int, int]] = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 6: (32, 22), 7: (32, 24), 8: (32, 34), 9: (32, 36),
    10: (_QK, 84), 11: (_QK, 110), 12: (_QK, 144), 13: (_QK, 176), 14: (_QK, 210), 15: (_QK, 292),
    16: (_QK, 66), 17: (_QK, 74), 18: (_QK, 98), 19: (_QK, 50), 20: (32, 18), 21: (_QK, 110), 22: (_QK, 82),
    23: (_QK, 136), 24: (1, 1), 25: (1, 2), 26: (1, 4), 27: (1, 8), 28: (1, 8), 29: (_QK, 56), 30: (1, 2),
    34: (_QK, 54), 35: (_QK, 66), 39: (32, 17),
}


def check_structure(path: str | Path) -> dict[str, Any]:
    """Read the header and the tensor table; raise LLMError unless every tensor's data lies,
    aligned and without overlap, inside the file and the file ends where the last tensor does.
    Returns the metadata (as read_metadata)."""

    def body(f: BinaryIO, name: str, size: int) -> dict[str, Any]:
        meta = _header(f, name, size)
        align = meta.get("general.alignment", 32)
        if not isinstance(align, int) or align <= 0 or align & (align - 1):
            raise LLMError(f"{name} is corrupt: bad tensor alignment {align!r}.")
        spans = []
        for _ in range(meta["gguf.tensor_count"]):
            tname = _string(f)
            (dims,) = struct.unpack("<I", _read(f, 4))
            if dims > 8:
                raise LLMError(f"{name} is corrupt: tensor {tname!r} claims {dims} dimensions.")
            shape = struct.unpack(f"<{dims}Q", _read(f, 8 * dims))
            kind, offset = struct.unpack("<IQ", _read(f, 12))
            elements = 1
            for d in shape:
                elements *= d
            if kind in TYPE_SIZES:
                block, nbytes = TYPE_SIZES[kind]
                if elements % block:
                    raise LLMError(f"{name} is corrupt: tensor {tname!r} has a shape its type cannot hold.")
                spans.append((offset, elements // block * nbytes, tname))
            else:  # a type newer than this table: its place is still checked, its size not
                spans.append((offset, 0, tname))
            if f.tell() > size:
                raise EOFError
        table_end = f.tell()
        start = -(-table_end // align) * align
        end = start if spans else table_end  # no tensors (a vocabulary-only file): no padding either
        for offset, nbytes, tname in sorted(spans):
            if offset % align or start + offset < end:
                raise LLMError(f"{name} is corrupt: tensor {tname!r} is misplaced in the file.")
            end = start + offset + nbytes
        if end > size:
            raise LLMError(f"{name} is truncated: its tensors need {end} bytes, the file has {size}.")
        if all(n for _, n, _ in spans) and size - end >= align:
            raise LLMError(f"{name} is corrupt: {size - end} unexpected bytes after its last tensor.")
        return meta

    return _open(path, body)


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
