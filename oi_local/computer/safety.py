"""Checks on code before it runs: a forbidden-commands list (every mode) and semgrep (safe mode).

The loop calls `review()` before it asks for confirmation. Forbidden commands are refused even
with auto_run and safe_mode off. semgrep scans with the rules shipped in `semgrep_rules/`, fully
offline: `--metrics=off --disable-version-check` (without the latter an offline scan stalls for
~100 s) and a writable HOME (semgrep writes its settings file there).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent / "semgrep_rules"
MODES = ("off", "ask", "auto")

_END = r"""(?=$|[\s"'`;|&)\]])"""
_FLAGS = r"(?:-{1,2}[\w-]+\s+)*"
# Regular expressions, searched in the code of any language (so `os.system("rm -rf /")` counts too).
DEFAULT_FORBIDDEN: list[str] = [
    # rm with a recursive flag aimed at /, /*, ~ or $HOME
    rf"\brm\s+{_FLAGS}-(?:[a-zA-Z]*[rR][a-zA-Z]*|-recursive)\s+{_FLAGS}(?:/\*?|~/?\*?|\$HOME/?\*?|\"\$HOME\"){_END}",
    r"--no-preserve-root",
    r"rmtree\(\s*['\"](?:/|~|/\*)['\"]",
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",  # the classic fork bomb :(){ :|:& };:
    r"\bwhile\s+(?:True|1)\s*:\s*(?:\n\s*)?os\.fork\(\)",  # python fork bomb
    r"\bmkfs(?:\.\w+)?\b",
    r"\bdd\b[^\n]*\bof=/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk)\w*",
    r">\s*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk)\w*",
    r"\bchmod\s+(?:-R\s+|--recursive\s+)[0-7]{3,4}\s+/(?:\s|$)",
    r"\bchown\s+(?:-R\s+|--recursive\s+)\S+\s+/(?:\s|$)",
    r"\bwipefs\b",
    r"\bshred\b[^\n]*\s/dev/\w+",
]


@dataclass
class Review:
    blocked: bool = False
    findings: list[str] = field(default_factory=list)
    message: str = ""
    seconds: float = 0.0


def forbidden_match(code: str, forbidden: list[str] | None = None) -> str | None:
    """The first forbidden pattern's matching text, or None."""
    for pattern in DEFAULT_FORBIDDEN if forbidden is None else forbidden:
        try:
            m = re.search(pattern, code, re.MULTILINE | re.DOTALL)
        except re.error:
            m = re.search(re.escape(pattern), code)  # a plain command string, not a regex
        if m:
            return m.group(0).strip() or pattern
    return None


def review(language: str, code: str, mode: str, forbidden: list[str] | None = None) -> Review:
    """Check code before it runs. `mode` is the safe mode: off | ask | auto."""
    start = time.perf_counter()
    hit = forbidden_match(code, forbidden)
    if hit is not None:
        msg = (f"Refused: this code contains a forbidden command ({hit!r}). It was not run. "
               "Do not try to run it another way.")
        return Review(True, [f"forbidden command: {hit}"], msg, time.perf_counter() - start)
    mode = (mode or "off").lower()
    if mode not in ("ask", "auto"):
        return Review(seconds=time.perf_counter() - start)
    findings, severities, problem = scan(language, code)
    r = Review(findings=findings, seconds=time.perf_counter() - start)
    if problem:
        r.message = f"Safe mode: {problem}"
        return r
    if findings:
        r.blocked = mode == "auto" and "ERROR" in severities
        head = "Safe mode blocked this code (high-severity findings)" if r.blocked else "Safe mode (semgrep) findings"
        r.message = head + ":\n" + "\n".join(f"- {f}" for f in findings)
    return r


_SUFFIX = {"python": ".py", "shell": ".sh", "bash": ".sh", "sh": ".sh", "javascript": ".js", "js": ".js"}
_RULES = {".py": "python.yaml", ".sh": "shell.yaml", ".js": "javascript.yaml"}
_CORE_LANG = {".py": "python", ".sh": "bash", ".js": "javascript"}


def semgrep_core() -> str | None:
    """semgrep's matching engine, shipped inside the semgrep wheel. Called directly it scans in a
    fraction of a second; the `semgrep` CLI wrapper adds seconds of Python start-up."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("semgrep")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        core = Path(list(spec.submodule_search_locations)[0]) / "bin" / "semgrep-core"
        if core.is_file() and os.access(core, os.X_OK):
            return str(core)
    return shutil.which("semgrep-core")


def semgrep_executable() -> str | None:
    here = Path(sys.executable).parent / "semgrep"
    return str(here) if here.is_file() else shutil.which("semgrep")


def scan(language: str, code: str, timeout: float = 60.0) -> tuple[list[str], list[str], str]:
    """Run semgrep on `code`. Returns (findings, severities, problem); problem is '' when it ran."""
    suffix = _SUFFIX.get((language or "").lower())
    if suffix is None:
        return [], [], ""
    core = semgrep_core()
    exe = semgrep_executable()
    if exe is None and core is None:
        return [], [], "semgrep is not installed (pip install 'oi-local[safe]'), so the code was not scanned."
    home = _semgrep_home()
    env = {**os.environ, "HOME": str(home), "SEMGREP_ENABLE_VERSION_CHECK": "0", "SEMGREP_SEND_METRICS": "off",
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache")}
    with tempfile.TemporaryDirectory(prefix="oi-scan-") as d:
        target = Path(d) / f"code{suffix}"
        target.write_text(code)
        rules = str(RULES_DIR / _RULES[suffix])
        if core is not None:
            cmd = [core, "-rules", rules, "-lang", _CORE_LANG[suffix], "-json", "-timeout", "10", str(target)]
        else:
            cmd = [str(exe), "scan", "--config", rules, "--json", "--quiet", "--metrics=off",
                   "--disable-version-check", "--no-git-ignore", str(target)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=d,
                                  stdin=subprocess.DEVNULL, start_new_session=True)
        except subprocess.TimeoutExpired:
            return [], [], f"the semgrep scan took more than {timeout:.0f} s and was abandoned."
        except OSError as e:
            return [], [], f"semgrep could not start: {e}"
    try:
        out = proc.stdout or "{}"
        data = json.loads(out[out.find("{"):] if "{" in out else "{}")  # semgrep-core prints progress dots first
    except json.JSONDecodeError:
        tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-1:] or ["no output"]
        return [], [], f"semgrep failed (exit {proc.returncode}): {tail[0][:200]}"
    findings, severities = [], []
    for res in data.get("results", []):
        extra = res.get("extra", {})
        sev = str(extra.get("severity", "INFO")).upper()
        rule = str(res.get("check_id", "")).rsplit(".", 1)[-1]
        line = (res.get("start") or {}).get("line", "?")
        findings.append(f"{sev} {rule} (line {line}): {extra.get('message', '').strip()}")
        severities.append(sev)
    return findings, severities, ""


def _semgrep_home() -> Path:
    try:
        from oi_local._paths import app_dir

        home = app_dir() / "semgrep-home"
        home.mkdir(parents=True, exist_ok=True)
        return home
    except OSError:
        home = Path(tempfile.gettempdir()) / f"oi-semgrep-home-{os.getuid()}"
        home.mkdir(parents=True, exist_ok=True)
        return home
