from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import made_up

from .handmade import block, make_turn


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "orders.csv").write_text("customer,amount\nPip's Pantry,12.5\nMarlow Farm Shop,3\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_which_code_only_prints_typed_in_values() -> None:
    assert made_up.typed_in('print("Marlow Farm Shop")') == ["Marlow Farm Shop"]
    assert made_up.typed_in("print(42)\nprint(f'total: {3}')") == ["42", "total: ", "3"]
    assert made_up.typed_in("total = 3 + 4\nprint(total)") is None  # computes
    # a name given a typed-in value, then printed: typed in all the same (ho16: `customer = "Marlow Farm Shop"`)
    assert made_up.typed_in('customer = "Marlow Farm Shop"\nprint(customer)') == ["Marlow Farm Shop"]
    assert made_up.typed_in('customer = "Marlow"\nprint(customer, other)') is None  # reads a name it did not type
    assert made_up.typed_in("print(open('a.txt').read())") is None
    assert made_up.typed_in("print(len([1, 2]))") is None
    assert made_up.typed_in("import os") is None
    assert made_up.typed_in("print(") is None
    # a file opened and never read: its text typed into the print (ho45's cabin, read after session 46's end)
    opened = 'with open("cabin_info.txt") as f:\n    print("Welcome to Birch Hollow Cabin!")'
    assert made_up.typed_in(opened) == ["Welcome to Birch Hollow Cabin!"]
    assert made_up.typed_in('with open("cabin_info.txt") as f:\n    print(f.read())') is None  # read


def test_a_typed_in_answer_for_a_named_file_is_asked_afresh_once(folder: Path) -> None:
    turn = make_turn("which customer spent the most? it's in shop/orders.csv")
    verdict = made_up.check(turn, block('print("Marlow Farm Shop")'))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "shop/orders.csv" in verdict.ask.text and "typed-in" in verdict.note
    assert verdict.ask.sampling["temperature"] > 0
    assert made_up.check(turn, block('print("Marlow Farm Shop")')) is None  # once a turn


def test_a_missing_file_is_named_too(folder: Path) -> None:
    turn = make_turn("whats the plumbers number? its in contacts/trades.csv")
    verdict = made_up.check(turn, block("print(\"The plumber's number is 800-555-1234\")"))
    assert verdict is not None and "contacts/trades.csv" in verdict.ask.text


def test_printing_back_a_result_an_output_showed_or_a_request_with_no_file_is_left_alone(folder: Path) -> None:
    shown = {"role": "computer", "type": "console", "format": "output", "content": "Marlow Farm Shop 341.35\n"}
    turn = make_turn("which customer spent the most? it's in shop/orders.csv", shown)
    assert made_up.check(turn, block('print("Marlow Farm Shop")')) is None
    assert made_up.check(make_turn("say hello"), block('print("hello")')) is None
    assert made_up.check(make_turn("what is 6 times 7?"), block("print(42)")) is None


def test_in_a_chat_the_typed_in_answer_is_not_run_and_the_retry_reads_the_file(folder: Path) -> None:
    from scripted import scripted_interpreter

    def retry(messages: list[dict]) -> str:
        assert "typed-in" in str(messages[-1]["content"])
        assert not any("Marlow" in str(m["content"]) for m in messages if m["role"] == "assistant")  # hidden
        return ("```python\nimport csv\nrows = list(csv.DictReader(open('shop/orders.csv')))\n"
                "best = max(rows, key=lambda r: float(r['amount']))\nprint(best['customer'], best['amount'])\n```")

    interp, model = scripted_interpreter(['```python\nprint("Marlow Farm Shop")\n```', retry,
                                          "Pip's Pantry spent the most (12.5)."])
    interp.template = "small"
    try:
        out = interp.chat("which customer spent the most? it's in shop/orders.csv", display=False)
        consoles = [m["content"] for m in out if m["type"] == "console"]
        assert not any(c.strip() == "Marlow Farm Shop" for c in consoles)  # never run
        assert consoles[-1].strip() == "Pip's Pantry 12.5" and model.calls == 3
        assert out[-1]["content"] == "Pip's Pantry spent the most (12.5)."
    finally:
        interp.close()


def test_records_typed_in_from_a_named_file_are_asked_afresh(folder: Path) -> None:
    typed = block('orders = [{"customer": "Marlow Farm Shop", "amount": 3}]\nprint(max(orders, key=lambda o: o["amount"]))')
    turn = make_turn("who spent the most in shop/orders.csv?")
    verdict = made_up.check(turn, typed)
    assert verdict is not None and verdict.ask is not None and "types in data from shop/orders.csv" in verdict.note
    assert "typed the data in" in verdict.ask.text
    reads = block('import csv\norders = [{"customer": "Marlow Farm Shop"}]\nrows = list(csv.DictReader(open("shop/orders.csv")))')
    other = block('orders = [{"customer": "Nobody Ltd", "amount": 3}]\nprint(orders)')  # not the file's data
    script = block('orders = [{"customer": "Marlow Farm Shop", "amount": 3}]\nprint(orders)')
    for request, code in (("who spent the most in shop/orders.csv?", reads), ("who spent the most in shop/orders.csv?", other),
                          ("who spent the most in the shop?", script)):
        assert made_up.check(make_turn(request), code) is None, code.code


def test_records_typed_in_and_written_to_a_new_file_are_asked_afresh(folder: Path) -> None:
    (folder / "shop").mkdir(exist_ok=True)
    (folder / "shop" / "orders.csv").write_text("customer,amount\nMarlow Farm Shop,3\nHill Dairy,5\n")
    rows = 'rows = [["Marlow Farm Shop", 3], ["Hill Dairy", 5]]\n'
    writes = block(rows + 'import csv\nwith open("big.csv", "w", newline="") as f:\n    csv.writer(f).writerows(r for r in rows if r[1] > 4)')
    turn = make_turn("Make big.csv with the orders over 4 from shop/orders.csv")
    verdict = made_up.check(turn, writes)
    assert verdict is not None and "types in data from shop/orders.csv" in verdict.note
    reads = block(rows + 'import csv\nwith open("big.csv", "r+") as f:\n    print(f.read())')  # opened to read as well
    assert made_up.check(make_turn("Make big.csv with the orders over 4 from shop/orders.csv"), reads) is None


def test_records_typed_in_from_a_json_file_are_loaded_from_it(folder: Path) -> None:
    import json
    import subprocess
    import sys

    games = [{"name": "Catan", "max_players": 4, "minutes": 90}, {"name": "Dixit", "max_players": 6, "minutes": 30},
             {"name": "Codenames", "max_players": 8, "minutes": 15}]
    (folder / "games.json").write_text(json.dumps(games))
    code = ('games = [{"name": "Catan", "max_players": 4,\n          "minutes": 90}]\n'
            'for g in games:\n    if g["max_players"] >= 5 and g["minutes"] <= 60:\n        print(g["name"])')
    typed = block(code)
    verdict = made_up.check(make_turn("which games in games.json take 5 players in an hour?"), typed)
    assert verdict is not None and verdict.ask is None and not verdict.note
    assert "games is loaded from games.json (the code had typed in 1 of its records)" in verdict.warning
    out = subprocess.run([sys.executable, "-c", typed.code], cwd=folder, capture_output=True, text=True, check=True)
    assert out.stdout == "Dixit\nCodenames\n"
    # Records under a key of a JSON object are loaded from that key.
    (folder / "shelf.json").write_text(json.dumps({"owner": "Sam", "games": games}))
    nested = block('games = [{"name": "Dixit", "minutes": 30}]\nprint(len(games))')
    assert made_up.check(make_turn("how many games are in shelf.json?"), nested) is not None
    out = subprocess.run([sys.executable, "-c", nested.code], cwd=folder, capture_output=True, text=True, check=True)
    assert out.stdout == "3\n"
    # Keys the file's records do not have, or a CSV file: asked afresh as before.
    odd = block('games = [{"title": "Catan", "minutes": 90}]\nprint(games)')
    verdict = made_up.check(make_turn("which games in games.json are short?"), odd)
    assert verdict is not None and verdict.ask is not None and "title" in odd.code


def test_a_typed_in_answer_for_a_named_folder_is_asked_afresh(folder: Path) -> None:
    (folder / "weather_bot").mkdir()
    (folder / "weather_bot" / "main.py").write_text("# TODO: retry\n")
    turn = make_turn("how many TODO comments are left in the python files of my weather_bot project?")
    verdict = made_up.check(turn, block("print(0)  # TODO: You should write the code to count TODO comments"))
    assert verdict is not None and verdict.ask is not None and "weather_bot/" in verdict.ask.text
    assert made_up.check(make_turn("how many files are in the current folder?"), block("print(3)")) is None


def test_a_shell_block_that_only_echoes_typed_in_text_is_made_up(folder: Path) -> None:
    assert made_up.typed_in_shell('echo "Total spent in 2025-10: £123.45"') == ["Total spent in 2025-10: £123.45"]
    assert made_up.typed_in_shell("# the total\nprintf 'a %s\\n' b") == ["a %s\\n", "b"]
    for code in ('echo "$HOME"', "echo hi > a.txt", "bash report.sh", "echo `date`", "wc -l notes.txt", "echo 'x' | wc -c"):
        assert made_up.typed_in_shell(code) is None, code
    turn = make_turn("which customer spent the most? it's in shop/orders.csv")
    verdict = made_up.check(turn, block('echo "Marlow Farm Shop"', "shell"))
    assert verdict is not None and verdict.ask is not None and "shop/orders.csv" in (verdict.ask.text or "")


def test_asked_to_run_a_script_a_typed_in_answer_is_retried_by_running_it(folder: Path) -> None:
    (folder / "monthly_report.sh").write_text("#!/bin/sh\necho report\n")
    turn = make_turn("can you run monthly_report.sh and tell me what it says i spent in october?", template="small")
    verdict = made_up.check(turn, block('echo "Total spent in 2025-10: £123.45"', "shell"))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert "run monthly_report.sh" in verdict.note
    assert verdict.ask.sampling["reply_prefix"] == "```shell\nbash monthly_report.sh\n```\n"
    # only asked about, not asked to run: read it, as for any named file
    turn = make_turn("what does monthly_report.sh say i spent in october?", template="small")
    verdict = made_up.check(turn, block('echo "Total spent in 2025-10: £123.45"', "shell"))
    assert verdict is not None and verdict.ask is not None and "bash" not in verdict.ask.sampling.get("reply_prefix", "")


def test_a_record_copied_with_json_words_is_loaded_from_the_file_too(folder: Path) -> None:
    import json
    import subprocess
    import sys

    games = [{"title": "Codenames", "players": {"min": 2, "max": 8}, "lent_to": None},
             {"title": "Azul", "players": {"min": 2, "max": 4}, "lent_to": "Sam"}]
    (folder / "games").mkdir()
    (folder / "games" / "collection.json").write_text(json.dumps(games))
    code = ('games = [{"title": "Codenames", "players": {"min": 2, "max": 8}, "lent_to": null}]\n'
            'for g in games:\n    if g["lent_to"] is None:\n        print(g["title"])')
    typed = block(code)
    verdict = made_up.check(make_turn("which of my games in games/collection.json are not lent out?"), typed)
    assert verdict is not None and "loaded from games/collection.json" in verdict.warning
    out = subprocess.run([sys.executable, "-c", typed.code], cwd=folder, capture_output=True, text=True, check=True)
    assert out.stdout == "Codenames\n"


def test_records_typed_in_by_code_that_does_not_parse_are_asked_afresh(folder: Path) -> None:
    # ho52: 18 rows of orders.csv typed in, one with a key left out (a SyntaxError); the retry printed `220,120.10`
    broken = block('orders = [\n    {"customer": "Marlow Farm Shop", "amount": 3},\n    {"customer": "Marlow Farm Shop", 5},\n]\n'
                   'print(sum(1 for o in orders if o["customer"] == "x"))')
    verdict = made_up.check(make_turn("how many orders in shop/orders.csv?"), broken)
    assert verdict is not None and "types in data from shop/orders.csv" in verdict.note
    reads = block('import csv\nrows = [\n    r for r in csv.DictReader(open("shop/orders.csv")) if r["customer"] == "Marlow Farm Shop"\n')
    assert made_up.check(make_turn("how many orders in shop/orders.csv?"), reads) is None
    assert made_up.typed_data('x = [1, 2,, 3]\nprint(o["Marlow Farm Shop"])') == []  # a key looked up is no data typed in
    assert made_up.typed_data('x = [1, 2,, 3]\nprint("Marlow Farm Shop")') == ["Marlow Farm Shop"]
