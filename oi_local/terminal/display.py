"""Show a conversation's chunks in the terminal, and ask before code runs.

On a terminal: streamed Markdown, code panels with syntax highlighting, the running line
highlighted while code runs, output panels, a spinner while the model thinks (rich).
When stdout is not a terminal (pipes, CI): plain text, no escape codes.
"""
from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

from oi_local.core.lmc import Message

LEXERS = {"shell": "bash", "javascript": "javascript", "python": "python", "r": "r", "applescript": "applescript"}
LIVE_OUTPUT_LINES = 20


class Display:
    def __init__(self, interp: Any, out: Any = None) -> None:
        self.interp = interp
        self.out = out or sys.stdout
        self.tty = hasattr(self.out, "isatty") and self.out.isatty() and os.environ.get("TERM") != "dumb"
        self._console: Any = None
        self._live: Any = None  # the one rich Live (spinner, message, code or run) on screen
        self._live_kind = ""
        self._text = ""  # the assistant message being streamed
        self._code = ""
        self._lang = ""
        self._output = ""
        self._active: int | None = None
        self._at_line_start = True
        self._started = time.perf_counter()
        self._shown_stats: Any = None
        self._confirmed = False  # the next console start is a real run (not a note from the loop)
        if self.tty:
            from rich.console import Console

            self._console = Console(file=self.out, highlight=False)

    def __enter__(self) -> "Display":
        self._spin()
        return self

    def __exit__(self, *exc: Any) -> None:
        running = self._live_kind == "run"
        self._finish_live()
        if running:  # interrupted while code ran: keep its output on screen
            if self._output.strip():
                self._print_output_panel()
            self._write_dim("(interrupted)\n")
        self._newline()
        if self.interp.verbose:
            self._verbose_stats(final=True)
        self.out.flush()

    # --- chunks ---
    def feed(self, c: Message) -> None:
        typ, role = c.get("type"), c.get("role")
        if role == "assistant" and self._live_kind == "spinner":
            self._stop_live()
        if typ == "message" and role == "assistant":
            self._message(c)
        elif typ == "code" and role == "assistant":
            self._code_chunk(c)
        elif typ == "confirmation":
            self._confirmed = True
            self._verbose_stats()
        elif typ == "console" and role == "computer":
            self._console_chunk(c)
        elif typ == "image" and role == "computer":
            note = f"[image saved to {self._save_image(c)}]\n"
            if self._live is not None:  # printed above the running code's live view, which goes on
                self._console.print(note, style="dim", end="", markup=False, soft_wrap=True)
            else:
                self._newline()
                self._write_dim(note)
        self.out.flush()

    def _message(self, c: Message) -> None:
        if c.get("start"):
            self._newline()
            self._text = ""
            if self.tty:
                self._start_live("message", self._markdown(tail=True), transient=True)
        elif c.get("end"):
            if self.tty:
                self._finish_live()
            self._newline()
            if getattr(self.interp, "speak_messages", False) and self._text.strip():
                speak(self._text)
        elif isinstance(c.get("content"), str):
            self._text += c["content"]
            if self.tty:
                self._update_live(self._markdown(tail=True))
            else:
                self._write(c["content"])

    def _code_chunk(self, c: Message) -> None:
        if c.get("start"):
            self._newline()
            self._code, self._lang = "", c.get("format", "") or ""
            if self.tty:
                self._start_live("code", self._code_panel(tail=True), transient=True)
            else:
                self._write(f"```{self._lang}\n")
        elif c.get("end"):
            if self.tty:
                self._finish_live()
            else:
                self._newline()
                self._write("```\n")
            self._verbose_stats()
        elif isinstance(c.get("content"), str):
            self._code += c["content"]
            if self.tty:
                self._update_live(self._code_panel(tail=True))
            else:
                self._write(c["content"])

    def _console_chunk(self, c: Message) -> None:
        fmt = c.get("format")
        if c.get("start"):
            self._output, self._active = "", None
            if self.tty and self._code and self._confirmed:
                # While the code runs: the code again with the running line lit, and the output so far.
                self._start_live("run", self._run_view(), transient=True)
        elif c.get("end"):
            if self.tty:
                ran = self._live_kind == "run"
                self._stop_live()
                if ran and self._output.strip():
                    self._print_output_panel()
            else:
                self._newline()
            code = c.get("exit_code")
            if code not in (None, 0):
                self._write_dim(f"(exit code {code})\n")
            self._code, self._confirmed = "", False
            self._spin()
        elif fmt == "input_request":
            self._answer_input(str(c.get("content") or ""))
        elif fmt == "active_line":
            line = c.get("content")
            try:
                self._active = int(line) if line is not None else None
            except (TypeError, ValueError):
                self._active = None
            if self._live_kind == "run":
                self._update_live(self._run_view())
        elif fmt == "output" and c.get("content"):
            self._output += c["content"]
            if self.tty:
                if self._live_kind == "run":
                    self._update_live(self._run_view())
                else:  # a note from the loop (refusal, safe-mode findings): print it as it is
                    self._write_dim(c["content"])
            else:
                self._write(c["content"])

    def _answer_input(self, prompt: str) -> None:
        """The running code called input(prompt): the person answers here (the code's output so
        far stays on screen); no terminal to ask -> no answer, and the code gets EOFError."""
        running = self._live_kind == "run"
        if running:
            self._stop_live()
            shown = self._output[: len(self._output) - len(prompt)] if prompt and self._output.endswith(prompt) else self._output
            if shown.strip():
                self._write(shown if shown.endswith("\n") else shown + "\n")
        else:
            self._newline()
        answer = self._ask(prompt)
        self.interp.computer.answer_input(None if answer is None else answer.rstrip("\r\n"))
        if running:
            self._output = ""  # shown above; the run view goes on with what comes next
            self._start_live("run", self._run_view(), transient=True)

    def approve(self, code_msg: Message) -> Any:
        """Ask before running code: y runs, n skips, e edits first (then asks again about the edit)."""
        self._stop_live()
        lang = code_msg.get("format", "code")
        code, edited = code_msg["content"], False
        self._newline()
        while True:
            answer = self._ask(f"Run this {lang} code? (y/n/e) ")
            if answer is None:
                if not self.interp.auto_run:
                    hint = " Use -y to run code without asking."
                elif getattr(self.interp, "safe_mode", "off") != "off":
                    hint = " Safe mode asks before code runs, even with -y (--safe_mode off to skip the scan)."
                else:
                    hint = " A request to delete or overwrite broadly is always confirmed, even with -y."
                self._write_dim(f"No terminal to confirm on; code not run.{hint}\n")
                return "skip"
            answer = answer.strip().lower()
            if answer in ("y", "yes"):
                return ("run", code) if edited else "run"
            if answer in ("n", "no"):
                self._confirmed = False
                return "skip"
            if answer in ("e", "edit"):
                from oi_local.terminal.editor import EditCancelled, edit_code

                try:
                    new = edit_code(code, lang)
                except EditCancelled:
                    self._write_dim("(edit cancelled; the code is unchanged)\n")
                    continue
                code, edited = new, edited or new != code_msg["content"]
                self._code, self._lang = code, lang
                if self.tty:
                    self._console.print(self._code_panel(title=f"{lang} (edited)"))
                else:
                    self._write(f"```{lang}\n{code}\n```\n")
                continue
            self._write("Please answer y (run), n (skip) or e (edit first).\n")

    def replay(self, messages: list[Message]) -> None:
        """Show saved messages as they looked when they happened (a resumed conversation)."""
        outputs: list[str] = []

        def flush() -> None:
            if outputs:
                self._output = "".join(outputs)
                if self.tty and self._output.strip():
                    self._print_output_panel()
                elif self._output.strip():
                    self._newline()
                    self._write(self._output.rstrip("\n") + "\n")
                outputs.clear()

        for m in messages:
            role, typ, content = m.get("role"), m.get("type"), m.get("content")
            if role == "computer" and typ == "console" and m.get("format", "output") == "output":
                outputs.append(str(content or ""))
                continue
            flush()
            if not isinstance(content, str):
                continue
            self._newline()
            if role == "user" and typ == "message":
                if self.tty:
                    from rich.text import Text

                    self._console.print(Text("> " + content, style="bold"))
                else:
                    self._write(f"> {content}\n")
            elif role == "assistant" and typ == "message":
                self._text = content
                if self.tty:
                    self._console.print(self._markdown())
                else:
                    self._write(content.rstrip("\n") + "\n")
            elif role == "assistant" and typ == "code":
                self._code, self._lang = content, m.get("format", "") or ""
                if self.tty:
                    self._console.print(self._code_panel())
                else:
                    self._write(f"```{self._lang}\n{content}\n```\n")
            self._at_line_start = True
        flush()
        self._code = self._text = self._output = ""
        self.out.flush()

    # --- rich pieces ---
    def _room(self) -> int:
        """Lines a live view may use: rich cannot redraw what has scrolled off the screen, so
        live views show the tail (or the lines around the running one); the whole text is
        printed once it is complete."""
        return max(self._console.size.height - 8, 4)

    def _markdown(self, tail: bool = False) -> Any:
        from rich.markdown import Markdown

        text = self._text
        if tail:
            room = self._room()
            text = "\n".join(text.split("\n")[-room:])
            limit = room * max(self._console.size.width - 4, 20) * 3 // 4  # long wrapped paragraphs too
            if len(text) > limit:
                text = "…" + text[-limit:]
        return Markdown(text)

    def _code_panel(self, highlight: int | None = None, title: str | None = None, tail: bool = False,
                    room: int | None = None) -> Any:
        from rich.panel import Panel
        from rich.syntax import Syntax

        lexer = LEXERS.get(self._lang, self._lang or "text")
        lines = {highlight} if highlight else None
        code = self._code.rstrip("\n") or " "
        n, room = code.count("\n") + 1, room or self._room()
        window = None
        if tail and n > room:
            window = (n - room + 1, n)
        elif highlight and n > room:
            start = max(1, min(highlight - room // 2, n - room + 1))
            window = (start, start + room - 1)
        syntax = Syntax(code, lexer, theme="monokai", line_numbers=bool(highlight), highlight_lines=lines,
                        word_wrap=True, line_range=window)
        return Panel(syntax, title=title or self._lang or "code", title_align="left", border_style="blue")

    def _run_view(self) -> Any:
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text

        out_room = min(LIVE_OUTPUT_LINES, max(self._console.size.height // 3, 3))
        tail = "\n".join(self._output.rstrip("\n").splitlines()[-out_room:])
        title = f"running line {self._active}" if self._active else "running"
        code_room = max(self._room() - (out_room + 2 if tail else 0), 3)
        parts = [self._code_panel(self._active, title=f"{self._lang} · {title}", room=code_room)]
        if tail:
            parts.append(Panel(Text(tail), title="output", title_align="left", border_style="grey50"))
        return Group(*parts)

    def _print_output_panel(self) -> None:
        from rich.panel import Panel
        from rich.text import Text

        self._console.print(Panel(Text(self._output.rstrip("\n")), title="output", title_align="left", border_style="grey50"))
        self._at_line_start = True

    # --- the one live region ---
    def _spin(self) -> None:
        if not self.tty or self._live is not None:
            return
        from rich.spinner import Spinner

        self._start_live("spinner", Spinner("dots", text=" thinking…", style="cyan"), transient=True)

    def _start_live(self, kind: str, renderable: Any, transient: bool = False) -> None:
        from rich.live import Live

        self._stop_live()
        self._newline()
        self._live = Live(renderable, console=self._console, refresh_per_second=12, transient=transient,
                          vertical_overflow="crop")
        self._live_kind = kind
        self._live.start()

    def _finish_live(self) -> None:
        """Stop the live view; a message or code block is then printed whole, once."""
        kind = self._live_kind
        self._stop_live()
        if kind == "message" and self._text.strip():
            self._console.print(self._markdown())
        elif kind == "code":
            self._console.print(self._code_panel())

    def _update_live(self, renderable: Any) -> None:
        if self._live is not None:
            self._live.update(renderable)

    def _stop_live(self) -> None:
        live, self._live, self._live_kind = self._live, None, ""
        if live is not None:
            live.stop()
            self._at_line_start = True

    # --- plain writing ---
    def _ask(self, prompt: str) -> str | None:
        if sys.stdin.isatty():
            try:
                return input(prompt)
            except EOFError:
                return None
        try:
            with open("/dev/tty", "r+") as tty:
                tty.write(prompt)
                tty.flush()
                return tty.readline()
        except OSError:
            return None

    def _write(self, text: str) -> None:
        self.out.write(text)
        if text:
            self._at_line_start = text.endswith("\n")

    def _write_dim(self, text: str) -> None:
        if self._console is not None:
            self._console.print(text, style="dim", end="", markup=False, soft_wrap=True)
        else:
            self.out.write(text)
        if text:
            self._at_line_start = text.endswith("\n")

    def _newline(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def _save_image(self, c: Message) -> str:
        if c.get("format") == "path":
            return str(c.get("content"))
        from oi_local._paths import app_dir

        folder = app_dir() / "images"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = __import__("pathlib").Path(tempfile.gettempdir())
        ext = "jpg" if "jpeg" in c.get("format", "") else "png"
        path = folder / f"image-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{id(c) % 10000}.{ext}"
        path.write_bytes(base64.b64decode(c.get("content", "")))
        return str(path)

    def _verbose_stats(self, final: bool = False) -> None:
        if not self.interp.verbose:
            return
        s = self.interp.llm.last_stats or {}
        if s and s is not self._shown_stats:
            self._shown_stats = s
            self._stop_live()
            self._newline()
            usage = self.interp.llm.last_usage or {}
            toks = usage.get("completion_tokens")
            gen = s.get("seconds", 0) - s.get("first_token_seconds", 0)  # generation only, after the prefill
            rate = f"{(toks - 1) / gen:.1f} tokens/s" if toks and toks > 1 and gen > 0 else f"{s.get('pieces_per_second', 0):.1f} tokens/s"
            trim = getattr(self.interp, "last_trim", None)
            parts = [f"model {s.get('seconds', 0):.2f}s", f"first token {s.get('first_token_seconds', 0):.2f}s",
                     f"{toks or s.get('pieces', 0)} tokens", rate]
            if trim is not None:
                parts.append(f"prompt {trim.prompt_tokens} tokens{'' if trim.exact else ' (estimated)'}")
                parts += trim.notes
            if getattr(self.interp, "max_budget", None) is not None:
                parts.append(f"spent ${getattr(self.interp, 'spent', 0.0):.6f}")
            self._write_dim("[" + "; ".join(parts) + "]\n")
        if final:
            self._write_dim(f"[turn {time.perf_counter() - self._started:.1f}s]\n")


def speak(text: str) -> None:
    """Read a reply aloud with espeak-ng (or espeak), without waiting for it."""
    exe = shutil.which("espeak-ng") or shutil.which("espeak")
    if exe is None:
        return
    try:
        subprocess.Popen([exe, text[:2000]], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        pass
