"""Edit code before it runs: $VISUAL/$EDITOR when set, else an editor inside the terminal.

The inline editor (prompt_toolkit) needs nothing installed: a missing nano must never end the
chat and lose its Python session.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile

SUFFIX = {"python": ".py", "shell": ".sh", "javascript": ".js"}
LEXERS = {"python": "PythonLexer", "shell": "BashLexer", "javascript": "JavascriptLexer"}
HELP = "Editing the code: Esc then Enter (or Alt-Enter) to finish, Ctrl-C to cancel the edit."


class EditCancelled(Exception):
    """The user left the editor without keeping the change."""


def edit_code(code: str, language: str) -> str:
    """The edited code. Raises EditCancelled when the user backs out."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if editor:
        argv = shlex.split(editor)
        if argv and shutil.which(argv[0]):
            return _external(argv, code, language)
        print(f"(editor {argv[0] if argv else editor!r} not found; editing here instead)", file=sys.stderr, flush=True)
    return inline_edit(code, language)


def _external(argv: list[str], code: str, language: str) -> str:
    fd, path = tempfile.mkstemp(suffix=SUFFIX.get(language, ".txt"), prefix="oi-edit-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(code)
        try:
            subprocess.call(argv + [path])
        except OSError as e:
            print(f"(could not start {argv[0]}: {e.strerror}; editing here instead)", file=sys.stderr, flush=True)
            return inline_edit(code, language)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read().rstrip("\n")
    finally:
        os.unlink(path)


def inline_edit(code: str, language: str) -> str:
    """A multi-line editor in the terminal, the code already in it."""
    from prompt_toolkit import PromptSession

    lexer = None
    name = LEXERS.get(language)
    if name:
        try:
            import pygments.lexers
            from prompt_toolkit.lexers import PygmentsLexer

            lexer = PygmentsLexer(getattr(pygments.lexers, name))
        except (ImportError, AttributeError):
            lexer = None
    tty = None
    session_io: dict = {}
    if not sys.stdin.isatty():  # piped request: the person is on the controlling terminal
        try:
            from prompt_toolkit.input.vt100 import Vt100Input
            from prompt_toolkit.output.vt100 import Vt100_Output

            tty = open("/dev/tty", "r+", encoding="utf-8")
            session_io = {"input": Vt100Input(tty), "output": Vt100_Output.from_pty(tty)}
        except OSError:
            raise EditCancelled from None
    try:
        (tty or sys.stdout).write(HELP + "\n")
        (tty or sys.stdout).flush()
        text: str = PromptSession(**session_io).prompt(
            "", default=code, multiline=True, lexer=lexer,
            prompt_continuation=lambda width, n, soft: "",
        )
    except (KeyboardInterrupt, EOFError):
        raise EditCancelled from None
    finally:
        if tty is not None:
            tty.close()
    return text.rstrip("\n")
