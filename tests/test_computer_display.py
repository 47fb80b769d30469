"""The Computer API against a real X server (Xvfb) and a real Tk window: screenshots, OCR, mouse,
keyboard, clipboard, the selection, the failsafe, and the same API from the model's Python session."""
from __future__ import annotations

import base64
import io
import os
import time

import pytest
from xdisplay import XApp, Xvfb

from oi_local.computer import Computer
from oi_local.computer.api import ComputerAPIError, FailSafe, NotAvailable

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]
pytest.importorskip("mss")
pytest.importorskip("Xlib")
PIL = pytest.importorskip("PIL.Image")


@pytest.fixture(scope="module")
def xserver():
    x = Xvfb()
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = x.display
    yield x
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old
    x.stop()


@pytest.fixture
def app(xserver, tmp_path):
    a = XApp(xserver, tmp_path / "state.json")
    time.sleep(0.3)  # mapped and drawn
    yield a
    a.stop()


@pytest.fixture
def computer(xserver):
    c = Computer()
    c.import_computer_api = True  # the sandbox gives code the screen only with the computer API on
    yield c
    c.terminate()


def test_screenshot_shows_the_window(computer, app, tmp_path):
    assert computer.display.size() == (1024, 768) and computer.display.center() == (512, 384)
    image = computer.display.screenshot()
    assert image.size == (1024, 768)
    # Tk's grey window at +100+100 on Xvfb's black root window.
    assert image.getpixel((5, 5)) == (0, 0, 0)
    assert image.getpixel((110, 110)) != (0, 0, 0) and image.getpixel((505, 390)) != (0, 0, 0)
    msg = computer.display.view()
    assert msg["role"] == "computer" and msg["type"] == "image" and msg["format"] == "base64.png"
    assert PIL.open(io.BytesIO(base64.b64decode(msg["content"]))).size == (1024, 768)
    path = computer.display.view(path=str(tmp_path / "shot.png"))
    assert path == {"role": "computer", "type": "image", "format": "path", "content": str(tmp_path / "shot.png")}
    assert PIL.open(path["content"]).size == (1024, 768)
    region = computer.display.screenshot(region=(100, 100, 50, 40))
    assert region.size == (50, 40)


def test_ocr_finds_a_word_drawn_on_the_screen(computer, app):
    boxes = computer.display.find("Giraffe")
    assert boxes, computer.display.text()
    x, y = boxes[0]["center"]
    # The canvas is centred in the 420-wide window at x=100; the word is at its middle.
    assert 250 < x < 370 and 100 < y < 400
    assert computer.display.find("Elephant") == []
    assert "'Giraffe' at (" in computer.display.text()


def test_click_on_text_changes_the_window(computer, app, capsys):
    assert app.state()["label"] == "Waiting"
    where = computer.mouse.click("Apply")
    assert app.wait_for("label", "Applied")["label"] == "Applied"
    assert app.state()["clicks"] == 1
    assert computer.mouse.position() == where
    assert "clicked left at" in capsys.readouterr().out
    time.sleep(0.2)
    assert computer.display.find("Applied")  # the change is on the screen too


def test_missing_text_is_a_clear_error(computer, app):
    with pytest.raises(ComputerAPIError, match=r"'Nowhere' is not on the screen. Text seen: .*Apply"):
        computer.mouse.click("Nowhere")
    assert app.state()["clicks"] == 0


def test_typed_text_appears_in_the_entry(computer, app):
    box = computer.display.find("Apply")[0]
    computer.mouse.click(box["center"][0], box["center"][1] + 45)  # the entry below the button
    computer.keyboard.write("Hello, World! ü€")
    assert app.wait_for("entry", "Hello, World! ü€")["entry"] == "Hello, World! ü€"
    computer.keyboard.press("backspace", presses=2)
    computer.keyboard.press("end")
    assert app.wait_for("entry", "Hello, World! ")["entry"] == "Hello, World! "
    computer.keyboard.hotkey("ctrl", "h")  # Tk: ctrl+h deletes one character
    assert app.wait_for("entry", "Hello, World!")["entry"] == "Hello, World!"


def test_clipboard_round_trips_and_pastes(computer, app):
    computer.clipboard.copy("from the clipboard ✓")
    assert computer.clipboard.view() == "from the clipboard ✓"
    box = computer.display.find("Apply")[0]
    computer.mouse.click(box["center"][0], box["center"][1] + 45)
    computer.keyboard.hotkey("ctrl", "v")  # Tk's paste shortcut
    assert app.wait_for("entry", "from the clipboard ✓")["entry"] == "from the clipboard ✓"


def test_selected_text(computer, app):
    box = computer.display.find("Apply")[0]
    computer.mouse.click(box["center"][0], box["center"][1] + 45)
    computer.keyboard.write("select me")
    app.wait_for("entry", "select me")
    computer.mouse.double_click(box["center"][0] - 80, box["center"][1] + 45)  # selects the word under the pointer
    time.sleep(0.2)
    assert computer.os.get_selected_text() in ("select", "me")


def test_failsafe_in_a_corner(computer, app):
    computer.mouse.move(0, 0)
    with pytest.raises(FailSafe, match="screen corner"):
        computer.mouse.click("Apply")
    with pytest.raises(FailSafe):
        computer.keyboard.write("x")
    assert app.state()["clicks"] == 0
    computer.failsafe = False
    computer.mouse.click("Apply")
    assert app.wait_for("label", "Applied")["label"] == "Applied"


def test_scroll_and_several_screens(computer, app):
    computer.mouse.move(300, 300)
    computer.mouse.scroll(-3)
    computer.mouse.scroll(2, horizontal=1)
    assert computer.display.screens() == [{"left": 0, "top": 0, "width": 1024, "height": 768}]
    with pytest.raises(ComputerAPIError, match="no screen 3: there are 1"):
        computer.display.size(3)
    assert computer.display.size("all") == (1024, 768)


def test_tesseract_finds_the_same_word(computer, app, monkeypatch):
    import shutil

    if not shutil.which("tesseract"):
        pytest.skip("tesseract-ocr is not installed")
    pytest.importorskip("pytesseract")
    monkeypatch.setenv("OI_OCR_ENGINE", "tesseract")
    boxes = computer.display.find("giraffe")
    assert boxes and 250 < boxes[0]["center"][0] < 370


def test_same_api_from_the_models_python_session(computer, app):
    out = computer.run("python", "computer.mouse.click('Apply')\ncomputer.display.view()\nprint(computer.mouse.position())")
    kinds = [(m["type"], m.get("format")) for m in out]
    assert ("image", "base64.png") in kinds, out
    assert app.wait_for("label", "Applied")["label"] == "Applied"
    text = "".join(m["content"] for m in out if m["type"] == "console")
    assert "clicked left at" in text
    png = next(m["content"] for m in out if m["type"] == "image")
    assert PIL.open(io.BytesIO(base64.b64decode(png))).size == (1024, 768)
    # A model that cannot see gets the screen's text instead of a picture.
    computer.terminate()
    computer.emit_images = False
    out = computer.run("python", "computer.display.view()")
    assert [m["type"] for m in out] == ["console"] and "'Applied' at (" in out[0]["content"]
    # Errors in the session are one clear line of the traceback.
    out = computer.run("python", "computer.mouse.click('Nowhere')")
    assert "ComputerAPIError: 'Nowhere' is not on the screen" in out[0]["content"]


def test_no_display_is_one_clear_line(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    c = Computer()
    with pytest.raises(ComputerAPIError, match=r"^no display: DISPLAY is not set"):
        c.display.view()
    with pytest.raises(ComputerAPIError, match=r"^no display"):
        c.mouse.position()
    monkeypatch.setenv("DISPLAY", ":0.99")  # nothing listens there
    with pytest.raises(ComputerAPIError, match=r"^cannot open display :0.99"):
        c.display.screenshot()


def test_the_docs_computer_api_examples(computer, app, tmp_path, monkeypatch):
    """Every example of the spec's code-execution/computer-api page, restated with `interpreter.`
    in front as there: run where Linux allows, a one-line 'not available' error where it does not."""
    import datetime

    import interpreter as oi

    interp = oi.OpenInterpreter()
    interp.computer = computer
    monkeypatch.setenv("MAIL", str(tmp_path / "mbox"))
    (tmp_path / "mbox").write_text("From a@b Thu Jan  1 00:00:00 2026\nFrom: a@b\nSubject: hi\n\nbody\n")
    assert interp.computer.display.view()["type"] == "image"
    x, y = interp.computer.display.center()
    assert (x, y) == (512, 384)
    interp.computer.keyboard.hotkey(" ", "command")  # Spotlight on a Mac; Super+Space here
    box = interp.computer.display.find("Apply")[0]
    interp.computer.mouse.click(box["center"][0], box["center"][1] + 45)
    interp.computer.keyboard.write("hello")
    assert app.wait_for("entry", "hello")["entry"] == "hello"
    interp.computer.mouse.click(x=100, y=100)
    interp.computer.mouse.click("Onscreen Text")
    with pytest.raises(ComputerAPIError, match="finding an icon needs a vision model"):
        interp.computer.mouse.click(icon="gear icon")
    interp.computer.mouse.move(x=100, y=100)
    assert interp.computer.mouse.position() == (100, 100)
    interp.computer.mouse.move("Onscreen Text")
    assert interp.computer.mouse.position() != (100, 100)
    with pytest.raises(ComputerAPIError, match="finding an icon needs a vision model"):
        interp.computer.mouse.move(icon="gear icon")
    interp.computer.mouse.scroll(-10)
    interp.computer.mouse.scroll(10)
    interp.computer.clipboard.copy("clip")
    assert interp.computer.clipboard.view() == "clip"
    assert isinstance(interp.computer.os.get_selected_text(), str)
    assert [m["subject"] for m in interp.computer.mail.get(number=10, unread=True)] == ["hi"]
    assert interp.computer.mail.unread_count() == 1
    import shutil

    if not shutil.which("sendmail"):
        with pytest.raises(NotAvailable, match="no local mail transfer agent"):
            interp.computer.mail.send("john@email.com", "Subject", "Body", ["path/to/attachment.pdf", "path/to/attachment2.pdf"])
    now = datetime.datetime.now()
    for call in (lambda: interp.computer.sms.send("2068675309", "Hello from Open Interpreter!"),
                 lambda: interp.computer.contacts.get_phone_number("John Doe"),
                 lambda: interp.computer.calendar.get_events(start_date=now, end_date=now),
                 lambda: interp.computer.calendar.create_event(title="Title", start_date=now, end_date=now, location="Location", notes="Notes", calendar="Work"),
                 lambda: interp.computer.calendar.delete_event(event_title="Title", start_date=now, calendar="Work")):
        with pytest.raises(NotAvailable, match="not available on this platform"):
            call()


def test_no_permission_is_one_clear_line(tmp_path, monkeypatch):
    """An X server that wants a cookie: without it, one line that says to set XAUTHORITY."""
    import shutil
    import subprocess

    if not (shutil.which("xauth") and shutil.which("mcookie")):
        pytest.skip("xauth is not installed")
    auth = tmp_path / "auth"
    auth.touch()
    x = Xvfb(auth=str(auth))
    try:
        cookie = subprocess.run(["mcookie"], capture_output=True, text=True).stdout.strip()
        subprocess.run(["xauth", "-f", str(auth), "add", x.display, ".", cookie], check=True)
        (tmp_path / "empty").touch()
        monkeypatch.setenv("DISPLAY", x.display)
        monkeypatch.setenv("XAUTHORITY", str(tmp_path / "empty"))
        c = Computer()
        for call in (c.display.screenshot, c.mouse.position):
            with pytest.raises(ComputerAPIError, match=rf"^no permission to use display {x.display}: set XAUTHORITY"):
                call()
        monkeypatch.setenv("XAUTHORITY", str(auth))
        assert c.display.size() == (1024, 768) and c.mouse.position() == (512, 384)
    finally:
        x.stop()


def test_missing_extra_is_one_clear_line(xserver):
    import subprocess
    import sys

    code = ("import sys; sys.modules['mss'] = None\n"
            "from oi_local.computer import Computer\n"
            "try:\n    Computer().display.view()\nexcept Exception as e:\n    print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=xserver.env())
    assert out.stdout.strip() == "ComputerAPIError the Computer API needs mss (mss is missing): pip install 'oi-local[os]'"
