"""Secrets stay masked (issue 11, item 9): URLs in a delivery keep scheme and host and mask the
rest, as on the Integrations screen; `m` reveals them for the delivery on screen only."""

from __future__ import annotations

import json
import sqlite3

from flagtui.masking import MASK, mask_url, mask_urls, masked
from flagtui.tui.screens.deliveries import DeliveriesScreen, DeliveryDetailScreen
from testkit.pilot import settle

from .areas import app_in
from .helpers import screen_text, visible_text

SECRET_URL = "https://bot:pa55@hooks.example.com:8443/services/T01/B02/XyZ?token=s3cr3t&v=2#frag"
SHOWN_URL = f"https://{MASK}@hooks.example.com:8443/{MASK}?token={MASK}&v={MASK}#{MASK}"
WEBHOOK = 1  # the demo's first integration: a webhook


def test_mask_url_keeps_scheme_and_host() -> None:
    assert mask_url(SECRET_URL) == SHOWN_URL
    assert mask_url("http://127.0.0.1:9/") == "http://127.0.0.1:9/"
    assert mask_url("https://h.example") == "https://h.example"
    assert mask_url("https://h.example?abc") == f"https://h.example?{MASK}"
    assert mask_urls(f"POST {SECRET_URL} failed (503)") == f"POST {SHOWN_URL} failed (503)"
    assert (
        mask_urls('{"url": "https://h.example/x?k=1"}')
        == f'{{"url": "https://h.example/{MASK}?k={MASK}"}}'
    )


def test_integration_parameters_are_masked_the_same_way() -> None:
    assert (
        masked("url", "https://u:pw@hooks.example/x", set())
        == f"https://{MASK}@hooks.example/{MASK}"
    )
    assert (
        masked("url", "https://hooks.example/x?token=abc", set())
        == f"https://hooks.example/{MASK}?token={MASK}"
    )
    assert masked("apiKey", "dd-123", set()) == MASK
    assert masked("webhook", "https://hooks.example/x", {"webhook"}) == MASK
    assert masked("url", "*****", set()) == MASK
    assert masked("defaultChannels", "#ops", set()) == "#ops"


def add_delivery(db_path: object, body: str | None = None) -> str:
    """A failed delivery of the webhook whose state details and details carry its URL (real
    Unleash keeps the URL in a webhook delivery's details, and its rendered body template)."""
    details = {"message": "sent", "url": SECRET_URL} | ({"body": body} if body else {})
    with sqlite3.connect(db_path) as conn:  # type: ignore[arg-type]
        event = conn.execute(
            "SELECT event FROM integration_events WHERE addon_id = ? ORDER BY id DESC LIMIT 1",
            (WEBHOOK,),
        ).fetchone()[0]
        cursor = conn.execute(
            "INSERT INTO integration_events (addon_id, created_at, state, state_details, event,"
            " details) VALUES (?,?,?,?,?,?)",
            (
                WEBHOOK,
                "2030-01-01T00:00:00.000Z",  # the newest: first in the list
                "failed",
                f"Webhook request to {SECRET_URL} failed with status code: 503",
                event,
                json.dumps(details),
            ),
        )
        return str(cursor.lastrowid)


async def test_delivery_detail_masks_urls_and_m_reveals(make_app, sandbox, tmp_path) -> None:
    """Before the fix: the delivery's detail showed the URL with its token in clear."""
    delivery_id = add_delivery(sandbox.db_path)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveriesScreen)
        assert "s3cr3t" not in screen_text(app) and "pa55" not in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveryDetailScreen)
        assert app.screen.delivery.id == delivery_id
        shown = visible_text(app, "#delivery")
        assert "hooks.example.com:8443" in shown and SHOWN_URL in shown
        assert "s3cr3t" not in shown and "pa55" not in shown and "XyZ" not in shown
        assert "secrets masked: m reveals them" in shown
        await pilot.press("m")
        await settle(app, pilot)
        assert SECRET_URL in visible_text(app, "#delivery")
        assert "secrets shown in full: m masks them" in visible_text(app, "#delivery")
        await pilot.press("escape", "enter")  # the same delivery, opened again: masked
        await settle(app, pilot)
        assert "s3cr3t" not in visible_text(app, "#delivery")


async def test_a_body_template_is_masked_and_nothing_secret_is_kept(
    make_app, sandbox, tmp_path
) -> None:
    """Issue 23: a webhook's rendered body template (its secrets) was shown as is; what the
    app writes (state, row cache) after showing it revealed holds none of it."""
    body = '{"auth": "b0dys3cr3t", "flag": "checkout"}'
    add_delivery(sandbox.db_path, body)
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DeliveryDetailScreen)
        assert "b0dys3cr3t" not in visible_text(app, "#delivery")
        await pilot.press("m")
        await settle(app, pilot)
        assert "b0dys3cr3t" in visible_text(app, "#delivery")
        await pilot.press("escape", "escape", "1")  # the features area: its rows are cached
        await settle(app, pilot)
    kept = [p for p in tmp_path.rglob("*") if p.is_file() and not p.name.startswith("sandbox")]
    assert any(p.name.startswith("rows-") for p in kept)
    for path in kept:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert "b0dys3cr3t" not in text and "s3cr3t" not in text and "pa55" not in text, path


def test_an_events_secrets_are_masked_and_its_names_kept() -> None:
    from flagtui.api.models import EventRecord
    from flagtui.masking import MASK, masked_event

    secret = "default:development." + "ab12" * 14
    event = EventRecord.model_validate(
        {
            "id": 1,
            "createdAt": "2026-12-02T13:02:14.440Z",
            "type": "api-token-created",
            "data": {"tokenName": "sdk", "secret": secret, "note": f"was {secret}"},
            "preData": {"description": "pat", "secret": "***", "other": "user:" + "cd" * 20},
        }
    )
    shown = masked_event(event)
    assert shown.data == {"tokenName": "sdk", "secret": MASK, "note": f"was {MASK}"}
    assert shown.pre_data == {"description": "pat", "secret": MASK, "other": MASK}
    plain = EventRecord.model_validate(
        {"id": 2, "createdAt": "2026-12-02T13:02:14.440Z", "type": "x", "data": {"a": 1}}
    )
    assert masked_event(plain) is plain
