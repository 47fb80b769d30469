"""One WebSocket conversation: its interpreter, the turn running in a thread, approvals, and the
outgoing queue with ids and acknowledgements.

The engine is synchronous (a generator of LMC chunks), so each turn runs in its own thread and
hands chunks to the event loop. Approval happens inside that thread: it blocks until the client
sends `go` for the code block that was shown, or `stop`.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import json
import queue
import re
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from oi_local.server import bridge
from oi_local.server.config import ServerConfig

COMPLETE = {"role": "server", "type": "status", "content": "complete"}
# Sent first to a client that joins a session while a reply is running: what follows is the rest
# of that reply, up to its 'complete'.
BUSY = {"role": "server", "type": "status", "content": "busy"}
_REVIEW_PREFIXES = ("Refused:", "Safe mode")  # how computer/safety.py review messages begin
SESSION_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def server_error(text: str) -> dict[str, Any]:
    return {"role": "server", "type": "error", "content": text}


class TooManySessions(Exception):
    """Every allowed conversation is in use by a connected client."""


class ClientError(Exception):
    """Bad input from the client: reported as a server error message, the session goes on."""


class Session:
    def __init__(self, sid: str, interp: Any, config: ServerConfig, named: bool, loop: asyncio.AbstractEventLoop) -> None:
        self.id = sid
        self.interp = interp
        self.config = config
        self.named = named
        self.loop = loop
        self.outq: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        # Acknowledgement state (INTERPRETER_REQUIRE_ACKNOWLEDGE): sent but not yet acked.
        self.unacked: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self.sent_at: dict[int, float] = {}
        self.attempts: dict[int, int] = {}
        self.next_id = 1
        self.ack_event = asyncio.Event()
        self.send_lock = asyncio.Lock()
        self.connection: Any = None
        self.pump_task: asyncio.Task[None] | None = None
        self.detached_at: float | None = None
        self.closed = False
        # The running turn.
        self.turn: threading.Thread | None = None
        self._running = False
        self.stop_flag = threading.Event()
        self._lock = threading.Lock()
        self._pending: dict[str, Any] | None = None  # the code block shown and awaiting `go`
        self._shown: dict[str, Any] | None = None  # the code block last shown in this turn
        self._decisions: queue.Queue[tuple[str, Any]] = queue.Queue()
        # A multi-part user message being received.
        self.parts: list[dict[str, Any]] | None = None
        self.audio: bytearray | None = None
        self.part_failed = False
        self.audio_format = "wav"
        self.upload_dir = config.upload_dir / sid

    # ----- output -----
    def emit(self, payload: dict[str, Any]) -> None:
        """From the turn thread."""
        try:
            self.loop.call_soon_threadsafe(self.outq.put_nowait, payload)
        except RuntimeError:  # the loop is gone (server shutting down)
            pass

    def emit_now(self, payload: dict[str, Any]) -> None:
        """From the event loop."""
        self.outq.put_nowait(payload)

    async def send(self, ws: Any, payload: dict[str, Any]) -> None:
        async with self.send_lock:
            await ws.send_text(json.dumps(payload, default=str))

    async def pump(self, ws: Any) -> None:
        """Send queued messages to this connection until it goes away."""
        if not self.config.require_ack:
            while True:
                await self.send(ws, await self.outq.get())
        resender = asyncio.create_task(self._resend(ws))
        try:
            for mid, payload in list(self.unacked.items()):  # a reconnect: what was never acked
                self.sent_at[mid], self.attempts[mid] = time.monotonic(), 1
                await self.send(ws, payload)
            while True:
                while len(self.unacked) >= self.config.ack_window:
                    self.ack_event.clear()
                    await self.ack_event.wait()
                payload = await self.outq.get()
                mid = self.next_id
                self.next_id += 1
                payload = {**payload, "id": mid}
                # Recorded before sending: if the socket dies now, the reconnect resends it.
                self.unacked[mid], self.sent_at[mid], self.attempts[mid] = payload, time.monotonic(), 1
                await self.send(ws, payload)
        finally:
            resender.cancel()

    async def _resend(self, ws: Any) -> None:
        timeout = self.config.ack_timeout
        while True:
            await asyncio.sleep(min(timeout / 4, 0.5))
            now = time.monotonic()
            for mid, payload in list(self.unacked.items()):
                if mid in self.unacked and now - self.sent_at.get(mid, now) >= timeout:
                    if self.attempts.get(mid, 0) >= self.config.ack_attempts:
                        await ws.close(code=1011, reason=f"message {mid} was never acknowledged")
                        return
                    self.attempts[mid] = self.attempts.get(mid, 0) + 1
                    self.sent_at[mid] = now
                    await self.send(ws, payload)

    def ack(self, mid: Any) -> None:
        if self.unacked.pop(mid, None) is not None:
            self.sent_at.pop(mid, None)
            self.attempts.pop(mid, None)
            self.ack_event.set()

    # ----- input -----
    def handle(self, data: Any) -> None:
        """One JSON message from the client (on the event loop)."""
        if not isinstance(data, dict):
            raise ClientError("expected a JSON object")
        if "ack" in data:
            mid = data["ack"]
            if not isinstance(mid, int) or isinstance(mid, bool):
                raise ClientError(f"'ack' takes the id (an integer) of a message the server sent, not {json.dumps(mid)[:40]}")
            self.ack(mid)
            return
        if data.get("type") == "command":
            cmd = data.get("content")
            if cmd == "stop":
                self.stop()
            elif cmd == "go":
                self.go()
            else:
                raise ClientError(f"unknown command {cmd!r}; commands are 'stop' and 'go'")
            return
        if data.get("role") != "user":
            raise ClientError("messages from the client must have role 'user'")
        if data.get("start"):
            self.parts, self.audio, self.part_failed = [], None, False
            return
        if data.get("end"):
            if self.parts is None:
                raise ClientError("'end' without 'start'")
            parts, self.parts = self.parts, None
            if self.part_failed:  # already reported; a message missing a part is not sent on
                self.part_failed, self.audio = False, None
                return
            if self.audio:
                parts.append(self._save_bytes(bytes(self.audio), f"audio.{self.audio_format}"))
                self.audio = None
            self.begin_turn(parts)
            return
        try:
            part = self._part(data)
        except ClientError:
            self.part_failed = self.parts is not None
            raise
        if part is None:  # an audio header: its bytes follow as binary frames
            return
        if self.parts is not None:
            self.parts.append(part)
        else:  # a single message without start/end: accepted as a whole message
            self.begin_turn([part])

    def handle_bytes(self, data: bytes) -> None:
        if self.parts is None:
            raise ClientError("binary data must be sent inside a user message (between start and end)")
        if self.part_failed:  # already refused: the rest of this message is dropped
            return
        if self.audio is None:
            self.audio = bytearray()
        if len(self.audio) + len(data) > _max_upload():
            self.audio, self.part_failed = None, True  # the message is refused at its 'end'
            raise ClientError(f"audio too large: the limit is {_max_upload()} bytes (INTERPRETER_MAX_UPLOAD_BYTES)")
        self.audio.extend(data)

    def _part(self, m: dict[str, Any]) -> dict[str, Any] | None:
        typ, fmt, content = m.get("type"), m.get("format"), m.get("content")
        if typ == "message":
            if not isinstance(content, str):
                raise ClientError("a message's content must be a string")
            return {"role": "user", "type": "message", "content": content}
        if typ == "image":
            if fmt and str(fmt).startswith("base64"):
                if not isinstance(content, str):
                    raise ClientError("an image's content must be a string")
                return {"role": "user", "type": "image", "format": fmt, "content": content}
            return {"role": "user", "type": "image", "format": "path", "content": str(self.confine(content))}
        if typ in ("file", "audio"):
            if typ == "audio" and content in (None, ""):
                self.audio_format = re.sub(r"[^a-z0-9]", "", str(fmt or "wav").lower()) or "wav"
                return None
            if fmt == "base64" or (typ == "audio" and fmt != "path" and isinstance(content, str) and not _looks_like_path(content)):
                try:
                    raw = base64.b64decode(str(content), validate=True)
                except (binascii.Error, ValueError):
                    raise ClientError(f"{typ} content is neither a path nor valid base64") from None
                ext = re.sub(r"[^a-z0-9]", "", str(fmt or "wav").lower()) if typ == "audio" and fmt != "base64" else "bin"
                return self._save_bytes(raw, str(m.get("name") or f"{typ}.{ext}"))
            # Audio is passed to the model as a file: the models here do not take sound.
            return {"role": "user", "type": "file", "format": "path", "content": str(self.confine(content))}
        raise ClientError(f"unsupported message type {typ!r}; use message, file, image or audio")

    def confine(self, path: Any) -> Path:
        """A client's path, resolved inside the upload folder, or refused."""
        if not isinstance(path, str) or not path.strip():
            raise ClientError("a file path must be a non-empty string")
        root = self.config.upload_dir
        p = Path(path).expanduser()
        resolved = (p if p.is_absolute() else root / p).resolve()
        if resolved != root and root not in resolved.parents:
            raise ClientError(f"{path}: files must be inside the upload folder {root}")
        if not resolved.is_file():
            raise ClientError(f"{path}: no such file in the upload folder")
        return resolved

    def _save_bytes(self, raw: bytes, name: str) -> dict[str, Any]:
        if len(raw) > _max_upload():
            raise ClientError(f"upload too large ({len(raw)} bytes)")
        self.upload_dir.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(name).name).lstrip(".") or "upload.bin"
        target = self.upload_dir / f"{uuid.uuid4().hex[:8]}-{safe}"
        target.write_bytes(raw)
        return {"role": "user", "type": "file", "format": "path", "content": str(target)}

    # ----- turns -----
    @property
    def busy(self) -> bool:
        return self._running

    def begin_turn(self, parts: list[dict[str, Any]]) -> None:
        if self.busy:
            raise ClientError("a reply is still running: wait for the 'complete' status or send the 'stop' command")
        if not parts:
            raise ClientError("empty user message")
        self.stop_flag.clear()
        self._running = True
        interp = self.interp

        def turn() -> Any:
            interp.messages.extend(parts)
            return interp.respond(self._approve)

        self.turn = bridge.start(turn, self.stop_flag, f"oi-session-{self.id}", each=_Relay(self).each,
                                 failed=lambda e: self.emit(server_error(_describe(e))), done=self._turn_done)

    def _turn_done(self) -> None:
        with self._lock:
            self._pending = self._shown = None
        self._running = False  # before 'complete': a client may send its next message at once
        self.emit(COMPLETE)

    def _review_message(self, text: str) -> bool:
        """The loop reviews code (core/loop.py calls computer.safety.review) and puts what the
        review says in a console note before the confirmation; clients get it in the documented
        review message too."""
        text = text.strip()
        if text.startswith(_REVIEW_PREFIXES):
            self.emit({"role": "assistant", "type": "review", "content": text})
            return True
        return False

    def _show(self, confirmation: dict[str, Any]) -> None:
        """Called just before the confirmation chunk goes out: make it the one code block that
        `go` can approve."""
        shown = confirmation.get("content") or {}
        lang, code = shown.get("format") or shown.get("language") or "python", shown.get("content") or shown.get("code") or ""
        with self._lock:
            while True:  # a stale decision must not carry over to this block
                try:
                    self._decisions.get_nowait()
                except queue.Empty:
                    break
            self._pending = self._shown = {"format": lang, "content": code}

    def _approve(self, code_msg: dict[str, Any]) -> Any:
        with self._lock:
            shown = self._shown  # `go` may already have arrived and cleared _pending
        if shown is None or self.stop_flag.is_set():
            return "skip"
        if self.interp.auto_run and (getattr(self.interp, "safe_mode", "off") or "off") == "off":
            return ("run", shown["content"])  # safe mode turns auto_run off, as in the terminal
        while True:
            try:
                decision, code = self._decisions.get(timeout=0.25)
                break
            except queue.Empty:
                if self.stop_flag.is_set():
                    return "skip"
        if decision == "go":
            return ("run", code)  # exactly the code that was shown, whatever happened since
        return "skip"

    def go(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
            if pending is None:
                raise ClientError("'go': there is no code waiting for approval")
            self._decisions.put(("go", pending["content"]))

    def stop(self) -> None:
        """Stop generating and running; the conversation and its sessions survive."""
        self.stop_flag.set()
        with self._lock:
            self._pending = None
            self._decisions.put(("stop", None))
        try:
            self.interp.computer.stop()
        except Exception:
            pass

    def close(self) -> None:
        """Blocking: stop, wait for the turn to end, kill the conversation's processes."""
        from oi_local.server.spawn import release

        self.closed = True
        self.stop()
        turn = self.turn
        if turn is not None:
            turn.join(timeout=15)
        release(self.interp)


class _Relay:
    """Sends one turn's chunks to the client, with the documented review messages: what the
    safety review said (a console note between a code block's end and its confirmation) also goes
    out as a `review` message, and `<SAFE>` when safe mode found nothing."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.after_code = self.reviewed = False  # between a code block's end and its confirmation
        self.note: list[str] = []

    def each(self, c: dict[str, Any]) -> None:
        s = self.session
        typ = c.get("type")
        if typ == "code" and c.get("end"):
            self.after_code, self.reviewed, self.note = True, False, []
        elif self.after_code and typ == "console" and c.get("format") == "output":
            self.note.append(c.get("content") or "")
        elif self.after_code and typ == "console" and c.get("end"):
            s.emit(c)
            self.reviewed = s._review_message("".join(self.note)) or self.reviewed
            self.note = []
            return
        elif typ == "confirmation":
            if self.after_code and not self.reviewed and (getattr(s.interp, "safe_mode", "off") or "off") != "off":
                s.emit({"role": "assistant", "type": "review", "content": "<SAFE>"})
            self.after_code = False
            s._show(c)
        elif typ != "console":
            self.after_code = False
        s.emit(c)


def _looks_like_path(text: str) -> bool:
    return len(text) < 1024 and ("/" in text or "." in text[-6:])


def _max_upload() -> int:
    from oi_local.server.bodies import max_upload

    return max_upload()


def _describe(e: BaseException) -> str:
    from oi_local.errors import LLMError

    if isinstance(e, LLMError):
        return str(e)
    return "".join(traceback.format_exception(type(e), e, e.__traceback__)).strip()
