from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import plot_labels

from .handmade import block, make_turn

ASK = "plot sales_by_month.csv as a chart and save it as sales.png pls"
CODE = ('import csv\nfrom collections import defaultdict\nimport matplotlib.pyplot as plt\ngroups = defaultdict(list)\n'
        'with open("sales_by_month.csv", newline="") as f:\n    for r in csv.DictReader(f):\n'
        '        groups[r["month"]].append(float(r["sales"]))\naverages = {k: sum(v) / len(v) for k, v in groups.items()}\n'
        'plt.bar(list(averages), list(averages.values()))\nplt.ylabel("average score")\nplt.savefig("sales.png")')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales_by_month.csv").write_text("month,sales\nJan,4120\nFeb,3890\n")
    return tmp_path


def test_a_label_from_nowhere_names_the_column_plotted(here: Path) -> None:
    b = block(CODE)
    verdict = plot_labels.check(make_turn(ASK), b)
    assert verdict is not None and verdict.warning == (
        "Changed before it ran: the axis label 'average score' is in neither the request nor the data; it is 'average sales'.")
    assert "plt.ylabel('average sales')" in b.code and "average score" not in b.code
    compile(b.code, "x", "exec")


@pytest.mark.parametrize("request_text, label", [
    (ASK, "average sales"),  # the column's own word
    (ASK, "Sales (GBP)"),  # GBP: a short unit... is a word of its own, but sales is known
    ("plot the monthly revenue in sales_by_month.csv as sales.png", "revenue"),  # the request's word
    (ASK, "month"),  # the header's word
    (ASK, "Number of"),  # only words of kind
])
def test_left_alone(here: Path, request_text: str, label: str) -> None:
    code = CODE.replace('"average score"', repr(label))
    b = block(code)
    assert plot_labels.check(make_turn(request_text), b) is None and b.code == code


def test_two_columns_read_as_numbers_are_left_alone(here: Path) -> None:
    code = CODE.replace('float(r["sales"])', 'float(r["sales"]) - float(r["costs"])')
    assert plot_labels.check(make_turn(ASK), block(code)) is None
