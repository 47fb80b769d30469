"""PowerShell: a persistent `pwsh` that dot-sources each cell, so variables and functions carry
over between runs. Each cell is written to a file and run unaltered, like the shell language."""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref

from .base import SubprocessLanguage

# pwsh reads commands from stdin (`-Command -`), one line each. After the cell, the status goes to
# the control pipe; $? is false after a failed native command or a terminating error.
_RUN = ("try {{ . '{file}'; $__oi_s = if ($?) {{ 0 }} else {{ 1 }} }} catch {{ Write-Error $_; $__oi_s = 1 }}; "
        "[IO.File]::AppendAllText('/proc/self/fd/{ctl}', \"D$__oi_s`n\")\n")


class PowerShell(SubprocessLanguage):
    name = "powershell"
    aliases = ["pwsh", "ps1", "posh"]
    stdin_is_command_pipe = True
    install_hint = ("PowerShell is not installed: install pwsh (https://aka.ms/powershell; "
                    "on Windows it is built in as powershell.exe).")

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.mkdtemp(prefix="oi-pwsh-")
        self._file = f"{self._dir}/cell.ps1"
        self._ctl_fd = -1
        weakref.finalize(self, shutil.rmtree, self._dir, True)

    @staticmethod
    def available() -> bool:
        return (shutil.which("pwsh") or shutil.which("powershell")) is not None

    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        self._ctl_fd = ctl_fd
        exe = shutil.which("pwsh") or shutil.which("powershell") or "pwsh"
        return [exe, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", "-"]

    def _frame(self, code: str) -> bytes:
        os.makedirs(self._dir, exist_ok=True)
        with open(self._file, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(code if code.endswith("\n") else code + "\n")
        return _RUN.format(file=self._file.replace("'", "''"), ctl=self._ctl_fd).encode()
