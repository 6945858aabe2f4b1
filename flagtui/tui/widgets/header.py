"""The header on every screen: who and where (profile, URL, server, lock), whether the server
answers (`FlagtuiContext.connection_note`), plus the area bar. While the server is marked down,
the header of the screen on top probes it, so its recovery shows without a keypress.

One widget drawing its two lines (Textual's line API), each styled by a component class: every
screen has a header, and each widget costs every screen's opening about a millisecond (Enter
on a flag included). The area bar's line is drawn once per area, width and style."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import cast

from textual.cache import LRUCache
from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget
from textual.worker import Worker

from flagtui.tui.areas import AREAS
from flagtui.tui.context import FlagtuiContext
from flagtui.tui.format import clean

# How often the header checks whether a probe is due (the client's health says when: see
# `Health.probe_due`); a check is a comparison of two times, no request.
PROBE_CHECK_S = 1.0


class FlagtuiHeader(Widget):
    """Line 0, the context (component class `header--context`); line 1, the area bar
    (`header--areas`). The widget's classes (-production, -read-only, -failing) style both."""

    COMPONENT_CLASSES = {"header--context", "header--areas"}

    def __init__(self, area: str = "") -> None:
        super().__init__()
        self.area = area
        self.context = Content("")

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            return self._line(self.context, self.get_visual_style("header--context"))
        if y == 1:
            style = self.get_visual_style("header--areas")
            if self.text_selection is not None:  # drawn with the selection: not kept
                return self._line(area_bar(self.area), style)
            key = (self.area, width, style)
            if (line := AREA_LINES.get(key)) is None:
                line = AREA_LINES[key] = self._line(area_bar(self.area), style)
            return line
        return Strip.blank(width, self.rich_style)

    def _line(self, content: Content, style: Style) -> Strip:
        return Visual.to_strips(self, content, self.size.width, 1, style, pad=True)[0]

    def on_mount(self) -> None:
        self.watch(self.app, "server_label", self.show_context)  # shown now (init)
        self.watch(self.app, "connection_note", self.show_context, init=False)
        self._probing: Worker[None] | None = None
        self.set_interval(PROBE_CHECK_S, self._probe_if_down)

    def _probe_if_down(self) -> None:
        """While the server is marked down, ask it whether it is back, so that the header says
        so with nobody using the app: one probe at a time, from the header of the screen on top
        only (none while a modal is open over it), none while the server answers."""
        client = getattr(self.app, "client", None)  # None until a returning start has opened
        if client is None or not self.screen.is_active:
            return
        if self._probing is not None and not self._probing.is_finished:
            return
        if client.health.probe_due(datetime.now(UTC)):
            self._probing = self.run_worker(
                client.probe(), group="health-probe", exit_on_error=False
            )

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
        self.context = Content("").join(parts)
        self.refresh()


# The area bar's line by (area, width, style): the same on every screen of an area. Bounded:
# every terminal width a resize passes through, and every theme, is a key of its own.
AREA_LINES: LRUCache[tuple[str, int, Style], Strip] = LRUCache(64)


@functools.cache
def area_bar(current: str) -> Content:
    """`1 Flags 2 Types ...`, the current area highlighted; each label is clickable. Made once
    per area: every screen's header shows one, and parsing its markup cost each Enter."""
    parts = []
    for area in AREAS:
        if not area.key and area.name != current:
            continue
        style = "reverse bold " if area.name == current else ""
        markup = f"[{style}@click=app.switch_area('{area.name}')]$label[/]"
        label = f"{area.key} {area.short}" if area.key else area.short
        parts.append(Content.from_markup(markup, label=label))
    return Content(" ").join([Content(""), *parts])
