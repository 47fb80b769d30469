from __future__ import annotations

from oi_local.core.rules import answers

from .handmade import failed, make_turn, ran, reply

EXAMPLES = [{"role": "user", "content": "What is 1234 * 5678?"}, {"role": "assistant", "content": "1234 * 5678 is 7006652."}]


def test_an_example_answer_copied_word_for_word_is_dropped_and_asked_again() -> None:
    turn = make_turn("Delete old.txt", reply("1234 * 5678  is 7006652."), runs=(ran("import os", ""),),
                     examples=EXAMPLES)
    assert answers.parroted(turn) and answers.rule.discard(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    turn.engine.messages[-1] = reply("old.txt is deleted.")
    assert answers.follow_up(turn) is None


def test_an_answer_with_a_number_only_the_examples_have_is_dropped_and_asked_again() -> None:
    turn = make_turn("How many runners finished under 25 minutes?", reply("The output of the code is 7006652."),
                     runs=(ran("print(n)", "18\n"),), examples=EXAMPLES)
    assert answers.borrowed_numbers(turn, "The output of the code is 7006652.") == {"7006652"}
    assert answers.parroted(turn) and answers.rule.discard(turn)
    # The same number printed by the code, or given in the request, is the conversation's own.
    turn = make_turn("What is 1234 * 5678?", reply("It is 7006652."), runs=(ran("print(1234 * 5678)", "7006652\n"),),
                     examples=EXAMPLES)
    assert not answers.parroted(turn)
    turn = make_turn("Is 7006652 even?", reply("Yes, 7006652 is even."), runs=(ran("print(7006652 % 2)", "0\n"),),
                     examples=EXAMPLES)
    assert not answers.parroted(turn)


LINES = [{"role": "user", "content": 'How many lines of notes.txt mention "urgent"?'},
         {"role": "assistant", "content": 'print(sum(1 for line in open("notes.txt") if "urgent" in line))'},
         {"role": "assistant", "content": '4 lines of notes.txt mention "urgent".'}]


def test_an_answer_about_the_examples_files_and_words_is_dropped_and_asked_again() -> None:
    said = '29 lines of notes.txt mention "urgent".'
    turn = make_turn("how many lines are in all the .py files under src/ together?", reply(said),
                     runs=(ran("print(len(open('src/a.py').read().splitlines()))", "29\n"),), examples=LINES)
    assert answers.borrowed_names(turn, said) == {"notes.txt", "urgent"}
    assert answers.parroted(turn) and answers.rule.discard(turn)
    # The same names in the request, the code or the output are the conversation's own.
    for request, code, out in [('How many lines of notes.txt mention "urgent"?', "print(n)", "29\n"),
                               ("how many lines say urgent?", "print(sum('urgent' in l for l in open('notes.txt')))",
                                "29\n")]:
        turn = make_turn(request, reply(said), runs=(ran(code, out),), examples=LINES)
        assert not answers.borrowed_names(turn, said), request


def test_a_question_answered_without_the_printed_result_is_asked_again() -> None:
    output = "Dana 2300.0\n"
    turn = make_turn("Who earns the most in staff.csv?", reply("The output is correct."),
                     runs=(ran("print(top)", output),))
    assert answers.ungrounded(turn)
    for said in ("Dana earns the most.", "It is 2,300.", "About 2300 for Dana"):
        turn.engine.messages[-1] = reply(said)
        assert not answers.ungrounded(turn), said


def test_a_how_many_question_needs_one_of_the_printed_numbers_not_just_a_shared_word() -> None:
    output = "coming\nYes      21\nNo        7\nMaybe     5\nName: count, dtype: int64\n"
    turn = make_turn("how many people have said yes so far? the answers are in rsvps.csv", reply("Yes, coming."),
                     runs=(ran("print(df['coming'].value_counts())", output),))
    assert answers.ungrounded(turn) and answers.rule.discard(turn)  # said again: the printed counts instead
    for said in ("21 people have said yes.", "Twenty-one said yes: 21."):
        turn.engine.messages[-1] = reply(said)
        assert not answers.ungrounded(turn) and not answers.rule.discard(turn), said
    # not a how-many question: a word of the result is enough
    turn = make_turn("Which answer is most common in rsvps.csv?", reply("Yes is the most common."),
                     runs=(ran("print(df['coming'].value_counts())", output),))
    assert not answers.ungrounded(turn)


def test_numbers_match_when_rounded_and_as_words() -> None:
    turn = make_turn("How many rows does data.csv have?", reply("It has one row."), runs=(ran("print(n)", "1\n"),))
    assert not answers.ungrounded(turn)
    turn = make_turn("What is the mean of data.csv?", reply("About 1.42."), runs=(ran("print(m)", "1.4166666\n"),))
    assert not answers.ungrounded(turn)


def test_without_a_run_or_for_a_task_nothing_is_asked() -> None:
    assert answers.follow_up(make_turn("Who earns the most in staff.csv?", reply("Dana."))) is None
    turn = make_turn("Write hello into a.txt", reply("Done."), runs=(ran("open('a.txt','w').write('hello')", "5\n"),))
    assert answers.follow_up(turn) is None


def test_a_result_rounded_away_unasked_is_asked_again_then_gives_way_to_the_output() -> None:
    turn = make_turn("What is the average price in prices.csv?", reply("The average price is 2.5."),
                     runs=(ran("print(avg)", "2.51\n"),))
    assert not answers.ungrounded(turn)  # 2.5 is 2.51 rounded: grounded, but not the answer
    assert answers.rounded(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    assert answers.rule.discard(turn)  # said again: the printed result is shown instead
    for said in ("The average price is 2.51.", "It is 2.51 (about 2.5)."):
        turn.engine.messages[-1] = reply(said)
        assert not answers.rounded(turn) and answers.follow_up(turn) is None, said


def test_rounding_kept_when_asked_for_or_beyond_two_decimals() -> None:
    turn = make_turn("What is the average price, to one decimal?", reply("It is 2.5."), runs=(ran("print(a)", "2.51\n"),))
    assert not answers.rounded(turn)
    turn = make_turn("What is the mean of data.csv?", reply("About 1.42."), runs=(ran("print(m)", "1.4166666\n"),))
    assert not answers.rounded(turn)  # two decimals kept: enough
    turn = make_turn("How far did I drive in total?", reply("You drove 1358 km."), runs=(ran("print(t)", "1358.3\n"),))
    assert answers.rounded(turn)
    turn = make_turn("How many orders are there?", reply("There are 12 orders."), runs=(ran("print(n)", "12.0\n"),))
    assert not answers.rounded(turn)  # 12.0 is 12
    turn = make_turn("What's my average ride?", reply("Your average ride is 27.38 km."), runs=(ran("print(a)", "27.375\n"),))
    assert answers.rounded(turn)  # three decimals are the exact value: kept whole
    turn.engine.messages[-1] = reply("Your average ride is 27.375 km.")
    assert not answers.rounded(turn)


def test_an_answer_blind_to_the_failed_run_is_asked_again_then_gives_way() -> None:
    refused = "Traceback (most recent call last):\nConnectionRefusedError: [Errno 111] Connection refused"
    turn = make_turn("Run sync_stock.py to push the stock levels", reply("The stock levels were synced."),
                     runs=(failed("subprocess.run(['python3', 'sync_stock.py'], check=True)", refused),))
    assert answers.blind_to_failure(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    assert answers.rule.discard(turn)
    for said in ("It failed: the till server refused the connection.", "I could not reach the till server.",
                 "Should I try another address?"):
        turn.engine.messages[-1] = reply(said)
        assert not answers.blind_to_failure(turn) and answers.follow_up(turn) is None, said
    ok = make_turn("Run sync_stock.py", reply("Synced 5 items."), runs=(ran("print('Synced 5 items')", "Synced 5 items\n"),))
    assert not answers.blind_to_failure(ok)


def test_a_reply_that_repeats_the_loops_note_is_dropped_with_or_without_a_run() -> None:
    note = ("Not run: this code changes notes.txt, but the request only asks a question. Write code that "
            "reads the files and prints the answer, without writing to any file.")
    for runs in ((), (ran("print(1)", "1\n"),)):
        turn = make_turn("How many lines are in notes.txt?", reply("Not run: this code changes notes.txt, but the "
                                                                    "request only asks a question."), runs=runs)
        turn.notes.append(note)
        assert answers.repeats_a_note(turn) and answers.rule.discard(turn)
        ask = answers.follow_up(turn)
        assert ask is not None and ask.final
        assert answers.follow_up(turn) is None or runs, "asked once when nothing ran"
    reworded = make_turn("How many lines are in notes.txt?",
                         reply("The code does not change notes.txt, but the request only asks a question."))
    reworded.notes.append(note)
    assert answers.repeats_a_note(reworded)
    turn = make_turn("How many lines are in notes.txt?", reply("notes.txt has 38 lines."))
    turn.notes.append(note)
    assert not answers.repeats_a_note(turn) and answers.follow_up(turn) is None
    short = make_turn("Hi", reply("Not done."))
    short.notes.append("Not done.")  # a note too short to tell a copy from a reply
    assert not answers.repeats_a_note(short)


def test_a_long_stretch_of_the_request_said_back_is_asked_for_once_more() -> None:
    log = "\n".join(f"2025-11-{d:02d} backup finished with 0 errors in {d * 3} seconds on host nas-{d}" for d in range(1, 9))
    request = f"Here is my backup log:\n\n{log}\n\nWhen did the nightly job on nas-4 end?"
    turn = make_turn(request, reply(log), runs=(ran("print(open('message.txt').read())", log),))
    assert answers.dumped(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    assert answers.follow_up(turn) is None  # once a turn
    turn.engine.messages[-1] = reply("It finished on 2025-11-04, in 12 seconds.")
    assert not answers.dumped(turn)
    # lines of an output given as the answer to a question about them: not said back from the request
    lines = "\n".join(f"line {i}: ERROR disk quota exceeded on volume {i}" for i in range(6))
    which = make_turn("Which lines of app.log mention ERROR?", reply(lines), runs=(ran("grep(...)", lines),))
    assert not answers.dumped(which)


def test_the_first_line_of_a_printed_list_alone_is_asked_again_then_gives_way() -> None:
    output = "Codenames\nTicket to Ride\nDixit\n"
    turn = make_turn("which games in games.json take 5 players?", reply("Codenames"), runs=(ran("print(g)", output),))
    assert answers.cut_short(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final and answers.rule.discard(turn)
    # In a short sentence around it, naming no other line, it is the same answer.
    pdfs = "documents/car/insurance.pdf\ndocuments/housing/2023/Tenancy_Agreement.pdf\n"
    found = make_turn("where is my tenancy agreement pdf?", reply("documents/car/insurance.pdf is in documents/car/insurance.pdf."),
                      runs=(ran("print(p)", pdfs),))
    assert answers.cut_short(found)
    for said in ("Codenames, Ticket to Ride and Dixit.", "Three games: Codenames, Ticket to Ride, Dixit",
                 "Codenames is the only one with a 5-player box; Dixit needs 6."):
        turn.engine.messages[-1] = reply(said)
        assert not answers.cut_short(turn) and answers.follow_up(turn) is None, said
    # One line printed, the same line twice, a failed run, or not a question: left alone.
    for request, out, said in (("which game is longest?", "Catan\n", "Catan"), ("which game?", "Dixit\nDixit\n", "Dixit"),
                               ("print the games in games.json", output, "Codenames")):
        assert not answers.cut_short(make_turn(request, reply(said), runs=(ran("print(g)", out),))), request
    assert not answers.cut_short(make_turn("which games?", reply("Codenames"), runs=(failed("x", output),)))


def test_fewer_of_the_asked_number_of_printed_lines_is_asked_again() -> None:
    output = "media/holiday_2024.mp4: 1800000 bytes\nmedia/old_phone_backup.zip: 950000 bytes\nmedia/notes.txt: 49 bytes\n"
    request = "whats hogging all the space in media/ ? just tell me the 3 biggest files, dont delete anything"
    short = make_turn(request, reply("The largest files in media/ are media/holiday_2024.mp4 and media/old_phone_backup.zip."),
                      runs=(ran("print(...)", output),))
    assert answers.cut_short(short)
    ask = answers.follow_up(short)
    assert ask is not None and ask.final
    for said in ("holiday_2024.mp4 (1.8 MB), old_phone_backup.zip (950 KB) and notes.txt (49 bytes).",
                 "The 3 biggest: media/holiday_2024.mp4, media/old_phone_backup.zip, media/notes.txt"):
        assert not answers.cut_short(make_turn(request, reply(said), runs=(ran("print(...)", output),))), said
    # not asked for a number of them, or a different number printed: not this check
    plain = request.replace("the 3 biggest files", "the biggest files")
    assert not answers.cut_short(make_turn(plain, reply("holiday_2024.mp4 and old_phone_backup.zip are the biggest."),
                                           runs=(ran("print(...)", output),)))
    two = make_turn(request.replace("3", "two"), reply("holiday_2024.mp4 is the biggest."), runs=(ran("print(...)", output),))
    assert not answers.cut_short(two)


def test_one_of_two_amounts_asked_and_printed_is_asked_again() -> None:
    request = "How many lines are in diary.txt? And how many times does Rosalind come up in it?"
    output = "212\nRosalind: 6\n"
    half = make_turn(request, reply("Rosalind comes up 6 times."), runs=(ran("print(...)", output),))
    assert answers.cut_short(half) and answers.rule.discard(half)
    for said in ("diary.txt has 212 lines and Rosalind comes up 6 times.", "212 lines; Rosalind: 6"):
        assert not answers.cut_short(make_turn(request, reply(said), runs=(ran("print(...)", output),))), said
    one = "How many lines are in diary.txt?"  # one amount asked: a second printed line is not a second answer
    assert not answers._one_of_two(one, output, "212 lines.")


def test_a_how_many_answer_with_another_number_than_printed_gives_way_the_second_time() -> None:
    turn = make_turn("And how many mm more rain did it get than the driest month?",
                     reply("The wettest month is March with 70.3 mm more rain than the driest month."),
                     runs=(ran("print(wettest - driest)", "93.5\n"),))
    assert answers.contradicted(turn) and answers.ungrounded(turn)
    assert answers.rule.discard(turn)  # said again after the ask: the printed 93.5 is shown instead
    for said in ("March got 93.5 mm more.", "About 94 mm more.", "It got more rain than the driest month."):
        turn.engine.messages[-1] = reply(said)
        assert not answers.contradicted(turn), said
    # not how many or how much: a number said beside the result is not a contradiction
    turn = make_turn("Which month was the wettest?", reply("March, with 120 mm."), runs=(ran("print(m)", "March\n"),))
    assert not answers.contradicted(turn)


def test_numbers_inside_printed_paths_do_not_make_an_answer_a_contradiction() -> None:
    out = "copied notes/2024/feb.md to backup\ncopied notes/2024/jan.md to backup\ncopied notes/ideas.md to backup\n"
    turn = make_turn("copy every .md file from notes into backup. how many did you copy?", reply("I copied 3 files."),
                     runs=(ran("...", out),))
    assert not answers.contradicted(turn)


def test_a_reply_that_says_back_the_description_of_a_chart_is_dropped() -> None:
    from oi_local.core.convert import Templates, to_chat

    msgs = [{"role": "user", "type": "message", "content": "plot greenhouse.csv, and which day was the hottest?"},
            {"role": "assistant", "type": "code", "format": "python", "content": "plt.savefig('g.png')"},
            {"role": "computer", "type": "console", "format": "output", "content": "Hottest: 2024-06-14\n"},
            {"role": "computer", "type": "image", "format": "base64.png", "content": "AAAA"}]
    shown = to_chat(msgs, Templates(), describe=lambda m: "(read by OCR:)\nTemperaturevsDay\n30\n29")[-1]["content"]
    copied = shown[shown.index("(The code produced") + 1:].rstrip(")")  # what the model was given, said back
    turn = make_turn(msgs[0]["content"], reply(copied), runs=(ran("plt.savefig('g.png')", "Hottest: 2024-06-14\n"),))
    assert answers.repeats_a_note(turn) and answers.rule.discard(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final
    turn = make_turn(msgs[0]["content"], reply("The hottest day was 2024-06-14; the chart shows what they show."),
                     runs=(ran("plt.savefig('g.png')", "Hottest: 2024-06-14\n"),))
    assert not answers.repeats_a_note(turn)


def test_an_answer_for_each_group_that_names_one_of_them_is_asked_again() -> None:
    table = "route\nHill climb    11.95\nPark loop      5.33\nRiverside      8.33\nName: km, dtype: float64\n"
    asked = "runs.csv is my running diary. what's the average distance of a run on each route I do?"
    run = ran("print(df.groupby('route')['km'].mean())", table)
    turn = make_turn(asked, reply("The average distance of a run on each route is 11.95 km."), runs=(run,))
    assert answers.cut_short(turn) and answers.rule.discard(turn)
    whole = make_turn(asked, reply("Hill climb: 11.95 km, Park loop: 5.33 km, Riverside: 8.33 km."), runs=(run,))
    assert not answers.cut_short(whole)
    one = make_turn("what's the average distance of my runs?", reply("11.95 km."), runs=(run,))  # not each
    assert not answers.cut_short(one)


def test_an_example_answer_before_any_code_ran_is_asked_for_code() -> None:
    fixed = [{"role": "user", "content": "app.py crashes. Fix it."},
             {"role": "assistant", "content": "I fixed app.py (it used `price` instead of `prices`); it now prints 12."}]
    turn = make_turn("mileage.py crashes on the new trips.csv; fix it and run it",
                     reply("I fixed app.py (it used `date` instead of `date`); it now prints 12."), examples=fixed)
    ask = answers.follow_up(turn)
    assert ask is not None and not ask.final and "no code has run" in (ask.text or "") and ask.sampling.get("temperature")
    assert answers.follow_up(turn) is None  # once a turn
    mine = make_turn("mileage.py crashes; fix it", reply("Which file is it in?"), examples=fixed)
    assert answers.follow_up(mine) is None


def test_a_which_answer_with_the_amount_but_not_the_printed_name_is_asked_again_then_gives_way() -> None:
    output = "Longest chapter: 03_storm.txt, 210 words\n"
    request = "Which chapter in book/ is the longest in words, and how many words is it?"
    turn = make_turn(request, reply("The longest chapter in words is 210 words."), runs=(ran("print(x)", output),))
    assert answers.unnamed(turn)
    ask = answers.follow_up(turn)
    assert ask is not None and ask.final and answers.rule.discard(turn)
    for said in ("03_storm.txt is the longest, with 210 words.", "Chapter 3 (storm): 210 words."):
        turn.engine.messages[-1] = reply(said)
        assert not answers.unnamed(turn), said
    top = make_turn("Who sold the most in sales.csv, and how much?", reply("The most was 1931.83."),
                    runs=(ran("print(x)", "Priya 1931.83\n"),))
    assert not answers.unnamed(top)  # a line's first word may be a label ("Total: 5"): not taken for the name
    named = make_turn("Who sold the most in sales.csv, and how much?", reply("The most was 1931.83."),
                      runs=(ran("print(x)", "Top seller: Priya with 1931.83\n"),))
    assert answers.unnamed(named)
    # not a which-question, or a label only: left alone
    assert not answers.unnamed(make_turn("How many words are in book/?", reply("There are 210 words."),
                                         runs=(ran("print(x)", "Total words in Book: 210\n"),)))
    assert not answers.unnamed(make_turn("Which month was wettest?", reply("It rained 93.5 mm."),
                                         runs=(ran("print(x)", "rainfall: 93.5 mm\n"),)))


def test_the_thing_on_a_largest_line_must_be_in_the_answer() -> None:
    output = "date\n2024-11    139.60\n2024-12    136.10\n2024-01    131.75\n2024-02    124.20\nlargest: 2024-11 139.6\ntotal: 1229.75\n"
    request = "which month in 2024 had my biggest electricity bill in utilities.csv? and the total for 2024?"
    turn = make_turn(request, reply("The largest bill was in June 2024, $139.60; in all $1229.75."), runs=(ran("x", output),))
    assert answers.unnamed(turn) and answers.rule.discard(turn)
    for said in ("November 2024 had the biggest bill (139.60); 1229.75 in all.", "2024-11: 139.6, total 1229.75"):
        turn.engine.messages[-1] = reply(said)
        assert not answers.unnamed(turn), said


def test_asked_how_much_the_largest_lines_value_must_be_said_too() -> None:
    output = "order_date\n2025-03    651.85\n2025-02    594.99\n2025-01    450.40\n2025-04    426.35\nlargest: 2025-03 651.85\n"
    request = "Looking at sales.csv, which month brought in the most money, and how much was it?"
    turn = make_turn(request, reply("The largest order date in sales.csv is 2025-03."), runs=(ran("x", output),))
    assert answers.unnamed(turn)
    turn.engine.messages[-1] = reply("March 2025 brought in the most: 651.85.")
    assert not answers.unnamed(turn)


def test_one_or_two_sentences_of_the_request_quoted_as_the_answer_are_not_said_back() -> None:
    chat = "\n".join(f"[0{d}/05/2025, 10:0{d}] Ana: nothing new from me today, see you all soon" for d in range(1, 9))
    chat += "\n[12/05/2025, 09:15] Ben: Next meeting is Friday 6 June at 8pm, in the back room of the Crown on Mill Street. "
    chat += "Bring snacks and your copy of the book, and tell me if you need a lift from the station."
    request = f"our group chat:\n\n{chat}\n\nwhen and where is the next meeting?"
    quoted = chat.splitlines()[-1].split("Ben: ")[1]
    assert len(quoted) > answers.MIN_DUMP
    turn = make_turn(request, reply(quoted), runs=(ran("print(...)", quoted),))
    assert not answers.dumped(turn)
    three = "\n".join(chat.splitlines()[-3:])
    assert answers.dumped(make_turn(request, reply(three), runs=(ran("print(...)", three),)))
