"""Unsaved lists: "Save a cleaned-up list with every address only once to signups_clean.txt, and tell me how many
different addresses there are." The 0.5B model's code found the 21 addresses and printed them, and saved nothing;
asked for code that saves the file, it opened signups_clean.txt for writing and read from it (ho58, development
runs). When a text file the request asks for (outputs.py: "was not created") is missing and the last clean run
printed one list it had made (`unique = sorted({...})`, then `print(len(unique), unique)`), the loop offers the
model's code again with the lines that write that list to the file, one item a line, once a turn."""
from __future__ import annotations

import ast

from oi_local.core.rules.base import Ask, Rule
from oi_local.core.rules.turn import Turn, asks_back, careful, own_code

NOTE = "(Not done yet: {name} was not created, and the code made the list I asked for as {var}."
HOW = "This block also saves it there, one item a line; reply with it, then answer anything else I asked."
SUFFIXES = (".txt", ".md", ".csv", ".list")
_MADE = (ast.ListComp, ast.SetComp, ast.List, ast.Set)
_MAKERS = {"sorted", "list", "set"}


def printed_list(code: str) -> str | None:
    """The one name the code binds to a list or set it makes and then prints (alone or among other things)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    made = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
            and (isinstance(n.value, _MADE) or isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
                 and n.value.func.id in _MAKERS)
            for t in n.targets if isinstance(t, ast.Name)}
    printed = {a.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id == "print" for a in n.args if isinstance(a, ast.Name)}
    both = made & printed
    return both.pop() if len(both) == 1 else None


def follow_up(turn: Turn) -> Ask | None:
    from oi_local.core.rules.outputs import problems

    last = turn.runs[-1] if turn.runs else None
    if (last is None or last.failed or last.interrupted or turn.counts["unsaved lists"] or not turn.steps_left
            or asks_back(turn.engine) or careful(turn.request) or last.lang != "python"):
        return None
    var = printed_list(last.code)
    if var is None:
        return None
    missing = [p.split(" was not created")[0] for p in problems(turn) if p.endswith(" was not created")]
    if len(missing) != 1 or not missing[0].lower().endswith(SUFFIXES):
        return None
    turn.counts["unsaved lists"] += 1
    name = missing[0]
    code = (f"{last.code.rstrip()}\nitems = sorted({var}) if isinstance({var}, set) else list({var})\n"
            f"with open({name!r}, 'w', encoding='utf-8') as f:\n    f.write(''.join(f'{{x}}\\n' for x in items))\n"
            f"print(len(items), 'lines saved to {name}')")
    return own_code(turn.engine, NOTE.format(name=name, var=var), code, HOW)


rule = Rule(
    name="unsaved lists", setting="check_outputs", follow_up=follow_up,
    summary="a text file the request asks for that was not made, when the last clean run printed one list it had made "
            "(`unique = sorted({...})`, `print(len(unique), unique)`): the loop offers that code again with the lines "
            "that write the list to the file, one item a line (once a turn)")
