from __future__ import annotations

import re
from pathlib import Path

import pytest

from oi_local.core.rules import per_group

from .handmade import block, make_turn

SHIFTS = "date,name,hours\n2025-09-01,Gwen,4\n2025-09-02,Ali,6.5\n2025-09-03,Gwen,5\n2025-09-04,Gwen,3\n2025-09-05,Ali,2\n"
ASK = "Who put in the most hours at the food bank this term? food/shifts.csv has everyones shifts. And how many hours was it"
ROW_MAX = 'import pandas as pd\ndf = pd.read_csv("food/shifts.csv")\nprint(df["hours"].max())'


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "food").mkdir()
    (tmp_path / "food" / "shifts.csv").write_text(SHIFTS)
    (tmp_path / "food" / "people.csv").write_text("name,age\nGwen,40\nAli,31\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_largest_row_for_a_question_per_name_is_not_run_and_the_way_is_named() -> None:
    turn = make_turn(ASK)
    verdict = per_group.check(turn, block(ROW_MAX))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide and "food/shifts.csv" in verdict.note
    way = re.search(r"\((df\.groupby.*?\.sum\(\))\)", verdict.ask.text or "")
    assert way is not None
    import pandas as pd

    totals = eval(way.group(1), {"df": pd.read_csv("food/shifts.csv")})  # the way named gives the true answer
    assert totals.idxmax() == "Gwen" and totals.max() == 12
    assert per_group.check(turn, block(ROW_MAX)) is None  # once a turn


def test_counted_when_no_number_column_is_named() -> None:
    verdict = per_group.check(make_turn("who did the most shifts in food/shifts.csv?"), block(ROW_MAX))
    assert verdict is not None and verdict.ask is not None and "value_counts" in (verdict.ask.text or "")


def test_an_average_asked_is_averaged_per_group_with_the_column_named_anywhere() -> None:
    verdict = per_group.check(make_turn("what's the average hours per name in food/shifts.csv? and which name comes out on top?"),
                              block(ROW_MAX))
    assert verdict is not None and verdict.ask is not None
    assert "df.groupby('name')['hours'].mean()" in (verdict.ask.text or "")


@pytest.mark.parametrize("request_text, code", [
    (ASK, 'import pandas as pd\ndf = pd.read_csv("food/shifts.csv")\nt = df.groupby("name")["hours"].sum()\nprint(t.idxmax(), t.max())'),
    ("what was the longest single shift in food/shifts.csv, and who did it?", ROW_MAX),   # one row is asked
    ("who is the oldest in food/people.csv?", 'import pandas as pd\nprint(pd.read_csv("food/people.csv")["age"].max())'),
    ("what is the total of hours in food/shifts.csv?", ROW_MAX),                            # no most per name
    (ASK, 'import csv, glob\nfor p in sorted(glob.glob("food/*.csv")):\n    print(p, len(list(csv.reader(open(p)))))'),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert per_group.check(make_turn(request_text), block(code)) is None


def test_an_amount_asked_with_no_column_named_adds_up_the_one_number_column(folder: Path) -> None:
    (folder / "expenses.csv").write_text("id,date,category,amount\n1,2024-05-01,food,54.20\n2,2024-05-02,bus,12.50\n"
                                         "3,2024-05-04,food,23.75\n4,2024-05-05,bus,70.00\n")
    code = 'import pandas as pd\ndf = pd.read_csv("expenses.csv")\nprint(df.loc[df["amount"].idxmax(), "category"])'
    verdict = per_group.check(make_turn("which category did i spend the most on in expenses.csv, and how much was it?"), block(code))
    assert verdict is not None and verdict.ask is not None
    assert "df.groupby('category')['amount'].sum()" in (verdict.ask.text or "")  # the id column is a label, not an amount
    # asked how often, the rows are counted
    verdict = per_group.check(make_turn("which category shows up most in expenses.csv?"), block(code))
    assert verdict is not None and verdict.ask is not None and "value_counts" in (verdict.ask.text or "")


ORDERS = ("order_date,customer,amount\n2025-01-04,Hale,120.50\n2025-01-19,Okafor,89.90\n2025-03-02,Hale,310.00\n"
          "2025-03-21,Li,341.85\n2025-04-26,Okafor,95.60\n")


def test_which_month_adds_up_per_month_of_the_date_column(folder: Path) -> None:
    (folder / "orders.csv").write_text(ORDERS)
    latest = ('import csv\nwith open("orders.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
              'print(max(r["order_date"] for r in rows))')
    verdict = per_group.check(make_turn("Looking at orders.csv, which month brought in the most money, and how much was it?"),
                              block(latest))
    assert verdict is not None and verdict.ask is not None and "each month is on several rows" in (verdict.ask.text or "")
    way = re.search(r"\((df\.groupby.*?\.sum\(\))\)", verdict.ask.text or "")
    assert way is not None
    import pandas as pd

    totals = eval(way.group(1), {"df": pd.read_csv("orders.csv")})
    assert totals.idxmax() == "2025-03" and round(totals.max(), 2) == 651.85


def test_which_day_with_one_row_a_day_is_left_alone(folder: Path) -> None:
    (folder / "orders.csv").write_text(ORDERS)
    code = 'import pandas as pd\ndf = pd.read_csv("orders.csv")\nprint(df.loc[df["amount"].idxmax()])'
    assert per_group.check(make_turn("which day in orders.csv brought in the most money?"), block(code)) is None


RUNS = ("date,route,km\n2025-05-01,Riverside,8.2\n2025-05-03,Park loop,5.1\n2025-05-04,Riverside,8.5\n"
        "2025-05-06,Hill climb,12.0\n2025-05-08,Park loop,5.5\n2025-05-10,Hill climb,11.9\n")
ONE_AVERAGE = ('import csv\nwith open("runs.csv", newline="") as f:\n    distances = [float(r["km"]) for r in csv.DictReader(f)]\n'
               'print(round(sum(distances) / len(distances), 1))')


def test_an_amount_for_each_group_worked_out_over_every_row_is_asked_afresh(folder: Path) -> None:
    (folder / "runs.csv").write_text(RUNS)
    turn = make_turn("runs.csv is my running diary. what's the average distance of a run on each route I do?")
    verdict = per_group.check(turn, block(ONE_AVERAGE))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "print every route with its result" in (verdict.ask.text or "") and "each route" in verdict.note
    way = re.search(r"(df\.groupby.*?\.mean\(\))", verdict.ask.text or "")
    import pandas as pd

    assert way is not None
    means = eval(way.group(1), {"df": pd.read_csv("runs.csv")})  # the way named gives every route's average
    assert round(means["Hill climb"], 2) == 11.95 and round(means["Park loop"], 2) == 5.3
    total = per_group.check(make_turn("total km per route in runs.csv?"), block(ONE_AVERAGE))
    assert total is not None and ".sum()" in (total.ask.text if total.ask else "")
    counted = per_group.check(make_turn("how many runs did I do on each route? runs.csv"),
                              block('print(len(open("runs.csv").readlines()) - 1)'))
    assert counted is not None and "value_counts" in (counted.ask.text if counted.ask else "")


@pytest.mark.parametrize("request_text, code", [
    ("what's the average distance of a run on each route I do? runs.csv",  # no column known
     'print(open("runs.csv").read().count(","))'),
    ("what's the average km of a run on each route I do? runs.csv",  # grouped
     'import pandas as pd\nprint(pd.read_csv("runs.csv").groupby("route")["km"].mean())'),
    ("what's the average km of a run on each route I do? runs.csv",  # looks at the route
     'import csv\nrows = list(csv.DictReader(open("runs.csv")))\nfor name in {r["route"] for r in rows}:\n'
     '    v = [float(r["km"]) for r in rows if r["route"] == name]\n    print(name, sum(v) / len(v))'),
    ("what's the average km of a run in runs.csv?", ONE_AVERAGE),              # no group asked
    ("what's the average km per date in runs.csv?", ONE_AVERAGE),              # each date is one row
    ("what's the average km per km in runs.csv?", ONE_AVERAGE),                # a number column is no group
])
def test_each_left_alone(folder: Path, request_text: str, code: str) -> None:
    (folder / "runs.csv").write_text(RUNS)
    assert per_group.check(make_turn(request_text), block(code)) is None


def test_an_amount_given_as_one_column_times_another_adds_up_their_product(folder: Path) -> None:
    (folder / "sales.csv").write_text("date,seller,product,quantity,unit_price\n2025-01-02,Priya,mug,3,9.5\n"
                                      "2025-01-03,Jonas,lamp,1,40\n2025-01-04,Priya,lamp,1,40\n2025-01-05,Jonas,mug,2,9.5\n")
    code = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(df.loc[df["quantity"].idxmax(), "seller"])'
    request = "Who on the team brought in the most money in sales.csv, and how much was it? Revenue is quantity times unit price."
    verdict = per_group.check(make_turn(request), block(code))
    assert verdict is not None and verdict.ask is not None
    way = re.search(r"\((\(df\[.*?\.sum\(\))\)", verdict.ask.text or "")
    assert way is not None, verdict.ask.text
    import pandas as pd

    totals = eval(way.group(1), {"df": pd.read_csv("sales.csv")})
    assert totals.idxmax() == "Priya" and totals.max() == 68.5


def test_with_no_filter_the_ask_comes_with_ready_code_that_answers(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "sales.csv").write_text("date,seller,region,quantity,unit_price\n2025-01-02,Priya,North,3,9.5\n"
                                      "2025-01-03,Jonas,South,1,40\n2025-01-04,Priya,South,1,40\n2025-01-05,Jonas,North,2,9.5\n")
    code = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(df.loc[df["quantity"].idxmax(), "seller"])'
    request = "Who on the team brought in the most money in sales.csv, and how much was it? Revenue is quantity times unit price."
    verdict = per_group.check(make_turn(request), block(code))
    assert verdict is not None and verdict.ask is not None and verdict.ask.ready
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder)
    assert out.stdout.splitlines()[-1] == "largest: Priya 68.5", out.stderr
    # a request that narrows the rows (a region the file has, a year, a month) has them narrowed so
    for narrowed, last in (("Who brought in the most money in the North in sales.csv? Revenue is quantity times unit price.",
                            "largest: Priya 28.5"),
                           ("Who brought in the most money in sales.csv in 2024? Revenue is quantity times unit price.",
                            "No rows of sales.csv are left once narrowed as asked."),
                           ("Who sold the most in sales.csv in January 2025, and how much in total? Revenue is quantity "
                            "times unit price.", "total: 127.5")):
        verdict = per_group.check(make_turn(narrowed), block(code))
        assert verdict is not None and verdict.ask is not None and verdict.ask.ready, narrowed
        ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("```", 1)[0]
        out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder)
        assert out.stdout.splitlines()[-1] == last, out
    # a narrowing these lines do not cover (a threshold) gets the way in words only
    verdict = per_group.check(make_turn("Who made the most money from sales over 20 in sales.csv? revenue is quantity times "
                                        "unit price"), block(code))
    assert verdict is not None and verdict.ask is not None and not verdict.ask.ready
    # counted per group, and the least
    verdict = per_group.check(make_turn("which seller made the fewest sales in sales.csv?"), block(code))
    assert verdict is not None and verdict.ask is not None and verdict.ask.ready
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder)
    assert out.stdout.splitlines()[-1] in ("smallest: Priya 2", "smallest: Jonas 2"), out.stdout


def test_values_said_in_the_plural_and_the_longer_of_two_kept() -> None:
    from oi_local.core.rules.per_group import _said_values

    # ho41's "oat lattes" of an item column with "Latte" and "Oat latte"
    words = " how much money did oat lattes make us in march "
    assert _said_values(["Latte", "Oat latte", "Tea", "Oat latte"], words) == ["Oat latte"]
    assert _said_values(["Bill", "Food"], " my electricity bills in 2024 ") == ["Bill"]
    assert _said_values(["Tea"], " a teapot ") == []


def test_a_run_that_never_read_the_file_gets_the_per_group_code(tmp_path, monkeypatch) -> None:
    import subprocess
    import sys

    from oi_local.core.rules import per_group

    from .handmade import make_turn, ran

    # ho39 (an older set): "print('July')" ran for which month of utilities.csv had the biggest bill
    monkeypatch.chdir(tmp_path)
    (tmp_path / "utilities.csv").write_text(
        "date,kind,amount\n2024-06-03,electricity,92.40\n2024-06-20,electricity,40.00\n2024-07-02,electricity,124.20\n"
        "2024-07-05,water,30.00\n2023-12-01,electricity,300.00\n")
    request = "Looking at utilities.csv, which month in 2024 had my biggest electricity bill?"
    ask = per_group.after_run(make_turn(request, runs=(ran('print("July")', "July\n"),)))
    assert ask is not None and ask.own
    code = (ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    assert out.splitlines()[-1] == "largest: 2024-06 (June 2024) 132.4"
    read = 'import pandas as pd\ndf = pd.read_csv("utilities.csv")\nprint(df)'
    assert per_group.after_run(make_turn(request, runs=(ran(read, "..."),))) is None  # the file read: left to the rest


def test_a_json_files_records_are_grouped_too(tmp_path, monkeypatch) -> None:
    import json
    import subprocess
    import sys

    from oi_local.core.rules import per_group

    from .handmade import block, make_turn

    # ho41 (an older set): which author of loans.json was borrowed the most; the largest date was taken
    monkeypatch.chdir(tmp_path)
    loans = [{"title": t, "author": a, "borrowed": d} for t, a, d in (
        ("Earthsea", "Ursula K. Le Guin", "2024-12-13"), ("Mort", "Terry Pratchett", "2024-11-02"),
        ("Guards!", "Terry Pratchett", "2024-10-01"), ("Sourcery", "Terry Pratchett", "2024-09-09"))]
    (tmp_path / "loans.json").write_text(json.dumps({"club": "street", "loans": loans}))
    request = "our book club keeps a lending record in loans.json. which author's books have been borrowed the most, and how many loans is that?"
    taken = 'import json\nloans = json.load(open("loans.json"))["loans"]\nprint(max(loans, key=lambda x: x["borrowed"]))'
    verdict = per_group.check(make_turn(request), block(taken))
    assert verdict is not None and verdict.ask is not None and "author" in verdict.note
    code = (verdict.ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path).stdout
    assert out.splitlines()[-1] == "largest: Terry Pratchett 3"
    assert per_group.json_records(tmp_path / "loans.json") == loans


def test_a_file_named_only_in_printed_words_is_not_read(tmp_path, monkeypatch) -> None:
    from oi_local.core.rules import per_group

    from .handmade import make_turn, ran

    # ho50 (read after its end): the model printed that the file was not found, and that run counted as reading it
    assert not per_group.names_file('print("No expenses_march.csv file found.")', "expenses_march.csv")
    assert per_group.names_file("df = pd.read_csv('data/expenses_march.csv')", "expenses_march.csv")
    assert per_group.names_file('path = "expenses_march.csv"\nopen(path)', "expenses_march.csv")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "expenses_march.csv").write_text("date,category,amount\n2024-03-01,groceries,86.42\n"
                                                 "2024-03-02,dining out,34.80\n2024-03-08,groceries,93.17\n")
    request = "which category did i spend the most on in expenses_march.csv, and how much was it in total"
    ask = per_group.after_run(make_turn(request, runs=(ran('print("No expenses_march.csv file found.")', "x\n"),)))
    assert ask is not None and ask.own


def test_spending_added_up_per_category_comes_with_ready_code_narrowed_to_the_month(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "bills.csv").write_text("date,shop,kind,amount\n2025-03-02,Aldi,food,20.50\n2025-03-09,Shell,car,45.00\n"
                                      "2025-03-15,Aldi,food,12.25\n2025-04-01,Shell,car,30.00\n")
    # the word "kind" is only a variable here, over the amounts themselves: no group is looked at
    code = ('import csv\nwith open("bills.csv", newline="") as f:\n    amounts = [float(r["amount"]) for r in csv.DictReader(f)]\n'
            'print({kind: sum(amounts) for kind in amounts})')
    verdict = per_group.check(make_turn("could you add up my march spending per kind from bills.csv?"), block(code))
    assert verdict is not None and verdict.ask is not None and verdict.ask.ready
    ready = (verdict.ask.text or "").split("```python\n", 1)[1].split("```", 1)[0]
    out = subprocess.run([sys.executable, "-c", ready], capture_output=True, text=True, cwd=folder)
    lines = out.stdout.splitlines()
    assert lines[-1] == "total: 77.75" and any(re.fullmatch(r"car\s+45\.00?", ln) for ln in lines), out
    assert any(re.fullmatch(r"food\s+32\.75", ln) for ln in lines)
    grouped = code.replace('print({kind: sum(amounts) for kind in amounts})', 'print(len(amounts))').replace(
        'float(r["amount"])', '(r["kind"], float(r["amount"]))')
    assert per_group.check(make_turn("could you add up my march spending per kind from bills.csv?"), block(grouped)) is None


def test_a_follow_up_that_names_no_file_asks_of_the_earlier_requests_file(folder: Path) -> None:
    import subprocess
    import sys

    from .handmade import reply

    # ho52: "Which category did most of that go on, and how much was it?" after a total of expenses_april.csv; the
    # model filtered one category it picked itself ('groceries') and printed that category's total alone
    (folder / "expenses_april.csv").write_text("date,category,amount\n2025-04-01,rent,300\n2025-04-03,food,120.5\n"
                                               "2025-04-09,food,99.5\n2025-04-12,fun,40\n2025-04-20,fun,30\n")
    earlier = "how much did i spend in total in april? its all in expenses_april.csv"
    followup = "Which category did most of that go on, and how much was it?"
    turn = make_turn(earlier, reply("total amount: 590"), {"role": "user", "type": "message", "content": followup})
    assert turn.request == followup and turn.earlier_request == earlier
    picked = ("import pandas as pd\ndf = pd.read_csv('expenses_april.csv')\ndf = df[df['category'] == 'food']\n"
              "print('total amount:', df['amount'].sum())")
    verdict = per_group.check(turn, block(picked))
    assert verdict is not None and verdict.ask is not None and "category" in verdict.note
    code = (verdict.ask.text or "").split("```python\n")[1].split("\n```")[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder).stdout
    assert out.splitlines()[-1].startswith("largest: rent 300"), out
    # a request that names another file, or none and no earlier one: not about this file
    assert per_group.grouped(followup, folder) is None
    assert per_group.grouped("which category is most common in people.csv?", folder, earlier) is None


def test_a_files_name_names_no_column_and_an_id_gives_way_to_the_amount(folder: Path) -> None:
    # "in orders.csv" named order_id beside total; counted, the answer was the most orders, not the most money (ho56)
    (folder / "orders.csv").write_text("order_id,date,customer,total\n1001,2024-04-02,Fatima,58.40\n"
                                       "1002,2024-04-02,George,212.00\n1003,2024-04-03,Fatima,74.99\n")
    found = per_group.grouped("Who spent the most money in total in orders.csv, and how much?", folder)
    assert found == ("orders.csv", "customer", "total", "largest")
    # named in the words too, an id still gives way to the amount
    found = per_group.grouped("Which customer has the highest total order amount in orders.csv?", folder)
    assert found is not None and found[2] == "total"
