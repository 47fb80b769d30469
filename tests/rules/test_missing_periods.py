"""Missing periods: a year or month the named data cannot hold ends the turn saying so, before any guess runs."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import missing_periods

from .handmade import scripted_chat

# the 0.5B model's first try on such a folder (ho47): another year's file, summed with its header
GUESS = "```python\nwith open('power/water_2022.csv') as f:\n    print(sum(float(l.split(',')[1]) for l in f))\n```"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "power").mkdir()
    for year in (2022, 2023, 2024):
        (tmp_path / "power" / f"water_{year}.csv").write_text(f"month,litres,cost\n{year}-01,900,31.5\n")
    (tmp_path / "walks.csv").write_text("date,km\n2025-01-04,5.2\n2025-02-11,7.0\n2025-02-20,3.1\n")
    return tmp_path


def test_a_year_the_folder_has_no_file_for_ends_saying_so(here: Path) -> None:
    out = scripted_chat([GUESS, "You paid 31.5."], "What did I pay for water in 2021 altogether? All the bills are in the power folder.")
    assert not any(m["role"] == "computer" and "31.5" in str(m.get("content")) for m in out)  # the guess never ran
    said = [str(m["content"]) for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1].startswith("power/ has no file for 2021 (its files are water_2022.csv, water_2023.csv, water_2024.csv).")
    assert "31.5" not in said[-1]


def test_which_requests_and_data_it_acts_on(here: Path) -> None:
    gap = missing_periods.gap("how far did I walk in 2024? see walks.csv", here)
    assert gap == ("walks.csv has no rows dated in 2024 (its dates run from 2025-01-04 to 2025-02-20).", "2024")
    march = missing_periods.gap("How far did I walk in March 2025, according to walks.csv?", here)
    assert march is not None and march[1] == "March 2025" and "no rows dated in March 2025" in march[0]
    (here / "jobs.csv").write_text("id,opened,closed\nJ1,2024-02-05,2024-02-07\nJ2,2024-09-09,\nJ3,2024-12-02,2025-01-08\n")
    assert missing_periods.gap("How many jobs did we close in 2023? It's all in jobs.csv.", here) == (
        "jobs.csv has no rows dated in 2023 (its dates run from 2024-02-05 to 2025-01-08).", "2023")  # two date columns
    assert missing_periods.gap("How many jobs did we close in 2025? It's all in jobs.csv.", here) is None
    for request in ("how far did I walk in 2025? see walks.csv",  # the file has that year
                    "How far did I walk in February 2025 (walks.csv)?",  # and that month
                    "how many walks in walks.csv were before 2024?",  # a bound, not the year asked about
                    "Add a row for 2024 to walks.csv: 2024-12-01, 4 km",  # a change: the year is to be made
                    "What did I pay for water in 2023? It's in the power folder",  # the folder has that year
                    "compare 2021 and 2022 in the power folder"):  # several years
        assert missing_periods.gap(request, here) is None, request
    (here / "power" / "notes.txt").write_text("meter read in spring\n")  # a file named by no year
    assert missing_periods.gap("What did I pay in 2021? The power folder has it", here) is None


def test_the_year_asked_about() -> None:
    assert missing_periods.named_year("what was the total for the year 2021?") == "2021"
    assert missing_periods.named_year("spent throughout 2019 on food") == "2019"
    assert missing_periods.named_year("how many of my 2000 photos are blurry?") is None
    assert missing_periods.named_year("sum bills/2021.csv") is None  # a file's name, not a period asked about


def test_a_quarter_or_half_of_a_year_the_file_has_no_rows_in(here: Path) -> None:
    # ho50: Q4 2023 of a file of 2024's first half; a region named "Sales" was filtered and nothing printed, twice
    assert missing_periods.gap("total km for Q4 2024 in walks.csv pls", here) == (
        "walks.csv has no rows dated in Q4 2024 (its dates run from 2025-01-04 to 2025-02-20).", "Q4 2024")
    half = missing_periods.gap("how far did I walk in the second half of 2025? walks.csv", here)
    assert half is not None and half[1] == "the second half of 2025"  # the year has rows, that half none
    assert missing_periods.gap("how far did I walk in Q1 2025? walks.csv", here) is None  # it has that quarter
    assert missing_periods.gap("walks.csv: Q1 2025 against Q1 2024?", here) is None  # two years
