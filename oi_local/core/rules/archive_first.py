"""Archive first: "Zip up the .log files in the logs folder that haven't been modified in more than 30 days
into old_logs.zip in this folder, then delete those originals." The 0.5B model's code only deleted them,
and the turn ended "not done: old_logs.zip was not created" (ho42, at the start and the end of session
43; `%undo files` brought them back). When a request names an archive to make (a .zip, .tar, .tar.gz,
.tgz or .7z that is not there yet) and asks for originals to go, code that deletes files without making
that archive in the same block is not auto-run: the model is told to make the archive first."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.question_writes import refuse
from oi_local.core.rules.turn import Block, Turn, instruction

NOTE = ("Not run: this code deletes files but does not make {archive}, which the request asks for first. Write code "
        "that puts the files into {archive}, checks they are in it, and only then deletes them.")
WARNING = "this code deletes files but does not make {archive}, which the request asks for first."
_ARCHIVE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:zip|tar\.gz|tar\.bz2|tar\.xz|tgz|tar|7z))\b", re.I)
_GO = re.compile(r"\b(?:delet\w*|remov\w*|get\s+rid|clear\s+out|clean\s+up)\b", re.I)
_MAKES = re.compile(r"\bzipfile\b|\bmake_archive\b|\btarfile\b|\bpy7zr\b|\b(?:zip|tar|7z)\s+-", re.I)


def asked(request: str, cwd: Path) -> str | None:
    """The archive the request asks to make before originals go, or None."""
    from oi_local.core.writes import unnegated

    words = unnegated(instruction(request))
    if not _GO.search(words):
        return None
    made = [a for a in dict.fromkeys(_ARCHIVE.findall(words)) if not (cwd / a).exists()]
    return made[0] if len(made) == 1 else None


def check(turn: Turn, block: Block) -> Verdict | None:
    archive = asked(turn.request, Path.cwd())
    if archive is None or Path(archive).exists():
        return None  # made by an earlier run: the deletion may follow
    from oi_local.core.writes import removes_any

    try:
        deletes = removes_any(block.lang, block.code, moves=False)
    except (SyntaxError, ValueError):
        return None
    if not deletes or (Path(archive).name in block.code and _MAKES.search(block.code)):
        return None
    return refuse(turn, NOTE.format(archive=archive), WARNING.format(archive=archive))


rule = Rule(
    name="archive first", guards=True, setting="confirm_destructive", check=check,
    summary="a request that names an archive to make (.zip, .tar, .tgz, .7z) and asks for the originals to go: code "
            "that deletes files without making that archive in the same block is not auto-run; the model is told "
            "to make the archive first")
