"""What the screens and widgets may ask of the app, as a protocol: they depend on it instead of
on `FlagtuiApp`, so the app sits above them with no import (type-checking ones included) going
back up. `FlagtuiApp` is checked against it by mypy (see `app.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.notifications import SeverityLevel

from flagtui.config import Profile
from flagtui.triage.source import FailureSource
from flagtui.tui.row_cache import RowCache

if TYPE_CHECKING:
    from flagtui.api import AdminClient


class FlagtuiContext(Protocol):
    client: AdminClient
    profile: Profile
    row_cache: RowCache

    @property
    def read_only(self) -> bool: ...

    @property
    def enterprise(self) -> bool: ...

    @property
    def project(self) -> str | None:
        """The project shared by the project-scoped areas, remembered per profile."""

    @project.setter
    def project(self, value: str) -> None: ...

    @property
    def server_label(self) -> str: ...

    @property
    def connection_note(self) -> str:
        """Said in the header when the server stopped answering, and for a while once back."""

    def show_connect_failure(self, message: str) -> None: ...

    connect_failure: str | None
    """Why the server could not be connected to (None: connected, or connecting)."""

    def action_connect(self) -> None:
        """Connect (again): the server's version and edition read; a failure said."""

    def failure_source(self) -> FailureSource:
        """Where the failures view and the integrations' sparklines read failures from."""
        ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
