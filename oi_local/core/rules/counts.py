"""Counts: a "how many" question is answered with a number. Asked how many lines a file has, the 0.5B
model printed the lines themselves and answered with them, listed; the answers rule does not look at
an output that long, and the person had to count. A question that asks how many, answered after a
clean run that printed more than a short result with no number at all, or with a list over a
printed list, or after a short output with no number in it and none in the answer either (a two-part
question answered only in its other part), is asked once for code that prints the count. Other short
results are left to the answers rule: asked here, "how many hours did Priya work?" over a printed
total per person was led astray."""
from __future__ import annotations

import ast
import re

from oi_local.core.rules.answers import MAX_SHORT_OUTPUT
from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import (
    Turn,
    asks_back,
    asks_something,
    block_prefix,
    code_retry,
    instruction,
    newest_reply,
)

NOTE = "(Not answered yet: I asked how many, and the answer gives {what}. Write one ```python block that prints the count.)"
LENGTH_NOTE = "(Not answered yet: I asked how many, and the answer gives {what}. The code printed a list: print its length with this ```python block.\n{block})"
# The printed lines said back, each one done thing ("Copied ideas.md to backup"): they are counted. Asked
# for code that prints the count, the 0.5B model copied the files again, or read another file (ho32).
LINES_NOTE = ("Stop writing code now. I asked how many, and the code printed one line for each: {n} lines that begin "
              "with \"{word}\". Answer my question in one sentence, with the number.")
# Asked to save the lines and say how many, the 0.5B model printed the count, wrote the file with silent
# code, and answered "The code ran without errors and printed nothing."; asked for code that prints the
# count, it appended to the log and then counted its every line (ho32-log-errors).
EARLIER_NOTE = ("Stop writing code now. I asked how many, and an output above printed the count. Answer my request in "
                "one or two sentences, with that number.")
HOW_MANY = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+(?:the|how|of|all)\b|\bhow\s+(?:long|big)\s+is\b.*\bin\s+lines\b", re.I)
_NUMBER = re.compile(r"\d|\b(?:zero|none|no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                     r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|hundred|thousand)\b", re.I)
# A task whose verb is counting asks for a count as a question does: "Count how many lines in app.log contain
# ERROR, and save just those lines into errors.txt" wrote the file, printed nothing, and "The code ran without
# errors and printed nothing." ended the turn (ho54 dev, session 55).
COUNT_TASK = re.compile(r"\s*(?:(?:please|can\s+you|could\s+you)\s+)?(?:count|(?:tell\s+me|find\s+out|work\s+out|check)\s+"
                        r"how\s+many)\b", re.I)
LIST_LINES = 3  # an answer of this many lines over an output of as many is a list, not a count


# A number on its own ("Number of active users: 4"), not part of a path or a name ("notes/2024/feb.md").
_ALONE = re.compile(r"(?<![\w/.-])\d+(?:\.\d+)?(?![\w/-]|\.\w)")


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


def uncounted(turn: Turn) -> str | None:
    """How the newest reply fails a how-many question after a clean run, or None."""
    from oi_local.core.writes import question

    # asks_something: "Here is a story my grandmother wrote down: ... How many times does 'harbour'
    # appear?" is a question in its last sentence ("wrote" made the whole a task)
    last = turn.runs[-1] if turn.runs else None
    reply = newest_reply(turn.engine)
    asked = instruction(turn.request)
    if not (last and not last.failed and not last.interrupted and reply and HOW_MANY.search(asked)
            and (question(asked) or asks_something(turn.request) or COUNT_TASK.match(asked))) or asks_back(turn.engine):
        return None
    said = str(reply.get("content", ""))
    if len(_lines(said)) >= 2 and [ln.strip() for ln in _lines(said)] == [ln.strip() for ln in _lines(last.output)] \
            and not _ALONE.search(last.output):
        # "how many did you copy?" answered with the copy's own lines, whose only numbers were a year in a path
        return "the printed lines again, not a count"
    if len(last.output) <= MAX_SHORT_OUTPUT:
        # A short result is the answers rule's, unless no count was printed at all: asked "how many
        # TODOs, and which file has the most?" the code printed only the file's name, and so did the answer.
        return "no number" if not re.search(r"\d", last.output) and not _NUMBER.search(said) else None
    if not _NUMBER.search(said):
        return "no number"
    if len(_lines(said)) >= LIST_LINES and len(_lines(last.output)) >= LIST_LINES:
        return "a list instead of a number"
    return None


def printed_list(code: str, output: str) -> str | None:
    """The name whose list the code printed last, when all it printed is one list (or tuple, set): the
    session still holds it, so its length is the count. Asked how often "harbour" was in a story, the
    0.5B model printed `re.findall(...)`, 23 items, and, asked for the count, wrote code that said 0."""
    try:
        shown = ast.literal_eval(output.strip())
        tree = ast.parse(code)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    last = tree.body[-1] if tree.body else None
    call = last.value if isinstance(last, ast.Expr) else None
    if not (isinstance(shown, (list, tuple, set)) and isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "print" and len(call.args) == 1 and isinstance(call.args[0], ast.Name)):
        return None
    return call.args[0].id


# Asked again for code that prints the count after such a silent run, the 0.5B model counted every line of the
# file, 30 for 7 (ho54 dev, session 56); the list the run kept holds the answer.
SILENT_NOTE = ("(Not answered yet: I asked how many, and the code printed nothing. `{name}` holds what it picked: print its "
               "length with this ```python block.\n{block})")


def picked_list(code: str) -> str | None:
    """The name the code last bound, outside any function, to a list it filtered (`[l for l in lines if "ERROR" in l]`)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.ListComp) and any(g.ifs for g in node.value.generators):
            found.append((node.lineno, node.targets[0].id))
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(tree)
    return max(found)[1] if found else None


def follow_up(turn: Turn) -> Ask | None:
    what = uncounted(turn) if turn.steps and turn.steps_left and turn.counts["counts"] < 1 else None
    if not what:
        return None
    turn.counts["counts"] += 1
    last = turn.runs[-1]
    if not last.output.strip() and any(_ALONE.search(r.output) for r in turn.runs[:-1] if not r.failed):
        return Ask(EARLIER_NOTE, final=True)  # the count is there already, from a run before the silent one
    lines = _lines(last.output)
    firsts = {ln.split()[0].lower() for ln in lines}
    if what.startswith("the printed lines") and len(firsts) == 1 and re.fullmatch(r"[a-z]+", next(iter(firsts))):
        # The reply that said the lines back is dropped: the answer is asked for in its place.
        return Ask(LINES_NOTE.format(n=len(lines), word=lines[0].split()[0]), final=True)
    picked = picked_list(last.code) if last.lang == "python" and not last.output.strip() else None
    if picked:  # a silent run that kept what it picked: the session still holds it
        block = f"```python\nprint(len({picked}))\n```"
        return Ask(SILENT_NOTE.format(name=picked, block=block), block_prefix(turn.engine, block))
    name = printed_list(last.code, last.output) if last.lang == "python" else None
    if name:  # the list is still there: the count is its length
        block = f"```python\nprint(len({name}))\n```"
        return Ask(LENGTH_NOTE.format(what=what, block=block), block_prefix(turn.engine, block))
    return Ask(NOTE.format(what=what), code_retry(turn.engine, 1))


rule = Rule(
    name="counts", setting="check_answers", follow_up=follow_up,
    summary="a question that asks how many, answered after a clean run that printed more than a short result with "
            "no number or with a list over a printed list, or with the printed lines said back when no number stands on "
            "its own in them, or after a short output with no number that the answer gives none "
            "either, is asked once for code that prints the count (when it printed one list, or printed nothing and kept a list "
            "it filtered, the reply starts with `print(len(that_list))`: the session still holds it); a task whose verb is "
            "counting (\"Count how many ... and save them\") counts as such a question")
