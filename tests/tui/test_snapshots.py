"""Snapshots of the areas at 80x24 and 120x40 (generate with --snapshot-update, then look)."""

from __future__ import annotations

import pytest

from testkit.pilot import settle

from .helpers import freeze_cursors

SIZES = [(80, 24), (120, 40)]
URL = "http://sandbox.test:4242"


async def _settled(pilot) -> None:
    await settle(pilot.app, pilot, rounds=6)
    freeze_cursors(pilot.app)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "keys",
    [
        pytest.param([], id="features"),
        pytest.param(["enter"], id="feature-detail"),
        pytest.param(["enter", "e"], id="patch-form"),
        pytest.param(["2"], id="feature-types"),
        pytest.param(["3"], id="environments"),
        pytest.param(["3", "d"], id="remove-environment"),
    ],
)
def test_area_snapshot(snap_compare, make_app, size, keys) -> None:
    app = make_app(shown_url=URL)

    async def run_before(pilot) -> None:
        await _settled(pilot)
        for key in keys:
            await pilot.press(key)
            await _settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_production_read_only_snapshot(snap_compare, make_app) -> None:
    app = make_app(shown_url=URL, read_only=True, production=True, name="prod")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_settled)


def test_profile_picker_snapshot(snap_compare, make_app, tmp_path, monkeypatch) -> None:
    """The profile switcher (P) over the features, at 80x24."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[profiles.sandbox]\nurl = "{URL}"\n\n'
        '[profiles.staging]\nurl = "https://unleash.staging.example.com"\n\n'
        '[profiles.production]\nurl = "https://unleash.example.com"\n'
        "production = true\nread_only = true\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("FLAGTUI_CONFIG", str(config))
    # UNLEASH_URL (set when the real-server suites run) would add an "env" profile to the list.
    monkeypatch.delenv("UNLEASH_URL", raising=False)
    monkeypatch.delenv("UNLEASH_API_TOKEN", raising=False)
    app = make_app(shown_url=URL)

    async def run_before(pilot) -> None:
        await _settled(pilot)
        await pilot.press("P")
        await _settled(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
