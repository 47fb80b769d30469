"""File sizes: "My disk is filling up. Which files in my Downloads folder are bigger than 1 MB?" The 0.5B model
counted them (3), answered "3 files ...", then, asked for the files themselves, printed a generator (ho52). When a
request asks which files of one named folder are bigger or smaller than a size with a unit (KB, MB, GB), names no
kind of file and asks no count, the files are known before code runs: a run that failed or printed not every one
of their names gets the loop's own code that lists them with their sizes, once a turn. 1 MB is 1024 * 1024 bytes.
Listed by the last run and left out of the answer, the turn ends with them."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, last_words, own_code

NOTE = "(That did not list the files of {folder} {than} {size}."
HOW = "This block lists them; reply with it, then answer with the files it prints."
_ASKS = re.compile(r"\b(?:which|what|list|show|find|tell)\b[^.?!]{0,80}?\bfiles?\b[^.?!]{0,80}?\b(?P<cmp>bigger|larger|"
                   r"over|more|above|greater|smaller|under|less|below)\s+(?:than\s+)?(?P<n>\d+(?:\.\d+)?)\s*"
                   r"(?P<unit>[kmgt]i?b|bytes|kilobytes?|megabytes?|gigabytes?|kb|mb|gb)\b", re.I)
_UNITS = {"b": 0, "k": 1, "m": 2, "g": 3, "t": 4}
_SMALLER = {"smaller", "under", "less", "below"}
# a count asked, or some kind of file: not all files by size
_OTHER = re.compile(r"\bhow\s+many\b|\bcount\b|\bnumber\s+of\b|\.\w{2,4}\b|\b(?:pdfs?|videos?|photos?|images?|pictures?|"
                    r"music|songs?|documents?|zips?|archives?|installers?|csvs?|logs?)\b", re.I)
_DEEP = re.compile(r"\bsub-?folders?\b|\banywhere\b|\brecursiv\w*|\bnested\b|\bfolders?\s+(?:in|inside|under)\s+it\b", re.I)


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    """The folder, the comparison and the size in bytes of a which-files-by-size request, or None."""
    from oi_local.core.rules.named_folder import named_folders

    words = instruction(request)
    m = _ASKS.search(words)
    if m is None or _OTHER.search(words):
        return None
    folders = named_folders(words, cwd)
    if len(folders) != 1:
        return None
    unit = m.group("unit").lower()
    power = 0 if unit.startswith("byte") else _UNITS.get(unit[0], 0)
    label = "bytes" if power == 0 else "KMGT"[power - 1] + "B"
    smaller = m.group("cmp").lower() in _SMALLER
    return {"folder": folders[0][0], "written": folders[0][1], "smaller": smaller,
            "than": "smaller than" if smaller else "bigger than", "n": m.group("n"),
            "bytes": float(m.group("n")) * 1024 ** power, "power": power, "label": label, "deep": bool(_DEEP.search(words))}


def matching(found: dict[str, Any]) -> list[Path]:
    folder: Path = found["folder"]
    files = folder.rglob("*") if found["deep"] else folder.iterdir()
    return [p for p in files if p.is_file() and ((p.stat().st_size < found["bytes"]) if found["smaller"]
                                                 else (p.stat().st_size > found["bytes"]))]


def ready_code(found: dict[str, Any]) -> str:
    cmp = "<" if found["smaller"] else ">"
    walk = "folder.rglob('*')" if found["deep"] else "folder.iterdir()"
    scale = f"1024 ** {found['power']}" if found["power"] else "1"
    return (f"from pathlib import Path\nfolder = Path({found['written']!r})\nlimit = {found['n']} * {scale}  # {found['n']} "
            f"{found['label']}\nfound = sorted((p for p in {walk} if p.is_file() and p.stat().st_size {cmp} limit),\n"
            f"               key=lambda p: p.stat().st_size, reverse=True)\nfor p in found:\n"
            f"    print(f'{{p.relative_to(folder)}}: {{p.stat().st_size / {scale}:.1f}} {found['label']}')\n"
            f"print(len(found), 'files {found['than']} {found['n']} {found['label']} in', folder)")


def _found(turn: Turn) -> tuple[dict[str, Any], list[Path]] | None:
    """What the request asks and the files that answer it (the biggest first), or None."""
    try:
        found = asked(turn.request, Path.cwd())
        files = sorted(matching(found), key=lambda p: p.stat().st_size, reverse=True) if found else []
    except OSError:
        return None
    return (found, files) if found and files else None


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["file sizes"]:
        return None
    got = _found(turn)
    if got is None or (not last.failed and all(p.name in last.output for p in got[1])):
        return None
    found = got[0]
    turn.counts["file sizes"] += 1
    return own_code(turn.engine, NOTE.format(folder=found["written"], than=found["than"], size=f"{found['n']} {found['label']}"),
                    ready_code(found), HOW)


def finish(turn: Turn) -> str | None:
    """Listed by the last run and not said: the turn ends with them (the listing ran, and the model answered with its
    last line alone, "3 files bigger than 1 MB in ...": ho52)."""
    last = turn.runs[-1] if turn.runs else None
    got = _found(turn) if last is not None and not last.failed and not last.interrupted else None
    if got is None or last is None:
        return None
    found, files = got
    said = last_words(turn)
    if not all(p.name in last.output for p in files) or all(p.name in said for p in files):
        return None
    scale = 1024 ** found["power"]
    return (f"The files {found['than']} {found['n']} {found['label']}: "
            + ", ".join(f"{p.relative_to(found['folder'])} ({p.stat().st_size / scale:.1f} {found['label']})" for p in files) + ".")


rule = Rule(
    name="file sizes", setting="check_answers", after_run=after_run, finish=finish,
    summary="a request that asks which files of one named folder are bigger or smaller than a size with a unit (no kind "
            "of file, no count asked): a run that failed or printed not every one of their names gets the loop's own "
            "code that lists them with their sizes (once a turn; 1 MB is 1024 * 1024 bytes); listed and not said, the turn "
            "ends with them")
