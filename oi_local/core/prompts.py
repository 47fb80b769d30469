"""Prompt templates: loaded from the bundled `templates/` folder, filled with a few live facts."""
from __future__ import annotations

import datetime
import os
import platform
from functools import lru_cache
from typing import Any

from oi_local._paths import bundled

TEMPLATE_KEYS = (
    "system_message",
    "execution_instructions",
    "user_message_template",
    "always_apply_user_message_template",
    "code_output_template",
    "empty_code_output_template",
    "code_output_sender",
    "examples",
    "file_hints",  # true: show the first lines of files (and the names in folders) a request names
    "code_first",  # true: a first reply without code (not a question, not a risky request) is asked for code once
    "fresh_retries",  # N: after a failed run answered without a fix, up to N fresh sampled answers
    "max_failed_runs",  # N: a turn stops after N failed runs (0: only max_code_steps stops it)
    "second_opinions",  # N: a question answered cleanly only after a failed run is asked afresh up to N times, until two runs agree
    "recipes",  # N: show the N worked examples from templates/recipes.yaml most like the request
    "prefill_code",  # true: a reply the loop asks code for starts with a code fence (back ends that can continue a reply)
    "error_notes",  # true: a failed run's output ends with a line on what to do about a few common errors
    "computed_answers",  # true: code that only prints typed-in values for a request naming a file is asked afresh once
    "retry_at_once",  # true: after a failed run, a rule's ask for new code is made at once, not after the model's reply
    "system_role",  # false: the chat template has no system role; it goes into the first user turn
    "computer_api",  # what the Computer API offers, for the system message with computer.import_computer_api
)


@lru_cache(maxsize=16)
def load_template_set(name: str) -> dict[str, Any]:
    import yaml

    path = bundled("templates") / f"{name}.yaml"
    if not path.is_file():
        raise ValueError(f"unknown prompt template set {name!r} (no {path})")
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    unknown = set(data) - set(TEMPLATE_KEYS)
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    return data


def fill(text: str, languages: list[str]) -> str:
    """Replace our placeholders only; other braces in user text stay as they are."""
    facts = {
        "{os}": f"{platform.system()} {platform.machine()}",
        "{cwd}": os.getcwd(),
        "{date}": datetime.date.today().isoformat(),
        "{languages}": ", ".join(languages) if languages else "python",
    }
    for key, value in facts.items():
        text = text.replace(key, value)
    return text


def apply_template(template: str, content: str) -> str:
    # str.replace, not str.format: user content and outputs are full of braces.
    return template.replace("{content}", content)
