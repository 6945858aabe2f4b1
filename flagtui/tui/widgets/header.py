"""The header on every screen: who and where (profile, URL, server, lock), whether the server
answers (`FlagtuiContext.connection_note`), plus the area bar."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from flagtui.tui.areas import AREAS
from flagtui.tui.format import clean

if TYPE_CHECKING:
    from flagtui.tui.context import FlagtuiContext


class FlagtuiHeader(Vertical):
    def __init__(self, area: str = "") -> None:
        super().__init__()
        self.area = area

    def compose(self) -> ComposeResult:
        yield Static(id="context")
        yield Static(id="area-bar")

    def on_mount(self) -> None:
        self.watch(self.app, "server_label", self.show_context)
        self.watch(self.app, "connection_note", self.show_context)
        self._show_area_bar()

    def show_context(self) -> None:
        """The app's profile and connection now (the profile may have been switched)."""
        app = cast("FlagtuiContext", self.app)
        profile = app.profile
        self.set_class(profile.production, "-production")
        self.set_class(app.read_only, "-read-only")
        parts = [Content.styled(f" {clean(profile.name)} ", "bold reverse")]
        # First after the profile, so that a narrow terminal shows it too.
        note = app.connection_note
        self.set_class(note.startswith("⚠"), "-failing")
        if note:
            parts.append(Content.styled(f" {clean(note)} ", "bold"))
        parts.append(Content(f" {clean(profile.url)} · {clean(app.server_label)}"))
        if app.read_only:
            parts.append(Content.styled("  🔒 RO", "bold"))
        if profile.production:
            parts.append(Content.styled("  PRODUCTION", "bold"))
        if profile.tls_verification_off:
            parts.append(Content.styled("  ⚠ TLS verification off", "bold"))
        self.query_one("#context", Static).update(Content("").join(parts))

    def _show_area_bar(self) -> None:
        """`1 Flags 2 Types ...`, the current area highlighted; each label is clickable."""
        parts = []
        for area in AREAS:
            style = "reverse bold " if area.name == self.area else ""
            markup = f"[{style}@click=app.switch_area('{area.name}')]$label[/]"
            parts.append(Content.from_markup(markup, label=f"{area.key} {area.short}"))
        self.query_one("#area-bar", Static).update(Content(" ").join([Content(""), *parts]))
