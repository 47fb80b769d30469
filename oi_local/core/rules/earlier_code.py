"""Earlier code: after the loop gave the code for "how many books have I finished so far in 2025?", asked
"and which author have I read the most of this year?" the 0.5B model sent the same block back, and again
for the next request (a development run): the newest code in the conversation is the easiest reply. A
block that is code which already ran for an earlier request, sent for a new one that does not ask to run
it again, and changes no file, is not run; the model is asked once (sampled) for new code for the new request, told what the
old code printed."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Ask, Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, code_retry, instruction

NOTE = ("(That code answered my earlier question; it printed: {printed}. This is a new question: write one ```python "
        "block that answers it.)")
SHOWN = "Not run: the same code already answered the earlier request; asked for code for this one."
_AGAIN = re.compile(r"\b(?:again|re-?run|same|repeat|once\s+more)\b", re.I)


def same_work(code: str) -> str:
    """`code` as the work it does: the text of what it prints left out. Asked "and how many of those Pro
    customers signed up in 2023?", the 0.5B model sent the loop's code for "how many are on the Pro plan?"
    with only its label changed ('customers:' became 'Pro customers:'), and answered 12 again (ho36)."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code.strip()
    if all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) for n in tree.body):
        return code.strip()  # `print("Paris")`: what it prints is all it does
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "print":
            for node in ast.walk(call):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    node.value = ""
    return ast.dump(tree)


def _earlier(turn: Turn, block: Block) -> str | None:
    """What the same code (or the same but for what it prints) printed when it ran for an earlier request, or None."""
    messages = turn.engine.messages[:max(turn.start - 1, 0)]
    work = same_work(block.code) if block.lang == "python" else block.code.strip()
    for i, m in enumerate(messages):
        if m.get("type") != "code":
            continue
        earlier = str(m.get("content", ""))
        if earlier.strip() == block.code.strip() or block.lang == "python" and m.get("format") in (None, "python") \
                and same_work(earlier) == work:
            out = next((str(n.get("content", "")) for n in messages[i + 1:i + 3] if n.get("type") == "console"), None)
            if out is None or out.startswith(("Not run", "Code not run", "The user declined")):
                continue  # it never ran (a rule or the person held it back): not an answer given
            return " ".join(out.split())[:200] or "nothing"
    return None


def _writes(block: Block) -> bool:
    from oi_local.core.writes import changed_paths

    try:
        return bool(changed_paths(block.lang, block.code))
    except (SyntaxError, ValueError):
        return True


def check(turn: Turn, block: Block) -> Verdict | None:
    if turn.counts["earlier code"] or turn.runs or turn.start <= 1 or _AGAIN.search(instruction(turn.request)):
        return None
    printed = _earlier(turn, block)
    if printed is None or _writes(block):
        return None  # code that changes files is the same action asked again ("delete notes.txt" once more)
    from oi_local.core.rules import named_month

    if named_month.rule.enabled(turn.engine):
        narrowed = named_month.check(turn, block)
        if narrowed is not None:  # "and how much of that was in February?": the same code for one month is new code
            return narrowed
    turn.counts["earlier code"] += 1
    return Verdict(note=SHOWN, ask=Ask(NOTE.format(printed=printed), code_retry(turn.engine, 53)))


OUTPUT_NOTE = ("(That printed just what the code for my earlier question printed: {printed}. This is a new question: "
               "write one ```python block that answers it, reading the file again.)")


def _earlier_output(turn: Turn) -> str | None:
    """What the last run for an earlier request printed, as one line, or None."""
    messages = turn.engine.messages[:max(turn.start - 1, 0)]
    outs = [str(m.get("content", "")) for m in messages if m.get("role") == "computer" and m.get("type") == "console"]
    return " ".join(outs[-1].split()) if outs and outs[-1].strip() else None


def after_run(turn: Turn) -> Ask | None:
    """Asked "and how much of that hasn't been paid yet?", the 0.5B model re-used the first turn's list in new code,
    `total_billed = sum(amounts)`, printed the first answer again and said it (ho50): not the same code, the same
    output. A new request's first run that printed just what the last run for the request before it printed is
    followed by one sampled ask for new code, told so."""
    last = turn.runs[-1] if len(turn.runs) == 1 else None
    if last is None or last.failed or turn.counts["earlier code"] or turn.start <= 1 \
            or _AGAIN.search(instruction(turn.request)):
        return None
    printed = _earlier_output(turn)
    if printed is None or " ".join(last.output.split()) != printed \
            or _writes(Block({"role": "assistant", "type": "code", "format": last.lang, "content": last.code})):
        return None  # code that wrote a file did more than print the answer again ("put that number in a file")
    turn.counts["earlier code"] += 1
    return Ask(OUTPUT_NOTE.format(printed=printed[:200]), code_retry(turn.engine, 59))


rule = Rule(
    name="earlier code", setting="stop_repeats", check=check, after_run=after_run,
    summary="code that already ran for an earlier request (or the same but for the text it prints), sent again for a new one that does not ask to run it "
            "again and that changes no file, is not run; the model is asked once (sampled) for new code, told what the old code printed; "
            "when the new request names one month or year and rule named month narrows the code's rows to it, it runs so narrowed; "
            "a new request's first run that printed just what the last run for the request before printed is followed by one "
            "sampled ask for new code")
