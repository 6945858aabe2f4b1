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
    # Tab and shift+Tab move the focus as soon as they arrive (priority), not when the key has
    # gone to the focused field and come back unused: the keys typed after them in one burst
    # (a fast typist, a paste, a slow SSH link) were already in the field Tab was leaving.
    Binding(
        "tab",
        "app.focus_next",
        "Focus Next",
        show=False,
        priority=True,
        id="app.focus-next",
        tooltip="The next field, in the order they are drawn (keys typed after Tab go to it)",
    ),
    Binding(
        "shift+tab",
        "app.focus_previous",
        "Focus Previous",
        show=False,
        priority=True,
        id="app.focus-previous",
        tooltip="The previous field, in the order they are drawn",
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
