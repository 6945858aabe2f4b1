"""Pick an event type from a list (the contract's types, `flagtui/contract.py`): typing narrows
the list, Enter picks the highlighted type, Escape closes without change. Dismisses with the
type, "" for "any type", or None when closed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from flagtui.tui.widgets.text import PlainLabel

ANY_TYPE = "(any type)"


class EventTypePicker(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "close", "Cancel", id="type-picker.cancel",
                tooltip="Close without change"),
        Binding("down", "move(1)", "Down", show=False, id="type-picker.down",
                tooltip="Next type"),
        Binding("up", "move(-1)", "Up", show=False, id="type-picker.up",
                tooltip="Previous type"),
    ]  # fmt: skip
    filter_box = getters.query_one("#type-filter", Input)
    listing = getters.query_one("#type-list", OptionList)

    def __init__(self, types: Sequence[str], current: str | None = None) -> None:
        super().__init__(classes="form")
        self.types = list(types)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="type-picker"):
            yield PlainLabel("Event type: type to narrow, Enter picks", classes="dialog-title")
            yield Input(placeholder="narrow the list", id="type-filter", compact=True)
            yield OptionList(id="type-list")

    def on_mount(self) -> None:
        self.fill("")
        self.filter_box.focus()

    def fill(self, narrow: str) -> None:
        shown = [t for t in self.types if narrow.lower() in t.lower()]
        options = [Option(Text(ANY_TYPE), id="")] if not narrow else []
        options += [Option(Text(t), id=t) for t in shown]
        self.listing.set_options(options)
        ids = [o.id for o in options]
        self.listing.highlighted = ids.index(self.current) if self.current in ids else 0

    @on(Input.Changed, "#type-filter")
    def _narrow(self, event: Input.Changed) -> None:
        self.fill(event.value.strip())

    def action_move(self, delta: int) -> None:
        if self.listing.option_count:
            now = self.listing.highlighted or 0
            self.listing.highlighted = max(0, min(self.listing.option_count - 1, now + delta))

    @on(Input.Submitted, "#type-filter")
    def _pick_highlighted(self) -> None:
        if self.listing.highlighted is not None and self.listing.option_count:
            self.dismiss(self.listing.get_option_at_index(self.listing.highlighted).id or "")

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "")

    def action_close(self) -> None:
        self.dismiss(None)
