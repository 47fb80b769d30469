"""Show a conversation's chunks in the terminal, and ask before code runs.

Plain text when stdout is not a terminal (pipes, CI); rich colours and panels when it is.
"""
from __future__ import annotations

import base64
import os
import sys
import tempfile
import time
from typing import Any

from oi_local.core.lmc import Message


class Display:
    def __init__(self, interp: Any, out: Any = None) -> None:
        self.interp = interp
        self.out = out or sys.stdout
        self.tty = hasattr(self.out, "isatty") and self.out.isatty() and os.environ.get("TERM") != "dumb"
        self._console = None
        self._code = ""
        self._lang = ""
        self._at_line_start = True
        self._started = time.perf_counter()
        if self.tty:
            from rich.console import Console

            self._console = Console(file=self.out, highlight=False)

    def __enter__(self) -> "Display":
        return self

    def __exit__(self, *exc: Any) -> None:
        self._newline()
        if self.interp.verbose:
            self._write_dim(self._stats())
        self.out.flush()

    # --- chunks ---
    def feed(self, c: Message) -> None:
        typ, role = c.get("type"), c.get("role")
        if typ == "message" and role == "assistant":
            if c.get("start"):
                self._newline()
            elif c.get("end"):
                self._newline()
            elif c.get("content"):
                self._write(c["content"])
        elif typ == "code":
            if c.get("start"):
                self._newline()
                self._code, self._lang = "", c.get("format", "")
                if not self.tty:
                    self._write(f"```{self._lang}\n")
            elif c.get("end"):
                if self.tty:
                    self._show_code()
                else:
                    self._newline()
                    self._write("```\n")
            elif c.get("content"):
                self._code += c["content"]
                if not self.tty:
                    self._write(c["content"])
        elif typ == "console" and role == "computer":
            if c.get("format") == "output" and c.get("content"):
                self._write_output(c["content"])
            elif c.get("end"):
                self._newline()
                code = c.get("exit_code")
                if code not in (None, 0):
                    self._write_dim(f"(exit code {code})\n")
        elif typ == "image" and role == "computer":
            self._newline()
            self._write_dim(f"[image saved to {self._save_image(c)}]\n")
        self.out.flush()

    def approve(self, code_msg: Message) -> Any:
        """Ask before running code: y runs, n skips, e edits in $EDITOR first."""
        lang = code_msg.get("format", "code")
        self._newline()
        while True:
            answer = self._ask(f"Run this {lang} code? (y/n/e) ")
            if answer is None:
                self._write_dim("No terminal to confirm on; code not run. Use -y to run code without asking.\n")
                return "skip"
            answer = answer.strip().lower()
            if answer in ("y", "yes", ""):
                return "run"
            if answer in ("n", "no"):
                return "skip"
            if answer in ("e", "edit"):
                from oi_local.terminal.editor import edit_code

                return ("run", edit_code(code_msg["content"], lang))

    # --- helpers ---
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
        self._at_line_start = text.endswith("\n")

    def _write_dim(self, text: str) -> None:
        if self._console is not None:
            self._console.print(text, style="dim", end="")
        else:
            self.out.write(text)
        self._at_line_start = text.endswith("\n")

    def _write_output(self, text: str) -> None:
        self._write_dim(text) if self._console is not None else self._write(text)

    def _newline(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def _show_code(self) -> None:
        from rich.panel import Panel
        from rich.syntax import Syntax

        lexer = {"shell": "bash", "javascript": "javascript", "python": "python"}.get(self._lang, self._lang or "text")
        self._console.print(Panel(Syntax(self._code, lexer, theme="monokai", line_numbers=False), title=self._lang, title_align="left"))
        self._at_line_start = True

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

    def _stats(self) -> str:
        s = self.interp.llm.last_stats or {}
        trim = getattr(self.interp, "last_trim", None)
        parts = [f"{time.perf_counter() - self._started:.1f}s total"]
        if s:
            parts.append(f"first token {s.get('first_token_seconds', 0):.2f}s, {s.get('pieces_per_second', 0):.1f} pieces/s")
        if trim is not None:
            parts.append(f"prompt {trim.prompt_tokens} tokens{'' if trim.exact else ' (estimated)'}")
            parts += trim.notes
        return "[" + "; ".join(parts) + "]\n"
