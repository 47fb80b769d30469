"""The seed documents' APIs as users already write them: the 2023 module-level names,
`chat(return_messages=True)` / `load()`, `llm.max_output`, and IPython-style lines in python blocks."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from oi_local.computer import Computer
from oi_local.computer.languages.ipython_lines import translate

pytestmark = pytest.mark.timeout(120)


def text(messages: list[dict]) -> str:
    return "".join(m["content"] for m in messages if m.get("format") == "output")


@pytest.fixture
def computer():
    c = Computer()
    yield c
    c.terminate()


def _run_script(code: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                                         "PYTHONPATH": ":".join(sys.path)})


def test_the_2023_module_level_api_reaches_the_instance(tmp_path):
    # The README of 2023: `import interpreter; interpreter.api_key = ...` — the module was the instance.
    r = _run_script("""
        import interpreter
        interpreter.model = "gpt-4"
        interpreter.api_key = "sk-x"
        interpreter.temperature = 0.4
        interpreter.api_base = "http://127.0.0.1:9/v1"
        interpreter.context_window = 2048
        interpreter.max_tokens = 99
        interpreter.debug_mode = True
        from interpreter import interpreter as i
        print(i.llm.model, i.llm.api_key, i.llm.temperature, i.llm.api_base, i.llm.context_window, i.llm.max_tokens, i.verbose)
        print(i.model, interpreter.model)
        interpreter.api_base = None
        interpreter.local = True
        print(i.llm.model, i.llm.kind(), interpreter.local)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "gpt-4 sk-x 0.4 http://127.0.0.1:9/v1 2048 99 True"
    assert out[1] == "gpt-4 gpt-4"
    assert out[2] == "None embedded True"


def test_return_messages_and_load_resume_a_conversation():
    from oi_local.interpreter import OpenInterpreter

    def model(messages, **_):
        said = [m["content"] for m in messages if m["role"] == "user"]
        yield {"choices": [{"delta": {"content": f"You said {len(said)} things; first: {said[0]}"}}]}

    a = OpenInterpreter(conversation_history=False)
    a.llm.completions = model
    saved = a.chat("My name is Killian.", display=False, return_messages=True)
    assert [m["role"] for m in saved] == ["user", "assistant"]
    a.reset()
    assert a.messages == []
    a.load(saved)
    new = a.chat("What is my name?", display=False)
    assert "first: My name is Killian." in new[-1]["content"] and "2 things" in new[-1]["content"]


def test_llm_max_output_limits_code_output():
    from oi_local.interpreter import OpenInterpreter

    i = OpenInterpreter(conversation_history=False)
    try:
        i.llm.max_output = 300
        assert i.max_output == 300 and i.computer.max_output == 300 and i.llm.max_output == 300
        out = text(i.computer.run("python", "print('x' * 5000)"))
        assert len(out) < 1000 and "x" * 100 in out
    finally:
        i.computer.terminate()


def test_notebook_lines_run_as_ipython_runs_them(computer):
    # a fresh folder made inside the session: the sandbox shows the code a private /tmp, not the test's tmp_path
    assert text(computer.run("python", "import os, tempfile; os.chdir(tempfile.mkdtemp()); print(os.listdir())")) == "[]\n"
    out = text(computer.run("python", "!echo made > f.txt\n!cat f.txt\nfiles = !ls\nprint(files)"))
    assert out == "made\n['f.txt']\n"
    out = text(computer.run("python", "%pip --version"))
    assert out.startswith("pip ")
    assert text(computer.run("python", "%matplotlib inline\n%cd /\n%pwd")) == "/\n"
    assert "IPython magic" in text(computer.run("python", "%timeit 1"))
    # state still shared with ordinary code
    assert text(computer.run("python", "print(len(files))")) == "1\n"


@pytest.mark.parametrize("code", [
    "a = 7 % 3\nprint(a)",                    # a real % operator
    "s = '''\n!not a command\n%pip\n'''\nprint(len(s))",  # inside a string: valid Python, untouched
    "x = 1 !",                                # invalid, and not IPython either
])
def test_valid_or_non_ipython_code_is_never_rewritten(code):
    assert translate(code) == code


def test_a_syntax_error_elsewhere_is_reported_as_python_reports_it(computer):
    out = text(computer.run("python", "!echo hi\nprint(('unclosed'"))
    assert "SyntaxError" in out and not out.startswith("hi")  # nothing ran


needs_r = pytest.mark.skipif(__import__("shutil").which("Rscript") is None,
                             reason="Rscript not installed (scripts/test installs r-base-core as root on Debian)")


@needs_r
def test_r_session_keeps_state_prints_values_and_survives_errors_and_interrupts(computer):
    import threading

    assert "r" in [getattr(lang, "name", "") for lang in computer.languages]
    assert text(computer.run("r", "x <- c(1, 2, 3)\nmean(x)")) == "[1] 2\n"
    assert text(computer.run("r", "invisible(5)\ncat(sum(x), '\\n')")) == "6 \n"
    assert text(computer.run("r", "stop('boom')")) == "Error: boom\n"
    assert computer.last_result.exit_code == 1
    timer = threading.Timer(1.0, computer.stop)
    timer.start()
    assert "Interrupted" in text(computer.run("r", "while (TRUE) {}"))
    assert text(computer.run("r", "length(x)")) == "[1] 3\n"  # same session after the interrupt


def test_html_is_saved_for_a_browser_and_returned_as_an_html_message(computer):
    out = computer.run("html", "<h1>Hi</h1>")
    assert {"role": "computer", "type": "code", "format": "html", "content": "<h1>Hi</h1>"} in out
    path = text(out).split("HTML saved to ")[1].split(" (")[0]
    assert open(path, encoding="utf-8").read() == "<h1>Hi</h1>"


@pytest.mark.skipif(__import__("shutil").which("pwsh") is None,
                    reason="pwsh is not in Debian's archive (Microsoft's own repository is out of reach here)")
def test_powershell_session_keeps_state(computer):
    assert text(computer.run("powershell", "$a = 40")) == ""
    assert text(computer.run("powershell", "Write-Output ($a + 2)")) == "42\n"


def test_powershell_missing_is_not_offered_and_explained_when_written():
    from oi_local.computer.languages import DEFAULT_LANGUAGES, PowerShell, missing_note

    assert (PowerShell in DEFAULT_LANGUAGES) == PowerShell.available()
    note = missing_note("pwsh", ["python", "shell"])
    assert "install pwsh" in note and "Available: python, shell." in note


def test_a_block_in_a_language_that_is_not_here_gets_a_note_not_silence():
    from oi_local.computer.languages import Python, Shell
    from oi_local.interpreter import OpenInterpreter

    replies = iter(["```ruby\nputs 1 + 1\n```", "Ruby is not available, so: 2."])

    def model(messages, **_):
        yield {"choices": [{"delta": {"content": next(replies)}}]}

    i = OpenInterpreter(conversation_history=False, auto_run=True)
    i.computer.languages = [Python, Shell]
    i.llm.completions = model
    try:
        new = i.chat("print 1+1 in ruby", display=False)
    finally:
        i.computer.terminate()
    code = [m for m in new if m.get("type") == "code"]
    assert code and code[0]["format"] == "ruby"
    notes = [m["content"] for m in new if m.get("type") == "console"]
    assert any("Language 'ruby' is not available here. oi-local does not run Ruby. Available: python, shell." in n
               for n in notes), new


def test_on_off_flags_take_the_docs_true_false_words(tmp_path):
    from oi_local.terminal.cli import parse_args

    a = parse_args(["--offline", "true", "what", "is", "1+1"])
    assert a.offline is True and a.message == ["what", "is", "1+1"]
    a = parse_args(["-y", "false", "--offline", "TRUE"])
    assert a.auto_run is False and a.offline is True and a.message == []
    a = parse_args(["-y", "trueish"])  # not a boolean word: the message
    assert a.auto_run is True and a.message == ["trueish"]
    a = parse_args(["--", "--offline", "true"])
    assert a.offline is None and a.message == ["--offline", "true"]


def test_offline_true_on_the_real_command_line_is_not_sent_to_the_model(tmp_path):
    import os

    from terminal_support import ROOT, interpreter_argv, write_scripted_profile

    profile = write_scripted_profile(tmp_path)
    # Before: "true" became the message (the scripted model's default reply); now stdin is the message.
    out = subprocess.run(interpreter_argv("--profile", str(profile), "-y", "--offline", "true"), input="shell please\n",
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    assert "shell-says-hi" in out.stdout and "hello from code" not in out.stdout


class _AzureLike:
    """A real HTTP server on 127.0.0.1 that answers like an Azure OpenAI deployment and records
    what it was asked (path, api-key header)."""

    def __init__(self):
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                seen.append((self.path, self.headers.get("api-key"), body.get("stream")))
                base = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o"}
                if body.get("stream"):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for piece in ("Azure ", "says hi."):
                        chunk = {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece},
                                                       "finish_reason": None}]}
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    done = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                    self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())
                else:
                    reply = {**base, "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": "Azure says hi."}}],
                             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                    data = json.dumps(reply).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


@pytest.mark.parametrize("model,kind", [
    ("azure/my-deploy", "hosted"), ("huggingface/tgi", "hosted"), ("openai/x", "server"), ("my-local-model", "server"),
])
def test_api_base_with_a_litellm_provider_prefix_goes_through_litellm(model, kind):
    from oi_local.llm.llm import Llm

    llm = Llm()
    llm.model, llm.api_base = model, "http://127.0.0.1:9"
    assert llm.kind() == kind


def test_an_azure_deployment_is_reached_with_azure_paths_and_auth():
    from oi_local.interpreter import OpenInterpreter

    server = _AzureLike()
    i = OpenInterpreter(conversation_history=False)
    i.llm.model, i.llm.api_base, i.llm.api_key, i.llm.api_version = "azure/my-deploy", server.url, "az-key", "2024-06-01"
    try:
        new = i.chat("hello", display=False)
    finally:
        server.close()
        i.close()
    assert new[-1]["content"] == "Azure says hi."
    path, key, _ = server.seen[0]
    assert path.startswith("/openai/deployments/my-deploy/chat/completions") and "api-version=2024-06-01" in path
    assert key == "az-key"


def test_input_in_code_is_answered_by_whoever_consumes_the_run(computer):
    asked = []
    out = ""
    gen = computer.run("python", "name = input('Your name? ')\nprint('Hello,', name)", stream=True)
    for c in gen:
        if c.get("format") == "input_request":
            asked.append(c["content"])
            computer.answer_input("Ada")
        elif c.get("format") == "output":
            out += c["content"]
    assert asked == ["Your name? "]
    assert out == "Your name? Ada\nHello, Ada\n"  # the transcript reads as it would in a terminal
    assert text(computer.run("python", "print(name.upper())")) == "ADA\n"


def test_input_with_no_one_to_answer_fails_clearly_and_the_session_goes_on(computer):
    out = text(computer.run("python", "x = 1\nv = input('Value: ')\nprint('never')"))
    assert "EOFError: input() has no one to answer it" in out and "never" not in out
    assert text(computer.run("python", "print(x + 1)")) == "2\n"


def test_time_spent_answering_is_not_counted_against_the_run_timeout(computer):
    import time

    out = ""
    for c in computer.run("python", "a = input('a? ')\nprint('got', a)", stream=True, timeout=1.0):
        if c.get("format") == "input_request":
            time.sleep(1.5)  # a slow typist
            computer.answer_input("late")
        elif c.get("format") == "output":
            out += c["content"]
    assert "got late" in out and "Timed out" not in out


def test_an_interrupted_input_leaves_no_answer_behind_for_the_next_cell(computer):
    gen = computer.run("python", "input('q? ')", stream=True)
    for c in gen:
        if c.get("format") == "input_request":
            computer.answer_input("stale")
            break  # the consumer leaves (Ctrl-C): the run is stopped
    gen.close()
    assert text(computer.run("python", "print('fresh cell')")) == "fresh cell\n"
