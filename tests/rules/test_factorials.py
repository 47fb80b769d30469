from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.rules import factorials

from .handmade import block, make_turn


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_a_written_factorial_is_math_factorial() -> None:
    b = block("n = 100!\nprint(len(str(n)), sum(int(d) for d in str(n)))")
    verdict = factorials.check(make_turn("How many digits does 100 factorial (100!) have?"), b)
    assert verdict is not None and "100! became math.factorial(...)" in verdict.warning
    assert b.code.startswith("import math\n") and "n = math.factorial(100)" in b.code
    assert _run(b.code) == "158 648\n"
    named = block("import math\nk = 5\nprint(k! // (2! * (k - 2)!))")
    assert factorials.check(make_turn("5 choose 2"), named) is not None
    assert _run(named.code) == "10\n" and named.code.count("import math") == 1


@pytest.mark.parametrize("code", [
    "print(3 != 4)",  # compiles
    'print("wow!")',
    "x = 1 +",  # does not compile, and no factorial would make it
])
def test_left_alone(code: str) -> None:
    assert factorials.check(make_turn("x"), block(code)) is None
