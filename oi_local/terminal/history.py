"""Conversation history: every conversation is saved as it happens, append-only.

One JSON Lines file per conversation. Lines are records: a header (model and settings), then
`message` records as messages complete, and `truncate` records when messages are taken back
(%undo, an edited code block): replaying the records gives the conversation. Each line is
flushed and fsynced, so a kill -9 loses at most the message being written, and a torn last line
is skipped on reading. Nothing is ever rewritten in place.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
_TRANSIENT = ("closed", "start", "end")
SETTINGS = ("auto_run", "safe_mode", "loop", "verbose", "custom_instructions", "max_budget", "offline")
LLM_SETTINGS = ("model", "api_base", "context_window", "max_tokens", "temperature", "supports_functions")


def folder(interp: Any) -> Path:
    from oi_local._paths import conversations_dir

    custom = getattr(interp, "conversation_history_path", None)
    return Path(custom).expanduser() if custom else conversations_dir()


def settings_of(interp: Any) -> dict[str, Any]:
    out = {k: getattr(interp, k, None) for k in SETTINGS}
    for k in LLM_SETTINGS:
        out["llm." + k] = getattr(interp.llm, k, None)
    out["llm.kind"] = interp.llm.kind()
    return out


def _clean(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k not in _TRANSIENT}


def _slug(text: str, words: int = 6) -> str:
    picked = re.findall(r"[A-Za-z0-9]+", text)[:words]
    return "_".join(picked)[:60] or "conversation"


class ConversationLog:
    """Keeps one conversation file in step with `interp.messages`."""

    def __init__(self, path: Path, written: list[dict[str, Any]] | None = None) -> None:
        self.path = path
        self.written: list[dict[str, Any]] = [_clean(m) for m in (written or [])]
        self._f: Any = None

    @classmethod
    def start(cls, interp: Any, first_text: str) -> "ConversationLog":
        d = folder(interp)
        d.mkdir(parents=True, exist_ok=True)
        name = getattr(interp, "conversation_filename", None)
        if not name:
            name = f"{time.strftime('%Y-%m-%d_%H-%M-%S')}__{_slug(first_text)}.jsonl"
        path = d / name
        n = 1
        while path.exists() and not getattr(interp, "conversation_filename", None):
            n += 1
            path = d / f"{Path(name).stem}-{n}{Path(name).suffix}"
        log = cls(path)
        log._append({"kind": "header", "version": FORMAT_VERSION, "created": time.time(),
                     "title": first_text.strip()[:200], "settings": settings_of(interp)}, sync=True)
        return log

    @classmethod
    def resume(cls, interp: Any, path: Path) -> "ConversationLog":
        log = cls(path, load(path))
        log._append({"kind": "resumed", "at": time.time(), "settings": settings_of(interp)}, sync=True)
        return log

    def sync(self, messages: list[dict[str, Any]]) -> None:
        """Write what changed since the last call: a truncate record if earlier messages
        changed or went away, then the new messages."""
        current = [_clean(m) for m in messages]
        same = 0
        limit = min(len(current), len(self.written))
        while same < limit and current[same] == self.written[same]:
            same += 1
        if same == len(current) == len(self.written):
            return
        if same < len(self.written):
            self._append({"kind": "truncate", "length": same}, sync=same == len(current))
            del self.written[same:]
        for m in current[same:]:
            self._append({"kind": "message", "message": m}, sync=True)
            self.written.append(m)

    def _append(self, record: dict[str, Any], sync: bool) -> None:
        if self._f is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._f = open(self.path, "a", encoding="utf-8")
        line = json.dumps(record, ensure_ascii=False, default=str)
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (a stray byte, half an emoji): \u-escaped, kept exactly
            line = json.dumps(record, ensure_ascii=True, default=str)
        self._f.write(line + "\n")
        self._f.flush()
        if sync:
            os.fsync(self._f.fileno())

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None


_warned: set[tuple[str, int]] = set()  # (file, line) already reported, so each is said once


def _skip(path: Path, line: int, why: str) -> None:
    key = (str(path), line)
    if key not in _warned:
        _warned.add(key)
        import sys

        print(f"Warning: skipped line {line} of {path} ({why}); the rest of the conversation loads.", file=sys.stderr)


def _records(path: Path) -> list[dict[str, Any]]:
    """The file's records. A damaged line (a crash mid-write, a bad disk, a hand edit) is skipped
    and reported once; it never costs the other lines or the other conversations."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("["):  # a plain JSON list of messages (the original's format)
        try:
            return [{"kind": "message", "message": m} for m in json.loads(text) if isinstance(m, dict)]
        except (ValueError, RecursionError, TypeError):
            pass
    out = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):  # ValueError: bad JSON, or an over-long number
            if n < len(lines) or text.endswith("\n"):  # a torn last line is the normal mark of a kill
                _skip(path, n, "not valid JSON")
            continue
        problem = _problem(rec)
        if problem:
            _skip(path, n, problem)
            continue
        out.append(rec)
    return out


def _problem(rec: Any) -> str | None:
    """Why a parsed line is not a record we can replay, or None."""
    if not isinstance(rec, dict):
        return "not a record"
    kind = rec.get("kind")
    if kind == "message":
        m = rec.get("message")
        if not isinstance(m, dict) or not isinstance(m.get("role", ""), str) or not isinstance(m.get("type", ""), str):
            return "a message that is not a message"
    elif kind == "truncate":
        length = rec.get("length", 0)
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            return "a truncate record without a valid length"
    elif kind in ("header", "resumed"):
        if not isinstance(rec.get("settings", {}), dict):
            return "settings that are not a mapping"
    return None


def load(path: Path) -> list[dict[str, Any]]:
    """The conversation's messages, replayed from the file."""
    from oi_local.core.lmc import normalize

    messages: list[dict[str, Any]] = []
    for rec in _records(Path(path)):
        if rec.get("kind") == "message":
            messages.append(rec["message"])
        elif rec.get("kind") == "truncate":
            del messages[rec.get("length", 0):]
    return normalize(messages)


@dataclass
class Entry:
    path: Path
    title: str
    modified: float
    messages: int
    model: str | None


def header(path: Path) -> dict[str, Any]:
    for rec in _records(path)[:1]:
        if rec.get("kind") == "header":
            return rec
    return {}


def list_conversations(d: Path) -> list[Entry]:
    """Saved conversations, newest first, titled by their first words."""
    entries: list[Entry] = []
    if not d.is_dir():
        return entries
    for p in d.iterdir():
        if not p.is_file() or p.suffix not in (".jsonl", ".json"):
            continue
        try:
            msgs = load(p)
            head = header(p)
        except Exception as e:  # noqa: BLE001 - one unreadable file must not hide the others
            import sys

            print(f"Warning: skipped {p}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        first = next((m.get("content", "") for m in msgs if m.get("role") == "user" and m.get("type") == "message"), "")
        title = " ".join(str(first or head.get("title") or p.stem).split())[:70]
        model = (head.get("settings") or {}).get("llm.model")
        entries.append(Entry(p, title, p.stat().st_mtime, len(msgs), model))
    entries.sort(key=lambda e: e.modified, reverse=True)
    return entries


INTERRUPTED = "(This request was interrupted before it was finished.)"


def close_unfinished_turn(messages: list[dict[str, Any]]) -> bool:
    """End a turn cut short (Ctrl-C, kill -9) with a note from the assistant, so the next request
    is not read as more of the old one (the old question would otherwise be answered again).
    True when a note was added."""
    if not messages:
        return False
    last = messages[-1]
    if last.get("role") == "assistant" and last.get("type") == "message":
        return False  # the turn ended with a reply (or the part of one that came before Ctrl-C)
    messages.append({"role": "assistant", "type": "message", "content": INTERRUPTED})
    return True


def record(interp: Any) -> None:
    """Called as messages complete: start a file at the first message, then keep it in step."""
    if not getattr(interp, "conversation_history", False) or not interp.messages:
        return
    log: ConversationLog | None = getattr(interp, "_conversation_log", None)
    if log is None:
        first = next((m.get("content", "") for m in interp.messages if m.get("role") == "user"), "")
        log = ConversationLog.start(interp, str(first) if isinstance(first, str) else "conversation")
        interp._conversation_log = log
    try:
        log.sync(interp.messages)
    except OSError as e:  # a full disk must not end the chat
        import sys

        print(f"Warning: could not save the conversation to {log.path}: {e}", file=sys.stderr)
