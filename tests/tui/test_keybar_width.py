"""The key bar on a narrow terminal: the screen's own keys give way from the last one back, and
Help, Quit and the palette (which lead to every other key and out) are always on it."""

from __future__ import annotations

from typing import Any

from flagtui.tui.areas import AREAS
from flagtui.tui.widgets.keybar import fitted, width_of
from testkit.pilot import settle

from .helpers import visible_text

ESSENTIAL_SHOWN = ("? Help", "q Quit", "^p palette")


def test_the_last_own_keys_give_way_and_the_essential_ones_stay() -> None:
    own = [(("f", "f", f"Own{i}", True), False) for i in range(6)]
    essential = [(("q", "q", "Quit", True), True), (("?", "?", "Help", True), True)]
    hints = own[:3] + essential[:1] + own[3:] + essential[1:]
    every = sum(width_of(h) for h, _ in hints)
    assert fitted(hints, every) == [h for h, _ in hints]
    narrow = fitted(hints, every - 1)
    assert [h[2] for h in narrow] == ["Own0", "Own1", "Own2", "Quit", "Own3", "Own4", "Help"]
    assert [h[2] for h in fitted(hints, 1)] == ["Quit", "Help"]


async def test_every_area_keeps_help_quit_and_the_palette_at_80_columns(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for area in AREAS:
            app.switch_area(area.name)
            await settle(app, pilot)
            bar = visible_text(app, "KeyBar")
            assert bar.rstrip().endswith("^p palette"), (area.name, bar)  # not cut off
            for shown in ESSENTIAL_SHOWN:
                assert shown in bar, (area.name, bar)


async def test_a_wide_terminal_shows_the_keys_a_narrow_one_left_out(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.switch_area("events")
        await settle(app, pilot)
        assert "r Reload" not in visible_text(app, "KeyBar")
        await pilot.resize_terminal(160, 24)
        await settle(app, pilot)
        assert "r Reload" in visible_text(app, "KeyBar")
