from __future__ import annotations

import os
from pathlib import Path

import pytest

from oi_local.core.rules import active, paths

from .handmade import block, make_turn


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bookclub").mkdir()
    (tmp_path / "bookclub" / "members.csv").write_text("name\nAna\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "week40.csv").write_text("h\n1\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "notes.txt").write_text("a\n")
    (tmp_path / "b" / "notes.txt").write_text("b\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _checked(code: str, lang: str = "python", request: str = "How many members are there?") -> tuple[str, str]:
    turn = make_turn(request)
    b = block(code, lang)
    verdict = paths.check(turn, b)
    return b.code, verdict.warning if verdict else ""


def test_a_read_of_a_name_without_its_folder_reads_the_one_file_of_that_name(folder: Path) -> None:
    code, said = _checked("import pandas as pd\ndf = pd.read_csv('members.csv')\nprint(len(df))")
    assert "pd.read_csv('bookclub/members.csv')" in code and "members.csv → bookclub/members.csv" in said
    code, _ = _checked("f = '/path/to/members.csv'\nwith open(f) as fh:\n    print(len(fh.readlines()))")
    assert code.startswith("f = 'bookclub/members.csv'")
    code, _ = _checked("from pathlib import Path\nprint(Path('~/Documents/Members.csv').read_text())")
    assert "Path('bookclub/members.csv')" in code


def test_the_corrected_copieds(folder: Path) -> None:
    import subprocess
    import sys

    code, _ = _checked("with open('members.csv') as f:\n    print(sum(1 for _ in f))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder)
    assert out.returncode == 0 and out.stdout.strip() == "2"


def test_writes_close_spellings_two_candidates_and_existing_paths_are_left_alone(folder: Path) -> None:
    for code in ("open('members.csv', 'w').write('x')",  # a write makes a new file
                 "df.to_csv('members.csv')\nprint(open('members.csv').read())",  # written first, then read
                 "out = 'members.csv'\ndf.to_csv(out)\nprint(open(out).read())",
                 "print(open('logs/week41.csv').read())",  # week40.csv is not week41.csv
                 "print(open('notes.txt').read())",  # two notes.txt: which one?
                 "print(open('bookclub/members.csv').read())",  # exists
                 "print(open('README').read())"):  # no extension: too vague
        assert _checked(code) == (code, ""), code


def test_shell_readers(folder: Path) -> None:
    code, said = _checked("wc -l members.csv", "shell")
    assert code == "wc -l bookclub/members.csv" and said
    assert _checked("cp x.csv members.csv", "shell")[1] == ""  # not a reader
    assert _checked("cat > members.csv <<EOF\nx\nEOF", "shell")[1] == ""  # written


def test_a_copy_reads_its_source_by_the_one_file_of_that_name(folder: Path) -> None:
    import subprocess
    import sys

    code, said = _checked("import os, shutil\nos.makedirs('backup', exist_ok=True)\n"
                          "shutil.copy('members.csv', 'backup/members.csv')", request="back up members.csv")
    assert "shutil.copy('bookclub/members.csv', 'backup/members.csv')" in code and said
    copied = code
    code2, _ = _checked("from shutil import copy2\ncopy2('members.csv', 'backup')")
    assert "copy2('bookclub/members.csv', 'backup')" in code2
    # the shell: sources only, never the destination
    assert _checked("mkdir -p backup && cp -v members.csv backup/members.csv", "shell")[0] == \
        "mkdir -p backup && cp -v bookclub/members.csv backup/members.csv"
    for code in ("shutil.copy('bookclub/members.csv', 'members.csv')",  # the destination is new
                 "shutil.copy('notes.txt', 'backup')",  # two notes.txt
                 "shutil.move('members.csv', 'x')"):  # a move is not corrected
        assert _checked(code) == (code, ""), code
    assert subprocess.run([sys.executable, "-c", copied], cwd=folder).returncode == 0
    assert (folder / "backup" / "members.csv").read_text() == "name\nAna\n"


def test_a_folder_named_in_the_request_is_spelled_as_it_is_on_disk(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "Downloads").mkdir()
    (folder / "Downloads" / "old.pdf").write_text("a")
    (folder / "Downloads" / "new.pdf").write_text("b")
    os.utime(folder / "Downloads" / "old.pdf", (1, 1))
    asked = "which file in Downloads did i download most recently?"
    code, said = _checked("from pathlib import Path\nfiles = list(Path('downloads').iterdir())\n"
                          "print(max(files, key=lambda p: p.stat().st_mtime).name)", request=asked)
    assert "Path('Downloads')" in code and "downloads → Downloads" in said
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=folder)
    assert out.stdout.strip() == "new.pdf"
    assert _checked("ls -t downloads/ | head -1", "shell", asked)[0] == "ls -t Downloads/ | head -1"
    for code, request in (("print(s.replace('downloads', 'x'))", "fix the typo in my essay"),  # not named
                          ("import os\nos.makedirs('downloads')", asked),  # made
                          ("print(open('Downloads/new.pdf').read())", asked)):  # there
        assert _checked(code, request=request) == (code, ""), code


def test_off_with_correct_paths() -> None:
    assert paths.rule not in active(make_turn("x", correct_paths=False).engine, "check")


def test_a_folder_of_the_home_named_in_the_request_is_read_from_home(folder: Path, tmp_path_factory,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    (home / "Downloads").mkdir()
    (home / "Downloads" / "big.bin").write_bytes(b"x" * 2_000_000)
    (home / "Downloads" / "small.txt").write_text("hi")
    request = "how many files in my Downloads folder are over 1 MB?"
    code = 'from pathlib import Path\nprint(sum(1 for p in Path("Downloads").iterdir() if p.stat().st_size > 1024 * 1024))'
    new, warning = _checked(code, request=request)
    assert new == code.replace('"Downloads"', repr(str(home / "Downloads"))) and paths.HOME_NOTE[:30] in warning
    assert subprocess.run([sys.executable, "-c", new], capture_output=True, text=True, cwd=folder).stdout == "1\n"
    new, warning = _checked('import os\nprint(len(os.listdir("downloads/")))', request=request.lower())
    assert repr(str(home / "Downloads") + "/") in new  # the trailing slash kept: a path may be joined to it
    new, _ = _checked('find "Downloads" -type f -size +1M | wc -l', "shell", request)
    assert new == 'find "$HOME/Downloads" -type f -size +1M | wc -l'
    out = subprocess.run(["bash", "-c", new], capture_output=True, text=True, cwd=folder)
    assert out.stdout.strip() == "1"
    # left alone: not named in the request, a folder here of that name, one the code makes, print's text
    for code, req in [(code, "how many files are over 1 MB?"),
                      ('import os\nos.makedirs("Downloads", exist_ok=True)', request),
                      ('print("Downloads")', request)]:
        assert _checked(code, request=req) == (code, ""), code
    (folder / "Downloads").mkdir()
    assert _checked(code, request=request) == (code, "")


def test_git_outside_a_repository_runs_in_the_one_the_request_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    from oi_local.core.rules import paths

    subprocess.run(["git", "init", "-q", str(tmp_path / "garden_planner")], check=True)
    (tmp_path / "garden_planner" / "seeds.csv").write_text("name\n")
    monkeypatch.chdir(tmp_path)
    request = "which files in the garden_planner repo have i changed or added since my last commit?"
    turn = make_turn(request)
    b = block("git log --oneline garden_planner/\ngit status --short garden_planner/seeds.csv", "shell")
    verdict = paths.check(turn, b)
    assert verdict is not None and "git -C garden_planner" in verdict.warning
    assert b.code == "git -C garden_planner log --oneline .\ngit -C garden_planner status --short seeds.csv"
    out = subprocess.run(["bash", "-c", b.code], capture_output=True, text=True)
    assert out.returncode == 0 and "?? seeds.csv" in out.stdout  # it runs, in the repository
    # code that goes there itself, a request not about git, or inside a repository: left alone
    assert paths.check(turn, block("cd garden_planner && git status", "shell")) is None
    assert paths.check(make_turn("how big is garden_planner?"), block("git status", "shell")) is None
    monkeypatch.chdir(tmp_path / "garden_planner")
    assert paths.check(make_turn("what changed in the repo?"), block("git status", "shell")) is None


def test_a_folder_made_inside_a_home_folder_the_request_names_is_made_there(folder: Path, tmp_path_factory,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    (home / "Downloads").mkdir()
    (home / "Documents").mkdir()
    for name in ("a.pdf", "b.pdf", "c.jpg"):
        (home / "Downloads" / name).write_text(name)
    request = "move the pdf files out of my Downloads folder into Documents/receipts (make receipts)"
    code = ('import shutil\nfrom pathlib import Path\nPath("Documents/receipts").mkdir(exist_ok=True)\n'
            'for p in Path("Downloads").glob("*.pdf"):\n    shutil.move(str(p), "Documents/receipts/" + p.name)\n')
    new, warning = _checked(code, request=request)
    assert repr(str(home / "Documents" / "receipts")) in new and repr(str(home / "Documents" / "receipts") + "/") in new
    assert paths.HOME_NOTE[:30] in warning
    subprocess.run([sys.executable, "-c", new], check=True, cwd=folder)
    assert sorted(p.name for p in (home / "Documents" / "receipts").iterdir()) == ["a.pdf", "b.pdf"]
    assert not (folder / "Documents").exists()
    new, _ = _checked("mkdir -p Documents/receipts && mv Downloads/*.pdf Documents/receipts/", "shell", request)
    assert new == "mkdir -p $HOME/Documents/receipts && mv $HOME/Downloads/*.pdf $HOME/Documents/receipts/"
    # a folder of that name here, or one the request does not name, is left alone
    code2 = 'from pathlib import Path\nPath("Music/old").mkdir(parents=True)'
    assert _checked(code2, request=request) == (code2, "")


def test_a_made_up_absolute_folder_is_the_one_here_the_request_names(folder: Path) -> None:
    import subprocess
    import sys

    (folder / "bookclub" / "old").mkdir()
    (folder / "bookclub" / "old" / "2019.csv").write_text("name\n")
    ask = "how many .csv files are there in the bookclub folder? count the ones in subfolders as well"
    walk = ('import os\nclub = "/home/user/bookclub"\ncount = 0\nfor d, _, names in os.walk(club):\n'
            '    count += sum(n.endswith(".csv") for n in names)\nprint(count)')
    code, said = _checked(walk, request=ask)
    assert "club = 'bookclub'" in code and "/home/user/bookclub → bookclub" in said
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "2\n"
    code, _ = _checked("import os\nprint(os.listdir('/data/me/bookclub/old'))", request=ask)
    assert "os.listdir('bookclub/old')" in code  # the longest tail that is here
    for path, request in (("/home/user/bookclub", "how many files are there?"),  # not named
                          ("/home/user/nowhere", ask),  # not here
                          (str(folder / "bookclub"), ask)):  # there: left as it is
        assert _checked(f"import os\nprint(os.listdir({path!r}))", request=request)[1] == "", path


def test_a_made_up_name_in_a_named_folder_reads_its_one_file_of_that_kind(folder: Path) -> None:
    (folder / "reading").mkdir()
    (folder / "reading" / "books_2023.json").write_text("[]")
    (folder / "reading" / "notes.txt").write_text("x")
    asked = "there's a json file in reading/ with everything I read last year. what were the three longest books?"
    code, said = _checked('import json\nwith open("reading/reading_books_2023.json") as f:\n    data = json.load(f)', request=asked)
    assert "open('reading/books_2023.json')" in code and "the only file of that kind in the folder you named" in said
    code, _ = _checked('import json\nprint(json.load(open("books.json")))', request=asked)  # no folder: the named one
    assert "reading/books_2023.json" in code
    left = [('import json\nprint(json.load(open("reading/books_2024.json")))', asked.replace("last year", "in 2024")),  # asked for
            ('import json\nprint(json.load(open("reading/list.json")))', asked.replace("json file", "books_2022.json file")),
            ('print(open("reading/other.txt").read())', asked.replace("reading/", "reading/ (and draft.txt)")),
            ('print(open("reading/other.csv").read())', asked),  # no csv there
            ('print(open("logs/week41.csv").read())', "what's in the csv in logs/ for week 41?"),
            ('import json\nprint(json.load(open("other/x.json")))', asked)]  # a folder not named
    for code, request in left:
        assert _checked(code, request=request)[0] == code, (code, request)


def test_home_for_my_home_folder_is_the_home_path(folder: Path, tmp_path_factory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    request = "I saved a scan of my passport somewhere in my home folder ages ago. Can you find it?"
    code = 'from pathlib import Path\nfor p in Path("home").rglob("*passport*"):\n    print(p)'
    new, warning = _checked(code, request=request)
    assert new == code.replace('"home"', repr(str(home))) and warning
    assert _checked(code, request="what is in the home folder of the site?")[0] != code  # said so
    assert _checked(code, request="find my passport in home")[0] == code  # no "home folder": a folder called home
