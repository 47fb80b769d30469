"""Prompt-prefix cache on disk for the embedded worker: the model's KV state after the part of the
prompt that every conversation shares (the system message and the fixed worked examples), saved
once per model, so a new chat (a new process) does not read it again. On this 2-core machine the
first request of a chat read ~900 tokens, most of them this prefix (BENCHMARKS.md, time to first
token); llama.cpp restores the saved state in milliseconds.

A file holds the prefix's tokens and llama.cpp's state of sequence 0 for them; its name carries the
sha256 of those tokens and their count, so a prompt is matched without reading any file. A state is
only used when the prompt starts with exactly those tokens.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
from pathlib import Path
from typing import Any

KEEP = 4  # files per model: each is the KV of ~1000 tokens (12 MB for a 0.5B model, ~60 MB for 7B)
MIN_TOKENS = 64  # shorter prefixes are read faster than a file is loaded


def _digest(tokens: list[int]) -> str:
    return hashlib.sha256(",".join(map(str, tokens)).encode()).hexdigest()[:24]


def model_folder(root: str | os.PathLike[str], model_path: str) -> Path:
    """One folder per model file as it is now (path, size, mtime) and llama-cpp-python version."""
    import llama_cpp

    st = os.stat(model_path)
    key = f"{os.path.realpath(model_path)}|{st.st_size}|{st.st_mtime_ns}|{llama_cpp.__version__}"
    return Path(root) / hashlib.sha256(key.encode()).hexdigest()[:16]


class PrefixCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _files(self) -> list[tuple[int, str, Path]]:
        found = []
        try:
            for p in self.folder.glob("*.kv"):
                digest, _, n = p.stem.partition("-")
                if n.isdigit():
                    found.append((int(n), digest, p))
        except OSError:
            pass
        return found

    def load(self, llm: Any, tokens: list[int]) -> int:
        """Restore the longest saved prefix of `tokens` into a fresh `llm`; the tokens restored (0: none)."""
        import llama_cpp

        for n, digest, path in sorted(self._files(), reverse=True):
            if n >= len(tokens) or _digest(tokens[:n]) != digest:
                continue
            out = (llama_cpp.llama_token * n)()
            count = ctypes.c_size_t(0)
            llm._ctx.kv_cache_seq_rm(-1, 0, -1)
            read = llama_cpp.llama_state_seq_load_file(llm._ctx.ctx, str(path).encode(), 0, out, n, ctypes.byref(count))
            if not read or count.value != n or list(out) != tokens[:n]:
                llm._ctx.kv_cache_seq_rm(-1, 0, -1)
                continue  # damaged or from another build: read the prompt as usual
            llm.input_ids[:n] = tokens[:n]
            llm.n_tokens = n
            llm._requires_eval = True  # no logits were restored: the next token is evaluated again
            try:
                os.utime(path)  # recently used: kept longest
            except OSError:
                pass
            return n
        return 0

    def save(self, llm: Any, n: int) -> None:
        """Save sequence 0 of `llm`, which holds exactly its first `n` tokens, for later chats."""
        import llama_cpp

        tokens = [int(t) for t in llm.input_ids[:n]]
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            final = self.folder / f"{_digest(tokens)}-{n}.kv"
            tmp = final.with_name(f".{final.name}.{os.getpid()}")
            arr = (llama_cpp.llama_token * n)(*tokens)
            if llama_cpp.llama_state_seq_save_file(llm._ctx.ctx, str(tmp).encode(), 0, arr, n):
                os.replace(tmp, final)
            else:
                tmp.unlink(missing_ok=True)
            for _, _, old in sorted(self._files(), key=lambda f: f[2].stat().st_mtime, reverse=True)[KEEP:]:
                old.unlink(missing_ok=True)
        except OSError:  # a full or read-only disk only costs reading the prompt next time
            pass
