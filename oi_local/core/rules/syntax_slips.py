"""Syntax slips: code that does not compile, with one repair that keeps what it means.
A factorial written `100!`: asked how many digits 100! has, the 0.5B model wrote `n = 100!` and
`str(100!)`, failed twice, then took n = 100 and answered 3 (compute-factorial-digits); each `n!`
that is not `!=` is written `math.factorial(n)` (and `import math` added).
A `with` left out: `open("errors.txt", "w") as f:` on a line of its own (ho32-log-errors: the
SyntaxError's retry dropped the file the request asked for); such a line gets its `with`.
A `return` where there is no function stops the run (`raise SystemExit`). An option's value quoted inside
its string (`"--since="2024-05-01"`) joins it. A name written as words (`fluffy pancake batter = [...]`)
joins them with underscores.
Made only when the code does not compile as written and does after; the person is told."""
from __future__ import annotations

import re

from oi_local.core.pycheck import compiles
from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes}."
_BANG = re.compile(r"(?<![\w.'\"])(\d+|[A-Za-z_]\w*|\([^()\n]{1,40}\))!(?!=)")
_NO_WITH = re.compile(r"(?m)^(\s*)(?!with\b|for\b|except\b|import\b|from\b)([A-Za-z_][\w.]*\(.*\)\s+as\s+[A-Za-z_]\w*\s*:\s*)$")



_STRING = re.compile(r"""(['"])(?:\\.|(?!\1)[^\\\n])*\1""")


def _factorials(code: str) -> tuple[str, list[str]]:
    if "!" not in code:
        return code, []
    # Not inside a string ("Hi there!"): found in the code with each string's text blanked out.
    masked = _STRING.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - 2) + m.group(1), code)
    spans = [(m.start(), m.end(), m.group(1)) for m in _BANG.finditer(masked)]
    if not spans:
        return code, []
    found = list(dict.fromkeys(code[a:b] for a, b, _ in spans))
    new = code
    for a, b, inner in reversed(spans):
        new = new[:a] + f"math.factorial({inner[1:-1] if inner.startswith('(') else inner})" + new[b:]
    if not re.search(r"^\s*import math\b", new, re.M):
        new = "import math\n" + new
    return new, [f"{f} became math.factorial(...)" for f in found[:3]] + ["(n! is math.factorial(n) in Python)"]


def _withs(code: str) -> tuple[str, list[str]]:
    found = [m.group(2).strip() for m in _NO_WITH.finditer(code)]
    if not found:
        return code, []
    return _NO_WITH.sub(r"\1with \2", code), [f"`with` put before {f}" for f in found[:3]]


_RETURN = re.compile(r"(?m)^(\s+)return\b[^\n]*$")


def _returns(code: str) -> tuple[str, list[str]]:
    """A `return` in code with no function: asked which emails were in contacts.csv twice, the 0.5B
    model wrote `if not data: print("not found"); return` at the top level, a SyntaxError in three
    runs (ho38). It stops the run there instead (`raise SystemExit`)."""
    if re.search(r"^\s*(?:async\s+)?def\s", code, re.M) or not _RETURN.search(code):
        return code, []
    return _RETURN.sub(r"\1raise SystemExit", code), ["a `return` outside a function became `raise SystemExit`"]


# "--since="2024-05-01": an option's value quoted inside the option's own string
_OPTION = re.compile(r"""(["'])(--?[\w-]+=)\1([^"'\s,()\[\]]+)\1""")


def _options(code: str) -> tuple[str, list[str]]:
    """A command-line option whose value is quoted inside the option's string: asked who made the most
    commits, the 0.5B model wrote `["git", "log", "--since="2024-05-01", ...]`, a SyntaxError, three times
    in one turn (ho38). The value joins the option (`"--since=2024-05-01"`)."""
    found = [m.group(0) for m in _OPTION.finditer(code)]
    if not found:
        return code, []
    joined = r"\1\2\3\1"
    return _OPTION.sub(joined, code), [f"{f} → {_OPTION.sub(joined, f)}" for f in found[:3]]


# "fluffy pancake batter = [...]": a name of several words at the start of an assignment
_SPACED = re.compile(r"(?m)^[ \t]*([A-Za-z_]\w*(?:[ \t]+[A-Za-z_]\w*)+)[ \t]*=(?!=)")


def _spaced_names(code: str) -> tuple[str, list[str]]:
    """A name written as words with spaces: asked what a pancake recipe needs, the 0.5B model wrote
    `fluffy pancake batter = [...]` and `print(fluffy pancake batter)`, a SyntaxError, on three tries in a
    row (ho48, read after that set's end). The words are joined by underscores wherever the code (not
    its strings) writes them so."""
    import keyword

    masked = _STRING.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - 2) + m.group(1), code)
    names = [m.group(1) for m in _SPACED.finditer(masked)
             if not any(keyword.iskeyword(w) or keyword.issoftkeyword(w) for w in m.group(1).split())]
    if not names:
        return code, []
    new = code
    for name in sorted(set(names), key=len, reverse=True):
        words = name.split()
        pattern = re.compile(r"(?<![\w.])" + r"[ \t]+".join(map(re.escape, words)) + r"(?!\w)")
        spans = [m.span() for m in pattern.finditer(masked)]
        for a, b in reversed(spans):
            new = new[:a] + "_".join(words) + new[b:]
            masked = masked[:a] + "_".join(words) + masked[b:]
    return new, [f"`{n}` became `{'_'.join(n.split())}` (a name has no spaces)" for n in list(dict.fromkeys(names))[:3]]


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or compiles(block.code):
        return None
    new, told = block.code, []
    for repair in (_factorials, _withs, _returns, _options, _spaced_names):
        new, said = repair(new)
        told += said
    if not told or new == block.code or not compiles(new):
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes="; ".join(told)))


rule = Rule(
    name="syntax slips", setting="repair_slips", check=check,
    summary="code that does not compile because it writes a factorial as `100!` has each `n!` written "
            "`math.factorial(n)` (and `import math` added), a line `open(\"a.txt\", \"w\") as f:` gets its `with`, "
            "a `return` in code with no function stops the run (`raise SystemExit`), and an option's value quoted "
            "inside its string (`\"--since=\"2024-05-01\"`) joins it (`\"--since=2024-05-01\"`), a name written as words "
            "(`fluffy pancake batter = [...]`) joins them with underscores, "
            "before it runs, when it compiles so; the person is told")
