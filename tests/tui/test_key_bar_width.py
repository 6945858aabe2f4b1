"""The key bar at 80 and 120 columns: when the screen's keys do not all fit, the palette and
the keys a screen offers beside its main ones give way first (GIVE_WAY), so Help and Quit stay
on the bar instead of being cut at its end. Read from the rendered bar."""

from __future__ import annotations

import pytest

from .areas import app_in, settle
from .helpers import visible_text

CASES = {
    # area: (kept at 80 columns, given way at 80 but shown at 120)
    "events": (["/ Filter", "⏎ Open", "n/p Page", "+ 50/100", "r Reload", "? Help", "q Quit"],
               ["T Pick type", "^p palette"]),
    "failures": (["⏎ Open", "w/W Window", "x On/off", "r Reload", "? Help", "q Quit"],
                 ["= Grouped", "^p palette"]),
    "features": (["⏎ Open", "t Toggle", "n/p Page", "r Reload", "? Help", "q Quit"],
                 ["C Create flag", "^p palette"]),
    # a flag's detail (entered from the features area below)
    "detail": (["esc Back", "e Edit", "t Toggle", "A Archive", "r Reload", "y Copy", "? Help",
                "q Quit"], ["0 Roll back to 0 %"]),
}  # fmt: skip


@pytest.mark.parametrize("area", list(CASES))
async def test_help_and_quit_stay_on_a_narrow_bar(area, make_app, tmp_path) -> None:
    kept, given_way = CASES[area]
    for width in (80, 120):
        app = app_in(make_app, tmp_path, "features" if area == "detail" else area,
                     shown_url="http://sandbox.test:4242")  # fmt: skip
        async with app.run_test(size=(width, 30)) as pilot:
            await settle(pilot)
            if area == "detail":
                await pilot.press("enter")
                await settle(pilot)
            bar = str(visible_text(app, "KeyBar"))
        for key in kept:
            assert key in bar, (width, bar)
        for key in given_way:
            assert (key in bar) is (width == 120), (width, bar)
