"""Text from outside (arguments, stdin, pasted keys) made safe to store, send and print.

Python hands undecodable bytes over as lone surrogates (surrogateescape); they cannot be written
as UTF-8, so one stray byte would end the chat at the history writer or the terminal.
"""
from __future__ import annotations

import re
import sys

_SURROGATES = re.compile("[\ud800-\udfff]+")


def _fix(run: str) -> str:
    try:  # bytes smuggled in by surrogateescape: decode them as UTF-8 would, with U+FFFD for bad ones
        return run.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # half of a surrogate pair (a model's reply cut mid-emoji)
        return "\ufffd" * len(run)


def clean(text: str) -> str:
    """Undecodable bytes and lone surrogates become U+FFFD; everything else is kept as it was."""
    if not isinstance(text, str) or not _SURROGATES.search(text):
        return text
    return _SURROGATES.sub(lambda m: _fix(m.group()), text)


def read_stdin() -> str:
    """All of a piped stdin, whatever its bytes."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8", "surrogateescape")
    return data.decode("utf-8", "replace")


def forgiving_output() -> None:
    """A reply holding a lone surrogate is printed with a replacement, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass


def plural(n: int, word: str) -> str:
    """'1 message', '3 messages'."""
    return f"{n} {word}{'' if n == 1 else 's'}"
