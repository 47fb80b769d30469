"""The computer: runs code for the conversation loop (`Computer.run`)."""
from __future__ import annotations

from .computer import Computer, RunResult

__all__ = ["Computer", "RunResult"]
