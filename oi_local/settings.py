"""The one list of settings: their names, types, bounds, and who may change them over HTTP.

The Python API (assignments to `interpreter.*`, `interpreter.llm.*`, `interpreter.computer.*`),
profiles, the CLI, the server's `/settings` and `spawn` all read this table. Adding a setting is
one line in `SETTINGS` (and its default where the object is built).

Values are checked and converted on assignment: text from YAML, the command line or JSON such as
"false", "8192" or "0.5" becomes the type the setting has (pydantic's lax rules: for true/false
only true/false, yes/no, on/off, 1/0, t/f, y/n); anything else is refused with a one-line
`SettingError` naming the setting and what it expects. Pydantic is only imported when a value
is not already of its setting's type, so building an interpreter stays cheap.
"""
from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union

from oi_local.errors import SettingError

Http = Literal["open", "privileged", "secret", None]


@dataclass(frozen=True)
class Setting:
    key: str  # dotted: "auto_run", "llm.temperature", "computer.max_output"
    type: Any = Any  # a type annotation: bool, int | None, list[str], Any (not checked)
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()  # for text settings with fixed values (matched ignoring case)
    # Over the server's /settings: "open" to any client with the key, "privileged" only when the
    # server was started with allow_unsafe_settings, "secret" writable like privileged and never
    # readable, None not at all.
    http: Http = None
    # False: a key profiles and the CLI act on (fast, local ...), not an attribute.
    attr: bool = True
    # False: not loadable from a YAML profile (functions, classes).
    yaml: bool = True

    # --- checking ---
    def check(self, value: Any) -> Any:
        """`value` converted to this setting's type, or SettingError."""
        if value is None:
            if self.optional or self.type is Any:
                return None
            raise self.error(value)
        if self.type is Any:
            return value
        if self.choices and isinstance(value, bool):
            # YAML 1.1 reads an unquoted `off` / `on` as a boolean: `sandbox: off` means "off"
            word = "on" if value else "off"
            if word in self.choices:
                return word
        if not self._fast(value):
            value = self._convert(value)
        if self.choices:
            low = value.lower()
            if low not in self.choices:
                raise self.error(value)
            return low
        if isinstance(value, str):
            if self.hi is not None and len(value) > self.hi:  # for text, `hi` is its longest length
                raise self.error(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            if not (self.lo is None or value >= self.lo) or not (self.hi is None or value <= self.hi):
                raise self.error(value)  # also NaN, which compares false with everything
        return value

    def _fast(self, value: Any) -> bool:
        """Already of the setting's type (no conversion needed)."""
        for t in self.members:
            if t in (bool, int, float, str, dict) and type(value) is t:
                return True
            origin, args = typing.get_origin(t), typing.get_args(t)
            if origin is dict and type(value) is dict:
                return True
            if origin is list and type(value) is list:
                item = typing.get_origin(args[0]) or args[0] if args else Any
                if item is Any or all(type(x) is item for x in value):
                    return True
        return False

    def _convert(self, value: Any) -> Any:
        from pydantic import ValidationError

        if isinstance(value, bool) and bool not in self.members:
            raise self.error(value)  # True is not a number of tokens
        try:
            return _adapter(self.type).validate_python(value)
        except ValidationError:
            raise self.error(value) from None

    def error(self, value: Any) -> SettingError:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return SettingError(f"{self.key}: expected {self.expects()}, got {shown}")

    # --- describing ---
    @property
    def members(self) -> tuple[Any, ...]:
        if typing.get_origin(self.type) in (Union, types.UnionType):
            return typing.get_args(self.type)
        return (self.type,)

    @property
    def optional(self) -> bool:
        return type(None) in self.members

    def expects(self) -> str:
        if self.choices:
            words = "one of " + ", ".join(self.choices)
        else:
            words = " or ".join(_describe(t) for t in self.members if t is not type(None))
            if str in self.members and self.hi is not None:
                words += f" of at most {_num(self.hi)} characters"
            elif self.lo is not None and self.hi is not None:
                words += f" from {_num(self.lo)} to {_num(self.hi)}"
            elif self.lo is not None:
                words += f" of at least {_num(self.lo)}"
        return words + (" (or null)" if self.optional else "")

    @property
    def name(self) -> str:
        return self.key.rpartition(".")[2]

    @property
    def namespace(self) -> str:
        return self.key.rpartition(".")[0]


def _describe(t: Any) -> str:
    origin = typing.get_origin(t)
    if origin is list:
        (item,) = typing.get_args(t) or (Any,)
        return "a list" if item is Any else f"a list of {_describe(item)}"
    if origin is dict or t is dict:
        return "a mapping"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}.get(t, getattr(t, "__name__", str(t)))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@functools.lru_cache(maxsize=None)
def _adapter(t: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(t)


S = Setting
OPEN: Http = "open"
PRIV: Http = "privileged"
SECRET: Http = "secret"

# One line per setting. Defaults live where each object is built (core/engine.py, llm/llm.py,
# computer/computer.py, interpreter.py); tests/test_settings.py checks this list covers them.
SETTINGS: list[Setting] = [
    # --- the interpreter (core/engine.py, interpreter.py) ---
    S("auto_run", bool, http=PRIV),
    S("offline", bool, http=PRIV),
    S("verbose", bool, http=OPEN),
    S("loop", bool, http=OPEN),
    S("loop_message", str),
    S("loop_breakers", list[str]),
    S("max_code_steps", int, 1, 100, http=OPEN),
    S("max_output", int, 0, 1_000_000, http=OPEN),
    S("custom_instructions", str, hi=20_000, http=OPEN),
    S("confirm_destructive", bool, http=PRIV),
    S("one_block_per_turn", bool),
    S("check_fixes", bool),
    S("template", str | None),
    S("safe_mode", str, choices=("off", "ask", "auto"), http=PRIV),
    S("max_budget", float | None, 0),
    S("forbidden_commands", list[str] | None),
    S("conversation_history", bool),
    S("conversation_filename", str | None),
    S("conversation_history_path", str | None),
    S("anonymized_telemetry", bool),
    S("disable_telemetry", bool),
    S("speak_messages", bool),
    S("multi_line", bool),
    # prompt settings: unset, they come from the model's template set (templates/*.yaml)
    S("system_message", str | None, hi=100_000, http=PRIV),
    S("user_message_template", str | None, hi=20_000, http=PRIV),
    S("always_apply_user_message_template", bool),
    S("code_output_template", str | None, hi=20_000, http=PRIV),
    S("empty_code_output_template", str | None),
    S("code_output_sender", str | None),
    S("examples", list[dict[str, Any]] | None),
    S("file_hints", bool, http=OPEN),
    S("code_first", bool, http=OPEN),
    S("fresh_retries", int, 0, 5, http=OPEN),
    S("max_failed_runs", int, 0, 100, http=OPEN),
    S("second_opinions", int, 0, 5, http=OPEN),
    S("recipes", int, 0, 5, http=OPEN),
    S("prefill_code", bool, http=OPEN),
    S("error_notes", bool, http=OPEN),
    S("retry_at_once", bool, http=OPEN),
    S("computed_answers", bool, http=OPEN),
    # switches of the loop's other rules (core/rules/)
    S("stop_repeats", bool, http=OPEN),
    S("relabel_shell", bool, http=OPEN),
    S("module_fallback", bool, http=OPEN),
    S("check_answers", bool, http=OPEN),
    S("widen_rounding", bool, http=OPEN),
    S("check_outputs", bool, http=OPEN),
    S("correct_paths", bool, http=OPEN),
    S("repair_slips", bool, http=OPEN),
    S("asked_column", bool, http=OPEN),
    S("honest_end", bool, http=OPEN),
    S("save_long_requests", bool, http=OPEN),
    S("plain_words", bool, http=OPEN),
    S("skip_cut_off", bool, http=PRIV),  # cut-off code is not run
    S("os", bool),  # OS mode (core/os_mode.py)
    # --- the model (llm/llm.py) ---
    S("llm.model", str | None, hi=1000, http=PRIV),
    S("llm.temperature", float, 0, 2, http=OPEN),
    S("llm.context_window", int | None, 256, 1_048_576, http=OPEN),
    S("llm.max_tokens", int | None, 1, 131_072, http=OPEN),
    S("llm.api_base", str | None, hi=1000, http=PRIV),
    S("llm.api_key", str | None, hi=1000, http=SECRET),
    S("llm.api_version", str | None, hi=100, http=PRIV),
    S("llm.supports_functions", bool | None, http=PRIV),
    S("llm.supports_vision", bool, http=PRIV),
    S("llm.projector", str | None, hi=1000, http=PRIV),
    S("llm.execution_instructions", str | bool | None),
    S("llm.max_output", int | None, 0, 1_000_000),
    S("llm.stop", list[str] | None, http=OPEN),
    S("llm.n_threads", int | None, 1, 1024),
    S("llm.n_gpu_layers", int | None, -1, 100_000),  # None: as many as the free VRAM holds
    S("llm.completions", Any, yaml=False),
    # --- the computer (computer/computer.py) ---
    S("computer.languages", Any, http=PRIV, yaml=False),  # classes; HTTP takes names (server/settings.py)
    S("computer.max_output", int, 0, 1_000_000),
    S("computer.run_timeout", float | None, 0.1, 86_400, http=PRIV),
    S("computer.offline", bool),
    S("computer.verbose", bool),
    S("computer.emit_images", bool),
    S("computer.import_computer_api", bool),
    S("computer.skills_path", str | None),
    S("computer.failsafe", bool),
    # the sandbox (computer/sandbox/): what code can reach; a client of the server cannot loosen it
    S("computer.sandbox", str, choices=("auto", "on", "off"), http=PRIV),
    S("computer.allow_write", list[str], http=PRIV),
    S("computer.allow_network", bool, http=PRIV),
    S("computer.allow_env", list[str], http=PRIV),
    S("computer.hide", list[str], http=PRIV),
    S("computer.max_processes", int | None, 8, 1_000_000, http=PRIV),
    S("computer.max_memory_mb", int | None, 64, 100_000_000, http=PRIV),
    S("computer.max_file_mb", int | None, 1, 100_000_000, http=PRIV),
    S("computer.unattended_run_timeout", float | None, 0.1, 86_400, http=PRIV),
    S("computer.undo_files", bool),
    # --- keys the terminal acts on (profiles and flags), not attributes ---
    S("version", Any, attr=False),
    S("local", bool | dict[str, Any], attr=False),
    S("fast", bool, attr=False),
    S("vision", bool),  # images named in a request go with it (terminal/attach.py)
]

BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
# Attributes that are run-time state, not settings (not in profiles, not copied by spawn).
STATE = {"messages", "last_trim", "hidden", "past_hides", "examples_dropped_with", "spent", "profile_path", "in_terminal_interface",
         "llm.last_finish_reason", "llm.last_usage", "llm.last_stats", "computer.last_result",
         "computer.system_message", "computer.in_session", "computer.after_run",
         "computer.unattended", "computer.last_snapshot"}


def check(key: str, value: Any) -> Any:
    """`value` for setting `key`, converted; SettingError names the key and what it expects."""
    setting = BY_KEY.get(key)
    if setting is None:
        raise SettingError(f"unknown setting {key!r}")
    return setting.check(value)


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested `{"llm": {"model": x}}` and dotted `{"llm.model": x}` both become {"llm.model": x}."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        key = f"{prefix}{key}"
        if isinstance(value, dict) and key in NAMESPACES:
            out.update(flatten(value, key + "."))
        else:
            out[key] = value
    return out


NAMESPACES = ("llm", "computer")


def owner(interp: Any, key: str) -> tuple[Any, str]:
    """The object a dotted setting lives on, and its attribute name there."""
    ns, _, name = key.rpartition(".")
    return (getattr(interp, ns) if ns else interp), name


def assign(interp: Any, key: str, value: Any) -> None:
    obj, name = owner(interp, key)
    setattr(obj, name, value)


def read(interp: Any, key: str) -> Any:
    obj, name = owner(interp, key)
    return getattr(obj, name)


def copy_into(src: Any, dst: Any, copy: Any) -> None:
    """Copy the settings `src` has (as stored: a prompt setting never assigned stays unset and
    keeps following the model) onto `dst`, each value through `copy`."""
    for s in SETTINGS:
        if not s.attr:
            continue
        a, name = owner(src, s.key)
        b, _ = owner(dst, s.key)
        stored = vars(a)
        for slot in (name, "_t_" + name, "_" + name):  # a plain attribute, a prompt setting, a property's store
            if slot in stored:
                b.__dict__[slot] = copy(s.key, stored[slot])
                break


class Checked:
    """Mixin: assignments to the settings of `SETTINGS` are checked and converted."""

    _settings_prefix = ""

    def __setattr__(self, name: str, value: Any) -> None:
        if name[:1] != "_":
            setting = BY_KEY.get(self._settings_prefix + name)
            if setting is not None:
                value = setting.check(value)
        object.__setattr__(self, name, value)
