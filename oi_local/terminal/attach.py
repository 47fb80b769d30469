"""Image files named in a typed request (a path, a quoted path with spaces, a file dropped into
the terminal as `'/a b/c.png'` or `file:///...`) go with it as image messages, in vision mode."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlparse

IMAGE_EXTS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"}


def image_paths(text: str, cwd: Path | None = None) -> list[Path]:
    """Existing image files named in `text`, in order, each once."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:  # an unbalanced quote ("don't"): plain words
        words = text.split()
    found: list[Path] = []
    for word in words:
        word = word.strip("()[]{}<>,;:!?\"'").rstrip(".")
        if word.startswith("file://"):
            word = unquote(urlparse(word).path)
        if Path(word).suffix.lower() not in IMAGE_EXTS:
            continue
        p = Path(word).expanduser()
        if not p.is_absolute():
            p = (cwd or Path.cwd()) / p
        try:
            if p.is_file() and p.resolve() not in found:
                found.append(p.resolve())
        except OSError:
            continue
    return found


def wants_images(interp: Any) -> bool:
    return bool(getattr(interp, "vision", False) or interp.llm.sees_images())


def chat_stream(interp: Any, text: str, display: bool = True) -> Iterator[Any]:
    """`interp.chat(text, stream=True)`, with the images the request names attached after it."""
    paths = image_paths(text) if wants_images(interp) and not text.lstrip().startswith("%") else []
    if not paths:
        return interp.chat(text, display=display, stream=True)
    interp.messages.append({"role": "user", "type": "message", "content": text})
    for p in paths:
        interp.messages.append({"role": "user", "type": "image", "format": "path", "content": str(p)})
    return interp.chat(None, display=display, stream=True)
