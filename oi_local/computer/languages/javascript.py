"""JavaScript: a persistent `node` child that evaluates each cell with vm.runInThisContext."""
from __future__ import annotations

import shutil
from pathlib import Path

from .base import SubprocessLanguage

_DRIVER = str(Path(__file__).with_name("_node_driver.js"))


class JavaScript(SubprocessLanguage):
    """Top-level declarations persist across cells (let/const/class are turned into `var`, so a
    later cell may declare them again), a final expression prints like the node REPL, a returned
    Promise (or top-level await) is awaited, and uncaught errors print their stack (exit 1).

    Limitations: only line 1 is reported as the active line; timers left running by a cell print
    after its run has ended (their output shows up in the next run)."""

    name = "javascript"
    aliases = ["js", "node", "nodejs"]
    address_space_limit = False  # V8 reserves far more address space than it uses

    def _frame(self, code: str) -> bytes:
        data = code.encode("utf-8", "surrogateescape")
        # After a stopped run, ask the driver to clear a SIGINT that node may still hold (see
        # drainStaleSigint in the driver).
        return b"%d%s\n" % (len(data), b" drain" if self.previous_run_stopped else b"") + data

    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        # --expose-internals: the driver parses cells with node's bundled acorn (no npm needed).
        node = shutil.which("node") or shutil.which("nodejs") or "node"
        return [node, "--expose-internals", _DRIVER, str(cmd_fd), str(ctl_fd)]
