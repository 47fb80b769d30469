"""Magic commands (guides/advanced-terminal-usage): `%reset`, `%undo`, `%tokens` ...

They work in the terminal chat and through `interpreter.chat("%undo")` from Python. Each prints
its result with `say` and never sends anything to the model.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable

from oi_local.terminal.textio import plural

Say = Callable[[str], None]

HELP = """Magic commands:
  %% <command>          run a shell command in the interpreter's shell session
  %verbose [true|false] turn verbose mode on (default) or off
  %reset                start a new conversation (the old one stays saved)
  %undo                 take back your last message and the reply to it
  %undo files           put back the files the last run changed (with computer.undo_files on)
  %save_message [path]  save the messages to a JSON file (default messages.json)
  %load_message [path]  load messages from a JSON file (default messages.json)
  %tokens [prompt]      tokens the next request would send, and its cost (0 for local models)
  %info                 system and interpreter information
  %auto_run [true|false] run code without asking (toggles without an argument)
  %allow PATH           let code change files in PATH too (the sandbox restarts the sessions)
  %jupyter [path]       export the conversation to a Jupyter notebook (Downloads folder by default)
  %markdown [path]      export the conversation to Markdown (Downloads folder by default)
  %help                 this help"""


def is_magic(text: Any) -> bool:
    """`%%...` or `%word...`: a magic command (known or not). "%50 of 200?" is a question."""
    if not isinstance(text, str):
        return False
    t = text.lstrip()
    return t.startswith("%%") or (t.startswith("%") and t[1:2].isalpha())


def is_command(text: Any) -> bool:
    """A known magic command (what `interpreter.chat()` intercepts from Python)."""
    if not is_magic(text):
        return False
    t = text.lstrip()
    return t.startswith("%%") or t[1:].split(" ", 1)[0].lower() in COMMANDS


def handle(interp: Any, text: str, say: Say | None = None) -> bool:
    """Run one magic command. Returns False when `text` is not a known command (it was still
    answered with a message)."""
    say = say or (lambda s: print(s, flush=True))
    text = text.strip()
    if text.startswith("%%"):
        return _shell(interp, text[2:].strip(), say)
    name, _, arg = text[1:].partition(" ")
    arg = arg.strip()
    fn = COMMANDS.get(name.lower())
    if fn is None:
        say(f"Unknown magic command %{name}. Type %help for the list.")
        return False
    fn(interp, arg, say)
    return True


def _bool(arg: str, current: bool | None = None) -> bool:
    a = arg.lower()
    if a in ("", "on"):
        return True if current is None else not current
    if a in ("true", "1", "yes", "on"):
        return True
    if a in ("false", "0", "no", "off"):
        return False
    raise ValueError(arg)


def _shell(interp: Any, cmd: str, say: Say) -> bool:
    if not cmd:
        say("Usage: %% <shell command>")
        return True
    out: list[str] = []
    for c in interp.computer.run("shell", cmd, stream=True):
        if c.get("type") == "console" and c.get("format") == "output" and c.get("content"):
            out.append(c["content"])
    say("".join(out).rstrip("\n") or "(no output)")
    return True


def _verbose(interp: Any, arg: str, say: Say) -> None:
    try:
        interp.verbose = _bool(arg) if arg else True
    except ValueError:
        say("Usage: %verbose [true|false]")
        return
    say(f"Verbose mode {'on' if interp.verbose else 'off'}.")


def _auto_run(interp: Any, arg: str, say: Say) -> None:
    try:
        interp.auto_run = _bool(arg, interp.auto_run)
    except ValueError:
        say("Usage: %auto_run [true|false]")
        return
    note = " (safe mode is on, so code is still confirmed)" if interp.auto_run and getattr(interp, "safe_mode", "off") != "off" else ""
    say(f"auto_run {'on: code runs without asking' if interp.auto_run else 'off: code is confirmed first'}{note}.")


def _allow(interp: Any, arg: str, say: Say) -> None:
    computer = interp.computer
    if not arg:
        folders = ", ".join(computer.allow_write) or "none"
        say(f"Usage: %allow PATH. Code may write in the working folder ({os.getcwd()}), a private /tmp and: {folders}.")
        return
    path = os.path.realpath(os.path.expanduser(arg))
    if not os.path.isdir(path):
        say(f"%allow: {path} is not a folder.")
        return
    if path not in computer.allow_write:
        computer.allow_write = [*computer.allow_write, path]
    confined, line = computer.sandbox_status()
    if not confined:
        say(f"Code may write in {path} (it is not confined anyway: sandbox {line}).")
        return
    say(f"Code may now change files in {path}. The code sessions restart on their next run to see it "
        "(earlier variables are gone).")


def _reset(interp: Any, arg: str, say: Say) -> None:
    interp.reset()
    say("Reset: new conversation.")


def _undo(interp: Any, arg: str, say: Say) -> None:
    if arg.lower() == "files":
        _undo_files(interp, say)
        return
    msgs = interp.messages
    last_user = next((i for i in range(len(msgs) - 1, -1, -1) if msgs[i].get("role") == "user"), None)
    if last_user is None:
        say("Nothing to undo.")
        return
    removed = msgs[last_user:]
    del msgs[last_user:]
    text = removed[0].get("content")
    preview = text if isinstance(text, str) else "(a non-text message)"
    files = ""
    snap = getattr(interp.computer, "last_snapshot", None)
    if snap is not None and not snap.too_big and any(removed_m.get("type") == "code" for removed_m in removed):
        from oi_local.computer.undo import changes

        n = sum(len(x) for x in changes(snap))
        if n:
            files = f" The last run changed {n} file(s) in the working folder: %undo files puts them back."
    say(f"Removed your message {_short(preview)!r} and {plural(len(removed) - 1, 'message')} after it.{files}")
    _record(interp)


def _undo_files(interp: Any, say: Say) -> None:
    from oi_local.computer.undo import restore

    snap = getattr(interp.computer, "last_snapshot", None)
    if snap is None:
        if not getattr(interp.computer, "undo_files", False):
            say("File changes are not kept: turn on computer.undo_files (profile, or "
                "interpreter.computer.undo_files = True); from then on %undo files takes back the last run's changes.")
        else:
            say("No file changes to undo: no code has run yet.")
        return
    if snap.too_big:
        say(f"Cannot undo file changes: {snap.too_big}, so no copy was made before the last run.")
        return
    try:
        changed, deleted, created = restore(snap)
    except OSError as e:
        say(f"Could not restore every file: {e}")
        return
    if not (changed or deleted or created):
        say("The last run changed no files in the working folder.")
        return
    parts = [f"{label}: {', '.join(paths[:5])}{' ...' if len(paths) > 5 else ''}"
             for label, paths in (("restored", changed), ("brought back", deleted), ("removed", created)) if paths]
    say(f"Undid the last run's file changes in {snap.root} ({'; '.join(parts)}).")


def _save(interp: Any, arg: str, say: Say) -> None:
    path = Path(arg or "messages.json").expanduser()
    if path.suffix == "":
        path = path.with_suffix(".json")
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps(interp.messages, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        say(f"Could not save messages to {path}: {e.strerror or e}")
        return
    say(f"Saved {plural(len(interp.messages), 'message')} to {path}")


def _load(interp: Any, arg: str, say: Say) -> None:
    from oi_local.core.lmc import normalize

    path = Path(arg or "messages.json").expanduser()
    if path.suffix == "" and not path.exists():
        path = path.with_suffix(".json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        messages = normalize(data if isinstance(data, list) else [data])
    except (OSError, ValueError, TypeError) as e:
        say(f"Could not load messages from {path}: {getattr(e, 'strerror', None) or e}")
        return
    interp.messages = messages
    say(f"Loaded {plural(len(messages), 'message')} from {path}")
    _record(interp)


def _tokens(interp: Any, arg: str, say: Say) -> None:
    from oi_local.core.budget import price

    prompt = interp.build_prompt()
    n, exact = _count(interp, prompt)
    lines = [f"Next request: {n} tokens{'' if exact else ' (estimated)'} (system message and conversation)"]
    total = n
    if arg:
        # Exactly what sending it would build: the request wrapped in the user-message template and
        # the worked examples picked for it (extra_user= skips both, and so counted fewer).
        saved = interp.messages
        interp.messages = saved + [{"role": "user", "type": "message", "content": arg}]
        try:
            with_prompt = interp.build_prompt()
        finally:
            interp.messages = saved
        total, exact2 = _count(interp, with_prompt)
        lines.append(f"Your prompt adds {max(total - n, 0)} tokens; total {total}{'' if exact2 else ' (estimated)'}")
    cost = price(interp.llm, total, 0)
    if cost is None:
        lines.append(f"Cost: unknown (no price for {interp.llm.model!r} in litellm's table)")
    else:
        label = "local model" if cost == 0 and interp.llm.is_local() else interp.llm.model or "model"
        lines.append(f"Cost of the prompt: ${cost:.6f} ({label})")
    spent = getattr(interp, "spent", 0.0) or 0.0
    if getattr(interp, "max_budget", None) is not None:
        lines.append(f"Spent so far: ${spent:.6f} of max_budget ${float(interp.max_budget):.6f}")
    say("\n".join(lines))


def _count(interp: Any, messages: list[dict[str, Any]]) -> tuple[int, bool]:
    try:
        n = interp.llm.count_tokens(messages)
    except Exception:
        n = None
    if n is not None:
        return int(n), True
    from oi_local.core.context import TokenCounter

    return TokenCounter(None).total(messages), False


def _info(interp: Any, arg: str, say: Say) -> None:
    import oi_local

    llm = interp.llm
    log = getattr(interp, "_conversation_log", None)
    rows = [
        ("oi-local", oi_local.__version__),
        ("python", f"{platform.python_version()} ({sys.executable})"),
        ("system", f"{platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} CPUs"),
        ("model", f"{llm.model or '(embedded default)'} [{llm.kind()}]"),
        ("api_base", llm.api_base or "-"),
        ("context_window", llm.effective_context_window()),
        *([("gpu offload", _offload_info(llm))] if llm.capabilities().gpu_layers else []),
        ("max_tokens", llm.effective_max_tokens()),
        ("temperature", llm.temperature),
        ("function calling", llm.functions_enabled()),
        ("auto_run", interp.auto_run),
        ("safe_mode", getattr(interp, "safe_mode", "off")),
        ("loop", interp.loop),
        ("custom_instructions", _short(interp.custom_instructions or "-", 60)),
        ("multi_line", getattr(interp, "multi_line", False)),
        ("speak_messages", getattr(interp, "speak_messages", False)),
        ("offline", interp.offline),
        ("sandbox", interp.computer.sandbox_status()[1]),
        ("allowed folders", ", ".join(interp.computer.allow_write) or "-"),
        ("max_budget", getattr(interp, "max_budget", None)),
        ("spent", f"${getattr(interp, 'spent', 0.0) or 0.0:.6f}"),
        ("languages", ", ".join(interp.language_names())),
        ("messages", len(interp.messages)),
        ("conversation file", str(log.path) if log else "-"),
        ("profile", getattr(interp, "profile_path", None) or "-"),
    ]
    say("\n".join(f"{k:>18}: {v}" for k, v in rows))


def _offload_info(llm: Any) -> str:
    """What the loaded embedded model put on the GPU; before loading, what it will decide by."""
    info = getattr(getattr(llm, "_backend", None), "_info", None) or {}
    if "offload" in info:
        return f"{info['offload']} (n_gpu_layers={info.get('n_gpu_layers')})"
    if llm.n_gpu_layers is not None:
        return f"n_gpu_layers={llm.n_gpu_layers} as set"
    return "decided when the model loads: as many layers as the free VRAM holds (llm.n_gpu_layers overrides)"


def _help(interp: Any, arg: str, say: Say) -> None:
    say(HELP)


def _export_path(arg: str, suffix: str) -> Path:
    if arg:
        p = Path(arg).expanduser()
        return p if p.suffix else p.with_suffix(suffix)
    try:
        import platformdirs

        d = Path(platformdirs.user_downloads_dir())
    except Exception:
        d = Path.cwd()
    if not d.is_dir():
        d = Path.cwd()
    return d / f"conversation-{time.strftime('%Y%m%d-%H%M%S')}{suffix}"


def _jupyter(interp: Any, arg: str, say: Say) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    cells: list[Any] = []
    last_code = None
    for m in interp.messages:
        typ, role, content = m.get("type"), m.get("role"), m.get("content")
        if typ == "message" and isinstance(content, str):
            prefix = "**You:** " if role == "user" else ""
            cells.append(new_markdown_cell(prefix + content))
            last_code = None
        elif typ == "code":
            last_code = new_code_cell(content, metadata={"language": m.get("format", "python")})
            if m.get("format") not in (None, "python"):
                last_code.source = f"%%{'bash' if m.get('format') == 'shell' else m.get('format')}\n{content}"
            cells.append(last_code)
        elif typ == "console" and role == "computer" and last_code is not None and content:
            last_code.outputs.append(new_output("stream", name="stdout", text=content))
        elif typ == "image" and last_code is not None and m.get("format", "").startswith("base64"):
            mime = "image/jpeg" if "jpeg" in m.get("format", "") else "image/png"
            last_code.outputs.append(new_output("display_data", data={mime: content}))
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    path = _export_path(arg, ".ipynb")
    try:
        nbformat.write(nb, str(path))
    except OSError as e:
        say(f"Could not write {path}: {e.strerror or e}")
        return
    say(f"Exported the conversation to the notebook {path}")


def to_markdown(messages: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for m in messages:
        typ, role, content = m.get("type"), m.get("role"), m.get("content")
        if typ == "message" and isinstance(content, str):
            parts.append(f"**{'You' if role == 'user' else 'Assistant'}:** {content.strip()}" if role == "user" else content.strip())
        elif typ == "code":
            parts.append(f"```{m.get('format', '')}\n{content}\n```")
        elif typ == "console" and content:
            parts.append(f"```\n{str(content).rstrip()}\n```")
        elif typ == "image":
            parts.append("*(image)*")
    return "\n\n".join(parts) + "\n"


def _markdown(interp: Any, arg: str, say: Say) -> None:
    path = _export_path(arg, ".md")
    try:
        path.write_text(to_markdown(interp.messages), encoding="utf-8")
    except OSError as e:
        say(f"Could not write {path}: {e.strerror or e}")
        return
    say(f"Exported the conversation to {path}")


def _record(interp: Any) -> None:
    from oi_local.terminal.history import record

    record(interp)


def _short(text: str, n: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


COMMANDS: dict[str, Callable[[Any, str, Say], None]] = {
    "verbose": _verbose,
    "reset": _reset,
    "undo": _undo,
    "save_message": _save,
    "load_message": _load,
    "tokens": _tokens,
    "info": _info,
    "help": _help,
    "jupyter": _jupyter,
    "markdown": _markdown,
    "auto_run": _auto_run,
    "allow": _allow,
}
