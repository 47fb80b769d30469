"""Missing names: asked for the phone number of a person who is not in the contacts file the request
names, the 0.5B model printed the file's first row and answered with it (ho48, read after that set's end).
When a request that asks to change nothing names a person by a full name ("Mark Jensen") and a file of
people (a column of names, or a text with several full names) that has no row with that name, and no other
file here has it either, the code is not run and the turn ends saying so, with the rows that share a part of
the name ("Mark Jenkins", "Karen Jensen"), so that a near miss is not taken for the person."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from oi_local.core.rules.base import Rule, StopAndSay
from oi_local.core.rules.turn import instruction

NOTE = "Not run: {file} has no {name}."
SAY = "{file} has no one called {name}, so I cannot answer that from it.{near}"
NEAR = " The rows with part of that name are about someone else: {rows}."
# "Mark Jensen", "Anne-Marie O'Neil", "Mark Jensen's": two or three capitalised words
_FULL_NAME = re.compile(r"(?<![\w'])([A-Z][a-zA-Z'’-]+(?: [A-Z][a-zA-Z'’-]+){1,2})")
# capitalised words that start a request or name no one: kept out of a name's ends
_NOT_NAMES = set("""what whats what's who whos who's where when which how hi hey hello please can could would will
find get give show tell look list print is are do does did i i'm my our the a an and or in on of for to from with
thanks thank ok okay yes no dear also then now just email phone number address call text ring message mail
january february march april may june july august september october november december monday tuesday wednesday
thursday friday saturday sunday excel python csv json pdf""".split())
_PEOPLE_COLUMN = re.compile(r"name|first|last|surname|contact|person|people|member|customer|client|employee|staff|"
                            r"student|owner|author|guest|player|friend|who", re.I)
_DATA = (".csv", ".tsv", ".json", ".txt", ".md", ".vcf", ".yaml", ".yml", ".log")
MAX_BYTES = 2_000_000


def asked_names(words: str) -> list[str]:
    """The full names the request gives, with leading and trailing words that name no one dropped."""
    found = []
    for m in _FULL_NAME.finditer(words):
        parts = [re.sub(r"['’]s$", "", p) for p in m.group(1).split()]
        while parts and parts[0].lower() in _NOT_NAMES:
            parts.pop(0)
        while parts and parts[-1].lower() in _NOT_NAMES:
            parts.pop()
        if len(parts) >= 2:
            found.append(" ".join(parts))
    return list(dict.fromkeys(found))


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[_\t]", " ", text).casefold().split())


def _has(text: str, name: str) -> bool:
    """The name is in the text as a phrase, or all its words are on one line (first and last name columns)."""
    if re.search(rf"(?<!\w){re.escape(_plain(name))}(?!\w)", _plain(text)):
        return True
    words = [w.casefold() for w in name.split()]
    return any(all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", line.casefold()) for w in words) for line in text.splitlines())


def _labels(path: Path, text: str) -> set[str]:
    """The words of a CSV's column names or a JSON file's keys: "Berlin Office" of a file with an office column
    names a place and a column, not a person."""
    if path.suffix.lower() in (".csv", ".tsv"):
        header = next(csv.reader(io.StringIO(text), delimiter="\t" if path.suffix.lower() == ".tsv" else ","), [])
    elif path.suffix.lower() == ".json":
        header = re.findall(r'"([^"\n]{1,40})"\s*:', text)
    else:
        return set()
    return {w.casefold() for h in header for w in re.findall(r"[A-Za-z]+", h)}


def _of_people(path: Path, text: str) -> bool:
    """A file of people: a CSV whose header has a column of names, JSON with such a key, or a text with
    several full names."""
    if path.suffix.lower() in (".csv", ".tsv"):
        header = next(csv.reader(io.StringIO(text), delimiter="\t" if path.suffix.lower() == ".tsv" else ","), [])
        return any(_PEOPLE_COLUMN.search(c) for c in header)
    if path.suffix.lower() == ".json":
        return bool(re.search(r'"(?:[^"]*(?:' + _PEOPLE_COLUMN.pattern + r')[^"]*)"\s*:', text, re.I))
    return len(set(asked_names(text))) >= 3


def _near(text: str, name: str) -> list[str]:
    words = [w.casefold() for w in name.split() if len(w) > 2]
    rows = [ln.strip() for ln in text.splitlines()[1:]
            if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", ln.casefold()) for w in words)]
    return [r if len(r) <= 80 else r[:77] + "..." for r in rows[:3]]


def _other_files_have(name: str, cwd: Path, named: Path) -> bool:
    for p in sorted(cwd.iterdir())[:300]:
        if p.is_file() and p.resolve() != named.resolve() and p.suffix.lower() in _DATA and p.stat().st_size <= MAX_BYTES:
            if _has(p.read_text(encoding="utf-8", errors="replace"), name):
                return True
    return False


def absent(request: str, cwd: Path) -> tuple[str, str, list[str]] | None:
    """(file, name, rows sharing a part of it) when the request asks about a person its file of people lacks."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.writes import asks_change

    words = instruction(request)
    names = asked_names(words)
    if not names or asks_change(words):  # "add Mark Jensen to contacts.csv": the name is to be written
        return None
    files = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in _DATA]
    if len(files) != 1 or files[0].stat().st_size > MAX_BYTES:
        return None
    text = files[0].read_text(encoding="utf-8", errors="replace")
    if not _of_people(files[0], text):
        return None
    labels = _labels(files[0], text)
    for name in names:
        if _has(text, name) or labels & {w.casefold() for w in name.split()} or _other_files_have(name, cwd, files[0]):
            continue
        return files[0].name, name, _near(text, name)
    return None


def _found(request: str, cwd: Path) -> tuple[str, str] | None:
    got = absent(request, cwd)
    if got is None:
        return None
    file, name, rows = got
    near = NEAR.format(rows="; ".join(rows)) if rows else ""
    return NOTE.format(file=file, name=name), SAY.format(file=file, name=name, near=near)


hooks = StopAndSay("missing names", _found)

rule = Rule(
    name="missing names", setting="repair_slips", check=hooks.check, finish=hooks.finish,
    summary="a request that changes nothing asks about a person by full name in a file of people (a column of names, "
            "or a text of several) that has no row with that name, nor does any other file here: the code is not run "
            "and the turn ends saying so, with the rows that share a part of the name (a name with a word of a column's "
            "name in it, \"Berlin Office\", is no person)")
