"""Repeated archives: asked for a tar.gz of the docs folder, the 0.5B model wrote `tar -czf backup.tar.gz docs`
and then three more `tar -czf backup.tar.gz docs/...` lines, each one writing the archive anew, so it held
one file at the end (shell-tar-backup, session 46's whole suite). Shell code in which several `tar` commands
create the same archive has them made into one, with every path they name (a path inside another one
named is left out: it is in the archive already), before it runs; the person is told."""
from __future__ import annotations

import re
import shlex

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {n} tar commands each wrote {archive} anew (each replaces the last), made into one: {command}"
_SHELLS = ("shell", "bash", "sh", "zsh")
_CREATE = re.compile(r"^-?[a-zA-Z]*c[a-zA-Z]*f$")  # -czf, czf, -cvzf: create, the archive next


def _tar(line: str) -> tuple[str, list[str], list[str]] | None:
    """(archive, options, paths) of a plain `tar -c...f archive paths...` line, else None."""
    if re.search(r"[|;&<>`$()]", line):
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if len(words) < 4 or words[0] != "tar" or not _CREATE.match(words[1]):
        return None
    rest = words[3:]
    if any(w.startswith("-") for w in rest):
        return None  # --exclude and the like: left as written
    return words[2], [words[1]], rest


def _inside(path: str, other: str) -> bool:
    a, b = path.strip("/"), other.strip("/")
    return a != b and (b in ("", ".") or a.startswith(b + "/"))


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang not in _SHELLS or block.code.count("tar") < 2:
        return None
    lines = block.code.splitlines()
    found = [(i, _tar(ln.strip())) for i, ln in enumerate(lines)]
    by_archive: dict[str, list[int]] = {}
    for i, parsed in found:
        if parsed:
            by_archive.setdefault(parsed[0], []).append(i)
    archive = next((a for a, rows in by_archive.items() if len(rows) > 1), None)
    if archive is None:
        return None
    rows = by_archive[archive]
    paths: list[str] = []
    for i in rows:
        paths += (found[i][1] or ("", [], []))[2]
    paths = [p for p in dict.fromkeys(paths) if not any(_inside(p, q) for q in paths)]
    option = (found[rows[0]][1] or ("", [""], []))[1][0]
    command = shlex.join(["tar", option, archive, *paths])
    pad = lines[rows[0]][:len(lines[rows[0]]) - len(lines[rows[0]].lstrip())]
    kept = [pad + command if i == rows[0] else ln for i, ln in enumerate(lines) if i not in rows[1:]]
    block.message["content"] = "\n".join(kept) + ("\n" if block.code.endswith("\n") else "")
    return Verdict(warning=NOTE.format(n=len(rows), archive=archive, command=command))


rule = Rule(
    name="repeated archives", setting="repair_slips", check=check,
    summary="shell code in which several `tar -c` commands write the same archive (each replacing the last) has them "
            "made into one command with every path they name before it runs; the person is told")
