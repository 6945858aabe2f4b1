"""Textual's Select, with its labels inert and safe to mount while the app quits.

Labels: a Select draws its options' labels and prompt as given; here every str or Text label
(and the prompt) goes through the display boundary (`safe`, `safe_text`: never markup, control
characters visible), while the values, a server's own, stay as they are.

Quitting: a Select builds its parts (the current value, the overlay) in `compose` and fills them
when its Mount is handled. When the app quits while a Select is being mounted (`q` as a screen
mounts its filters), Textual may handle that Mount after the Select was taken off the screen,
its parts gone; Textual's Select then asks for a part and the app ends with a traceback and
exit 1 (NoMatches). Here a Select no longer on the screen skips that set-up: nobody will see it.

Every Select of flagtui is this one (tests/tui/test_quit_while_mounting.py checks it, and that
Textual's own still fails: when it no longer does, delete the `_on_mount` below)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.widgets import Select as TextualSelect
from textual.widgets._select import SelectType  # the type variable, not exported

from flagtui.tui.format import clean, safe, safe_text


def inert_label(label: RenderableType) -> RenderableType:
    """An option's label as drawn: a str or Text through the display boundary, on one line."""
    if isinstance(label, str):
        return safe(label)
    if isinstance(label, Text):
        return safe_text(label, multiline=False)
    return label


class Select(TextualSelect[SelectType]):
    """Textual dispatches Mount to each class's `_on_mount`, subclass first."""

    def __init__(
        self,
        options: Iterable[tuple[RenderableType, SelectType]],
        *,
        prompt: str = "Select",
        **kwargs: Any,
    ) -> None:
        labelled = [(inert_label(label), value) for label, value in options]
        super().__init__(labelled, prompt=clean(prompt), **kwargs)

    def set_options(self, options: Iterable[tuple[RenderableType, SelectType]]) -> None:
        super().set_options([(inert_label(label), value) for label, value in options])

    def _on_mount(self, event: events.Mount) -> None:
        if not self.is_attached:  # Textual's own `_on_mount` (after this one) queries its parts
            event.prevent_default()
