from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import subfolders

from .handmade import block, make_turn

ASK = "how many pdfs have i got in Documents (incl. all the subfolders)?"


@pytest.fixture()
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for rel in ("a.pdf", "b.txt", "tax/2024.pdf", "tax/old/2019.pdf", "work/c.pdf"):
        (tmp_path / "Documents" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "Documents" / rel).write_text("x")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(lang: str, code: str) -> str:
    cmd = [sys.executable, "-c", code] if lang == "python" else ["bash", "-c", code]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("lang, code", [
    ("python", 'import os\npdfs = [f for f in os.listdir("Documents") if f.endswith(".pdf")]\nprint(len(pdfs))'),
    ("python", 'import glob\nprint(len(glob.glob("Documents/*.pdf")))'),
    ("python", 'from pathlib import Path\nprint(len(list(Path("Documents").glob("*.pdf"))))'),
    ("python", 'from pathlib import Path\nprint(len([p for p in Path("Documents").iterdir() if p.suffix == ".pdf"]))'),
    ("shell", "ls Documents/*.pdf | wc -l"),
    ("shell", "find Documents -maxdepth 1 -name '*.pdf' | wc -l"),
])
def test_a_one_level_look_is_made_recursive_when_the_request_asks_for_subfolders(documents: Path, lang: str, code: str) -> None:
    assert _run(lang, code) == "1"  # one level: the slip
    b = block(code, lang=lang)
    verdict = subfolders.check(make_turn(ASK), b)
    assert verdict is not None and "subfolders" in verdict.warning and not (verdict.again or verdict.stop)
    assert _run(lang, b.code) == "4"


def test_left_alone_without_subfolders_asked_or_when_already_recursive(documents: Path) -> None:
    code = 'import os\nprint(len(os.listdir("Documents")))'
    for request in ("how many files are in Documents?", "how many subfolders are in Documents?"):
        assert subfolders.check(make_turn(request), block(code)) is None, request
    walked = 'import glob\nprint(len(glob.glob("Documents/**/*.pdf", recursive=True)))'
    assert subfolders.check(make_turn(ASK), block(walked)) is None
    assert subfolders.check(make_turn(ASK), block("ls -R Documents | grep -c pdf", lang="shell")) is None


@pytest.mark.parametrize("request_text", [
    "how many pdf's are in Documents? subfolders inclded",
    "count the pdfs in Documents, sub folders too",
    "How many PDFs are in Documents, subdirectories included?",
])
def test_subfolders_named_after_the_question_count_too(documents: Path, request_text: str) -> None:
    code = 'from pathlib import Path\nfiles = [p for p in Path("Documents").iterdir() if p.is_file()]\nprint(len([p for p in files if p.suffix == ".pdf"]))'
    b = block(code)
    assert subfolders.check(make_turn(request_text), b) is not None
    assert _run("python", b.code) == "4"


def test_subfolders_as_the_thing_asked_about_is_left_alone(documents: Path) -> None:
    code = 'from pathlib import Path\nprint(len([p for p in Path("Documents").iterdir() if p.is_dir()]))'
    assert subfolders.check(make_turn("how many subfolders are in Documents?"), block(code)) is None


def test_anywhere_under_a_folder_is_every_level_of_it(documents: Path) -> None:
    code = ('from pathlib import Path\nfiles = [p for p in Path("Documents").iterdir() if p.is_file()]\n'
            'print(len([p for p in files if p.suffix == ".pdf"]))')
    b = block(code)
    assert subfolders.check(make_turn("how many pdfs are there anywhere under Documents/ ?"), b) is not None
    assert _run("python", b.code) == "4"


@pytest.mark.parametrize("request_text", [
    "How many pdfs are in the files under Documents, all together?",
    "count the pdf files under the Documents folder",
    "how many pdfs under Documents/?",
])
def test_under_a_folder_with_subfolders_is_its_whole_tree(documents: Path, request_text: str) -> None:
    code = 'from pathlib import Path\nprint(len(list(Path("Documents").glob("*.pdf"))))'
    b = block(code)
    assert subfolders.check(make_turn(request_text), b) is not None, request_text
    assert _run("python", b.code) == "4"


def test_under_a_size_or_a_folder_without_subfolders_is_left_alone(documents: Path) -> None:
    code = 'from pathlib import Path\nprint(len(list(Path("Documents").glob("*.pdf"))))'
    assert subfolders.check(make_turn("how many pdfs in Documents are under 5 MB?"), block(code)) is None
    assert subfolders.check(make_turn("how many pdfs in Documents are under 5MB?"), block(code)) is None
    old = 'from pathlib import Path\nprint(len(list(Path("Documents/tax/old").glob("*.pdf"))))'
    assert subfolders.check(make_turn("how many pdfs under Documents/tax/old?"), block(old)) is None
