"""Pick a stored profile to switch to: its name, server URL and marks (production, read-only).

The URL comes from the config file: it is drawn as data (see format.py). Dismissed with the
profile's name, or None."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from flagtui.config import Profile
from flagtui.tui.format import safe
from flagtui.tui.widgets.text import PlainLabel


def profile_label(profile: Profile, current: str) -> Text:
    marks = [
        mark
        for mark, on_ in (
            ("current", profile.name == current),
            ("PRODUCTION", profile.production),
            ("🔒 RO", profile.read_only),
        )
        if on_
    ]
    label = Text.assemble(safe(profile.name, "bold"), "  ", safe(profile.url))
    if marks:
        label.append(f"  {' · '.join(marks)}", style="bold")
    return label


class ProfilePickerModal(ModalScreen[str | None]):
    DEFAULT_CSS = """
    #profile-options { height: auto; max-height: 14; border: none; padding: 0; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Cancel", id="profile-picker.cancel",
                tooltip="Stay on this profile"),
    ]  # fmt: skip

    options = getters.query_one(OptionList)

    def __init__(self, profiles: Sequence[Profile], current: str) -> None:
        super().__init__(classes="form")
        self.profiles = list(profiles)
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="profile-picker"):
            yield PlainLabel("Switch to profile (enter picks, Esc stays)", classes="dialog-title")
            yield OptionList(
                *(Option(profile_label(p, self.current), id=p.name) for p in self.profiles),
                id="profile-options",
            )

    def on_mount(self) -> None:
        options = self.options
        options.focus()
        names = [p.name for p in self.profiles]
        others = [i for i, name in enumerate(names) if name != self.current]
        if others:
            options.highlighted = others[0]

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
