from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import max_rows

from .handmade import block, make_turn

RAIN = "month,rain_mm\nJanuary,40.5\nMarch,120.0\nSeptember,88.2\nJune,12.0\n"
CODE = 'import pandas as pd\nrainfall = pd.read_csv("rainfall.csv")\nprint(rainfall.max().month)\nprint(rainfall.min()["month"])\n'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "rainfall.csv").write_text(RAIN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(code: str, folder: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_a_text_columns_max_becomes_the_row_of_the_largest_number(folder: Path) -> None:
    assert _run(CODE, folder) == "September\nJanuary\n"  # the slip: alphabetical
    b = block(CODE)
    verdict = max_rows.check(make_turn("Which month was the wettest according to rainfall.csv?"), b)
    assert verdict is not None and not (verdict.again or verdict.stop)
    assert "rainfall.loc[rainfall['rain_mm'].idxmax(), 'month']" in b.code
    assert "rainfall.max().month became" in verdict.warning
    assert _run(b.code, folder) == "March\nJune\n"


def test_left_alone(folder: Path) -> None:
    turn = make_turn("how wet was the wettest month in rainfall.csv?")
    numbers = 'import pandas as pd\ndf = pd.read_csv("rainfall.csv")\nprint(df.max().rain_mm, df.max()["rain_mm"])'
    assert max_rows.check(turn, block(numbers)) is None  # a number column's own max is right
    (folder / "two.csv").write_text("month,rain_mm,sun_h\nMay,3,200\nJuly,9,100\n")
    two = 'import pandas as pd\ndf = pd.read_csv("two.csv")\nprint(df.max().month)'
    assert max_rows.check(turn, block(two)) is None  # which number column is meant is not clear
    assert max_rows.check(turn, block(CODE.replace("rainfall.csv", "missing.csv"))) is None
