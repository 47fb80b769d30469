"""Checks on the outcome of a task: the final answer's text, files left behind, command output.

Each check returns a list of failure reasons (empty = pass), phrased for the report.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from sandbox import resolve

_NUM = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w])")
# Thousands separators: 13,464,368,428,112  13 464 368 428 112  13_464_368_428_112  13'464'368
_GROUPED = re.compile(r"(?<![\d.])-?\d{1,3}(?:([,_' \u00a0\u202f])\d{3})(?:\1\d{3})*(?:\.\d+)?(?![\d])")


def numbers_in(text: str) -> list[float]:
    """Every number in the text, with digit groups joined (13,464,368 -> 13464368) and markdown
    emphasis or currency around it ignored."""
    found = [float(m.group(0)) for m in _NUM.finditer(text)]
    for m in _GROUPED.finditer(text):
        sep = m.group(1)
        found.append(float(m.group(0).replace(sep, "")))
    return found


def is_number(expected: Any) -> bool:
    if isinstance(expected, bool):
        return False
    if isinstance(expected, (int, float)):
        return True
    return isinstance(expected, str) and re.fullmatch(r"-?\d+(\.\d+)?", expected.strip()) is not None


def contains(text: str, expected: Any) -> bool:
    """A number matches numerically (any formatting); text matches case-insensitively;
    a list means any one of its alternatives."""
    if isinstance(expected, list):
        return any(contains(text, e) for e in expected)
    if is_number(expected):
        want = float(expected)
        return any(abs(n - want) <= 1e-9 * max(1.0, abs(want)) for n in numbers_in(text))
    return str(expected).lower() in text.lower()


def answer_failures(final_text: str, expected: list[Any], all_output: str = "", turn: int | None = None) -> list[str]:
    out = []
    where = "final answer" if turn is None else f"answer of turn {turn + 1}"
    for e in expected:
        if not contains(final_text, e):
            hint = " (it was only in code output)" if all_output and contains(all_output, e) else ""
            shown = " or ".join(map(repr, e)) if isinstance(e, list) else repr(e)
            out.append(f"{where} lacks {shown}{hint}" if final_text.strip() else f"no {where} text (wanted {shown}){hint}")
    return out


def file_failures(root: Path, specs: list[dict[str, Any]]) -> list[str]:
    out = []
    for spec in specs:
        rel = str(spec["path"])
        p = resolve(root, rel)
        exists = spec.get("exists", True)
        if not exists:
            if p.exists():
                out.append(f"{rel} should not exist")
            continue
        if not p.exists():
            out.append(f"{rel} is missing")
            continue
        if p.is_dir():
            if any(k in spec for k in ("contains", "equals", "not_contains")):
                out.append(f"{rel} is a folder, expected a file")
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        if "equals" in spec and text.rstrip("\n").strip() != str(spec["equals"]).rstrip("\n").strip():
            out.append(f"{rel} content is {text[:80]!r}, expected {str(spec['equals'])[:80]!r}")
        for c in spec.get("contains") or []:
            if str(c).lower() not in text.lower():
                out.append(f"{rel} lacks {c!r}")
        for c in spec.get("not_contains") or []:
            if str(c).lower() in text.lower():
                out.append(f"{rel} still contains {c!r}")
    return out


def not_exists_failures(root: Path, paths: list[str]) -> list[str]:
    return [f"{p} should not exist" for p in paths if resolve(root, str(p)).exists()]


RunCommand = Callable[[str], "tuple[int | None, str]"]


def command_failures(specs: list[Any], run_command: RunCommand) -> list[str]:
    """`specs`: {run: "...", stdout_contains: [...], exit_code: 0} (or a bare command string)."""
    out = []
    for spec in specs:
        if isinstance(spec, str):
            spec = {"run": spec}
        code, stdout = run_command(str(spec["run"]))
        tail = [line.strip() for line in stdout.strip().splitlines() if line.strip()][-2:]
        short = " | ".join(tail)[-160:]  # the end of the output holds the error message
        if code is None:
            out.append(f"`{spec['run']}` timed out")
            continue
        want_code = spec.get("exit_code", 0)
        if want_code is not None and code != want_code:
            out.append(f"`{spec['run']}` exited {code} (output: {short!r})")
            continue
        for c in spec.get("stdout_contains") or []:
            if str(c) not in stdout:
                out.append(f"`{spec['run']}` output lacks {str(c)!r} (got {short!r})")
    return out
