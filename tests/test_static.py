"""Static checks as part of the suite (so scripts/test and CI run them): ruff (pyflakes,
pycodestyle's errors, import order) on the whole repository and mypy on oi_local/, with the
settings in pyproject.toml."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASELINE_IGNORES = 8  # `# type: ignore` comments in oi_local/ when the checks were added


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff() -> None:
    pytest.importorskip("ruff", reason="ruff is in the test extra: pip install -e '.[test]'")
    out = run("ruff", "check", "--no-cache", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    out = run("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert out.returncode == 0, out.stdout[-5000:] + out.stderr


def test_no_type_ignore_comments_were_added() -> None:
    """The static checks pass on the code as it is, not on new `# type: ignore` comments."""
    found = sorted(f"{p.relative_to(ROOT)}" for p in (ROOT / "oi_local").rglob("*.py")
                   for line in p.read_text(encoding="utf-8").splitlines() if "type: ignore" in line)
    assert len(found) <= BASELINE_IGNORES, found

