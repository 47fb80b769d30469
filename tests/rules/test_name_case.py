from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from oi_local.core.rules import name_case

from .handmade import block, make_turn

ASK = "how many pdfs are in Documents?"


@pytest.fixture(autouse=True)
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("a.pdf", "b.PDF", "c.Pdf", "d.txt"):
        (tmp_path / "Documents").mkdir(exist_ok=True)
        (tmp_path / "Documents" / name).write_text("x")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "x.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(lang: str, code: str) -> str:
    cmd = [sys.executable, "-c", code] if lang == "python" else ["bash", "-c", code]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("lang, code", [
    ("python", 'import os\nprint(len([f for f in os.listdir("Documents") if f.endswith(".pdf")]))'),
    ("python", 'import glob\nprint(len(glob.glob("Documents/*.pdf")))'),
    ("python", 'from pathlib import Path\nprint(len(list(Path("Documents").rglob("*.pdf"))))'),
    ("shell", "find Documents -name '*.pdf' | wc -l"),
])
def test_an_extension_test_is_made_case_blind_when_files_have_it_in_another_case(lang: str, code: str) -> None:
    assert _run(lang, code) == "1"
    b = block(code, lang=lang)
    verdict = name_case.check(make_turn(ASK), b)
    assert verdict is not None and ("b.PDF" in verdict.warning or "c.Pdf" in verdict.warning)
    assert _run(lang, b.code) == "3"


def test_left_alone_when_every_file_has_the_codes_case() -> None:
    code = 'import os\nprint([f for f in os.listdir("notes") if f.endswith(".txt")])'
    assert name_case.check(make_turn("list the text files in notes"), block(code)) is None
    blind = 'import os\nprint([f for f in os.listdir("Documents") if f.lower().endswith(".pdf")])'
    assert name_case.check(make_turn(ASK), block(blind)) is None
