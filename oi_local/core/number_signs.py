"""Numbers written with a sign, a unit or thousands commas: float('£112.30'), float('1,250') and
float('45%') fail. The 0.5B model, told only the error, converted the same text again on its next two
tries (ho48's bills, read after that set's end). The fix is certain when the text holds one number:
keep its digits, point and minus sign where it is converted."""
from __future__ import annotations

import ast
import re

from oi_local.core.pycheck import rewrite

# one number and what is written around it: "£112.30", "$1,250", "-€5", "45%", "12.5 kg", "30 EUR"
_ONE_NUMBER = re.compile(r"\s*(?P<pre>-?[^\d\s.,-]{1,3})?\s*-?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                         r"\s*(?P<post>[^\d\s.,-]{1,5})?\s*")
KEEP = 're.sub(r"[^0-9.-]", "", {arg})'
# an amount of money or a percentage in a table's cell: "$12.50", "£1,200", "-€5", "45%", "30 EUR"
_AMOUNT = re.compile(r"\s*(?P<minus>-)?\s*(?:[$£€¥₹]|[A-Z]{3}\s)?\s*(?P<minus2>-)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
                     r"\s*(?:%|\s[A-Z]{3}|[$£€¥₹])?\s*")


def amount(value: str) -> float | None:
    """The number a cell holds, written plain or as an amount ("$12.50", "1,200", "45%"), or None."""
    m = _AMOUNT.fullmatch(value)
    if m is None:
        return None
    number = float(m["num"].replace(",", ""))
    return -number if m["minus"] or m["minus2"] else number


def extra(value: str) -> str | None:
    """What `value` has besides its one number ("£", "a thousands comma"), or None when it is not one
    number with something written around it."""
    m = _ONE_NUMBER.fullmatch(value)
    if m is None:
        return None
    signs = [s.strip("-") for s in (m["pre"], m["post"]) if s and s.strip("-")]
    if "," in m["num"]:
        signs.append("thousands commas")
    return " and ".join(signs) or None


def signs_dropped(value: str, code: str, line: int | None) -> str | None:
    """`code` with what int() or float() reads on `line` kept to its digits, point and minus sign
    (int() of a decimal becomes float()); None when `value` is not one number with signs around it
    or nothing on that line converts."""
    if line is None or extra(value) is None:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    edits = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("float", "int")
                and len(node.args) == 1 and not node.keywords and node.lineno == node.end_lineno == line
                and not isinstance(node.args[0], ast.Constant)):
            arg = ast.get_source_segment(code, node.args[0])
            if arg is None:
                return None
            fn = "float" if node.func.id == "float" or "." in value else "int"
            edits.append((node.lineno, node.col_offset, node.end_col_offset or 0, f"{fn}({KEEP.format(arg=arg)})"))
    if not edits:
        return None
    fixed = rewrite(code, edits)
    if not re.search(r"^\s*import (?:[\w, ]*, )?re\b", fixed, re.M):
        fixed = "import re\n" + fixed
    return fixed.strip()


def ints_made_floats(code: str, line: int | None) -> str | None:
    """`code` with each int() of text on `line` made float() (int('13.1') fails), or None when there is none."""
    if line is None:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    edits = [(n.func.lineno, n.func.col_offset, n.func.end_col_offset or 0, "float") for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "int" and len(n.args) == 1
             and not n.keywords and n.lineno == line and not isinstance(n.args[0], ast.Constant)]
    return rewrite(code, edits).strip() if edits else None
