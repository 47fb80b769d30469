"""Git authors: asked "in the garden-app git repo, who made the most commits in 2024, and how many?", the 0.5B
model ran `git log --since=2024-05-01 --max-count=1` (a worked example's date) and answered with the one
newest author (ho38). When a request asks who made the most (or how many each made) commits in a git
repository that is there (a folder it names, or this one), narrowed at most by a year or a month of a
year, code that does not count commits per author is not run and the model is given the code that
does: each author with their count, most first, and a `most commits:` line."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = ("(Write one ```python block that does what I asked: count the commits of each author in {repo}{when}.")
SHOWN = "Not run: the code does not count the commits of each author; asked afresh with the code that does."
_ASKS = re.compile(r"\bcommit\w*\b", re.I)
# not "who made the last commit" (core/rules/git_log.py)
_PER = re.compile(r"\b(?:most|more|fewest|least)\s+commits\b|\bcommitted\s+(?:the\s+)?most\b|\b(?:each|every|per|by)\s+"
                  r"(?:author|person|developer|contributor|committer)\b|\b(?:who|which\s+(?:author|person|developer|"
                  r"contributor|committer))\b[^.?!]*\b(?:most|more|fewest|least)\b", re.I)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_COUNTS = re.compile(r"shortlog|Counter|value_counts|\+=\s*1|\.count\(|defaultdict")


def _span(words: str) -> tuple[str, str] | None | bool:
    """(since, until) of the one year (and month) named; None when none is; False when other numbers are."""
    years = set(re.findall(r"\b(?:19|20)\d\d\b", words))
    rest = re.sub(r"\b(?:19|20)\d\d\b", "", words)
    if re.search(r"\d", rest) or len(years) > 1:
        return False
    if not years:
        return None if not re.search(rf"\b(?:{'|'.join(_MONTHS)})\b", words, re.I) else False
    year = int(years.pop())
    months = [i + 1 for i, m in enumerate(_MONTHS) if re.search(rf"\b{m}\b", words, re.I)]
    if len(months) > 1:
        return False
    if months:
        m = months[0]
        end = f"{year + 1}-01-01" if m == 12 else f"{year}-{m + 1:02d}-01"
        return f"{year}-{m:02d}-01T00:00:00", f"{end}T00:00:00"
    return f"{year}-01-01T00:00:00", f"{year + 1}-01-01T00:00:00"


def asked(request: str, cwd: Path) -> tuple[str, tuple[str, str] | None] | None:
    """(the repository, the span) when the request asks for commits per author of a repository there."""
    from oi_local.core.hints import mentioned_paths

    words = instruction(request)
    if not (_ASKS.search(words) and _PER.search(words)):
        return None
    repos = [p for p in mentioned_paths(words, cwd) if p.is_dir() and (p / ".git").exists()]
    if not repos and (cwd / ".git").exists():
        repos = [cwd]
    span = _span(words)
    if len(repos) != 1 or span is False or span is True:
        return None
    return os.path.relpath(repos[0], cwd.resolve()), span


def ready_code(repo: str, span: tuple[str, str] | None) -> str:
    dates = f", \"--since={span[0]}\", \"--until={span[1]}\"" if span else ""
    return ("import subprocess\nfrom collections import Counter\n"
            f"out = subprocess.run([\"git\", \"-C\", {repo!r}, \"log\"{dates}, \"--format=%an\"], "
            "capture_output=True, text=True, check=True).stdout\n"
            "counts = Counter(line for line in out.splitlines() if line)\n"
            "for name, n in counts.most_common():\n    print(name, n)\n"
            "if counts:\n    name, n = counts.most_common(1)[0]\n    print('most commits:', name, n)\n"
            "else:\n    print('no commits in that time')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["git authors"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None or (_COUNTS.search(block.code) and "%an" in block.code or "shortlog" in block.code):
        return None
    repo, span = found
    turn.counts["git authors"] += 1
    when = f" from {span[0][:10]} to before {span[1][:10]}" if span else ""
    ask = own_code(turn.engine, NOTE.format(repo=repo, when=when), ready_code(repo, span))
    return Verdict(note=SHOWN, ask=ask)


rule = Rule(
    name="git authors", setting="repair_slips", check=check,
    summary="asked who made the most commits (or how many each made) in a git repository that is there, narrowed "
            "at most by a year or a month, code that does not count commits per author is not run and the model is "
            "given the code that does: each author with their count, most first, and a `most commits:` line")
