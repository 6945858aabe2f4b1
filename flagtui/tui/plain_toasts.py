"""The app's base: every toast is plain text. A toast often carries a server's words, so markup
is off and control characters are shown, never interpreted (`format.clean`)."""

from __future__ import annotations

from textual.app import App
from textual.notifications import SeverityLevel

from flagtui.tui.format import clean


class PlainToastsApp(App[int]):
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        super().notify(
            clean(message, multiline=True),
            title=clean(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )
