"""Focus that takes effect before the next key is handled."""

from __future__ import annotations

import sys

from textual.widget import Widget
from textual.widgets import Input


def focus_now(widget: Widget) -> None:
    """Give `widget` the focus at once. `Widget.focus` defers it to a later message, so keys
    typed in the same burst as the key that opened a field (a paste, a fast typist over SSH)
    went to the screen behind it: a `7` in a searched name switched to Users.

    A screen's first focus too (in `on_mount`): until it is set, Textual's auto focus holds the
    first focusable widget, often a search box or a hidden filter, and the keys typed with the
    area's key (`6` then `s` and a name) went into it."""
    widget.screen.set_focus(widget)


def takes_text(widget: Widget | None) -> bool:
    """`widget` is a text field (an Input or a TextArea): keys typed there are text. TextArea's
    module is looked up, not imported: it costs a start about 10 ms, and until a form that has
    one is opened no widget can be one."""
    text_area = sys.modules.get("textual.widgets._text_area")
    return isinstance(widget, Input) or (
        text_area is not None and isinstance(widget, text_area.TextArea)
    )
