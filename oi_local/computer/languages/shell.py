"""Shell: a persistent `bash --noprofile --norc`, so `cd` and `export` carry over between runs.

Each cell is written to a file and `source`d unaltered (heredocs, quotes and `$VAR` run exactly as
written; nothing is injected). A DEBUG trap reports the line about to run, only for that file's
top level. SIGINT runs a trap that makes `source` return, so stop() ends the cell, not bash.
"""
from __future__ import annotations

import os
import shlex
import shutil
import tempfile
import weakref

from .base import SubprocessLanguage

# Bash notes that shaped this:
# * a sourced file only gets the DEBUG trap with `set -T` (functrace); the trap turns it off again
#   at the file's first line, so functions the cell calls are not traced (tracing makes every
#   command ~5-10 us slower). After 2000 traced commands the trap removes itself (tight loops).
# * `return` from the INT trap leaves only the innermost function or the sourced file. To unwind
#   the whole cell the INT trap sets a flag, turns on extdebug and re-installs the DEBUG trap,
#   which then returns 2 (= "return" under extdebug) before each further command of the cell.
# * `$?` of `source` is the status of the cell's last command.
_DEBUG_TRAP = (  # one line: $LINENO must be the cell's line, not a line of the trap
    '[[ ${BASH_SOURCE-} == "$__oi_f" ]] && { '
    "[[ -n $__oi_i ]] && return 2; "  # unwinding after SIGINT (extdebug is on then)
    "set +T; "  # trace this file, not the functions it calls
    "((++__oi_n > 2000)) && trap - DEBUG; "  # a tight loop: stop tracing
    '[[ -z ${FUNCNAME-} && $LINENO != "$__oi_l" ]] && { __oi_l=$LINENO; printf "L%s\\n" "$LINENO" >&$__oi_c; }; '
    "}; :"
)
_INT_TRAP = '__oi_i=1; shopt -s extdebug; trap "$__oi_T" DEBUG; return 130 2>/dev/null'
_INIT = r"""
exec {__oi_c}>&@CTL@ @CTL@>&- @CMD@<&-
__oi_f=@FILE@
__oi_T=@DEBUG_TRAP@
__oi_I=@INT_TRAP@
__oi_pre() { __oi_i=; __oi_l=; __oi_n=0; jobs -p >"$__oi_f.jobs"; trap "$__oi_I" INT; trap "$__oi_T" DEBUG; set -T; }
__oi_post() {
  local s=$1 stopped=$__oi_i
  trap - DEBUG; shopt -u extdebug; set +T; __oi_i=
  [[ -n $stopped ]] && { s=130; __oi_reap; echo "Interrupted (SIGINT)." >&2; }
  printf 'D%s\n' "$s" >&$__oi_c
}
__oi_reap() {
  # A stopped cell's background jobs go too: bash starts `cmd &` with SIGINT ignored, so the stop
  # does not reach them. Jobs of earlier cells (a server the user keeps) stay. `wait` collects
  # them here, so bash prints no "Killed" notice into the next cell's output.
  local old p new=()
  mapfile -t old <"$__oi_f.jobs"
  old=" ${old[*]} "
  for p in $(jobs -p); do [[ $old == *" $p "* ]] || new+=("$p"); done
  ((${#new[@]})) && { kill -KILL "${new[@]}"; wait "${new[@]}"; } 2>/dev/null
}
read() {
  # Cells run with stdin from /dev/null: say why `read` gets nothing instead of failing silently.
  if [[ /dev/stdin -ef /dev/null ]]; then
    local __oi_a
    for __oi_a in "$@"; do [[ $__oi_a == -*u* ]] && { builtin read "$@"; return; }; done
    printf '%s\n' "read: no input available: code runs without a keyboard. Put the values in the code instead." >&2
    return 1
  fi
  builtin read "$@"
}
"""
_RUN = b'__oi_pre; source "$__oi_f" </dev/null; __oi_post $?\n'


class Shell(SubprocessLanguage):
    name = "shell"
    aliases = ["bash", "sh", "zsh", "console", "terminal"]
    stdin_is_command_pipe = True

    def __init__(self) -> None:
        super().__init__()
        self._dir = tempfile.mkdtemp(prefix="oi-shell-")
        self._file = f"{self._dir}/cell.sh"
        weakref.finalize(self, shutil.rmtree, self._dir, True)

    def _argv(self, cmd_fd: int, ctl_fd: int) -> list[str]:
        self._fds = (cmd_fd, ctl_fd)
        return [shutil.which("bash") or "/bin/bash", "--noprofile", "--norc"]

    def _sandbox_paths(self) -> tuple[str, ...]:
        return (self._dir,)  # the cell file and the job list live here, outside the private /tmp

    def _after_start(self) -> None:
        cmd_fd, ctl_fd = self._fds
        init = _INIT
        for key, value in (("@CTL@", str(ctl_fd)), ("@CMD@", str(cmd_fd)), ("@FILE@", shlex.quote(self._file)),
                           ("@DEBUG_TRAP@", shlex.quote(_DEBUG_TRAP)), ("@INT_TRAP@", shlex.quote(_INT_TRAP))):
            init = init.replace(key, value)
        self._send(init.encode())

    def _frame(self, code: str) -> bytes:
        os.makedirs(self._dir, exist_ok=True)  # in case the code removed it
        with open(self._file, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(code)
            if code and not code.endswith("\n"):
                f.write("\n")
        return _RUN
