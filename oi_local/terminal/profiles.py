"""Profiles: YAML or Python files of settings, in the app's profiles folder.

YAML keys may be nested (`llm: {model: x}`) or dotted (`llm.model: x`); the old flat keys of the
spec's config examples (`model:`, `temperature:`, `llm_supports_functions:` ...) are accepted and
migrated. A misspelt key is an error naming the key, the file, and the nearest valid key.
Python profiles are executed with `interpreter` bound to the running instance; they are only
ever read from local files.
"""
from __future__ import annotations

import difflib
import os
import tempfile
from pathlib import Path
from typing import Any

from oi_local import settings as schema

PROFILE_VERSION = "0.2.5"
BUNDLED_DIR = Path(__file__).resolve().parent / "profiles_bundled"
# Flat keys of older profiles and of the spec's config examples, and where they live now.
ALIASES = {
    "model": "llm.model", "temperature": "llm.temperature", "context_window": "llm.context_window",
    "max_tokens": "llm.max_tokens", "api_base": "llm.api_base", "api_key": "llm.api_key",
    "api_version": "llm.api_version", "llm_supports_functions": "llm.supports_functions",
    "llm_supports_vision": "llm.supports_vision", "llm.max_output": "max_output",
    "sandbox": "computer.sandbox", "allow_write": "computer.allow_write", "allow_network": "computer.allow_network",
}
# Keys of the original's example profiles that have no effect here: accepted, ignored.
IGNORED = {"computer.import_skills", "llm.supports_functions_reason"}

DEFAULT_YAML = f"""# oi-local default profile: loaded every time `interpreter` starts.
# Any setting of https://docs.openinterpreter.com/settings/all-settings works here, nested
# (llm: {{model: x}}) or dotted (llm.model: x). Flags given on the command line win over this file.

llm:
  # model: /path/to/model.gguf   # empty: the embedded default model (Qwen2.5-Coder-0.5B)
  temperature: 0
  # context_window: 8192
  # max_tokens: 1024
  # api_base: http://127.0.0.1:8080/v1   # an OpenAI-compatible server (Ollama, LM Studio, llama.cpp)

# custom_instructions: ""   # appended to the system message
auto_run: false      # true: run code without asking
safe_mode: "off"     # off | ask | auto (semgrep scan before code runs)
offline: true
# max_budget: 0.01   # USD per session, hosted models only
# loop: false

version: {PROFILE_VERSION}  # profile format version (migrated automatically)
"""


class ProfileError(ValueError):
    """A profile that cannot be used; the message is one line for the user."""


def profiles_dir() -> Path:
    from oi_local._paths import profiles_dir as d

    return d()


def ensure_default() -> Path:
    """Create default.yaml on first run (atomically, never over an existing file)."""
    d = profiles_dir()
    path = d / "default.yaml"
    if not path.exists():
        d.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, DEFAULT_YAML, exclusive=True)
    return path


def _atomic_write(path: Path, text: str, exclusive: bool = False) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            try:
                os.link(tmp, path)  # fails if another process created it meanwhile
            except FileExistsError:
                pass
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def find(name: str) -> Path:
    """A profile by path, or by name in the user's folder, then among the bundled ones."""
    if "://" in name:
        raise ProfileError(f"Profiles are only loaded from local files, not URLs ({name}). Download it, read it, then pass its path.")
    p = Path(name).expanduser()
    if p.is_file():
        return p
    for d in (profiles_dir(), BUNDLED_DIR):
        for candidate in (d / name, d / f"{name}.yaml", d / f"{name}.yml", d / f"{name}.py"):
            if candidate.is_file():
                return candidate
    raise ProfileError(f"No profile named {name!r}. Available: {', '.join(available()) or 'none'} (folder: {profiles_dir()}).")


def available() -> list[str]:
    names: list[str] = []
    for d in (profiles_dir(), BUNDLED_DIR):
        if d.is_dir():
            for p in sorted(d.iterdir()):
                if p.suffix in (".yaml", ".yml", ".py") and not p.name.startswith(".") and p.stem not in names:
                    names.append(p.stem)
    return names


# --- reading ---
flatten = schema.flatten


def migrate(flat: dict[str, Any]) -> dict[str, Any]:
    """Old flat keys move to where they live now; the version is stamped."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        out[ALIASES.get(key, key)] = value
    out["version"] = PROFILE_VERSION
    return out


def _version_tuple(v: Any) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in str(v).split("."))
    except ValueError:
        return (0,)


def read_yaml(path: Path) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ProfileError(f"{path}{where}: not valid YAML ({getattr(e, 'problem', None) or e}).") from None
    except OSError as e:
        raise ProfileError(f"Cannot read profile {path}: {e.strerror}.") from None
    except UnicodeDecodeError as e:
        raise ProfileError(f"{path}: not UTF-8 text (byte {e.start}); save it as UTF-8.") from None
    except RecursionError:
        raise ProfileError(f"{path}: nested too deeply to be a profile.") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: a profile must be a mapping of settings, got {type(data).__name__}.")
    flat = flatten(data)
    if "version" in flat and _version_tuple(flat["version"]) < _version_tuple(PROFILE_VERSION):
        flat = migrate(flat)
        _save_migrated(path, data, flat)
    else:  # no version (hand-written) or current: old keys are understood, the file is left alone
        flat = {ALIASES.get(k, k): v for k, v in flat.items()}
    return flat


def _save_migrated(path: Path, original: dict[str, Any], flat: dict[str, Any]) -> None:
    """Write the migrated profile back (keeping a copy of the old file), without asking.
    Bundled profiles and read-only files are migrated in memory only."""
    import yaml

    if BUNDLED_DIR in path.resolve().parents or not os.access(path.parent, os.W_OK):
        return
    backup = path.with_name(f"{path.name}.v{original.get('version', 'old')}.bak")
    try:
        if not backup.exists():
            _atomic_write(backup, path.read_text(encoding="utf-8"))
        nested: dict[str, Any] = {}
        for key, value in flat.items():
            ns, dot, rest = key.partition(".")
            if dot and ns in ("llm", "computer"):
                nested.setdefault(ns, {})[rest] = value
            else:
                nested[key] = value
        text = f"# Migrated to profile version {PROFILE_VERSION} by oi-local; the previous file is {backup.name}\n"
        _atomic_write(path, text + yaml.safe_dump(nested, sort_keys=False, allow_unicode=True))
    except OSError:
        pass


# --- checking and applying ---
def valid_keys(interp: Any = None) -> set[str]:
    return {s.key for s in schema.SETTINGS if s.yaml} | set(ALIASES) | IGNORED


def check_keys(flat: dict[str, Any], interp: Any, path: Path) -> dict[str, Any]:
    """Every key known and every value of its setting's type (converted), before any is applied."""
    valid = valid_keys(interp)
    clean: dict[str, Any] = {}
    for key, value in flat.items():
        if key not in valid:
            near = difflib.get_close_matches(key, sorted(valid), n=1, cutoff=0.6)
            hint = f" Did you mean {near[0]!r}?" if near else ""
            raise ProfileError(f"Unknown setting {key!r} in profile {path}.{hint}")
        setting = schema.BY_KEY.get(key)
        if setting is None:  # an old alias or an ignored key
            clean[key] = value
            continue
        try:
            clean[key] = setting.check(value)
        except schema.SettingError:
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise ProfileError(f"Setting {key!r} in profile {path} must be {setting.expects()}, not {shown}.") from None
    return clean


def apply(interp: Any, flat: dict[str, Any]) -> dict[str, Any]:
    """Set the settings on the interpreter; returns the keys the terminal acts on (fast, local ...)."""
    meta: dict[str, Any] = {}
    for key, value in flat.items():
        setting = schema.BY_KEY.get(key)
        if key in IGNORED or setting is None:
            continue
        if not setting.attr:
            meta[key] = value
            continue
        schema.assign(interp, key, value)
    return meta


def load(interp: Any, name_or_path: str) -> tuple[Path, dict[str, Any]]:
    """Load a profile into `interp`. Returns its path and the meta settings (fast, local, ...)."""
    path = find(name_or_path)
    if path.suffix == ".py":
        return path, run_python(interp, path)
    flat = check_keys(read_yaml(path), interp, path)
    return path, apply(interp, flat)


def run_python(interp: Any, path: Path) -> dict[str, Any]:
    """Execute a Python profile with `interpreter` (and `from interpreter import interpreter`)
    meaning the running instance."""
    import oi_local

    previous = oi_local._default
    oi_local._default = interp
    scope: dict[str, Any] = {"__name__": "__oi_profile__", "__file__": str(path), "interpreter": interp}
    try:
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
        exec(code, scope)
    except SyntaxError as e:
        raise ProfileError(f"{path} line {e.lineno}: {e.msg}.") from None
    except Exception as e:
        raise ProfileError(f"Profile {path} failed: {type(e).__name__}: {e}") from None
    finally:
        if previous is not None and previous is not interp:
            oi_local._default = previous
    return {}


def remember(key: str, value: Any, path: Path | None = None) -> None:
    """Store one top-level key in a YAML profile (the default one), keeping everything else as
    written: ruamel.yaml's round trip keeps the comments that explain each setting, the order and
    the quoting (PyYAML would drop every comment)."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    path = path or ensure_default()
    yaml = YAML()  # round-trip mode
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"))
    except YAMLError as e:
        raise ProfileError(f"{path}: not valid YAML, so nothing was changed ({getattr(e, 'problem', None) or e}).") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: a profile must be a mapping of settings, so nothing was changed.")
    data[key] = value
    out = io.StringIO()
    yaml.dump(data, out)
    _atomic_write(path, out.getvalue())


def remembered(key: str, path: Path | None = None) -> Any:
    import yaml

    path = path or profiles_dir() / "default.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, ValueError, RecursionError, yaml.YAMLError):  # ValueError: not UTF-8
        return None
    return data.get(key) if isinstance(data, dict) else None
