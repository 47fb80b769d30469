"""Process checks shared by tests."""
from __future__ import annotations

import psutil


def alive(pid: int) -> bool:
    """Running, not a zombie (checked in one call: the process may go between two)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
