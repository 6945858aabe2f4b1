"""Readable without colour (issue 23, item 5): under NO_COLOR Textual turns every colour grey,
and a red failure on a dark row became grey on grey (about 1.3:1). Failed states, failure
counts, sparklines and `✗` marks must stand out by weight or reverse video, in colours that
contrast with their row: checked on the segments drawn, not on the text."""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.style import Style

from flagtui.tui.triage_view import SPARK
from flagtui.tui.widgets.table import ResourceTable

from .areas import app_in, rows, settle

READABLE = 3.0  # WCAG's contrast for large or bold text; grey on grey measured about 1.3


def luminance(style: Style, background: bool) -> float:
    color = style.bgcolor if background else style.color
    assert color is not None, style
    channels = [c / 255 for c in color.get_truecolor()]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(style: Style) -> float:
    lighter, darker = sorted((luminance(style, False), luminance(style, True)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def drawn(app, selector: str, shows: Callable[[str], bool]) -> list[Segment]:
    """The segments of the widget's drawn lines (filters applied) whose text `shows` says."""
    region = app.screen.query_one(selector).region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return [
        segment
        for strip in strips
        for segment in strip.crop(region.x, region.right)
        if shows(segment.text.strip())
    ]


def assert_stands_out(segments: list[Segment], *, reverse: bool = False) -> None:
    assert segments
    for segment in segments:
        style = segment.style
        assert style is not None
        assert style.bold or (reverse and style.reverse), (segment.text, style)
        assert contrast(style) >= READABLE, (segment.text, style, contrast(style))


async def test_failures_stand_out_without_colour(make_app, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert app.no_color
        table = app.screen.query_one("#failures", ResourceTable)
        table.move_cursor(row=table.row_count - 1)  # the cursor's own colours off the rows
        await settle(pilot)
        assert_stands_out(drawn(app, "#failures", lambda text: text == "failed"), reverse=True)
        await pilot.press("equals_sign")
        await settle(pilot)
        assert_stands_out(drawn(app, "#failure-groups", str.isdigit))

        await pilot.press("4")
        await settle(pilot)
        assert_stands_out(drawn(app, "#integrations", lambda text: bool(set(text) & set(SPARK))))
        fails = max(int(row[3]) for row in rows(app, "#integrations"))  # more than any Events
        assert_stands_out(drawn(app, "#integrations", lambda text: text == str(fails)))

        await pilot.press("1")
        await settle(pilot)
        assert_stands_out(drawn(app, "ResourceTable", lambda text: text == "✗"))


async def test_an_ansi_theme_draws_failures_by_weight_too(make_app, tmp_path) -> None:
    """The terminal's 16 colours may put red on a red-ish row: the ansi theme draws failures as
    NO_COLOR does, redrawn at once."""
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        reads = app.client.requests_sent
        app.theme = "ansi-dark"
        await settle(pilot)
        assert app.client.requests_sent == reads  # drawn again from the rows held
        table = app.screen.query_one("#failures", ResourceTable)
        table.move_cursor(row=table.row_count - 1)
        await settle(pilot)
        states = drawn(app, "#failures", lambda text: text == "failed")
        assert states and all(s.style and s.style.bold and s.style.reverse for s in states)
        in_red = [s for s in states if s.style and s.style.color and "red" in s.style.color.name]
        assert not in_red
