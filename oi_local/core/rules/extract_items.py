"""Extract items: asked "Get every email address mentioned in thread.txt and save them to emails.txt, one per line,
in lowercase, sorted alphabetically, with no duplicates", the 0.5B model took the second word of each "From:"
line (ho42); shown a worked example with the right pattern, it put the file's whole text in the pattern's place
and found none. Email addresses and web links have one well-known shape. When a request asks for every email
address (or link) in a text file that is here, code that does not look for that shape is not run and the model is
given the code that does: each one found once (case aside), in the order found, or sorted, or lowercased, as
asked; written one per line to the file the request names to save them in, and printed."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: find every {kind} in {source}{how}.)"
SHOWN = "Not run: the code does not look for the shape of an {kind}; asked afresh with the code that does."
PATTERNS = {"email address": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}", "web link": r"https?://[^\s<>\"'()\[\]]+"}
_KINDS = (("email address", re.compile(r"\be-?mail\s+addresse?s?\b|\be-?mails?\b|\baddresses\b", re.I)),
          ("web link", re.compile(r"\b(?:links?|urls?|web\s*addresse?s?|hyperlinks?)\b", re.I)))
_TAKE = re.compile(r"\b(?:extract\w*|collect\w*|pull\w*|gather\w*|get|list|find|grab\w*|fetch\w*|harvest\w*)\b", re.I)
_EVERY = re.compile(r"\b(?:every|all|each|any)\b", re.I)
# cleaning a list, or a table's column: not finding them in text
_OTHER = re.compile(r"\b(?:remov\w*|delet\w*|dedup\w*|de-dup\w*|clean\w*|tidy\w*|spreadsheet|column|rows?)\b", re.I)
_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.(?:txt|md|log|html?|eml|xml|text))\b", re.I)
_SAVE = re.compile(r"\b(?:save|write|put|store|copy|dump|output|export)\w*\b[^.?!]{0,60}?\b(?:to|in|into|as)\s+(?:a\s+)?"
                   r"(?:(?:new\s+)?file\s+(?:called\s+|named\s+)?)?((?:[\w-]+/)*[\w.-]+\.(?:txt|csv|md|list))\b", re.I)
_CODE_SHAPE = {"email address": re.compile(r"@"), "web link": re.compile(r"https?")}


def asked(request: str, cwd: Path) -> tuple[str, str, str | None, bool, bool] | None:
    """(kind, source file, file to write or None, sorted, lowercase) for "every email address in X (save to Y)"."""
    words = instruction(request)
    if not (_TAKE.search(words) and _EVERY.search(words)) or _OTHER.search(words):
        return None
    kinds = [k for k, pattern in _KINDS if pattern.search(words)]
    if len(kinds) != 1:
        return None
    save = _SAVE.search(words)
    out = save.group(1) if save else None
    sources = [f for f in dict.fromkeys(_FILE.findall(words)) if f != out and (cwd / f).is_file()]
    if len(sources) != 1 or (out is not None and (cwd / out).is_file() and out == sources[0]):
        return None
    ordered = bool(re.search(r"\b(?:sort\w*|alphabetical\w*|a-z|in\s+order)\b", words, re.I))
    lower = bool(re.search(r"\blower\s*-?\s*case\w*|\blower\b|\bsmall\s+letters\b", words, re.I))
    return kinds[0], sources[0], out, ordered, lower


def ready_code(kind: str, source: str, out: str | None, ordered: bool, lower: bool) -> str:
    plural = kind + ("es" if kind.endswith("ss") else "s")
    keep = "found.lower()" if lower else "found"
    lines = ["import re", f"with open({source!r}, encoding='utf-8', errors='replace') as f:", "    text = f.read()",
             "items, seen = [], set()", f"for found in re.findall({PATTERNS[kind]!r}, text):"]
    if kind == "web link":
        lines.append("    found = found.rstrip('.,;:!?')  # the end of a sentence is not part of the link")
    lines += ["    if found.lower() not in seen:  # each one once, whatever its case",
              "        seen.add(found.lower())", f"        items.append({keep})"]
    if ordered:
        lines.append("items.sort(key=str.lower)")
    if out:
        lines += [f"with open({out!r}, 'w', encoding='utf-8') as f:", "    f.write(''.join(item + '\\n' for item in items))",
                  f"print(len(items), {plural + ' written to ' + out + ':'!r})"]
    else:
        lines.append(f"print(len(items), {plural + ':'!r})")
    lines.append("print('\\n'.join(items))")
    return "\n".join(lines)


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["extract items"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    kind, source, out, ordered, lower = found
    if re.search(r"re\.(?:findall|finditer|search|compile)|grep\s+-\w*o", block.code) and _CODE_SHAPE[kind].search(block.code) \
            and source in block.code and (out is None or out in block.code) and len(block.code) < 1500:
        return None  # the code looks for the shape itself
    turn.counts["extract items"] += 1
    how = (", each once" + (", sorted" if ordered else "") + (", in lowercase" if lower else "")
           + (f", written one per line to {out}" if out else ""))
    ask = own_code(turn.engine, NOTE.format(kind=kind, source=source, how=how), ready_code(*found))
    return Verdict(note=SHOWN.format(kind=kind), ask=ask)


rule = Rule(
    name="extract items", setting="repair_slips", check=check,
    summary="asked for every email address (or web link) in a text file that is here, code that does not look for "
            "that shape is not run and the model is given the code that does: each one once, sorted or lowercased as "
            "asked, written one per line to the file named to save them in, and printed")
