"""Focus that takes effect before the next key is handled."""

from __future__ import annotations

from textual.widget import Widget


def focus_now(widget: Widget) -> None:
    """Give `widget` the focus at once. `Widget.focus` defers it to a later message, so keys
    typed in the same burst as the key that opened a field (a paste, a fast typist over SSH)
    went to the screen behind it: a `7` in a searched name switched to Users.

    A screen's first focus too (in `on_mount`): until it is set, Textual's auto focus holds the
    first focusable widget, often a search box or a hidden filter, and the keys typed with the
    area's key (`6` then `s` and a name) went into it."""
    widget.screen.set_focus(widget)
