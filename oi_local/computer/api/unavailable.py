"""calendar, contacts and sms: Linux desktops have no one system service for these (macOS has
Calendar, Contacts and Messages), so every call says so instead of doing nothing."""
from __future__ import annotations

from typing import Any

from .errors import not_available


class _Unavailable:
    part = ""
    why = ""

    def __init__(self, computer: Any) -> None:
        self.computer = computer

    def _no(self, method: str) -> Any:
        raise not_available(f"computer.{self.part}.{method}", self.why)


class Calendar(_Unavailable):
    part = "calendar"
    why = "Linux has no system calendar service (the docs' version drives macOS Calendar); keep events in an .ics file with Python instead"

    def get_events(self, start_date: Any = None, end_date: Any = None) -> Any:
        self._no("get_events")

    def create_event(self, title: str = "", start_date: Any = None, end_date: Any = None, location: str = "",
                     notes: str = "", calendar: str | None = None) -> Any:
        self._no("create_event")

    def delete_event(self, event_title: str = "", start_date: Any = None, calendar: str | None = None) -> Any:
        self._no("delete_event")


class Contacts(_Unavailable):
    part = "contacts"
    why = "Linux has no system address book (the docs' version reads macOS Contacts)"

    def get_phone_number(self, contact_name: str) -> Any:
        self._no("get_phone_number")

    def get_email_address(self, contact_name: str) -> Any:
        self._no("get_email_address")


class Sms(_Unavailable):
    part = "sms"
    why = "there is no SMS service on a Linux computer (the docs' version sends through macOS Messages)"

    def send(self, to: str, message: str) -> Any:
        self._no("send")
