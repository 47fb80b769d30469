"""A `sandbox-exec` profile for macOS with the same intent as the Linux one: reads allowed except
secrets, writes only to the working folder, the temporary folder and granted folders, no network
unless allowed. Written from Apple's SBPL documentation; not tested on a Mac (none was available)."""
from __future__ import annotations

import os
import tempfile

from .policy import Policy


def _q(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def profile(policy: Policy) -> str:
    lines = ["(version 1)", "(allow default)", "(deny file-write*)"]
    writable = [*policy.writable(), os.path.realpath(tempfile.gettempdir()), "/private/tmp", "/private/var/folders"]
    lines.append("(allow file-write* " + " ".join(f"(subpath {_q(p)})" for p in writable)
                 + ' (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))')
    for p in policy.hidden:
        lines.append(f"(deny file-read* file-write* (subpath {_q(os.path.realpath(p))}))")
    if not policy.network:
        lines.append("(deny network*)")
    return "\n".join(lines) + "\n"


def build(policy: Policy, inner: list[str]) -> list[str]:
    return ["/usr/bin/sandbox-exec", "-p", profile(policy), *inner]
