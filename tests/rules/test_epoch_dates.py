from __future__ import annotations

import pytest

from oi_local.core.rules import epoch_dates

from .handmade import block, make_turn

ASK = "Make a folder called rehearsals with one empty markdown file per day from 1 to 10 March 2024, named by date."
LOOP = ('from datetime import datetime\nfor i in range(1, 11):\n    day = datetime.fromtimestamp(i).strftime("%Y-%m-%d")\n'
        '    open(f"rehearsals/{day}.md", "w").close()')


def test_a_date_from_a_small_number_is_not_run() -> None:
    turn = make_turn(ASK)
    verdict = epoch_dates.check(turn, block(LOOP))
    assert verdict is not None and verdict.ask is not None and "datetime.fromtimestamp(i) is i seconds after midnight on 1 January 1970" in verdict.note
    assert "timedelta(days=n)" in verdict.note
    assert epoch_dates.check(turn, block(LOOP)) is None  # once a turn


@pytest.mark.parametrize("request_text, code", [
    (ASK, "from datetime import datetime\nprint(datetime.fromtimestamp(1709251200))"),  # a real moment
    (ASK, "import os, datetime\nfor f in os.listdir('.'):\n    print(datetime.datetime.fromtimestamp(os.path.getmtime(f)))"),
    ("what date is unix timestamp 86400?", "from datetime import datetime\nprint(datetime.fromtimestamp(86400))"),
])
def test_left_alone(request_text: str, code: str) -> None:
    assert epoch_dates.check(make_turn(request_text), block(code)) is None
