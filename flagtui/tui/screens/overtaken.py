"""An edit or plan overtaken by another admin's change (`EditConflict`: nothing was sent), asked
the same way wherever it happens: what changed, who and when, then reload or "send mine
anyway" (the name typed first in production). A part the form or screen calls, not a base."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from flagtui.api.edits import EditConflict
from flagtui.tui.widgets.edit_conflict import Choice, EditConflictModal


def ask_overtaken(
    app: App[object],
    moved: EditConflict,
    lead: str,
    reload_says: str,
    typed: str | None,
    reload: Callable[[], object],
    anyway: Callable[[], object],
) -> None:
    """`lead` says what was overtaken; `reload_says` what Reload does; `typed`: the production
    environment to type before sending anyway (None: not production)."""
    lines = [
        f"{lead}; nothing was sent. What changed:",
        *moved.lines(),
        "",
        f"Reload: {reload_says} Send mine anyway: what you reviewed, over their change.",
    ]

    def chose(choice: Choice | None) -> None:
        if choice == "reload":
            reload()
        elif choice == "anyway":
            anyway()

    title = f"{moved.what} changed since it was shown"
    app.push_screen(EditConflictModal(title, lines, typed), chose)
