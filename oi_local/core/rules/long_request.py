"""Long requests: a message too long for the model to use whole (a pasted log, a document) is split
into the user's own words and the text they pasted. The pasted text goes to a file in the working
folder, and the model sees the words around it (where the question is), the file's name and the
file's first lines, as it sees a file a request names. Before, the context budget cut the middle out
of the prompt, and a 0.5B model given 20,000 characters that way answered "You won't." with
unrelated code; shown the start and the end of the message around the file's name, it made up a
folder to read (`os.listdir("backup-jobs")`), or pasted the visible part into its code and counted
in that. A message that cannot be split (no question before or after the pasted part) is saved whole
and shown by its start and end. Asked why something in the pasted text happened, a run that printed one
of its lines is followed by the lines before that one, and the answer asked for once more."""
from __future__ import annotations

import ast
import hashlib
import os
import re
from pathlib import Path
from typing import Any

from oi_local.core.rules.base import Addition, Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, instruction, own_code, rewrite, split

HEAD, TAIL = 1200, 800  # characters of an unsplit request the model sees around the note
MIN_TOKENS = 1500  # a request over this (or over a quarter of the context budget) is saved
NOTE = ("\n\n[... The whole message ({n} characters) is saved in the file {name} in the working folder. "
        "Read that file with code to use all of it. ...]\n\n")
PASTED = "[The text I pasted ({lines} lines, {n} characters) is saved in the file {name}; read it from there.{first}]"
FIRST = " Its first lines:\n{lines}\n"
FIRST_LINES, LINE_CHARS = 6, 160
MATCH = " All the lines of it that mention {words}:\n{lines}\n"
CLOSEST_MATCH = " All the lines of it that mention {words}, the closest to my question first:\n{lines}\n"
PROSE_MATCH = " The sentences of it that mention {words}, the closest first:\n{lines}\n"
SENTENCE_CHARS = 240  # a matched line or sentence, shown whole: cut at 160, "The new combination is 3948." could be lost
MAX_MATCHES = 10  # a question word on more lines than this tells no line apart ("backup" in a backup log)
_STOP = frozenset("""the and for with that this what which when where who whom whose why how did does was were are
have has had not any all its it's our your my mine his her their them they you can could would should will just
only also very much many more most some than then there here from into onto over under about after before
please thanks thank sorry long copied pasted below above text paste plain english means mean understand really
really tell know want need help look check last first week night day days time times each every other one two
once out off upon ever even yet still back away okay give get got next tomorrow today tonight""".split())
# "once", "out": a lease's question picked them (ho45); "next" (month): the question's when, not what it asks (ho50)
def limit(engine: Any) -> int:
    """The longest request, in characters, that goes to the model whole."""
    try:
        budget = int(engine.llm.effective_context_window()) - int(engine.llm.effective_max_tokens())
    except Exception:  # noqa: BLE001 - no model settings yet: the fixed limit
        budget = 4 * MIN_TOKENS
    return 3 * min(MIN_TOKENS, max(budget // 4, 256))  # about 3 characters per token


def _name(text: str, prefix: str) -> str:
    return f"{prefix}-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}.txt"


def save(text: str, folder: str, prefix: str = "message") -> str | None:
    """Write `text` to <prefix>-<hash>.txt in `folder` (once); its name, or None if it cannot."""
    name = _name(text, prefix)
    path = os.path.join(folder, name)
    try:
        if not os.path.exists(path):
            with open(path, "w", encoding="utf-8", errors="replace") as f:
                f.write(text)
    except OSError:
        return None
    return name


# A pasted text with a question of its own is saved from this length, though the model could take it whole: given a
# 3,418-character email whole with the worked examples, the 0.5B model copied an example's code and answered its
# number (ho52), where pastes over the limit, saved and searched, passed in every whole-suite run.
PASTE_CHARS = 1800


def _long(engine: Any, request: str) -> bool:
    if len(request) > max(limit(engine), HEAD + TAIL + 200):
        return True
    return len(request) > PASTE_CHARS and split(request) is not None


def pasted_parts(engine: Any, request: str) -> tuple[str, str, str] | None:
    """(the words before, the pasted text, the words after) of a request long enough to be split, or None."""
    return split(request) if _long(engine, request) else None


def pasted_file(engine: Any, request: str, folder: str | None = None) -> str | None:
    """The file this long request's pasted text was saved to, when it was split and the file is there."""
    parts = pasted_parts(engine, request)
    if parts is None:
        return None
    name = _name(parts[1] + "\n", "pasted")
    return name if os.path.isfile(os.path.join(folder or os.getcwd(), name)) else None


MISSING_NOTE = "There is no {path} here: the text I pasted is in the file {name}. Read it with open(\"{name}\")."


UNNAMED_NOTE = ("Note: nothing called {var} exists yet. The text I pasted is in the file {name}. With it read "
                "first, the code would be:\n```python\nwith open(\"{name}\") as f:\n    {var} = f.read()\n{code}\n```")
_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")
MAX_CODE = 1500  # longest code shown back with the read added


def on_failure(turn: Turn, lang: str, code: str, output: str) -> str | None:
    """A run that looked for a file other than the pasted text's (`os.listdir("backup-jobs")`) is told
    where the text is; one that used a name for the text that nothing defined (`re.sub(..., text)`:
    the 0.5B model's first code for 2 of 16 pasted requests) gets its code back with the file read
    into that name first."""
    import sys

    from oi_local.core.errors import missing_paths

    found = missing_paths(output)
    undefined = _UNDEFINED.search(output) if lang == "python" else None
    parts = split(turn.request) if (found or undefined) and _long(turn.engine, turn.request) else None
    if parts is None:
        return None
    name = _name(parts[1] + "\n", "pasted")
    if found:
        path = found[-1]
        return None if os.path.basename(path) == name else MISSING_NOTE.format(path=path, name=name)
    var = undefined.group(1) if undefined else ""
    if var in sys.stdlib_module_names or re.search(rf"(?<![\w.]){var}\(", code) or len(code) > MAX_CODE \
            or not os.path.isfile(name):
        return None  # a module or function left out, not the text
    return UNNAMED_NOTE.format(var=var, name=name, code=code.strip())


def _matching_lines(lines: list[str], own: str, prose: bool = False) -> str:
    """The lines of pasted records that hold a rare word of the person's own words (a question about a
    log: "did it FAIL on any night?" → the lines with "fail"): the words found on at most MAX_MATCHES
    lines, the two rarest, and all their lines. Shown only the first lines, the 0.5B model guessed what
    a failure line looks like and its code matched nothing. Of pasted prose, the sentences: asked for
    "the current combination for the tool shed padlock" in a 16,000-character mail thread, the model
    searched for the words "tool shed padlock" together and found nothing (ho44): they are ranked (`_ranked`)."""
    if prose:
        return _best_sentences(lines, own)
    found, filled = rare_words(lines, own)
    rows = sorted({i for _, _, _, hits in found for i in hits})
    tally = _tally(filled, own)
    if not rows:
        return tally
    asked = closeness_words(own)
    rows = closest_first(filled, rows, asked) if asked else rows
    return (MATCH if not asked else CLOSEST_MATCH).format(
        words=" or ".join(f'"{w}"' for _, w, _, _ in found),
        lines="\n".join(filled[i].strip()[:SENTENCE_CHARS] for i in rows[:2 * MAX_MATCHES])) + tally


_HOW_MANY = re.compile(r"\bhow\s+many\s+(?:(?:more|different|separate)\s+)?(\w+)|\bhow\s+often\b|\bnumber\s+of\s+(\w+)", re.I)
_DAYS = re.compile(r"^(?:nights?|days?|dates?|mornings?|evenings?|runs?)$", re.I)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|"
                   r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.I)
TALLY = " Counted by the loop: {lines} lines of it mention {words}, on {dates} different dates ({first} to {last}).\n"
TALLY_DAYS = (" Counted by the loop: the lines of it that mention {words} fall on {dates} different dates ({first} to {last}); "
              "{lines} lines in all.\n")
TALLY_NO_DATES = " Counted by the loop: {lines} lines of it mention {words}.\n"


def _tally(filled: list[str], own: str) -> str:
    """For a "how many" question about pasted records, how many lines hold the question's telling words, and on how many
    dates. Asked "how many nights did the backup actually fail?" of a month's log, the 0.5B model was shown the nine lines
    with "fail" (two a night on three nights) and answered "1 time": it counts neither lines nor nights. A word on half
    the lines or more ("backup" in a backup log) tells none apart; the lines are those that hold every telling word."""
    part = next((q for q in question_parts(own) if _HOW_MANY.search(q)), "")
    m = _HOW_MANY.search(part)
    if m is None or len(filled) < 2 * FIRST_LINES or re.search(r"\bmost\b", own, re.I):
        return ""  # "which job failed the most times, and how many?": one job's count, not all
    unit = m.group(1) or m.group(2) or "times"
    if not (_DAYS.match(unit) or unit.lower() == "times"):
        return ""  # "how many households joined": a sum of the lines' numbers, not a count of lines
    # the words of the question up to the end of its "how many" clause ("..., and the date of the last night it
    # worked?" is another question)
    asked = part[:m.end()] + re.split(r",|;|\?|\band\b", part[m.end():])[0]
    telling = []
    stems = set()
    for w in dict.fromkeys(re.findall(r"[a-z][a-z0-9]{2,}", asked.lower())):
        stem = _stem(w)
        if w in _STOP or len(stem) < 3 or w == unit.lower() or stem in stems:
            continue
        stems.add(stem)
        pattern = re.compile(rf"\b{re.escape(stem)}\w*", re.I)
        on = {i for i, ln in enumerate(filled) if pattern.search(ln)}
        if 0 < len(on) * 2 < len(filled):
            telling.append((len(on), w, on))
    # the lines that hold them all, from the clause's last word back (what happened is said last: "how many times did the
    # photos job fail"); a word on none of those lines is left out: a failure's own line need not name the job
    words: list[str] = []
    hits: set[int] = set()
    for _, w, on in reversed(telling):
        if not words or hits & on:
            words.append(w)
            hits = on if len(words) == 1 else hits & on
    if not hits:
        return ""
    said = " and ".join(f'"{w}"' for _, w, _ in telling if w in words)  # in the question's order
    dates = list(dict.fromkeys(d.group(0) for i in sorted(hits) for d in [_DATE.search(filled[i])] if d))
    if not dates:
        return TALLY_NO_DATES.format(lines=len(hits), words=said)
    return (TALLY_DAYS if _DAYS.match(unit) else TALLY).format(lines=len(hits), words=said, dates=len(dates), first=dates[0],
                                                               last=dates[-1])


_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
# A line break inside a sentence of text wrapped at a fixed width: joined, unless the next line starts with a
# number or a mark (a clause "4.3 ...", a bullet). Split at every line break, the policy's "dinner limit" sentence
# was cut in two, and a heading ("APPENDIX B - HIGH-COST CITIES") lost the list under it (ho50).
_UNWRAP = re.compile(r"(?<![.!?:\n])[ \t]*\n(?=[^\W\d_])")
WRAPPED = 0.2  # the share of lines that run on into the next, lowercase: wrapped text, not one record a line
BEST_SENTENCES = 8
# a count over the whole text is no question a few sentences answer: shown the harbour's sentences, asked how often
# "harbour" was in a story, the 0.5B model answered from them
_COUNTING = re.compile(r"\bhow\s+(?:many\s+times|often)\b|\bcount(?:s|ed|ing)?\b|\boccurr\w*|\bhow\s+many\s+(?:words|lines|"
                       r"sentences|paragraphs|characters|letters)\b|\bnumber\s+of\s+(?:times|words|lines|sentences)\b", re.I)


def _stem(word: str) -> str:
    """"budgets" and "budget" one word (a short word as it is: "bus" is no "bu")."""
    return re.sub(r"(?:ing|ed|es|s)$", "", word) if len(word) > 5 else word


def _stems(text: str) -> list[str]:
    """The question words of `text` as stems, stop words (and stems of them: "nights") left out; a code like
    "e21" is a word."""
    words = re.findall(r"[a-z][a-z0-9]{2,}|[0-9]+[a-z][a-z0-9]*", text.lower())
    return [_stem(w) for w in words if w not in _STOP and _stem(w) not in _STOP and len(_stem(w)) >= 3]


def wrapped(lines: list[str]) -> bool:
    """Text wrapped at a fixed width (a forwarded mail, a policy): many lines run on into the next one, which starts
    in lowercase. Its lines are short, so it looked like records (a log) and was searched line by line (ho50)."""
    full = [ln.rstrip() for ln in lines]
    width = max(map(len, full), default=0)  # a wrapped line runs close to the width the text was wrapped at
    runs = sum(1 for a, b in zip(full, full[1:]) if len(a) >= max(40, 0.6 * width) and b.strip()
               and not re.search(r"[.!?:;]['\")]*$", a) and re.match(r"[a-z(]", b.lstrip()))
    return runs >= WRAPPED * max(1, sum(1 for ln in full if ln.strip()))


def sentences_of(text: str, joined: bool) -> list[str]:
    """The sentences of a pasted prose text (its wrapped lines `joined` first)."""
    return [u.strip() for u in _SENTENCES.split(_UNWRAP.sub(" ", text) if joined else text) if u.strip()]


_ASKED_PART = re.compile(r",?\s+\band\s+(?=(?:what|how|when|where|who|whom|which|whether|why|is|are|was|were|does|do|did|"
                         r"can|will|should)\b)", re.I)
_QUESTION_WORD = re.compile(r"^\W*(?:(?:and|also|so|then|but)\s+)?(?:what|how|when|where|who|whom|which|whether|why|is|are|"
                            r"was|were|does|do|did|can|will|should)\b", re.I)


# The kind of thing a question asks for, and how a sentence that holds one looks (a question answering system's
# "answer type"): asked how long a loaf bakes, the recipe page's "bake" sentences were a tin's size and an oven's heat
_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_CLAUSE = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+(?=[A-Z])")  # a clause's number ("4.4 The limits ...") is no number asked for
BOOST = 1.0  # as much as the part's rarest word: "Bake for 50 minutes" over the "bake" sentences of a recipe page
ANSWER_KINDS = (
    (re.compile(r"\bhow\s+long\b|\bhow\s+many\s+(?:minutes|hours|days|weeks|months|years)\b", re.I),
     re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:(?:-|to|–)\s*\d+\s*)?(?:min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?|years?)\b", re.I)),
    (re.compile(r"\bwhen\b|\bwhat\s+(?:date|day|time)\b|\bwhich\s+(?:date|day)\b", re.I),
     re.compile(r"\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:am|pm)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|"
                r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTHS + r"(?!\w)|\b" + _MONTHS + r"\s+\d{1,2}\b|\b\d{1,2}/\d{1,2}\b|"
                r"\bhalf\s+past\b|\bnoon\b|\bmidnight\b", re.I)),
    (re.compile(r"\bhow\s+(?:much|many)\b|\b(?:max|maximum|limit|allowance|cap)\b|\bwhat\s+(?:is|was|are|were)\s+the\s+(?:price|cost|fee|amount|total|number|rate)\b", re.I),
     re.compile(r"\d")),
)


def question_parts(own: str) -> list[str]:
    """The questions the person's words ask, one per part: "How much ..., and who ...?" is two."""
    parts = []
    for sentence in re.split(r"(?<=[.?!:])\s+|\n+", own):
        asked = sentence.rstrip().endswith("?")
        parts += [p for p in _ASKED_PART.split(sentence) if p.strip() and (asked or _QUESTION_WORD.search(p))]
    return parts


_TELL = re.compile(r"\b(?:tell|know|wonder\w*|find\s+out|work\s+out|figure\s+out|check|see|explain|remind)\b", re.I)
_WH = re.compile(r"\b(?:how|what|when|where|which|who|whom|whose|why|whether)\b", re.I)


def asked_clause(question: str) -> str:
    """The clause a question asks, without the words that lead to it: "Got this email from our office manager, can you
    read it and tell me how many nights my hotel room is booked for?" asks "how many nights my hotel room is booked
    for?". Ranked by every word, the email's signature ("Office & Events Manager") came first (ho52)."""
    lead = _TELL.search(question)
    wh = _WH.search(question, lead.end()) if lead else None
    return question[wh.start():] if wh else question


def _ranked(lines: list[str], own: str) -> tuple[list[str], list[int], list[str]]:
    """The pasted prose's sentences, the ones most about the person's words (best first, at most BEST_SENTENCES),
    and the words they were found by: each sentence scored by the question words it holds, a word worth more the
    fewer sentences hold it (BM25's weighting). Shown the sentences of its two rarest words alone, the model was
    given "going" and "make" (one sentence each) over the words the question was about, each on a dozen sentences.
    Best first: after a search, the 0.5B model's answer was often the first sentence printed."""
    import math

    sentences = sentences_of("\n".join(lines), wrapped(lines))
    asked = list(dict.fromkeys(_stems(own)))
    if len(sentences) < 2 * FIRST_LINES or not asked or _COUNTING.search(own):
        return sentences, [], []
    held = [set(_stems(u)) for u in sentences]
    # a stem matches a word that starts with it ("decid" for "decided", "decision" not)
    words = [{a for a in asked if any(h.startswith(a) or a.startswith(h) and len(h) >= 4 for h in hs)} for hs in held]
    n = len(sentences)
    df = {a: sum(a in ws for ws in words) for a in asked}
    # a word on most sentences tells none apart ("harbour" in a story about a harbour, asked how often it is there)
    idf = {a: math.log((n - df[a] + 0.5) / (df[a] + 0.5) + 1) for a in asked if 0 < df[a] <= max(MAX_MATCHES, n // 8)}
    # BM25's length weighting: a long sentence holds many words by chance (k1 1.2, b 0.75)
    size = [max(1, len(u.split())) for u in sentences]
    mean = sum(size) / n
    # but a short sentence gets no lift: "This was agreed." and a heading ("Spring clean-up day") came before the
    # sentences that held the amount and the name asked for (ho47's minutes)
    length = [max(float(s), mean) for s in size]
    pivot, linked = _linked(held, words, idf)

    def best(part: set[str], question: str) -> list[int]:
        # a sentence that holds the kind of thing asked for (a duration for "how long", a date or a time for "when")
        # counts as holding one more of the part's words
        kind = next((said for asked, said in ANSWER_KINDS if asked.search(question)), None)
        extra = max((idf[a] for a in part), default=0.0) * BOOST
        links = linked if pivot in part else {}
        # linked words only order the sentences that hold a word of the question (a "Subject: Tool shed" line held the
        # padlock sentence's "tool shed" and came before the padlock's new combination)
        # times the share of the part's words the sentence holds (Lucene's "coord"): the one sentence with the hotel
        # room and its booking was long, and two short ones with "room" alone came first (ho52)
        scored = sorted((((sum(idf[a] for a in ws & part) + sum(links[w] for w in held[i] & links.keys())
                           + (extra if kind and kind.search(_CLAUSE.sub("", sentences[i])) else 0.0))
                          * 2.2 / (1 + 1.2 * (0.25 + 0.75 * length[i] / mean)) * len(ws & part) / len(part), i)
                         for i, ws in enumerate(words) if ws & part), key=lambda t: (-t[0], t[1]))
        return [i for _, i in scored]

    # a question in two parts ("how much will they spend on the playground, and who leads the clean-up?"): the best
    # sentences of each part by turns, or the words of one part (the playground's) fill every place
    parts = [(p, q) for p, q in ((set(_stems(q)) & idf.keys(), q) for q in map(asked_clause, question_parts(own))) if p]
    trimmed = len(parts) == 1 and parts[0][1] not in question_parts(own)
    orders = [best(p, q) for p, q in parts] if len(parts) > 1 or trimmed else [best(set(idf), parts[0][1] if parts else own)]
    rows: list[int] = []
    for i in (o[k] for k in range(max(map(len, orders))) for o in orders if k < len(o)):  # the parts' k-th bests, k = 0, 1, ...
        if sentences[i] not in {sentences[r] for r in rows}:  # a sentence said twice is shown once
            rows.append(i)
        if len(rows) == BEST_SENTENCES:
            break
    shown = sorted((a for a in idf if any(a in words[i] for i in rows)), key=lambda a: (df[a], asked.index(a)))
    return sentences, rows, shown


LINK = 0.5  # a linked word's weight, of its own idf


def _linked(held: list[set[str]], words: list[set[str]], idf: dict[str, float]) -> tuple[str, dict[str, float]]:
    """The question's rarest word and, when its one or two sentences hold no other word of the question, the words
    of those sentences that other sentences hold too, each weighted LINK of its idf. Asked for the dinner limit "in
    London", the policy named London once, in the list under "APPENDIX B - HIGH-COST CITIES"; the limit was in "4.3
    High-cost cities (Appendix B): ... dinner up to $85", which holds no "London" (ho50, a two-step question)."""
    import math

    if len(idf) < 2:
        return "", {}
    pivot = max(idf, key=lambda a: idf[a])
    homes = [i for i, ws in enumerate(words) if pivot in ws]
    if len(homes) > 2 or any(ws & idf.keys() - {pivot} for ws in (words[i] for i in homes)):
        return "", {}
    n = len(held)
    found = {}
    for w in set().union(*(held[i] for i in homes)) - set(idf):
        d = sum(w in hs for hs in held)
        if 2 <= d <= max(MAX_MATCHES, n // 8):
            found[w] = LINK * math.log((n - d + 0.5) / (d + 0.5) + 1)
    return pivot, found


def _best_sentences(lines: list[str], own: str) -> str:
    sentences, rows, shown = _ranked(lines, own)
    if not rows:
        return ""
    return PROSE_MATCH.format(words=" or ".join(f'"{w}"' for w in shown[:6]),
                              lines="\n".join(sentences[i][:SENTENCE_CHARS] for i in rows))


# A code the question names: letters and digits together ("PX-40718", "INV-2291", "#4471", "B12"), not a year or a plain number
_CODE = re.compile(r"(?<![\w-])(?=[\w#-]*[A-Za-z])(?=[\w#-]*\d)[A-Za-z#][\w#]*(?:-[\w#]+)*(?![\w-])")


def rare_words(lines: list[str], own: str) -> tuple[list[tuple[int, str, str, list[int]]], list[str]]:
    """The two rarest words of `own` found on at most MAX_MATCHES of the pasted records' lines, each as
    (lines it is on, word, stem, those lines); and the lines looked through. (Prose is ranked by `_ranked`.)"""
    filled = [ln for ln in lines if ln.strip()]
    if len(filled) < 2 * FIRST_LINES:
        return [], filled
    question = question_of(own)
    asked = set(re.findall(r"[a-z]{3,}", question.lower()))
    found = []
    for code in dict.fromkeys(_CODE.findall(question)):  # "parcel PX-40718": the words alone found only the header (ho58)
        hits = [i for i, ln in enumerate(filled) if re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", ln, re.I)]
        if 0 < len(hits) <= 2 * MAX_MATCHES:
            found.append((len(hits), code, code, hits))
            asked.add(code)
    for w in dict.fromkeys(re.findall(r"[a-z]{3,}", own.lower())):
        stem = _stem(w)
        if w in _STOP or len(stem) < 3:
            continue
        pattern = re.compile(rf"\b{re.escape(stem)}\w*", re.I)
        hits = [i for i, ln in enumerate(filled) if pattern.search(ln)]
        if not hits and len(w) > 6:  # "dentist" for a statement's "BRIGHTSMILE DENTAL CARE": its first letters
            stem = w[:max(4, len(w) - 3)]
            pattern = re.compile(rf"\b{re.escape(stem)}\w*", re.I)
            hits = [i for i, ln in enumerate(filled) if pattern.search(ln)]
        if 0 < len(hits) <= MAX_MATCHES:
            found.append((len(hits), w, stem, hits))
    # the question's words first: "Here is our garden's volunteer log ... Which plot number did the Okafor family get?"
    # searched "garden" and "log" (the header's line) before "okafor", tied with them at one line (ho55, session 56)
    return sorted(found, key=lambda f: (not _CODE.fullmatch(f[1]), f[1] not in asked, f[0], f[1]))[:2], filled


# Where the lines' order is the answer's (the first failure, the latest entry, a count), they keep it.
_IN_ORDER = re.compile(r"\b(?:first|last|earliest|latest|recent\w*|before|after|since|until|begin\w*|start\w*|end\w*|"
                       r"order|timeline|sequence|how\s+many|how\s+often|count\w*|list\w*|all|every)\b", re.I)


def closeness_words(own: str) -> tuple[str, ...]:
    """The question's words that order the lines found, the closest first (none where the order is the file's): asked
    for "the serial number of the new water heater that was put in", the lines that mention "serial" or "put" were
    shown in the log's order, and the 0.5B model answered with the first new dryer's serial (ho56, session 57)."""
    question = question_of(own)
    return () if _IN_ORDER.search(question) else tuple(dict.fromkeys(_stems(question)))


def holds(line: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}", line, re.I) is not None


SAME = 0.7  # the share of words two lines have in common that makes them one message said again


def closeness(filled: list[str], rows: list[int], asked: tuple[str, ...]) -> dict[int, float]:
    """How close each of `rows` of the lines is to the question: a line scores the question's words it holds, each worth
    more the fewer lines hold it (BM25's weighting), shared among the lines found that say the same thing again (a
    group chat's repeated message held "book" and "club", the one line with the meeting only "meeting": ho11)."""
    import math

    n = len(filled)
    idf = {w: math.log((n - d + 0.5) / (d + 0.5) + 1) for w in asked if (d := sum(holds(ln, w) for ln in filled))}
    raw = {i: sum(v for w, v in idf.items() if holds(filled[i], w)) for i in rows}
    some = [i for i in rows if raw[i]]
    words = {i: set(re.findall(r"[a-z]{3,}", filled[i].lower())) for i in some}

    def copies(i: int) -> int:
        return max(1, sum(len(words[i] & words[j]) >= SAME * max(1, len(words[i] | words[j])) for j in some))

    return {i: raw[i] / copies(i) if raw[i] else 0.0 for i in rows}


def closest_first(filled: list[str], rows: list[int], asked: tuple[str, ...]) -> list[int]:
    """`rows` of the lines, the closest to the question first (`closeness`)."""
    score = closeness(filled, rows, asked)
    return sorted(rows, key=lambda i: -score[i])


def question_of(own: str) -> str:
    """The person's question among their words: the sentences that end in "?", else the last sentence."""
    sentences = [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n+", own) if x.strip()]
    return " ".join(x for x in sentences if x.endswith("?")) or (sentences[-1] if sentences else "")


def _shown(lines: list[str], own: str, after: str = "") -> str:
    """What the model is shown of the pasted text beside its file's name: the first lines and the lines
    that hold a rare word of the question (records), or the sentences that hold a rare word of the words
    after the paste, where the question is (prose: a recipe's "Print recipe" lines were shown for a word
    of the words before it)."""
    first = _first_lines(lines)
    return first + _matching_lines(lines, own) if first else _matching_lines(lines, after or own, prose=True)


def shown_lines(engine: Any, request: str) -> str:
    """The pasted lines the model was shown for this long request (its first lines and the lines that
    hold a rare word of the question), or ""."""
    parts = pasted_parts(engine, request)
    if parts is None:
        return ""
    return _shown(parts[1].splitlines(), parts[0] + "\n" + parts[2], parts[2])


def _first_lines(lines: list[str]) -> str:
    """The first lines of pasted records (a log, a table), which show the model their format; none of
    pasted prose: shown its first sentences, the 0.5B model put them in its code as the whole text and
    counted words in that."""
    first = [ln for ln in lines if ln.strip()][:FIRST_LINES]
    if len(lines) < 2 * FIRST_LINES or any(len(ln) > LINE_CHARS for ln in first) or wrapped(lines):
        return ""
    return FIRST.format(lines="\n".join(first))


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    if not _long(engine, request):
        return None
    parts = split(request)
    if parts is not None:
        before, pasted, after = parts
        name = save(pasted + "\n", os.getcwd(), "pasted")
        if name is not None:
            lines = pasted.splitlines()
            note = PASTED.format(lines=len(lines), n=len(pasted), name=name, first=_shown(lines, before + "\n" + after, after))
            return Addition(request="\n\n".join(p for p in (before, note, after) if p))
    name = save(request, os.getcwd())
    if name is None:
        return None
    return Addition(request=request[:HEAD] + NOTE.format(n=len(request), name=name) + request[-TAIL:])


READ_NOTE = "Changed before it ran: the text is read from {name} (the code had the note about that file as the text)."


def check(turn: Turn, block: Block) -> Verdict | None:
    """Code that holds the note about the saved text as if it were the text is changed to read the
    file: asked how often "harbour" was in a pasted story, the 0.5B model wrote `text = "The text I
    pasted (71 lines, 20341 characters) is saved in the file pasted-9fef5457.txt; ..."` and counted 0."""
    if block.lang != "python" or "is saved in the file" not in block.code:
        return None
    try:
        tree = ast.parse(block.code)
    except SyntaxError:
        return None
    spots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno == node.end_lineno:
            m = _SAVED_IN.search(node.value)
            if m and os.path.isfile(m.group(1)):
                spots.append((node.lineno, node.col_offset, node.end_col_offset or 0, m.group(1)))
    if not spots:
        return None
    block.message["content"] = rewrite(block.code, [(line, col, end, f"open({name!r}, encoding='utf-8').read()")
                                                     for line, col, end, name in spots])
    return Verdict(warning=READ_NOTE.format(name=spots[0][3]))


_SAVED_IN = re.compile(r"is saved in the file ((?:pasted|message)-[0-9a-f]{8}\.txt)")


# "why did it fail", "what caused it", "what went wrong": an answer needs the lines around the one found.
_WHY = re.compile(r"\bwhy\b|\breasons?\b|\bcaus\w*|\bwhat went wrong\b|\bwhat happened\b|\bexplain\b", re.I)
CONTEXT = ("(The lines of {name} up to the one the code printed:\n{lines}\nAnswer my question in one or two "
           "sentences from these lines: say what happened and why.)")
BEFORE, AFTER = 8, 2  # lines of the pasted text shown before and after the line the code printed


def follow_up(turn: Turn) -> Ask | None:
    """Asked when and why a pasted backup log first failed, the code printed the one line of the failure
    alert, and the answer named the time but not why: the reason was on the lines before it. When the
    person's words ask why and the last run printed a line of the pasted text, the model is given the
    lines before that one and asked once for the answer."""
    from oi_local.core.rules.turn import instruction

    last = turn.runs[-1] if turn.runs else None
    if not (last and not last.failed and turn.counts["why context"] < 1 and _WHY.search(instruction(turn.request))):
        return None
    name = pasted_file(turn.engine, turn.request)
    if name is None:
        return None
    try:
        with open(name, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    where = {ln.strip(): i for i, ln in reversed(list(enumerate(lines))) if ln.strip()}
    found = next((where[ln.strip()] for ln in last.output.splitlines() if ln.strip() in where), None)
    if found is None or found == 0:
        return None
    turn.counts["why context"] += 1
    shown = "\n".join(ln[:LINE_CHARS] for ln in lines[max(0, found - BEFORE):found + AFTER + 1])
    return Ask(CONTEXT.format(name=name, lines=shown))


SEARCH_NOTE = "(That did not find it. The answer is in one of the {what} of {name} that mention {words}.)"
SEARCH_HOW = "This block prints them; reply with it, then answer my question from what it prints."


def after_run(turn: Turn) -> Ask | None:
    """A question about a pasted text whose run failed, printed nothing or the text back, or never read the text: the loop's own code prints
    the sentences (of records: the lines) that hold the question's rare words, and the model answers from them. Asked for the tool shed's
    new padlock code in a 16,000-character mail thread, the 0.5B model cut lines at ": ", then typed the right
    number into a variable and printed nothing (ho44, a development run of session 47)."""
    last = turn.runs[-1] if turn.runs else None
    if last is None or turn.counts["prose search"] or not turn.steps_left:
        return None
    name = pasted_file(turn.engine, turn.request)
    if name is None:
        return _file_search(turn, last)
    # a run that never read the text cannot have found the answer in it (`notice = 12 * 12` for a lease's notice, ho45)
    parts = split(turn.request) if name else None
    if name is None or parts is None:
        return None
    if not (last.failed or not last.output.strip() or name not in last.code and "open(" not in last.code
            or printed_back(last.output, parts[1])):
        return None
    lines = parts[1].splitlines()
    prose = not _first_lines(lines)  # records (a log, a table, a chat) are searched line by line
    if prose:
        return _prose_search(turn, name, lines, parts[2] or parts[0] + "\n" + parts[2])
    found, filled = rare_words(lines, parts[0] + "\n" + parts[2])
    if not found:
        return None
    turn.counts["prose search"] += 1
    asked = closeness_words(parts[0] + "\n" + parts[2])
    if asked:  # the lines closest to the question first: the model answered from the first it saw
        at = [i for i, ln in enumerate(lines) if ln.strip()]  # a line of `filled` in the file's lines
        rows = closest_first(filled, sorted({i for _, _, _, hits in found for i in hits}), asked)
        code = (f"text = open({name!r}, encoding='utf-8', errors='replace').read()\n"
                f"lines = text.splitlines()\n"
                f"best = {tuple(at[i] for i in rows[:2 * MAX_MATCHES])!r}  # the lines that mention {' or '.join(w for _, w, _, _ in found)}, "
                f"the closest to the question first\n"
                f"for i in best:\n    print(lines[i].strip())")
    else:
        stems = "|".join(re.escape(stem) for _, _, stem, _ in found)
        code = (f"import re\ntext = open({name!r}, encoding='utf-8', errors='replace').read()\n"
                f"for piece in text.splitlines():\n"
                f"    if re.search(r'\\b(?:{stems})', piece, re.I):\n        print(piece.strip())")
    words = " or ".join(f'"{w}"' for _, w, _, _ in found)
    return own_code(turn.engine, SEARCH_NOTE.format(name=name, what="lines", words=words), code, SEARCH_HOW)


BACK = 300  # characters of an output's start and end looked for in the text


def printed_back(output: str, text: str) -> bool:
    """The run printed the pasted text itself (whole, or cut to its start and end): no answer picked from it. Asked when a
    pasted server log first ran out of space, the 0.5B model printed the file and answered with no time (ho54 dev)."""
    out = output.strip()
    return len(out) > 3 * BACK and out[:BACK] in text and out[-BACK:] in text


PRINTED_SENTENCES = 5
# the best three as one line: the 0.5B model's answer after a search was most often its first printed line, and a
# question about a pasted text often asks two things ("how much notice, and is there a fee?")
JOINED = 3


def _prose_search(turn: Turn, name: str, lines: list[str], own: str) -> Ask | None:
    """Of pasted prose, the loop's code prints the sentences most about the question, the closest first."""
    _, rows, shown = _ranked(lines, own)
    if not rows:
        return None
    turn.counts["prose search"] += 1
    code = (f"import re\ntext = open({name!r}, encoding='utf-8', errors='replace').read()\n"
            + (f"text = re.sub({_UNWRAP.pattern!r}, ' ', text)  # the lines of a sentence joined\n" if wrapped(lines) else "")
            + f"pieces = [p.strip() for p in re.split({_SENTENCES.pattern!r}, text) if p.strip()]\n"
            f"best = {tuple(rows[:PRINTED_SENTENCES])!r}  # the sentences most about the question, the closest first\n"
            f"print(' '.join(pieces[i] for i in best[:{JOINED}]))\n"
            f"for i in best[{JOINED}:]:\n    print(pieces[i])")
    words = " or ".join(f'"{w}"' for w in shown[:6])
    return own_code(turn.engine, SEARCH_NOTE.format(name=name, what="sentences", words=words), code, SEARCH_HOW)


MAX_TEXT_FILE = 200_000  # bytes of a named text file searched as prose
# a question about the text's form, not what it says: "the longest line", "how many words"
_ABOUT_FORM = re.compile(r"\b(?:lines?|words?|characters?|letters?|sentences?|paragraphs?|longest|shortest|first|last|"
                         r"count\w*|spell\w*|typos?|format\w*)\b", re.I)


_RECORD_LINE = re.compile(r"^\s*(?:[\d\[(#*•-]|\w+:\s*$)|\S[,|;]\S|\t")


def _records(lines: list[str]) -> bool:
    """A file of records (a log, a table, a list: most lines start with a number, a bracket or a bullet, or hold
    separators), not prose. (A host's notes are a sentence a line: pasted, they would count as records.)"""
    full = [ln for ln in lines if ln.strip()]
    return not full or sum(bool(_RECORD_LINE.search(ln)) for ln in full) * 2 >= len(full)


def _file_search(turn: Turn, last: Any) -> Ask | None:
    """A question about the one prose text file the request names (a host's notes, a manual): a run that failed, printed
    nothing, or printed the best sentence of none of the question's parts gets the same search as pasted prose.
    Asked where a cabin's spare key is and what its wifi password is (it has none), the 0.5B model printed the notes'
    first line labelled "WiFi password:" and answered with it (ho45, a development run of session 50)."""
    from oi_local.core.hints import mentioned_paths
    from oi_local.core.writes import asks_change

    own = instruction(turn.request)
    if asks_change(own) or _ABOUT_FORM.search(own) or not question_parts(own):
        return None
    files = [p for p in mentioned_paths(own, Path.cwd()) if p.is_file() and p.suffix.lower() in (".txt", ".md")]
    try:
        if len(files) != 1 or files[0].stat().st_size > MAX_TEXT_FILE:
            return None
        lines = files[0].read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if _records(lines):
        return None
    sentences, rows, _ = _ranked(lines, own)
    printed = " ".join(last.output.split())
    # each part's best sentence comes first (`_ranked`): one of them printed is an answer found
    best = rows[:max(1, len(question_parts(own)))]
    if not rows or not last.failed and any(" ".join(sentences[i].split()) in printed for i in best):
        return None
    name = os.path.relpath(files[0], Path.cwd())
    return _prose_search(turn, name, lines, own)


rule = Rule(
    name="long requests", setting="save_long_requests", prompt=prompt, check=check, on_failure=on_failure,
    follow_up=follow_up, after_run=after_run,
    summary="a request too long for the context (over about 1,500 tokens, or a quarter of the budget) is split into "
            "the user's own words and the pasted text; the pasted text is saved to pasted-<hash>.txt in the working "
            "folder and the model sees the user's words, that file's name and, for pasted records (a log, a table), its "
            "first lines and the lines with the question's rare words (a code it names, as PX-40718, first), for pasted prose the sentences ranked for the "
            "question (BM25, best first, short sentences weighed as of the mean length; the parts of a two-part question by turns; "
            "text wrapped at a fixed width is prose, its lines joined into sentences; when the question's rarest word is "
            "in one or two sentences that hold no other word of it, those sentences' other words also order the rest "
            "(asked about London, the clause for the high-cost cities the list names it in); "
            "a sentence that holds the kind of thing asked for, a duration for \"how long\", a date or time for \"when\", a "
            "number for \"how much\", counted as holding one more word; none for a count over the text), and is told that file's "
            "name when its code looks for another file (a message with no "
            "question outside the pasted part is saved whole to message-<hash>.txt, shown by its start and end), "
            "instead of a prompt with its middle cut out; code that holds the note about that file as if it were the "
            "text reads the file instead, and a read of a file that is not there and that the person's words do not "
            "name reads the pasted text's file (rule paths); asked why, a run that printed a line of the pasted text gets "
            "the lines before it and one more ask for the answer; a question about a pasted text whose run failed, printed "
            "nothing or the text itself back (or never read the text) is given code that prints, of prose, its five best sentences (the best "
            "three as one line), of records the lines holding the question's rare words, to answer from; so is a question about "
            "the one prose text file a request names whose run failed, printed nothing or printed the best sentence of none "
            "of the question's parts; the person is told")
