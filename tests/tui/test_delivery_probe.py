"""`i` in a delivery's detail (issue 48, item 5): the integration's target tried from this
machine, shown above the delivery with its URL masked, saying Unleash's server may see the
network differently; nothing is written to the server."""

from __future__ import annotations

import json
import socket
import sqlite3

import httpx

from flagtui.tui.screens.deliveries import DeliveriesScreen, DeliveryDetailScreen
from testkit.pilot import settle

from .areas import app_in
from .helpers import visible_text

WEBHOOK = 1  # the demo's first integration: a webhook (its URL listed masked)


def dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def event_total(sandbox) -> int:
    headers = {"Authorization": sandbox.admin_token}
    answer = httpx.get(f"{sandbox.url}/api/admin/search/events", headers=headers, timeout=30)
    return int(answer.json()["total"])


def add_delivery(db_path: object, url: str) -> None:
    """The webhook's newest delivery, failed, with where real Unleash says it was sent."""
    with sqlite3.connect(str(db_path)) as conn:
        event = conn.execute(
            "SELECT event FROM integration_events WHERE addon_id = ? ORDER BY id DESC LIMIT 1",
            (WEBHOOK,),
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?,?,?,?,?,?)",
            (
                WEBHOOK, "2030-01-01T00:00:00.000Z", "failed",
                "Webhook request failed with status code: 500", event,
                json.dumps({"url": url, "contentType": "application/json"}),
            ),
        )  # fmt: skip


async def test_i_probes_the_target_and_says_connection_refused_masked(
    make_app, sandbox, tmp_path
) -> None:
    port = dead_port()
    add_delivery(sandbox.db_path, f"http://bot:pa55@127.0.0.1:{port}/hooks/T0SECRET?token=s3cr3t")
    events_before = event_total(sandbox)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveryDetailScreen)
        assert visible_text(app, "#probe").strip() == ""
        await pilot.press("i")
        await settle(app, pilot)
        shown = visible_text(app, "#probe")
        assert f"at http://•••••@127.0.0.1:{port}/•••••?token=•••••" in shown
        assert f"connection refused (127.0.0.1:{port})" in shown
        assert "Unleash's server may see the network differently" in shown
        for secret in ("pa55", "T0SECRET", "s3cr3t"):
            assert secret not in shown
    assert event_total(sandbox) == events_before  # a probe writes nothing
