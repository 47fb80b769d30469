"""Failures no new code can fix (core/beyond_code.py), on real error text from real runs."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from oi_local.core.beyond_code import beyond_code, users_module


def _run(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr


def test_real_errors_that_code_cannot_fix(tmp_path: Path) -> None:
    (tmp_path / "empty.xlsx").write_bytes(b"")
    (tmp_path / "shop.db").write_bytes(b"not sqlite at all" * 100)
    refused = _run("import urllib.request; urllib.request.urlopen('http://127.0.0.1:9/', timeout=5)", tmp_path)
    assert beyond_code(refused) == "the network or server could not be reached"
    program = _run("import subprocess; subprocess.run(['no-such-printer-cmd', 'letter.txt'])", tmp_path)
    assert beyond_code(program) == "a program it needs is not installed"
    shell = subprocess.run(["sh", "-c", "no-such-printer-cmd letter.txt"], capture_output=True, text=True).stderr
    assert beyond_code(shell) == "a program it needs is not installed"
    zipped = _run("import zipfile; zipfile.ZipFile('empty.xlsx')", tmp_path)
    assert beyond_code(zipped) == "the file is damaged or empty"
    db = _run("import sqlite3; sqlite3.connect('shop.db').execute('select * from customers')", tmp_path)
    assert beyond_code(db) == "the file is damaged or empty"
    assert zipfile.is_zipfile(tmp_path / "empty.xlsx") is False


def test_errors_new_code_can_fix_are_not_beyond_it(tmp_path: Path) -> None:
    for code in ("print(undefined_name)", "open('notes/missing.txt')", "import json; json.loads('{')",
                 "import pandas_not_here_either"):
        assert beyond_code(_run(code, tmp_path), str(tmp_path)) is None, code


def test_a_missing_package_is_the_users_own_when_their_script_imports_it(tmp_path: Path) -> None:
    (tmp_path / "payslips.py").write_text("import csv\nfrom fernhill_payroll import Payslip\n")
    out = _run("from fernhill_payroll import Payslip", tmp_path)
    assert users_module(out, str(tmp_path)) == "fernhill_payroll"
    assert beyond_code(out, str(tmp_path)) == "a package the script needs is not installed"
    pandas_like = _run("import pandas_not_installed_here", tmp_path)
    assert users_module(pandas_like, str(tmp_path)) is None  # the model's own choice: a rewrite can help
