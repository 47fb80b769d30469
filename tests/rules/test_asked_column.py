from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import asked_column

from .handmade import block, make_turn

HR = "date,resting_bpm,hrv_ms,sleep_hours,steps\n2025-09-01,65,66,6.8,11123\n2025-09-02,59,49,7.4,5440\n2025-09-03,55,66,8.2,5918\n"
PANDAS = 'import pandas as pd\ndf = pd.read_csv("health/resting_hr.csv")\nprint(df["hrv_ms"].mean())\n'
PLAIN = ('import csv\nwith open("health/resting_hr.csv", newline="") as f:\n'
         '    v = [float(r["hrv_ms"]) for r in csv.DictReader(f)]\nprint(sum(v) / len(v))\n')


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "health").mkdir()
    (tmp_path / "health" / "resting_hr.csv").write_text(HR)
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "orders.csv").write_text(
        "order_id,order_date,items,total_gbp,courier\n7301,2025-08-04,4,82.90,DPD\n7302,2025-08-08,2,12.50,Evri\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_words_after_average_total_highest() -> None:
    assert asked_column.asked_words("what's my average resting heart rate in health/resting_hr.csv?") == \
        ["resting", "heart", "rate"]
    assert asked_column.asked_words("What is the total weight of the parcels?") == ["weight"]
    assert asked_column.asked_words("the average rating for each genre") == ["rating"]
    assert asked_column.asked_words("Who worked the most hours in total last week?") == []
    assert asked_column.asked_words("how many lines are in notes.txt") == []


def test_the_other_column_is_swapped_for_the_asked_one_and_the_code_computes_it(folder: Path) -> None:
    turn = make_turn("what's my average resting heart rate in health/resting_hr.csv?")
    for code in (PANDAS, PLAIN):
        b = block(code)
        verdict = asked_column.check(turn, b)
        assert verdict is not None and "hrv_ms → resting_bpm" in verdict.warning and not verdict.again
        assert "hrv_ms" not in b.code and "resting_bpm" in b.code
        out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder)
        if out.returncode == 0 or "pandas" not in out.stderr:
            assert float(out.stdout) == pytest.approx(59.67, abs=0.01)


def test_left_alone(folder: Path) -> None:
    hr = "what's my average resting heart rate in health/resting_hr.csv?"
    cases = [
        (hr, PANDAS.replace("hrv_ms", "resting_bpm")),  # the asked column already
        (hr, PANDAS.replace('df["hrv_ms"]', "df.resting_bpm")),  # named as an attribute
        (hr, 'import pandas as pd\ndf = pd.read_csv("health/resting_hr.csv")\nprint(df.iloc[:, 1].mean())'),
        (hr, PANDAS.replace("hrv_ms", "date")),  # not a column of numbers: never swapped
        (hr, PANDAS.replace("hrv_ms", "steps") + 'print(df["hrv_ms"].mean())\n'),  # two others: which one?
        # no column is about delivery: the honest answer is that there is none
        ("whats our average delivery time? the orders are in shop/orders.csv",
         'import pandas as pd\nprint(pd.read_csv("shop/orders.csv")["total_gbp"].mean())'),
        # a column the request names ("items") is not swapped
        ("what is the average total per order for orders with 4 items in shop/orders.csv?",
         'import pandas as pd\ndf = pd.read_csv("shop/orders.csv")\nprint(df[df["items"] == 4]["total_gbp"].mean())'),
        ("what's my average resting heart rate in health/missing.csv?", PANDAS),  # no such file
    ]
    for request, code in cases:
        b = block(code)
        assert asked_column.check(make_turn(request), b) is None and b.code == code, (request, code)
    assert asked_column.check(make_turn(hr), block("cut -d, -f3 health/resting_hr.csv", "shell")) is None
    assert asked_column.check(make_turn(hr), block("print(df['hrv_ms'")) is None  # not Python yet


def test_in_the_loop_the_swapped_code_runs_and_the_person_is_told(folder: Path) -> None:
    from scripted import scripted_interpreter

    interp, model = scripted_interpreter(["```python\n" + PLAIN + "```", "The average is 59.67."])
    try:
        chunks = list(interp.chat("what's my average resting heart rate in health/resting_hr.csv?", display=False,
                                  stream=True))
        assert any("hrv_ms → resting_bpm" in str(c.get("content")) for c in chunks)  # shown, not stored
        assert [m["content"].strip()[:5] for m in interp.messages if m["type"] == "console"] == ["59.66"]
        assert "resting_bpm" in [m for m in interp.messages if m["type"] == "code"][0]["content"]
    finally:
        interp.close()


def test_the_setting_switches_it_off(folder: Path) -> None:
    from oi_local.core.rules import RULES

    turn = make_turn("what's my average resting heart rate in health/resting_hr.csv?", asked_column=False)
    rule = next(r for r in RULES if r.name == "asked column")
    assert not rule.enabled(turn.engine)


def test_a_superlative_names_what_it_measures(folder: Path) -> None:
    (folder / "rain_gauge.csv").write_text("date,temp_c,rain_mm\n2024-03-01,9.7,2.1\n2024-03-02,7.0,11.6\n2024-03-03,8.1,0.0\n")
    code = 'import pandas as pd\ndf = pd.read_csv("rain_gauge.csv")\nprint(df.loc[df["temp_c"].idxmax(), "date"])'
    b = block(code)
    verdict = asked_column.check(make_turn("which day in rain_gauge.csv was the wettest?"), b)
    assert verdict is not None and "temp_c → rain_mm" in verdict.warning
    out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "2024-03-02"
    assert asked_column.check(make_turn("which day in rain_gauge.csv was the hottest?"), block(code)) is None  # temp_c it is


def test_a_time_or_a_distance_names_the_column_of_its_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho58 (session 59's start): "average ride time" of date,route,km,minutes was taken over km
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rides.csv").write_text("date,route,km,minutes\n2024-04-01,main road,8.1,38\n2024-04-02,park,10.2,35\n")
    code = 'import pandas as pd\ndata = pd.read_csv("rides.csv")\nprint(data["km"].mean())\n'
    b = block(code)
    assert asked_column.check(make_turn("What's my average ride time in rides.csv?"), b) is not None
    assert "'minutes'" in b.code and "km" not in b.code
    b = block(code.replace('"km"', '"minutes"'))
    assert asked_column.check(make_turn("What's my average ride distance in rides.csv?"), b) is not None
    assert "'km'" in b.code
    # a time that fits two columns fits none
    (tmp_path / "rides.csv").write_text("date,km,minutes,hours\n2024-04-01,8.1,38,0.6\n")
    assert asked_column.check(make_turn("What's my average ride time in rides.csv?"), block(code)) is None


def test_a_follow_up_that_names_no_file_is_about_the_earlier_ones_and_longest_is_a_length(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho58 (session 59's start): "Which of those was the longest?" after the books of 2023: the latest date was taken
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reading_log.csv").write_text("title,author,pages,finished\nPiranesi,S. Clarke,272,2023-01-15\n"
                                             "The Overstory,R. Powers,502,2023-02-27\n")
    from oi_local.core.engine import Engine
    from oi_local.core.rules.turn import Turn

    engine = Engine()
    engine.messages = [{"role": "user", "type": "message", "content": "How many books did I finish in 2023? It's reading_log.csv."},
                       {"role": "assistant", "type": "message", "content": "9 books."},
                       {"role": "user", "type": "message", "content": "Which of those was the longest?"}]
    code = "import pandas as pd\ndf = pd.read_csv('reading_log.csv')\nprint(df.sort_values('{}').iloc[-1])"
    b = block(code.format("rating"))
    (tmp_path / "reading_log.csv").write_text("title,author,pages,rating,finished\nPiranesi,S. Clarke,272,4,2023-01-15\n")
    verdict = asked_column.check(Turn(engine, None, start=3), b)
    assert verdict is not None and "rating → pages" in verdict.warning and b.code == code.format("pages")
    # a date column is not swapped (it is also the one rows are kept by); with no earlier request naming a file, nothing
    # is known
    assert asked_column.check(Turn(engine, None, start=3), block(code.format("finished"))) is None
    assert asked_column.check(make_turn("Which of those was the longest?"), block(code.format("rating"))) is None
