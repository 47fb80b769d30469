"""Log tops: "which IP address did most of them come from?" after "How many failed password attempts are
in auth.log?". The 0.5B model printed "0" (ho41); asked which page got the most of a log's 404s, it took
the max of a list of ones (ho40). When a question asks which address, page, user or bracketed name
comes up most in one .log file (named, or named by the question before: "of those", "them"), the lines
are narrowed by the question's words found in them (core/rules/log_counts.py; "of those" by the earlier
question's), and the model is given code that counts that field in them: an IPv4 address, a requested
path ("GET /x"), a user ("for [invalid user] x", "user=x") or a [name]. Code that does not count values
(Counter, most_common, max with a key) is not run."""
from __future__ import annotations

import re
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.log_counts import (
    LOG_FILE,
    WHICH_MOST,
    answer_again,
    leaves_out,
    own_answer,
)
from oi_local.core.rules.log_counts import asked as counted
from oi_local.core.rules.turn import Block, Turn, instruction, own_code

NOTE = "(Write one ```python block that does what I asked: in {file}, find which {kind} comes up most{among}."
SHOWN = "Not run: the code does not count which {kind} comes up most in {file}; asked afresh with the code that does."
_THOSE = re.compile(r"\b(?:those|them|these|they|of\s+it)\b", re.I)
# the field asked for: the regex that finds it in a line (group 1)
FIELDS = {
    "IP address": (re.compile(r"\b(?:ip|ips|address(?:es)?|hosts?|clients?)\b", re.I), r"(?<![\d.])((?:\d{1,3}\.){3}\d{1,3})(?![\d.])"),
    "page": (re.compile(r"\b(?:pages?|urls?|paths?|endpoints?|routes?)\b", re.I), r"\"(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) (\S+)"),
    "user": (re.compile(r"\b(?:users?|usernames?|accounts?|logins?)\b", re.I),
             r"\b(?:for(?: invalid user)?|user[=:]?)\s*([\w.-]+)"),
    "name in brackets": (re.compile(r"\b(?:services?|modules?|components?|daemons?|programs?|square\s+brackets)\b", re.I),
                         r"\[([A-Za-z][\w.-]*)\]"),
}
_ASKING = re.compile(r"\b(?:which|what|most|top|busiest|come|comes|came|coming|from|the|in|of|on)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.I)
# "how many requests did it make" counts the top one's lines; "how many ERROR lines" asks for some lines
_SOME = re.compile(r"\bhow\s+many\s+(?!(?:requests?|times?|hits?|visits?|lines?|entries|accesses|calls|connections|of\s+them)\b)\w+", re.I)


def asked(request: str, earlier: str, cwd: Path) -> tuple[str, str, str, str | None, str] | None:
    """(the log, the field's name, its regex, the lines' pattern or None for all, the words narrowing them)."""
    words = instruction(request)
    if not WHICH_MOST.search(words):
        return None
    kinds = [k for k, (said, _) in FIELDS.items() if said.search(words)]
    if len(kinds) != 1:
        return None
    logs = [f for f in dict.fromkeys(LOG_FILE.findall(words)) if (cwd / f).is_file()]
    follow = not logs and bool(_THOSE.search(words))
    if follow:
        logs = [f for f in dict.fromkeys(LOG_FILE.findall(instruction(earlier))) if (cwd / f).is_file()]
    if len(logs) != 1:
        return None
    log = logs[0]
    # the lines: narrowed by this question's words ("the most 404s"), or the earlier question's ("of those")
    said = FIELDS[kinds[0]][0]
    rest = said.sub(" ", _ASKING.sub(" ", _HOW_MANY.sub(" ", words)))
    own = counted(f"how many {WHICH_MOST.sub(' ', rest)}", cwd) if not follow else None
    narrowed = own or (counted(instruction(earlier), cwd) if follow else None)
    if narrowed is not None and narrowed[0] != log:
        narrowed = None
    if narrowed is None and _SOME.search(words):
        return None  # "how many ERROR lines ... and which service": some lines counted, and which is not clear
    return log, kinds[0], FIELDS[kinds[0]][1], narrowed[2] if narrowed else None, narrowed[1] if narrowed else ""


def ready_code(log: str, kind: str, field: str, lines: str | None, phrase: str) -> str:
    among = f" among the lines that have {phrase}" if lines else ""
    keep = f"pattern = re.compile({lines!r})\n" if lines else ""
    test = "pattern.search(line)" if lines else "line.strip()"
    return (f"import re\nfrom collections import Counter\n\n{keep}field = re.compile({field!r})\ncounts = Counter()\n"
            f"with open({log!r}, encoding='utf-8', errors='replace') as f:\n"
            f"    for line in f:\n"
            f"        if {test}:\n"
            f"            m = field.search(line)\n"
            f"            if m:\n                counts[m.group(1)] += 1\n"
            f"if counts:\n"
            f"    top, n = counts.most_common(1)[0]\n"
            f"    print(f'{{top}} is the {kind} that comes up most{among}: {{n}} lines of {log}')\n"
            f"    print('then:', ', '.join(f'{{k}} ({{v}})' for k, v in counts.most_common(4)[1:]))\n"
            f"else:\n    print('no {kind} found in the lines of {log}{among}')")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["log tops"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, turn.earlier_request, Path.cwd())
    if found is None:
        return None
    log, kind, field, lines, phrase = found
    if re.search(r"\bCounter\b|most_common|\bmax\([^)]*key=|sort\s+\|\s*uniq\s+-c", block.code) and \
            (not phrase or re.search(re.escape(phrase.split()[0][:5]), block.code, re.I)):
        return None  # the code counts values itself
    turn.counts["log tops"] += 1
    among = f" among the lines that have {phrase!r}" if lines else ""
    ask = own_code(turn.engine, NOTE.format(file=log, kind=kind, among=among), ready_code(log, kind, field, lines, phrase))
    return Verdict(note=SHOWN.format(file=log, kind=kind), ask=ask)


_SAID = re.compile(r"^(\S+) is the .+? that comes up most.*?: (\d+) lines of ")


def said_short(turn: Turn) -> bool:
    """The answer after this rule's code leaves out the top one or its count: "10.0.0.5 hit the server the most"
    over "10.0.0.5 ...: 5 lines" (ho34, asked how many requests it made); the printed lines say it instead."""
    found = own_answer(turn)
    m = _SAID.match(found[1]) if found else None
    return found is not None and m is not None and leaves_out(found[0], m.group(1), m.group(2))


def follow_up(turn: Turn) -> Ask | None:
    return answer_again(turn, "log tops answer", said_short)


rule = Rule(
    name="log tops", setting="repair_slips", check=check, discard=said_short, follow_up=follow_up,
    summary="asked which address, page, user or [name] comes up most in one .log file (named, or by the question "
            "before: \"of those\"), among the lines with the question's words, code that counts no values is not run; "
            "the model is given code that counts that field in those lines")
