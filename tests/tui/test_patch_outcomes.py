"""The patch form when no answer proves what the write did (issue 22): a loopback gateway in front
of the sandbox (`tests/gateway.py`) forwards the PATCH, the sandbox applies it, and the gateway
answers 502/503/504 itself or a 200 that is not the API's JSON. The form says why the outcome is
unknown, offers F5 rather than a resend, and the sandbox holds the change. A raw JSON Patch that
JSON cannot carry is refused before sending, naming the field, and the app keeps running."""

from __future__ import annotations

from typing import Any

import pytest
from gateway import Answer, Gateway, gateway_page
from textual.widgets import Input, TextArea

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.screens.patch_form import PatchFormScreen

from .faults import PROJECT, open_form, send_form, settle
from .helpers import visible_text

UNPROVEN = [
    pytest.param(gateway_page(504), "the gateway answered 504 after the request was sent",
                 id="504"),
    pytest.param(gateway_page(502), "the gateway answered 502 after the request was sent",
                 id="502"),
    pytest.param(Answer(503, "application/json", b'{"message": "no healthy upstream"}'),
                 "the gateway answered 503 after the request was sent", id="503-json"),
    pytest.param(Answer(200, "text/html", b"<html>Sign in to the proxy</html>"),
                 "the server answered 200, but the answer is not JSON (text/html)", id="200-html"),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "why"), UNPROVEN)
async def test_a_patch_applied_behind_an_unproving_answer_offers_the_re_read(
    build: Any, sandbox: Any, client: AdminClient, answer: Answer, why: str
) -> None:
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    with Gateway(sandbox.url, answer=answer) as gateway:
        app = build(gateway.url, sandbox.admin_token)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            form = await open_form(app, pilot, name)
            assert "f5 Reload" not in visible_text(app, "KeyBar")
            await send_form(app, pilot)
            said = visible_text(app, "#form-error")
            assert "Outcome unknown: no answer shows whether the change was applied" in said
            assert why in said and "Press F5 to re-read the feature" in said
            assert "Not applied" not in said and "<html" not in said
            assert "f5 Reload" in visible_text(app, "KeyBar")
            assert form.query_one("#description", Input).value == "typed by hand"
            assert (await client.features.get(PROJECT, name)).description == "typed by hand"
            await pilot.press("f5")
            await settle(app, pilot)
            assert "the server already has these values" in visible_text(app, "#form-error")
        assert gateway.count("PATCH") == 1, "a write is never sent again"


NOT_JSON = [
    pytest.param('[{"op": "replace", "path": "/description", "value": NaN}]',
                 "Not sent — patch[0].value: NaN is not a JSON value", id="nan"),
    pytest.param('[{"op": "replace", "path": "/description", "value": '
                 + "[" * 5000 + "]" * 5000 + "}]",
                 "Not sent — JSON: nested deeper than 100 levels", id="5000-deep"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "said"), NOT_JSON)
async def test_a_raw_patch_json_cannot_carry_is_not_sent(
    build: Any, sandbox: Any, client: AdminClient, raw: str, said: str
) -> None:
    feature = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0]
    app = build(sandbox.url, sandbox.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, feature.name)
        await pilot.press("ctrl+t")
        form.query_one("#raw", TextArea).text = raw
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert said in visible_text(app, "#form-error")
        assert app.is_running and isinstance(app.screen, PatchFormScreen)
    assert (await client.features.get(PROJECT, feature.name)).description == feature.description
