"""Log counts: "How many failed password attempts are in auth.log?" The 0.5B model answered 12 from
nothing, then ran `ssh root`, then counted the lines that start with "root": 0 (ho41). Asked how many
requests in a log got a 404, it counted the lines of one page. When a "how many" question names one
.log file that is there, the words of the question are looked up in the log: the longest run of them
(kept in the question's order; a word's endings may differ, "attempts" for "attempt") found in its
lines is what is counted; a word in capitals (ERROR) is matched in capitals. If the model's code does
not look for those words, it is not run, and the model is given code that counts the lines that have
them and says which words it counted."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, newest_reply, own_code

NOTE = "(Write one ```python block that does what I asked: count the lines of {file} that have {phrase!r}."
SHOWN = "Not run: the code does not count the lines of {file} that have {phrase!r}; asked afresh with the code that does."
ANSWER = "(Answer my question in one sentence with what the code printed: {line})"
MAX_BYTES = 20_000_000  # a bigger log is read by the code, not looked at here
_HOW_MANY = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bhow\s+often\b", re.I)
LOG_FILE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.log)\b")
_TOKEN = re.compile(r"\d+(?:\.\d+){1,3}(?::\d+)?|\d+s?\b|[A-Za-z][\w'-]+|\d+")
# Words that say how to count or where, not what: "how many lines in server.log contain the word ERROR"
_SAYS_NOTHING = frozenset("""how many much number often times time are is was were be been there here in inside into of on at by
for from to with within the a an and or any all every each some my our your his her their its this that these those it me
you we i they he she can could would will please tell show give say count counted counting total altogether so far
lines line entries entry log logs file files does do did has have had got get gets getting appear appears appeared
mention mentions mentioned contain contains containing which what where when who word words text string phrase
there's theres today yesterday week month year ever yet still about just only exactly roughly approximately
site website server web through go look tell""".split())
_CAPS = re.compile(r"[A-Z]{3,}")
_ACCESS = re.compile(r"\"[A-Z]+ \S+ HTTP/[\d.]+\" \d{3} ")  # a web server's access log line
WHICH_MOST = re.compile(r"\b(?:which|what)\b(?:[^.?!]|\.(?=\S))*\b(?:most|top|busiest|biggest\s+number)\b|\bmost\s+(?:common|frequent)\b", re.I)


def _stem(word: str) -> str:
    low = word.lower()
    for end in ("ing", "es", "ed", "s"):
        if len(low) > len(end) + 3 and low.endswith(end):
            return low[: -len(end)]
    return low


def _pattern(words: list[str], access: bool = False) -> re.Pattern[str]:
    parts = []
    for w in words:
        w = w[:-1] if re.fullmatch(r"\d+s", w) else w  # "the most 404s"
        if access and re.fullmatch(r"[1-5]\d\d", w):  # a web server's status: after the request, not a size of 404 bytes
            parts.append(rf"\" {w}(?!\S)")
        elif re.fullmatch(r"[\d.:]+", w):  # a status or an address is a field of its own: not the 404 of /fixing-404-errors
            parts.append(rf"(?<![^\s\[(\"']){re.escape(w)}(?![^\s\]),:;\"'])")
        elif _CAPS.fullmatch(w):
            parts.append(rf"\b{re.escape(w)}\b")
        else:
            parts.append(rf"(?i:\b{re.escape(_stem(w))}\w*)")
    return re.compile(r"\W+".join(parts))


def asked(request: str, cwd: Path) -> tuple[str, str, str] | None:
    """(the log, the words counted as they stand in it, the pattern) for a "how many" question about one log."""
    words = instruction(request)
    if not _HOW_MANY.search(words) or "\n" in words.strip() or WHICH_MOST.search(words):
        return None  # "which page ... the most 404s, and how many times?": the top one's count (log_tops.py)
    files = list(dict.fromkeys(f for f in LOG_FILE.findall(words) if (cwd / f).is_file()))
    if len(files) != 1 or (cwd / files[0]).stat().st_size > MAX_BYTES:
        return None
    log = files[0]
    # the sentence that asks ("I think someone is guessing my ssh password. How many failed ... ?")
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])|\n", words)
    rest = next((x for x in sentences if _HOW_MANY.search(x)), words).replace(log, " ")
    asked_words = [t for t in _TOKEN.findall(rest) if t.lower() not in _SAYS_NOTHING and t.lower() != Path(log).stem.lower()]
    if not asked_words:
        return None  # "how many lines are in server.log": every line
    lines = (cwd / log).read_text(encoding="utf-8", errors="replace").splitlines()
    access = sum(bool(_ACCESS.search(line)) for line in lines) > len(lines) / 2
    for n in range(min(3, len(asked_words)), 0, -1):
        found = []
        for i in range(len(asked_words) - n + 1):
            pattern = _pattern(asked_words[i:i + n], access)
            hits = [m.group(0) for line in lines for m in [pattern.search(line)] if m]
            if hits:
                found.append((len(hits), " ".join(asked_words[i:i + n]), pattern.pattern))
        if len(found) == 1:
            return log, found[0][1], found[0][2]
        if found:
            return None  # two runs of words of one length found: which one is asked is not clear
    return None


def ready_code(log: str, phrase: str, pattern: str) -> str:
    return (f"import re\n\npattern = re.compile({pattern!r})\n"
            f"with open({log!r}, encoding='utf-8', errors='replace') as f:\n"
            f"    found = [line.rstrip() for line in f if pattern.search(line)]\n"
            f"print(len(found), 'lines of {log} have {phrase}')\n"
            f"for line in found[:3]:\n    print('  e.g.', line[:160])")


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["log counts"] or block.lang not in ("python", "shell", "bash", "sh"):
        return None
    found = asked(turn.request, Path.cwd())
    if found is None:
        return None
    log, phrase, pattern = found
    first = phrase.split()[0]
    if re.search(re.escape(first[:5]), block.code, re.I) and Path(log).name in block.code:
        return None  # the code looks for those words in the log itself
    turn.counts["log counts"] += 1
    ask = own_code(turn.engine, NOTE.format(file=log, phrase=phrase), ready_code(log, phrase, pattern))
    return Verdict(note=SHOWN.format(file=log, phrase=phrase), ask=ask)


def own_answer(turn: Turn) -> tuple[str, str] | None:
    """(the newest reply, the output it answers) when the last run was the loop's own code and ran cleanly."""
    reply = newest_reply(turn.engine)
    last = turn.runs[-1] if turn.runs else None
    if reply is None or last is None or last.failed or turn.state.get("own code") != last.code.strip():
        return None
    return str(reply.get("content", "")), last.output


def leaves_out(said: str, *values: str) -> bool:
    """One of the printed values is not in the answer (a number as a whole number)."""
    return any(not re.search(rf"(?<![\w.]){re.escape(v)}(?![\w]|\.\d)", said) for v in values)


def answer_again(turn: Turn, key: str, short: Callable[[Turn], bool]) -> Ask | None:
    """Asked once more with the printed line in view; the second time the printed lines say it (`discard`)."""
    if turn.counts[key] or not short(turn):
        return None
    turn.counts[key] += 1
    return Ask(ANSWER.format(line=turn.runs[-1].output.strip().splitlines()[0]), final=True)


def said_short(turn: Turn) -> bool:
    """The answer after this rule's code leaves out the count it printed: the printed lines say it instead."""
    found = own_answer(turn)
    m = re.match(r"(\d+) lines of \S+ have ", found[1]) if found else None
    return found is not None and m is not None and leaves_out(found[0], m.group(1))


def follow_up(turn: Turn) -> Ask | None:
    return answer_again(turn, "log counts answer", said_short)


rule = Rule(
    name="log counts", setting="repair_slips", check=check, discard=said_short, follow_up=follow_up,
    summary="a \"how many\" question about one .log file that is there is looked up in it: the longest run of the "
            "question's words found in its lines (\"failed password\" for \"failed password attempts\"; ERROR in capitals) "
            "is what is counted; code that does not look for those words is not run, and the model is given code that "
            "counts the lines that have them")
