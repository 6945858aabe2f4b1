"""Focus that takes effect before the next key is handled."""

from __future__ import annotations

from textual.widget import Widget


def focus_now(widget: Widget) -> None:
    """Give `widget` the focus at once. `Widget.focus` defers it to a later message, so keys
    typed in the same burst as the key that opened a field (a paste, a fast typist over SSH)
    went to the screen behind it: a `7` in a searched name switched to Users."""
    widget.screen.set_focus(widget)
