"""Missing inputs: an amount asked of a CSV file that has no column for what it needs ends saying so."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import missing_inputs

from .handmade import scripted_chat

SALES = "month,region,units,revenue\n2025-04,North,142,17040\n2025-05,North,150,18000\n2025-06,South,99,11880\n"
# the 0.5B model's answer (ho42): two revenue figures from the preview
GUESS = "```python\nprofit_margin = (13200 - 14400) / 14400 * 100\nprint(profit_margin)\n```"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales.csv").write_text(SALES)
    (tmp_path / "orders.csv").write_text("order_id,order_date,customer,total\n1,2025-01-02,Ann,20\n")
    (tmp_path / "staff.csv").write_text("name,department,start_date,salary\nAnn,IT,2020-01-01,50000\n")
    return tmp_path


def test_a_margin_from_a_file_without_costs_ends_saying_so(here: Path) -> None:
    out = scripted_chat([GUESS, "The margin is -8.33%."], "What was our profit margin in Q2, according to sales.csv?")
    assert not any("-8.33" in str(m.get("content")) for m in out if m["role"] == "computer")  # the guess never ran
    said = [str(m["content"]) for m in out if m["role"] == "assistant" and m["type"] == "message"]
    assert said[-1].startswith("sales.csv does not have what a profit or margin needs: there is no column for costs")
    assert "month, region, units, revenue" in said[-1] and "-8.33" not in said[-1]


def test_which_requests_and_files_it_acts_on(here: Path) -> None:
    assert missing_inputs.missing("On average, how many days does it take for our orders to get delivered? It's in "
                                  "orders.csv.", here) == ("orders.csv", "a delivery time", "when each order was delivered",
                                                           "order_id, order_date, customer, total")
    (here / "volunteers.csv").write_text("name,phone,skills\nAnn,0700 900 111,rowing\n")
    near = missing_inputs.missing("Which of the volunteers in volunteers.csv lives nearest the boathouse?", here)
    assert near is not None and near[1:3] == ("who or what is nearest", "where each one is (an address, a place or a distance)")
    assert missing_inputs.missing("Which score in volunteers.csv is closest to 50?", here) is None  # a number, not a place
    (here / "crew.csv").write_text("name,postcode\nAnn,OX1 2AB\n")
    assert missing_inputs.missing("who in crew.csv lives closest to the boathouse?", here) is None  # it has a place
    age = missing_inputs.missing("What's the average age of the people in staff.csv?", here)
    assert age is not None and age[1:3] == ("an age", "birth dates or ages")
    (here / "costs.csv").write_text("month,cost\n2025-04,9000\n")
    for request in ("What was the total revenue in sales.csv?",  # the file has it
                    "What would the margin in sales.csv be if costs were 60% of revenue?",  # the request gives it
                    "Add a profit column to sales.csv",  # a change, not a question
                    "What's our profit margin? See sales.csv and costs.csv"):  # another file has it
        assert missing_inputs.missing(request, here) is None, request
    (here / "sales.csv").write_text("month,revenue,cost\n2025-04,100,60\n")
    assert missing_inputs.missing("What was our profit margin according to sales.csv?", here) is None
