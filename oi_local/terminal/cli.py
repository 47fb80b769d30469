"""The `interpreter` command. Parsing is plain argparse so `--help` and `--version` stay fast.

Order of settings: the profile (default.yaml, or --profile), then the flags that were given.
A flag's default never overwrites a profile value (every default here is None).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from typing import Any

import oi_local

NOT_YET = "{flag} is not available yet in oi-local."


def typed(key: str) -> Any:
    """An argparse `type` that checks a flag's value against its setting (oi_local/settings.py)."""
    def convert(text: str) -> Any:
        from oi_local.settings import BY_KEY, SettingError

        try:
            return BY_KEY[key].check(text)
        except SettingError as e:
            raise argparse.ArgumentTypeError(str(e).split(": ", 1)[-1]) from None

    convert.__name__ = key
    return convert


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="interpreter",
        description="Open Interpreter, local and offline: chat with a language model that writes and runs code on your machine.",
        epilog="In the chat, type %help for magic commands. Profiles: interpreter --profiles.",
    )
    p.add_argument("message", nargs="*", help="run this one message non-interactively and exit (also read from stdin when it is not a terminal)")
    g = p.add_argument_group("model")
    g.add_argument("-m", "--model", help="model: a .gguf path or catalog id (embedded llama.cpp), a name served at --api_base, or a hosted name via litellm")
    g.add_argument("-f", "--fast", action="store_true", default=None, help="quicker, shorter replies (the bundled 'fast' profile)")
    g.add_argument("-l", "--local", action="store_true", default=None, help="choose a local model (remembered in the default profile)")
    g.add_argument("--pick", action="store_true", default=None, help="with --local: ask again instead of using the remembered choice")
    g.add_argument("-t", "--temperature", type=typed("llm.temperature"), help="sampling temperature (default 0)")
    g.add_argument("-c", "--context_window", type=typed("llm.context_window"), help="context window in tokens")
    g.add_argument("-x", "--max_tokens", type=typed("llm.max_tokens"), help="most tokens the model may write per reply")
    g.add_argument("-xo", "--max_output", type=typed("max_output"), help="most characters of code output kept (head and tail)")
    g.add_argument("-ab", "--api_base", help="base URL of an OpenAI-compatible server (Ollama, LM Studio, Jan, llamafile, llama.cpp)")
    g.add_argument("-ak", "--api_key", help="API key for the model server or hosted provider")
    g.add_argument("-av", "--api_version", help="API version (Azure and similar)")
    g.add_argument("-lsf", "--llm_supports_functions", action=argparse.BooleanOptionalAction, default=None,
                   help="the model supports function calling (--no-llm_supports_functions: it does not)")
    g.add_argument("-lsv", "--llm_supports_vision", action="store_true", default=None, help="the model can see images")
    c = p.add_argument_group("profiles and prompts")
    c.add_argument("--profiles", action="store_true", help="list the profiles and their folder (and open it on a desktop)")
    c.add_argument("-p", "--profile", help="load a profile: a name in the profiles folder, a bundled one (local, fast, vision, qwen, llama), or a path")
    c.add_argument("-ci", "--custom_instructions", help="text appended to the system message")
    c.add_argument("-s", "--system_message", help="replace the system message")
    b = p.add_argument_group("behaviour")
    b.add_argument("--safe_mode", choices=("off", "ask", "auto"), help="scan code with semgrep before it runs: ask shows findings, auto also blocks high-severity ones")
    b.add_argument("-y", "--auto_run", action="store_true", default=None, help="run code without asking")
    b.add_argument("--loop", action="store_true", default=None, help="keep working until the model says the task is done or impossible")
    b.add_argument("-v", "--verbose", action="store_true", default=None, help="show timings, tokens/s, token counts and what was trimmed")
    b.add_argument("--sandbox", choices=("auto", "on", "off"),
                   help="confine code: auto (default) uses bubblewrap/sandbox-exec where present, on refuses to run code without it, off runs code as you")
    b.add_argument("--allow_write", action="append", metavar="PATH",
                   help="with the sandbox: code may also change files in PATH (repeatable); the working folder always")
    b.add_argument("--allow_network", action="store_true", default=None,
                   help="with the sandbox: code may use the network (never with --offline)")
    b.add_argument("-b", "--max_budget", type=typed("max_budget"), help="most USD to spend on hosted models this session (local models cost 0)")
    b.add_argument("-ml", "--multi_line", action="store_true", default=None, help="multi-line input: Enter adds a line, Esc then Enter sends")
    o = p.add_argument_group("other")
    o.add_argument("-sm", "--speak_messages", action="store_true", default=None, help="read replies aloud (espeak-ng)")
    o.add_argument("--offline", action="store_true", default=None, help="no online features (oi-local has none anyway)")
    o.add_argument("--disable_telemetry", action="store_true", default=None, help="accepted for compatibility: nothing is ever sent")
    o.add_argument("--conversations", action="store_true", help="pick a saved conversation and resume it")
    o.add_argument("--local_models", nargs="*", metavar="ARG", help="manage local models: list, catalog, download ID, remove, verify, prune, path, import PATH.gguf "
                        "(--local_models --help for details)")
    o.add_argument("--server", action="store_true", help="serve the interpreter over HTTP/WebSocket")
    o.add_argument("--host", help="with --server: address to listen on")
    o.add_argument("--port", type=int, help="with --server: port to listen on")
    o.add_argument("--allow_unsafe_settings", action="store_true",
                   help="with --server: let clients change auto_run, system_message, languages, model and keys via /settings")
    o.add_argument("-vi", "--vision", action="store_true", default=None,
                   help="vision: image files named in a request go with it; the model sees them (or, without vision, their description)")
    o.add_argument("-o", "--os", action="store_true", default=None,
                   help="OS mode: the model looks at the screen and uses the mouse and keyboard (needs a display and pip install 'oi-local[os]')")
    o.add_argument("--import_computer_api", action="store_true", default=None,
                   help="tell the model about the Computer API (computer.display, mouse, keyboard, clipboard, files, skills ...)")
    o.add_argument("--skills_path", help="folder of saved skills (computer.skills)")
    o.add_argument("--download", action="store_true", help="download the default local model and exit")
    o.add_argument("--version", action="store_true", help="print the version and exit")
    return p


LLM_FLAGS = ("model", "api_base", "api_key", "api_version", "context_window", "max_tokens", "temperature")


def apply_args(interp: Any, args: argparse.Namespace) -> None:
    """Only flags that were given change settings: defaults never overwrite a profile."""
    for name in LLM_FLAGS:
        value = getattr(args, name, None)
        if value is not None:
            setattr(interp.llm, name, value)
    if args.llm_supports_functions is not None:
        interp.llm.supports_functions = bool(args.llm_supports_functions)
    if args.llm_supports_vision:
        interp.llm.supports_vision = True
    if args.max_output is not None:
        interp.max_output = args.max_output
    for flag in ("auto_run", "verbose", "loop", "multi_line", "speak_messages", "offline", "disable_telemetry"):
        value = getattr(args, flag, None)
        if value is not None:  # True when given; False when given as `--flag false`
            setattr(interp, flag, bool(value))
    if args.custom_instructions is not None:
        interp.custom_instructions = args.custom_instructions
    if args.system_message is not None:
        interp.system_message = args.system_message
    if args.safe_mode is not None:
        interp.safe_mode = args.safe_mode
    if args.max_budget is not None:
        interp.max_budget = args.max_budget
    if args.os:
        interp.os = True
    if args.vision:
        interp.vision = True
    if args.import_computer_api:
        interp.computer.import_computer_api = True
    if args.skills_path is not None:
        interp.computer.skills_path = args.skills_path
    if args.offline:
        interp.computer.offline = True  # and code gets no network, whatever allow_network says
    if args.sandbox is not None:
        interp.computer.sandbox = args.sandbox
    if args.allow_network:
        interp.computer.allow_network = True
    for path in args.allow_write or ():
        full = os.path.realpath(os.path.expanduser(path))
        if full not in interp.computer.allow_write:
            interp.computer.allow_write = [*interp.computer.allow_write, full]


def _err(text: str) -> None:
    print(f"Error: {text}", file=sys.stderr, flush=True)


_BOOL_WORDS = {"true": True, "false": False}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """argparse, plus the docs' `--offline true` / `-y false` spelling of on/off flags: the word
    after such a flag is its value, not the start of the message."""
    parser = build_parser()
    tokens = list(sys.argv[1:] if argv is None else argv)
    switches = {opt: a.dest for a in parser._actions if isinstance(a, argparse._StoreTrueAction)
                for opt in a.option_strings}
    explicit: dict[str, bool] = {}
    kept: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kept.append(tok)
        if tok == "--":
            kept.extend(tokens[i + 1:])
            break
        word = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if tok in switches and word in _BOOL_WORDS:
            explicit[switches[tok]] = _BOOL_WORDS[word]
            i += 1
        i += 1
    args = parser.parse_args(kept)
    for dest, value in explicit.items():
        setattr(args, dest, value)
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--local_models" in argv:  # the rest is manage's own command line: its --help, bundle DIR --platform TAG ...
        from oi_local.local.manage import main as manage_main

        return int(manage_main(argv[argv.index("--local_models") + 1:]) or 0)
    args = parse_args(argv)
    if args.version:
        print(f"oi-local {oi_local.__version__}")
        return 0
    if args.local_models is not None:
        try:
            from oi_local.local.manage import main as manage_main
        except ImportError:
            print(NOT_YET.format(flag="--local_models"), file=sys.stderr)
            return 2
        return int(manage_main(list(args.local_models)) or 0)
    if args.download:
        from oi_local.terminal.firstrun import download_default

        return download_default()

    from oi_local.terminal import profiles

    if args.profiles:
        return open_profiles_folder()

    from oi_local.errors import LLMError
    from oi_local.interpreter import OpenInterpreter
    from oi_local.terminal.textio import forgiving_output

    forgiving_output()
    interp = OpenInterpreter()
    interp.in_terminal_interface = True
    oi_local._default = interp  # Python profiles' `from interpreter import interpreter` is this one
    try:
        return _run(interp, args, profiles, LLMError)
    finally:
        # One more Ctrl-C while the sessions shut down must not end in a traceback.
        import signal

        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            interp.close()
        finally:
            signal.signal(signal.SIGINT, previous)


def _run(interp: Any, args: argparse.Namespace, profiles: Any, LLMError: type[Exception]) -> int:
    try:
        default = profiles.ensure_default()
    except OSError as e:
        _err(f"cannot create the profiles folder: {e}")
        default = None
    meta: dict[str, Any] = {}
    try:
        if args.profile:
            path, meta = profiles.load(interp, args.profile)
        elif default is not None:
            path, meta = profiles.load(interp, str(default))
        else:
            path = None
        interp.profile_path = str(path) if path else None
        if args.fast or meta.get("fast"):
            profiles.load(interp, "fast")
    except profiles.ProfileError as e:
        _err(str(e))
        return 2
    for key in ("speak_messages", "multi_line"):
        if meta.get(key) is not None:
            setattr(interp, key, bool(meta[key]))
    if meta.get("disable_telemetry") is not None:
        interp.disable_telemetry = bool(meta["disable_telemetry"])
    apply_args(interp, args)

    if getattr(interp, "speak_messages", False) and not (shutil.which("espeak-ng") or shutil.which("espeak")):
        print("--speak_messages: espeak-ng is not installed (apt-get install espeak-ng), so replies are not spoken.", file=sys.stderr)
    bad = [p for p in interp.computer.allow_write if not os.path.isdir(p)]
    if bad:
        _err(f"--allow_write: {bad[0]} is not a folder")
        return 2
    _sandbox_notice(interp)
    if interp.safe_mode != "off" and interp.auto_run:
        print(f"Safe mode is {interp.safe_mode}: code is shown and confirmed before it runs (auto_run is ignored).", file=sys.stderr)

    if args.local or (meta.get("local") is True):
        code = _local(interp, args, profiles, meta)
        if code is not None:
            return code
    if args.server:
        try:
            from oi_local.server.cli import serve
        except ImportError:
            print(NOT_YET.format(flag="--server"), file=sys.stderr)
            return 2
        return int(serve(interp, args.host, args.port, allow_unsafe_settings=args.allow_unsafe_settings) or 0)
    if args.conversations:
        if not _pick_conversation(interp):
            return 0

    from oi_local.terminal.textio import clean, read_stdin

    message = clean(" ".join(args.message)).strip()
    if not message and not sys.stdin.isatty() and not args.conversations:
        message = read_stdin().strip()
    if getattr(interp, "os", False):
        from oi_local.core import os_mode

        problem = os_mode.check(interp)
        if problem:
            _err(problem)
            return 2
        print("OS mode: Ctrl-C, or pushing the mouse into a screen corner, stops it.", file=sys.stderr)
        if not interp.llm.sees_images():
            print("OS mode: this model cannot see images, so after each step it gets the "
                  "screen's text from OCR; for screenshots use a vision model with --llm_supports_vision.", file=sys.stderr)
    if getattr(interp, "vision", False):
        _vision_note(interp)
    from oi_local.terminal.firstrun import ensure_model

    # A person at the terminal is asked first; -y or a pipe fetch it at once (progress on stderr).
    if not ensure_model(interp, ask=sys.stdin.isatty() and not interp.auto_run):
        return 1
    from pathlib import Path

    from oi_local.terminal.apikey import ensure_key

    yaml_profile = interp.profile_path if (interp.profile_path or "").endswith((".yaml", ".yml")) else None
    if not ensure_key(interp, interactive=sys.stdin.isatty(), profile=Path(yaml_profile) if yaml_profile else None):
        return 1
    from oi_local.computer.api.errors import ComputerAPIError, FailSafeStop

    if message:
        try:
            from oi_local.terminal.attach import chat_stream

            for _ in chat_stream(interp, message):
                pass
        except LLMError as e:
            _err(str(e))
            return 1
        except ComputerAPIError as e:
            _err(str(e))
            return 1
        except FailSafeStop as e:
            print(f"\n{e}", file=sys.stderr)
            return 130
        except KeyboardInterrupt:
            print("\nInterrupted.", file=sys.stderr)
            return 130
        return 0
    from oi_local.terminal.chat import interactive_chat

    interactive_chat(interp)
    return 0


def _vision_note(interp: Any) -> None:
    """--vision: the model sees images when it can (a vision server, or an embedded vision model with
    its projector); a text-only embedded model gets them described by OCR (or computer.vision) instead."""
    if interp.llm.capabilities().images:  # a server or hosted model (the embedded one: by its projector)
        interp.llm.supports_vision = True
    elif not interp.llm.sees_images():
        print("Vision: this model reads text only, so images are described to it (a vision model set in "
              "computer.vision, else OCR). For a model that sees them: `interpreter --local` and pick a vision "
              "model (its projector comes with it), or a vision model server (--api_base).", file=sys.stderr)
    else:
        interp.llm.supports_vision = True


def _sandbox_notice(interp: Any) -> None:
    """Said once at start when code will run unconfined, and why (also in %info)."""
    confined, line = interp.computer.sandbox_status()
    if not confined:
        print(f"Sandbox {line}.", file=sys.stderr)
    elif interp.computer.allow_network and interp.computer.offline:
        print("--allow_network has no effect with --offline: code gets no network.", file=sys.stderr)


def _local(interp: Any, args: argparse.Namespace, profiles: Any, meta: dict[str, Any]) -> int | None:
    try:
        from oi_local.local.wizard import choose
    except ImportError:
        print(NOT_YET.format(flag="--local"), file=sys.stderr)
        return 2
    remembered = meta.get("local") if isinstance(meta.get("local"), dict) else profiles.remembered("local")
    wants_images = bool(args.os or args.vision or getattr(interp, "os", False) or getattr(interp, "vision", False))
    chosen = choose(remembered if isinstance(remembered, dict) else None, bool(args.pick), vision=wants_images)
    if not chosen:
        print("No local model chosen.", file=sys.stderr)
        return 1
    from oi_local import settings as schema

    for key, value in chosen.items():
        if key in schema.BY_KEY and schema.BY_KEY[key].attr:
            try:
                schema.assign(interp, key, value)
            except schema.SettingError as e:
                _err(f"the remembered local model choice: {e}")
                return 2
    try:
        if dict(chosen) != remembered:  # rewrite the profile only when the choice changed
            profiles.remember("local", dict(chosen))
    except (OSError, profiles.ProfileError) as e:
        print(f"Warning: could not remember the local model choice: {e}", file=sys.stderr)
    # Flags given on the command line still win over the wizard's choice.
    apply_args(interp, args)
    return None


def _pick_conversation(interp: Any) -> bool:
    """Let the user pick a saved conversation (newest first) and load it. False: nothing to resume."""
    import datetime

    from oi_local.terminal import history
    from oi_local.terminal.textio import plural

    d = history.folder(interp)
    entries = history.list_conversations(d)
    if not entries:
        print(f"No saved conversations yet (they are kept in {d}).")
        return False
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        for e in entries:
            print(f"{datetime.datetime.fromtimestamp(e.modified):%Y-%m-%d %H:%M}  {e.title}  ({e.path})")
        return False
    import questionary

    choices = [questionary.Choice(title=f"{datetime.datetime.fromtimestamp(e.modified):%Y-%m-%d %H:%M}  {e.title}  ({plural(e.messages, 'message')})",
                                  value=str(e.path)) for e in entries]
    choices.append(questionary.Choice(title="> Open folder", value="__folder__"))
    picked = questionary.select("Resume which conversation?", choices=choices).ask()
    if not picked:
        return False
    if picked == "__folder__":
        _open_folder(d)
        return False
    from pathlib import Path

    path = Path(picked)
    interp.messages = history.load(path)
    interp._conversation_log = history.ConversationLog.resume(interp, path)
    cut_short = history.close_unfinished_turn(interp.messages)
    if cut_short:
        history.record(interp)
    model = (history.header(path).get("settings") or {}).get("llm.model")
    shown = _last_turns(interp.messages, 2)
    recorded = f" (recorded with model {model})" if model else ""
    again = f"; the last {plural(len(shown), 'message')} again:" if shown else "."
    print(f"Resumed {path.name}: {plural(len(interp.messages), 'message')}{recorded}{again}")
    if shown:
        from oi_local.terminal.display import Display

        Display(interp).replay(shown)
    return True


def _last_turns(messages: list[Any], turns: int) -> list[Any]:
    """The messages from the `turns`-th newest request of the user on."""
    starts = [i for i, m in enumerate(messages) if m.get("role") == "user" and m.get("type") == "message"]
    return messages[starts[-turns] if len(starts) >= turns else 0:]


def open_profiles_folder() -> int:
    """List the profiles (yours, then the bundled ones) with where they are; open the folder on a desktop."""
    from oi_local.terminal.profiles import BUNDLED_DIR, ensure_default, profiles_dir

    try:
        ensure_default()
    except OSError as e:
        _err(f"cannot create the profiles folder: {e}")
        return 1
    yours = _profile_files(profiles_dir())
    bundled = [p for p in _profile_files(BUNDLED_DIR) if p.stem not in {y.stem for y in yours}]
    print(f"Your profiles, in {profiles_dir()}:")
    for p in yours:
        print(f"  {p.stem:<14} {p.name}{'  (loaded at every start)' if p.name == 'default.yaml' else ''}")
    print("Bundled profiles:")
    for p in bundled:
        print(f"  {p.stem:<14} {_first_comment(p)}")
    print("Use one with `interpreter --profile NAME`; edit yours in the folder above.")
    _open_folder(profiles_dir(), quiet=True)
    return 0


def _profile_files(d: Any) -> list[Any]:
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.suffix in (".yaml", ".yml", ".py") and not p.name.startswith("."))


def _first_comment(path: Any) -> str:
    """A bundled profile's own description: its first comment line."""
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") and line.strip("# "):
                return line.strip("# ").strip()[:90]
    except OSError:
        pass
    return path.name


def _open_folder(path: Any, quiet: bool = False) -> None:
    opener = shutil.which("xdg-open") or shutil.which("open")
    if opener and (sys.platform == "darwin" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        subprocess.Popen([opener, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        print(f"Opened {path}")
    elif not quiet:
        print(path)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
