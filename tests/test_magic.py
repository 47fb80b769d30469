"""Magic commands through `interpreter.chat("%...")` from Python (the terminal uses the same code)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_history import scripted_interp

from oi_local.interpreter import OpenInterpreter


@pytest.fixture
def interp():
    i = scripted_interp(auto_run=True)
    yield i
    i.close()


def test_undo_removes_the_last_exchange(interp, capsys) -> None:
    interp.chat("hello one", display=False)
    first = list(interp.messages)
    interp.chat("hello two", display=False)
    assert len(interp.messages) > len(first)
    assert interp.chat("%undo") == []
    assert interp.messages == first
    assert "Removed your message 'hello two'" in capsys.readouterr().out


def test_save_and_load_message_round_trip(interp, tmp_path: Path, capsys) -> None:
    interp.chat("hello there", display=False)
    saved = list(interp.messages)
    path = tmp_path / "conv.json"
    interp.chat(f"%save_message {path}")
    assert json.loads(path.read_text()) == json.loads(json.dumps(saved))
    interp.chat("%reset")
    assert interp.messages == []
    interp.chat(f"%load_message {path}")
    assert interp.messages == json.loads(json.dumps(saved))
    # the loaded conversation continues
    interp.chat("hello again", display=False)
    assert interp.messages[len(saved)]["content"] == "hello again"


def test_default_message_file_is_messages_json(interp, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    interp.messages = [{"role": "user", "type": "message", "content": "x"}]
    interp.chat("%save_message")
    interp.messages = []
    interp.chat("%load_message")
    assert (tmp_path / "messages.json").is_file() and interp.messages[0]["content"] == "x"


def test_verbose_auto_run_info_help_shell(interp, capsys) -> None:
    interp.chat("%verbose")
    assert interp.verbose is True
    interp.chat("%verbose false")
    assert interp.verbose is False
    interp.chat("%auto_run")
    assert interp.auto_run is False
    interp.chat("%auto_run true")
    assert interp.auto_run is True
    interp.chat("%info")
    interp.chat("%help")
    interp.chat("%% echo from-the-shell")
    out = capsys.readouterr().out
    assert "safe_mode: off" in out and "%save_message" in out and "from-the-shell" in out
    assert interp.messages == []  # none of this reached the model or the history
    interp.chat("%50 of 200, please", display=False)  # not a command: a question for the model
    assert interp.messages[0]["content"] == "%50 of 200, please"


def test_unknown_command_in_the_terminal_is_answered_not_sent() -> None:
    from oi_local.terminal.magic import handle, is_magic

    said: list[str] = []
    assert is_magic("%nonsense") and not is_magic("%50 of 200")
    assert handle(OpenInterpreter(conversation_history=False), "%nonsense", said.append) is False
    assert said == ["Unknown magic command %nonsense. Type %help for the list."]


def test_tokens_for_a_scripted_model_is_estimated_and_free(interp, capsys) -> None:
    interp.chat("%tokens what is 2+2")
    out = capsys.readouterr().out
    assert "(estimated)" in out and "Your prompt adds" in out and "$0.000000" in out


def test_tokens_costs_hosted_models_with_litellm(capsys) -> None:
    interp = OpenInterpreter(conversation_history=False)
    interp.llm.model = "gpt-4o"  # priced from litellm's bundled table, offline; nothing is sent
    interp.chat("%tokens hello")
    out = capsys.readouterr().out
    cost = float(out.split("Cost of the prompt: $")[1].split()[0])
    assert cost > 0


@pytest.mark.model
def test_tokens_counts_with_the_models_tokenizer(smollm2_path, capsys) -> None:
    interp = OpenInterpreter(conversation_history=False)
    interp.llm.model = str(smollm2_path)
    try:
        interp.chat("%tokens")
        out = capsys.readouterr().out
        n = int(out.split("Next request: ")[1].split()[0])
        assert "(estimated)" not in out.splitlines()[0]
        # the same prompt through the tokenizer directly, and one word more must cost more tokens
        assert n == interp.llm.backend().count_tokens(interp.build_prompt())
        longer = interp.llm.backend().count_tokens(interp.build_prompt(extra_user="hello"))
        assert longer > n
        assert "$0.000000 (local model)" in out
    finally:
        interp.close()


def test_jupyter_and_markdown_exports(interp, tmp_path: Path) -> None:
    import nbformat

    interp.chat("hello there", display=False)
    nb_path, md_path = tmp_path / "c.ipynb", tmp_path / "c.md"
    interp.chat(f"%jupyter {nb_path}")
    interp.chat(f"%markdown {md_path}")
    nb = nbformat.read(str(nb_path), as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and "print('hello from code', 6 * 7)" in code[0].source
    assert "hello from code 42" in code[0].outputs[0]["text"]
    md = md_path.read_text()
    assert "**You:** hello there" in md and "```python" in md


def test_budget_stops_before_a_request_that_would_go_over() -> None:
    calls: list[int] = []

    def completions(messages, **kw):
        calls.append(1)
        yield {"choices": [{"delta": {"content": "hi"}}]}

    from oi_local.terminal.budget import BudgetExceeded

    interp = OpenInterpreter(conversation_history=False, max_budget=0.000001)
    interp.llm.completions = completions
    interp.llm.model = "gpt-4o"  # a priced model behind a scripted function
    with pytest.raises(BudgetExceeded, match="Nothing was sent"):
        interp.chat("hello", display=False)
    assert calls == []
    interp.max_budget = 1.0
    interp.chat("hello", display=False)
    assert calls == [1] and 0 < interp.spent < 0.1


def test_local_models_cost_nothing() -> None:
    from oi_local.terminal import budget

    interp = OpenInterpreter(conversation_history=False, max_budget=0.0)
    interp.llm.model = "/models/x.gguf"
    assert budget.check(interp, 100000) == 0.0
    interp.llm.model, interp.llm.api_base = "llama", "http://127.0.0.1:8080/v1"
    assert budget.price(interp.llm, 1000, 1000) == 0.0
