"""File hints: the first lines of files (and the names in folders) that a request names go with it
(core/hints.py), so the model sees the CSV header or the script it must fix. Never stored."""
from __future__ import annotations

from typing import Any

from oi_local.core.rules.base import Addition, Rule


def prompt(engine: Any, request: str, earlier: str) -> Addition | None:
    from oi_local.core.hints import workspace_hints

    try:
        hint = workspace_hints(request)
        if not hint and earlier:  # "and what is the total?": the files the previous request named, as they are now
            hint = workspace_hints(earlier)
    except OSError:
        hint = ""
    return Addition(hint=hint) if hint else None


rule = Rule(
    name="file hints", setting="file_hints", prompt=prompt,
    summary="the first lines of files (and the names in folders) that a request names go with it, so the model sees "
            "the CSV header or the script it must fix (a data file may be named by its stem alone: \"plot the prices\" "
            "beside prices.csv; a follow-up that names none gets those of the request before "
            "it, as they are now; a Python script comes with the problems pyflakes finds and, where one correction "
            "is obvious, the corrected script); read-only, at most 3 paths under the working folder, never stored in "
            "`messages` (small set: on)")
