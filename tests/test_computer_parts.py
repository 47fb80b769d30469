"""Computer API parts that need no display: skills, files, mail (a real local mbox), the parts
Linux has no equivalent for, vision's OCR fallback, the prompt (import_computer_api), profiles,
and that none of it slows `import interpreter` down."""
from __future__ import annotations

import mailbox
import subprocess
import sys
from email.message import EmailMessage

import pytest

from oi_local.computer import Computer
from oi_local.computer.api import ComputerAPIError, NotAvailable


@pytest.fixture
def computer(tmp_path):
    c = Computer()
    c.skills_path = str(tmp_path / "skills")
    yield c
    c.terminate()


def test_skills_save_list_search_load(computer, tmp_path):
    assert computer.skills.list() == [] and computer.skills.summary() == ""
    path = computer.skills.save("word_count", "def word_count(text):\n    return len(text.split())\n",
                                "count the words in a text")
    assert path == str(tmp_path / "skills" / "word_count.py")
    computer.skills.save("shout", '"""Upper-case a text."""\ndef shout(t):\n    return t.upper() + "!"\n')
    assert computer.skills.list() == [{"name": "shout", "description": "Upper-case a text."},
                                      {"name": "word_count", "description": "count the words in a text"}]
    assert [s["name"] for s in computer.skills.search("words count")] == ["word_count"]
    assert computer.skills.search("nothing like this") == []
    assert computer.skills.load("word_count")("a b c") == 3
    assert computer.skills.load("shout")("hi") == "HI!"
    assert "- word_count: count the words in a text" in computer.skills.summary()
    with pytest.raises(ComputerAPIError, match=r"no skill named 'nope' \(skills: shout, word_count\)"):
        computer.skills.load("nope")
    with pytest.raises(ComputerAPIError, match="is a Python identifier"):
        computer.skills.save("../evil", "x = 1")
    with pytest.raises(ComputerAPIError, match="syntax error on line 1"):
        computer.skills.save("broken", "def (:")
    assert not (tmp_path / "skills" / "broken.py").exists()
    computer.skills.delete("shout")
    assert [s["name"] for s in computer.skills.list()] == ["word_count"]


def test_skills_reused_from_the_models_session(computer):
    computer.skills.save("double", "def double(x):\n    return 2 * x\n")
    out = computer.run("python", "print(computer.skills.load('double')(21))\nprint([s['name'] for s in computer.skills.list()])")
    assert out[0]["content"] == "42\n['double']\n"


def test_files_search_names_and_text(computer, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "invoice_march.txt").write_text("total 12\n")
    (tmp_path / "docs" / "notes.md").write_text("first line\nthe Invoice for April is late\n")
    (tmp_path / "docs" / "image.bin").write_bytes(b"\0\1invoice")
    (tmp_path / "docs" / ".git").mkdir()
    (tmp_path / "docs" / ".git" / "invoice").write_text("hidden")
    found = computer.files.search("invoice", str(tmp_path / "docs"))
    assert found == [str(tmp_path / "docs" / "invoice_march.txt"),
                     f"{tmp_path / 'docs' / 'notes.md'}:2: the Invoice for April is late"]
    assert computer.files.search("zebra", str(tmp_path)) == []
    with pytest.raises(FileNotFoundError):
        computer.files.search("x", str(tmp_path / "missing"))


def _mbox(path, messages):
    box = mailbox.mbox(path)
    for sender, subject, body, read in messages:
        m = EmailMessage()
        m["From"], m["Subject"] = sender, subject
        m.set_content(body)
        msg = mailbox.mboxMessage(m)
        if read:
            msg.set_flags("RO")
        box.add(msg)
    box.flush()
    box.close()


def test_mail_reads_the_local_mbox(computer, tmp_path, monkeypatch):
    path = tmp_path / "mbox"
    _mbox(path, [("a@example.com", "old", "read already", True), ("b@example.com", "new one", "hello there", False),
                 ("c@example.com", "newest", "second unread", False)])
    monkeypatch.setenv("MAIL", str(path))
    assert computer.mail.unread_count() == 2
    got = computer.mail.get(number=10, unread=True)
    assert [m["subject"] for m in got] == ["newest", "new one"] and got[1]["body"] == "hello there"
    assert [m["subject"] for m in computer.mail.get(number=1)] == ["newest"]
    monkeypatch.setenv("MAIL", str(tmp_path / "none"))
    with pytest.raises(NotAvailable, match=r"not available on this platform: no local mailbox"):
        computer.mail.unread_count()


@pytest.mark.parametrize("call", [
    lambda c: c.calendar.get_events(start_date=None, end_date=None),
    lambda c: c.calendar.create_event(title="Title", location="Location", notes="Notes", calendar="Work"),
    lambda c: c.calendar.delete_event(event_title="Title", calendar="Work"),
    lambda c: c.contacts.get_phone_number("John Doe"),
    lambda c: c.contacts.get_email_address("John Doe"),
    lambda c: c.sms.send("2068675309", "Hello from Open Interpreter!"),
])
def test_parts_linux_lacks_say_so(computer, call):
    with pytest.raises(NotAvailable, match=r"^computer\.\w+\.\w+ is not available on this platform: .+"):
        call(computer)


def test_browser_search_offline_is_a_clear_error(computer):
    computer.offline = True
    with pytest.raises(ComputerAPIError, match="needs the internet"):
        computer.browser.search("weather")


def test_vision_without_a_model_reads_the_text(computer, tmp_path, monkeypatch):
    from PIL import Image, ImageDraw, ImageFont

    monkeypatch.chdir(tmp_path)  # the working folder: the sandboxed session sees it (its /tmp is its own)

    img = Image.new("RGB", (360, 90), "white")
    font = ImageFont.truetype("DejaVuSans.ttf", 32) if _has_font() else None
    ImageDraw.Draw(img).text((20, 20), "Lighthouse 42", fill="black", font=font)
    img.save(tmp_path / "pic.png")
    answer = computer.vision.query(str(tmp_path / "pic.png"), "What does it say?")
    assert answer.startswith("(no vision model is set up") and "Lighthouse 42" in answer
    computer.vision.backend = lambda png, question: f"{len(png) > 100} {question}"  # the hook
    assert computer.vision.query(str(tmp_path / "pic.png"), "what?") == "True what?"
    (tmp_path / "visionhook.py").write_text("def answer(png, question):\n    return 'hook saw ' + question\n")
    sys.path.insert(0, str(tmp_path))
    try:  # a "module:function" string: it also reaches the model's session (another process)
        computer.vision.backend = "visionhook:answer"
        assert computer.vision.query(img, "a lighthouse?") == "hook saw a lighthouse?"
        out = computer.run("python", f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
                                     f"print(computer.vision.query({str(tmp_path / 'pic.png')!r}, 'in session?'))")
        assert out[0]["content"] == "hook saw in session?\n"
    finally:
        sys.path.remove(str(tmp_path))
    with pytest.raises(ComputerAPIError, match="finding an icon needs a vision model"):
        Computer().vision.locate("gear icon")
    with pytest.raises(FileNotFoundError):
        computer.vision.query(str(tmp_path / "missing.png"))


def _has_font() -> bool:
    from PIL import ImageFont

    try:
        ImageFont.truetype("DejaVuSans.ttf", 10)
        return True
    except OSError:
        return False


def test_import_computer_api_prompt_small_and_full(tmp_path):
    from interpreter import OpenInterpreter

    interp = OpenInterpreter()
    interp.computer.skills_path = str(tmp_path)
    assert "computer.mouse" not in interp.full_system_message()
    interp.computer.import_computer_api = True
    interp.template = "small"
    small = interp.full_system_message()
    assert "`computer` is ready to use" in small and "computer.mail" not in small
    interp.template = "large"
    full = interp.full_system_message()
    assert "# THE COMPUTER API" in full and "computer.mail.get(number=5, unread=True)" in full
    interp.computer.skills.save("greet", "def greet():\n    return 'hi'\n", "say hi")
    assert "Saved skills" in interp.full_system_message() and "- greet: say hi" in interp.full_system_message()
    assert len(small) < len(full) - 800


def test_profile_keys(tmp_path, monkeypatch):
    from interpreter import OpenInterpreter
    from oi_local.terminal import profiles

    p = tmp_path / "p.yaml"
    p.write_text("computer:\n  import_computer_api: true\n  skills_path: /tmp/sk\nos: true\nversion: 0.2.5\n")
    interp = OpenInterpreter()
    profiles.load(interp, str(p))
    assert interp.computer.import_computer_api is True and interp.computer.skills_path == "/tmp/sk" and interp.os is True


def test_import_stays_light():
    code = ("import sys, interpreter; i = interpreter.OpenInterpreter(); i.computer.import_computer_api = True; "
            "heavy = [m for m in ('mss', 'Xlib', 'PIL', 'numpy', 'rapidocr_onnxruntime', 'pyperclip', 'oi_local.computer.api.display') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_notify_without_notify_send_says_what_to_install(computer, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no notify-send on it
    with pytest.raises(ComputerAPIError, match=r"^notify-send is not installed: apt-get install libnotify-bin$"):
        computer.os.notify("hello")
