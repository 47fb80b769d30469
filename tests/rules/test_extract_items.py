"""Extract items: every email address (or web link) in a text file, found by its shape in the loop's own code."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import extract_items

from .handmade import block, make_turn, scripted_chat

THREAD = ("From: Sara Lind <Sara.Lind@acme.co.uk>\nTo: mark@northwind.io, procurement@northwind.io\n"
          "Please copy finance (invoices@acme.co.uk). Ping @sara on Slack or write to sara.lind@acme.co.uk.\n"
          "Docs: https://northwind.io/orders?id=7, and http://acme.co.uk/help.\n")
ASK = ("Get every email address mentioned in thread.txt and save them to emails.txt, one per line, in lowercase, "
       "sorted alphabetically, with no duplicates.")
# the 0.5B model's code (ho42): the second word of each From: line
FROM_LINES = ('with open("thread.txt") as f:\n    emails = [l.split()[1].lower() for l in f if l.startswith("From:")]\n'
              'with open("emails.txt", "w") as f:\n    f.write("\\n".join(sorted(emails)))')


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "thread.txt").write_text(THREAD)
    return tmp_path


def test_every_address_once_lowercased_sorted_into_the_file(here: Path) -> None:
    out = scripted_chat([f"```python\n{FROM_LINES}\n```", "Done."], ASK)
    assert any(m["type"] == "console" and "does not look for the shape of an email address" in str(m["content"]) for m in out)
    assert (here / "emails.txt").read_text() == \
        "invoices@acme.co.uk\nmark@northwind.io\nprocurement@northwind.io\nsara.lind@acme.co.uk\n"


def test_links_in_the_order_found_and_printed(here: Path) -> None:
    found = extract_items.asked("list all the links in thread.txt", here)
    assert found == ("web link", "thread.txt", None, False, False)
    run = subprocess.run([sys.executable, "-c", extract_items.ready_code(*found)], capture_output=True, text=True, cwd=here)
    assert run.stdout == "2 web links:\nhttps://northwind.io/orders?id=7\nhttp://acme.co.uk/help\n", run.stderr


def test_left_alone(here: Path) -> None:
    (here / "subscribers.csv").write_text("name,email\nA,a@x.io\n")
    for request in ("remove the duplicate email addresses from thread.txt",  # cleaning a list
                    "make subscribers_clean.csv with each email address once from subscribers.csv",  # a table
                    "how many emails did Sara send in thread.txt?",  # not every address
                    "get every email address in notes.txt"):  # no such file
        assert extract_items.asked(request, here) is None, request
    shaped = ('import re\ntext = open("thread.txt").read()\nfound = sorted({e.lower() for e in re.findall(r"[\\w.]+@[\\w.]+", text)})\n'
              'open("emails.txt", "w").write("\\n".join(found))')
    assert extract_items.check(make_turn(ASK), block(shaped)) is None
