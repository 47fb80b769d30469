"""A small Ollama server on 127.0.0.1 speaking the parts of Ollama's HTTP API that oi-local and
the `ollama` client library use: /api/tags, /api/show, /api/pull (NDJSON progress), /api/create
(`from` + `parameters`), /api/chat (NDJSON), and the OpenAI-compatible /v1/models and
/v1/chat/completions (SSE).

Like the real one, a model's context is its `num_ctx` parameter (set by /api/create) unless a
native request passes `options.num_ctx`; the OpenAI-compatible path cannot pass options. Every
chat records the num_ctx it would have run with, so tests can check what reached the model.
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_NUM_CTX = 4096  # Ollama's default when nothing sets it


class OllamaServer:
    def __init__(self, models: dict[str, dict[str, Any]] | None = None,
                 library: dict[str, dict[str, Any]] | None = None) -> None:
        """`models`: installed, name -> {"arch", "context_length", "size"}; `library`: pullable ones."""
        self.models: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (models or {}).items()}
        self.library = {k: dict(v) for k, v in (library or {}).items()}
        self.chats: list[dict[str, Any]] = []  # {"path", "model", "num_ctx", "messages"}
        self.calls: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _json(self, status: int, obj: Any) -> None:
                body = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _stream(self, content_type: str, parts: list[bytes], delay: float = 0.0) -> None:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for part in parts:
                    self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                    self.wfile.flush()
                    if delay:
                        time.sleep(delay)
                self.wfile.write(b"0\r\n\r\n")

            def _body(self) -> dict[str, Any]:
                n = int(self.headers.get("Content-Length") or 0)
                try:
                    return json.loads(self.rfile.read(n) or b"{}")
                except ValueError:
                    return {}

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self) -> None:
                server.calls.append("GET " + self.path)
                if self.path == "/":
                    body = b"Ollama is running"
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path == "/api/version":
                    self._json(200, {"version": "0.6.5"})
                elif self.path == "/api/tags":
                    self._json(200, {"models": [_tag(n, m) for n, m in server.models.items()]})
                elif self.path == "/v1/models":
                    self._json(200, {"object": "list", "data": [
                        {"id": n, "object": "model", "created": 0, "owned_by": "library"} for n in server.models]})
                else:
                    self._json(404, {"error": "404 page not found"})

            def do_POST(self) -> None:
                body = self._body()
                server.calls.append("POST " + self.path)
                name = body.get("model") or body.get("name") or ""
                if self.path == "/api/show":
                    m = server.models.get(name)
                    if m is None:
                        return self._json(404, {"error": f"model '{name}' not found"})
                    params = "\n".join(f"{k} {v}" for k, v in (m.get("parameters") or {}).items())
                    return self._json(200, {
                        "modelfile": f"FROM {name}\n", "parameters": params, "template": "{{ .Prompt }}",
                        "details": _details(m), "capabilities": ["completion"],
                        "model_info": {"general.architecture": m["arch"],
                                       f"{m['arch']}.context_length": m["context_length"]}})
                if self.path == "/api/pull":
                    src = server.library.get(name)
                    if src is None:
                        return self._json(500, {"error": "pull model manifest: file does not exist"})
                    total = int(src.get("size", 1000))
                    digest = "sha256:" + "ab" * 32
                    parts = [{"status": "pulling manifest"}]
                    parts += [{"status": f"pulling {digest[7:19]}", "digest": digest, "total": total,
                               "completed": total * i // 4} for i in range(1, 5)]
                    parts += [{"status": "verifying sha256 digest"}, {"status": "writing manifest"},
                              {"status": "success"}]
                    server.models[name] = dict(src)
                    if body.get("stream") is False:
                        return self._json(200, {"status": "success"})
                    return self._stream("application/x-ndjson", [json.dumps(p).encode() + b"\n" for p in parts], 0.02)
                if self.path == "/api/create":
                    base = server.models.get(body.get("from") or "")
                    if base is None:
                        return self._json(404, {"error": f"model '{body.get('from')}' not found"})
                    derived = dict(base)
                    derived["parameters"] = {**(base.get("parameters") or {}), **(body.get("parameters") or {})}
                    server.models[name] = derived
                    if body.get("stream") is False:
                        return self._json(200, {"status": "success"})
                    return self._stream("application/x-ndjson", [b'{"status":"using existing layers"}\n',
                                                                 b'{"status":"success"}\n'])
                if self.path == "/api/chat":
                    m = server.models.get(name)
                    if m is None:
                        return self._json(404, {"error": f"model '{name}' not found, try pulling it first"})
                    ctx = (body.get("options") or {}).get("num_ctx") or (m.get("parameters") or {}).get("num_ctx") \
                        or DEFAULT_NUM_CTX
                    server.chats.append({"path": self.path, "model": name, "num_ctx": int(ctx),
                                         "messages": body.get("messages")})
                    words = ["Hello", " from", " Ollama"]
                    now = "2025-01-01T00:00:00Z"
                    parts = [{"model": name, "created_at": now, "message": {"role": "assistant", "content": w},
                              "done": False} for w in words]
                    parts.append({"model": name, "created_at": now, "message": {"role": "assistant", "content": ""},
                                  "done": True, "done_reason": "stop", "prompt_eval_count": 10, "eval_count": 3})
                    if body.get("stream") is False:
                        return self._json(200, {**parts[-1], "message": {"role": "assistant", "content": "".join(words)}})
                    return self._stream("application/x-ndjson", [json.dumps(p).encode() + b"\n" for p in parts])
                if self.path == "/v1/chat/completions":
                    m = server.models.get(name)
                    if m is None:
                        return self._json(404, {"error": {"message": f"model \"{name}\" not found, try pulling it first",
                                                          "type": "api_error"}})
                    ctx = (m.get("parameters") or {}).get("num_ctx") or DEFAULT_NUM_CTX  # no options on /v1
                    server.chats.append({"path": self.path, "model": name, "num_ctx": int(ctx),
                                         "messages": body.get("messages")})
                    reply = ["```python\n", "print(6 * 7)\n", "```"]
                    chunks = [{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": name,
                               "choices": [{"index": 0, "delta": {"role": "assistant", "content": c},
                                            "finish_reason": None}]} for c in reply]
                    chunks.append({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": name,
                                   "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                    lines = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks] + [b"data: [DONE]\n\n"]
                    return self._stream("text/event-stream", lines)
                self._json(404, {"error": "404 page not found"})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "OllamaServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _details(m: dict[str, Any]) -> dict[str, Any]:
    return {"parent_model": "", "format": "gguf", "family": m["arch"], "families": [m["arch"]],
            "parameter_size": m.get("parameter_size", "1B"), "quantization_level": "Q4_K_M"}


def _tag(name: str, m: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "model": name, "modified_at": "2025-01-01T00:00:00Z", "size": int(m.get("size", 1000)),
            "digest": "cd" * 32, "details": _details(m)}
