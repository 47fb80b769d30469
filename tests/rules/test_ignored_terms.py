from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import ignored_terms

from .handmade import failed, make_turn, ran, reply


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "restaurants.csv").write_text(
        "name,cuisine,rating\nLuigi's,Italian,4.5\nSakura,Japanese,4.1\nRoma,Italian,3.86\n")
    (tmp_path / "desktop" / "old").mkdir(parents=True)
    for name in ("Screenshot 2025-05-02.png", "holiday.png", "old/Screenshot 2024-12-24.png"):
        (tmp_path / "desktop" / name).write_text("png")
    (tmp_path / "mileage.csv").write_text("date,purpose,km\n2024-03-01,work,120.5\n2023-12-30,private,40\n")
    return tmp_path


def test_a_condition_in_the_data_that_the_code_skipped_is_named_once(folder: Path) -> None:
    request = "What's the average rating of the Italian places in restaurants.csv?"
    code = 'import csv\nrows = list(csv.DictReader(open("restaurants.csv")))\nprint(sum(float(r["rating"]) for r in rows) / len(rows))'
    turn = make_turn(request, reply("It is 4.15."), runs=(ran(code, "4.15\n"),))
    ask = ignored_terms.follow_up(turn)
    assert ask is not None and '"Italian"' in (ask.text or "") and not ask.hide
    assert ignored_terms.follow_up(turn) is None  # once a turn
    fixed = code.replace("rows = list(", "rows = [r for r in ").replace('open("restaurants.csv")))', 'open("restaurants.csv")) if r["cuisine"] == "Italian"]')
    assert ignored_terms.ignored(request, fixed, folder) == []


def test_folder_names_and_years_count_as_data(folder: Path) -> None:
    request = 'How many screenshots are in my desktop folder? They are the PNG files whose names start with "Screenshot".'
    assert ignored_terms.ignored(request, 'print(len(list(Path("desktop").rglob("*.png"))))', folder) == ["screenshots"]
    assert ignored_terms.ignored(request, 'print(len(list(Path("desktop").rglob("Screenshot*.png"))))', folder) == []
    request = "How many kilometres did I drive for work in 2024? My trips are in mileage.csv."
    assert ignored_terms.ignored(request, 'print(sum(float(r["km"]) for r in rows))', folder) == ["work", "2024"]


def test_not_for_tasks_failures_or_long_requests(folder: Path) -> None:
    code = 'print(1)'
    task = make_turn("Copy the Italian places of restaurants.csv into italian.csv", reply("Done."), runs=(ran(code, ""),))
    assert ignored_terms.follow_up(task) is None
    broken = make_turn("What's the average rating of the Italian places in restaurants.csv?", reply("Error."),
                       runs=(failed(code, "NameError: name 'x' is not defined"),))
    assert ignored_terms.follow_up(broken) is None
    long = "Italian " * 200 + "What is the average rating in restaurants.csv?"
    assert ignored_terms.ignored(long, code, folder) == []
