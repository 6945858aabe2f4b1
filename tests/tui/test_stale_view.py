"""The stale-flag view, opened from the palette: the project's stale and potentially stale
flags as the server counts them, each with its facts (state, age, type lifetime, creator, on
in production, last seen), and when they were read."""

from __future__ import annotations

import sqlite3

import httpx
from textual.widgets import Input

from flagtui.tui.screens.bulk_screens import BulkResult
from flagtui.tui.screens.stale_flags import StaleFlagsScreen
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from testkit.pilot import settle

from .helpers import screen_text, visible_text
from .hostile import HOSTILE, MARKUP_TYPE, hostile_feature
from .hostile import PROJECT as HOSTILE_PROJECT
from .palette_keys import run_from_palette

PROJECT = "default"


def stale_at_server(http: httpx.Client) -> dict[str, dict]:
    params = {"project": f"IS:{PROJECT}", "state": "IS_ANY_OF:stale,potentially-stale",
              "limit": 1000}  # fmt: skip
    found = http.get("/api/admin/search/features", params=params).json()["features"]
    return {f["name"]: f for f in found}


async def test_seeded_stale_flags_appear_with_their_facts(make_app, sandbox) -> None:
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    base = f"/api/admin/projects/{PROJECT}/features"
    marked = sorted(f["name"] for f in http.get(base).json()["features"])[0]
    http.patch(
        f"{base}/{marked}", json=[{"op": "replace", "path": "/stale", "value": True}]
    ).raise_for_status()
    expected = stale_at_server(http)
    lifetimes = {
        t["id"]: t["lifetimeDays"] for t in http.get("/api/admin/feature-types").json()["types"]
    }
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        app.project = PROJECT
        await run_from_palette(app, pilot, "stale", "Stale flags of the project")
        assert isinstance(app.screen, StaleFlagsScreen)
        await settle(app, pilot)
        assert not isinstance(app.screen.focused, Input)
        lines = [line for line in visible_text(app, "#stale").splitlines()[1:] if line.strip()]
        status = visible_text(app, "#stale-status")
    assert f"of project {PROJECT}, oldest first; read at" in status
    assert {line.split()[0] for line in lines} == set(expected) and marked in expected
    [row] = [line for line in lines if line.split()[0] == marked]
    flag = expected[marked]
    assert " stale " in row and "potentially" not in row
    # no record says "potentially stale": the view says it of what the search's filter found
    potentially = {name for name, f in expected.items() if not f["stale"]}
    assert potentially
    for line in lines:
        assert ("potentially stale" in line) is (line.split()[0] in potentially), line
    assert flag["type"] in row
    days = lifetimes[flag["type"]]
    assert (f"{days} days" if days else "never") in row
    on_in_prod = [e["name"] for e in flag["environments"]
                  if e["enabled"] and e["type"] == "production"]  # fmt: skip
    assert (", ".join(on_in_prod) or " no ") in row
    assert flag["createdBy"]["name"] in row
    for env in flag["environments"]:  # last seen, per environment (times shown in UTC)
        seen = env.get("lastSeenAt")
        assert f"{env['name']} {seen[:10] if seen else 'never'}" in row, row


async def test_hostile_type_and_creator_are_shown_as_data(make_app, client, sandbox) -> None:
    name = await hostile_feature(client, sandbox.db_path)
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE users SET name = ? WHERE id = (SELECT created_by FROM features WHERE name = ?)",
            (HOSTILE, name),
        )
    await client.features.patch(
        HOSTILE_PROJECT, name, [{"op": "replace", "path": "/stale", "value": True}]
    )
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        app.push_screen(StaleFlagsScreen(HOSTILE_PROJECT))
        await settle(app, pilot)
        shown = screen_text(app)
        [row] = [line for line in visible_text(app, "#stale").splitlines() if f" {name} " in line]
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert MARKUP_TYPE in row and "7 days" in row  # the type's lifetime, beside it
    assert "␛]52;c" in row  # the creator's name, its escape drawn as a visible symbol


async def test_archive_listed_shows_the_plan_then_each_flags_outcome(
    make_app, client, sandbox
) -> None:
    """`A`: every listed flag archived after one plan (a flag on in production asks for that
    environment's name typed); each flag's outcome; the server then lists none of them."""
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    expected = stale_at_server(http)
    app = make_app()
    async with app.run_test(size=(200, 60), notifications=True) as pilot:
        await settle(app, pilot)
        app.project = PROJECT
        await run_from_palette(app, pilot, "stale", "Stale flags of the project")
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal), screen_text(app)
        plan = screen_text(app)
        n = len(expected)
        assert f"Archive {n} of {n} stale flags shown?" in plan
        assert all(name in plan for name in expected)
        if isinstance(modal, TypedConfirmModal):  # one of them is on in production
            await pilot.press(*modal.expected, "enter")
        else:
            await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, BulkResult), screen_text(app)
        assert f"Archive feature: {n} done" in screen_text(app)
    assert stale_at_server(http) == {}
    for name in expected:  # each one archived, not gone
        found = await client.archived.find(PROJECT, name)
        assert found is not None and found.is_archived, name


async def test_archive_acts_only_on_the_rows_the_filter_shows_and_says_the_filter(
    make_app, client, sandbox
) -> None:
    """Narrowed with `/` to one flag, `A` plans that flag alone, its question naming the filter
    and how many of the listed flags it shows; the flags it hid stay stale and live."""
    http = httpx.Client(base_url=sandbox.url, headers={"Authorization": sandbox.admin_token})
    expected = stale_at_server(http)
    names = sorted(expected)
    kept = next(n for n in names if not any(n in other for other in names if other != n))
    hidden = set(names) - {kept}
    assert hidden, "the demo has several stale flags"
    app = make_app()
    async with app.run_test(size=(200, 60), notifications=True) as pilot:
        await settle(app, pilot)
        app.project = PROJECT
        await run_from_palette(app, pilot, "stale", "Stale flags of the project")
        await settle(app, pilot)
        await pilot.press("slash", *kept, "enter")
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmModal), screen_text(app)
        assert "Archive 1 of 1 stale flag shown?" in visible_text(app, ".dialog-title")
        plan = visible_text(app, ".dialog-body")
        said = f"The 1 stale flag shown, filtered by {kept!r} (1 of the {len(names)} listed)"
        assert said in plan
        assert kept in plan and not any(name in plan for name in hidden)
        if isinstance(modal, TypedConfirmModal):
            await pilot.press(*modal.expected, "enter")
        else:
            await pilot.press("tab", "enter")
        await settle(app, pilot)
        assert "Archive feature: 1 done" in screen_text(app)
    assert set(stale_at_server(http)) == hidden
