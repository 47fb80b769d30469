"""In place: code that writes a new file for a request to change the named file where it is writes
the named file instead."""
from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import in_place

from .handmade import block, make_turn, printed

MESSY = "Bo@Example.com\n  zoe@example.com \nbo@example.com\n"
# the 0.5B model's code for "clean it up in place" (ho49): right, but into a new file
NEW_FILE = ('with open("emails.txt") as f:\n    emails = sorted({e.strip().lower() for e in f if e.strip()})\n'
            'with open("cleaned_emails.txt", "w") as f:\n    f.write("\\n".join(emails) + "\\n")\nprint(len(emails), "addresses")')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "emails.txt").write_text(MESSY)
    return tmp_path


@pytest.mark.parametrize("request_text", [
    "clean up emails.txt in place: lowercase, no dupes, sorted",
    "sort emails.txt and save it back",
    "dedupe emails.txt, overwrite the file",
    "lowercase everything in emails.txt and keep it in the same file",
    "Sort the addresses in emails.txt alphabetically and save the file. Then tell me which comes first.",  # ho57
])
def test_a_new_file_written_for_an_in_place_change_becomes_the_named_file(here: Path, request_text: str) -> None:
    b = block(NEW_FILE)
    verdict = in_place.check(make_turn(request_text), b)
    assert verdict is not None and "emails.txt" in verdict.warning and "cleaned_emails.txt" in verdict.warning
    assert "open('emails.txt', \"w\")" in b.code and "cleaned_emails" not in b.code
    assert printed(b.code) == "2 addresses"
    assert (here / "emails.txt").read_text() == "bo@example.com\nzoe@example.com\n"
    assert not (here / "cleaned_emails.txt").exists()


def test_pandas_and_pathlib_writes(here: Path) -> None:
    (here / "prices.csv").write_text("item,price\ntea,3\n")
    code = 'import pandas as pd\ndf = pd.read_csv("prices.csv")\ndf["price"] *= 2\ndf.to_csv("prices_new.csv", index=False)'
    b = block(code)
    assert in_place.check(make_turn("double every price in prices.csv in place"), b) is not None
    assert "to_csv('prices.csv'" in b.code
    code = 'from pathlib import Path\nt = Path("emails.txt").read_text()\nPath("out.txt").write_text(t.lower())'
    b = block(code)
    assert in_place.check(make_turn("lowercase emails.txt in place"), b) is not None and "Path('emails.txt').write_text" in b.code


@pytest.mark.parametrize("request_text, code", [
    ("clean up emails.txt and save the result as clean.txt", NEW_FILE),  # a new file asked for
    ("clean up emails.txt and save the file as clean.txt", NEW_FILE),
    ("clean up emails.txt in place", NEW_FILE.replace("cleaned_emails.txt", "emails.txt")),  # already so
    # read as it is written: opened "w" there, the file would be emptied first
    ("lowercase emails.txt in place",
     'with open("emails.txt") as f, open("low.txt", "w") as out:\n    for line in f:\n        out.write(line.lower())'),
    ("clean up emails.txt in place",  # two new files: a report beside the change
     NEW_FILE + '\nwith open("report.txt", "w") as r:\n    r.write("done")'),
    ("clean up emails.txt and notes.txt in place", NEW_FILE),  # two files named
])
def test_left_alone(here: Path, request_text: str, code: str) -> None:
    (here / "notes.txt").write_text("x\n")
    b = block(code)
    assert in_place.check(make_turn(request_text), b) is None, request_text
    assert b.code == code


def test_a_file_that_is_there_is_not_swapped(here: Path) -> None:
    (here / "cleaned_emails.txt").write_text("old\n")
    assert in_place.check(make_turn("clean up emails.txt in place"), block(NEW_FILE)) is None


def test_a_bare_file_name_quoted_by_slips_is_swapped_in_a_turn(here: Path) -> None:
    # ho57: sorted(members.txt) (a bare name) was quoted by slips after this rule had looked, so the new file stayed
    from .handmade import scripted_chat

    code = 'names = sorted(emails.txt)\nwith open("sorted.txt", "w") as f:\n    f.write("\\n".join(names))'
    scripted_chat([f"```python\n{code}\n```", "Sorted."], "Sort the lines of emails.txt and save the file.")
    assert (here / "emails.txt").read_text().splitlines() == sorted(MESSY.splitlines())
    assert not (here / "sorted.txt").exists()
