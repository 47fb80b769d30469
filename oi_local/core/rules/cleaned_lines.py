"""Cleaned lines: "clean up signup_emails.txt -> write clean_emails.txt with one address per line, all
lowercase, no duplicates, no blank lines, sorted a-z". The 0.5B model dropped the exact doubles, wrote
the rest as they were, and said "12 lines -> 12" (ho50). When a request asks for a text file's lines
cleaned up into a new file it names, in at least two of these ways: lower (or upper) case, no
duplicates, no blank lines, sorted (a-z or z-a), and the run failed or the new file's lines (spaces
around and blank lines aside) are not the named file's lines done that way, the loop offers its own
code that does it, once a turn."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, instruction, own_code

NOTE = "(That did not write {target} as asked: the lines of {source}{ways}."
HOW = "This block writes it and prints it; reply with it, then say what it wrote."
MAX_BYTES = 2_000_000
TEXT = {".txt", ".md", ".list", ".lst", ".log", ""}
WAYS = {
    "lower": re.compile(r"\blower\s*-?\s*case\w*|\bsmall\s+letters\b", re.I),
    "upper": re.compile(r"\bupper\s*-?\s*case\w*|\ball\s+caps\b|\bcapital\s+letters\b", re.I),
    # "drop the duplicates and blank lines": the way a few words after the word that asks it
    "unique": re.compile(r"\b(?:no|without|remov\w*|drop\w*|delet\w*|rid\s+of|strip\w*|minus)\b[^.;:?!]{0,40}?"
                         r"\b(?:duplicat\w*|dupes?|doubles|repeat\w*)|\bde-?dup\w*|\bunique\b|\bduplicates?\s+(?:removed|gone)",
                         re.I),
    "no blanks": re.compile(r"\b(?:no|without|remov\w*|drop\w*|delet\w*|skip\w*|rid\s+of|strip\w*)\b[^.;:?!]{0,40}?"
                            r"\b(?:blank|empty)\b|\b(?:blank|empty)\s+lines?\s+(?:removed|gone)", re.I),
    "sorted": re.compile(r"\bsort\w*|\balphabetic\w*|\b[aA]\s*(?:-|to|–)\s*[zZ]\b|\b[zZ]\s*(?:-|to|–)\s*[aA]\b", re.I),
}
_REVERSED = re.compile(r"\b[zZ]\s*(?:-|to|–)\s*[aA]\b|\breverse\w*|\bdescending\b", re.I)
_SAID = {"lower": "in lower case", "upper": "in upper case", "unique": "without duplicates", "no blanks": "without blank lines",
         "sorted": "sorted"}


def asked(request: str, cwd: Path) -> dict[str, Any] | None:
    """(source, target, ways, reversed) of such a request, or None."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.rules.extract_items import asked as extracted
    from oi_local.core.rules.outputs import TARGET

    words = instruction(request)
    if extracted(request, cwd) is not None:  # "get every email address mentioned in thread.txt": rule extract items
        return None
    ways = [w for w, pattern in WAYS.items() if pattern.search(words)]
    if "lower" in ways and "upper" in ways or len(ways) < 2:
        return None
    base = cwd.resolve()
    sources = [p for p in mentioned_paths(words, cwd) if p.is_file() and p.suffix.lower() in TEXT]
    names = list(dict.fromkeys(m.group(1).rstrip(".") for m in TARGET.finditer(words)))
    targets = [n for n in names if Path(n).suffix.lower() in TEXT]  # (there after the run)
    if len(targets) != 1:
        return None
    sources = [p for p in sources if p != (base / targets[0]).resolve()]
    if len(sources) != 1 or sources[0].stat().st_size > MAX_BYTES:
        return None
    source = str(sources[0].relative_to(base)) if sources[0].is_relative_to(base) else str(sources[0])
    return {"source": source, "target": targets[0], "ways": ways, "reversed": bool(_REVERSED.search(words))}


def cleaned(lines: list[str], ways: list[str], backwards: bool, fold: bool = False) -> list[str]:
    """`lines` stripped and done the asked ways, blank lines left out (`fold`: sorted aside from case)."""
    out = [ln.strip() for ln in lines if ln.strip()]
    out = [ln.lower() for ln in out] if "lower" in ways else [ln.upper() for ln in out] if "upper" in ways else out
    if "unique" in ways:
        out = list(dict.fromkeys(out))
    if "sorted" in ways:
        out.sort(key=str.casefold if fold else None, reverse=backwards)
    return out


def ready_code(found: dict[str, Any]) -> str:
    ways, source, target = found["ways"], found["source"], found["target"]
    steps = [f"with open({source!r}, encoding='utf-8', errors='replace') as f:",
             "    lines = [line.strip() for line in f if line.strip()]  # spaces around and blank lines gone"]
    if "lower" in ways or "upper" in ways:
        case = "lower" if "lower" in ways else "upper"
        steps.append(f"lines = [line.{case}() for line in lines]")
    if "unique" in ways:
        steps.append("lines = list(dict.fromkeys(lines))  # each line once, the first kept")
    if "sorted" in ways:
        steps.append(f"lines.sort(key=str.casefold{', reverse=True' if found['reversed'] else ''})")
    steps += [f"with open({target!r}, 'w', encoding='utf-8') as f:", "    f.write('\\n'.join(lines) + '\\n')",
              f"print(len(lines), 'lines written to', {target!r})", "print('\\n'.join(lines[:30]))"]
    return "\n".join(steps)


def done(found: dict[str, Any]) -> bool:
    """Whether the target holds the source's lines done the asked ways (spaces around and blank lines aside)."""
    try:
        with open(found["source"], encoding="utf-8", errors="replace") as f:
            source = f.read().splitlines()
        with open(found["target"], encoding="utf-8", errors="replace") as f:
            written = [ln.strip() for ln in f.read().splitlines() if ln.strip()]
    except OSError:
        return False
    return any(written == cleaned(source, found["ways"], found["reversed"], fold) for fold in (False, True))


def after_run(turn: Turn) -> Ask | None:
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.interrupted or turn.counts["cleaned lines"]:
        return None
    try:
        found = asked(turn.request, Path.cwd())
    except (OSError, UnicodeError):
        return None
    if found is None or not last.failed and done(found) or not os.path.isfile(found["source"]):
        return None
    turn.counts["cleaned lines"] += 1
    ways = ", ".join(_SAID[w] for w in found["ways"] if w in _SAID)
    return own_code(turn.engine, NOTE.format(target=found["target"], source=found["source"], ways=" " + ways if ways else ""),
                    ready_code(found), HOW)


rule = Rule(
    name="cleaned lines", setting="check_outputs", after_run=after_run,
    summary="asked for a text file's lines cleaned up into a new file it names in two or more ways (lower or upper case, no "
            "duplicates, no blank lines, sorted a-z or z-a): a run that failed or wrote other lines gets the loop's own code "
            "that does it (once a turn)")
