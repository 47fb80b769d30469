from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import honest_end, outputs
from oi_local.core.rules.turn import Run

from .handmade import failed, make_turn, ran, reply

OUT = {"role": "computer", "type": "console", "format": "output", "content": "x"}


def test_done_over_a_failure_gets_one_honest_sentence_with_the_error() -> None:
    run = failed("open('nope.csv')", "FileNotFoundError: [Errno 2] No such file or directory: 'nope.csv'")
    turn = make_turn("Sum the prices in nope.csv", OUT, reply("Done! The total is 42."), runs=(run,))
    line = honest_end.finish(turn)
    assert line == "This is not done: the last run failed with FileNotFoundError: [Errno 2] No such file or directory: 'nope.csv'."


def test_a_reply_that_quotes_the_error_is_left_as_it_is_and_a_vague_one_is_not() -> None:
    run = failed("open('nope.csv')", "FileNotFoundError: [Errno 2] No such file or directory: 'nope.csv'")
    for said in ("No such file or directory: nope.csv.", "It raised FileNotFoundError.", "Error: no such file or directory"):
        turn = make_turn("Sum the prices in nope.csv", OUT, reply(said), runs=(run,))
        assert honest_end.finish(turn) is None, said
    for said in ("I couldn't read it: there is an error.", "Sorry, that failed.", "The total is 42."):
        turn = make_turn("Sum the prices in nope.csv", OUT, reply(said), runs=(run,))
        assert (honest_end.finish(turn) or "").startswith("This is not done: the last run failed with FileNotFoundError"), said


def test_a_success_or_a_turn_without_code_says_nothing_more() -> None:
    assert honest_end.finish(make_turn("Hi", reply("Hello!"))) is None
    turn = make_turn("What is 2+2?", OUT, reply("It is 4."), runs=(ran("print(2+2)", "4\n"),))
    assert honest_end.finish(turn) is None


def test_a_stopped_run_is_a_failure_too() -> None:
    run = Run("python", "while True: pass", "", None, True)
    turn = make_turn("Count to infinity", OUT, reply("Here you go."), runs=(run,))
    assert "stopped before it finished" in (honest_end.finish(turn) or "")


def test_missing_files_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    turn = make_turn("Write the total to total.txt", OUT, reply("I saved it."))
    outputs.start(turn)
    turn.runs.append(ran("print(5)", "5\n"))
    assert honest_end.finish(turn) == "This is not done: total.txt was not created."
    turn.engine.check_outputs = False
    assert honest_end.finish(turn) is None


def test_a_turn_whose_code_a_rule_refused_says_it_was_not_run() -> None:
    turn = make_turn("How many lines are in notes.txt?", OUT, reply("There are 12 lines."))
    turn.not_run = "Not run: this code changes notes.txt, but the request only asks a question."
    assert honest_end.finish(turn) == ("This is not done: the code was not run (this code changes notes.txt, but the "
                                       "request only asks a question).")
    turn.engine.messages.append(reply("I could not count them without changing the file."))
    assert honest_end.finish(turn) is None  # the reply owns up already


def test_a_question_whose_last_code_printed_no_answer_is_not_shown_as_answered() -> None:
    request = "How many invoices in the invoices folder are unpaid?"
    for output, what in (("", "ran but printed nothing"), ("None\n", "ran but printed only None, no answer")):
        turn = make_turn(request, OUT, reply("I did not run the code."), runs=(ran("check(invoices)", output),))
        assert honest_end.finish(turn) == f"This is not done: the code {what}.", output
    said = make_turn(request, OUT, reply("The code printed nothing, so I don't know yet."), runs=(ran("x = 1", ""),))
    assert honest_end.finish(said) is None  # the reply says so itself
    task = make_turn("Copy items.csv into a new backup folder.", OUT, reply("Done."), runs=(ran("shutil.copy(a, b)", ""),))
    assert honest_end.finish(task) is None  # a task, not a question: printing nothing is fine
    answered = make_turn(request, OUT, reply("3 are unpaid."), runs=(ran("print(3)", "3\n"),))
    assert honest_end.finish(answered) is None


def test_an_answer_that_says_back_the_printed_text_is_not_an_answer() -> None:
    thread = ("From: Pauline. Sent 2 September. Subject: quiz night. Shall we move it to Friday the 28th? "
              "I'm sorry but I can't do the Saturday, there is a problem with the hall booking. "
              "From: Dev. Friday works for me, let's say the 28th then, doors at seven. ") * 2
    request = "can you help me make sense of this email thread?\n\n" + thread + "\n\nso what date did we settle on?"
    for output in (thread, "x"):  # printed from the file it was saved to, or not
        turn = make_turn(request, OUT, reply(thread), runs=(ran("print(open('message.txt').read())", output),))
        assert honest_end.finish(turn) == f"This is not done: {honest_end.DUMPED}.", output
    short = make_turn(request, OUT, reply("You settled on Friday the 28th."), runs=(ran("print(text)", thread),))
    assert honest_end.finish(short) is None


def test_a_missing_named_file_is_the_error_named_not_a_later_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    first = failed("open('sales.csv')", "FileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'")
    later = failed("print(sum(rows))", "NameError: name 'rows' is not defined")
    turn = make_turn("Sum the prices in sales.csv", OUT, reply("The total is 42."), runs=(first, later))
    assert honest_end.finish(turn) == (
        "This is not done: a run failed with FileNotFoundError: [Errno 2] No such file or directory: 'sales.csv'.")
    turn = make_turn("Sum the prices in sales.csv", OUT, reply("sales.csv: No such file or directory."), runs=(first, later))
    assert honest_end.finish(turn) is None  # it says so itself
    other = failed("os.listdir('/mnt/nas/backup')", "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/nas/backup'")
    turn = make_turn("my NAS emails me its backups log: ...", OUT, reply("42."), runs=(other, later))
    assert honest_end.finish(turn) == "This is not done: the last run failed with NameError: name 'rows' is not defined."
    png = failed("open('chart.png')", "FileNotFoundError: [Errno 2] No such file or directory: 'chart.png'")
    turn = make_turn("Plot the prices and save it as chart.png", OUT, reply("42."), runs=(png, later))
    assert honest_end.finish(turn) == "This is not done: the last run failed with NameError: name 'rows' is not defined."
    shop = failed("open('shopping.csv')", "FileNotFoundError: [Errno 2] No such file or directory: 'shopping.csv'")
    turn = make_turn("Start a shopping list in shopping.csv with the columns item and qty. Put in 6 apples.", OUT,
                     reply("Done."), runs=(shop, later))  # a file the request asks to make is no cause
    assert honest_end.finish(turn) == "This is not done: the last run failed with NameError: name 'rows' is not defined."
    (tmp_path / "sales.csv").write_text("price\n3\n")  # the file is there now: the later error is the reason
    turn = make_turn("Sum the prices in sales.csv", OUT, reply("The total is 42."), runs=(first, later))
    assert honest_end.finish(turn) == "This is not done: the last run failed with NameError: name 'rows' is not defined."


def test_a_result_after_a_missing_named_file_is_not_shown_as_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # asked to add up receipts/2025-03.csv, which is not there, the model then typed in [3, 4, 5] and said "12"
    monkeypatch.chdir(tmp_path)
    request = "can you add up receipts/2025-03.csv for me?"
    first = failed("open('receipts/2025-03.csv')",
                   "FileNotFoundError: [Errno 2] No such file or directory: 'receipts/2025-03.csv'")
    typed = ran("receipts = [3, 4, 5]\nprint(sum(receipts))", "12")
    turn = make_turn(request, OUT, reply("12"), runs=(first, typed))
    assert honest_end.finish(turn) == (
        "This is not done: a run failed with FileNotFoundError: [Errno 2] No such file or directory: "
        "'receipts/2025-03.csv', and it is still not there.")
    turn = make_turn(request, OUT, reply("receipts/2025-03.csv does not exist."), runs=(first, typed))
    assert honest_end.finish(turn) is None  # it says so itself
    # the code caught the error itself: a vague "an error occurred" does not say the file is not there
    caught = ran("try:\n    open('receipts/2025-04.csv')\nexcept Exception as e:\n    print(f'An error occurred: {e}')",
                 "An error occurred: 'amount'")
    turn = make_turn(request, OUT, reply("An error occurred: 'amount'. Please check your folder."), runs=(first, caught))
    assert (honest_end.finish(turn) or "").endswith("'receipts/2025-03.csv', and it is still not there.")
    turn = make_turn(request, OUT, reply("I couldn't find receipts/2025-03.csv."), runs=(first, caught))
    assert honest_end.finish(turn) is None
    (tmp_path / "receipts").mkdir()
    (tmp_path / "receipts" / "2025-03.csv").write_text("amount\n12\n")  # made since (a file asked for): done
    turn = make_turn(request, OUT, reply("12"), runs=(first, typed))
    assert honest_end.finish(turn) is None


def test_printed_nothing_owns_up_to_an_empty_answer_not_to_a_missing_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.csv").write_text("sku,qty\na1,3\n")
    said = "The code ran without errors and printed nothing."
    turn = make_turn("copy items.csv into a new backup folder", OUT, reply(said))
    outputs.start(turn)
    turn.runs.append(ran("for p in Path('backup').glob('*'): print(p)", ""))
    assert honest_end.finish(turn) == "This is not done: no new backup folder was made."
    turn = make_turn("How many rows of items.csv have qty over 5?", OUT, reply(said), runs=(ran("x = open('items.csv').read()", ""),))
    assert honest_end.finish(turn) is None


READ = "data = open({!r}).read()\nprint({})"  # code that reads the named file (else outputs.unread says so)


def test_an_answer_over_data_that_lacks_what_was_asked_ends_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "goals.json").write_text('[{"match": 1, "scorers": ["Kojo", "Ama"]}]')
    (tmp_path / "night.csv").write_text("timestamp,temp_c\n")
    asked = "how many goals did Kofi score? the scorers are in goals.json"
    turn = make_turn(asked, OUT, reply("0"), runs=(ran(READ.format("goals.json", 0), "0\n"),))
    assert honest_end.finish(turn) == "Note: Kofi does not appear anywhere in goals.json."
    turn = make_turn("whats the highest temperature in night.csv?", OUT, reply("0"), runs=(ran(READ.format("night.csv", 0), "0\n"),))
    assert honest_end.finish(turn) == "Note: night.csv has a header line but no rows of data."
    # Said already, or a name that is there, or nothing run: nothing more.
    for said in ("Kofi is not in goals.json.", "Kofi doesn't appear in the file, so 0."):
        assert honest_end.finish(make_turn(asked, OUT, reply(said), runs=(ran(READ.format("goals.json", 0), "0\n"),))) is None, said
    turn = make_turn("how many goals did Kojo score? see goals.json", OUT, reply("1"), runs=(ran(READ.format("goals.json", 1), "1\n"),))
    assert honest_end.finish(turn) is None
    assert honest_end.finish(make_turn(asked, reply("Kofi scored 0."))) is None


def test_a_thing_to_look_up_that_the_named_file_never_mentions_ends_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "service_log.csv").write_text("date,customer,bike,price\n2024-07-02,Marta Kowalczyk,Brompton M6L,97\n")
    (tmp_path / "cabin.txt").write_text("The spare key is under the blue flowerpot.\nHost: 07700 900461\n")
    asked = "Can you find Marta Kowalczyk's phone number in service_log.csv? I need to ring her."
    turn = make_turn(asked, OUT, reply("Total price for Marta: $97.0"), runs=(ran(READ.format("service_log.csv", 97), "97\n"),))
    assert honest_end.finish(turn) == "Note: service_log.csv never mentions phone number, so that is not in it."
    asked = "where is the spare key, and whats the wifi password? it's all in cabin.txt"
    turn = make_turn(asked, OUT, reply("Under the blue flowerpot."), runs=(ran(READ.format("cabin.txt", 1), "1\n"),))
    assert honest_end.finish(turn) == "Note: cabin.txt never mentions wifi password, so that is not in it."
    # Held in other words (a phone number written as one), worked out of other columns, or said: nothing more.
    for asked, said in (("whats the host's phone number? see cabin.txt", "07700 900461"),
                        ("what's the average price per bike in service_log.csv?", "97"),
                        ("what's the total revenue in service_log.csv?", "97"),
                        ("whats the wifi password in cabin.txt?", "The wifi password is not in cabin.txt.")):
        read = "service_log.csv" if "service_log" in asked else "cabin.txt"
        turn = make_turn(asked, OUT, reply(said), runs=(ran(READ.format(read, 1), "1\n"),))
        assert honest_end.finish(turn) is None, asked


def test_a_missing_key_is_said_in_the_persons_words() -> None:
    note = "Note: there is no key 'star_rating'. The keys are: 'title', 'author', 'pages'."
    code = "import csv\nrows = list(csv.DictReader(open('books.csv')))\nprint(rows[0]['star_rating'])"
    run = failed(code, "KeyError: 'star_rating'", note)
    turn = make_turn("What is my average star rating in books.csv?", OUT, reply("Stopped."), runs=(run,))
    assert honest_end.finish(turn) == (
        "This is not done: the last run failed with KeyError: 'star_rating': there is no column 'star_rating' in the "
        "data (its columns are 'title', 'author', 'pages').")
    run = failed("print(data['star_rating'])", "KeyError: 'star_rating'", note)  # not a table: a record's fields
    turn = make_turn("What is my average star rating in books.json?", OUT, reply("Stopped."), runs=(run,))
    assert "there is no field 'star_rating' in the data (its fields are 'title'" in (honest_end.finish(turn) or "")
    run = failed("print(data['star_rating'])", "KeyError: 'star_rating'")  # no note: the error alone
    turn = make_turn("What is my average star rating in books.json?", OUT, reply("Stopped."), runs=(run,))
    assert honest_end.finish(turn) == "This is not done: the last run failed with KeyError: 'star_rating'."


def test_a_missing_field_the_request_asks_about_is_named_over_a_later_error() -> None:
    note = "Note: there is no key 'salary'. The keys are: 'name', 'department', 'office'."
    first = failed("print(df['salary'].mean())", "KeyError: 'salary'", note)
    later = failed("print(sum(float(r[10]) for r in staff))", "KeyError: 10")  # the model's next try
    turn = make_turn("whats the average salary of the people in Sales? staff.csv", OUT, reply("Stopped."), runs=(first, later))
    assert honest_end.finish(turn) == (
        "This is not done: a run failed with KeyError: 'salary': there is no field 'salary' in the data (its fields are "
        "'name', 'department', 'office').")
    turn = make_turn("whats the average pay of the people in Sales? staff.csv", OUT, reply("Stopped."), runs=(first, later))
    assert honest_end.finish(turn) == "This is not done: the last run failed with KeyError: 10."  # not a word asked


def test_the_asked_scripts_own_error_is_the_reason_not_a_later_try(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sync_photos.sh").write_text("echo 'sync_photos: ERROR: ~/nas is not mounted' >&2; exit 2\n")
    script = failed("bash sync_photos.sh", "sync_photos: ERROR: ~/nas is not mounted", lang="shell")
    by_hand = failed('mkdir -p "$dest"', '  File "<cell-2>", line 3\nSyntaxError: invalid syntax')
    turn = make_turn("can you run sync_photos.sh for me?", OUT, reply("Stopped."), runs=(script, by_hand))
    assert honest_end.finish(turn) == "This is not done: a run failed with sync_photos: ERROR: ~/nas is not mounted."
    turn = make_turn("what does sync_photos.sh do?", OUT, reply("Stopped."), runs=(script, by_hand))  # not asked to run it
    assert honest_end.finish(turn) == "This is not done: the last run failed with SyntaxError: invalid syntax."


def test_an_answer_from_data_no_code_read_is_said_not_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs.log").write_text("night 1 FAILED\nnight 2 OK\n")
    said = "Number of nights the backup failed: 0"  # "failed" here owns up to nothing
    turn = make_turn("how many nights failed in runs.log?", OUT, reply(said), runs=(ran("print(0)", "0\n"),))
    assert honest_end.finish(turn) == "This is not done: no code that ran read runs.log, so the answer is not from its data."
    read = make_turn("how many nights failed in runs.log?", OUT, reply("1"), runs=(ran(READ.format("runs.log", 1), "1\n"),))
    assert honest_end.finish(read) is None


def test_the_requests_own_words_in_the_answer_are_not_an_admission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.log").write_text("INFO up\nERROR disk\n")
    turn = make_turn("put the ERROR lines from server.log in errors.txt. how many were there?", OUT,
                     reply("1 line of server.log contains the word ERROR."))
    outputs.start(turn)
    turn.runs.append(ran('print(sum("ERROR" in l for l in open("server.log")))', "1\n"))
    assert honest_end.finish(turn) == "This is not done: errors.txt was not created."
    turn.engine.messages[-1] = reply("I could not write errors.txt: 1 ERROR line.")  # owned up in its own words
    assert honest_end.finish(turn) is None


def test_a_total_for_a_month_the_dates_do_not_have_ends_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sales.csv").write_text("date,region,amount\n2024-01-04,North,1200\n2024-02-29,West,525.80\n2025-03-02,West,10\n")
    asked = "From sales.csv, what were our total sales for March 2024?"
    turn = make_turn(asked, OUT, reply("0"), runs=(ran(READ.format("sales.csv", 0), "0\n"),))
    assert honest_end.finish(turn) == ("Note: sales.csv has no rows dated in March 2024 "
                                       "(its dates run from 2024-01-04 to 2025-03-02).")
    # A month the file has (in some year, when none is named), or a reply that says so: nothing more.
    for request in ("total sales for February 2024 in sales.csv?", "total sales for March in sales.csv?"):
        assert honest_end.finish(make_turn(request, OUT, reply("10"), runs=(ran(READ.format("sales.csv", 0), "10\n"),))) is None
    said = reply("There are no rows for March 2024 in sales.csv.")
    assert honest_end.finish(make_turn(asked, OUT, said, runs=(ran(READ.format("sales.csv", 0), "0\n"),))) is None
    turn = make_turn("total sales for April in sales.csv?", OUT, reply("0"), runs=(ran(READ.format("sales.csv", 0), "0\n"),))
    assert honest_end.finish(turn) == "Note: sales.csv has no rows dated in April (its dates run from 2024-01-04 to 2025-03-02)."


def test_a_month_the_folders_files_do_not_have_ends_with_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "receipts").mkdir()
    for name in ("jan.csv", "feb.csv"):
        (tmp_path / "receipts" / name).write_text("date,shop,amount\n2024-01-02,Aldi,3.50\n")
    summed = ran(READ.format("receipts/feb.csv", 0), "312.69\n")
    asked = "add up my march receipts for me, they're in the receipts folder. just need the total"
    assert honest_end.finish(make_turn(asked, OUT, reply("312.69"), runs=(summed,))) == \
        "Note: receipts/ has no file for March (its files are feb.csv, jan.csv)."
    asked_feb = asked.replace("march", "february")  # there is one
    assert honest_end.finish(make_turn(asked_feb, OUT, reply("312.69"), runs=(summed,))) is None
    (tmp_path / "receipts" / "all_2024.csv").write_text("date,shop,amount\n2024-03-02,Aldi,3.50\n")  # may hold March
    assert honest_end.finish(make_turn(asked, OUT, reply("312.69"), runs=(summed,))) is None


def test_an_answer_from_another_field_after_a_missing_one_ends_with_a_note() -> None:
    tried = failed("import csv\nrows = list(csv.DictReader(open('staff.csv')))\nprint(rows[0]['salary'])", "KeyError: 'salary'")
    other = ran("import pandas as pd\ndf = pd.read_csv('staff.csv')\n"
                "average_salary = df[df.department == 'Sales'].hours_per_week.mean()\nprint(average_salary)", "35.9\n")
    asked = "what's the average salary of the people in Sales? it's all in staff.csv"
    assert honest_end.finish(make_turn(asked, OUT, reply("35.9"), runs=(tried, other))) == \
        "Note: the data has no column 'salary', so the answer above is not from 'salary'."
    fixed = ran(other.code.replace("hours_per_week", "salary"), "51000\n")  # found after all (another spelling)
    assert honest_end.finish(make_turn(asked, OUT, reply("51000"), runs=(tried, fixed))) is None
    total = failed("print(rows[0]['total'])", "KeyError: 'total'")  # a word for what is asked, not a field
    asked = "what's the total of the amounts in staff.csv?"
    assert honest_end.finish(make_turn(asked, OUT, reply("12"), runs=(total, ran("print(12)", "12\n")))) is None
    said = reply("There is no salary column in staff.csv; it has hours_per_week.")
    assert honest_end.finish(make_turn("average salary in staff.csv?", OUT, said, runs=(tried, other))) is None


def test_a_missing_key_said_plainly_leaves_out_where_it_is_nested() -> None:
    note = ("Note: there is no key 'qty'. The keys are: 'order_id', 'status', 'items'.\n"
            "'qty' is in the 'items' list of each record (its keys: 'product', 'qty'): walk it too.")
    run = failed("print(order['qty'])", "KeyError: 'qty'", note)
    turn = make_turn("What are the orders in orders.json worth?", OUT, reply("Stopped."), runs=(run,))
    assert honest_end.finish(turn) == ("This is not done: the last run failed with KeyError: 'qty': there is no field 'qty' "
                                       "in the data (its fields are 'order_id', 'status', 'items').")


def test_a_quoted_name_with_a_space_names_no_file_with_its_last_word(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ho56: the rename was done, and the turn ended "This is not done" over a try that read notes.txt
    monkeypatch.chdir(tmp_path)
    (tmp_path / "meeting-2024-05-14.txt").write_text("Meeting 14 May\n")
    missing = failed("open('notes.txt')", "FileNotFoundError: [Errno 2] No such file or directory: 'notes.txt'")
    done = ran("import os\nos.rename('meeting notes.txt', 'meeting-2024-05-14.txt')", "")
    turn = make_turn('rename "meeting notes.txt" to meeting-2024-05-14.txt', OUT, reply("Renamed."), runs=(missing, done))
    assert honest_end.finish(turn) is None
    # named on its own, it still is
    turn = make_turn('rename "notes.txt" to meeting-2024-05-14.txt', OUT, reply("Renamed."), runs=(missing, done))
    assert honest_end.finish(turn) == ("This is not done: a run failed with FileNotFoundError: [Errno 2] No such file or "
                                       "directory: 'notes.txt', and it is still not there.")


def test_a_run_the_sandbox_kept_offline_says_so_plainly() -> None:
    # ho58 (session 59's start): the turn ended on "requests.exceptions.ConnectionError: HTTPSConnectionPool(..." alone
    run = failed("requests.get(url)", "socket.gaierror: [Errno -3] Temporary failure in name resolution\n"
                 "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='x.example', port=443): Max retries exceeded")
    turn = make_turn("look up today's rate online", OUT, reply("The URL could not be resolved."), runs=(run,))
    line = honest_end.finish(turn) or ""
    assert line.startswith(f"This is not done: {honest_end.OFFLINE}; the last run failed with requests.exceptions.Connection")
    turn.engine.computer.allow_network = True  # allowed, and still not reached: no word about the sandbox
    assert honest_end.OFFLINE not in (honest_end.finish(turn) or "x")
