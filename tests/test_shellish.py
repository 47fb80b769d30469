"""Shell commands in a ```python block are recognised (and nothing else is)."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.shellish import is_shell_not_python


@pytest.mark.parametrize("code", [
    "chmod +x start.sh\n./start.sh",  # what the 0.5B model sent as python (./start.sh exists below)
    "rm build/a.tmp build/b.tmp",
    "ls -la | grep txt",
    "cd build && make",
    "LANG=C sort names.txt \\\n  | uniq -c",
    "# sizes\ndu -sh *",  # (`ls -l` is valid Python, ls minus l: left to fail as Python)
    # sent as python after a script failed: assignments, a loop, commands
    'src="phone_import"\ndest="$HOME/nas/photos"\nmkdir -p "$dest"\nfor file in "$src"/*.jpg; do\n  cp "$file" "$dest"\ndone',
])
def test_shell_commands_are_recognised(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "start.sh").write_text("echo hi\n")
    assert is_shell_not_python(code)


@pytest.mark.parametrize("code", [
    "print(1 + 1)",  # Python
    "ls = [1, 2]\nprint(ls)",  # Python, though ls is a command
    'print "hello"',  # broken Python 2, not a command
    "import os\nos.remove('a'",  # broken Python
    "chmod +x start.sh\nprint(open('x').read()",  # half shell, half Python
    "frobnicate-not-a-command --all",
    'x=1\nfor i in range(3): print(i',  # broken Python, not shell
    "",
])
def test_everything_else_is_left_alone(code: str) -> None:
    assert not is_shell_not_python(code)
