"""Turn LMC messages into the chat messages a model sees (OpenAI format)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from oi_local.core.lmc import Message
from oi_local.core.prompts import apply_template


@dataclass
class Templates:
    user_message_template: str = "{content}"
    always_apply_user_message_template: bool = False
    code_output_template: str = "Code output: {content}"
    empty_code_output_template: str = "The code ran and printed nothing."
    code_output_sender: str = "user"


# Said back as the answer, this is the loop's own text, not the model's (rules/answers.py).
IMAGES_SHOWN = "image(s). What they show:"

def _image_part(m: Message) -> dict[str, Any]:
    fmt = m.get("format", "base64.png")
    if fmt == "path":
        import base64
        import mimetypes

        mime = mimetypes.guess_type(m["content"])[0] or "image/png"
        with open(m["content"], "rb") as f:
            data = base64.b64encode(f.read()).decode()
        url = f"data:{mime};base64,{data}"
    else:
        kind = "jpeg" if "jpeg" in fmt or "jpg" in fmt else "png"
        url = f"data:image/{kind};base64,{m['content']}"
    return {"type": "image_url", "image_url": {"url": url}}


def _add(out: list[dict[str, Any]], role: str, content: Any, **extra: Any) -> None:
    """Append a chat message, joined to a same-role neighbour: many chat templates require strict
    alternation."""
    if out and out[-1]["role"] == role and not extra and "tool_calls" not in out[-1] and role != "tool":
        prev = out[-1]["content"]
        if isinstance(prev, str) and isinstance(content, str):
            # A reply's prose keeps the line breaks the model wrote before its fence: two more
            # made the prompt differ from what the model had just written (a re-read from there).
            glued = role == "assistant" and prev.endswith("\n")
            out[-1]["content"] = prev + ("\n\n" if prev and content and not glued else "") + content
            return
        as_list = lambda c: c if isinstance(c, list) else ([{"type": "text", "text": c}] if c else [])  # noqa: E731
        out[-1]["content"] = as_list(prev) + as_list(content)
        return
    msg = {"role": role, "content": content}
    msg.update(extra)
    out.append(msg)


def append_user(conversation: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """The chat messages with `text` said by the user at the end (joined as to_chat joins)."""
    out = [*conversation[:-1], dict(conversation[-1])] if conversation else []
    _add(out, "user", text)
    return out


def to_chat(
    messages: list[Message],
    t: Templates,
    *,
    vision: bool = False,
    functions: bool = False,
    describe: Callable[[Message], str] | None = None,
) -> list[dict[str, Any]]:
    """Convert LMC messages (no system message) into alternating chat messages.

    Code becomes a fenced block in the assistant's text (or a tool call when the model supports
    functions); the computer's output goes back through the code-output templates. A model that
    cannot see images gets `describe(image)` (a local vision model or OCR) in their place.
    """
    out: list[dict[str, Any]] = []
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user" and m["type"] == "message"), default=-1)
    pending_code: dict[str, Any] | None = None  # the code message waiting for its output
    outputs: list[str] = []
    images: list[dict[str, Any]] = []
    seen: list[Message] = []  # the image messages behind `images`, for describe()
    call_id = 0

    def described(ms: list[Message]) -> str:
        if describe is None:
            return ""
        return "\n".join(f"Image {n}: {describe(m)}" for n, m in enumerate(ms, 1))

    def add(role: str, content: Any, **extra: Any) -> None:
        _add(out, role, content, **extra)

    def flush_output() -> None:
        nonlocal pending_code, outputs, images
        if pending_code is None and not outputs and not images:
            return
        text = "".join(outputs).strip("\n")
        body = apply_template(t.code_output_template, text) if text.strip() else t.empty_code_output_template
        if functions and pending_code is not None:
            out.append({"role": "tool", "tool_call_id": pending_code["id"], "content": text or "(no output)"})
            if images and vision:
                add("user", [{"type": "text", "text": "Images produced by the code:"}] + images)
        else:
            sender = "assistant" if t.code_output_sender == "assistant" else "user"
            content: Any = body
            if images and vision:
                content = [{"type": "text", "text": body}] + images
            elif images:
                what = described(seen)
                content = body + (f"\n(The code produced {len(images)} {IMAGES_SHOWN}\n{what})" if what else
                                  f"\n({len(images)} image(s) were produced; this model cannot see them.)")
            add(sender, content)
        pending_code, outputs, images = None, [], []
        seen.clear()

    for i, m in enumerate(messages):
        role, typ = m["role"], m["type"]
        if role == "computer" or (role == "user" and typ == "console"):
            if typ == "console" and m.get("format", "output") == "output":
                outputs.append(str(m.get("content", "")))
            elif typ == "image":
                images.append(_image_part(m) if vision else {})
                seen.append(m)
            continue
        if pending_code is not None or outputs or images:
            flush_output()
        if role == "user":
            if typ == "message":
                text = str(m["content"])
                if i == last_user or t.always_apply_user_message_template:
                    text = apply_template(t.user_message_template, text)
                add("user", text)
            elif typ == "image":
                where = m.get("content") if m.get("format") == "path" else "inline image"
                what = described([m]) if not vision else ""
                add("user", [_image_part(m)] if vision else
                    f"(The user shared an image: {where}" + (f". What it shows:\n{what})" if what else ")"))
            elif typ == "note":  # the loop's words after the request (never stored: engine.build_prompt)
                add("user", str(m["content"]))
            elif typ == "file":
                add("user", f"(The user shared a file: {m['content']})")
        elif role == "assistant":
            if typ == "message":
                add("assistant", str(m["content"]))
            elif typ == "code":
                lang = m.get("format") or "python"
                if functions:
                    call_id += 1
                    cid = f"call_{call_id}"
                    args = json.dumps({"language": lang, "code": m["content"]})
                    out.append({"role": "assistant", "content": "", "tool_calls": [
                        {"id": cid, "type": "function", "function": {"name": "execute", "arguments": args}}]})
                    pending_code = {"id": cid}
                else:
                    add("assistant", f"```{lang}\n{m['content']}\n```")
                    pending_code = {"id": None}
    # Output of the last code block, or the empty-output note for code that ran silently.
    if outputs or images or (pending_code is not None and messages and messages[-1]["role"] == "computer"):
        flush_output()
    return out
