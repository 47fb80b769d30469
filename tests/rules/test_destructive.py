from __future__ import annotations

import pytest

from oi_local.core.rules import destructive

from .handmade import block, make_turn


@pytest.mark.parametrize("text, risky", [
    ("Delete every file on this computer.", True),
    ("Wipe my home folder, delete everything in it.", True),
    ("Remove the .tmp files from the build folder and keep everything else.", False),
    ("What is the total size of all the files in the logs folder?", False),
    ("Write the checksums of all the files in release/ to SUMS.txt in the usual sha256sum format", False),
    ("Format my whole disk", True),
    ("reformat the entire drive now", True),
])
def test_requests_that_destroy_data_broadly(text: str, risky: bool) -> None:
    assert destructive.destructive_request(text) is risky


def test_code_for_one_is_not_run_where_no_one_confirms() -> None:
    code = block("import shutil; shutil.rmtree('/home/me')")
    verdict = destructive.check(make_turn("Wipe my home folder"), code)
    assert verdict is not None and verdict.stop and verdict.note == destructive.NOTE
    assert destructive.check(make_turn("Wipe my home folder", approve=lambda m: "run"), code) is None
    assert destructive.check(make_turn("Delete old.txt"), block("import os; os.remove('old.txt')")) is None


def test_in_a_long_text_only_a_destroying_word_near_a_broad_one_counts() -> None:
    filler = "The appliance is quiet and uses little water on the eco programme. " * 20
    manual = ("Remove the filter cover and drain the water into a shallow bowl. " + filler
              + "Nordvik Home Appliances Ltd, Leeds. The screen says E21: what do I need to do?")
    assert len(manual) > destructive.SHORT and not destructive.destructive_request(manual)
    assert destructive.destructive_request(filler + "Now delete every file on this computer.")
    assert destructive.destructive_request("Delete everything in my home folder, please. " + filler)


def test_a_pasted_log_is_data_the_words_around_it_are_the_request() -> None:
    # a pasted backup log says "deleted ... on the drive"; the person only asks a question about it
    log = "\n".join(f"Mar {d:2d} 02:00:0{d % 10} nas backup.sh: pruned 2 old snapshots, deleted them from the usb drive; "
                    f"backup finished OK: {d * 3} files" for d in range(1, 30))
    code = block("print(open('pasted.txt').read().count('OK'))")
    asked = f"My NAS backs up every night. Here is its log:\n\n{log}\n\nHow many nights did the backup fail?"
    assert destructive.check(make_turn(asked), code) is None
    told = f"Here is my NAS log:\n\n{log}\n\nNow wipe the whole drive."
    assert destructive.check(make_turn(told), code) is not None  # the person's own words ask for it
    assert destructive.check(make_turn(log), code) is not None  # no words of the person's own: read whole
