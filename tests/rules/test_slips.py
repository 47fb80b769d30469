from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import slips

from .handmade import block, make_turn

TWICE = '''import csv
with open("weigh_ins.csv", newline="") as f:
    reader = csv.DictReader(f)
    dates = [row["date"] for row in reader]
    weights = [float(row["kg"]) for row in reader]
print(len(dates), len(weights), sum(weights))
'''


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "weigh_ins.csv").write_text("date,kg\n2025-06-02,94.5\n2025-06-09,94.0\n2025-06-16,93.5\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(code: str, cwd: Path) -> str:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_a_csv_reader_walked_twice_is_read_into_a_list_first(folder: Path) -> None:
    assert run(TWICE, folder) == "3 0 0\n"  # as the model wrote it: the second walk is empty
    b = block(TWICE)
    verdict = slips.check(make_turn("plot my weight from weigh_ins.csv"), b)
    assert verdict is not None and "reader is read into a list first" in verdict.warning
    assert "reader = list(csv.DictReader(f))" in b.code
    assert run(b.code, folder) == "3 3 282.0\n"
    assert slips.check(make_turn("plot my weight"), b) is None  # repaired once


@pytest.mark.parametrize("code", [
    'rows = map(int, ["1", "2"])\nprint(sum(rows), max(rows, default=None))',
    'lines = open("weigh_ins.csv")\nprint(len([l for l in lines]))\nfor l in lines:\n    print(l)',
    'squares = (n * n for n in range(4))\nprint(list(squares), sum(squares))',
    'pairs = zip("ab", "cd")\nfor p in pairs:\n    pass\nprint(dict(pairs))',
])
def test_other_one_pass_iterators_walked_twice(folder: Path, code: str) -> None:
    b = block(code)
    assert slips.check(make_turn("do it"), b) is not None and "list(" in b.code
    run(b.code, folder)  # still runs


@pytest.mark.parametrize("code", [
    # walked once
    'import csv\nwith open("weigh_ins.csv") as f:\n    for row in csv.DictReader(f):\n        print(row)',
    'import csv\nwith open("weigh_ins.csv") as f:\n    reader = csv.reader(f)\n    for row in reader:\n        print(row)',
    # next() on it: a list would fail
    'import csv\nwith open("weigh_ins.csv") as f:\n    r = csv.reader(f)\n    header = next(r)\n    a = [x for x in r]\n    b = [x for x in r]',
    # bound again before the second walk
    'import csv\nf = open("weigh_ins.csv")\nr = csv.reader(f)\na = list(r)\nf.seek(0)\nr = csv.reader(f)\nb = list(r)',
    # a list already, and a file opened for writing (one managed by `with`: file_read_twice)
    'xs = [1, 2]\nprint(sum(xs), max(xs))',
    'out = open("o.txt", "w")\nfor a in out:\n    pass\nfor b in out:\n    pass',
    'import csv\nwith open("weigh_ins.csv") as f:\n    r = csv.DictReader(f)\n    print(r.fieldnames)\n    a = list(r)\n    b = list(r)',
    'not python (',
])
def test_code_left_as_it_is(code: str) -> None:
    b = block(code)
    assert slips.check(make_turn("do it"), b) is None and b.code == code


def test_shell_is_left_alone() -> None:
    assert slips.check(make_turn("do it"), block("cat a | sort | uniq", "shell")) is None


def test_non_ascii_on_the_line_keeps_the_repair_in_place(folder: Path) -> None:
    code = 'import csv\nf = open("weigh_ins.csv")\nr = csv.reader(f); label = "Gewicht (kg) — ü"\nprint(len(list(r)), len(list(r)), label)'
    b = block(code)
    assert slips.check(make_turn("do it"), b) is not None
    assert 'r = list(csv.reader(f)); label = "Gewicht (kg) — ü"' in b.code
    assert run(b.code, folder) == "4 4 Gewicht (kg) — ü\n"


def test_an_archive_base_name_loses_the_extension_make_archive_adds(tmp_path: Path) -> None:
    (tmp_path / "gig_photos").mkdir()
    (tmp_path / "gig_photos" / "a.jpg").write_bytes(b"\xff\xd8jpeg")
    code = 'import shutil\nshutil.make_archive("gig_photos.zip", "zip", root_dir=".", base_dir="gig_photos")\nprint("ok")'
    b = block(code)
    verdict = slips.check(make_turn("zip up gig_photos into gig_photos.zip"), b)
    assert verdict is not None and "'gig_photos.zip' without its extension" in verdict.warning
    run(b.code, tmp_path)
    assert (tmp_path / "gig_photos.zip").is_file() and not (tmp_path / "gig_photos.zip.zip").exists()
    assert slips.check(make_turn("back up"), block("import shutil\nshutil.make_archive('site.tar.gz', 'gztar', 'site')")) is not None
    for fine in ('import shutil\nshutil.make_archive("gig_photos", "zip", "gig_photos")',
                 'import shutil\nshutil.make_archive(name, "zip")', 'import shutil\nshutil.make_archive("a.zip", "gztar")'):
        assert slips.check(make_turn("zip it"), block(fine)) is None


def test_an_archive_of_a_named_folder_archives_that_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    monkeypatch.chdir(tmp_path)
    (tmp_path / "gig_photos").mkdir()
    (tmp_path / "gig_photos" / "a.jpg").write_bytes(b"\xff\xd8jpeg")
    (tmp_path / "setlist.txt").write_text("not a photo\n")
    b = block('import shutil\nprint(shutil.make_archive("gig_photos.zip", "zip"))')
    verdict = slips.check(make_turn("zip up the gig_photos folder into gig_photos.zip"), b)
    assert verdict is not None and "archives the folder gig_photos/" in verdict.warning
    run(b.code, tmp_path)
    with zipfile.ZipFile(tmp_path / "gig_photos.zip") as z:
        assert [n for n in z.namelist() if not n.endswith("/")] == ["gig_photos/a.jpg"]


def test_a_weekday_that_is_only_printed_is_printed_by_name(tmp_path: Path) -> None:
    code = ('from datetime import datetime\nd = datetime.strptime("2026-10-03", "%Y-%m-%d")\n'
            'day = d.weekday()\nprint(f"Day of the week: {day}")\nprint(d.weekday())')
    b = block(code)
    verdict = slips.check(make_turn("how many days until 3 october 2026, and what day of the week is it?"), b)
    assert verdict is not None and "printed by name" in verdict.warning
    assert run(b.code, tmp_path) == "Day of the week: Saturday\nSaturday\n"
    # Used as a number, not asked for a day, or formatted: left alone.
    for request, kept in (
            ("what day of the week is it?", "import datetime\nd = datetime.date(2026, 10, 3)\nprint(d.weekday() >= 5)"),
            ("what day of the week is it?", "import datetime\nd = datetime.date(2026, 10, 3)\nw = d.weekday()\nprint(w, w + 1)"),
            ("how many days until 3 october?", "import datetime\nprint(datetime.date(2026, 10, 3).weekday())"),
            ("what day of the week is it?", "import datetime\nprint(f'{datetime.date(2026, 10, 3).weekday():>3}')")):
        assert slips.check(make_turn(request), block(kept)) is None, kept


def test_numbered_files_asked_for_in_order_are_sorted_by_their_numbers(tmp_path: Path) -> None:
    (tmp_path / "novel").mkdir()
    for n in (1, 2, 10, 11):
        (tmp_path / "novel" / f"chapter_{n}.txt").write_text(f"Chapter {n}\n")
    code = ('from pathlib import Path\nwith open("full.txt", "w") as out:\n'
            '    for p in sorted(Path("novel").glob("chapter_*.txt")):\n        out.write(p.read_text())\n'
            'print(open("full.txt").read())')
    assert run(code, tmp_path).split() == ["Chapter", "1", "Chapter", "10", "Chapter", "11", "Chapter", "2"]
    b = block(code)
    verdict = slips.check(make_turn("join the chapters in novel/ into full.txt in the right order"), b)
    assert verdict is not None and "sorted by the numbers in their names" in verdict.warning
    assert run(b.code, tmp_path).split() == ["Chapter", "1", "Chapter", "2", "Chapter", "10", "Chapter", "11"]
    b2 = block("import os\nprint(sorted(os.listdir('novel')))")
    assert slips.check(make_turn("list the chapters in order"), b2) is not None
    assert run(b2.code, tmp_path).strip() == "['chapter_1.txt', 'chapter_2.txt', 'chapter_10.txt', 'chapter_11.txt']"
    assert slips.check(make_turn("join the chapters into full.txt"), block(code)) is None  # no order asked for
    for asked in ("stitch them into full.txt in chapter order", "join them into full.txt (1, 2, 3 ... up to the last)",
                  "join the chapters ordered by number"):
        assert slips.check(make_turn(asked), block(code)) is not None, asked


def test_asked_about_every_subfolder_a_top_level_glob_searches_them_too(tmp_path: Path) -> None:
    for sub in ("", "photos/", "music/old/"):
        (tmp_path / "usb" / sub).mkdir(parents=True, exist_ok=True)
        (tmp_path / "usb" / sub / ".DS_Store").write_text("x")
        (tmp_path / "usb" / sub / "keep.txt").write_text("keep")
    code = ('from pathlib import Path\nn = 0\nfor p in Path("usb").glob("*.DS_Store"):\n'
            '    p.unlink()\n    n += 1\nprint("deleted", n)')
    b = block(code)
    verdict = slips.check(make_turn("remove the .DS_Store files from usb, in every subfolder"), b)
    assert verdict is not None and "rglob" in verdict.warning
    assert run(b.code, tmp_path).strip() == "deleted 3"
    assert sorted(p.name for p in (tmp_path / "usb").rglob("*")) == ["keep.txt"] * 3 + ["music", "old", "photos"]
    # other ways of saying it: "counting the subfolders too" (it counted 12 of 26 lines), "including subdirectories"
    for request in ("How many lines of Python are in usb altogether, counting the subfolders too?",
                    "how many .DS_Store files are in usb including subdirectories", "count them in usb, subfolders too"):
        assert slips.check(make_turn(request), block('from pathlib import Path\nprint(len(list(Path("usb").glob("*.txt"))))')), request
    # Not asked for subfolders, a path pattern, or the glob module: left alone.
    for request, kept in (("remove the .DS_Store files from usb", code),
                          ("how many files are in usb, not in its subfolders", 'from pathlib import Path\nprint(len(list(Path("usb").glob("*"))))'),
                          ("search usb recursively", 'from pathlib import Path\nprint(list(Path("usb").glob("*/keep.txt")))'),
                          ("search usb recursively", 'import glob\nprint(glob.glob("usb/*"))')):
        assert slips.check(make_turn(request), block(kept)) is None, kept


def test_a_folder_the_code_names_by_its_full_path_is_looked_at_for_capitals(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    downloads = tmp_path / "home" / "Downloads"
    downloads.mkdir(parents=True)
    for name in ("a.pdf", "B.PDF", "c.txt"):
        (downloads / name).write_text("x")
    code = f'from pathlib import Path\nprint(len(list(Path({str(downloads)!r}).glob("*.pdf"))))'
    b = block(code)
    assert slips.check(make_turn("how many pdfs are in my Downloads folder?"), b) is not None
    assert run(b.code, tmp_path).strip() == "2"


def test_an_extension_the_folder_also_has_in_capitals_is_matched_in_any_case(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "invoices" / "2024").mkdir(parents=True)
    for name in ("a.pdf", "2024/b.pdf", "2024/c.PDF", "2024/notes.txt"):
        (tmp_path / "invoices" / name).write_text("x")
    walk = ('import os\nprint(sum(1 for _, _, fs in os.walk("invoices") for f in fs if f.endswith(".pdf")))')
    assert run(walk, tmp_path).strip() == "2"
    asked = make_turn("how many pdf invoices are in invoices/, subfolders too?")
    b = block(walk)
    verdict = slips.check(asked, b)
    assert verdict is not None and "any case" in verdict.warning
    assert run(b.code, tmp_path).strip() == "3"
    b = block('from pathlib import Path\nprint(len(list(Path("invoices").rglob("*.pdf"))))')
    assert slips.check(asked, b) is not None and run(b.code, tmp_path).strip() == "3"
    for suffix in ('p.suffix == ".pdf"', 'p.suffix in (".pdf", ".doc")'):
        b = block(f'from pathlib import Path\nprint(len([p for p in Path("invoices").rglob("*") if {suffix}]))')
        assert slips.check(asked, b) is not None and run(b.code, tmp_path).strip() == "3", suffix
    # Only for an extension the folder has in another case, and only lower-case patterns.
    for code in ('import os\nprint([f for f in os.listdir("invoices") if f.endswith(".txt")])',
                 'import os\nprint([f for f in os.listdir("invoices") if f.endswith((".pdf", ".PDF"))])'):
        assert slips.check(asked, block(code)) is None, code


def test_lines_are_counted_with_splitlines(tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text("".join(f"book {i}\n" for i in range(53)))
    pieces = 'with open("list.txt") as f:\n    text = f.read()\nprint(len(text.split("\\n")))'
    assert run(pieces, tmp_path).strip() == "54"  # as the model wrote it: one too many
    b = block(pieces)
    verdict = slips.check(make_turn("How many lines are in list.txt? Everyone adds one line per book"), b)
    assert verdict is not None and "splitlines" in verdict.warning and run(b.code, tmp_path).strip() == "53"
    words = 'print(len(open("list.txt").read().split()))'
    assert run(words, tmp_path).strip() == "106"
    b = block(words)
    assert slips.check(make_turn("can you count the lines in list.txt for me?"), b) is not None
    assert run(b.code, tmp_path).strip() == "53"
    # Asked for words, split() is right.
    assert slips.check(make_turn("How many words are in list.txt?"), block(words)) is None


@pytest.mark.parametrize("test", ["line.strip()", 'line.strip() != ""', "not line.isspace()", 'line != "\\n"'])
def test_a_line_count_counts_the_blank_lines_too(tmp_path: Path, test: str) -> None:
    (tmp_path / "a.py").write_text("import os\n\n\ndef f():\n    return 1\n")
    code = f'with open("a.py") as f:\n    print(sum(1 for line in f if {test}))'
    assert run(code, tmp_path).strip() == "3"  # as the model wrote it: the blank lines left out
    b = block(code)
    verdict = slips.check(make_turn("total line count of every .py file here"), b)
    assert verdict is not None and "blank lines are counted too" in verdict.warning
    assert run(b.code, tmp_path).strip() == "5"
    listed = f'print(len([line for line in open("a.py") if {test}]))'
    b = block(listed)
    assert slips.check(make_turn("how many lines does a.py have?"), b) is not None and run(b.code, tmp_path).strip() == "5"
    # Asked for the lines that are not blank (or of code), or not for lines at all, the test stays.
    for request in ("how many non-empty lines does a.py have?", "count the lines of code in a.py, not blank ones",
                    "how many words are in a.py?"):
        assert slips.check(make_turn(request), block(code)) is None, request


@pytest.mark.parametrize("dest", ['"photos/pictures/" + p.name', 'f"photos/pictures/{p.name}"',
                                  'os.path.join("photos/pictures", p.name)', 'Path("photos/pictures") / p.name'])
def test_a_move_to_a_missing_folder_named_before_the_files_name_makes_it(folder: Path, dest: str) -> None:
    (folder / "photos").mkdir()
    (folder / "photos" / "beach.jpg").write_text("x")
    code = (f'import os, shutil\nfrom pathlib import Path\nfor p in Path("photos").glob("*.jpg"):\n'
            f'    shutil.move(str(p), {dest})\n    print("moved", p.name)')
    b = block(code)
    verdict = slips.check(make_turn("move the pictures (.jpg) into photos/pictures"), b)
    assert verdict is not None and "the folder photos/pictures is made first" in verdict.warning
    assert run(b.code, folder).strip() == "moved beach.jpg"
    assert (folder / "photos" / "pictures" / "beach.jpg").is_file()


def test_a_copy_into_a_folder_that_is_not_there_makes_the_folder_first(folder: Path) -> None:
    (folder / "items.csv").write_bytes("name;price\r\ncafé;2\r\n".encode())
    code = 'import shutil\nshutil.copy("items.csv", "backup_folder")\nprint("copied items.csv to backup_folder")'
    b = block(code)
    verdict = slips.check(make_turn("copy items.csv into a new backup folder"), b)
    assert verdict is not None and "the folder backup_folder is made first" in verdict.warning
    assert b.code.startswith("import os\n") and 'os.makedirs(\'backup_folder\', exist_ok=True)\nshutil.copy(' in b.code
    run(b.code, folder)
    assert (folder / "backup_folder" / "items.csv").read_bytes() == (folder / "items.csv").read_bytes()
    nested = 'import os, shutil\nfor f in ["items.csv"]:\n    shutil.move(f, "archive/")\n'
    b = block(nested)
    assert slips.check(make_turn("move items.csv into an archive folder"), b) is not None
    assert b.code == 'import os, shutil\nfor f in ["items.csv"]:\n    os.makedirs(\'archive\', exist_ok=True)\n' \
                     '    shutil.move(f, "archive/")\n'
    run(b.code, folder)
    assert (folder / "archive" / "items.csv").is_file()
    # left alone: no folder asked for, a file name, a folder that is there, a one-line if, shell
    (folder / "old").mkdir()
    for request, code in [("copy items.csv to backup", 'import shutil\nshutil.copy("items.csv", "backup")'),
                          ("copy items.csv into the backup folder as items_old.csv",
                           'import shutil\nshutil.copy("items.csv", "backup/items_old.csv")'),
                          ("copy items.csv into the old folder", 'import shutil\nshutil.copy("items.csv", "old")'),
                          ("copy items.csv into a new backup folder",
                           'import shutil\nif True: shutil.copy("items.csv", "backup")')]:
        b = block(code)
        assert slips.check(make_turn(request), b) is None and b.code == code, code
    assert slips.check(make_turn("copy items.csv into a backup folder"), block("cp items.csv backup", "shell")) is None


def test_asked_for_an_order_a_glob_takes_the_numbered_files_not_the_notes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "novel").mkdir()
    for i in range(1, 12):
        (tmp_path / "novel" / f"ch{i}.txt").write_text(f"Chapter {i}\n")
    (tmp_path / "novel" / "notes.txt").write_text("kill the ferry scene\n")
    code = ('from pathlib import Path\nparts = sorted(Path("novel").glob("*.txt"))\n'
            'with open("novel/full_draft.txt", "w") as out:\n    for p in parts:\n        out.write(p.read_text())\n')
    b = block(code)
    verdict = slips.check(make_turn("join the chapter files in novel/ into novel/full_draft.txt, in chapter order "
                                    "(1, 2, 3...)? leave my notes file out of it"), b)
    assert verdict is not None and "the numbered files only are taken" in verdict.warning
    assert "glob('ch*.txt')" in b.code
    run(b.code, tmp_path)
    assert (tmp_path / "novel" / "full_draft.txt").read_text() == "".join(f"Chapter {i}\n" for i in range(1, 12))
    # left alone: no order asked, only numbered files, two prefixes, a pattern that is not "*" or "*.ext"
    for request, c in [("join the files in novel/ into one", code),
                       ("join the chapters in novel/ in order", code.replace('glob("*.txt")', 'glob("ch*.txt")'))]:
        b = block(c)
        slips.check(make_turn(request), b)
        assert "glob('ch" not in b.code, request
    (tmp_path / "novel" / "notes.txt").unlink()
    (tmp_path / "novel" / "full_draft.txt").unlink()  # unnumbered too: it would be left out as well
    b = block(code)
    slips.check(make_turn("join the chapters in novel/ in order"), b)
    assert 'glob("*.txt")' in b.code
    (tmp_path / "novel" / "part1.txt").write_text("x")
    (tmp_path / "novel" / "notes.txt").write_text("x")
    b = block(code)
    slips.check(make_turn("join the chapters in novel/ in order"), b)
    assert 'glob("*.txt")' in b.code


def test_a_file_opened_for_writing_and_only_read_is_opened_for_reading() -> None:
    from oi_local.core.rules.slips import read_not_write

    code = ('with open("garden/seed_notes.txt", "w") as f:\n    text = f.read()\n'
            '    with open("garden/seed_notes.txt", "a") as f:\n        f.write("call mum\\n")\n')
    fixed, paths = read_not_write(code)
    assert fixed.startswith('with open("garden/seed_notes.txt", "r") as f:') and '"a") as f:' in fixed
    assert paths == ['"garden/seed_notes.txt"']
    assert read_not_write('with open(p, "w") as f:\n    for line in f:\n        print(line)\n')[0].startswith('with open(p, "r")')
    for code in ('with open("a.txt", "w") as f:\n    f.write("x")\n',  # written: left alone
                 'with open("a.txt", "w") as f:\n    print("x", file=f)\n    f.read()\n',
                 'with open("a.txt", "a") as f:\n    f.read()\n'):
        assert read_not_write(code) == (code, []), code


def test_asked_for_a_backup_files_are_copied_not_moved(folder: Path) -> None:
    # asked to back up a photos folder, the 0.5B model moved every photo out of it
    (folder / "photos").mkdir()
    for name in ("a.jpg", "b.jpg"):
        (folder / "photos" / name).write_bytes(b"\xff\xd8" + name.encode())
    code = ('import shutil\nfrom pathlib import Path\nPath("backups").mkdir(exist_ok=True)\n'
            'for p in sorted(Path("photos").glob("*.jpg")):\n    shutil.move(str(p), "backups/" + p.name)\n')
    b = block(code)
    verdict = slips.check(make_turn("Can you back up my photos folder into backups?"), b)
    assert verdict is not None and "the files are copied, not moved" in verdict.warning
    assert 'shutil.copy2(str(p), "backups/" + p.name)' in b.code and "shutil.move" not in b.code
    run(b.code, folder)
    assert sorted(p.name for p in (folder / "photos").iterdir()) == ["a.jpg", "b.jpg"]
    assert (folder / "backups" / "a.jpg").read_bytes() == b"\xff\xd8a.jpg"
    # left alone: asked to move; a folder moved (copy2 copies files only); no copy asked for
    for request, code in [("move the photos into backups and keep a copy", code),
                          ("back up the photos folder", 'import shutil\nshutil.move("photos", "backups")'),
                          ("put the photos in backups", code)]:
        b = block(code)
        assert slips.check(make_turn(request), b) is None and b.code == code, request


@pytest.mark.parametrize("rename", ['p.rename(p.with_name(p.name + ".bak"))', 'os.rename(p, str(p) + ".bak")'])
def test_asked_for_a_backup_the_originals_are_not_renamed(folder: Path, rename: str) -> None:
    (folder / "config").mkdir()
    (folder / "config" / "app.ini").write_text("[app]\n")
    code = f'import os\nfrom pathlib import Path\nfor p in Path("config").glob("*.ini"):\n    {rename}'
    b = block(code)
    verdict = slips.check(make_turn("back up the .ini files in config/, adding .bak to each name. Don't touch the originals."), b)
    assert verdict is not None and "the files are copied, not moved" in verdict.warning
    run(b.code, folder)
    assert sorted(p.name for p in (folder / "config").iterdir()) == ["app.ini", "app.ini.bak"]
    # copies renamed after a copytree are left alone
    copies = 'import shutil\nfrom pathlib import Path\nshutil.copytree("config", "bak")\nfor p in Path("bak").glob("*.ini"):\n    p.rename(p.with_suffix(".ini.bak"))'
    assert slips.check(make_turn("back up the .ini files in config/ into bak, adding .bak to each name"), block(copies)) is None
    frame = 'import pandas as pd\ndf = pd.read_csv("a.csv")\ndf = df.rename(columns={"a": "b"})\ndf.to_csv("copy.csv")'
    assert slips.check(make_turn("copy a.csv to copy.csv with column a renamed b"), block(frame)) is None


def test_a_compared_value_the_data_has_in_another_case_is_written_as_the_data_writes_it(tmp_path: Path, monkeypatch) -> None:
    # `== "takeaway"` over a column of "Takeaway" picked no rows; the 0.5B model answered 0
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "statement.csv").write_text(
        "date,description,category,amount\n2025-04-02,\"JUST EAT, DRAGON\",Takeaway,-18.45\n"
        "2025-04-04,ALDI,Groceries,-62.37\n2025-04-09,DELIVEROO,Takeaway,-23.10\n")
    request = "how much did we spend on takeaway in April? it's bank/statement.csv"
    code = ('import csv\nwith open("bank/statement.csv", newline="") as f:\n'
            '    rows = [r for r in csv.DictReader(f) if r["category"] == "takeaway" and r["date"].startswith("2025-04")]\n'
            'print(round(-sum(float(r["amount"]) for r in rows), 2))\n')
    b = block(code)
    verdict = slips.check(make_turn(request), b)
    assert verdict is not None and "'takeaway' is written 'Takeaway', as the data writes it" in verdict.warning
    assert 'r["category"] == \'Takeaway\' and' in b.code
    assert run(b.code, tmp_path).strip() == "41.55"
    for same in ('rows = [r for r in csv.DictReader(open("bank/statement.csv")) if r["category"].lower() == "takeaway"]',
                 'rows = [r for r in csv.DictReader(open("bank/statement.csv")) if r["category"] == "Takeaway"]',
                 'rows = [r for r in csv.DictReader(open("bank/statement.csv")) if r["category"] == "eating out"]'):
        b = block("import csv\n" + same)
        assert slips.check(make_turn(request), b) is None, same
    b = block('import csv\nrows = [r for r in csv.DictReader(open("bank/statement.csv")) if r["category"] in ("takeaway", "GROCERIES")]')
    assert slips.check(make_turn(request), b) is not None and "in ('Takeaway', 'Groceries')" in b.code


def test_text_appended_again_appends_only_the_new_lines(tmp_path: Path, monkeypatch) -> None:
    # asked to add butter and caster sugar, the 0.5B model appended the whole list again
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shopping.txt").write_text("eggs\nmilk\nplain flour\nlemons")  # written with no final newline
    code = 'with open("shopping.txt", "a") as f:\n    f.write("eggs\\nmilk\\nplain flour\\nlemons\\nbutter\\ncaster sugar")\n'
    b = block(code)
    verdict = slips.check(make_turn("add butter and caster sugar to it as well"), b)
    assert verdict is not None and "only the new lines are appended to shopping.txt" in verdict.warning
    run(b.code, tmp_path)
    assert (tmp_path / "shopping.txt").read_text().splitlines() == ["eggs", "milk", "plain flour", "lemons", "butter", "caster sugar"]
    b = block('open("shopping.txt", "a").write("bread\\n")')
    verdict = slips.check(make_turn("add bread"), b)  # the file ends with a newline now? no: "caster sugar" has none
    assert verdict is not None and "starts on a new line" in verdict.warning
    run(b.code, tmp_path)
    assert (tmp_path / "shopping.txt").read_text().splitlines()[-2:] == ["caster sugar", "bread"]
    # left alone: new lines only, onto a file ending with a newline; a file not there; not a constant
    for code in ('open("shopping.txt", "a").write("jam\\n")', 'open("new.txt", "a").write("jam\\n")',
                 'item = "jam"\nopen("shopping.txt", "a").write(item)'):
        b = block(code)
        assert slips.check(make_turn("add jam"), b) is None and b.code == code, code


def test_one_write_a_line_of_the_whole_list_again_writes_only_the_new_lines(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "list.txt").write_text("flour\nsugar\n12 eggs\n")
    code = ('with open("list.txt", "a") as f:\n    f.write("flour\\n")\n    f.write("sugar\\n")\n'
            '    f.write("12 eggs\\n")\n    f.write("icing sugar\\n")\n    f.write("sprinkles\\n")\nprint(open("list.txt").read())\n')
    b = block(code)
    verdict = slips.check(make_turn("add icing sugar and sprinkles please"), b)
    assert verdict is not None and "only the new lines are appended to list.txt" in verdict.warning
    run(b.code, tmp_path)
    assert (tmp_path / "list.txt").read_text().splitlines() == ["flour", "sugar", "12 eggs", "icing sugar", "sprinkles"]
    # writes that are not the list from its start in order (a first new item) are left alone
    for code in ('with open("list.txt", "a") as f:\n    f.write("jam\\n")\n    f.write("flour\\n")\n',
                 'with open("list.txt", "a") as f:\n    f.write("sugar\\n")\n    f.write("flour\\n")\n'):
        b = block(code)
        assert slips.check(make_turn("add jam"), b) is None and b.code == code, code


def test_a_folder_made_where_its_parent_is_not_there_gets_its_parents_made(folder: Path) -> None:
    (folder / "Documents").mkdir(exist_ok=True)
    for code in ['from pathlib import Path\nPath("party/plans/2026").mkdir(exist_ok=True)\nprint("ok")',
                 'import os\nos.mkdir("party/plans")\nprint("ok")',
                 'from pathlib import Path\nd = Path("party/plans")\nd.mkdir()\nprint("ok")']:
        assert subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=folder).returncode == 1
        b = block(code)
        verdict = slips.check(make_turn("make a folder for the party plans"), b)
        assert verdict is not None and "parent is not there" in verdict.warning, code
        out = subprocess.run([sys.executable, "-c", b.code], capture_output=True, text=True, cwd=folder)
        assert out.stdout == "ok\n", (b.code, out.stderr)
        assert (folder / "party" / "plans").is_dir()
        subprocess.run(["rm", "-rf", str(folder / "party")], check=True)
    # the parent is there, or parents are asked for already: left alone
    for code in ['from pathlib import Path\nPath("Documents/receipts").mkdir(exist_ok=True)',
                 'from pathlib import Path\nPath("x/y").mkdir(parents=True, exist_ok=True)',
                 'import os\nos.mkdir("newdir")']:
        b = block(code)
        assert slips.check(make_turn("make the folder"), b) is None and b.code == code


def test_a_path_with_a_tilde_is_the_home_folders(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = folder / "home"
    (home / "Documents").mkdir(parents=True)
    (home / "notes.txt").write_text("a\nb\nc\n")
    (home / "Documents" / "x.pdf").write_text("x")
    monkeypatch.setenv("HOME", str(home))
    code = ('import os\nprint(len(open("~/notes.txt").read().splitlines()))\n'
            "print(os.listdir(os.path.join('~', 'Documents')))")
    assert subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True).returncode == 1  # as written
    b = block(code)
    verdict = slips.check(make_turn("how many lines are in ~/notes.txt, and what is in ~/Documents?"), b)
    assert verdict is not None and "~ is written as your home folder's path" in verdict.warning
    assert subprocess.run([sys.executable, "-c", b.code], cwd=folder, capture_output=True, text=True,
                          env={"HOME": str(home)}, check=True).stdout == "3\n['x.pdf']\n"


@pytest.mark.parametrize("code", [
    'from pathlib import Path\nprint(len(Path("~/notes.txt").expanduser().read_text()))',  # expanded by the code
    'import os\nprint(open(os.path.expanduser("~/notes.txt")).read())',
    'print("~/notes.txt")',  # not a file call
    'name = "report~1.txt"\nprint(open(name).read())',
])
def test_a_tilde_the_code_handles_is_left_alone(code: str) -> None:
    assert slips.home_paths(code) == (code, False)


WORDS = '''from collections import Counter
words = open("speech.txt").read().lower().split()
counts = Counter(words)
for word, n in sorted(counts.items(), key=lambda kv: kv[1])[:2]:
    print(word, n)
'''


@pytest.mark.parametrize("request_text", ["what are the 2 most common words in speech.txt?", "top 2 words in speech.txt"])
def test_the_top_asked_for_is_sorted_from_the_highest(folder: Path, request_text: str) -> None:
    (folder / "speech.txt").write_text("we we we shall shall fight on the beaches")
    assert run(WORDS, folder).split()[::2] != ["we", "shall"]  # as written: the least common
    b = block(WORDS)
    verdict = slips.check(make_turn(request_text), b)
    assert verdict is not None and "the sort runs from the highest down" in verdict.warning
    assert run(b.code, folder) == "we 3\nshall 2\n"


@pytest.mark.parametrize("code, fixed", [
    ('print(df.sort_values("amount").head(3))', 'print(df.sort_values("amount", ascending=False).head(3))'),
    ('print(sorted(sizes, key=sizes.get)[0])', 'print(sorted(sizes, key=sizes.get, reverse=True)[0])'),
    ('print(df.sort_values(by="amount").iloc[:5])', 'print(df.sort_values(by="amount", ascending=False).iloc[:5])'),
])
def test_other_heads_of_an_ascending_sort(code: str, fixed: str) -> None:
    assert slips.top_first(code) == (fixed, True)


@pytest.mark.parametrize("code", [
    "print(sorted(sizes, key=sizes.get)[-3:])",  # the tail of an ascending sort is the top
    "print(sorted(sizes, key=sizes.get, reverse=True)[:3])",
    "print(sorted(counts.items(), key=lambda kv: -kv[1])[:3])",
    'print(df.sort_values("amount", ascending=False).head(3))',
    "print(sorted(names))",  # no head taken
    "for name in sorted(names)[:10]:\n    print(name)",  # no key: may be alphabetical on purpose
])
def test_a_sort_already_from_the_top_is_left_alone(code: str) -> None:
    assert slips.top_first(code) == (code, False)


def test_the_least_asked_keeps_the_ascending_sort() -> None:
    b = block("print(sorted(sizes, key=sizes.get)[:3])")
    assert slips.check(make_turn("which 3 files are the smallest?"), b) is None
    b = block("print(sorted(sizes, key=sizes.get)[:3])")
    assert slips.check(make_turn("which uses at most 3 GB?"), b) is None


JSON_AS_CSV = '''import csv
with open("books.json", newline="") as f:
    rows = list(csv.DictReader(f))
with open("books.csv", "w", newline="") as out:
    w = csv.writer(out)
    w.writerow(["title", "year"])
    for b in rows:
        w.writerow([b["title"], b["year"]])
print(len(rows), "rows written")
'''


@pytest.mark.parametrize("doc", [
    '{"books": [{"title": "Dune", "year": 1965}, {"title": "Emma", "year": 1815}], "owner": "me"}',
    '[{"title": "Dune", "year": 1965}, {"title": "Emma", "year": 1815}]',
])
def test_json_read_as_csv_is_read_with_json_load(folder: Path, doc: str) -> None:
    (folder / "books.json").write_text(doc)
    as_written = subprocess.run([sys.executable, "-c", JSON_AS_CSV], cwd=folder, capture_output=True, text=True)
    assert as_written.stdout != "2 rows written\n"  # a KeyError, or no rows at all
    b = block(JSON_AS_CSV)
    verdict = slips.check(make_turn("turn books.json into books.csv with the title and year"), b)
    assert verdict is not None and "books.json is read with json.load" in verdict.warning
    assert run(b.code, folder) == "2 rows written\n"
    assert (folder / "books.csv").read_text().splitlines() == ["title,year", "Dune,1965", "Emma,1815"]


def test_json_that_is_not_records_is_left_alone(folder: Path) -> None:
    (folder / "books.json").write_text('{"a": [1, 2], "b": [3]}')
    assert slips.json_as_csv(JSON_AS_CSV) == (JSON_AS_CSV, [])
    assert slips.json_as_csv(JSON_AS_CSV.replace("books.json", "books.csv")) == (JSON_AS_CSV.replace("books.json", "books.csv"), [])


RUNS = '''with open("runs.txt", "r") as f:
    total = sum(map(int, f.readlines()))
    count = len(f.readlines())
    average = total / count
print(round(average, 1))
'''


def test_a_file_read_twice_is_read_once(folder: Path) -> None:
    (folder / "runs.txt").write_text("32\n41\n28\n55\n37\n46\n")
    assert "ZeroDivisionError" in subprocess.run([sys.executable, "-c", RUNS], cwd=folder, capture_output=True, text=True).stderr
    b = block(RUNS)
    verdict = slips.check(make_turn("how long was my average run in runs.txt?"), b)
    assert verdict is not None and "the file f is read once, into f_text" in verdict.warning
    assert run(b.code, folder) == "39.8\n"
    mixed = 'with open("runs.txt") as f:\n    first = f.read()\n    for line in f:\n        print(line)\n    print(len(first.split()))\n'
    fixed, names = slips.file_read_twice(mixed)
    assert names == ["f"] and run(fixed, folder).splitlines()[-1] == "6" and run(fixed, folder).count("\n") > 6
    walked = 'with open("runs.txt") as f:\n    a = [l for l in f]\n    b = [l for l in f]\nprint(len(a), len(b))'
    assert run(walked, folder) == "6 0\n" and run(slips.file_read_twice(walked)[0], folder) == "6 6\n"


@pytest.mark.parametrize("code", [
    'with open("runs.txt") as f:\n    total = sum(map(int, f.readlines()))\nprint(total)',  # read once
    'with open("runs.txt") as f:\n    a = f.read()\n    f.seek(0)\n    b = f.read()',  # seeks back
    'with open("runs.txt") as f:\n    head = f.readline()\n    rest = f.read()',  # a line, then the rest
    'with open("runs.txt", "w") as f:\n    f.write("1")\n    f.write("2")',
])
def test_a_file_read_once_or_on_purpose_is_left_alone(code: str) -> None:
    assert slips.file_read_twice(code) == (code, [])


@pytest.mark.parametrize("code", [
    'import pandas as pd\ndf = pd.read_json("books.json")\ndf.to_csv("books.csv", index=False)\nprint(len(df), list(df.columns))',
    'import json\nimport pandas as pd\nwith open("books.json") as f:\n    books = json.load(f)\n'
    'df = pd.DataFrame(books)\ndf.to_csv("books.csv", index=False)\nprint(len(df), list(df.columns))',
])
def test_a_table_of_a_json_object_is_made_of_its_records(folder: Path, code: str) -> None:
    (folder / "books.json").write_text('{"owner": "me", "books": [{"title": "Dune", "year": 1965}, '
                                       '{"title": "Emma", "year": 1815}, {"title": "Ubik", "year": 1969}]}')
    assert run(code, folder) != "3 ['title', 'year']\n"
    b = block(code)
    verdict = slips.check(make_turn("turn books.json into books.csv"), b)
    assert verdict is not None and "made of the list of records in books.json" in verdict.warning
    assert run(b.code, folder) == "3 ['title', 'year']\n"


def test_a_json_list_or_a_table_of_records_is_left_alone(folder: Path) -> None:
    (folder / "books.json").write_text('[{"title": "Dune", "year": 1965}]')
    code = 'import pandas as pd\nprint(pd.read_json("books.json"))'
    assert slips.json_tables(code) == (code, [])


STOCK = '{"warehouse": "north", "products": [{"name": "bolt", "stock": 120}, {"name": "nut", "stock": 340}]}'


def test_a_loop_over_a_json_object_walks_its_list_of_records(folder: Path) -> None:
    (folder / "stock.json").write_text(STOCK)
    code = ('import json\nwith open("stock.json") as f:\n    items = json.load(f)\ncount = 0\nfor item in items:\n'
            '    count += item.get("stock")\nprint(count)')
    failed = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True)
    assert "'str' object has no attribute 'get'" in failed.stderr  # as the model wrote it
    b = block(code)
    verdict = slips.check(make_turn("How many items are in stock in total according to stock.json?"), b)
    assert verdict is not None and "the list of records in stock.json is walked" in verdict.warning
    assert run(b.code, folder) == "460\n"
    comp = 'import json\ndata = json.load(open("stock.json"))\nprint(sum(p["stock"] for p in data))'
    b = block(comp)
    assert slips.check(make_turn("total stock in stock.json?"), b) is not None and run(b.code, folder) == "460\n"


@pytest.mark.parametrize("code", [
    'import json\ndata = json.load(open("stock.json"))\nfor key in data:\n    print(key, data[key])',  # keyed itself
    'import json\ndata = json.load(open("stock.json"))\nfor k, v in data.items():\n    print(k)',       # its items
    'import json\ndata = json.load(open("list.json"))\nfor p in data:\n    print(p["stock"])',          # a list already
    'import json\ndata = json.load(open("stock.json"))\nfor k in data:\n    print(k)',                    # its keys asked
])
def test_loops_over_json_left_alone(folder: Path, code: str) -> None:
    (folder / "stock.json").write_text(STOCK)
    (folder / "list.json").write_text('[{"stock": 1}]')
    assert slips.json_walked(code) == (code, [])


def test_a_table_written_to_a_text_file_gets_no_header_line(folder: Path) -> None:
    (folder / "log.csv").write_text("title,year\nDune,2025\nEmma,2024\nMiddlemarch,2025\n")
    code = ('import pandas as pd\ndf = pd.read_csv("log.csv")\ndf = df[df["year"] == 2025]\n'
            'df[["title"]].to_csv("finished.txt", index=False)')
    b = block(code)
    verdict = slips.check(make_turn("write just the 2025 titles into finished.txt, one per line"), b)
    assert verdict is not None and "without a header line" in verdict.warning
    assert 'to_csv("finished.txt", index=False, header=False)' in b.code
    run(b.code, folder)
    assert (folder / "finished.txt").read_text() == "Dune\nMiddlemarch\n"
    b = block('import pandas as pd\npd.read_csv("log.csv").to_csv("all.txt")')
    slips.check(make_turn("copy log.csv into all.txt"), b)
    assert 'to_csv("all.txt", header=False, index=False)' in b.code
    for kept in ('import pandas as pd\npd.read_csv("log.csv").to_csv("all.txt", header=True)',  # said so
                 'import pandas as pd\npd.read_csv("log.csv").to_csv("copy.csv", index=False)'):  # a CSV has a header
        assert slips.check(make_turn("copy log.csv"), block(kept)) is None


def test_an_extension_tested_on_a_stem_is_tested_on_the_name(folder: Path) -> None:
    (folder / "downloads").mkdir()
    for n in ("a.pdf", "b.png", "c.txt"):
        (folder / "downloads" / n).write_text("x")
    code = ('from pathlib import Path\nfor p in sorted(Path("downloads").iterdir()):\n'
            '    if p.stem.endswith(".pdf"):\n        print("doc", p.name)\n'
            '    elif p.stem.endswith((".jpg", ".png")):\n        print("pic", p.name)\n')
    assert run(code, folder) == ""  # as written, nothing matches
    b = block(code)
    verdict = slips.check(make_turn("put the pdfs into downloads/documents and the pictures into downloads/pictures"), b)
    assert verdict is not None and "not its stem" in verdict.warning
    assert run(b.code, folder) == "doc a.pdf\npic b.png\n"
    assert slips.check(make_turn("list them"), block('from pathlib import Path\nprint(Path("a.txt").stem.endswith("_old"))')) is None


def test_a_csv_cell_compared_with_a_number_is_compared_as_a_number(folder: Path) -> None:
    (folder / "meter.csv").write_text("date,kwh\n2024-02-01,12.4\n2024-02-02,0.0\n2024-02-03,0\n2024-02-04,15.1\n")
    code = ('import csv\nwith open("meter.csv", newline="") as f:\n    rows = list(csv.DictReader(f))\n'
            'kept = [r for r in rows if r["kwh"] != 0]\nzero = sum(1 for r in rows if 0 == r["kwh"])\nprint(len(kept), zero)\n')
    assert run(code, folder) == "4 0\n"  # as written: text is never 0
    b = block(code)
    verdict = slips.check(make_turn("drop the rows where the meter logged 0 and tell me how many are left"), b)
    assert verdict is not None and "with a number as a number" in verdict.warning
    assert run(b.code, folder) == "2 2\n"
    kept = 'import json\nrows = json.load(open("m.json"))\nprint([r for r in rows if r["kwh"] != 0])'  # JSON numbers
    assert slips.check(make_turn("drop zero rows"), block(kept)) is None


def test_a_glob_of_dot_star_matches_every_file_not_only_hidden_ones(folder: Path) -> None:
    (folder / "desktop").mkdir()
    for n in ("a.jpg", "b.pdf", ".hidden"):
        (folder / "desktop" / n).write_text("x")
    code = ('from pathlib import Path\nimport glob\nfor p in sorted(Path("desktop").glob(".*")):\n    print(p.name)\n'
            'print(len(glob.glob("desktop/.*")))\n')
    assert run(code, folder) == ".hidden\n1\n"  # as written: the hidden file alone
    b = block(code)
    verdict = slips.check(make_turn("put the pictures in desktop into desktop/images"), b)
    assert verdict is not None and "only hidden files" in verdict.warning
    assert run(b.code, folder) == ".hidden\na.jpg\nb.pdf\n2\n"  # (glob.glob leaves hidden files out)
    assert slips.check(make_turn("list them"), block('import glob\nprint(glob.glob("*.txt"))')) is None


def test_a_word_looked_for_in_lower_case_is_looked_for_in_any_case_when_a_file_writes_it_otherwise(folder: Path) -> None:
    (folder / "inbox").mkdir()
    for n, text in (("msg_01.txt", "Lunch on Friday?"), ("msg_02.txt", "the invoice is attached"),
                    ("msg_04.txt", "Invoice #4471 is overdue"), ("msg_05.txt", "INVOICE for March")):
        (folder / "inbox" / n).write_text(text)
    code = ('from pathlib import Path\nfor p in sorted(Path("inbox").iterdir()):\n    content = p.read_text()\n'
            '    if "invoice" in content:\n        print(p.name)\n')
    assert run(code, folder) == "msg_02.txt\n"  # as written
    b = block(code)
    verdict = slips.check(make_turn("Which emails in the inbox folder talk about an invoice?"), b)
    assert verdict is not None and "'invoice' is looked for in any case" in verdict.warning
    assert run(b.code, folder) == "msg_02.txt\nmsg_04.txt\nmsg_05.txt\n"
    (folder / "notes").mkdir()
    (folder / "notes" / "a.txt").write_text("an invoice")  # the word only as written: nothing to change
    same = code.replace("inbox", "notes")
    assert slips.check(make_turn("which notes talk about an invoice?"), block(same)) is None
    lowered = code.replace('"invoice" in content', '"invoice" in content.lower()')
    assert slips.check(make_turn("Which emails in the inbox folder talk about an invoice?"), block(lowered)) is None


def test_a_blank_line_appended_first_to_a_log_that_ends_its_lines_is_dropped_and_len_of_a_file_counts_lines(
        folder: Path) -> None:
    (folder / "runs.txt").write_text("32\n41\n28\n55\n37\n")
    code = 'with open("runs.txt", "a") as f:\n    f.write("\\n")\n    f.write("46\\n")\nprint(open("runs.txt").read())'
    b = block(code)
    verdict = slips.check(make_turn("I ran another 46 minutes today, add it to the log."), b)
    assert verdict is not None and "starts right after its last line" in verdict.warning
    run(b.code, folder)
    assert (folder / "runs.txt").read_text() == "32\n41\n28\n55\n37\n46\n"
    b = block('with open("runs.txt", "a") as f:\n    f.write("47")\n    f.write("\\n")')  # a line's own break: kept
    assert slips.check(make_turn("add 47"), b) is None
    avg = 'total = sum(int(x) for x in open("runs.txt"))\nprint(round(total / len(open("runs.txt")), 1))'
    b = block(avg)
    verdict = slips.check(make_turn("what is my average run?"), b)
    assert verdict is not None and "number of lines" in verdict.warning
    assert run(b.code, folder) == "39.8\n"


def test_asked_how_many_times_a_word_is_there_each_time_is_counted_not_each_line(folder: Path) -> None:
    (folder / "story.txt").write_text("The harbour was quiet. Harbour lights.\nNo boats.\nthe harbour, the harbourside.\n")
    code = 'print(sum(1 for line in open("story.txt") if "harbour" in line))'
    assert run(code, folder) == "2\n"  # as written: lines
    b = block(code)
    verdict = slips.check(make_turn("How many times does the word harbour appear in story.txt?"), b)
    assert verdict is not None and "each time the word is there is counted" in verdict.warning
    assert run(b.code, folder) == "3\n"  # harbour, Harbour, harbour (not harbourside)
    lowered = 'print(sum(1 for line in open("story.txt") if "harbour" in line.lower()))'
    b = block(lowered)
    assert slips.check(make_turn("how often is harbour mentioned in story.txt?"), b) is not None and run(b.code, folder) == "3\n"
    b = block(code)
    assert slips.check(make_turn("How many lines of story.txt mention the harbour?"), b) is None  # lines asked


def test_a_file_handle_named_as_the_path_it_opened_is_named_fh(folder: Path) -> None:
    (folder / "inbox").mkdir()
    for n, text in (("msg_01.txt", "lunch?"), ("msg_02.txt", "the invoice\nis attached")):
        (folder / "inbox" / n).write_text(text)
    code = ('from pathlib import Path\nfor f in sorted(Path("inbox").iterdir()):\n    with open(f, "r") as f:\n'
            '        content = f.read()\n        if "invoice" in content:\n            print(f)\n')
    assert "TextIOWrapper" in run(code, folder)
    b = block(code)
    verdict = slips.check(make_turn("Which emails in inbox talk about an invoice?"), b)
    assert verdict is not None and "named fh" in verdict.warning
    assert run(b.code, folder) == "inbox/msg_02.txt\n"
    lines = 'p = "inbox/msg_02.txt"\nwith open(p) as p:\n    n = sum(1 for line in p)\nprint(n)'
    b = block(lines)
    slips.check(make_turn("how many lines in inbox/msg_02.txt"), b)
    assert run(b.code, folder) == "2\n"
    plain = 'with open("a.txt") as f:\n    print(f.read())'
    assert slips.check(make_turn("show a.txt"), block(plain)) is None


def test_a_glob_of_a_bare_word_matches_it_anywhere_in_a_name(folder: Path) -> None:
    (folder / "old stuff").mkdir()
    (folder / "old stuff" / "passport_scan_2019.pdf").write_text("x")
    code = 'from pathlib import Path\nfor p in Path(".").rglob("passport"):\n    print(p)'
    assert run(code, folder) == ""
    b = block(code)
    verdict = slips.check(make_turn("find my passport scan"), b)
    assert verdict is not None and "anywhere in a file's name" in verdict.warning
    assert run(b.code, folder) == "old stuff/passport_scan_2019.pdf\n"
    for kept in ('from pathlib import Path\nprint(list(Path(".").glob("old stuff")))',  # not a bare word
                 'from pathlib import Path\nprint(list(Path(".").glob("*.pdf")))'):
        assert slips.check(make_turn("list them"), block(kept)) is None


def test_the_size_of_a_folder_is_the_size_of_the_files_in_it(folder: Path) -> None:
    music = folder / "Music"
    for sub, size in (("Albums", 300), ("Podcasts", 9000), ("Demos", 50)):
        (music / sub / "x").mkdir(parents=True)
        (music / sub / "x" / "a.mp3").write_text("a" * size)
        (music / sub / "b.mp3").write_text("b" * 10)
    code = ('import os\nbest, top = None, -1\nfor d in os.listdir("Music"):\n    path = os.path.join("Music", d)\n'
            '    if os.path.isdir(path):\n        size = os.path.getsize(path)\n        if size > top:\n'
            '            best, top = d, size\nprint(best, top)')
    b = block(code)
    verdict = slips.check(make_turn("Which folder inside Music is taking up the most room?"), b)
    assert verdict is not None and "a folder's size is the sum of the sizes of the files in it" in verdict.warning
    assert run(b.code, folder) == "Podcasts 9010\n"
    paths = ('from pathlib import Path\nsizes = {d.name: d.stat().st_size for d in Path("Music").iterdir() if d.is_dir()}\n'
             'print(max(sizes, key=sizes.get))')
    b = block(paths)
    assert slips.check(make_turn("which folder in Music is biggest"), b) is not None and run(b.code, folder) == "Podcasts\n"
    files = 'import os\nfor f in os.listdir("Music/Albums"):\n    print(f, os.path.getsize(os.path.join("Music/Albums", f)))'
    assert slips.check(make_turn("sizes of the files in Music/Albums"), block(files)) is None  # no folder tested


def test_a_whole_text_walked_as_lines_walks_its_lines(folder: Path) -> None:
    (folder / "todo.txt").write_text("[x] renew insurance\n[ ] book dentist\n[x] pay council tax\n")
    code = ('with open("todo.txt") as f:\n    text = f.read()\n'
            'print(len([item for item in text if item.startswith("[x]")]))\n'
            'for item in text:\n    if "dentist" in item:\n        print(item.split("] ")[1])\n')
    assert run(code, folder) == "0\n"  # one character at a time
    b = block(code)
    verdict = slips.check(make_turn("how many things on todo.txt are ticked off?"), b)
    assert verdict is not None and "text is walked line by line" in verdict.warning
    assert run(b.code, folder) == "2\nbook dentist\n"
    # characters meant: a one-character test, a name bound twice, a list of lines
    for kept in ('text = open("todo.txt").read()\nprint(sum(1 for c in text if c == "x"))',
                 'text = open("todo.txt").read()\ntext = text.splitlines()\nprint([l for l in text if l.startswith("[x]")])',
                 'lines = open("todo.txt").readlines()\nprint([l for l in lines if l.startswith("[x]")])'):
        assert slips.characters_walked(kept) == (kept, []), kept


def test_distinct_values_where_case_does_not_count_are_lower_cased(folder: Path) -> None:
    (folder / "signups.txt").write_text("ivy@example.org\nPriya.K@mailbox.org\npriya.k@mailbox.org\nIVY@EXAMPLE.ORG\ntom@example.net\n")
    code = ('seen = set()\nwith open("signups.txt") as f:\n    for line in f:\n        seen.add(line.split()[0])\n'
            'print(len(seen), len({l.strip() for l in open("signups.txt")}))')
    assert run(code, folder) == "5 5\n"
    for request in ("How many different email addresses are in signups.txt?",
                    "count the unique names in names.txt, ignoring case"):
        b = block(code)
        verdict = slips.check(make_turn(request), b)
        assert verdict is not None and "counted in one case" in verdict.warning, request
        assert run(b.code, folder) == "3 3\n"
    counted = ('import collections\ncounts = collections.Counter(l.strip() for l in open("signups.txt"))\nprint(len(counts))')
    b = block(counted)
    assert slips.check(make_turn("how many different emails in signups.txt?"), b) is not None and run(b.code, folder) == "3\n"
    # case not said not to count (names, words), or the code folds case already: left as it is
    assert slips.check(make_turn("How many different words are in signups.txt?"), block(code)) is None
    folded = code.replace("line.split()[0]", "line.split()[0].casefold()")
    assert slips.check(make_turn("How many unique emails are in signups.txt?"), block(folded)) is None


def test_an_alphabetical_list_that_is_never_sorted_is_sorted(folder: Path) -> None:
    (folder / "signups.txt").write_text("Omar Haddad\nGreta Olsen\nOmar Haddad\nAnna Berg\n")
    code = ('with open("signups.txt") as f:\n    names = f.read().splitlines()\nunique = list(dict.fromkeys(names))\n'
            'with open("unique.txt", "w") as f:\n    f.write("\\n".join(unique) + "\\n")\nprint(len(unique))')
    b = block(code)
    verdict = slips.check(make_turn("Remove the duplicates from signups.txt and save the names sorted alphabetically to unique.txt"), b)
    assert verdict is not None and "the lines are sorted, as asked" in verdict.warning
    assert run(b.code, folder) == "3\n" and (folder / "unique.txt").read_text() == "Anna Berg\nGreta Olsen\nOmar Haddad\n"
    assert slips.check(make_turn("Remove the duplicates from signups.txt, keep the order"), block(code)) is None
    already = code.replace("list(dict.fromkeys(names))", "sorted(set(names))")
    assert slips.check(make_turn("save them A-Z in unique.txt"), block(already)) is None


def test_a_csv_reader_given_a_files_name_reads_the_file(folder: Path) -> None:
    code = ('import csv\nrows = list(csv.DictReader("weigh_ins.csv"))\nprint(len(rows))\n'
            "print(len(list(csv.reader('weigh_ins.csv'))))")
    assert run(code, folder) == "12\n13\n"  # the letters of the name, one "row" a character
    b = block(code)
    verdict = slips.check(make_turn("total kg in weigh_ins.csv, and how many lines?"), b)
    assert verdict is not None and "weigh_ins.csv is opened for the csv reader" in verdict.warning
    assert run(b.code, folder) == "3\n4\n"
    kept = 'import csv, io\nprint(list(csv.reader(io.StringIO("a,b"))))\nprint(list(csv.DictReader(open("weigh_ins.csv"))))'
    assert slips.named_readers(kept) == (kept, [])


def test_fahrenheit_minus_32_is_scaled_when_celsius_is_asked(folder: Path) -> None:
    # ho52: the comment had (f - 32) * 5 / 9, the code only took 32 off
    (folder / "weather.csv").write_text("city,fahrenheit\nOslo,46.4\nCairo,95\n")
    code = ('import csv\nrows = list(csv.DictReader(open("weather.csv")))\nfor r in rows:\n'
            '    r["celsius"] = round(float(r["fahrenheit"]) - 32, 1)  # fahrenheit to celsius: (f - 32) * 5 / 9\n'
            'print([r["celsius"] for r in rows])')
    request = "weather.csv has temperatures in fahrenheit. can you add a celsius column to it (rounded to 1 decimal)?"
    verdict = slips.check(make_turn(request), b := block(code))
    assert verdict is not None and "5/9" in verdict.warning
    assert run(b.code, folder) == "[8.0, 35.0]\n"
    for right in ("print(round((95 - 32) * 5 / 9, 1))", "print((95 - 32) / 1.8)", "print(5 / 9 * (95 - 32))"):
        assert slips.check(make_turn(request), block(right)) is None, right
    assert slips.check(make_turn("what is 95 minus 32?"), block("print(95 - 32)")) is None  # no Celsius asked


def test_a_domain_looked_for_at_the_start_of_an_address_is_looked_for_at_its_end(folder: Path) -> None:
    # ho53: `email.startswith("@gmail.com")` printed 0 gmail contacts
    (folder / "contacts.csv").write_text("name,email\nAna,ana@gmail.com\nBo,bo@work.example\nCy,CY@Gmail.com\n")
    code = ('import csv\nrows = list(csv.DictReader(open("contacts.csv")))\n'
            'print(sum(1 for r in rows if r["email"].lower().startswith("@gmail.com")))')
    assert run(code, folder) == "0\n"
    verdict = slips.check(make_turn("how many of my contacts in contacts.csv have a gmail address?"), b := block(code))
    assert verdict is not None and "domain is looked for at its end" in verdict.warning
    assert run(b.code, folder) == "2\n"
    for kept in ('print("@gmail.com".startswith("@"))', 'print("@ana hi".startswith("@ana"))'):
        assert slips.domain_ends(kept) == (kept, False)


def test_months_sorted_as_text_keep_the_files_calendar_order(folder: Path) -> None:
    # ho53: sorted(groups.items()) drew Apr, Aug, Dec, Feb ...
    (folder / "sales.csv").write_text("month,sales\nJan,10\nFeb,20\nMar,15\nApr,30\n")
    code = ('import csv\nfrom collections import defaultdict\nimport matplotlib\nmatplotlib.use("Agg")\n'
            'import matplotlib.pyplot as plt\ngroups = defaultdict(float)\n'
            'for r in csv.DictReader(open("sales.csv")):\n    groups[r["month"]] += float(r["sales"])\n'
            'pairs = sorted(groups.items())\nprint([k for k, v in pairs])\nplt.bar([k for k, v in pairs], [v for k, v in pairs])\n'
            'plt.savefig("s.png")')
    assert run(code, folder) == "['Apr', 'Feb', 'Jan', 'Mar']\n"
    verdict = slips.check(make_turn("plot sales.csv as a bar chart, save it as s.png"), b := block(code))
    assert verdict is not None and "calendar order" in verdict.warning
    assert run(b.code, folder) == "['Jan', 'Feb', 'Mar', 'Apr']\n"
    pandas = 'import pandas as pd\ndf = pd.read_csv("sales.csv")\ndf.groupby("month")["sales"].sum().plot()'
    assert "groupby(\"month\", sort=False)" in slips.month_order(pandas, "chart of sales.csv")[0]
    # not plotted, or months out of calendar order in the file: left alone
    assert slips.month_order(code.replace("plt.bar", "print"), "sales.csv")[1] is False
    (folder / "sales.csv").write_text("month,sales\nMar,10\nJan,20\nFeb,15\n")
    assert slips.month_order(code, "plot sales.csv")[1] is False


def test_a_files_name_written_bare_is_written_as_the_file(folder: Path) -> None:
    # ho20 (development): `for line in pasted_896bda0d.txt:` for the pasted log's file pasted-896bda0d.txt
    (folder / "pasted-896bda0d.txt").write_text("ok\nFAILED\nok\nFAILED\n")
    (folder / "sales.csv").write_text("item,price\ntea,2\n")
    code = 'n = 0\nfor line in pasted_896bda0d.txt:\n    n += "FAILED" in line\nprint(n)'
    verdict = slips.check(make_turn("how many times did it fail?"), b := block(code))
    assert verdict is not None and "pasted-896bda0d.txt is written as the file's name" in verdict.warning
    assert run(b.code, folder) == "2\n"
    (folder / "notes.txt").write_text("one\ntwo\n")
    fixed, files = slips.bare_files("print(open(notes.txt).read().count('o'))")
    assert files == ["notes.txt"] and run(fixed, folder) == "2\n"
    # a CSV's or JSON's records are the error notes' (loaded into the name); data read from the file is not the file
    for kept in ("sales = {'csv': 1}\nprint(sales.csv)", "import notes\nprint(notes.txt)", "print(report.txt)",
                 "total = sum(float(r['price']) for r in sales.csv)", "print(notes.txt['one'])", "print(notes.txt.read())",
                 # assigned to, quoted it is a SyntaxError (ho56's guest list)
                 "notes.txt = ['one']\nprint(1)"):
        assert slips.bare_files(kept) == (kept, []), kept


def test_a_note_two_rules_give_is_said_once() -> None:
    from oi_local.core.loop import _distinct

    one = "Note: nothing called text exists yet. The text I pasted is in the file p.txt."
    two = "Note: nothing called text exists yet. The data is in the file p.txt."
    assert _distinct([one, None, two, "Note: the module re is not imported."]) == [one, "Note: the module re is not imported."]
