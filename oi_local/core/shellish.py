"""Shell commands sent in a ```python block.

Small models label `chmod +x start.sh` or `rm build/a.tmp` as python; run as Python it is a
SyntaxError, and the model then explains the syntax error instead of changing the label. Code that
is not Python and whose every line starts with a command that exists here is run as shell instead
(it is shown, and confirmed unless auto_run, as shell).
"""
from __future__ import annotations

import builtins
import keyword
import os
import re
import shlex
import shutil

from oi_local.core.pycheck import compiles

_BUILTINS = frozenset("cd export echo source set alias unset test [ [[ printf read pwd exit true false".split())
_NOT_COMMANDS = frozenset(keyword.kwlist) | frozenset(dir(builtins))  # `print "x"` is broken Python


_SHELL_WORDS = frozenset("do done then fi else esac { }".split())
_ASSIGNED = re.compile(r"^(?:export\s+)?[A-Za-z_]\w*=(?:\"[^\"]*\"|'[^']*'|\S*)\s*$")  # no spaces around =: not Python's style
_SHELL_LOOP = re.compile(r"^(?:for|while|until|if|elif)\b.*;\s*(?:do|then)\s*$")




def _command(line: str) -> str | None:
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return None
    while words and ("=" in words[0] and not words[0].startswith("=") or words[0] == "sudo"):
        words = words[1:]  # VAR=value cmd, sudo cmd
    return words[0] if words else None


def _exists(word: str) -> bool:
    if word in _BUILTINS:
        return True
    if word in _NOT_COMMANDS:
        return False
    if "/" in word:  # ./start.sh, /usr/bin/env
        return os.path.exists(os.path.expanduser(word))
    return shutil.which(word) is not None


def is_shell_not_python(code: str) -> bool:
    """True when `code` is not valid Python and each line starts with a command found here."""
    joined = code.replace("\\\n", " ")  # continued lines
    lines = [ln.strip() for ln in joined.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not lines or compiles(code):
        return False
    for line in lines:
        if line.startswith(("|", "&&", "||")) or line in _SHELL_WORDS or _ASSIGNED.match(line) or _SHELL_LOOP.match(line):
            continue  # a pipeline going on; `done`, `fi`; `dest="$HOME/nas"`; `for f in "$src"/*.jpg; do`
        word = _command(line)
        if word is None or not _exists(word):
            return False
    return True
