"""Snapshots of the integrations, failures, events, users, access and change request areas
at 80x24 and 120x40 (deterministic demo data; timestamps absolute)."""

from __future__ import annotations

import pytest

from .areas import app_in, settle

SIZES = [(80, 24), (120, 40)]
URL = "http://sandbox.test:4242"  # the header's URL; the sandbox's port is random
AREAS = {
    "integrations": [],
    "failures": [],
    "events": [],
    "users": ["s", "m", "a", "enter"],
    "access": [],
    "change-requests": [],
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("area", list(AREAS))
def test_area_snapshot(area, size, make_app, tmp_path, snap_compare) -> None:
    app = app_in(make_app, tmp_path, area, shown_url=URL)

    async def run_before(pilot) -> None:
        await settle(pilot)
        if AREAS[area]:
            await pilot.press(*AREAS[area])
            await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


DETAILS = {
    "deliveries": ("integrations", ["j", "enter"]),
    "delivery": ("integrations", ["j", "enter", "enter"]),
    "event": ("events", ["enter"]),
    "change-request": ("change-requests", ["enter"]),
    "delete-confirm": ("change-requests", ["d"]),
    "failures-grouped": ("failures", ["equals_sign"]),
    "toggle-picker": ("features", ["t"]),
    "toggle-production": ("features", ["t", "down", "down", "down", "enter"]),
}


@pytest.mark.parametrize("view", list(DETAILS))
def test_detail_snapshot(view, make_app, tmp_path, snap_compare) -> None:
    area, keys = DETAILS[view]
    app = app_in(make_app, tmp_path, area, shown_url=URL)

    async def run_before(pilot) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
