"""computer.mail: the local mailbox (mbox, $MAIL) and sending through the local sendmail.
Remote accounts (IMAP) are not read: that would need the network and the user's password."""
from __future__ import annotations

import email.message
import getpass
import mailbox
import mimetypes
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from .errors import ComputerAPIError, not_available


def _mbox_path() -> Path:
    p = Path(os.environ.get("MAIL") or f"/var/mail/{getpass.getuser()}")
    if not p.is_file():
        raise not_available("computer.mail.get", f"no local mailbox at {p} (set MAIL to an mbox file; IMAP accounts are not read)")
    return p


def _body(msg: Any) -> str:
    part = msg.get_body(("plain", "html")) if hasattr(msg, "get_body") else None
    try:
        text = (part or msg).get_content() if hasattr(part or msg, "get_content") else (msg.get_payload() or "")
    except (KeyError, LookupError):
        text = str(msg.get_payload())
    return str(text).strip()[:2000]


class Mail:
    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def _messages(self) -> list[Any]:
        import email.policy

        box = mailbox.mbox(_mbox_path(), factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default),
                           create=False)
        try:
            return list(box)
        finally:
            box.close()

    def get(self, number: int = 5, unread: bool = False) -> list[dict[str, str]]:
        """The newest `number` messages (only unread ones if asked), newest first."""
        msgs = [m for m in self._messages() if not unread or "R" not in str(m.get("Status", ""))]
        return [{"from": str(m.get("From", "")), "subject": str(m.get("Subject", "")), "date": str(m.get("Date", "")),
                 "body": _body(m)} for m in reversed(msgs[-int(number):])]

    def unread_count(self) -> int:
        return sum(1 for m in self._messages() if "R" not in str(m.get("Status", "")))

    def send(self, to: str, subject: str, body: str, attachments: list[str] | None = None) -> None:
        """Send through the local mail transfer agent (sendmail)."""
        tool = shutil.which("sendmail") or ("/usr/sbin/sendmail" if os.access("/usr/sbin/sendmail", os.X_OK) else None)
        if not tool:
            raise not_available("computer.mail.send", "no local mail transfer agent (sendmail); apt-get install msmtp-mta and configure it")
        msg = email.message.EmailMessage()
        msg["To"], msg["Subject"] = to, subject
        msg.set_content(body)
        for a in attachments or []:
            p = Path(a).expanduser()
            if not p.is_file():
                raise FileNotFoundError(f"no such attachment: {p}")
            kind = (mimetypes.guess_type(p.name)[0] or "application/octet-stream").split("/")
            msg.add_attachment(p.read_bytes(), maintype=kind[0], subtype=kind[1], filename=p.name)
        out = subprocess.run([tool, "-t", "-oi"], input=msg.as_bytes(), capture_output=True, timeout=60)
        if out.returncode != 0:
            raise ComputerAPIError(f"sendmail failed: {out.stderr.decode(errors='replace').strip()[:200]}")
