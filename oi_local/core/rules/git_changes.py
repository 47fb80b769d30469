"""Git changes: asked "Someone changed the timeout in settings.ini from 30 to 5 and now our requests keep failing.
Which commit did that, and who made it?", the 0.5B model wrote a git log line that did not parse, then rewrote
settings.ini itself (ho42). Which commit changed a line is in each commit's diff of that file. When a request
asks which commit (or who, or when) changed, added or removed something in a file of the git repository here,
code that does not look at the file's diffs (git log -S/-G/-p, git blame) is not run and the model is given the
code that does: each commit whose diff of that file adds a line with the term (with the new value, and takes one
away with the old, when the request gives them), newest first, with its hash, author, date and message."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: find the commit that changed {what} in {file}, and who made it."
SHOWN = "Not run: the code does not look at the commits' changes to {file}; asked afresh with the code that does."
_ASKS = re.compile(r"\b(?:which|what)\s+commits?\b|\bwho\s+(?:\w+\s+)?(?:chang|set|made|did|introduc|add|remov|delet|broke|"
                   r"edit|bump|lower|rais|modif|turn)\w*|\bwhen\s+(?:was|did|were)\b[^.?!]*\b(?:chang|set|introduc|add|"
                   r"remov|delet|modif)\w*", re.I)
_CHANGED = re.compile(r"\b(?:chang|set|introduc|add|remov|delet|modif|bump|edit|updat|lower|rais|increas|decreas|"
                      r"turn|switch)\w*\s+(?:the\s+|a\s+|our\s+)?(?:\"([^\"\n]+)\"|'([^'\n]+)'|`([^`\n]+)`|"
                      r"([\w.-]+(?:\s+[\w.-]+)?)\s+(?:setting\s+|value\s+|option\s+|line\s+)?(?:in|of|on|inside)\b)", re.I)
_VALUES = re.compile(r"\bfrom\s+[\"'`]?([\w.:/-]+)[\"'`]?\s+to\s+[\"'`]?([\w.:/-]+)", re.I)
_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.[A-Za-z][\w]{0,6})(?![\w/-])")
_LOOKS = re.compile(r"\bgit\s+(?:log\b[^\n]*(?:\s-[SGp]|--patch|-L)|blame\b)|[\"']-[SGp][\"']|[\"']blame[\"']|[\"']--patch[\"']")


def asked(request: str, cwd: Path) -> tuple[str, str, str | None, str | None] | None:
    """(file, term, old value or None, new value or None) when the request asks which commit changed the term
    in a file of the git repository here."""
    words = instruction(request)
    if not _ASKS.search(words) or not (cwd / ".git").exists():
        return None
    files = [f for f in dict.fromkeys(_FILE.findall(words)) if (cwd / f).is_file()]
    m = _CHANGED.search(words)
    if len(files) != 1 or m is None:
        return None
    term = next(g for g in m.groups() if g).strip()
    if term.lower() in (files[0].lower(), "it", "this", "that", "something", "anything", "file", "the file"):
        return None
    values = _VALUES.search(words[m.start():])
    old, new = (values.group(1), values.group(2)) if values else (None, None)
    return files[0], term, old, new


def ready_code(file: str, term: str, old: str | None, new: str | None) -> str:
    return (f"import re\nimport subprocess\nfile, term, old, new = {file!r}, {term!r}, {old!r}, {new!r}\n\n\n"
            "def has(line, value):\n"
            "    return value is None or re.search(r'(?<![\\w.])' + re.escape(value) + r'(?![\\w]|\\.\\d)', line) is not None\n\n\n"
            "def git(*args):\n    return subprocess.run(['git', *args], capture_output=True, text=True, check=True).stdout\n\n\n"
            "found = []\n"
            "for h in git('log', '--format=%H', '--', file).split():\n"
            "    diff = git('show', '--format=', '-U0', h, '--', file).splitlines()\n"
            "    added = [l[1:] for l in diff if l.startswith('+') and not l.startswith('+++')]\n"
            "    removed = [l[1:] for l in diff if l.startswith('-') and not l.startswith('---')]\n"
            "    words = term.lower().split()\n"
            "    if any(all(w in l.lower() for w in words) and has(l, new) for l in added) and \\\n"
            "            (old is None or any(all(w in l.lower() for w in words) and has(l, old) for l in removed)):\n"
            "        found.append(h)\n"
            "for h in found:\n"
            "    print(git('show', '-s', '--date=short', '--format=commit %h by %an <%ae> on %ad: %s', h).strip())\n"
            "if not found:\n    print('no commit of', file, 'changed', term, 'that way')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["git changes"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None or _LOOKS.search(block.code):
        return None
    file, term, old, new = found
    turn.counts["git changes"] += 1
    what = term + (f" from {old} to {new}" if old and new else "")
    ask = own_code(turn.engine, NOTE.format(what=what, file=file), ready_code(file, term, old, new))
    return Verdict(note=SHOWN.format(file=file), ask=ask)


rule = Rule(
    name="git changes", setting="repair_slips", check=check,
    summary="asked which commit (or who, or when) changed something in a file of the git repository here, code that "
            "does not look at the file's diffs (git log -S/-G/-p, git blame) is not run; the model is given the code "
            "that does: each commit whose diff adds a line with the term (and the new value, taking away the old one, "
            "when given), newest first, with its hash, author, date and message")
