"""Minus sums: asked how much was left over in March, the 0.5B model summed the minus amounts
(`money_out = sum(a for a in amounts if a < 0)`, -1290.79) and then took `money_in - money_out`:
2169.97 + 1290.79, for 879.18 left over (ho38). A total of only the negative values, later taken away
from something, is a sign slip: the total is made positive where it is worked out
(`-sum(...)`), so what is spent reads as spent and what is left is the difference; the person is told."""
from __future__ import annotations

import ast

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn, rewrite

NOTE = "Changed before it ran: {changes} (a total of the minus amounts is negative; it is taken away later, so it is made positive)."


def _below_zero(test: ast.expr) -> bool:
    """`a < 0`, `r["amount"] <= 0`, `float(x) < 0`."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE))
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 0)


def _negative_total(value: ast.expr) -> bool:
    """`sum(<...> for <...> if <...> < 0)` (a generator or a list comprehension)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "sum"
            and len(value.args) == 1 and isinstance(value.args[0], (ast.GeneratorExp, ast.ListComp))):
        return False
    gens = value.args[0].generators
    return len(gens) == 1 and len(gens[0].ifs) == 1 and _below_zero(gens[0].ifs[0])


def made_positive(code: str) -> tuple[str, list[str]]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code, []
    totals = {n.targets[0].id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and _negative_total(n.value)}
    assigned = [t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
    taken_away = {n.right.id for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
                  and isinstance(n.right, ast.Name)}
    added = {side.id for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add)
             for side in (n.left, n.right) if isinstance(side, ast.Name)}
    edits, changes = [], []
    for name, value in totals.items():
        if name not in taken_away or name in added or assigned.count(name) != 1 or value.lineno != value.end_lineno:
            continue
        old = ast.get_source_segment(code, value) or ""
        edits.append((value.lineno, value.col_offset, value.end_col_offset or 0, f"-{old}"))
        changes.append(f"{name} = {old} → {name} = -{old}")
    if not edits:
        return code, []
    return rewrite(code, edits), changes


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "sum(" not in block.code or "0" not in block.code:
        return None
    new, changes = made_positive(block.code)
    if not changes:
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes="; ".join(changes)))


rule = Rule(
    name="minus sums", setting="repair_slips", check=check,
    summary="a total of only the negative values (`out = sum(a for a in amounts if a < 0)`) that the code later takes "
            "away from something (`money_in - out`) is made positive where it is worked out (`-sum(...)`) before it "
            "runs; the person is told")
