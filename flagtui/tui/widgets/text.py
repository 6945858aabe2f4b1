"""Text widgets for lines that may carry a server's words: never parsed as markup, control
characters made visible (see format.py). Static and Label parse markup by default, so
`Label(f"Patch {name}")` would end the app on a name with `[/x]` in it."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Label, Static

from flagtui.tui.format import clean, safe_text


def plain(content: VisualType) -> VisualType:
    """What a text widget may draw of `content`: strings and Texts cleaned (newlines kept)."""
    if isinstance(content, str):
        return clean(content, multiline=True)
    if isinstance(content, Text):
        return safe_text(content)
    return content


class PlainStatic(Static):
    """A Static whose text is data: no markup, no control sequence."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(plain(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(plain(content), layout=layout)


class PlainLabel(Label):
    """A Label whose text is data: no markup, no control sequence."""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(plain(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(plain(content), layout=layout)


class MessageLine(PlainStatic):
    """A form's message line: shown while it has text, hidden (taking no room) when empty.

    (CSS `:empty` cannot do this: in Textual it means "no child widgets", which a Static
    never has, so `.error-line:empty { display: none }` hid the line for good.)"""

    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.display = bool(content)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(content, layout=layout)
        text = content.plain if isinstance(content, Text) else content
        self.display = bool(text)
