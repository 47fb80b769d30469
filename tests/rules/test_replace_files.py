"""Replace in files: asked to replace a text in many files, the model is given the code that goes through them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import scripted_interpreter

from oi_local.core.rules import replace_files

from .handmade import block, make_turn

ASK = ("We moved the shop to a new domain. In all the .html files under site/, replace shop.hazelnut-candles.example "
       "with hazelnutcandles.example. Leave other files alone.")
OLD = "shop.hazelnut-candles.example"
# the 0.5B model's first try (ho40): a file that is not there, and only one of the pages
WRONG = ('with open("site/deploy.txt") as f:\n    deploy = f.read()\n'
         'with open("site/index.html") as f:\n    index = f.read()\nprint(deploy, index)')


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "site" / "blog").mkdir(parents=True)
    for name in ("index.html", "about.html", "blog/first.html", "DEPLOY.txt"):
        (tmp_path / "site" / name).write_text(f"<a href='https://{OLD}/'>{OLD}</a>\n")
    (tmp_path / "site" / "plain.html").write_text("no link here\n")
    return tmp_path


def test_every_html_file_under_the_folder_is_changed_and_no_other(site: Path) -> None:
    # the ready block is the reply's start (prefilled): the model only adds its words
    interp, model = scripted_interpreter([f"```python\n{WRONG}\n```", "3 files changed."])
    interp.template = "small"
    try:
        out = interp.chat(ASK, display=False)
    finally:
        interp.close()
    for name in ("index.html", "about.html", "blog/first.html"):
        text = (site / "site" / name).read_text()
        assert OLD not in text and text.count("hazelnutcandles.example") == 2, name
    assert OLD in (site / "site" / "DEPLOY.txt").read_text()  # other files left alone
    consoles = [m["content"] for m in out if m["type"] == "console"]
    assert "3 files changed" in consoles[-1] and "site/blog/first.html: 2 replaced" in consoles[-1]


def test_what_the_request_must_say(site: Path) -> None:
    assert replace_files.asked(ASK, site) == (OLD, "hazelnutcandles.example", "site", "html", ())
    assert replace_files.asked('change every "colour" to "color" in all my .txt files', site) == ("colour", "color", ".", "txt", ())
    assert replace_files.asked("swap 2023 for 2024 in all the files in site", site) == ("2023", "2024", "site", None, ())
    # one file named, a folder that is not there, or nothing saying which files: not ours
    (site / "letter.txt").write_text("Mr Smyth")
    assert replace_files.asked('In letter.txt, replace every "Mr Smyth" with "Mr Smith"', site) is None
    assert replace_files.asked('Replace "teh" with "the" in every .md file in the docs folder.', site) is None
    assert replace_files.asked("replace all the tabs with spaces", site) is None


def test_code_that_goes_through_the_files_itself_runs(site: Path) -> None:
    walks = (f"from pathlib import Path\nfor p in Path('site').rglob('*.html'):\n"
             f"    p.write_text(p.read_text().replace({OLD!r}, 'hazelnutcandles.example'))")
    assert replace_files.check(make_turn(ASK), block(walks)) is None
    verdict = replace_files.check(make_turn(ASK), block(WRONG))
    assert verdict is not None and verdict.ask is not None and verdict.ask.ready


def test_a_value_from_one_to_another_and_only_that_number(site: Path) -> None:
    (site / "config").mkdir()
    (site / "config" / "app.ini").write_text("port = 8080\nadmin_port = 18080\nratio = 8080.5\nurl = http://localhost:8080/\n")
    (site / "config" / "other.yml").write_text("ports: [80, 443]\n")
    ask = "We're moving the app from port 8080 to 9090. Can you update the files in config/ accordingly?"
    found = replace_files.asked(ask, site)
    assert found == ("8080", "9090", "config", None, ())
    run = subprocess.run([sys.executable, "-c", replace_files.ready_code(*found)], capture_output=True, text=True, cwd=site)
    assert run.stdout == "config/app.ini: 2 replaced\n1 files changed\n"
    assert (site / "config" / "app.ini").read_text() == \
        "port = 9090\nadmin_port = 18080\nratio = 8080.5\nurl = http://localhost:9090/\n"  # 18080 and 8080.5 are other numbers
    assert replace_files.asked("change the version from 1.2.3 to 1.3.0 in all the files in config", site) == \
        ("1.2.3", "1.3.0", "config", None, ())
    (site / "2023").mkdir()
    for request in ("move the files in site from 2023 to 2024",  # a folder's name: moving files
                    "move all the files in site from Downloads to Desktop",  # no digit: places, not values
                    "I'm moving from 2023 to 2024 in the files in config"):  # nothing to edit said
        assert replace_files.asked(request, site) is None, request


def test_code_that_only_walks_the_folder_is_not_the_replace(site: Path) -> None:
    (site / "config").mkdir()
    (site / "config" / "app.ini").write_text("port = 8080\n")
    ask = "We're moving the app from port 8080 to 9090. Can you update the files in config/ accordingly?"
    # a worked example copied (ho41): every file moved into a folder named after its ending; "folder" holds "old"
    moves = ('import shutil\nfrom pathlib import Path\nfolder = Path("config")\nfor p in sorted(folder.iterdir()):\n'
             '    shutil.move(str(p), str(folder / p.suffix.lstrip(".") / p.name))')
    verdict = replace_files.check(make_turn(ask), block(moves))
    assert verdict is not None and verdict.ask is not None
    edits = ('from pathlib import Path\nfor p in Path("config").rglob("*"):\n'
             '    p.write_text(p.read_text().replace("8080", "9090"))')
    assert replace_files.check(make_turn(ask), block(edits)) is None


def test_a_word_from_one_to_another_in_the_files_that_have_it(site: Path) -> None:
    docs = site / "docs"
    docs.mkdir()
    for name in ("index.md", "install.md", "CHANGELOG.md"):
        (docs / name).write_text("# Skylark\n\nSkylark keeps your notes.\n")
    (docs / "logo.txt").write_text("Skylark\n")
    ask = ("We renamed our product from Skylark to Nimbus. Update all the Markdown files under docs to use the new "
           "name, except CHANGELOG.md, which should keep the old name as history.")
    found = replace_files.asked(ask, site)
    assert found == ("Skylark", "Nimbus", "docs", "md", ("CHANGELOG.md",))
    run = subprocess.run([sys.executable, "-c", replace_files.ready_code(*found)], capture_output=True, text=True, cwd=site)
    assert run.stdout == "docs/index.md: 2 replaced\ndocs/install.md: 2 replaced\n2 files changed\n"
    assert (docs / "CHANGELOG.md").read_text().count("Skylark") == 2 and (docs / "logo.txt").read_text() == "Skylark\n"
    # the model's code that opens the folder as a file is not run; code that walks, writes and skips the file is
    verdict = replace_files.check(make_turn(ask), block('with open("docs") as f:\n    print(f.read())'))
    assert verdict is not None and verdict.ask is not None and "but CHANGELOG.md" in (verdict.ask.text or "")
    walks = ('from pathlib import Path\nfor p in Path("docs").rglob("*.md"):\n    if p.name != "CHANGELOG.md":\n'
             '        p.write_text(p.read_text().replace("Skylark", "Nimbus"))')
    assert replace_files.check(make_turn(ask), block(walks)) is None
    # a word that is in none of the files is a place or a name, not text to change
    assert replace_files.asked("update all the md files in docs: we moved from Berlin to Paris", site) is None
    assert replace_files.asked("switch every text file in docs from Skylark to Nimbus", site) == \
        ("Skylark", "Nimbus", "docs", "txt", ())
