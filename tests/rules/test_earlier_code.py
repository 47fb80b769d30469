"""Earlier code: code that ran for an earlier request is not the answer to a new one."""
from __future__ import annotations

from pathlib import Path

import pytest
from scripted import scripted_interpreter

CODE = 'print("books:", 18)'
NEW = 'print("author:", "Murdoch")'


def test_the_same_code_for_a_new_request_is_asked_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp, model = scripted_interpreter([f"```python\n{CODE}\n```", "18 books.",
                                          f"```python\n{CODE}\n```", f"```python\n{NEW}\n```", "Murdoch.",
                                          f"```python\n{CODE}\n```", "18 books, as before."])
    interp.template = "small"
    try:
        interp.chat("how many books have I finished this year?", display=False)
        out = interp.chat("and which author have I read the most?", display=False)
        consoles = [str(m["content"]).strip() for m in out if m["type"] == "console"]
        assert consoles[-1] == "author: Murdoch" and "already answered the earlier request" in consoles[0]
        asked = str(model.prompts[3][-1]["content"])
        assert "it printed: books: 18" in asked
        again = interp.chat("run that count again please", display=False)  # asked to run it again: it runs
        assert [str(m["content"]).strip() for m in again if m["type"] == "console"] == ["books: 18"]
    finally:
        interp.close()


PRO = ("import csv\nrows = [r for r in csv.DictReader(open('customers.csv')) if r['plan'] == 'Pro']\n"
       "print('customers:', len(rows))")
PRO_2023 = PRO.replace("== 'Pro']", "== 'Pro' and r['joined'].startswith('2023')]").replace("'customers:'", "'in 2023:'")


def test_the_same_code_with_another_label_is_the_same_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "customers.csv").write_text("name,plan,joined\nAda,Pro,2023-02-01\nBo,Pro,2024-05-01\nCy,Free,2023-01-09\n")
    relabelled = PRO.replace("'customers:'", "'Pro customers:'")
    interp, model = scripted_interpreter([f"```python\n{PRO}\n```", "2 customers are on Pro.",
                                          f"```python\n{relabelled}\n```", f"```python\n{PRO_2023}\n```", "1 of them."])
    interp.template = "small"
    try:
        interp.chat("How many customers in customers.csv are on the Pro plan?", display=False)
        out = interp.chat("And how many of those Pro customers signed up before 2024?", display=False)
        consoles = [str(m["content"]).strip() for m in out if m["type"] == "console"]
        assert "already answered the earlier request" in consoles[0]
        assert consoles[-1] == "in 2023: 1"
        assert "it printed: customers: 2" in str(model.prompts[3][-1]["content"])
    finally:
        interp.close()


def test_same_work() -> None:
    from oi_local.core.rules.earlier_code import same_work

    assert same_work(PRO) == same_work(PRO.replace("'customers:'", "'Pro customers:'"))
    assert same_work(PRO) != same_work(PRO_2023)
    assert same_work('print("Paris")') != same_work('print("Berlin")')  # a printed answer is all that code does


def test_the_same_code_for_a_follow_up_that_names_a_year_is_narrowed_to_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "customers.csv").write_text("name,plan,joined\nAda,Pro,2023-02-01\nBo,Pro,2024-05-01\nCy,Free,2023-01-09\n")
    interp, model = scripted_interpreter([f"```python\n{PRO}\n```", "2 customers are on Pro.",
                                          f"```python\n{PRO}\n```", "1 of them."])
    interp.template = "small"
    try:
        interp.chat("How many customers in customers.csv are on the Pro plan?", display=False)
        out = interp.chat("And how many of those signed up in 2023?", display=False)
        consoles = [str(m["content"]).strip() for m in out if m["type"] == "console"]
        assert consoles == ["customers: 1"]  # the earlier code, its rows narrowed to 2023, ran
    finally:
        interp.close()


def test_new_code_that_prints_the_earlier_answer_again_is_asked_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho50: "and how much of that hasn't been paid yet?" got `total_billed = sum(amounts)`, the first answer again
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bills.csv").write_text("amount,paid\n10,yes\n32.5,no\n")
    first = "import csv\namounts = [float(r['amount']) for r in csv.DictReader(open('bills.csv'))]\nprint('billed:', sum(amounts))"
    unpaid = "import csv\nprint('unpaid:', sum(float(r['amount']) for r in csv.DictReader(open('bills.csv')) if r['paid'] == 'no'))"
    interp, model = scripted_interpreter([f"```python\n{first}\n```", "42.5 billed.",
                                          "```python\nprint('billed:', sum(amounts))\n```", f"```python\n{unpaid}\n```",
                                          "32.5 is unpaid."])
    interp.template = "small"
    try:
        interp.chat("what's the total billed in bills.csv?", display=False)
        out = interp.chat("and how much of that hasn't been paid?", display=False)
        consoles = [str(m["content"]).strip() for m in out if m["type"] == "console"]
        assert consoles == ["billed: 42.5", "unpaid: 32.5"]
        assert "printed just what the code for my earlier question printed: billed: 42.5" in str(model.prompts[3][-1]["content"])
        assert str(out[-1]["content"]) == "32.5 is unpaid."
    finally:
        interp.close()
