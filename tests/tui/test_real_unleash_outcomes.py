"""The patch form when a gateway in front of the server (`tests/gateway.py`) forwards the PATCH,
the server applies it, and the gateway answers 504 itself: on the sandbox and on a real Unleash
(issue 22: "a proxy answering 504 after forwarding a PATCH gives "outcome unknown" in the
form"). The form says the outcome is unknown, never "Not applied", F5 re-reads the flag, and the
PATCH was sent once. Other unproving answers, on the sandbox: test_patch_outcomes.py."""

from __future__ import annotations

import uuid

from gateway import Gateway, gateway_page
from textual.widgets import Input

from flagtui.tui.screens.patch_form import PatchFormScreen
from testkit.pilot import settle as settle_idle

from .areas import settle
from .helpers import visible_text
from .real_server import Server, a_feature, open_detail


async def test_a_504_after_the_server_applied_the_patch_is_an_unknown_outcome(
    server: Server,
) -> None:
    name = await a_feature(server)
    text = f"applied behind a gateway {uuid.uuid4().hex[:6]}"
    with Gateway(server.url, answer=gateway_page(504)) as gateway:
        app = server.app("feature-types", url=gateway.url)
        async with app.run_test(size=(80, 24)) as pilot:
            await open_detail(app, pilot, server.project, name)
            await pilot.press("e")
            await settle(pilot)
            assert isinstance(app.screen, PatchFormScreen)
            app.screen.query_one("#description", Input).value = text
            await pilot.press("ctrl+r")
            await pilot.pause()
            await pilot.click("#confirm")
            await settle_idle(app, pilot, failures=True)  # the send's failure is what is tested
            said = visible_text(app, "#form-error")
            assert "Outcome unknown: no answer shows whether the change was applied" in said
            assert "the gateway answered 504 after the request was sent" in said
            assert "Not applied" not in said
            await pilot.press("f5")
            await settle(pilot)
            assert "the server already has these values" in visible_text(app, "#form-error")
        assert gateway.count("PATCH") == 1, "a write is never sent again"
    assert (await server.check.features.get(server.project, name)).description == text
