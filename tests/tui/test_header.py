"""The header, one widget drawing two lines: each line keeps its own look as the header's state
changes, and the area bar's labels stay clickable."""

from __future__ import annotations

from rich.segment import Segment

from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_types import FeatureTypesScreen
from flagtui.tui.widgets.header import FlagtuiHeader
from testkit.pilot import settle

from .helpers import visible_text


def backgrounds(app: FlagtuiApp, y: int) -> set[str]:
    """The background colours drawn on screen line `y`, inside a production frame's border."""
    strip = app.screen._compositor.render_strips()[y]
    inside = strip.crop(2, strip.cell_length - 2)
    return {str(s.style.bgcolor) for s in inside if isinstance(s, Segment) and s.style}


async def test_a_server_not_answering_recolours_the_context_line_alone(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        context, areas = backgrounds(app, 0), backgrounds(app, 1)
        app.connection_note = "⚠ not answering since 03:12"
        await settle(app, pilot)
        assert "⚠ not answering since 03:12" in visible_text(app, "FlagtuiHeader")
        assert backgrounds(app, 0).isdisjoint(context), "the context line kept its colour"
        assert backgrounds(app, 1) == areas
        app.connection_note = ""
        await settle(app, pilot)
        assert backgrounds(app, 0) == context


async def test_a_production_profile_colours_both_lines_each_its_own_way(make_app) -> None:
    plain, production = make_app(), make_app(production=True)
    async with plain.run_test(size=(80, 24)) as pilot:
        await settle(plain, pilot)
        usual = backgrounds(plain, 0), backgrounds(plain, 1)
    async with production.run_test(size=(80, 24)) as pilot:
        await settle(production, pilot)
        context, areas = backgrounds(production, 0), backgrounds(production, 1)
    assert context.isdisjoint(usual[0]) and areas.isdisjoint(usual[1])
    assert context.isdisjoint(areas)


async def test_clicking_an_area_in_the_area_bar_opens_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        bar = visible_text(app, "FlagtuiHeader").splitlines()[1]
        await pilot.click(FlagtuiHeader, offset=(bar.index("2 Types") + 1, 1))
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureTypesScreen)
        assert "2 Types" in visible_text(app, "FlagtuiHeader").splitlines()[1]
