"""Honest end: a turn whose last run failed (an error, a time limit), or that found a file the request
names is not there (asked to add up receipts/2025-03.csv, the model then typed in [3, 4, 5] and
answered 12), whose newest code a rule refused
to run (and nothing ran after it), or whose files are not what the request asked for
(core/rules/outputs.py), or a question whose last run printed no answer, ends with one plain sentence saying so, with the error, unless the model's
own last reply already says it (for an error: quotes it). A small model often answers "Done." or
makes up a result over a traceback; the person must not read that as done."""
from __future__ import annotations

import os
import re
from pathlib import Path

from oi_local.core.rules.base import Rule
from oi_local.core.rules.outputs import UNREAD
from oi_local.core.rules.turn import Run, Turn, error_line, last_words

# Words with which a reply owns up to a failure ("the file does not exist", "I could not ...").
ADMITS = re.compile(
    r"\b(fail\w*|error\w*|exception|traceback|not (?:found|exist\w*|possible|able)|no such|does ?n[o']t exist|"
    r"could ?n[o']t|can ?n[o']t|cannot|unable|impossible|missing|invalid|malformed|sorry|unfortunately|"
    r"did ?n[o']t work|was ?n[o']t|problem|timed? ?out|time limit|too long|stopped|interrupted)\b", re.I)
NO_ERRORS = re.compile(r"\b(?:without|no|with no)\s+(?:any\s+)?(?:errors?|problems?|exceptions?|issues?)\b", re.I)
# Owning up to a question's empty output; for missing files "The code ran without errors and printed
# nothing." is no admission (it was the answer over a backup folder never made).
ADMITS_EMPTY = re.compile(r"\b(printed nothing|no output|nothing was printed|empty)\b", re.I)


# Saying that a file is not there.
MISSING_SAID = re.compile(r"\b(not (?:found|there|exist\w*)|no such|does ?n[o']t exist|missing|is ?n[o']t there|"
                          r"(?:can ?n[o']t|could ?n[o']t|cannot|unable to) (?:find|locate|open)|no (?:file|csv))\b", re.I)


DUMPED = "the answer only says back the text of the request, it does not answer the question"


def failure(turn: Turn) -> str | None:
    """Why the turn did not do what was asked, in a few words, or None."""
    from oi_local.core.rules import outputs

    if turn.not_run:  # the newest code was refused and nothing ran after it
        return f"the code was not run ({turn.not_run.removeprefix('Not run: ').rstrip('.')})"
    last = turn.runs[-1] if turn.runs else None
    if last is not None and last.interrupted:
        return "the last run was stopped before it finished (time limit or interrupt)"
    if last is not None and last.failed:
        cause = _cause(turn)
        failed = f"{'the last' if cause is last else 'a'} run failed with {error_line(cause.output).rstrip('.')}"
        return f"{OFFLINE}; {failed}" if _offline(turn, cause) else failed + _plainly(cause)
    gone = _still_missing(turn)
    if gone is not None:  # asked to add up receipts/2025-03.csv, which is not there, the model typed in [3, 4, 5]
        return f"a run failed with {error_line(gone.output).rstrip('.')}, and it is still not there"
    problems = outputs.problems(turn) if outputs.rule.enabled(turn.engine) else []
    if problems:
        return "; ".join(problems)
    from oi_local.core.rules.fresh_retries import printed_nothing


    empty = printed_nothing(turn)  # a question whose last code printed no answer: any answer is made up
    # (Printing the request's own text back is reading it: the answer may come from it.)
    return f"the code {empty.rstrip('.')}" if empty and "request back" not in empty else None


_NO_KEY = re.compile(r"Note: there is no key '([^'\n]+)'\. The keys are: ([^\n]+?)\.?$", re.M)


def _plainly(run: Run) -> str:
    """What a KeyError means, in the person's words: the record has no such field (the error note
    lists the ones it has). Told only "KeyError: 'star_rating'", a person cannot tell the file lacks it."""
    m = _NO_KEY.search(run.note or "")
    if not m:
        return ""
    field = "column" if re.search(r"\bcsv\b|\.csv\b|read_csv", run.code) else "field"
    return f": there is no {field} '{m.group(1)}' in the data (its {field}s are {m.group(2)})"


OFFLINE = ("nothing can be reached on the network from here: code runs without network access (allow it with "
           "interpreter.computer.allow_network = True)")


def _offline(turn: Turn, run: Run) -> bool:
    """Why a run could not reach the network, in the person's words, when the sandbox kept it offline. Asked to look up
    an exchange rate online, the turn ended "failed with requests.exceptions.ConnectionError: HTTPSConnectionPool(...
    NameResolutionError" (ho58, session 59's start), which says nothing of why to a person."""
    from oi_local.core.beyond_code import beyond_code

    allowed = getattr(turn.engine.computer, "network_allowed", None)
    return callable(allowed) and not allowed() and (beyond_code(run.output) or "").startswith("the network")


def _names(request: str, path: str) -> bool:
    """The request names this file: its path, or its name with an extension, as a whole word
    ("/mnt/nas/backup" is not named by "my NAS runs its backups")."""
    from oi_local.core.rules.outputs import TARGET

    if any(m.group(1).rstrip(".") in (path, os.path.basename(path)) for m in TARGET.finditer(request)):
        return False  # a file the request asks to make ("save it as bike/distances.png"): not one to read
    words = [path] + ([os.path.basename(path)] if "." in os.path.basename(path) else [])
    # a quoted name with a space that ends in it is another file: "meeting notes.txt" names no notes.txt (ho56's
    # rename was done, and the turn ended "This is not done" over the model's try to read notes.txt)
    request = _QUOTED.sub(lambda m: m.group(0) if m.group(2) in words else " ", request)
    return any(re.search(rf"(?<![\w./-]){re.escape(w)}(?![\w/-])", request) for w in words)


_QUOTED = re.compile(r"""(["'`“‘])([^"'`”’\n]*\s[^"'`”’\n]*)["'`”’]""")


def _cause(turn: Turn) -> Run:
    """The failed run that says why the turn failed: the last one, unless an earlier run found that a
    file the request names is not there and it still is not (a later run then fails for lack of its
    data, `NameError: rows`, which hides the reason), or ran the script the request asks to run."""
    from oi_local.core.errors import missing_paths

    last = turn.runs[-1]
    if missing_paths(error_line(last.output)):
        return last
    return _still_missing(turn) or _script_failed(turn) or _asked_key_missing(turn) or last


def _asked_key_missing(turn: Turn) -> Run | None:
    """A failed run that found the field the request asks about is not in the data ("average salary", and
    `KeyError: 'salary'` over columns name, department, office ...): asked for the average salary of a file
    without one, the 0.5B model's next tries failed on `row[10]`, and the turn ended naming `KeyError: 10` (ho41)."""
    for run in turn.runs:
        m = _NO_KEY.search(run.note or "") if run.failed else None
        if m and re.search(rf"\b{re.escape(m.group(1))}", turn.request, re.I) and len(m.group(1)) >= 3:
            return run
    return None


def _script_failed(turn: Turn) -> Run | None:
    """The last failed run of the script the request asks to run: its own error ("sync_photos: ERROR:
    ~/nas is not mounted") says why, not the SyntaxError of the model's try to do its work by hand."""
    from oi_local.core.rules.run_asked import asked_script

    asked = asked_script(turn.request)
    name = os.path.basename(asked[0]) if asked else None
    ran = [r for r in turn.runs if name and r.failed and name in r.code]
    return ran[-1] if ran else None


def _still_missing(turn: Turn) -> Run | None:
    """A run that found a file the request names is not there, when it still is not."""
    from oi_local.core.errors import _to_make, missing_paths

    for run in turn.runs:
        paths = missing_paths(error_line(run.output)) if run.failed else []
        # a file the request asks to make ("Start a shopping list in shopping.csv") is not there by rights:
        # named as the cause, it hid the error that stopped the turn (whole suite, session 44)
        if paths and _names(turn.request, paths[0]) and not os.path.exists(paths[0]) \
                and not _to_make(paths[0], turn.request):
            return run
    return None


def _names_the_error(said: str, output: str) -> bool:
    """The reply quotes the error itself: its message ("No such file or directory") or its name."""
    line = error_line(output)
    name, _, message = line.partition(": ")
    said = said.lower()
    message = re.sub(r"^\[Errno -?\d+\]\s*", "", message).split(":")[0].strip(" .'\"")
    words = [w for w in (message, name.rsplit(".", 1)[-1]) if len(w) > 6]
    return any(w.lower() in said for w in words)


def admits(said: str, request: str) -> bool:
    """The answer owns up to a failure in words the request does not use itself: "5 lines of server.log
    contain the word ERROR" is the count of ERROR lines asked for, not an error (errors.txt, asked
    for, was never made, and the turn ended as done)."""
    own = {m.group(0).lower() for m in ADMITS.finditer(request)}
    return any(m.group(0).lower() not in own for m in ADMITS.finditer(said))


def finish(turn: Turn) -> str | None:
    from oi_local.core.rules.answers import dumped

    if not turn.runs and not turn.not_run:
        return None
    if dumped(turn):  # whatever words the copied text holds ("problem", "sorry"), it is not an answer
        return f"This is not done: {DUMPED}."
    why = failure(turn)
    said = last_words(turn)
    if why is None:
        return _gaps(turn, said)
    last = turn.runs[-1] if turn.runs else None
    if not turn.not_run and last is not None and last.failed:  # "with the error": a vague "there was an error" is not enough
        return None if _names_the_error(said, _cause(turn).output) else f"This is not done: {why}."
    if not turn.not_run and not (last is not None and last.interrupted) and _still_missing(turn) is not None:
        # The code caught the error: "An error occurred: 'hours'. Please check your folder." does not say the file is not there.
        return None if MISSING_SAID.search(said) else f"This is not done: {why}."
    if why.startswith(UNREAD):  # "Number of nights the backup failed: 0" owns up to nothing: the data was never read
        return f"This is not done: {why}."
    said = NO_ERRORS.sub("", said)  # "ran without errors" owns up to nothing
    if admits(said, turn.request) or why.startswith("the code ran but printed") and ADMITS_EMPTY.search(said):
        return None
    return f"This is not done: {why}."


# Owning up to data that is not there ("Kofi isn't in the file", "the log is empty").
ADMITS_GAP = re.compile(r"\b(nowhere|not (?:in|there|listed|anywhere)|no (?:rows?|data|records?|entries|readings)|empty|"
                        r"is ?n[o']t (?:in|there|listed)|does ?n[o']t (?:appear|exist)|only (?:the|a) header)\b", re.I)


def _gaps(turn: Turn, said: str) -> str | None:
    """A question answered over data that lacks what it asks about (core/hints.py: a CSV with no rows,
    a name no named file holds): shown the gap, the 0.5B model still answered "0" for Kofi's goals
    and for the highest temperature in an empty log. The answer stands; the gap is said after it."""
    from oi_local.core.hints import data_gaps
    from oi_local.core.writes import question

    if not turn.runs or ADMITS_GAP.search(said):
        return None
    from oi_local.core.rules.named_month import missing_month, missing_month_file

    try:  # "add up my march receipts" is no question, but a folder without March is a gap all the same
        month = missing_month_file(turn.request, Path.cwd())
        if question(turn.request):
            gaps = data_gaps(turn.request)
            month = missing_month(turn.request, Path.cwd()) or month
        else:
            gaps = []
    except OSError:
        return None
    gaps += [month] if month else []
    swapped = _swapped_key(turn)
    if swapped and not _said_missing(said, swapped.split("'")[1]):
        gaps.append(swapped)
    return "Note: " + " ".join(gaps) if gaps else None


_KEY_ERROR = re.compile(r"^KeyError: ['\"]([^'\"\n]{3,40})['\"]")
# Words a request uses for what it wants done, that a model also tries as a column name and then finds
# the real one for ("total" before "amount"): a later run without them is a fix, not a swap.
_ASKING_WORDS = {"total", "totals", "sum", "average", "mean", "count", "number", "amount", "value", "values", "data",
                 "name", "names", "date", "dates", "time", "item", "items", "max", "min", "top", "list", "rows"}


def _said_missing(said: str, key: str) -> bool:
    """The reply says the field is not there: "there is no salary column", "salary is missing"."""
    return any(re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", s, re.I) and re.search(r"\b(?:no|not|n't|missing|without)\b", s, re.I)
               for s in re.split(r"(?<=[.!?;])\s+", said))


def _swapped_key(turn: Turn) -> str | None:
    """A sentence saying the data has no field the request asks about, when a run failed for lack of it
    (KeyError) and the last run, which did not fail, answered without it. Asked for the average salary
    in Sales of a staff file with no salary column, the 0.5B model averaged hours_per_week and answered
    35.9 (ho37); that is no salary."""
    last = turn.runs[-1] if turn.runs else None
    if last is None or last.failed:
        return None
    for run in turn.runs[:-1]:
        m = _KEY_ERROR.match(error_line(run.output)) if run.failed else None
        key = m.group(1) if m else ""
        used = re.search(rf"""['"]{re.escape(key)}['"]|\.{re.escape(key)}\b""", last.code, re.I)  # not in "average_salary"
        if not key or key.lower() in _ASKING_WORDS or used or \
                not re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", turn.request, re.I):
            continue
        field = "column" if re.search(r"\bcsv\b|\.csv\b|read_csv", run.code) else "field"
        listed = _NO_KEY.search(run.note or "")
        have = f" (its {field}s are {listed.group(2)})" if listed else ""
        return f"the data has no {field} '{key}'{have}, so the answer above is not from '{key}'."
    return None


rule = Rule(
    name="honest end", setting="honest_end", finish=finish,
    summary="a turn whose last run failed or was stopped, that found a file the request names is not there (and it "
            "still is not, whatever ran after), whose newest code a rule refused to run, whose requested "
            "files are missing or wrong (outputs), a question whose last run printed nothing (or only `None`, `[]`), or "
            "whose answer only says back the request's own text, ends with one sentence saying so and naming the error (a "
            "`KeyError` also in plain words: there is no column 'x'; its columns are ...; a run that found a field the "
            "request names is not there is the error named, over a later one; a run the sandbox kept off the network says first that code here "
            "runs without network access, and how to allow it), "
            "unless the model's last reply already says it (for a failed run: quotes the error; for a missing file: says "
            "it is not there, not only \"an error occurred\"); a question answered over "
            "data that lacks what it asks about (a CSV with no rows, a name no named file holds, a thing to look up (a phone number, a wifi password) no named file mentions, a month its dates do not have, "
            "a month a folder of month-named files has no file for) ends with a note saying so; so does an answer from other "
            "data after a run found that a field the request names is not there (`KeyError: 'salary'`, then another column "
            "averaged)")
