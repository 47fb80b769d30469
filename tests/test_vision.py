"""Vision: image files named in a request go with it; a vision model gets them as image parts
(through a real OpenAI-compatible server on 127.0.0.1), a model without vision gets what OCR reads
in them instead; images never vanish silently."""
from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from terminal_support import ROOT, interpreter_argv

from oi_local.terminal.attach import image_paths

PIL = pytest.importorskip("PIL.Image", reason="the os extra (pillow) is installed by scripts/test")


def _picture(path: Path, text: str = "", size=(40, 30), color="red") -> Path:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", size, color)
    if text:
        draw = ImageDraw.Draw(img)
        draw.text((10, 10), text, fill="black", font=ImageFont.load_default(size=36))
    img.save(path)
    return path


def test_image_paths_in_a_request(tmp_path: Path) -> None:
    a = _picture(tmp_path / "chart.png")
    b = _picture(tmp_path / "my photo.jpg")
    (tmp_path / "notes.txt").write_text("x")
    text = f"compare chart.png, '{b}' and file://{str(a).replace(' ', '%20')}; ignore notes.txt and gone.png."
    assert image_paths(text, cwd=tmp_path) == [a.resolve(), b.resolve()]
    assert image_paths(f"what is in {str(b).replace(' ', chr(92) + ' ')}?", cwd=tmp_path) == [b.resolve()]  # dropped: a\ b.jpg
    assert image_paths("don't crash on one quote", cwd=tmp_path) == []


class _VisionServer:
    """Answers with what it was shown: the size of each image it received as an image part."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if not self.path.endswith("/chat/completions"):  # token counting and other probes
                    self.send_response(404)
                    self.end_headers()
                    return
                seen.append(body)
                sizes = []
                for m in body["messages"]:
                    if isinstance(m.get("content"), list):
                        for part in m["content"]:
                            if part.get("type") == "image_url":
                                data = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                                sizes.append("x".join(map(str, PIL.open(io.BytesIO(data)).size)))
                said = f"I see {len(sizes)} image(s): {', '.join(sizes)}." if sizes else "I see no image."
                base = {"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "v"}
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for piece in (said, ""):
                    delta = {"content": piece} if piece else {}
                    chunk = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None if piece else "stop"}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


def test_vision_flag_sends_a_named_image_to_a_vision_server(tmp_path: Path) -> None:
    _picture(tmp_path / "pic.png", size=(40, 30))
    server = _VisionServer()
    try:
        out = subprocess.run(interpreter_argv("--api_base", server.url, "--model", "vlm", "--vision", "-y",
                                              "what is in pic.png?"),
                             capture_output=True, text=True, timeout=120, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        server.httpd.shutdown()
    assert out.returncode == 0, out.stderr
    assert "I see 1 image(s): 40x30." in out.stdout
    user = [m for m in server.requests[0]["messages"] if m["role"] == "user"][-1]
    assert any(p.get("type") == "text" and "what is in pic.png?" in p["text"] for p in user["content"])


def test_without_vision_mode_no_image_is_attached(tmp_path: Path) -> None:
    _picture(tmp_path / "pic.png")
    server = _VisionServer()
    try:
        out = subprocess.run(interpreter_argv("--api_base", server.url, "--model", "vlm", "-y", "what is in pic.png?"),
                             capture_output=True, text=True, timeout=120, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    finally:
        server.httpd.shutdown()
    assert out.returncode == 0, out.stderr
    assert "I see no image." in out.stdout


def test_a_model_without_vision_gets_the_text_ocr_reads_in_the_image(tmp_path: Path) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the os extra (OCR) is installed by scripts/test")
    from oi_local.interpreter import OpenInterpreter

    pic = _picture(tmp_path / "sign.png", text="OPEN 24", size=(320, 80), color="white")
    seen: list = []

    def model(messages, **_):
        seen.append(messages)
        yield {"choices": [{"delta": {"content": "It is a sign."}}]}

    i = OpenInterpreter(conversation_history=False)
    i.llm.completions = model
    i.vision = True
    try:
        from oi_local.terminal.attach import chat_stream

        for _ in chat_stream(i, f"what does {pic} say?", display=False):
            pass
    finally:
        i.close()
    text = json.dumps(seen[0])
    assert "The user shared an image" in text and "OPEN 24" in text and "image_url" not in text


def test_images_the_code_made_are_described_for_a_model_without_vision() -> None:
    from oi_local.core.convert import Templates, to_chat

    msgs = [{"role": "user", "type": "message", "content": "plot it"},
            {"role": "assistant", "type": "code", "format": "python", "content": "plt.show()"},
            {"role": "computer", "type": "image", "format": "base64.png", "content": "AAAA"}]
    out = to_chat(msgs, Templates(), describe=lambda m: "a line chart")
    assert "What they show:\nImage 1: a line chart" in out[-1]["content"]
    out = to_chat(msgs, Templates(), vision=True, describe=lambda m: "unused")
    assert out[-1]["content"][1]["type"] == "image_url"


def test_an_unreadable_image_is_said_to_be_unreadable_not_dropped(tmp_path: Path) -> None:
    from oi_local.computer import Computer
    from oi_local.core.images import ImageDescriber

    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not a png")
    c = Computer()
    try:
        text = ImageDescriber(c)({"role": "user", "type": "image", "format": "path", "content": str(bad)})
    finally:
        c.terminate()
    assert text.startswith("(it could not be read here:")
