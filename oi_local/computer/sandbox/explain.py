"""Notes that explain what the sandbox blocked, from the run's output: a bare PermissionError or
"Network is unreachable" leaves a small model guessing; the note says what happened and how the
user can allow it."""
from __future__ import annotations

import os
import re

from .policy import Policy

# Error codes are whole words: case-insensitive "ENOTFOUND" is inside "FileNotFoundError", and every
# missing file was reported as a blocked network (the 0.5B model then answered with that note).
_WRITE = re.compile(r"Read-only file system|\bEROFS\b|Permission denied|\bEACCES\b|PermissionError|Operation not permitted|"
                    r"\bEPERM\b", re.I)
_MISSING = re.compile(r"No such file or directory|\bENOENT\b|FileNotFoundError|cannot open|not found", re.I)
_NET = re.compile(r"Network is unreachable|\bENETUNREACH\b|No route to host|\bEHOSTUNREACH\b|Temporary failure in name resolution|"
                  r"Name or service not known|\bEAI_AGAIN\b|\bENOTFOUND\b|getaddrinfo|Could not resolve host|"
                  r"nodename nor servname|Connection refused|\bECONNREFUSED\b|\[Errno 111\]|\[Errno 101\]|\[Errno -[23]\]", re.I)
_FORK = re.compile(r"fork: (?:retry: )?Resource temporarily unavailable|BlockingIOError: \[Errno 11\]|"
                   r"Cannot fork|EAGAIN.*spawn|spawn.*EAGAIN|can't start new thread", re.I)
_QUOTED = re.compile(r"""['"\u2018\u201c](~?/[^'"\u2019\u201d\n]*)['"\u2019\u201d]""")
_BARE = re.compile(r"""(?:^|[\s:=(])(~?/[^\s:'"()]+)""")
# Every pattern above contains one of these (in the case it is printed in).
_KEYWORDS = ("ead-only", "EROFS", "ermission", "EACCES", "not permitted", "EPERM", "o such file", "ENOENT",
             "FileNotFound", "annot open", "not found", "nreachable", "UNREACH", "o route", "name resolution",
             "not known", "EAI_AGAIN", "ENOTFOUND", "getaddrinfo", "resolve host", "servname", "efused",
             "ECONNREFUSED", "Errno", "fork", "Fork", "EAGAIN", "start new thread")
WINDOW = 400  # characters of the previous output kept, so a message split across chunks is seen


class Scanner:
    """Fed the run's output chunk by chunk (bounded memory); `notes()` at the end."""

    def __init__(self, policy: Policy, max_processes: int | None = None) -> None:
        self.policy = policy
        self.max_processes = max_processes
        self._carry = ""
        self.blocked_writes: list[str] = []
        self.hidden_reads: list[str] = []
        self.network = False
        self.fork = False

    def feed(self, text: str) -> None:
        if len(self.blocked_writes) + len(self.hidden_reads) > 8 and self.network and self.fork:
            return
        data = self._carry + text
        cut = data.rfind("\n", 0, max(len(data) - WINDOW, 0))
        lines = data[:cut + 1] if cut >= 0 else ""
        self._carry = data[cut + 1:] if cut >= 0 else data[-4 * WINDOW:]
        if lines:
            self._scan(lines)

    def finish(self) -> None:
        if self._carry:
            self._scan(self._carry)
            self._carry = ""

    def _scan(self, text: str) -> None:
        # Substring search first (C speed: 100 MB of output must not go through a regex with a
        # dozen alternatives, which ran at ~0.5 MB/s); only lines holding a keyword are parsed.
        done: set[int] = set()
        for kw in _KEYWORDS:
            pos = text.find(kw)
            hits = 0
            while pos >= 0 and hits < 20:
                start = text.rfind("\n", 0, pos) + 1
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                if start not in done:
                    done.add(start)
                    self._line(text[start:end][:2000])
                hits += 1
                pos = text.find(kw, end)

    def _line(self, line: str) -> None:
        if _WRITE.search(line):
            for p in self._paths(line):
                if not self.policy.is_writable(p) and p not in self.blocked_writes:
                    hidden = self.policy.hidden_by(p)
                    target = self.hidden_reads if hidden else self.blocked_writes
                    if p not in target:
                        target.append(p)
        elif _MISSING.search(line):
            for p in self._paths(line):
                if self.policy.hidden_by(p) and p not in self.hidden_reads:
                    self.hidden_reads.append(p)
        if not self.policy.network and _NET.search(line):
            self.network = True
        if _FORK.search(line):
            self.fork = True

    @staticmethod
    def _paths(line: str) -> list[str]:
        found = [m.group(1) for m in _QUOTED.finditer(line)] or [m.group(1) for m in _BARE.finditer(line)]
        return [os.path.abspath(os.path.expanduser(p)) for p in found if len(p) > 1][:4]

    def notes(self) -> list[str]:
        self.finish()
        out = []
        if self.blocked_writes:
            paths = ", ".join(self.blocked_writes[:3])
            folder = _folder(self.blocked_writes[0])
            out.append(f"[sandbox] Writing to {paths} was blocked: code may only change files in the working folder "
                       f"({self.policy.workdir}), its private /tmp and folders the user allows. The user can allow "
                       f"it with `%allow {folder}` in the chat or `--allow_write {folder}` at start. Otherwise "
                       "write inside the working folder.")
        if self.hidden_reads:
            hidden = sorted({self.policy.hidden_by(p) or p for p in self.hidden_reads})
            out.append(f"[sandbox] {', '.join(hidden[:3])} is hidden from code: it holds keys or private data, and "
                       "the sandbox shows it as empty. This is on purpose; do not try to read it another way.")
        if self.network:
            out.append("[sandbox] The network was blocked: code runs without network access (only its own "
                       "loopback, not the host's). The user can allow it with `--allow_network` (not together "
                       "with --offline).")
        if self.fork:
            limit = f" ({self.max_processes})" if self.max_processes else ""
            out.append(f"[sandbox] The code hit the limit on processes{limit}: starting more was refused. "
                       "Start fewer processes (no fork loops).")
        return out


def _folder(path: str) -> str:
    d = path if os.path.isdir(path) else os.path.dirname(path)
    return d or "/"
