from __future__ import annotations

from oi_local.core.rules import rounding

from .handmade import block, make_turn


def test_rounding_to_one_decimal_or_none_is_widened_to_the_exact_value() -> None:
    assert rounding.widened("print(round(sum(w) / len(w), 1))") == "print(round(sum(w) / len(w), 10))"
    assert rounding.widened("x = round(t, 0)\nprint(x)") == "x = round(t, 10)\nprint(x)"
    assert rounding.widened("print(round(total / n))") == "print(round(total / n, 10))"
    assert rounding.widened('print(f"Average: {avg:.1f} g")') == 'print(f"Average: {avg:.15g} g")'
    assert rounding.widened('print(f"{avg:,.0f}")') == 'print(f"{avg:,.15g}")'
    assert rounding.widened('print("%.1f" % avg)') == 'print("%.15g" % avg)'
    assert rounding.widened('print("café", round(x / 3, 1))') == 'print("café", round(x / 3, 10))'


def test_the_widened_code_prints_the_exact_value_without_float_noise() -> None:
    for code, printed in (("avg = 219 / 8\nprint(round(avg, 1))", "27.375"),
                          ("print(f'{(0.1 + 0.2):.1f}')", "0.3"),
                          ("print(f'{1234.5:,.0f} kg')", "1,234.5 kg"),
                          ("print('%.1f' % (7 / 4))", "1.75"),
                          ("print(round(2 / 3))", "0.6666666667")):
        out: list[str] = []
        exec(rounding.widened(code), {"print": lambda *a: out.append(" ".join(map(str, a)))})
        assert out == [printed], code


def test_other_code_is_left_as_it_is() -> None:
    for code in ("print(round(x, 2))", "print(round(x, 3))", "print(round(count))", "print(f'{x:.2f}')",
                 "print(len(lines))", "round(", "print(round(x, True))"):
        assert rounding.widened(code) == code, code


def test_only_for_questions_that_did_not_ask_for_rounding() -> None:
    code = "print(round(sum(w) / len(w), 1))"
    turn = make_turn("What is the average loaf weight in bakes.csv?")
    b = block(code)
    verdict = rounding.check(turn, b)
    assert verdict is not None and verdict.warning == rounding.NOTE and not verdict.again
    assert b.code == "print(round(sum(w) / len(w), 10))"  # the code that runs (and is shown to confirm)
    for request in ("What is the average age, rounded to one decimal?", "Roughly how long is a loaf?",
                    "What percentage of orders shipped late?", "Write the average into avg.txt"):
        b = block(code)
        assert rounding.check(make_turn(request), b) is None and b.code == code, request
    assert rounding.check(turn, block("echo $((7 / 2))", "shell")) is None


def test_in_the_loop_the_widened_code_is_what_runs_and_the_person_is_told(tmp_path, monkeypatch) -> None:
    from scripted import scripted_interpreter

    monkeypatch.chdir(tmp_path)
    (tmp_path / "bakes.csv").write_text("loaf,weight_g\na,912.30\nb,912.40\n")
    interp, model = scripted_interpreter([
        "```python\nimport csv\nw = [float(r['weight_g']) for r in csv.DictReader(open('bakes.csv'))]\n"
        "print(round(sum(w) / len(w), 1))\n```", "The average loaf weighs 912.35 g."])
    interp.template = "small"
    try:
        chunks = list(interp.chat("What is the average loaf weight in bakes.csv?", display=False, stream=True))
        assert any(rounding.NOTE in str(c.get("content")) for c in chunks)  # shown, not stored
        assert [m["content"].strip() for m in interp.messages if m["type"] == "console"] == ["912.35"]
        assert "round(sum(w) / len(w), 10)" in [m for m in interp.messages if m["type"] == "code"][0]["content"]
    finally:
        interp.close()


def test_the_decimal_places_a_request_asks_for_are_the_ones_printed() -> None:
    asked = "whats the average star rating the Kettle got in reviews.csv? 2 decimal places pls"
    assert [rounding.asked_places(r) for r in (asked, "to two decimals", "give it in 3dp", "rounded to one decimal",
                                               "the 2 files", "1 decimal for a and 2 decimals for b")] == [2, 2, 3, 1, None, None]
    code = 'print(round(sum(r) / len(r), 1))\nprint(f"{x:.1f} and {y:.2f}")\nprint("%.0f" % z)'
    b = block(code)
    verdict = rounding.check(make_turn(asked), b)
    assert verdict is not None and verdict.warning == ("Rounding set to 2 decimals before it ran, as the request "
                                                       "asks (the code rounded to 0 and 1).")
    assert b.code == 'print(round(sum(r) / len(r), 2))\nprint(f"{x:.2f} and {y:.2f}")\nprint("%.2f" % z)'
    # Already so, or rounding to one decimal asked and done: left alone (a write too: the places are asked).
    for request, code in ((asked, "print(round(a / b, 2))"), ("average, rounded to one decimal?", "print(round(a, 1))")):
        assert rounding.check(make_turn(request), block(code)) is None
    b = block("open('avg.txt', 'w').write(str(round(a, 3)))")
    assert rounding.check(make_turn("write the average into avg.txt with 2 decimals"), b) is not None
    assert b.code == "open('avg.txt', 'w').write(str(round(a, 2)))"


def test_a_round_with_no_places_gets_the_places_asked() -> None:
    from oi_local.core.rules import rounding

    b = block('prices = [2.0, 3.1]\nprint([round(p * 1.10) for p in prices])')
    verdict = rounding.check(make_turn("raise every price in menu.json by 10%, rounded to cents"), b)
    assert verdict is not None and "round(p * 1.10, 2)" in b.code
