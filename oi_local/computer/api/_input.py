"""Mouse and keyboard input through the X server's XTEST extension (python-xlib, pure Python).

XTEST events are what real devices produce (xdotool uses them too); pynput types characters with
XSendEvent, which many programs ignore (Tk and xterm among them), so it is not used. Characters
missing from the keyboard map are typed by mapping a spare keycode for a moment, like xdotool."""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from .errors import ComputerAPIError, FailSafe, display_error, need_display, need_module

_lock = threading.RLock()
_conn: Any = None
_conn_for: str | None = None
_borrowed: dict[tuple[int, int], int] = {}  # (connection, keysym) -> the spare keycode mapped to it
CORNER = 2  # pixels from a corner that count as "in the corner"

# Names models use for keys -> X keysym names ("command" is the Super/Windows key on Linux).
KEYS = {
    "enter": "Return", "return": "Return", "\n": "Return", "tab": "Tab", "\t": "Tab", "esc": "Escape",
    "escape": "Escape", "space": "space", " ": "space", "spacebar": "space", "backspace": "BackSpace",
    "delete": "Delete", "del": "Delete", "insert": "Insert", "home": "Home", "end": "End",
    "pageup": "Prior", "page_up": "Prior", "pgup": "Prior", "pagedown": "Next", "page_down": "Next", "pgdn": "Next",
    "up": "Up", "down": "Down", "left": "Left", "right": "Right", "shift": "Shift_L", "ctrl": "Control_L",
    "control": "Control_L", "alt": "Alt_L", "option": "Alt_L", "altgr": "ISO_Level3_Shift", "command": "Super_L",
    "cmd": "Super_L", "super": "Super_L", "win": "Super_L", "meta": "Super_L", "capslock": "Caps_Lock",
    "caps_lock": "Caps_Lock", "menu": "Menu", "printscreen": "Print", "print": "Print",
}
MODIFIERS = {"Shift_L", "Control_L", "Alt_L", "Super_L", "ISO_Level3_Shift"}


def _x() -> Any:
    global _conn, _conn_for
    with _lock:
        if _conn is not None and (_conn_for != os.environ.get("DISPLAY") or _conn.display.socket_error is not None):
            try:  # DISPLAY changed, or the server closed the connection: connect again
                _conn.close()
            except Exception:
                pass
            _conn = None
        if _conn is None:
            if sys.platform in ("darwin", "win32"):
                raise ComputerAPIError("mouse and keyboard control is only implemented for X11 (Linux) in oi-local")
            need_display()
            display = need_module("Xlib.display", "python-xlib")
            try:
                _conn = display.Display()
            except Exception as e:
                raise display_error(e) from None
            _conn_for = os.environ.get("DISPLAY")
            if not _conn.has_extension("XTEST"):
                raise ComputerAPIError("the X server has no XTEST extension, so input cannot be sent to it")
        return _conn


def _fake(kind: int, detail: int = 0, x: int | None = None, y: int | None = None) -> None:
    from Xlib.ext import xtest

    d = _x()
    if x is None:
        xtest.fake_input(d, kind, detail)
    else:
        xtest.fake_input(d, kind, detail, x=x, y=y)


def sync() -> None:
    _x().sync()


# --- mouse ---
def pointer() -> tuple[int, int]:
    with _lock:
        p = _x().screen().root.query_pointer()
        return int(p.root_x), int(p.root_y)


def move_to(x: int, y: int) -> None:
    from Xlib import X

    with _lock:
        _fake(X.MotionNotify, x=int(x), y=int(y))
        sync()


def button(number: int, press: bool) -> None:
    from Xlib import X

    with _lock:
        _fake(X.ButtonPress if press else X.ButtonRelease, number)
        sync()


# --- keyboard ---
def keysym_of(name: str) -> int:
    """The keysym of a key name ("enter", "ctrl", "F5") or of one character."""
    from Xlib import XK

    named = KEYS.get(name.lower()) if len(name) > 1 or name in KEYS else None
    if named:
        return XK.string_to_keysym(named)
    if len(name) > 1:
        sym = XK.string_to_keysym(name) or XK.string_to_keysym(name.capitalize()) or XK.string_to_keysym(name.upper())
        if sym:
            return sym
        raise ComputerAPIError(f"unknown key {name!r}: a single character, or a name like enter, tab, esc, ctrl, alt, shift, command, up, f5")
    code = ord(name)
    return code if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF else 0x01000000 | code


def _lookup(sym: int) -> tuple[int, bool] | None:
    """(keycode, needs shift) for a keysym already on the keyboard."""
    d = _x()
    for keycode, index in d.keysym_to_keycodes(sym):
        if index in (0, 1):
            return keycode, index == 1
    return None


def _borrow(sym: int) -> int:
    """A keycode that types `sym`: a spare one (no keysyms) mapped to it and left mapped, so no
    program can read the key press after the mapping changed back (the race of restoring at once)."""
    d = _x()
    key = (id(d), sym)
    code = _borrowed.get(key)
    if code is not None and d.get_keyboard_mapping(code, 1)[0][0] == sym:  # another client may have taken it
        return code
    first = d.display.info.min_keycode
    count = d.display.info.max_keycode - first + 1
    spares = [first + i for i, syms in enumerate(d.get_keyboard_mapping(first, count)) if not any(syms)]
    if not spares:  # every spare already borrowed: reuse the oldest
        old_key = next(k for k in _borrowed if k[0] == id(d))
        spares = [_borrowed.pop(old_key)]
    code = spares[-1]
    d.change_keyboard_mapping(code, [(sym, sym)])
    d.sync()
    time.sleep(0.05)  # programs refresh their copy of the map on the MappingNotify
    _borrowed[key] = code
    return code


def key_event(sym: int, press: bool) -> None:
    from Xlib import XK, X

    with _lock:
        d = _x()
        found = _lookup(sym)
        if found is None:
            raise ComputerAPIError(f"the key {XK.keysym_to_string(sym) or hex(sym)} is not on this keyboard, so it cannot be held down")
        code, shift = found
        shift_code = d.keysym_to_keycode(XK.string_to_keysym("Shift_L"))
        if shift and press:
            _fake(X.KeyPress, shift_code)
        _fake(X.KeyPress if press else X.KeyRelease, code)
        if shift and not press:
            _fake(X.KeyRelease, shift_code)
        d.sync()


def tap(sym: int) -> None:
    with _lock:
        found = _lookup(sym)
        if found is None:
            from Xlib import X

            code = _borrow(sym)
            _fake(X.KeyPress, code)
            _fake(X.KeyRelease, code)
            sync()
            return
        key_event(sym, True)
        key_event(sym, False)


def check_failsafe(computer: Any) -> None:
    """Stop when the user has pushed the mouse into a screen corner."""
    if not getattr(computer, "failsafe", True):
        return
    x, y = pointer()
    for s in computer.display.screens():
        left, top = s["left"], s["top"]
        right, bottom = left + s["width"] - 1, top + s["height"] - 1
        near_x = abs(x - left) < CORNER or abs(x - right) < CORNER
        near_y = abs(y - top) < CORNER or abs(y - bottom) < CORNER
        if near_x and near_y:
            raise FailSafe(f"failsafe: the mouse is in a screen corner ({x}, {y}), so every action stops. "
                           "Move it away to go on (computer.failsafe = False turns this off).")
