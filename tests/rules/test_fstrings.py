from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import active, fstrings

from .handmade import block, make_turn

SPLIT = 'from pathlib import Path\np = Path("2022-08-14_lake.jpg")\nprint(f"camera_roll/{p.name.split("-")[0]}/")'
JOINED = "lines = ['a', 'b']\nprint(f\"{'\\n'.join(lines)}!\")"


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 compiles these as written")
def test_an_f_string_with_its_own_quote_or_a_newline_in_its_braces_runs(tmp_path: Path) -> None:
    for code, printed in ((SPLIT, "camera_roll/2022/"), (JOINED, "a\nb!")):
        b = block(code)
        verdict = fstrings.check(make_turn("sort the photos"), b)
        assert verdict is not None and "f-string" in verdict.warning
        out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode == 0 and out.stdout.strip() == printed, b.code
    assert "{p.name.split('-')[0]}" in fstrings.requoted(SPLIT)


def test_left_alone() -> None:
    for code in ('print(f"{x!r} and {{braces}}")',  # compiles
                 'print(f"{d["a"]} and "b"\')',  # broken otherwise: not made to compile
                 "print(1 +)"):  # another syntax error
        b = block(code)
        assert fstrings.check(make_turn("x"), b) is None and b.code == code
    assert fstrings.requoted('s = f"{a}" + "x"\nt = f\'{b["k"]}\'') == 's = f"{a}" + "x"\nt = f\'{b["k"]}\''
    assert fstrings.requoted('f"""{x["a"]}"""') == 'f"""{x["a"]}"""'  # triple quoted: not touched


def test_off_with_repair_slips() -> None:
    assert fstrings.rule not in active(make_turn("x", repair_slips=False).engine, "check")
