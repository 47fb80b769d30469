"""Answers: a final answer that is word for word one of the template's example answers (the 0.5B
model answered a file deletion with "1234 * 5678 is 7006652."), or that answers a question without
any of the short result the code printed ("The output is correct." after `Dana 2300.0`), that
rounds a printed result away (2.5 said for 2.51, unasked), that repeats a note the loop gave it ("Not
run: this code changes notes.txt ..." said back as the answer), or that does not own up to the failed run
before it ("The stock levels were synced." over ConnectionRefusedError), or that gives only the first
line of a short printed list ("Codenames" over nine games) or one of two amounts asked and printed, is dropped and asked for
once more; a copied, rounded, cut-short or failure-blind answer the second time gives way to the code's last
output (core/loop.py says plainly when that run failed)."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    Turn,
    asks_back,
    asks_something,
    code_retry,
    instruction,
    newest_reply,
)

# An example's answer before any code ran: asked to fix mileage.py, the 0.5B model's whole reply was the fix-a-script
# example's answer with one word changed ("I fixed app.py ...; it now prints 12."), and the turn ended on it (ho38).
PARROTED_NOTE = ("(Not done yet: that answer is a worked example's, not this task's, and no code has run. Write one "
                 "```python block that does what I asked.)")

MAX_SHORT_OUTPUT = 200
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][\w.@-]*\w", re.U)
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}


def parroted(turn: Turn) -> bool:
    """The newest reply is word for word an answer from the template's worked examples, or gives a
    number of theirs that nothing in this conversation or its files has."""
    reply = newest_reply(turn.engine)
    if not reply:
        return False
    said = " ".join(str(reply.get("content", "")).split())
    return bool(said) and (any(
        e.get("role") == "assistant" and " ".join(str(e.get("content", "")).split()) == said
        for e in (getattr(turn.engine, "examples", None) or [])) or bool(borrowed_numbers(turn, said))
        or bool(borrowed_names(turn, said)))


def borrowed_numbers(turn: Turn, said: str) -> set[str]:
    """The numbers (two digits or more) in `said` that only the worked examples have: asked to fix
    invoice_total.py, the 0.5B model said "it now prints 7006652", the arithmetic example's product,
    before any of its code had run."""
    said_numbers = {t for t in _tokens(said) if t[0].isdigit() and len(t.replace(".", "")) >= 2}
    if not said_numbers:
        return set()
    shown = getattr(turn.engine, "shown_examples", None)
    examples = " ".join(str(e.get("content", "")) for e in (shown() if shown else []))
    borrowed = said_numbers & _tokens(examples)
    if not borrowed:
        return set()
    from oi_local.core.rules.copied_examples import known_text

    outputs = "\n".join(r.output for r in turn.runs)
    return borrowed - _tokens(known_text(turn) + "\n" + outputs)


# A file name ("notes.txt") or a quoted word ("urgent"): what a worked example's answer is about.
_NAME = re.compile(r"(?<![\w/.-])([A-Za-z_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,4})(?![\w/-])|\"([^\"\n]{2,40})\"")


def borrowed_names(turn: Turn, said: str) -> set[str]:
    """The file names and quoted words in `said` that only the worked examples have: asked for the
    lines of the .py files under src/, the 0.5B model answered "29 lines of notes.txt mention
    "urgent".", the shape and the words of the line-count example's answer (ho29 had the same)."""
    found = {(m.group(1) or m.group(2)).rstrip(".") for m in _NAME.finditer(said)}
    if not found:
        return set()
    shown = getattr(turn.engine, "shown_examples", None)
    examples = " ".join(str(e.get("content", "")) for e in (shown() if shown else []))
    borrowed = {n for n in found if n in examples}
    if not borrowed:
        return set()
    from oi_local.core.rules.copied_examples import known_text

    known = known_text(turn) + "\n" + "\n".join(r.output + "\n" + r.code for r in turn.runs)
    return {n for n in borrowed if n.lower() not in known.lower()}


def _plain(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def repeats_a_note(turn: Turn) -> bool:
    """The newest reply repeats, as its answer, a note the loop itself gave the model this turn (the
    0.5B model, told "Not run: this code changes notes.txt ...", answered with that sentence), or the
    description of the images a run made (asked for a chart and the hottest day, the 0.5B model answered
    with the chart's OCR text, "TemperaturevsDay 30 29 28 ...", over the printed day; ho37)."""
    reply = newest_reply(turn.engine)
    said = _plain(str(reply.get("content", ""))) if reply else ""
    if not said:
        return False
    from oi_local.core.convert import IMAGES_SHOWN

    if _plain(IMAGES_SHOWN) in said:  # the description of a chart the code drew (its OCR text), said back
        return True
    words = said.split()
    for note in turn.notes:
        first = _plain(re.split(r"(?<=[.!?])\s", note.strip(), maxsplit=1)[0]).split()
        if len(first) < 4:
            continue
        if " ".join(first) in said:
            return True
        # said back reworded ("The code does not change notes.txt, but the request only asks a question.")
        if len(first) >= 8 and len(words) <= 2 * len(first) and len(set(first) & set(words)) >= 0.75 * len(set(first)):
            return True
    return False


def _tokens(text: str) -> set[str]:
    found = set()
    for t in _TOKEN.findall(text):
        t = _NUMBER_WORDS.get(t.lower(), t)  # "One row." says 1
        if t[0].isdigit():  # 2300.0, 2300 and 2,300 are one number
            t = t.replace(",", "")
            t = t.rstrip("0").rstrip(".") if "." in t else t
        if len(t) >= 3 or t.isdigit():
            found.add(t.lower())
    return found


_ALONE = re.compile(r"(?<![\w/.-])-?\d[\d,]*(?:\.\d+)?(?![\w/-]|\.\w)")
_AMOUNT_ASKED = re.compile(r"\bhow\s+(?:many|much)\b", re.I)
_ROUNDING_ASKED = re.compile(r"\b(round\w*|decimals?|nearest|approx\w*|about|roughly|estimate\w*|whole)\b", re.I)


EXACT_PLACES = 3  # 27.375 is an exact average (219 / 8); 27.38 said for it is a rounding (ho44)


def _number(t: str) -> float | None:
    try:
        return float(t)
    except ValueError:
        return None


def _places(t: str) -> int:
    return len(t.split(".")[1]) if "." in t else 0


def _same_number(printed: str, said: str) -> bool:
    """1.4166666 printed, "about 1.42" said: the same number, rounded (to the decimals said, give or take
    a float's last digit: 58.43333333333333 said for a printed 58.43333333333334)."""
    x, y = _number(printed), _number(said)
    if x is None or y is None:
        return False
    return round(x, _places(said)) == y or abs(x - y) <= 1e-9 * max(1.0, abs(x))


def rounded_away(printed: set[str], said: set[str]) -> bool:
    """The answer gives a printed result with fewer decimals than the code printed (2.5 for 2.51, 1358
    for 1358.3, 27.38 for 27.375) and the exact value nowhere: the 0.5B model rounds averages unasked,
    and the person takes the rounded figure for the answer. A value of up to three decimals is exact
    and kept whole; a longer one (a float's 1.4166666) may be said to two."""
    for a in printed:
        x, keep = _number(a), (_places(a) if _places(a) <= EXACT_PLACES else 2)
        if x is None or keep == 0:
            continue
        close = [b for b in said if _same_number(a, b)]
        if close and all(_places(b) < keep for b in close):
            return True
    return False


def _results(turn: Turn) -> tuple[set[str], set[str]] | None:
    """What the last run printed (less the request's own words) and what the newest reply says, for a
    question whose last run succeeded with a short result; None otherwise."""
    from oi_local.core.writes import question

    output = turn.runs[-1].output if turn.runs else ""
    reply = newest_reply(turn.engine)
    result = getattr(turn.engine.computer, "last_result", None)
    if (not reply or asks_back(turn.engine) or not output.strip() or len(output) > MAX_SHORT_OUTPUT
            or getattr(result, "exit_code", 0) not in (None, 0) or not question(turn.request)):
        return None
    return _tokens(output) - _tokens(turn.request), _tokens(str(reply.get("content", "")))


def rounded(turn: Turn) -> bool:
    """A question answered with its printed result rounded away, rounding unasked."""
    found = _results(turn)
    return found is not None and not _ROUNDING_ASKED.search(turn.request) and rounded_away(found[0], found[1])


def ungrounded(turn: Turn) -> bool:
    """A question answered without its result: the last run printed a short result ("Dana 2300.0")
    and the reply says none of it ("The output is correct. The code converts the salary...")."""
    found = _results(turn)
    if not found:
        return False
    printed, said = found
    if _AMOUNT_ASKED.search(instruction(turn.request)):
        # How many / how much: the number is the answer. "Yes, coming." over `Yes 21 / No 7` shares a
        # word with the output and was taken as grounded.
        numbers = {a for a in printed if _number(a) is not None}
        if numbers and not any(_same_number(a, b) for a in numbers for b in said):
            return True
    return bool(printed) and not printed & said and not any(_same_number(a, b) for a in printed for b in said)


def contradicted(turn: Turn) -> bool:
    """Asked how many or how much, an answer that gives a number, none of which the short result
    printed: asked again, the 0.5B model said "70.3 mm more" over a printed 93.5 (ho33-multi-rainfall).
    Only numbers that stand alone in a result of a few lines count (not the 2024 of notes/2024/feb.md)."""
    found = _results(turn)
    output = turn.runs[-1].output if turn.runs else ""
    if not found or not _AMOUNT_ASKED.search(instruction(turn.request)) or len(output.strip().splitlines()) > 3:
        return False
    numbers = {t for t in _tokens(" ".join(_ALONE.findall(output))) if _number(t) is not None}
    told = {b for b in found[1] if _number(b) is not None} - _tokens(turn.request)
    return bool(numbers) and bool(told) and not any(_same_number(a, b) for a in numbers for b in told)


_NAMED = re.compile(r"[\w-]*(?:\d[A-Za-z_]|[A-Za-z]\d|_|\.[A-Za-z])[\w.-]*|[A-Z][a-z]+")


_LABELLED = re.compile(r"^(?:largest|smallest|highest|lowest|most|least):\s+(.+?)\s+(-?\d[\d,]*(?:\.\d+)?)\s*$", re.M)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")


def _names_thing(thing: str, said: str) -> bool:
    """`said` names `thing`: its words, or for a month of a date ("2024-11") the month's name."""
    low = said.lower()
    if thing.lower() in low:
        return True
    month = re.fullmatch(r"(\d{4})-(\d\d)", thing.strip())
    return month is not None and 1 <= int(month.group(2)) <= 12 and _MONTH_NAMES[int(month.group(2)) - 1] in low


def unnamed(turn: Turn) -> bool:
    """A which-question answered with the printed amount but not the printed thing: over "Longest chapter:
    03_storm.txt, 210 words", the 0.5B model answered "The longest chapter in words is 210 words." (ho39).
    The thing is a token of the output the request does not have that looks like a name (a file name, a
    code, a capitalised word that is not the line's first); the answer says none of the output's other words."""
    from oi_local.core.rules.which_answers import asked_thing

    found = _results(turn)
    output = turn.runs[-1].output if turn.runs else ""
    if not found or asked_thing(turn.request) is None:
        return False
    printed, said = found
    labelled = _LABELLED.search(output)
    if labelled:  # "largest: 2024-11 139.6" (the per-group code's own line): the answer names that one
        answer = str((newest_reply(turn.engine) or {}).get("content", ""))
        value_said = any(_same_number(labelled.group(2).replace(",", ""), b) for b in said)
        return not _names_thing(labelled.group(1), answer) or bool(_AMOUNT_ASKED.search(turn.request)) and not value_said
    if len(output.strip().splitlines()) > 3:
        return False
    words = {t for t in printed if _number(t) is None}
    firsts = {ln.split()[0].rstrip(":,").lower() for ln in output.splitlines() if ln.split()}
    shapes = [m.group(0).lower() for m in _NAMED.finditer(output)]
    names = {t for t in words if t not in firsts and any(t in shape for shape in shapes)}
    def parts(tokens: set[str]) -> set[str]:  # "03_storm.txt" is said by "storm"
        return {p for t in tokens for p in re.split(r"[._@-]", t) if len(p) >= 3} | tokens

    return bool(names) and not parts(words) & parts(said)


def blind_to_failure(turn: Turn) -> bool:
    """The last run failed and the newest reply says nothing of it (no "error", "could not", "not
    found", ...: honest_end.admits, in words the request does not use itself): a small model makes up a result over a traceback."""
    from oi_local.core.rules.honest_end import admits

    last = turn.runs[-1] if turn.runs else None
    reply = newest_reply(turn.engine)
    return bool(last and last.failed and reply and not asks_back(turn.engine)
                and not admits(str(reply.get("content", "")), turn.request))


MIN_DUMP = 150  # characters: a reply this long copied from the request is not an answer
DUMP_SHARE = 0.9  # of the reply's words, in order, found in that text
DUMP_SENTENCES = 3  # ... in at least this many of its sentences (or lines) as they are there


def dumped(turn: Turn) -> bool:
    """For a question, the newest reply is a long stretch of the request itself said back: a pasted
    email thread, printed from the file it was saved to, given as the answer to "what did they
    decide?". (Said back from an output alone it may be the answer: "which lines mention ERROR?")"""
    from difflib import SequenceMatcher


    reply = newest_reply(turn.engine)
    last = turn.runs[-1] if turn.runs else None
    lines = [ln for ln in turn.request.splitlines() if ln.strip()]  # pasted text first, the question last
    if not (reply and last and not last.failed and lines and asks_something(lines[-1])):
        return False
    said = _plain(str(reply.get("content", ""))).split()
    if len(" ".join(said)) < MIN_DUMP:
        return False
    matcher = SequenceMatcher(None, said, _plain(turn.request).split(), autojunk=False)
    if sum(b.size for b in matcher.get_matching_blocks()) < DUMP_SHARE * len(said):
        return False
    # a stretch of the text, not one or two of its sentences quoted as the answer: asked when the next meeting
    # was, the 0.5B model gave the chat message that said it, and the turn ended "not done"
    plain = " " + _plain(turn.request) + " "
    sentences = [_plain(u) for u in re.split(r"(?<=[.!?])\s+|\n+", str(reply.get("content", "")))]
    return sum(1 for u in sentences if len(u) >= 20 and f" {u} " in plain) >= DUMP_SENTENCES


MAX_LIST_OUTPUT = 600  # characters: a list short enough to be the answer as printed


_N_ASKED = re.compile(r"\b(?:top|the|my|your|those|these)\s+(\d{1,2}|" + "|".join(list(_NUMBER_WORDS)[2:11]) + r")\b", re.I)
_KEY = re.compile(r"^\s*(?:\d+[.)]\s+)?([^:\t(]+?)\s*(?::|\t|\(|\s-\s|\s{2}|$)")


def _fewer_than_asked(request: str, output: str, said: str) -> bool:
    """Asked for "the 3 biggest files", the code printed three lines and the answer names fewer of them
    (the 0.5B model named two of three printed files)."""
    m = _N_ASKED.search(instruction(request))
    lines = [ln for ln in output.splitlines() if ln.strip()]
    n = int(_NUMBER_WORDS.get(m.group(1).lower(), m.group(1))) if m else 0
    if n < 2 or len(lines) != n:
        return False
    keys = [_plain(k.group(1)) for ln in lines if (k := _KEY.match(ln))]
    if len(keys) != n or len(set(keys)) != n:
        return False
    named = sum(1 for k in keys if f" {k} " in f" {said} " or f" {k.split()[-1]} " in f" {said} ")
    return 0 < named < n


_EACH = re.compile(r"\b(?:each|every|per)\s+[a-z]", re.I)
_ROW = re.compile(r"^\s*([A-Za-z][^\d:=]*?)\s*[:=\s]\s*-?\d[\d,]*(?:\.\d+)?\s*\S{0,4}\s*$")


def _one_of_each(request: str, output: str, said: str) -> bool:
    """Asked for something for each group, the code printed a row per group ("Hill climb 11.95" ...) and
    the answer names fewer of them than it printed: "The average distance of a run on each route is 11.95
    km." over three routes (ho37)."""
    if not _EACH.search(instruction(request)):
        return False
    rows = [m.group(1) for ln in output.splitlines() if (m := _ROW.match(ln)) and not ln.lstrip().startswith("Name:")]
    if len(rows) < 2:
        return False
    named = sum(1 for r in rows if f" {_plain(r)} " in f" {said} ")
    return named < len(rows)


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _one_of_two(request: str, output: str, said: str) -> bool:
    """Asked two amounts ("How many words are in lighthouse.txt? And how many times does Marguerite come up in
    it?"), the code printed a line for each and the answer gives the number of fewer of them: "Marguerite came
    up 4." over a printed 157 and 4 (ho40)."""
    from oi_local.core.rules.two_numbers import AMOUNT

    lines = [ln for ln in output.splitlines() if ln.strip()]
    asked = len(AMOUNT.findall(instruction(request)))
    if asked < 2 or len(lines) != asked:
        return False
    numbers = [[n.replace(",", "") for n in _NUMBER.findall(ln)] for ln in lines]
    if any(len(n) != 1 for n in numbers):
        return False
    given = {n.replace(",", "") for n in _NUMBER.findall(said)}
    return 0 < sum(1 for n in numbers if n[0] in given) < len(lines)


def cut_short(turn: Turn) -> bool:
    """A question whose last run printed a short list of results, answered with its first line alone:
    asked which of nine games suit five players, the code printed all nine and the 0.5B model answered
    "Codenames"."""
    from oi_local.core.writes import question

    last = turn.runs[-1] if turn.runs else None
    reply = newest_reply(turn.engine)
    if not (last and not last.failed and reply and not asks_back(turn.engine) and question(turn.request)
            and len(last.output) <= MAX_LIST_OUTPUT):
        return False
    lines = [_plain(ln) for ln in last.output.splitlines() if _plain(ln)]
    if not (len(lines) >= 2 and len(set(lines)) > 1):
        return False
    said, first = _plain(str(reply.get("content", ""))), lines[0]
    if _fewer_than_asked(turn.request, last.output, said) or _one_of_each(turn.request, last.output, said) \
            or _one_of_two(turn.request, last.output, str(reply.get("content", ""))):
        return True
    from oi_local.core.rules.top_rows import first_row

    if first_row(turn) is not None:  # the most (or least) of rows printed sorted so: the first line is the answer
        return False
    # The first line said alone, or in a short sentence around it ("a.pdf is in a.pdf.") naming no other line.
    return said == first or (f" {first} " in f" {said} " and len(said) <= 2 * len(first) + 40
                             and not any(f" {ln} " in f" {said} " for ln in lines[1:] if ln != first))


def follow_up(turn: Turn) -> Ask | None:
    if repeats_a_note(turn) and turn.counts["answers"] < 1:  # with or without a run: never an answer
        turn.counts["answers"] += 1
        return Ask(final=True)
    if not turn.steps and turn.steps_left and turn.counts["parroted"] < 1 and parroted(turn):
        turn.counts["parroted"] += 1
        return Ask(PARROTED_NOTE, code_retry(turn.engine, 7))
    if turn.steps and dumped(turn) and turn.counts["dump"] < 1:
        turn.counts["dump"] += 1
        return Ask(final=True)  # said again, the honest end names it (core/rules/honest_end.py)
    wrong = (parroted(turn) or ungrounded(turn) or rounded(turn) or blind_to_failure(turn) or cut_short(turn)
             or unnamed(turn))
    return Ask(final=True) if turn.steps and wrong else None


def discard(turn: Turn) -> bool:
    # ungrounded too: asked which site had the most birds "and how many was that", the 0.5B model said
    # "Estuary Wall" twice over a printed 116 (ho44); the printed result says the number
    return (parroted(turn) or repeats_a_note(turn) or rounded(turn) or blind_to_failure(turn) or cut_short(turn)
            or contradicted(turn) or unnamed(turn) or ungrounded(turn))


rule = Rule(
    name="answers", setting="check_answers", follow_up=follow_up, discard=discard,
    summary="a final answer that copies one of the template's example answers word for word (or gives a number, a file name or a "
            "quoted word only the worked examples have; before any code ran, it is asked for code instead), or answers a question "
            "without any of the short result the code printed, rounds that result away unasked (2.5 for 2.51), repeats a note the "
            "loop gave the model (\"Not run: this code changes notes.txt ...\" said back; with or without a run), or says "
            "nothing of the failed run before it, or gives only the first line of a short printed list (or, asked for \"the 3 biggest\", names fewer of the 3 printed lines; asked for each group, names fewer of the groups printed; asked which thing, names none of the printed words, only its amount; asked two amounts, gives the number of one of the two lines printed), or that says back a long "
            "stretch of the request itself, is dropped and asked for once more; the second time such an answer "
            "gives way to the code's last output (said plainly to have failed, when it did)")
