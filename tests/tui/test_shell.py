"""The shell: header, area switching, help, palette, read-only lock, remembered state."""

from __future__ import annotations

from textual.widgets import Static

from flagtui.tui.widgets.header import FlagtuiHeader


def header_text(app) -> str:
    return str(app.screen.query_one(FlagtuiHeader).query_one("#context", Static).render())


async def test_app_starts_and_header_shows_profile_and_server(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = header_text(app)
        assert "sandbox" in text
        assert app.client.server is not None
        assert app.client.server.label in text
        assert app.area == "features"
