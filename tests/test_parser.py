"""Tests for the streaming code-block parser (oi_local.llm.parser)."""
from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oi_local.llm.parser import DEFAULT_ALIASES, CodeBlockParser


# --- helpers -------------------------------------------------------------------------------------
def events(text: str | list[str], **kw) -> list[dict]:
    """Feed text (or a list of chunks) and finish; check the event stream is well formed."""
    p = CodeBlockParser(**kw)
    out: list[dict] = []
    for chunk in [text] if isinstance(text, str) else text:
        out += p.feed(chunk)
    out += p.finish()
    check_well_formed(out)
    return out


def check_well_formed(evs: list[dict]) -> None:
    open_block: tuple[str, str | None] | None = None
    for ev in evs:
        key = (ev["type"], ev.get("format"))
        assert ev["type"] in ("message", "code")
        assert "role" not in ev
        if ev.get("start"):
            assert open_block is None, f"nested start {ev}"
            open_block = key
        elif ev.get("end"):
            assert open_block == key, f"end without matching start {ev}"
            if ev["type"] == "code":
                assert isinstance(ev["closed"], bool)
            open_block = None
        else:
            assert open_block == key, f"content outside its block {ev}"
            assert isinstance(ev["content"], str) and ev["content"] != "", f"empty content {ev}"
    assert open_block is None, "a block was never ended"


def merge(evs: list[dict]) -> list[dict]:
    """Merge adjacent content events of the same block (chunking may split content anywhere)."""
    out: list[dict] = []
    for ev in evs:
        if "content" in ev and out and "content" in out[-1] and out[-1]["type"] == ev["type"] \
                and out[-1].get("format") == ev.get("format"):
            out[-1] = {**out[-1], "content": out[-1]["content"] + ev["content"]}
        else:
            out.append(dict(ev))
    return out


def blocks(evs: list[dict]) -> list[tuple]:
    """Summarise as [("message", text)] / [("code", lang, code, closed)]."""
    out: list[tuple] = []
    for ev in evs:
        if ev.get("start"):
            cur = {"type": ev["type"], "format": ev.get("format"), "text": ""}
        elif "content" in ev:
            cur["text"] += ev["content"]
        elif ev.get("end"):
            if cur["type"] == "message":
                out.append(("message", cur["text"]))
            else:
                out.append(("code", cur["format"], cur["text"], ev["closed"]))
    return out


def parse(text: str | list[str], **kw) -> list[tuple]:
    return blocks(events(text, **kw))


def code(lang: str, body: str, closed: bool = True) -> tuple:
    return ("code", lang, body, closed)


def msg(text: str) -> tuple:
    return ("message", text)


def check_all_splits(text: str, **kw) -> list[tuple]:
    """Whole, char-by-char and every two-way split give the same merged events."""
    whole = merge(events(text, **kw))
    assert merge(events(list(text), **kw)) == whole
    for i in range(len(text) + 1):
        assert merge(events([text[:i], text[i:]], **kw)) == whole, f"split at {i}: {text[:i]!r}|{text[i:]!r}"
    return blocks(whole)


# --- plain prose and single blocks ---------------------------------------------------------------
def test_empty_reply_gives_no_events():
    assert events("") == []
    assert events(["", "", ""]) == []


def test_plain_prose_is_one_message_verbatim():
    text = "Hello! I can help.\n\nLet me think about `this` for a second.  \n"
    assert parse(text) == [msg(text)]


def test_event_shapes():
    evs = merge(events("Hi\n```python\nx = 1\n```\n"))
    assert evs == [
        {"type": "message", "start": True},
        {"type": "message", "content": "Hi\n"},
        {"type": "message", "end": True},
        {"type": "code", "format": "python", "start": True},
        {"type": "code", "format": "python", "content": "x = 1"},
        {"type": "code", "format": "python", "end": True, "closed": True},
    ]


def test_one_block():
    assert parse("```python\nprint(1)\nprint(2)\n```") == [code("python", "print(1)\nprint(2)")]


def test_prose_block_prose():
    text = "Let me list files.\n```bash\nls -la\n```\nThat shows them."
    assert check_all_splits(text) == [msg("Let me list files.\n"), code("shell", "ls -la"), msg("That shows them.")]


def test_two_blocks_with_prose_between_and_after():
    text = "First:\n```py\na = 1\n```\nthen:\n```sh\necho $a\n```\nDone!\n"
    assert check_all_splits(text) == [
        msg("First:\n"), code("python", "a = 1"), msg("then:\n"), code("shell", "echo $a"), msg("Done!\n"),
    ]


def test_whitespace_only_segments_between_blocks_are_dropped():
    text = "\n\n```py\na\n```\n\n  \n```sh\nls\n```\n\n"
    assert check_all_splits(text) == [code("python", "a"), code("shell", "ls")]


def test_whitespace_kept_inside_prose_segments():
    text = "\n  Intro\n\n```py\na\n```\n\nOutro  \n\n"
    assert parse(text) == [msg("\n  Intro\n\n"), code("python", "a"), msg("\nOutro  \n\n")]


def test_tilde_fences():
    assert check_all_splits("~~~python\nx = '```'\n~~~\nok") == [code("python", "x = '```'"), msg("ok")]


def test_tilde_line_does_not_close_backtick_fence():
    assert parse("```py\n~~~\n```") == [code("python", "~~~")]


def test_indented_fence_in_a_list_strips_that_indent():
    text = "Steps:\n1. Install it:\n   ```bash\n   pip install rich\n     echo indented\n   ```\n2. Done\n"
    assert check_all_splits(text) == [
        msg("Steps:\n1. Install it:\n"),
        code("shell", "pip install rich\n  echo indented"),
        msg("2. Done\n"),
    ]


def test_indent_strip_never_more_than_present():
    assert parse("    ```python\n  x = 1\nif y:\n        z()\n    ```") == [code("python", "x = 1\nif y:\n    z()")]


@pytest.mark.parametrize(
    "label, lang",
    [("py", "python"), ("python", "python"), ("python3", "python"), ("Python", "python"), ("py3", "python"),
     ("ipython", "python"), ("sh", "shell"), ("bash", "shell"), ("zsh", "shell"), ("console", "shell"),
     ("shell", "shell"), ("terminal", "shell"), ("js", "javascript"), ("node", "javascript"),
     ("javascript", "javascript"), ("nodejs", "javascript"), ("{.python}", "python"), (".py", "python"),
     ("{python}", "python"), ("python title=x.py", "python"), ("  bash  {.numberLines}", "shell")],
)
def test_aliases_and_info_strings(label, lang):
    assert parse(f"```{label}\nbody\n```\n") == [code(lang, "body")]


def test_default_aliases_cover_the_three_families_only():
    assert set(DEFAULT_ALIASES.values()) == {"python", "shell", "javascript"}
    for alias in ("py", "python3", "bash", "zsh", "console", "js", "node", "mjs", "cjs"):
        assert alias in DEFAULT_ALIASES
    for not_alias in ("pycon", "cmd", "powershell", "json", "html", "ruby", "r"):
        assert not_alias not in DEFAULT_ALIASES


@pytest.mark.parametrize("label", ["json", "text", "output", "yaml", "csv", "plaintext", "diff", "html", "ruby"])
def test_unknown_label_stays_prose_verbatim(label):
    text = f"Result:\n```{label}\n{{\"a\": 1}}\n```python\nprint(1)\n```\nafter\n"
    # the inner ```python is an info-string fence line: it neither closes nor opens anything
    assert check_all_splits(text) == [msg(text)]


def test_caller_aliases_replace_the_defaults():
    aliases = {"ruby": "ruby", "rb": "ruby", "python": "python"}
    assert parse("```rb\nputs 1\n```\n```python\nx\n```\n```sh\nls\n```\n", aliases=aliases) == [
        code("ruby", "puts 1"), code("python", "x"), msg("```sh\nls\n```\n"),
    ]
    assert parse("```RB\nputs 1\n```", aliases={"RB": "Ruby"}) == [code("Ruby", "puts 1")]


def test_language_name_inside_code_is_untouched():
    text = "```python\nprint('python is fun')\n```"
    assert check_all_splits(text) == [code("python", "print('python is fun')")]


def test_language_label_split_across_deltas():
    assert parse(["``", "`py", "thon\nx = 1\n``", "`\n"]) == [code("python", "x = 1")]
    assert parse(["```py", "thon3", "\nx = 1\n```"]) == [code("python", "x = 1")]


# --- unlabeled fences --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "first, lang",
    [("ls -la", "shell"), ("$ echo hi", "shell"), ("#!/bin/bash", "shell"), ("#!/bin/sh", "shell"),
     ("pip install requests", "shell"), ("apt-get install -y curl", "shell"), ("python3 script.py", "shell"),
     ("git status", "shell"), ("pwd", "shell"), ("cd /tmp && ls", "shell"), ("npm i", "shell"),
     ("console.log('hi')", "javascript"), ("const x = 1;", "javascript"), ("let y = 2", "javascript"),
     ("function f() {}", "javascript"), ("require('fs')", "javascript"),
     ("print('hello')", "python"), ("import os", "python"), ("cat = 5", "python"), ("lsblk_count = 1", "python"),
     ("x = 1", "python"), ("#!/usr/bin/env python3", "python")],
)
def test_unlabeled_fence_is_guessed(first, lang):
    text = f"Try:\n```\n{first}\nmore\n```\n"
    assert check_all_splits(text) == [msg("Try:\n"), code(lang, f"{first}\nmore")]


def test_unlabeled_guess_uses_first_non_empty_line_and_keeps_blank_lines():
    assert parse("```\n\n   \nls\n```") == [code("shell", "\n   \nls")]


def test_dollar_prompt_is_not_stripped():
    assert parse("```\n$ ls\n$ pwd\n```") == [code("shell", "$ ls\n$ pwd")]


def test_unlabeled_without_guessing_is_prose():
    text = "See:\n```\nls -la\n```\nok"
    assert parse(text, guess_unlabeled=False) == [msg(text)]


def test_unlabeled_blank_block_is_prose():
    assert parse("a\n```\n\n```\nb") == [msg("a\n```\n\n```\nb")]


def test_unlabeled_unclosed_at_end_of_stream():
    assert parse("```\nls") == [code("shell", "ls", closed=False)]
    assert parse("x\n```\n") == [msg("x\n```\n")]


# --- fence edge cases --------------------------------------------------------------------------
def test_unclosed_fence_at_end_is_not_closed():
    assert parse("Here:\n```python\nfor i in range(3):\n    print(i)\n") == [
        msg("Here:\n"), code("python", "for i in range(3):\n    print(i)", closed=False),
    ]


def test_opening_fence_at_very_end_gives_empty_unclosed_block():
    assert parse("Here:\n```python") == [msg("Here:\n"), code("python", "", closed=False)]


def test_empty_labeled_block():
    assert parse("```python\n```\nok") == [code("python", ""), msg("ok")]


def test_closing_fence_with_trailing_spaces_and_split():
    assert parse(["```sh\nls\n`", "``  ", " \t\nafter"]) == [code("shell", "ls"), msg("after")]


def test_closing_fence_with_text_after_is_code():
    assert parse("```py\nx\n```not a fence\n```") == [code("python", "x\n```not a fence")]


def test_closing_fence_may_be_longer_and_indented():
    assert parse("```py\nx\n  `````\ny") == [code("python", "x"), msg("y")]


def test_four_backtick_fence_contains_three_backtick_lines():
    text = "````markdown\n```python\nx\n```\n````\n````python\ns = '''\n```\n'''\n````\n"
    assert check_all_splits(text) == [
        msg("````markdown\n```python\nx\n```\n````\n"),
        code("python", "s = '''\n```\n'''"),
    ]


def test_fence_line_with_info_string_inside_code_is_content():
    assert parse("```python\nx = 1\n```python\ny = 2\n```\n") == [code("python", "x = 1\n```python\ny = 2")]


def test_partial_closing_fence_at_end_is_code():
    assert parse("```python\nx = 1\n``") == [code("python", "x = 1\n``", closed=False)]
    assert parse("```python\nx = 1\n```") == [code("python", "x = 1", closed=True)]


def test_inline_triple_backticks_in_prose_are_not_a_fence():
    text = "```print(1)``` is inline code\nand `x` too\n"
    assert check_all_splits(text) == [msg(text)]


def test_inline_backticks_preserved_in_prose_and_code():
    text = "Use `ls` or ``x`` or ```` here, ~~strike~~.\n```sh\nX=`date`; echo \"``\" ```\n```\nThen `done`."
    assert check_all_splits(text) == [
        msg("Use `ls` or ``x`` or ```` here, ~~strike~~.\n"),
        code("shell", "X=`date`; echo \"``\" ```"),
        msg("Then `done`."),
    ]


def test_crlf_line_endings():
    text = "Run:\r\n```python\r\nx = 1\r\nprint(x)\r\n```\r\nok\r\n"
    assert check_all_splits(text) == [msg("Run:\r\n"), code("python", "x = 1\r\nprint(x)"), msg("ok\r\n")]


def test_cr_split_from_lf_inside_code():
    assert parse(["```py\r", "\nx\r", "\ny\r", "\n```\r", "\n"]) == [code("python", "x\r\ny")]


def test_lone_cr_inside_code_is_kept():
    assert parse("```py\na\rb\n```") == [code("python", "a\rb")]


def test_tab_indented_fence_is_prose():
    assert parse("\t```python\n\tx\n") == [msg("\t```python\n\tx\n")]


def test_unicode_everywhere():
    text = "Voilà — 日本語 😀\n```python\nprint('héllo 世界 🐍')\n```\nFin ✓"
    assert check_all_splits(text) == [
        msg("Voilà — 日本語 😀\n"), code("python", "print('héllo 世界 🐍')"), msg("Fin ✓"),
    ]


def test_parser_is_reusable_after_finish():
    p = CodeBlockParser()
    first = p.feed("```py\nx") + p.finish()
    second = p.feed("hello") + p.finish()
    assert blocks(first) == [code("python", "x", closed=False)]
    assert blocks(second) == [msg("hello")]


def test_code_streams_before_the_block_closes():
    p = CodeBlockParser()
    evs = p.feed("```python\nprint(1)\nprint(2)")
    assert {"type": "code", "format": "python", "start": True} in evs
    assert "".join(e.get("content", "") for e in evs) == "print(1)\nprint(2)"
    # the newline ending a code line is held until the next line proves it is code
    evs = p.feed("\n")
    assert evs == []
    assert "".join(e.get("content", "") for e in p.feed("x")) == "\nx"


def test_prose_streams_without_waiting_for_newline():
    p = CodeBlockParser()
    assert merge(p.feed("Hello wor")) == [{"type": "message", "start": True}, {"type": "message", "content": "Hello wor"}]
    # backticks in the middle of a line cannot start a fence, so they are not held back
    assert p.feed("``") == [{"type": "message", "content": "``"}]


def test_only_ambiguous_line_starts_are_held():
    p = CodeBlockParser()
    assert merge(p.feed("Hi\n")) == [{"type": "message", "start": True}, {"type": "message", "content": "Hi\n"}]
    assert p.feed("  ``") == []  # could still become an indented fence
    assert merge(p.feed("x")) == [{"type": "message", "content": "  ``x"}]
    assert merge(p.feed(" `y`")) == [{"type": "message", "content": " `y`"}]


# --- JSON tool calls written as text -------------------------------------------------------------
TOOL = {"name": "execute", "arguments": {"language": "python", "code": "import os\nprint(os.getcwd())"}}


def test_bare_json_tool_call_becomes_code():
    text = json.dumps(TOOL)
    assert check_all_splits(text) == [code("python", "import os\nprint(os.getcwd())")]


def test_pretty_printed_json_tool_call_after_prose():
    text = "I'll run it:\n" + json.dumps(TOOL, indent=2) + "\nDone."
    assert check_all_splits(text) == [msg("I'll run it:\n"), code("python", "import os\nprint(os.getcwd())"), msg("Done.")]


def test_json_tool_call_inside_json_fence():
    text = "Call:\n```json\n" + json.dumps(TOOL, indent=2) + "\n```\nok"
    assert check_all_splits(text) == [msg("Call:\n"), code("python", "import os\nprint(os.getcwd())"), msg("ok")]


def test_json_tool_call_inside_unlabeled_fence():
    text = "```\n" + json.dumps(TOOL) + "\n```"
    assert parse(text) == [code("python", "import os\nprint(os.getcwd())")]
    assert parse(text, guess_unlabeled=False) == [code("python", "import os\nprint(os.getcwd())")]


def test_json_tool_call_with_arguments_as_string():
    call = {"name": "run_code", "arguments": json.dumps({"lang": "bash", "code": "ls -la | wc -l"})}
    assert check_all_splits(json.dumps(call)) == [code("shell", "ls -la | wc -l")]


@pytest.mark.parametrize("name", ["execute", "run_code", "python", "run"])
def test_json_tool_call_names_and_default_language(name):
    assert parse(json.dumps({"name": name, "arguments": {"code": "x = 1"}})) == [code("python", "x = 1")]


def test_json_tool_call_with_raw_newlines_in_code_string():
    text = '{"name": "execute", "arguments": {"language": "js", "code": "let a = 1;\nconsole.log(a)"}}\n'
    assert parse(text) == [code("javascript", "let a = 1;\nconsole.log(a)")]


def test_json_tool_call_in_unclosed_json_fence():
    assert parse("```json\n" + json.dumps(TOOL)) == [code("python", "import os\nprint(os.getcwd())", closed=False)]


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "other", "arguments": {"code": "x"}}',
        '{"name": "execute", "arguments": {"language": "cobol", "code": "x"}}',
        '{"name": "execute", "arguments": {"language": "python"}}',
        '{"name": "execute", "arguments": "not json"}',
        '{"a": 1, "b": [1, 2, {"c": "}"}]}',
        "{}",
        "{not json at all}",
        '{"name": "execute", "arguments": {"code": "x"}} and then some words',
        '{"name": "execute", "arguments": {"code": "x"',
        "{ this is a set literal, not JSON }\nmore prose",
        '{"name": {"a": 1}, "arguments": {"code": "x"}}',
        '{"name": ["execute"], "arguments": {"code": "x"}}',
        '{"name": "execute", "arguments": {"code": ["x"]}}',
        '{"name": "execute", "arguments": {"code": "x", "language": {"a": 1}}}',
        '{"name": "execute", "arguments": [1, 2]}',
    ],
)
def test_non_tool_call_json_stays_prose(text):
    assert check_all_splits(text) == [msg(text)]


def test_non_tool_call_json_fence_stays_prose():
    text = '```json\n{"name": "Ann", "age": 3}\n```\n'
    assert check_all_splits(text) == [msg(text)]


def test_unlabeled_dict_literal_is_python_code():
    assert parse('```\n{"a": 1}\n```') == [code("python", '{"a": 1}')]


def test_json_only_recognised_at_line_start():
    text = "The call " + json.dumps(TOOL)
    assert parse(text) == [msg(text)]


def test_failed_json_candidate_is_replayed_so_later_fences_still_work():
    text = '{"name": "x\n```python\nprint(1)\n```\nbye'
    assert check_all_splits(text) == [msg('{"name": "x\n'), code("python", "print(1)"), msg("bye")]


def test_broken_call_followed_by_good_calls_recovers():
    good = json.dumps({"name": "execute", "arguments": {"code": "print(2)"}})
    text = '{"name": "execute", "arguments": {"code": "print(1)"}\n' + good + "\n" + good + "\nbye"
    assert check_all_splits(text) == [
        msg('{"name": "execute", "arguments": {"code": "print(1)"}\n'),
        code("python", "print(2)"), code("python", "print(2)"), msg("bye"),
    ]


def test_two_tool_calls_in_a_row():
    a = json.dumps({"name": "execute", "arguments": {"language": "sh", "code": "ls"}})
    b = json.dumps({"name": "execute", "arguments": {"language": "python", "code": "1+1"}})
    assert check_all_splits(f"{a}\n{b}\n") == [code("shell", "ls"), code("python", "1+1")]


def test_prose_starting_with_brace_is_not_held_back():
    p = CodeBlockParser()
    assert merge(p.feed("{x} is a set")) == [
        {"type": "message", "start": True}, {"type": "message", "content": "{x} is a set"},
    ]


# --- property tests ------------------------------------------------------------------------------
PROSE_ALPHABET = list("abcXYZ 09.,:;!?-*#$`~{}[]\"'\\=()é中😀\t")
JUNK_TOKENS = PROSE_ALPHABET + ["\r", "\n", "\n", "```", "~~~", "```py\n", "```\n", "~~~~\n", "   ", "\r\n",
                                '{"name": ', '"execute"', '"arguments"', '{"code": "x"}', ", ", "}", "[", "]",
                                ": ", '\n{"name": "execute", "arguments": {"code": "x"}}', "\n{", "\\"]
TOOL_NAMES = ["execute", "run_code", "python", "run"]
RAW_LABELS = ["text", "output", "yaml", "csv", "plaintext", "diff", "html"]
ALIAS_NAMES = sorted(DEFAULT_ALIASES)

_NOT_PROSE_START = re.compile(r"^[ \t]*(`{3}|~{3}|\{)")


def _closes(line: str, fence_char: str, fence_len: int) -> bool:
    body = line.lstrip(" ")
    rest = body.lstrip(fence_char)
    return len(body) - len(rest) >= fence_len and rest.strip() == ""


prose_line = st.text(alphabet=st.sampled_from(PROSE_ALPHABET), max_size=25).filter(
    lambda s: not _NOT_PROSE_START.match(s))
code_line = st.text(alphabet=st.sampled_from(PROSE_ALPHABET), max_size=20)


@st.composite
def fenced_block(draw, labels):
    """(text, body lines, label) with a body that never closes the fence early."""
    label = draw(labels)
    fence_char = draw(st.sampled_from("`~"))
    fence_len = draw(st.integers(3, 5))
    indent = draw(st.integers(0, 3))
    extra = draw(st.sampled_from(["", " title=x.py", " {.numberLines}"])) if label else ""
    body = draw(st.lists(code_line.filter(lambda s: not _closes(s, fence_char, fence_len)), max_size=4))
    pad = " " * indent
    fence = fence_char * fence_len
    text = f"{pad}{fence}{label}{extra}\n" + "".join(f"{pad}{line}\n" for line in body)
    text += f"{pad}{fence}{draw(st.sampled_from(['', '  ']))}\n"
    return text, body, label


@st.composite
def tool_call(draw):
    lang_alias = draw(st.sampled_from(ALIAS_NAMES))
    source = draw(st.text(max_size=40))
    args = {"language": lang_alias, "code": source}
    call = {"name": draw(st.sampled_from(TOOL_NAMES)),
            "arguments": json.dumps(args) if draw(st.booleans()) else args}
    text = json.dumps(call, indent=draw(st.sampled_from([None, 2])), ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        fence = draw(st.sampled_from(["```json", "```", "~~~json", "````JSON"]))
        text = f"{fence}\n{text}\n{fence.rstrip('jsonJSON')}"
    return text + "\n", DEFAULT_ALIASES[lang_alias], source


UNLABELED_FIRST = [("ls -la", "shell"), ("$ echo hi", "shell"), ("const a = 1;", "javascript"),
                   ("print('x')", "python"), ("git status", "shell"), ("x = 1", "python")]


@st.composite
def reply(draw):
    """A reply with its expected blocks: list of ("message", text) / ("code", lang, code, True)."""
    parts: list[tuple[str, tuple | None]] = []  # (text, code item or None for prose)
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["prose", "prose", "code", "raw", "tool", "unlabeled"]))
        if kind == "prose":
            lines = draw(st.lists(prose_line, min_size=1, max_size=3))
            parts.append(("".join(line + "\n" for line in lines), None))
        elif kind == "code":
            text, body, label = draw(fenced_block(st.sampled_from(ALIAS_NAMES)))
            parts.append((text, ("code", DEFAULT_ALIASES[label], "\n".join(body), True)))
        elif kind == "raw":
            text, _, _ = draw(fenced_block(st.sampled_from(RAW_LABELS)))
            parts.append((text, None))
        elif kind == "tool":
            text, lang, source = draw(tool_call())
            parts.append((text, ("code", lang, source, True)))
        else:
            first, lang = draw(st.sampled_from(UNLABELED_FIRST))
            rest = draw(st.lists(code_line.filter(lambda s: not _closes(s, "`", 3)), max_size=2))
            body = [first, *rest]
            parts.append(("```\n" + "".join(f"{line}\n" for line in body) + "```\n", ("code", lang, "\n".join(body), True)))
    text = "".join(t for t, _ in parts)
    trimmed = text.endswith("\n") and draw(st.booleans())
    if trimmed:
        text = text[:-1]  # the reply may end without a final newline
    expected: list[tuple] = []
    prose = ""
    for t, item in parts:
        if item is None:
            prose += t
            continue
        if prose.strip():
            expected.append(msg(prose))
        prose = ""
        expected.append(item)
    if prose.strip():
        expected.append(msg(prose))
    if trimmed and expected and expected[-1][0] == "message" and parts[-1][1] is None:
        expected[-1] = msg(expected[-1][1][:-1])
    return text, expected


@st.composite
def messy_reply(draw):
    """Anything at all: structured parts mixed with junk built from the tricky characters."""
    junk = st.lists(st.sampled_from(JUNK_TOKENS), max_size=30).map("".join)
    pieces = draw(st.lists(st.one_of(junk, reply().map(lambda r: r[0])), max_size=4))
    return "".join(pieces)


def _chunks(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    bounds = [0, *points, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), text=messy_reply())
def test_property_chunking_never_changes_the_result(data, text):
    cuts = data.draw(st.lists(st.integers(0, max(len(text), 1)), max_size=12))
    guess = data.draw(st.booleans())
    whole = merge(events(text, guess_unlabeled=guess))
    assert merge(events(_chunks(text, cuts), guess_unlabeled=guess)) == whole


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=messy_reply())
def test_property_char_by_char_equals_whole(text):
    assert merge(events(list(text))) == merge(events(text))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), generated=reply())
def test_property_reconstruction(data, generated):
    text, expected = generated
    cuts = data.draw(st.lists(st.integers(0, max(len(text), 1)), max_size=8))
    got = parse(_chunks(text, cuts))
    assert got == expected
    # every non-whitespace prose character survives, in order
    prose_in = "".join(e[1] for e in expected if e[0] == "message")
    prose_out = "".join(e[1] for e in got if e[0] == "message")
    assert re.sub(r"\s", "", prose_out) == re.sub(r"\s", "", prose_in)


# --- linear time ---------------------------------------------------------------------------------
# CPU time of this process, not wall time: a quadratic parser would need far more than 10 s, and wall time
# also counts what other processes on a busy machine do (2 MB took 20 s wall at load 15, 4.9 s of CPU).
def test_two_megabytes_one_char_at_a_time_is_fast():
    unit = ("Prose with `inline` code, {braces} and ~tildes~.\n  - item\n\n"
            "```python\nfor i in range(3):\n    print(`x`, i)  # ``` mid-line\n```\n"
            + json.dumps(TOOL) + "\n```\nls -la\n```\n~~~text\nout\n~~~\n{\"a\": [1, 2]}\n")
    text = unit * (2_000_000 // len(unit) + 1)
    p = CodeBlockParser()
    n_code = 0
    t0 = time.process_time()
    for ch in text:
        for ev in p.feed(ch):
            n_code += ev.get("type") == "code" and ev.get("start", False)
    for ev in p.finish():
        n_code += ev.get("type") == "code" and ev.get("start", False)
    elapsed = time.process_time() - t0
    assert n_code == 3 * (2_000_000 // len(unit) + 1)
    assert elapsed < 10, f"took {elapsed:.1f}s"


def test_long_unclosed_json_candidate_and_long_line_are_linear():
    text = '{"name": "' + "x" * 1_000_000 + "\nmore\n```py\nok\n```"
    p = CodeBlockParser()
    t0 = time.process_time()
    out = []
    for i in range(0, len(text), 7):
        out += p.feed(text[i:i + 7])
    out += p.finish()
    assert time.process_time() - t0 < 10
    assert blocks(out)[-1] == code("python", "ok")


@pytest.mark.parametrize("text", [
    '{"name": [\n' * 30_000 + "x",  # nested candidates that all fail the same way
    '{"name": {\n' * 30_000 + "}\n" * 30_000,  # deeply nested balanced objects, none a call
    "{\n" * 100_000,
    '{"name": "' + "\\" * 200_000,
])
def test_failing_json_candidates_stay_linear(text):
    t0 = time.process_time()
    assert parse(text) == [msg(text)]
    assert merge(events([text[i:i + 1000] for i in range(0, len(text), 1000)])) == merge(events(text))
    assert time.process_time() - t0 < 10
