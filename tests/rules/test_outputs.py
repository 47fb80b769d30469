from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import outputs

from .handmade import failed, make_turn, ran, reply


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "items.csv").write_text("name,price\napple,3.5\npear,2.25\n")
    return tmp_path


def started(request: str) -> outputs.Turn:
    turn = make_turn(request, reply("Done."))
    outputs.start(turn)
    return turn


def test_an_empty_copy_is_found_and_asked_for_once(folder: Path) -> None:
    turn = started("Copy items.csv into a new backup folder")
    (folder / "backup").mkdir()
    (folder / "backup" / "items.csv").write_text("")
    turn.runs.append(ran("open('backup/items.csv','w')", ""))
    turn.steps = 1
    found = outputs.problems(turn)
    assert found == ["backup/items.csv is empty"]
    ask = outputs.follow_up(turn)
    assert ask is not None and "backup/items.csv is empty" in (ask.text or "")
    assert outputs.follow_up(turn) is None  # once a turn


def test_a_copy_with_other_bytes_is_not_a_copy(folder: Path) -> None:
    turn = started("Copy items.csv into a new backup folder")
    (folder / "backup").mkdir()
    (folder / "backup" / "items.csv").write_text("name,price\napple,3.5\n")
    turn.runs.append(ran("...", ""))
    assert outputs.problems(turn) == ["backup/items.csv is not a copy of items.csv (the bytes differ)"]
    (folder / "backup" / "items.csv").write_bytes((folder / "items.csv").read_bytes())
    assert outputs.problems(turn) == []


def test_a_named_result_file_must_exist(folder: Path) -> None:
    turn = started("Plot the prices in items.csv and save as prices.png")
    turn.runs.append(ran("import matplotlib\nplt.plot([3, 4, 5])", ""))
    found = outputs.problems(turn)
    assert "prices.png was not created" in found
    assert "the code never read items.csv, so the plot does not show its data" in found
    (folder / "prices.png").write_bytes(b"\x89PNG....")
    turn.runs.append(ran("df = pd.read_csv('items.csv')\ndf.plot()", ""))
    assert outputs.problems(turn) == []
    turn = started("plot the items and save as items.png")  # named by its stem alone
    (folder / "items.png").write_bytes(b"\x89PNG....")
    turn.runs.append(ran("plt.plot([3, 4, 5])\nplt.savefig('items.png')", ""))
    assert outputs.problems(turn) == ["the code never read items.csv, so the plot does not show its data"]
    turn.runs.append(ran("import glob\nfor p in glob.glob('*.csv'):\n    df = pd.read_csv(p)", ""))  # a pattern that matches it
    assert outputs.problems(turn) == []
    turn = started("plot the items and save as items.png")
    turn.runs.append(ran("import glob\nfor p in glob.glob('data/*.json'):\n    df = pd.read_json(p)\ndf.plot()", ""))
    assert outputs.problems(turn) == ["the code never read items.csv, so the plot does not show its data"]


def test_nothing_is_checked_for_requests_without_files_or_without_runs(folder: Path) -> None:
    turn = started("What is 2 + 2?")
    turn.runs.append(ran("print(4)", "4\n"))
    assert "outputs" not in turn.state and outputs.problems(turn) == []
    turn = started("Save the total to total.txt")
    assert outputs.problems(turn) == []  # nothing ran yet


def test_an_empty_file_asked_for_is_fine_and_destructive_requests_are_left_alone(folder: Path) -> None:
    turn = started("Create an empty file called done.flag")
    (folder / "done.flag").write_text("")
    turn.runs.append(ran("open('done.flag','w')", ""))
    assert outputs.problems(turn) == []
    turn = started("Delete items.csv and save a note to note.txt")
    turn.runs.append(ran("...", ""))
    turn.steps = 1
    assert outputs.problems(turn) and outputs.follow_up(turn) is None
    # a cleaned-up list to make is no folder to clean (ho58: the missing file was said, never asked for)
    turn = started("Save a cleaned-up list of items.csv with every name only once to items_clean.csv")
    turn.runs.append(ran("print(3)", "3\n"))
    turn.steps = 1
    ask = outputs.follow_up(turn)
    assert ask is not None and "items_clean.csv was not created" in (ask.text or "")
    assert (ask.text or "").endswith("does what I asked, and saves items_clean.csv.)")
    turn = started("Clean up the old files and save a list of them to gone.txt")
    turn.runs.append(ran("...", ""))
    turn.steps = 1
    assert outputs.follow_up(turn) is None


def test_a_folder_too_big_to_look_at_is_not_checked(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outputs, "MAX_FILES", 0)
    turn = started("Save the total to total.txt")
    turn.runs.append(ran("print(1)", "1\n"))
    assert outputs.problems(turn) == []


def test_no_ask_after_a_failure_no_code_can_fix(folder: Path) -> None:
    turn = started("Unzip photos.zip and save the list of files as photos.txt")
    turn.runs.append(failed("zipfile.ZipFile('photos.zip')", "zipfile.BadZipFile: File is not a zip file"))
    turn.steps = 1
    assert outputs.problems(turn) == ["photos.txt was not created"]
    assert outputs.follow_up(turn) is None  # the turn ends saying it failed (honest end), not with made-up code
    turn.runs.append(failed("open('photos.txt').read()", "NameError: name 'x' is not defined"))
    assert outputs.follow_up(turn) is not None  # a failure code can fix is still asked about


def test_a_new_folder_asked_for_must_be_made(folder: Path) -> None:
    turn = started("Put a copy of items.csv in a new archive folder please")
    (folder / "archive_copy.csv").write_bytes((folder / "items.csv").read_bytes())
    turn.runs.append(ran("shutil.copy('items.csv', 'archive_copy.csv')", ""))
    assert outputs.problems(turn) == ["no new archive folder was made"]
    (folder / "Archive-2026").mkdir()
    assert outputs.problems(turn) == ["Archive-2026 has no copy of items.csv"]
    (folder / "Archive-2026" / "items.csv").write_bytes((folder / "items.csv").read_bytes())
    assert outputs.problems(turn) == []
    (folder / "old").mkdir()
    turn = started("Move the logs into the folder called old")  # it is there already: nothing to make
    turn.runs.append(ran("...", ""))
    assert outputs.problems(turn) == []


def test_a_new_folder_given_as_a_path_must_be_made_and_hold_the_copy(folder: Path) -> None:
    (folder / "house").mkdir()
    (folder / "house" / "stock.csv").write_text("item,qty\nrice,2\n")
    turn = started("could you stick a copy of house/stock.csv in a new folder called house/stock_backup?")
    # shutil.copy into a folder that does not exist makes a file of that name
    (folder / "house" / "stock_backup").write_bytes((folder / "house" / "stock.csv").read_bytes())
    turn.runs.append(ran("shutil.copy('house/stock.csv', 'house/stock_backup')", ""))
    assert outputs.problems(turn) == ["house/stock_backup is a file, not a new folder (the copy went to that name)"]
    (folder / "house" / "stock_backup").unlink()
    (folder / "house" / "stock_backup").mkdir()
    assert outputs.problems(turn) == ["house/stock_backup has no copy of house/stock.csv"]
    (folder / "house" / "stock_backup" / "stock.csv").write_bytes((folder / "house" / "stock.csv").read_bytes())
    assert outputs.problems(turn) == []


def test_a_new_folder_without_the_copy_is_found(folder: Path) -> None:
    turn = started("Copy items.csv into a new backup folder")
    (folder / "backup").mkdir()
    turn.runs.append(ran("os.makedirs('backup')", ""))
    assert outputs.problems(turn) == ["backup has no copy of items.csv"]
    (folder / "backup" / "items_2026.csv").write_bytes((folder / "items.csv").read_bytes())
    assert outputs.problems(turn) == []  # any name: the bytes are what counts


def test_a_result_made_in_another_folder_is_not_the_one_asked_for(folder: Path) -> None:
    (folder / "tax_2024").mkdir()
    (folder / "tax_2024" / "p60.txt").write_text("pay 1000\n")
    turn = started("pls zip up the whole tax_2024 folder into tax_2024.zip")
    (folder / "tax_2024" / "tax_2024.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    turn.runs.append(ran("zipfile.ZipFile('tax_2024/tax_2024.zip', 'w')", ""))
    assert outputs.problems(turn) == ["tax_2024.zip was not created (the code made tax_2024/tax_2024.zip instead)"]
    turn = started("Make a chart of items.csv and save it in the reports folder as chart.png")
    (folder / "reports").mkdir()
    (folder / "reports" / "chart.png").write_bytes(b"\x89PNG....")
    turn.runs.append(ran("plt.savefig('reports/chart.png') # items.csv", ""))
    assert outputs.problems(turn) == []  # where the request put it
    turn = started("Plot items.csv and save it as plots/items.png")
    (folder / "items.png").write_bytes(b"\x89PNG....")
    turn.runs.append(ran("plt.savefig('items.png') # items.csv", ""))
    assert outputs.problems(turn) == ["plots/items.png was not created (the code made items.png instead)"]


def test_a_request_to_change_named_files_that_changed_none_is_not_done(folder: Path) -> None:
    (folder / "scans").mkdir()
    (folder / "scans" / "2023-01-gas.pdf").write_bytes(b"%PDF")
    turn = started("please move every file in scans/ into a subfolder for its year")
    turn.runs.append(ran("for p in Path('.').glob('*.pdf'):\n    shutil.move(p, p.name[:4])", ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["no file in the working folder was changed"]
    ask = outputs.follow_up(turn)
    assert ask is not None and "no file in the working folder was changed" in (ask.text or "")
    (folder / "scans" / "2023").mkdir()
    (folder / "scans" / "2023-01-gas.pdf").rename(folder / "scans" / "2023" / "2023-01-gas.pdf")
    assert outputs.problems(turn) == []
    # a question, a request naming no file of the folder, a failed run: not this check's
    for request in ("which files in scans/ are from 2023? don't move them", "convert 5 miles to km", "replace the word cat with dog"):
        turn = started(request)
        turn.runs.append(ran("print(1)", "1"))
        assert outputs.problems(turn) == [], request
    turn = started("fix items.csv: the pear price is wrong")
    turn.runs.append(failed("open('items.csv').write('x')", "io.UnsupportedOperation: not writable"))
    assert outputs.problems(turn) == []
    turn.runs.append(ran("print(open('items.csv').read())", "name,price"))
    assert outputs.problems(turn) == ["no file in the working folder was changed"]


def test_a_change_to_a_home_folder_that_changed_nothing_there_is_not_done(folder: Path, tmp_path_factory,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    (home / "Downloads").mkdir()
    (home / "Documents").mkdir()
    (home / "Downloads" / "order.pdf").write_bytes(b"%PDF")
    request = "move all the pdf files out of my Downloads folder into Documents/receipts"
    turn = started(request)
    (home / "Documents" / "receipts").mkdir()  # the folder made, nothing moved (the code globbed ".")
    turn.runs.append(ran("for p in Path('.').glob('*.pdf'):\n    shutil.move(p, 'Documents/receipts')", ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["no file in ~/Downloads, ~/Documents was changed"]
    (home / "Downloads" / "order.pdf").rename(home / "Documents" / "receipts" / "order.pdf")
    assert outputs.problems(turn) == []
    # a question about a home folder, or a home folder the working folder also has: not this check's
    turn = started("how many pdf files are in my Downloads folder?")
    turn.runs.append(ran("print(1)", "1"))
    assert outputs.problems(turn) == []
    (folder / "Downloads").mkdir()
    assert outputs.home_folders(request, str(folder)) == [str(home / "Documents")]


def test_a_new_folder_named_by_a_path_after_its_word_is_that_path(folder: Path) -> None:
    (folder / "thesis").mkdir()
    (folder / "thesis" / "refs.bib").write_text("@book{a}\n")
    turn = started("copy refs.bib from thesis/ into a new bakcup folder thesis/backup_oct first")
    (folder / "thesis" / "backup_oct").mkdir()
    (folder / "thesis" / "backup_oct" / "refs.bib").write_text("@book{a}\n")
    turn.runs.append(ran("shutil.copy('thesis/refs.bib', 'thesis/backup_oct')", ""))
    assert outputs.problems(turn) == []  # not "no new bakcup folder was made"
    turn = started("copy items.csv into a new backup folder, old/backup")
    turn.runs.append(ran("shutil.copy('items.csv', 'backup')", ""))
    assert outputs.problems(turn) == ["no new old/backup folder was made"]


def test_an_answer_from_code_that_never_read_the_named_data_is_asked_for_again(folder: Path) -> None:
    turn = started("what is the total price in items.csv?")
    turn.runs.append(ran("print(3.5 + 2.25 + 1)", "6.75\n"))
    turn.steps = 1
    assert outputs.problems(turn) == ["no code that ran read items.csv, so the answer is not from its data"]
    ask = outputs.follow_up(turn)
    assert ask is not None and "no code that ran read items.csv" in (ask.text or "")
    for code in ("import csv\nrows = list(csv.DictReader(open('items.csv')))\nprint(sum(float(r['price']) for r in rows))",
                 "for m in ['items']:\n    print(open(f'{m}.csv').read())",  # read by its stem
                 "import glob\nprint(glob.glob('*.csv'))"):  # a listing: which files it read is not known
        turn = started("what is the total price in items.csv?")
        turn.runs.append(ran(code, "5.75\n"))
        assert outputs.problems(turn) == [], code
    # read in an earlier turn of the conversation: the session holds it
    turn = started("and what is the total price in items.csv now?")
    turn.engine.messages[:0] = [{"role": "assistant", "type": "code", "format": "python",
                                 "content": "rows = list(csv.DictReader(open('items.csv')))"},
                                {"role": "computer", "type": "console", "format": "output", "content": ""}]
    turn.start += 2
    turn.runs.append(ran("print(sum(float(r['price']) for r in rows))", "5.75\n"))
    assert outputs.problems(turn) == []
    # not a question, or a failed run (the error is the news): no such problem
    turn = started("add a row to items.csv")
    turn.runs.append(ran("print('ok')", "ok\n"))
    assert outputs.problems(turn) == ["no file in the working folder was changed"]  # that, not an unread file
    turn = started("what is the total price in items.csv?")
    turn.runs.append(failed("print(x)", "NameError: name 'x' is not defined"))
    assert outputs.problems(turn) == []


@pytest.mark.parametrize("code, read", [
    ("import glob\nprint(glob.glob('*.csv'))", True),
    ("import os\nprint(os.listdir())", True),
    ("from pathlib import Path\nfor p in Path('backup').rglob('*'):\n    print(p)", False),  # another folder
    ("from pathlib import Path\nprint(list(Path('.').iterdir()))", True),
    ("print(6)", False),
])
def test_a_listing_reads_the_files_of_the_folder_it_lists(folder: Path, code: str, read: bool) -> None:
    turn = started("what is the total price in items.csv?")
    turn.runs.append(ran(code, "6\n"))
    assert (outputs.problems(turn) == []) is read


def test_items_asked_to_be_added_that_no_changed_file_holds_are_not_done(folder: Path) -> None:
    (folder / "party").mkdir()
    (folder / "party" / "guests.txt").write_text("Priya\nGerald\nAoife\n")
    turn = started("ah gerald can't make it, take him off. and add yusuf and carmen")
    (folder / "party" / "guests.txt").write_text("Priya\nAoife\n")
    turn.runs.append(ran("open('party/guests.txt', 'w').write('Priya\\nAoife\\n')", ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["yusuf is not in party/guests.txt", "carmen is not in party/guests.txt"]
    (folder / "party" / "guests.txt").write_text("Priya\nAoife\nYusuf\nCarmen\n")
    assert outputs.problems(turn) == []
    # items of another kind ("a header row", "up the fees", numbers) are not checked
    for request in ("add a header row to party/guests.txt", "add up the fees", "add 5 to each price"):
        assert outputs.added_items(request) == [], request


def test_a_file_asked_to_be_put_in_must_exist(folder: Path) -> None:
    (folder / "server.log").write_text("INFO up\nERROR disk\nERROR net\n")
    turn = started("grab all the ERROR lines from server.log and put them in errors.txt. how many were there?")
    turn.runs.append(ran('print(sum("ERROR" in line for line in open("server.log")))', "2\n"))
    assert outputs.problems(turn) == ["errors.txt was not created"]
    # a file the request reads is not one to make
    turn = started("write code that counts the words in items.csv")
    turn.runs.append(ran('print(len(open("items.csv").read().split()))', "3\n"))
    assert outputs.problems(turn) == []


def test_a_copy_asked_with_the_originals_kept_is_asked_for_again(folder: Path) -> None:
    turn = started("copy items.csv into a new folder called backup. dont delete the original")
    turn.runs.append(ran("import shutil\nshutil.copy('items.csv', 'items.backup')", ""))
    turn.steps = 1
    ask = outputs.follow_up(turn)  # "dont delete" asks for nothing destructive
    assert ask is not None and "no new backup folder was made" in (ask.text or "")
    turn = started("copy items.csv into a new folder called backup, then delete items.csv")
    turn.runs.append(ran("import shutil\nshutil.copy('items.csv', 'items.backup')", ""))
    turn.steps = 1
    assert outputs.follow_up(turn) is None  # a deletion asked for: left to the person


def test_something_to_add_to_the_log_with_a_question_must_change_a_file(folder: Path) -> None:
    (folder / "runs.txt").write_text("32\n41\n28\n")
    turn = started("I ran another 46 minutes today, add it to the log. How many minutes have I run in total now?")
    turn.runs.append(ran("print(sum(map(int, open('runs.txt'))))", "101\n"))
    turn.steps = 1
    assert outputs.problems(turn) == ["no file in the working folder was changed"]
    with open(folder / "runs.txt", "a") as f:
        f.write("46\n")
    assert outputs.problems(turn) == []
    turn = started("Add a row for Omar with 11 points, then tell me the average points.")
    turn.runs.append(ran("print(11.0)", "11.0\n"))
    turn.steps = 1
    assert outputs.problems(turn) == ["no file in the working folder was changed"]
    for request in ("add 5 to 7 and tell me the result", "add up the minutes in runs.txt", "what is in my log?",
                    "add a few numbers: 3 and 4?"):
        turn = started(request)
        turn.runs.append(ran("print(1)", "1"))
        assert outputs.problems(turn) == [], request


def test_a_kind_of_file_is_not_a_name_to_make(folder: Path) -> None:
    (folder / "website").mkdir()
    (folder / "website" / "index.html").write_text("<p>hi</p>")
    turn = started("please pack up the whole website folder into a tar.gz called website-backup.tar.gz")
    import tarfile

    with tarfile.open(folder / "website-backup.tar.gz", "w:gz") as t:
        t.add(folder / "website", arcname="website")
    turn.runs.append(ran("tar -czf website-backup.tar.gz website", ""))
    turn.steps = 1
    assert not any("tar.gz was not created" in p for p in outputs.problems(turn))


def test_tidying_a_folder_asks_for_a_change() -> None:
    # "tidy up Downloads/ please: jpg and png files go into Downloads/pictures": the code built paths and moved nothing
    assert outputs._changes_asked("tidy up Downloads/ please: pdfs go into Downloads/pdf")
    assert outputs._changes_asked("declutter my Desktop folder")


def test_a_rename_that_left_the_old_name_is_not_done(folder: Path) -> None:
    # session 56: the new file written, the old one left
    (folder / "notes (old).txt").write_text("Roof repair quote accepted.\n")
    turn = started('Rename "notes (old).txt" to club-notes.txt please.')
    (folder / "club-notes.txt").write_text("Roof repair quote accepted.\n")
    turn.runs.append(ran("...", ""))
    assert outputs.problems(turn) == ["notes (old).txt is still there (a rename leaves only club-notes.txt)"]
    (folder / "notes (old).txt").unlink()
    assert outputs.problems(turn) == []
    # a move into a folder
    (folder / "archive").mkdir()
    turn = started("move items.csv into archive")
    (folder / "archive" / "items.csv").write_bytes((folder / "items.csv").read_bytes())
    turn.runs.append(ran("...", ""))
    assert outputs.problems(turn) == ["items.csv is still there (a move leaves only archive/items.csv)"]
    assert outputs.renamed("rename the photos to 2023 names") == []


def test_a_file_asked_to_be_changed_where_it_is_that_stayed_the_same_is_not_done(folder: Path) -> None:
    # ho56: sorted in memory, counted, never saved; asked with a question, the file was not held to a change
    (folder / "shopping.txt").write_text("rice\napples\n")
    turn = started("Could you put shopping.txt in alphabetical order (just save it over the same file) and tell me how many things are on it?")
    turn.runs.append(ran("...", "2"))
    assert outputs.problems(turn) == ["shopping.txt is unchanged (I asked for it to be changed where it is)"]
    import os
    (folder / "shopping.txt").write_text("apples\nrice\n")
    os.utime(folder / "shopping.txt", ns=(1, 1))
    assert outputs.problems(turn) == []
    # no in-place words: a question about the file is not a change to it
    turn = started("Could you tell me how many things are on shopping.txt?")
    turn.runs.append(ran("print(len(open('shopping.txt').read().split()))", "2"))
    assert outputs.problems(turn) == []


def test_a_file_whose_bytes_are_not_the_kind_its_name_says_is_not_done(folder: Path) -> None:
    # ho56: a zip archive written as reports.tar.gz; tar could not open it
    import gzip
    import zipfile
    (folder / "reports").mkdir()
    (folder / "reports" / "q1.txt").write_text("up 4%\n")
    turn = started("zip up the reports folder into a reports.tar.gz please")
    with zipfile.ZipFile(folder / "reports.tar.gz", "w") as z:
        z.write(folder / "reports" / "q1.txt", "q1.txt")
    turn.runs.append(ran("...", "done"))
    assert outputs.problems(turn) == ["reports.tar.gz is not a gzip file (its bytes are a zip archive)"]
    import shutil
    shutil.make_archive(str(folder / "reports"), "gztar", folder, "reports")
    assert outputs.problems(turn) == []
    (folder / "plot.png").write_text("not an image")
    assert outputs.problems(turn) == ["plot.png is not a PNG image"]
    (folder / "plot.png").write_bytes(gzip.compress(b"x"))
    assert outputs.problems(turn) == ["plot.png is not a PNG image (its bytes are a gzip file)"]
    # a file the person had, moved or copied as it was, is not looked at
    (folder / "plot.png").unlink()
    (folder / "scan.jpg").write_text("a stand-in picture")
    turn = started("copy scan.jpg to photo.jpg")
    (folder / "photo.jpg").write_text("a stand-in picture")
    turn.runs.append(ran("import shutil; shutil.copy('scan.jpg', 'photo.jpg')", ""))
    assert outputs.problems(turn) == []


def test_names_asked_to_be_taken_off_a_list_that_it_still_holds_are_not_done(folder: Path) -> None:
    # ho56: "Take them off the list please." after naming Ben and Grace; the code removed Grace from a list it typed in
    (folder / "guests.txt").write_text("Ana\nBen\nChloe\nGrace\n")
    request = "Ben and Grace just told me they can't make it. Take them off the list please."
    turn = started(request)
    turn.runs.append(ran("print(open('guests.txt').read())", "Ana\nBen\nChloe\nGrace\n"))
    assert outputs.problems(turn) == ["guests.txt still has Ben and Grace (I asked for them to be taken off)"]
    (folder / "guests.txt").write_text("Ana\nChloe\n")
    assert outputs.problems(turn) == []
    (folder / "guests.txt").write_text("Ana\nBen\nChloe\n")  # one of them left
    assert outputs.problems(turn) == ["guests.txt still has Ben (I asked for it to be taken off)"]
    (folder / "last_year.txt").write_text("Ben\nOmar\n")  # two lists hold the names: which one is meant is not known
    assert outputs.problems(turn) == []
    from oi_local.core.removals import named_items
    assert named_items("Can you take Ben off the list?") == ["Ben"]
    assert named_items("Remove Paris and Rome from cities.txt") == ["Paris", "Rome"]
    assert named_items("Should I remove Ben from the list?") == []  # asks whether to
    assert named_items("Add Ben to the list") == []  # nothing taken off


JOIN = ('with open("club.csv") as a, open("choir.csv") as b, open("members.csv", "w") as out:\n'
        '    for line in a:\n        out.write(line)\n    for line in b:\n        out.write(line)\n')


def _two_lists(folder: Path) -> None:
    (folder / "club.csv").write_text("name,email\nIda Berg,ida@berg.se\nOla Nord,ola@nord.no\n")
    (folder / "choir.csv").write_text("name,email\nIda B.,IDA@berg.se\nKari Sol,kari@sol.no\n")


def test_a_merge_asked_to_hold_each_once_that_repeats_is_told(folder: Path) -> None:
    import subprocess
    import sys

    _two_lists(folder)
    turn = started("Merge club.csv and choir.csv into members.csv; anyone in both should only be in it once.")
    subprocess.run([sys.executable, "-c", JOIN], cwd=folder, check=True)
    turn.runs.append(ran(JOIN, ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["members.csv has its header row again (row 4)"]
    # header dropped, the shared person still twice (her email in other case)
    (folder / "members.csv").write_text("name,email\nIda Berg,ida@berg.se\nOla Nord,ola@nord.no\nIda B.,IDA@berg.se\n")
    assert outputs.problems(turn) == ["members.csv has IDA@berg.se (email) more than once"]
    ask = outputs.follow_up(turn)
    assert ask is not None and "more than once" in (ask.text or "")
    (folder / "members.csv").write_text("name,email\nIda Berg,ida@berg.se\nOla Nord,ola@nord.no\nKari Sol,kari@sol.no\n")
    assert outputs.problems(turn) == []


def test_a_text_list_with_a_line_twice_is_told_and_other_requests_are_not(folder: Path) -> None:
    turn = started("Save every address just once to clean.txt")
    (folder / "clean.txt").write_text("a@x.org\nb@y.org\nA@x.org \n")
    turn.runs.append(ran("...", ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["clean.txt has 'A@x.org' more than once"]
    for request in ("Save every address to clean.txt",  # repeats not asked about
                    "Save the plants I water once a week to clean.txt"):  # "once" of how often
        turn = started(request)
        (folder / "clean.txt").write_text("a@x.org\nb@y.org\na@x.org\n")
        turn.runs.append(ran("...", ""))
        turn.steps = 1
        assert outputs.problems(turn) == [], request


def test_a_csv_of_only_some_rows_that_holds_every_row_is_told(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "bikes.csv").write_text("bike,size,electric\nAlpine,M,yes\nBreeze,S,no\nComet,L,yes\nDune,M,no\n")
    copy_all = ('import csv\nrows = list(csv.reader(open("bikes.csv")))\n'
                'with open("ebikes.csv", "w", newline="") as f:\n    csv.writer(f).writerows(rows)\n')
    turn = started("Make ebikes.csv with only the electric bikes from bikes.csv")
    subprocess.run([sys.executable, "-c", copy_all], cwd=folder, check=True)
    turn.runs.append(ran(copy_all, ""))
    turn.steps = 1
    assert outputs.problems(turn) == ["ebikes.csv has every row of bikes.csv (4 of 4), and the request asks for only "
                                      "some (its electric column says which)"]
    (folder / "ebikes.csv").write_text("bike,size,electric\nAlpine,M,yes\nComet,L,yes\n")
    assert outputs.problems(turn) == []
    (folder / "ebikes.csv").write_text("bike,size,electric\n")  # the header, then the run failed
    assert outputs.problems(turn) == ["ebikes.csv has only its header row, none of the rows of bikes.csv the request asks for"]
    for request in ("Make ebikes.csv with all the bikes from bikes.csv", "Copy bikes.csv to ebikes.csv"):
        turn = started(request)
        (folder / "ebikes.csv").write_text((folder / "bikes.csv").read_text())
        turn.runs.append(ran(copy_all, ""))
        turn.steps = 1
        assert outputs.problems(turn) == [], request
