from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import plot_file

from .handmade import block, make_turn

SHOWN = """import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv("rides.csv")
if len(df):
    plt.plot(df["day"], df["km"])
    plt.show()
print(df["km"].max())
"""


def test_a_plot_shown_but_not_saved_is_saved_where_the_request_asks() -> None:
    turn = make_turn("plot the km from rides.csv and save it as charts/km.png. which day was longest?")
    b = block(SHOWN)
    verdict = plot_file.check(turn, b)
    assert verdict is not None and "charts/km.png" in verdict.warning and not (verdict.again or verdict.stop)
    assert "    plt.savefig('charts/km.png')\n    plt.show()" in b.code  # before the show, same indent
    assert plot_file.check(turn, b) is None  # saves now: left alone
    pandas = block("df = pd.read_csv('rides.csv')\ndf.plot(x='day', y='km')\nplt.show()")
    assert plot_file.check(turn, pandas) is not None and "plt.savefig('charts/km.png')\nplt.show()" in pandas.code


def test_left_alone_without_a_named_picture_or_a_pyplot_drawing() -> None:
    assert plot_file.check(make_turn("plot the km from rides.csv"), block(SHOWN)) is None
    assert plot_file.check(make_turn("save the summary as km.txt"), block(SHOWN)) is None
    turn = make_turn("draw the km and save as km.png")
    assert plot_file.check(turn, block("print(1)")) is None
    assert plot_file.check(turn, block("x = (", )) is None  # unreadable code
    assert plot_file.check(turn, block(SHOWN, lang="shell")) is None
    assert plot_file.check(make_turn("save it as a.png, and save it as b.png"), block(SHOWN)) is None  # which one?


def test_no_show_the_save_goes_at_the_end_and_the_file_is_made(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    code = "import matplotlib\nmatplotlib.use('Agg')\nfrom matplotlib import pyplot as p\np.bar([1, 2], [3, 4])\n"
    new = plot_file.with_savefig(code, "bars.png")
    assert new.endswith("p.savefig('bars.png')\n")
    subprocess.run([sys.executable, "-c", new], check=True, cwd=tmp_path)
    assert (tmp_path / "bars.png").read_bytes().startswith(b"\x89PNG")


def test_the_same_folder_is_the_folder_of_the_named_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "health").mkdir()
    (tmp_path / "health" / "weight.csv").write_text("day,kg\n1,80\n")
    monkeypatch.chdir(tmp_path)
    turn = make_turn("plot my weight from health/weight.csv and save the chart as a png? call it chart.png, same folder is fine")
    b = block("import matplotlib.pyplot as plt\nplt.plot([1], [80])\nplt.show()\n")
    assert plot_file.check(turn, b) is not None and "plt.savefig('health/chart.png')\nplt.show()" in b.code


OVERWRITES = """import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
temps = pd.read_csv("temps.csv")
plt.plot(temps["day"], temps["temp_c"])
plt.savefig('week_temps.png')
temps.to_csv("week_temps.png", index=False)
if len(temps):
    temps.to_csv(path_or_buf="week_temps.png")
"""


def test_a_table_written_over_the_picture_is_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "temps.csv").write_text("day,temp_c\nMon,14.2\nTue,15.8\nWed,13.1\n")
    turn = make_turn("make me a line chart of the temperatures in temps.csv by day and save it as week_temps.png")
    b = block(OVERWRITES)
    verdict = plot_file.check(turn, b)
    assert verdict is not None and not (verdict.again or verdict.stop)
    assert verdict.warning.startswith("Left out before it ran: temps.to_csv('week_temps.png', index=False); ")
    assert "to_csv" not in b.code and "if len(temps):\n    pass\n" in b.code
    subprocess.run([sys.executable, "-c", b.code], check=True, cwd=tmp_path)
    assert (tmp_path / "week_temps.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # a picture, not CSV text
    # a table saved as a table, or one sharing its line with other code, is left alone
    for code in ('temps.to_csv("week_temps.csv")', 'plt.savefig("a.png"); temps.to_csv("a.png")'):
        assert plot_file.check(make_turn("save the temps"), block(code)) is None, code
