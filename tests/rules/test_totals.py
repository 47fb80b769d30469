"""Totals: one amount asked, several values printed and no total: asked once for the total."""
from __future__ import annotations

import subprocess
import sys

from oi_local.core.rules import totals

from .handmade import make_turn, ran, reply

PER_FILE = "gateway.log 9\nscheduler.log 3\nworker.log 5\n"


def test_several_values_for_one_amount_are_asked_to_be_added_up() -> None:
    turn = make_turn("how many ERROR lines in the .log files in logs/ mention a timeout?",
                     reply("gateway.log has 9."), runs=(ran("print(n)", PER_FILE),))
    ask = totals.follow_up(turn)
    assert ask is not None and "3 separate values" in str(ask.text) and '"how many ERROR lines in the .log files' in str(ask.text)
    assert totals.follow_up(turn) is None  # once a turn
    episodes = "#8 18\n#63 50\n#44 18\n"
    turn = make_turn("how many minutes did I spend on Deep Field in 2024, and how many episodes was that?",
                     reply("The episode with id 8 was 18 minutes long."), runs=(ran("print(x)", episodes),))
    assert totals.follow_up(turn) is not None


def test_a_breakdown_asked_or_a_total_printed_is_left_alone() -> None:
    for request, output in (("how many ERROR lines does each log file in logs/ have?", PER_FILE),
                            ("how many lines per file are there in logs/?", PER_FILE),
                            ("how many ERROR lines are in logs/?", PER_FILE + "total 17\n"),
                            ("how many ERROR lines are in logs/?", "17\n"),
                            ("which log has the most ERROR lines?", PER_FILE),
                            ("which region brought in the most money in sales.csv? and how much was it?",
                             "East 5566.81\nNorth 2855.8\nSouth 6488.48\n"),
                            ("how many ERROR lines mention a timeout, and which log has the most?", PER_FILE),
                            ("how many files are in logs/?", "gateway.log\nscheduler.log\n")):
        turn = make_turn(request, reply("9"), runs=(ran("print(n)", output),))
        assert totals.follow_up(turn) is None, request


def test_as_many_values_as_questions_are_their_answers() -> None:
    # ho40 (a development run): two questions, two numbers printed, taken for parts of one total
    turn = make_turn("How many words are in lighthouse.txt? And how many times does Marguerite come up in it?",
                     reply("Marguerite came up 4."), runs=(ran("print(n)", "157\nMarguerite came up 4\n"),))
    assert totals.follow_up(turn) is None


def test_a_name_of_the_request_on_one_printed_line_picks_that_line() -> None:
    # ho49 (read after its end): a count per author for "how many commits has Sam made?" is Sam's line,
    # and asked for "one total" the 0.5B model wrote shell text into Python, then read a file never there
    output = "      7 Sam Ortiz\n      4 Lena Fischer\n"
    turn = make_turn("how many commits has Sam made in this repo?", reply("Sam Ortiz has 7 commits."),
                     runs=(ran("git log", output, lang="shell"),))
    assert totals.follow_up(turn) is None
    turn = make_turn("how many commits are in this repo?", reply("7"), runs=(ran("git log", output, lang="shell"),))
    assert totals.follow_up(turn) is not None  # no name: one total of them


def test_one_printed_list_of_numbers_for_a_total_asked_with_together() -> None:
    # ho57: "what do the rest weigh together?" answered by the rest, printed as one list
    turn = make_turn("If I skip the longest one, what do the other runs add up to together?",
                     reply("The runs are [5.2, 3.1, 8.0]."), runs=(ran("print([r for r in runs if r < 10.5])", "[5.2, 3.1, 8.0]\n"),))
    ask = totals.follow_up(turn)
    assert ask is not None and "3 separate values" in str(ask.text)
    for output in ("[5.2]\n", "16.3\n", "[5.2, 3.1, 8.0]\ntotal 16.3\n"):  # one value, a total, a list and its total
        assert totals.follow_up(make_turn("what do the other runs add up to together?", reply("ok"),
                                          runs=(ran("print(x)", output),))) is None


def test_a_total_asked_beside_a_which_question_must_be_printed() -> None:
    # ho58 (session 59's start): the kilos per variety and the top one were printed, and the top one's kilos answered
    request = "Looking at harvest.csv: which variety gave us the most kilos, and how many kilos did we pick in total?"
    per = "{'Discovery': 249.0, 'Cox': 241.9, 'Gala': 216.7}\nDiscovery\n"
    turn = make_turn(request, reply("Discovery, with 249 kilos."), runs=(ran("print(totals)", per),))
    ask = totals.follow_up(turn)
    assert ask is not None and '"how many kilos did we pick in total' in str(ask.text) and "3 separate" in str(ask.text)
    code = ("totals = {}\nfor v, kg in [('Cox', 2.5), ('Gala', 1.0), ('Cox', 0.25)]:\n    totals[v] = totals.get(v, 0) + kg\n"
            "print(dict(totals))\nprint(max(totals, key=totals.get))")
    ask = totals.follow_up(make_turn(request, runs=(ran(code, "{'Cox': 2.75, 'Gala': 1.0}\nCox\n"),)))
    assert ask is not None and ask.own  # the same code, with the total of what it printed
    block = str(ask.text).split("```python\n")[1].split("\n```")[0]
    assert block.startswith(code) and subprocess.run([sys.executable, "-c", block], capture_output=True, text=True,
                                                     check=True).stdout == "{'Cox': 2.75, 'Gala': 1.0}\nCox\ntotal: 3.75\n"
    for output in (per + "total 707.6\n", "[249.0, 241.9, 216.7]\n707.6\n", "Discovery\n"):  # the sum printed; no values listed
        assert totals.follow_up(make_turn(request, runs=(ran("x", output),))) is None, output
    # a which-question alone, or with an amount that is no total, is the top row's
    for alone in ("which variety gave us the most kilos in harvest.csv?",
                  "which variety gave us the most kilos, and how many kilos was that?"):
        assert totals.follow_up(make_turn(alone, runs=(ran("x", per),))) is None, alone
