"""The loop's rules, one file each, in the order the loop asks them (core/loop.py).

To add a rule: write core/rules/<name>.py ending in `rule = Rule(...)` (core/rules/base.py), add it
below, and add tests/rules/test_<name>.py; the README's table must list it (tests/rules/test_registry.py).
To remove one: delete its file, its line here and its README row.
"""
from __future__ import annotations

from typing import Any, Callable

from oi_local.core.rules import (
    answers,
    asked_column,
    averages,
    broken_scripts,
    code_first,
    copied_examples,
    copy_sources,
    counts,
    cut_off,
    data_case,
    date_math,
    date_order,
    deletions,
    destructive,
    directions,
    emptied_files,
    empty_code,
    empty_file,
    empty_leftovers,
    error_notes,
    extensions,
    file_hints,
    file_text,
    first_match,
    fix_asks,
    fix_fragments,
    follow_ups,
    fresh_retries,
    fstrings,
    git_log,
    header_row,
    honest_end,
    json_keys,
    kept_files,
    line_tests,
    long_decimals,
    long_request,
    loop_mode,
    made_up,
    max_rows,
    missing_module,
    name_case,
    named_dates,
    named_folder,
    named_month,
    named_values,
    no_header,
    offline,
    one_name,
    outputs,
    own_values,
    paths,
    per_group,
    picked_names,
    plot_file,
    preview_filters,
    question_writes,
    quoted_numbers,
    quoted_words,
    recipes,
    repeated_code,
    repeated_output,
    repetition,
    rounding,
    run_asked,
    safety_review,
    script_text,
    second_opinions,
    shell_relabel,
    slips,
    sources,
    stock_counts,
    subfolders,
    syntax_slips,
    targets,
    text_numbers,
    text_speak,
    told_numbers,
    top_rows,
    two_numbers,
    unknown_values,
    unused_numbers,
    which_answers,
    whole_folder,
    written_numbers,
)
from oi_local.core.rules.base import Addition, Ask, Rule, Verdict

RULES: tuple[Rule, ...] = (
    # before the request is sent
    text_speak.rule,
    long_request.rule,
    file_hints.rule,
    follow_ups.rule,
    recipes.rule,
    # while the reply streams
    repetition.rule,
    # a code block is about to run
    shell_relabel.rule,
    repeated_code.rule,
    cut_off.rule,
    empty_code.rule,
    fstrings.rule,
    syntax_slips.rule,
    paths.rule,
    git_log.rule,
    named_folder.rule,
    targets.rule,
    subfolders.rule,
    extensions.rule,
    name_case.rule,
    slips.rule,
    whole_folder.rule,
    empty_file.rule,
    text_numbers.rule,
    date_math.rule,
    own_values.rule,
    quoted_numbers.rule,
    directions.rule,
    date_order.rule,
    max_rows.rule,
    named_dates.rule,
    header_row.rule,
    no_header.rule,
    json_keys.rule,
    data_case.rule,
    line_tests.rule,
    asked_column.rule,
    per_group.rule,
    stock_counts.rule,
    copied_examples.rule,
    unknown_values.rule,
    named_values.rule,
    named_month.rule,
    averages.rule,
    quoted_words.rule,
    preview_filters.rule,
    file_text.rule,
    run_asked.rule,
    made_up.rule,
    picked_names.rule,
    first_match.rule,
    unused_numbers.rule,
    written_numbers.rule,
    rounding.rule,
    plot_file.rule,
    fix_fragments.rule,
    safety_review.rule,
    destructive.rule,
    question_writes.rule,
    kept_files.rule,
    copy_sources.rule,
    one_name.rule,
    script_text.rule,
    broken_scripts.rule,
    sources.rule,
    deletions.rule,
    empty_leftovers.rule,  # last: records what the block, as it will run, makes
    emptied_files.rule,  # and copies what it writes
    # after a run (and error notes: a reply without code, below)
    second_opinions.rule,
    repeated_output.rule,
    # a reply without code
    code_first.rule,
    missing_module.rule,
    error_notes.rule,
    fresh_retries.rule,
    fix_asks.rule,
    outputs.rule,
    loop_mode.rule,
    counts.rule,
    which_answers.rule,
    told_numbers.rule,
    two_numbers.rule,
    answers.rule,
    top_rows.rule,
    # the turn ended
    honest_end.rule,
    long_decimals.rule,
    offline.rule,
)

HOOKS = ("start", "prompt", "cut", "language", "check", "recheck", "on_failure", "after_run", "follow_up", "discard", "finish")


def active(engine: Any, hook: str) -> list[Rule]:
    """The rules that are on for this engine and have this hook, in order."""
    return [r for r in RULES if getattr(r, hook) is not None and r.enabled(engine)]


def hooks(engine: Any, hook: str, repeated: bool = False, at_failure: bool = False) -> list[Callable[..., Any]]:
    """That hook of each rule that is on, in order (`repeated`: only the rules with after_repeat;
    `at_failure`: only those with at_failure)."""
    return [getattr(r, hook) for r in active(engine, hook)
            if (r.after_repeat or not repeated) and (r.at_failure or not at_failure)]


__all__ = ["RULES", "HOOKS", "Addition", "Ask", "Rule", "Verdict", "active", "hooks"]
