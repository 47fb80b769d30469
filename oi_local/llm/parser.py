"""Streaming parser: a model's text reply (arbitrary deltas) -> LMC message and code events.

Small local models write messy markdown, so this is an explicit, line-oriented state machine.
Each character is looked at a bounded number of times (O(total length): text that looked like
a JSON tool call but was not is re-read once as ordinary text); the only text held back is text
whose meaning is still open:

* the start of a line while it could still become a fence (spaces, backticks, tildes, or a
  whole candidate fence line until its newline, because the info string decides what it opens);
* inside code, the newline ending the last line (the one before a closing fence is not code);
* whitespace-only prose while no message is open (it is dropped if a code block follows);
* an unlabeled fence until its first non-empty line (the language is guessed from it);
* text that may still turn out to be a JSON tool call (``{"name": "execute", ...}``).

Events are LMC streaming chunks without "role" (the caller adds it).
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

DEFAULT_ALIASES: dict[str, str] = {
    **dict.fromkeys(("python", "py", "python3", "py3", "ipython"), "python"),
    **dict.fromkeys(("shell", "sh", "bash", "zsh", "console", "terminal", "shellscript"), "shell"),
    **dict.fromkeys(("javascript", "js", "node", "nodejs", "mjs", "cjs"), "javascript"),
}

_SHELL_WORDS = frozenset(
    "ls cd pwd echo cat mkdir rm cp mv pip pip3 grep find wc head tail touch chmod curl wget git "
    "apt apt-get sudo export python python3 node npm".split()
)
_SHELL_PREFIXES = ("$ ", "#!/bin/bash", "#!/bin/sh", "#!/usr/bin/env bash", "#!/usr/bin/env sh")
_JS_PREFIXES = ("console.", "const ", "let ", "function ", "require(")
_TOOL_NAMES = frozenset({"execute", "run_code", "python", "run"})
_TOOL_KEYS = ("name", "arguments")  # a prose JSON candidate must open with one of these keys
# Characters that may appear in JSON outside strings; anything else ends a prose JSON candidate
# early, so ordinary prose that happens to start with "{" is not held back for long.
_JSON_CHARS = frozenset(' \t\r\n{}[]:,"0123456789-+.eEtruefalsn')
_STR_SPECIAL = re.compile(r'["\\]')

# Modes. PROSE: ordinary text. CODE: inside a runnable fenced block. RAW: inside a fenced block
# that is not code (```text), passed through as prose. GUESS: unlabeled fence, waiting for its
# first non-empty line. JFENCE: ```json (or unlabeled starting with "{"), buffered to check for a
# tool call. JSON: prose JSON candidate being scanned. JTAIL: a complete tool call, waiting for
# the end of its line to confirm nothing else follows it.
_PROSE, _CODE, _RAW, _GUESS, _JFENCE, _JSON, _JTAIL = range(7)


def _parse_fence(line: str) -> tuple[int, str, int, str] | None:
    """(indent, fence char, fence length, normalised info word) for an opening fence line."""
    body = line.lstrip(" ")
    if not body or body[0] not in "`~":
        return None
    c = body[0]
    rest = body.lstrip(c)
    n = len(body) - len(rest)
    if n < 3 or (c == "`" and "`" in rest):  # CommonMark: ```x``` is an inline code span
        return None
    words = rest.split()
    word = words[0].lower().lstrip("{").lstrip(".").rstrip("}") if words else ""
    return len(line) - len(body), c, n, word


def _guess_language(line: str) -> str:
    """Canonical language for an unlabeled block from its first non-empty line."""
    s = line.strip()
    if s.startswith(_SHELL_PREFIXES):
        return "shell"
    parts = s.split(None, 1)
    # "cat = 5" is Python even though cat is a command word.
    if parts[0] in _SHELL_WORDS and not (len(parts) > 1 and parts[1].startswith("=")):
        return "shell"
    if s.startswith(_JS_PREFIXES):
        return "javascript"
    return "python"


class CodeBlockParser:
    """Feed text deltas, get LMC events; call finish() once at the end of the reply."""

    _out: list[dict[str, Any]]  # events not handed out yet (set in _reset)

    def __init__(self, aliases: Mapping[str, str] | None = None, guess_unlabeled: bool = True) -> None:
        src = DEFAULT_ALIASES if aliases is None else aliases
        self._aliases = {k.lower(): v for k, v in src.items()}
        self._guess = guess_unlabeled
        self._reset()

    # --- public API ---
    def feed(self, text: str) -> list[dict[str, Any]]:
        self._run(text)
        self._flush()
        out = self._out
        self._out = []
        return out

    def finish(self) -> list[dict[str, Any]]:
        while self._mode in (_JSON, _JTAIL):
            if self._mode == _JSON:  # never balanced: it was prose (replaying may start another)
                self._abort_json()
                self._run("")
            else:
                self._confirm_json()
        if not self._decided and self._held:
            self._end_line(nl=False)
        if self._mode == _GUESS:
            line = "".join(self._cur)
            if line.strip():
                self._settle_guess(line)
        m = self._mode
        if m == _GUESS:  # only blank lines after an unlabeled fence: keep it as text
            self._prose("".join(self._raw))
        elif m == _CODE:
            self._end_code(closed=False)
        elif m == _JFENCE:
            self._settle_fence(closed=False, closing="")
        self._end_message()
        self._flush()
        out = self._out
        self._reset()
        return out

    # --- state ---
    def _reset(self) -> None:
        self._out = []
        self._pend: list[str] = []  # content for one event, joined once (fewer, larger events)
        self._mode = _PROSE
        self._msg_open = False
        self._ws: list[str] = []  # whitespace-only prose while no message is open
        # start of the current line, held while it may still be a fence
        self._decided = False
        self._held: list[str] = []
        self._phase = 0  # 0: leading spaces, 1: fence chars, 2: rest of a fence candidate line
        self._spaces = 0
        self._count = 0
        self._pc = ""  # fence char of a prose line being checked as an opening fence
        self._doomed: frozenset[int] = frozenset()  # offsets of "{" known not to start a tool call
        self._replay: tuple[str, frozenset[int]] | None = None  # failed JSON text to re-read
        # current fenced block
        self._fc, self._flen, self._indent, self._lang = "", 0, 0, ""
        self._unlabeled = False
        self._nl = ""  # held line terminator inside code
        self._cr = False  # held "\r" that may be half of "\r\n"
        self._raw: list[str] = []  # verbatim text of a buffered block (released as prose if not code)
        self._content: list[str] = []  # its code content
        self._cur: list[str] = []  # current line while guessing
        # prose JSON candidate
        self._jbuf: list[str] = []
        self._jphase = 0
        self._jdepth = 0
        self._jstr = self._jesc = False
        self._jkey: list[str] = []
        self._jcall: tuple[str, str] = ("", "")
        self._jlen = 0  # characters buffered so far
        self._jstart = 0  # offset of the candidate's own "{" in the buffer
        self._jnl = False  # at a line start (outside strings) inside the candidate
        # Line-start "{" met inside the candidate (outside strings), where a nested candidate
        # would begin if this one fails: all of them, the still-open ones with their depth, and
        # the outermost balanced ones (worth a retry: a broken call may precede a good one).
        self._jseen: list[int] = []
        self._jnest: list[tuple[int, int]] = []
        self._jretry: list[int] = []
        self._jreplayed = False  # candidate began inside re-read text: it gets no retries
        self._replaying = False

    def _clear_line(self) -> None:
        self._held = []
        self._phase = self._spaces = self._count = 0

    # --- main loop ---
    def _run(self, text: str) -> None:
        # Text that failed as JSON is re-read from a stack of frames rather than by recursion.
        frames: list[tuple[str, int, frozenset[int]]] = []
        i, n = 0, len(text)
        self._doomed = frozenset()
        self._replaying = False
        while True:
            if self._replay is not None:
                frames.append((text, i, self._doomed))
                text, self._doomed = self._replay
                self._replay = None
                i, n = 0, len(text)
                self._replaying = True
            if i >= n:
                if not frames:
                    self._doomed = frozenset()
                    return
                text, i, self._doomed = frames.pop()
                n = len(text)
                self._replaying = bool(frames)
            elif self._mode >= _JSON:
                i = self._json_step(text, i)
            elif self._decided:  # the rest of an ordinary line flows straight through
                j = text.find("\n", i)
                if j < 0:
                    self._text(text[i:])
                    i = n
                    continue
                if j > i:
                    self._text(text[i:j])
                self._eol()
                self._decided = False
                i = j + 1
            else:
                i = self._line_start(text, i)

    def _line_start(self, text: str, i: int) -> int:
        """Consume undecided line-start characters; return where decided text begins."""
        n = len(text)
        prose = self._mode == _PROSE
        need = 3 if prose else self._flen
        held = self._held
        while i < n:
            ch = text[i]
            if ch == "\n":
                self._end_line(nl=True)
                return i + 1
            if self._phase == 0:
                if ch == " " or (prose and ch == "\t"):
                    held.append(ch)
                    self._spaces += 1
                    i += 1
                    continue
                if (ch in "`~") if prose else (ch == self._fc):
                    self._pc = ch
                    self._phase, self._count = 1, 1
                    held.append(ch)
                    i += 1
                    continue
                if prose and ch == "{" and i not in self._doomed:
                    self._start_json()
                    return i + 1
                self._decide()
                return i
            if self._phase == 1:
                if ch == self._pc:
                    self._count += 1
                    held.append(ch)
                    i += 1
                    continue
                if self._count < need:
                    self._decide()
                    return i
                self._phase = 2
            # phase 2: the rest of a fence candidate line, up to its newline
            j = text.find("\n", i)
            end = n if j < 0 else j
            seg = text[i:end]
            if (self._pc == "`" and "`" in seg) if prose else not seg.isspace():
                self._decide()
                return i
            held.append(seg)
            i = end
        return i

    def _decide(self) -> None:
        """The held line start is ordinary text of the current mode."""
        raw = "".join(self._held)
        code = raw
        if self._mode in (_CODE, _GUESS, _JFENCE) and self._indent:
            code = raw[min(self._spaces, self._indent):]  # strip the fence's indent, never more
        self._clear_line()
        self._decided = True
        self._text(raw, code)

    def _end_line(self, nl: bool) -> None:
        """A held line is complete (newline, or end of stream when nl is False)."""
        if self._phase and self._count >= (3 if self._mode == _PROSE else self._flen):
            line = "".join(self._held)
            self._clear_line()
            if self._mode == _PROSE:
                self._open(line, nl)
            else:
                self._close(line, nl)
            return
        self._decide()
        if nl:
            self._eol()
            self._decided = False

    # --- text sinks per mode ---
    def _text(self, raw: str, code: str | None = None) -> None:
        m = self._mode
        if m == _PROSE or m == _RAW:
            self._prose(raw)
            return
        code = raw if code is None else code
        if m != _CODE:
            self._raw.append(raw)
            if m == _GUESS:
                self._cur.append(code)
        self._code(code)

    def _eol(self) -> None:
        m = self._mode
        if m == _PROSE or m == _RAW:
            self._prose("\n")
            return
        if m != _CODE:
            self._raw.append("\n")
        if self._cr:
            self._cr = False
            term = "\r\n"
        else:
            term = "\n"
        if self._nl:
            self._code_out(self._nl)
        self._nl = term  # only emitted once another code line follows
        if m == _GUESS:
            line = "".join(self._cur)
            self._cur = []
            if line.strip():
                self._settle_guess(line)

    def _code(self, s: str) -> None:
        if self._cr:
            s = "\r" + s
            self._cr = False
        if s.endswith("\r"):  # may be the first half of a "\r\n" terminator
            s = s[:-1]
            self._cr = True
        if s:
            if self._nl:
                s = self._nl + s
                self._nl = ""
            self._code_out(s)

    def _code_out(self, s: str) -> None:
        if self._mode == _CODE:
            self._pend.append(s)
        else:
            self._content.append(s)

    def _emit(self, event: dict[str, Any]) -> None:
        self._flush()
        self._out.append(event)

    def _flush(self) -> None:
        """Turn pending content into one event of the block that is open (message or code)."""
        if self._pend:
            content = "".join(self._pend)
            self._pend = []
            if self._msg_open:
                self._out.append({"type": "message", "content": content})
            else:
                self._out.append({"type": "code", "format": self._lang, "content": content})

    def _prose(self, s: str) -> None:
        if not s:
            return
        if not self._msg_open:
            if s.isspace():
                self._ws.append(s)
                return
            self._emit({"type": "message", "start": True})
            self._msg_open = True
            self._pend, self._ws = self._ws, []
        self._pend.append(s)

    def _end_message(self) -> None:
        if self._msg_open:
            self._emit({"type": "message", "end": True})
            self._msg_open = False
        self._ws = []

    # --- fenced blocks ---
    def _open(self, line: str, nl: bool) -> None:
        tail = "\n" if nl else ""
        fence = _parse_fence(line)
        if fence is None:
            self._prose(line + tail)
            return
        self._indent, self._fc, self._flen, word = fence
        self._nl, self._cr = "", False
        lang = self._aliases.get(word) if word else None
        if lang:
            self._lang = lang
            self._mode = _CODE
            self._start_code()
        elif not word or word == "json":
            self._unlabeled = not word
            self._mode = _GUESS if not word else _JFENCE
            self._raw, self._content, self._cur = [line + tail], [], []
        else:
            self._mode = _RAW  # a labeled block we cannot run (json, text, output, ...) is prose
            self._prose(line + tail)

    def _close(self, line: str, nl: bool) -> None:
        closing = line + ("\n" if nl else "")
        m = self._mode
        self._nl, self._cr = "", False  # the newline before a closing fence is not code
        if m == _CODE:
            self._end_code(closed=True)
        elif m == _RAW:
            self._prose(closing)
        elif m == _GUESS:  # an unlabeled block of blank lines: keep it as text
            self._prose("".join(self._raw) + closing)
        else:
            self._settle_fence(closed=True, closing=closing)
        self._mode = _PROSE
        self._raw, self._content, self._cur = [], [], []

    def _settle_guess(self, line: str) -> None:
        """First non-empty line of an unlabeled block: decide what the block is."""
        if line.lstrip().startswith("{"):
            self._mode = _JFENCE  # maybe a tool call; buffer the whole block
        elif self._guess:
            self._lang = self._aliases.get(_guess_language(line), _guess_language(line))
            content = "".join(self._content)
            self._mode = _CODE
            self._start_code()
            if content:
                self._code_out(content)
            self._raw, self._content = [], []
        else:
            self._mode = _RAW
            self._prose("".join(self._raw))
            self._raw, self._content = [], []

    def _settle_fence(self, closed: bool, closing: str) -> None:
        content = "".join(self._content)
        call = self._tool_call(content)
        if call:
            self._emit_block(call[0], call[1], closed)
        elif self._unlabeled and self._guess:  # a dict literal or similar: Python by default
            self._emit_block(self._aliases.get("python", "python"), content, closed)
        else:
            self._prose("".join(self._raw) + closing)

    def _start_code(self) -> None:
        self._end_message()
        self._emit({"type": "code", "format": self._lang, "start": True})

    def _end_code(self, closed: bool) -> None:
        self._emit({"type": "code", "format": self._lang, "end": True, "closed": closed})
        self._mode = _PROSE

    def _emit_block(self, lang: str, code: str, closed: bool) -> None:
        self._lang = lang
        self._start_code()
        if code:
            self._pend.append(code)
        self._end_code(closed)

    # --- JSON tool calls written as text ---
    def _tool_call(self, text: str) -> tuple[str, str] | None:
        """(language, code) if text is exactly a JSON execute-style tool call."""
        try:
            obj = json.loads(text, strict=False)  # models put raw newlines in code strings
        except (ValueError, RecursionError):
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or obj["name"] not in _TOOL_NAMES:
            return None
        args = obj.get("arguments")
        if isinstance(args, str):
            try:
                args = json.loads(args, strict=False)
            except (ValueError, RecursionError):
                return None
        if not isinstance(args, dict) or not isinstance(args.get("code"), str):
            return None
        lang = args.get("language", args.get("lang")) or "python"
        if not isinstance(lang, str):
            return None
        canonical = self._aliases.get(lang.strip().lower())
        return (canonical, args["code"]) if canonical else None

    def _start_json(self) -> None:
        self._jbuf = self._held + ["{"]
        self._jstart = len(self._held)
        self._jlen = self._jstart + 1
        self._clear_line()
        self._mode = _JSON
        self._jphase, self._jdepth, self._jstr, self._jesc, self._jkey = 0, 1, False, False, []
        self._jnl, self._jseen, self._jnest, self._jretry = False, [], [], []
        self._jreplayed = self._replaying

    def _json_step(self, text: str, i: int) -> int:
        n = len(text)
        if self._mode == _JTAIL:  # only whitespace may follow the object on its line
            j = i
            while j < n and text[j] in " \t\r":
                j += 1
            if j > i:
                self._jbuf.append(text[i:j])
            if j == n:
                return n
            if text[j] == "\n":
                self._confirm_json()
                return j + 1
            self._abort_json()
            return j
        start = i
        while i < n:
            if self._jstr:  # skip string bodies in bulk
                if self._jesc:
                    self._jesc = False
                    i += 1
                    continue
                m = _STR_SPECIAL.search(text, i)
                if m is None:
                    i = n
                    continue
                i = m.end()
                if m.group() == "\\":
                    self._jesc = True
                else:
                    self._jstr = False
                continue
            ch = text[i]
            if self._jphase == 2:
                if ch == "\n":
                    self._jnl = True
                elif ch != " " and ch != "\t":
                    if ch == "{" and self._jnl:  # where a nested candidate would start on replay
                        self._jseen.append(self._jlen + i - start)
                        self._jnest.append((self._jseen[-1], self._jdepth))
                    self._jnl = False
                if ch == '"':
                    self._jstr = True
                elif ch == "{" or ch == "[":
                    self._jdepth += 1
                elif ch == "}" or ch == "]":
                    self._jdepth -= 1
                    while self._jnest and self._jnest[-1][1] >= self._jdepth:
                        off = self._jnest.pop()[0]  # that nested object balanced: it may be a call
                        while self._jretry and self._jretry[-1] > off:
                            self._jretry.pop()  # keep only the outermost ones
                        self._jretry.append(off)
                    if self._jdepth == 0:
                        self._jbuf.append(text[start:i + 1])
                        call = self._tool_call("".join(self._jbuf))
                        if call is None:
                            self._abort_json()
                        else:
                            self._jcall = call
                            self._mode = _JTAIL
                        return i + 1
                elif ch not in _JSON_CHARS:
                    break
                i += 1
            elif self._jphase == 0:  # after "{": whitespace, then the first key's quote
                if ch == '"':
                    self._jphase = 1
                elif ch not in " \t\r\n":
                    break
                i += 1
            else:  # inside the first key
                if ch == '"':
                    if "".join(self._jkey) not in _TOOL_KEYS:
                        break
                    self._jphase = 2
                elif ch == "\\" or ch == "\n" or len(self._jkey) > 10:
                    break
                else:
                    self._jkey.append(ch)
                i += 1
        else:
            self._jbuf.append(text[start:i])
            self._jlen += i - start
            return i
        self._jbuf.append(text[start:i])  # stopped before a character JSON cannot have here
        self._abort_json()
        return i

    def _abort_json(self) -> None:
        """Not a tool call: re-read the buffered text as ordinary input (it may hold fences).

        A nested line-start "{" whose object was still open when this candidate failed would
        scan the same characters and fail the same way, so it is not tried again; of the balanced
        ones only the outermost get one retry. That keeps failed candidates linear in time."""
        doomed = set(self._jseen)
        if not self._jreplayed:
            doomed.difference_update(self._jretry)
        doomed.add(self._jstart)
        self._replay = ("".join(self._jbuf), frozenset(doomed))
        self._jbuf, self._jseen, self._jnest, self._jretry = [], [], [], []
        self._mode = _PROSE
        self._decided = False
        self._clear_line()

    def _confirm_json(self) -> None:
        self._jbuf = []
        self._mode = _PROSE
        self._decided = False
        self._emit_block(self._jcall[0], self._jcall[1], closed=True)
