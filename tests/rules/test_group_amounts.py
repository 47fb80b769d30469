"""Group amounts: a median, average or total per group of a CSV, saved to a file, done by the loop's pandas code."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from oi_local.core.rules import group_amounts

from .handmade import block, make_turn, scripted_chat

LISTINGS = ("neighbourhood,price,beds\nOld Town,320000,2\nOld Town,610000,4\nOld Town,450000,3\n"
            "Riverside,199000,1\nRiverside,275000,2\nHill,540000,3\n")
ASK = ("Work out the median asking price for each neighbourhood in listings.csv and save it as medians.csv, with the "
       "neighbourhood and its median price.")
# the 0.5B model's first try (ho42): sums per neighbourhood, each divided by every listing, and a DictWriter without fields
SUMMED = ('import csv\nwith open("listings.csv", newline="") as f:\n    listings = list(csv.DictReader(f))\nmedians = {}\n'
          'for l in listings:\n    medians[l["neighbourhood"]] = medians.get(l["neighbourhood"], 0) + float(l["price"])\n'
          'with open("medians.csv", "w") as f:\n    writer = csv.DictWriter(f)\n')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "listings.csv").write_text(LISTINGS)
    return tmp_path


def test_the_median_per_neighbourhood_is_written_and_printed(here: Path) -> None:
    out = scripted_chat([f"```python\n{SUMMED}\n```", "Saved."], ASK)
    rows = list(csv.reader((here / "medians.csv").open(newline="")))
    assert rows == [["neighbourhood", "median_price"], ["Hill", "540000.0"], ["Old Town", "450000.0"], ["Riverside", "237000.0"]]
    printed = [str(m["content"]) for m in out if m["type"] == "console"]
    assert any("Riverside    237000.0" in p and "3 rows written to medians.csv" in p for p in printed)


def test_what_it_reads_and_what_it_leaves(here: Path) -> None:
    assert group_amounts.asked("Save the average price per neighbourhood from listings.csv to avg.csv", here) == \
        ("listings.csv", "neighbourhood", "price", "mean", "avg.csv")
    for request in ("what's the median price for each neighbourhood in listings.csv?",  # nothing to save: per_group's
                    "save the median price of listings.csv to m.csv",  # no group
                    "add up the price per neighbourhood in listings.csv and save it back to listings.csv"):
        assert group_amounts.asked(request, here) is None, request
    grouped = ('import pandas as pd\ndf = pd.read_csv("listings.csv")\n'
               'df.groupby("neighbourhood")["price"].median().to_csv("medians.csv")')
    assert group_amounts.check(make_turn(ASK), block(grouped)) is None
