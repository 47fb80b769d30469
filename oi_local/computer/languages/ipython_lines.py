"""IPython-style lines in a python block: `!cmd`, `x = !cmd`, `%pip install x`, `%cd DIR`.

Models trained on notebooks write them often (`!pip install requests`, `%matplotlib inline`).
They run as IPython would run them. Only code that is not valid Python is rewritten, and only when
the rewritten code is: a `!` inside a string or a real `%` operator is never touched.
"""
from __future__ import annotations

import re
import sys

_LINE = re.compile(r"^(?P<indent>[ \t]*)(?:(?P<target>[A-Za-z_]\w*)\s*=\s*)?(?P<kind>[!%])(?P<rest>.*)$")
_SHELL = "__import__('subprocess').run({cmd!r}, shell=True, executable={sh!r})"
_CAPTURE = ("__import__('subprocess').run({cmd!r}, shell=True, executable={sh!r}, capture_output=True, text=True)"
            ".stdout.splitlines()")
_NOOP_MAGICS = {"matplotlib", "load_ext", "autoreload", "config"}  # notebook setup with no meaning here


def _bash() -> str:
    import shutil

    return shutil.which("bash") or "/bin/sh"


def _magic(line: str) -> str | None:
    """Python for one `%magic args` line, or None when it is not one we know."""
    name, _, args = line.partition(" ")
    args = args.strip()
    if name in ("pip", "pip3"):
        return _SHELL.format(cmd=f"{sys.executable} -m pip {args}", sh=_bash())
    if name == "cd":
        return f"__import__('os').chdir(__import__('os').path.expanduser({args or '~'!r}))"
    if name == "pwd":
        return "print(__import__('os').getcwd())"
    if name in ("ls", "ll"):
        return _SHELL.format(cmd=f"ls {'-l ' if name == 'll' else ''}{args}", sh=_bash())
    if name == "env" and not args:
        return "print('\\n'.join(f'{k}={v}' for k, v in sorted(__import__('os').environ.items())))"
    if name in _NOOP_MAGICS:
        return "pass"
    return None


def _python_for(kind: str, rest: str, assigned: bool) -> str | None:
    if kind == "!":
        return (_CAPTURE if assigned else _SHELL).format(cmd=rest, sh=_bash())
    if assigned:
        return None
    name = rest.lstrip("%")  # %%magic cell forms are read like line magics
    new = _magic(name)
    if new is None:
        word = name.split()[0] if name.split() else name
        new = f"print({f'%{word} is an IPython magic; it does not exist in a plain Python session.'!r})"
    return new


def translate(code: str) -> str:
    """The code with IPython-style lines turned into Python, or the code unchanged."""
    if "!" not in code and "%" not in code:
        return code
    try:
        compile(code, "<cell>", "exec", flags=0x2000)  # PyCF_ALLOW_TOP_LEVEL_AWAIT
        return code
    except SyntaxError:
        pass
    out: list[str] = []
    changed = False
    for line in code.split("\n"):
        m = _LINE.match(line)
        if m and m["rest"].strip():
            new = _python_for(m["kind"], m["rest"].strip(), bool(m["target"]))
            if new is not None:
                line = m["indent"] + (f"{m['target']} = " if m["target"] else "") + new
                changed = True
        out.append(line)
    if not changed:
        return code
    result = "\n".join(out)
    try:
        compile(result, "<cell>", "exec", flags=0x2000)
    except SyntaxError:
        return code  # not IPython after all: let Python report the original error
    return result
