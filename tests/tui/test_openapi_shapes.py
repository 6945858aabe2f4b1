"""Answers the published OpenAPI allows and the sandbox does not send: change request ids and
minApprovals as `number` (7.0), a group without an id. The sandbox's own answers, rewritten
on their way by an `httpx.MockTransport`, shown on the screens that show them."""

from __future__ import annotations

from typing import Any

from textual.widgets import SelectionList

from flagtui.tui.screens.change_requests import ChangeRequestDetailScreen

from .areas import rows, settle
from .helpers import visible_text
from .rewritten import app_over_rewritten_sandbox


def _as_numbers(method: str, path: str, body: Any) -> Any:
    def floated(cr: dict[str, Any]) -> dict[str, Any]:
        return {**cr, "id": float(cr["id"]), "minApprovals": 2.0}

    if "/change-requests" in path:
        return [floated(cr) for cr in body] if isinstance(body, list) else floated(body)
    return body


def _first_group_without_id(method: str, path: str, body: Any) -> Any:
    if path == "/api/admin/groups":
        first, *others = body["groups"]
        first = {k: v for k, v in first.items() if k != "id"} | {"name": "Unnumbered"}
        return {**body, "groups": [first, *others]}
    return body


async def test_a_change_request_id_sent_as_a_number_shows_as_an_integer(sandbox, tmp_path):
    app = app_over_rewritten_sandbox(sandbox, tmp_path, "change-requests", _as_numbers)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = [row[0] for row in rows(app)]
        assert ids and all(i.isdigit() for i in ids), ids
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ChangeRequestDetailScreen)
        detail = " ".join(visible_text(app, "#change-request").split())
        assert f"#{ids[0]} " in detail
        assert "needs 2 approvals" in detail
        assert ".0" not in detail
    await app.client.aclose()


async def test_a_group_without_an_id_is_shown_and_cannot_be_checked(sandbox, tmp_path):
    app = app_over_rewritten_sandbox(sandbox, tmp_path, "access", _first_group_without_id)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Unnumbered (no id)" in visible_text(app, "#groups")
        groups = app.screen.query_one("#groups", SelectionList)
        unnumbered = next(
            groups.get_option_at_index(i)
            for i in range(groups.option_count)
            if "Unnumbered" in str(groups.get_option_at_index(i).prompt)
        )
        assert unnumbered.disabled
    await app.client.aclose()
