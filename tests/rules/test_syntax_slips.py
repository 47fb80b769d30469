from __future__ import annotations

import subprocess
import sys

import pytest

from oi_local.core.rules import syntax_slips

from .handmade import block, make_turn


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_a_written_factorial_is_math_factorial() -> None:
    b = block("n = 100!\nprint(len(str(n)), sum(int(d) for d in str(n)))")
    verdict = syntax_slips.check(make_turn("How many digits does 100 factorial (100!) have?"), b)
    assert verdict is not None and "100! became math.factorial(...)" in verdict.warning
    assert b.code.startswith("import math\n") and "n = math.factorial(100)" in b.code
    assert _run(b.code) == "158 648\n"
    named = block("import math\nk = 5\nprint(k! // (2! * (k - 2)!))")
    assert syntax_slips.check(make_turn("5 choose 2"), named) is not None
    assert _run(named.code) == "10\n" and named.code.count("import math") == 1
    worded = block('print("Hi there!", 4!)\nprint(\'Wow! \' + str(3!))')
    assert syntax_slips.check(make_turn("4 factorial"), worded) is not None
    assert _run(worded.code) == "Hi there! 24\nWow! 6\n"  # the strings as they were


@pytest.mark.parametrize("code", [
    "print(3 != 4)",  # compiles
    'print("wow!")',
    "x = 1 +",  # does not compile, and no factorial would make it
])
def test_left_alone(code: str) -> None:
    assert syntax_slips.check(make_turn("x"), block(code)) is None


def test_a_with_left_out_is_put_back(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    errors = ["ERROR a", "ERROR b"]
    code = f'errors = {errors!r}\nopen("errors.txt", "w") as f:\n    for line in errors:\n        f.write(line + "\\n")\n'
    b = block(code)
    verdict = syntax_slips.check(make_turn("put the ERROR lines in errors.txt"), b)
    assert verdict is not None and "`with` put before open(\"errors.txt\", \"w\") as f:" in verdict.warning
    assert 'with open("errors.txt", "w") as f:' in b.code
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=tmp_path)
    assert (tmp_path / "errors.txt").read_text() == "ERROR a\nERROR b\n"


def test_a_return_with_no_function_stops_the_run(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "contacts.csv").write_text("name,email\nAna,a@x\nBen,b@x\nAnn,a@x\n")
    code = ('import csv\nfrom collections import Counter\nwith open("contacts.csv", newline="") as f:\n'
            '    data = list(csv.DictReader(f))\n    if not data:\n        print("contacts.csv is empty")\n        return\n'
            'counts = Counter(r["email"] for r in data)\nprint({e: n for e, n in counts.items() if n > 1})\n')
    b = block(code)
    verdict = syntax_slips.check(make_turn("which emails are in contacts.csv twice?"), b)
    assert verdict is not None and "raise SystemExit" in verdict.warning
    assert "        raise SystemExit\n" in b.code and "return" not in b.code
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == "{'a@x': 2}\n"
    (tmp_path / "contacts.csv").write_text("name,email\n")
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == "contacts.csv is empty\n"  # it stops there
    # in a function, a return is fine; code with a function and a stray return is left alone
    assert syntax_slips.check(make_turn("x"), block("def f():\n    return 1\nprint(f())")) is None
    assert syntax_slips.check(make_turn("x"), block("def f():\n    pass\nif True:\n    return 1")) is None


def test_an_options_value_quoted_inside_its_string_joins_it() -> None:
    from oi_local.core.rules import syntax_slips

    code = ('import subprocess\nout = subprocess.run(["git", "log", "--since="2024-01-01", "--format=%an"], '
            'capture_output=True, text=True)\nprint(out.returncode)')
    b = block(code)
    verdict = syntax_slips.check(make_turn("who made the most commits in 2024?"), b)
    assert verdict is not None and '"--since=2024-01-01"' in b.code and "--format=%an" in b.code
    compile(b.code, "<t>", "exec")


def test_a_name_written_as_words_joins_them() -> None:
    code = ('fluffy pancake batter = [\n    "Fluffy pancakes (serves 4)",\n    "fluffy pancake batter = 2 eggs",\n]\n'
            'serves  count = 4\nprint(fluffy pancake batter[0], serves count)')
    b = block(code)
    verdict = syntax_slips.check(make_turn("what do I need for the pancakes in pancakes.txt?"), b)
    assert verdict is not None and "`fluffy pancake batter` became `fluffy_pancake_batter`" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, check=True).stdout
    assert out == "Fluffy pancakes (serves 4) 4\n"
    assert '"fluffy pancake batter = 2 eggs"' in b.code  # a string is left as written
    for kept in ("if x in y = 2:\n    pass", "x = 1\nprint(x)"):  # keywords; code that compiles
        assert syntax_slips.check(make_turn("x"), block(kept)) is None
