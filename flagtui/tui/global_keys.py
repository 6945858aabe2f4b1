"""The app's own keys, the same on every screen: help, quit, times, leaving a field, switching
profile, and one key per area (from the area registry)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from flagtui.tui.areas import AREAS

APP_BINDINGS: list[BindingType] = [
    Binding("question_mark", "help", "Help", id="app.help", tooltip="Every key of this screen"),
    Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave flagtui"),
    Binding(
        "z",
        "toggle_utc",
        "Local time/UTC",
        show=False,
        id="app.utc",
        tooltip="Show every time in UTC, or in local time (each with its zone named)",
    ),
    Binding(
        "escape",
        "leave_field",
        "Leave field",
        show=False,
        id="app.leave-field",
        tooltip="Out of the text field (keeps its text), so keys act on the screen again",
    ),
    Binding(
        "P",
        "switch_profile",
        "Switch profile",
        show=False,
        id="app.profile",
        tooltip="Another profile of the config (server, account): nothing of this one stays",
    ),
    *(
        Binding(
            area.key,
            f"switch_area('{area.name}')",
            area.title,
            show=False,
            id=f"area.{area.name}",
            tooltip=f"Go to {area.title}",
        )
        for area in AREAS
        if area.key
    ),
]
