"""Unseen contacts: asked for a person's phone number or email from files that have none, the 0.5B model
answers with one it made up ("Her number is 555-0142"), and the person may call it. A phone number,
an email address or a street address in the final answer that appears in no file of the working folder,
no output of the conversation and none of the person's messages is not from their data: the turn ends
saying so. Only these kinds of value: a made-up one looks real and is acted on, and none can be worked
out by code (a number can; its check is the answers rule's)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule
from oi_local.core.rules.turn import Turn, last_words

NOTE = "Note: {what} {value} is in none of the files here and in no output: it is not from your data."
# "800-555-1234", "(555) 123-4567", "+44 20 7946 0958", "07700 900123": digit groups with separators
PHONE = re.compile(r"(?<![\w.+-])\+?\(?\d{2,5}\)?(?:[ .-]\(?\d{2,5}\)?){1,4}(?![\w-]|\.\d)")
_DATE = re.compile(r"^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$|^\d{1,2}:\d{2}")
EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
STREET = re.compile(r"\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Way|Close|"
                    r"Court|Ct|Boulevard|Blvd|Place|Pl|Terrace|Crescent|Square)\b\.?")
MAX_FILES, MAX_BYTES = 300, 2_000_000


def _phones(text: str) -> list[str]:
    found = []
    for m in PHONE.finditer(text):
        value = m.group(0).strip()
        digits = re.sub(r"\D", "", value)
        if 7 <= len(digits) <= 15 and not _DATE.match(value) and not re.fullmatch(r"[\d.]+", value):
            found.append(value)
    return found


def _folder_text(root: Path) -> str:
    """The text of the working folder's files (a few hundred, small ones), for looking values up."""
    parts: list[str] = []
    for base, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if len(parts) >= MAX_FILES:
                return "\n".join(parts)
            p = Path(base) / name
            try:
                if p.stat().st_size <= MAX_BYTES:
                    parts.append(p.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    return "\n".join(parts)


def _digits_in(digits: str, text: str) -> bool:
    return digits in re.sub(r"[\s().+-]", "", text)


def unseen(said: str, evidence: str) -> list[tuple[str, str]]:
    """(kind, value) for each phone number, email or street address in `said` that `evidence` lacks."""
    low = evidence.lower()
    out = []
    for value in dict.fromkeys(_phones(said)):
        if not _digits_in(re.sub(r"\D", "", value), evidence):
            out.append(("the phone number", value))
    for value in dict.fromkeys(EMAIL.findall(said)):
        if value.lower() not in low:
            out.append(("the email address", value))
    for value in dict.fromkeys(STREET.findall(said)):
        if " ".join(value.rstrip(".").split()[:2]).lower() not in " ".join(low.split()):
            out.append(("the address", value.rstrip(".")))
    return out


def finish(turn: Turn) -> str | None:
    said = last_words(turn)
    if not (_phones(said) or EMAIL.search(said) or STREET.search(said)):
        return None
    seen = [str(m.get("content", "")) for m in turn.engine.messages
            if m["role"] in ("user", "computer") and isinstance(m.get("content"), str)]
    found = unseen(said, "\n".join(seen) + "\n" + _folder_text(Path.cwd()))
    if not found:
        return None
    return " ".join(NOTE.format(what=what, value=value) for what, value in found[:2])


rule = Rule(
    name="unseen contacts", setting="honest_end", finish=finish,
    summary="a final answer that gives a phone number, an email address or a street address found in no file of the "
            "working folder, no output and none of the person's messages ends with a note that it is not from their "
            "data (asked for a phone number the files do not have, the 0.5B model made one up)")
