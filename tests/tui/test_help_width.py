"""Help fits 80 columns (issue 46, item 6): `?` on every area's screen, drawn at 80x24, shows
each key's whole text, folded to the dialog (no line runs past the table's right edge, nothing
is left behind a sideways scroll); and `--help` of every command, at COLUMNS=80, has no line
longer than 80."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from flagtui.cli.parser import command_line
from flagtui.tui.areas import AREAS
from flagtui.tui.widgets.help import HelpScreen

from .areas import app_in, settle
from .helpers import visible_text


@pytest.mark.parametrize("area", [a.name for a in AREAS])
async def test_help_at_80_columns_shows_every_tooltip_whole(make_app, tmp_path, area) -> None:
    app = app_in(make_app, tmp_path, area)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one(DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert table.max_scroll_x == 0
        shown = visible_text(app, "DataTable")
        first = app.screen.rows[0]  # the screen's own first key, whole, folded or not
        assert first[2] in shown, shown


def test_every_commands_help_fits_80_columns(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    parser, commands = command_line()
    texts = {"flagtui": parser.format_help()}
    for words, command in commands.items():
        texts[words] = command.load().format_help()
    long = {
        words: line for words, text in texts.items() for line in text.splitlines() if len(line) > 80
    }
    assert long == {}
