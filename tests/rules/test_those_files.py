from __future__ import annotations

from pathlib import Path

import pytest

from oi_local.core.rules import those_files

from .handmade import block, make_turn

EARLIER = [{"role": "assistant", "type": "code", "format": "python", "content": "..."},
           {"role": "computer", "type": "console", "format": "output", "content": "march_gas.pdf\nmay_water.pdf\n"},
           {"role": "assistant", "type": "message", "content": "Two bills are unpaid: march_gas.pdf and may_water.pdf."}]
ALL = ('import shutil\nfrom pathlib import Path\nPath("unpaid").mkdir(exist_ok=True)\n'
       'for n in ["march_gas.pdf", "april_power.pdf", "may_water.pdf"]:\n    shutil.move("bills/" + n, "unpaid/" + n)\n')


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "bills").mkdir()
    for n in ("march_gas.pdf", "april_power.pdf", "may_water.pdf"):
        (tmp_path / "bills" / n).write_text("x")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _turn(request: str) -> object:
    turn = make_turn("which bills in bills/ are unpaid?", *EARLIER, {"role": "user", "type": "message", "content": request})
    turn.start = 4
    return turn


def test_files_the_last_output_did_not_list_are_asked_afresh() -> None:
    turn = _turn("move those into a new folder called unpaid")
    verdict = those_files.check(turn, block(ALL))
    assert verdict is not None and verdict.ask is not None and verdict.ask.hide
    assert verdict.note == ("Not run: the request means the files the last output listed, and the code also uses "
                            "april_power.pdf; asked afresh.")
    assert "march_gas.pdf, may_water.pdf. The first try also used april_power.pdf." in str(verdict.ask.text)
    assert those_files.check(turn, block(ALL)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    ("move those into a new folder called unpaid", ALL.replace('"april_power.pdf", ', "")),  # only those
    ("move april_power.pdf and those into unpaid", ALL),  # the request names the other file
    ("move every bill into a new folder called unpaid", ALL),  # not "those"
])
def test_left_alone(request_text: str, code: str) -> None:
    assert those_files.check(_turn(request_text), block(code)) is None
