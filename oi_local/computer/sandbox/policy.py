"""What code in the sandbox may see and change: writable folders, hidden secrets, environment.

Everything is read-only except the working folder, a private /tmp and the folders the user
grants. Secrets are hidden (replaced by an empty folder or an empty file), and the environment
is an allow-list: API keys and tokens never reach the code.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

# Under the home folder: keys, credentials, keyrings and browser profiles (cookies, saved passwords).
HOME_SECRETS = (
    ".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker", ".netrc", ".git-credentials",
    ".config/gh", ".config/hub", ".pypirc", ".npmrc", ".yarnrc", ".cargo/credentials", ".cargo/credentials.toml",
    ".password-store", ".local/share/keyrings", ".config/keybase", ".mozilla", ".thunderbird",
    ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
    ".config/vivaldi", ".config/opera", "snap/firefox", "snap/chromium", ".var/app",
    ".config/open-interpreter", ".local/share/open-interpreter", ".config/oi-local",
    ".bash_history", ".zsh_history", ".python_history", ".psql_history", ".mysql_history",
    # macOS
    "Library/Keychains", "Library/Cookies", "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox", "Library/Safari", "Library/Application Support/BraveSoftware",
    "Library/Application Support/open-interpreter",
)
# Variables the code gets (besides LC_*): what programs need to run, nothing that authenticates.
ENV_ALLOW = {
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TZ", "SHELL", "COLUMNS", "LINES",
    "PAGER", "GIT_PAGER", "EDITOR", "VISUAL", "PYTHONPATH", "PYTHONHOME", "PYTHONUNBUFFERED",
    "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE", "PYTHONUTF8", "VIRTUAL_ENV", "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV", "MPLBACKEND", "NODE_PATH", "NODE_OPTIONS", "JAVA_HOME", "GOPATH", "GOROOT",
    "CARGO_HOME", "RUSTUP_HOME", "R_HOME", "LD_LIBRARY_PATH", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "SYSTEMROOT",
    "OI_COMPUTER_API",  # the computer API's settings for the Python session (no secrets in it)
}
# With the screen granted (OS mode, the computer API): what a program needs to reach the display.
DISPLAY_ENV = {"DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE"}
# Never passed, even when allowed by name above or added by the user.
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|^INTERPRETER_|^OI_LOCAL_", re.I)


def _app_paths() -> list[Path]:
    """This program's own folders: profiles (keys), conversations, models."""
    try:
        from oi_local._paths import app_dir

        return [app_dir()]
    except Exception:  # noqa: BLE001 - no platformdirs: the home-based list still applies
        return []


def hidden_paths(home: str | None = None, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """Existing paths to hide from code (only existing ones can be covered)."""
    home = home or os.path.expanduser("~")
    found: list[str] = []
    candidates = [os.path.join(home, p) for p in HOME_SECRETS] + [str(p) for p in _app_paths()]
    candidates += [os.path.expanduser(str(p)) for p in extra]
    for p in candidates:
        if os.path.lexists(p) and p not in found:
            found.append(p)
    return found


def clean_env(env: dict[str, str], allow: set[str] | frozenset[str] = frozenset(), display: bool = False) -> dict[str, str]:
    """The allow-listed part of `env`, without anything that looks like a secret."""
    out = {}
    for k, v in env.items():
        if (k in ENV_ALLOW or k in allow or k.startswith("LC_") or display and k in DISPLAY_ENV) \
                and not SECRET_NAME.search(k):
            out[k] = v
    return out


def strip_secrets(env: dict[str, str]) -> dict[str, str]:
    """For unconfined code: everything except what looks like a secret."""
    return {k: v for k, v in env.items() if not SECRET_NAME.search(k)}


# Folders that must never become writable as a whole, even when code is started from them.
_SYSTEM = {"/", "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/var", "/opt", "/proc", "/sys",
           "/dev", "/run", "/home", "/root", "/Users", "/System", "/Library", "/Applications"}


@dataclass(frozen=True)
class Policy:
    """One snapshot of the settings a session starts with; a change starts a fresh session."""

    workdir: str
    allow_write: tuple[str, ...] = ()
    network: bool = False
    hidden: tuple[str, ...] = ()
    max_processes: int | None = None
    max_memory_mb: int | None = None
    max_file_mb: int | None = None
    extra_env: tuple[str, ...] = field(default=())
    # The screen (X11 socket, Wayland socket): only when the user turned the computer API / OS
    # mode on, since a program on the display can read every window and type into them.
    display: bool = False
    reveal: tuple[str, ...] = ()  # writable folders inside hidden ones (the computer API's skills)

    def display_paths(self) -> list[str]:
        """Sockets and files a display client needs, existing ones only."""
        if not self.display:
            return []
        out = ["/tmp/.X11-unix"]
        if os.environ.get("XAUTHORITY"):
            out.append(os.environ["XAUTHORITY"])
        runtime, wayland = os.environ.get("XDG_RUNTIME_DIR"), os.environ.get("WAYLAND_DISPLAY")
        if runtime and wayland:
            out.append(wayland if wayland.startswith("/") else os.path.join(runtime, wayland))
        return [os.path.realpath(p) for p in out if os.path.exists(p)]

    def writable(self) -> list[str]:
        """Folders the code may write (besides its private /tmp), existing ones only."""
        out = []
        for p in (self.workdir, *self.allow_write):
            real = os.path.realpath(os.path.expanduser(p))
            if os.path.exists(real) and (real not in _SYSTEM or p in self.allow_write) and real not in out:
                out.append(real)
        return out

    def is_writable(self, path: str) -> bool:
        real = os.path.realpath(path)
        if real == "/tmp" or real.startswith("/tmp/"):
            return True
        return any(real == w or real.startswith(w.rstrip("/") + "/") for w in (*self.writable(), *self.reveal))

    def hidden_by(self, path: str) -> str | None:
        """The hidden path that covers `path`, if any."""
        p = os.path.abspath(os.path.expanduser(path))
        if any(p == r or p.startswith(r.rstrip("/") + "/") for r in self.reveal):
            return None
        for h in self.hidden:
            if p == h or p.startswith(h.rstrip("/") + "/"):
                return h
        return None
