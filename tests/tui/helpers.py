"""Small helpers for Pilot tests."""

from __future__ import annotations

from textual.errors import NoWidget
from textual.widgets import Static

from flagtui.tui.app import FlagtuiApp

BURST_PAUSE_S = 2.0
"""The typing pause for a test that counts the searches of keys typed by the pilot: long
enough that its keys are one burst on a loaded machine (the app's own is 0.4 s)."""


def freeze_cursors(app: FlagtuiApp) -> None:
    """Stop text cursors blinking, so a snapshot does not depend on when it was taken."""
    for field in app.screen.query("Input, TextArea"):
        field.cursor_blink = False  # type: ignore[attr-defined]


def text_of(app: FlagtuiApp, selector: str) -> str:
    """A Static's content, whether or not anyone can see it: prefer `visible_text`."""
    return str(app.screen.query_one(selector, Static).render())


class Wrapped(str):
    """Text a widget wrapped to its width: `in` ignores spaces and line breaks, since a line
    folded at a space looks the same as one folded inside a word."""

    def __contains__(self, part: object) -> bool:
        squeezed = "".join(str(part).split())
        if not squeezed:  # a line break or a space itself
            return str.__contains__(self, str(part))
        return squeezed in "".join(self.split())


def screen_lines(app: FlagtuiApp) -> list[str]:
    """What a person sees: the composed top screen (toasts included), line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: FlagtuiApp) -> str:
    return "\n".join(screen_lines(app))


def visible_text(app: FlagtuiApp, selector: str) -> Wrapped:
    """The text drawn in the widget's visible region ("" when it is hidden or has no room)."""
    widget = app.screen.query_one(selector)
    if not widget.display or not widget.visible:
        return Wrapped()
    try:  # clipped by the containers it scrolls in, not only by the screen
        region = app.screen.find_widget(widget).visible_region
    except NoWidget:  # not in the composition: hidden, or an ancestor is
        return Wrapped()
    region = region.intersection(app.screen.region)
    if not region.area:
        return Wrapped()
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return Wrapped("\n".join(strip.crop(region.x, region.right).text.rstrip() for strip in strips))


def toast_text(app: FlagtuiApp) -> Wrapped:
    """The toasts on screen as a person reads them, one per line: each toast's lines joined
    again (a line that fills the toast's width was folded inside a word, the others at a
    space). Needs `app.run_test(notifications=True)`: Pilot hides toasts by default."""
    strips = app.screen._compositor.render_strips()
    toasts = []
    for toast in app.screen.query("Toast"):
        region = toast.region.intersection(app.screen.region)
        width = region.width - 3  # the border (1) and padding (1 each side)
        text = previous = ""
        for y in range(region.y, region.bottom):
            line = strips[y].crop(region.x + 2, region.right - 1).text.rstrip()
            if line:
                text += ("" if not text or len(previous) >= width else " ") + line
                previous = line
        toasts.append(text)
    return Wrapped("\n".join(toasts))
