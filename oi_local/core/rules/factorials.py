"""Factorials: `100!` is the factorial in writing, not in Python, where it is a SyntaxError. Asked how
many digits 100! has, the 0.5B model wrote `n = 100!` and `str(100!)`, failed twice, then took n = 100
and answered 3 (compute-factorial-digits). Code that does not compile, in which a whole number or a
name stands before a `!` that is not `!=`, has each such `n!` written `math.factorial(n)` (and
`import math` added) before it runs, only when it compiles so changed; the person is told."""
from __future__ import annotations

import re

from oi_local.core.rules.base import Rule, Verdict
from oi_local.core.rules.turn import Block, Turn

NOTE = "Changed before it ran: {changes} (n! is written math.factorial(n) in Python)."
_BANG = re.compile(r"(?<![\w.'\"])(\d+|[A-Za-z_]\w*|\([^()\n]{1,40}\))!(?!=)")


def _compiles(code: str) -> bool:
    try:
        compile(code, "<code>", "exec")
        return True
    except (SyntaxError, ValueError):
        return False


def check(turn: Turn, block: Block) -> Verdict | None:
    if block.lang != "python" or "!" not in block.code or _compiles(block.code):
        return None
    found = list(dict.fromkeys(m.group(0) for m in _BANG.finditer(block.code)))
    if not found:
        return None
    new = _BANG.sub(lambda m: f"math.factorial({m.group(1).strip('()') if m.group(1).startswith('(') else m.group(1)})",
                    block.code)
    if not re.search(r"^\s*import math\b", new, re.M):
        new = "import math\n" + new
    if not _compiles(new):
        return None
    block.message["content"] = new
    return Verdict(warning=NOTE.format(changes=", ".join(f"{f} became math.factorial(...)" for f in found[:3])))


rule = Rule(
    name="factorials", setting="repair_slips", check=check,
    summary="code that does not compile because it writes a factorial as `100!` has each `n!` written "
            "`math.factorial(n)` (and `import math` added) before it runs, when it compiles so; the person is told")
