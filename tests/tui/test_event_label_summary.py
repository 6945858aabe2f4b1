"""Unleash's event search (6.x on) names each event for people: `label` ("Flag archived") and
`summary` (markdown). The event detail shows both as data: markup as written, control
characters visible, the markdown read as plain text. The sandbox follows the contract's
record, which has neither: they are added to its answers on their way."""

from __future__ import annotations

from typing import Any

from flagtui.tui.screens.event_detail import EventDetailScreen

from .areas import settle
from .helpers import visible_text
from .rewritten import app_over_rewritten_sandbox

OSC52 = "\x1b]52;c;aGFja2Vk\x1b\\"
LABEL = f"Flag [/x] archived{OSC52}"
SUMMARY = (
    "**ada\u202e** archived **[checkout](http://unleash.example/projects/default/features/checkout)**"
    " in project **[[link=https://evil.example]default[/link]](http://unleash.example/projects/d)**"
)


def _labelled(method: str, path: str, body: Any) -> Any:
    if path.endswith("/events/search") or path.endswith("/search/events"):
        return {
            **body,
            "events": [{**e, "label": LABEL, "summary": SUMMARY} for e in body["events"]],
        }
    return body


async def test_the_event_detail_shows_label_and_summary_as_plain_data(sandbox, tmp_path):
    app = app_over_rewritten_sandbox(sandbox, tmp_path, "events", _labelled)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EventDetailScreen)
        text = visible_text(app, "#event")
        assert "\x1b" not in text and "\u202e" not in text
        assert "Flag [/x] archived␛]52;c;aGFja2Vk␛\\" in text
        assert (
            "ada<U+202E> archived checkout in project [link=https://evil.example]default[/link]"
            in " ".join(text.split())
        )
        assert "**" not in text and "unleash.example" not in text
    await app.client.aclose()
