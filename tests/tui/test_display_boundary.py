"""Server text is data (issue 11, item 1): hostile values written to a real sandbox reach the
screen as visible text, never as markup or control sequences, and never end the app."""

from __future__ import annotations

import sqlite3

from flagtui.api.feature_query import FeatureQuery
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.event_detail import EventDetailScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from flagtui.tui.widgets.confirm import ConfirmModal
from testkit.pilot import settle

from .areas import app_in
from .helpers import screen_text, visible_text
from .hostile import (
    HOSTILE,
    MARKUP_TYPE,
    OSC52,
    PROJECT,
    TITLE,
    assert_shown_as_data,
    hostile_feature,
)


async def test_hostile_feature_in_detail_and_patch_form(make_app, client, sandbox) -> None:
    """Before the fix: MarkupError when the patch form opens (its title and type label), and
    the description's escape sequences reach the terminal in the detail."""
    name = await hostile_feature(client, sandbox.db_path)
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        assert isinstance(app.screen, FeatureDetailScreen)
        assert_shown_as_data(visible_text(app, "#feature"))
        assert MARKUP_TYPE in visible_text(app, "#feature")
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, PatchFormScreen)
        shown = screen_text(app)
        assert f"Patch {name}" in shown and MARKUP_TYPE in shown
        assert "␛]52;c;aGFja2Vk" in shown and "\x1b" not in shown
        # The untouched form sends nothing: its input shows the cleaned description.
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert "Nothing changed" in visible_text(app, "#form-error")
    feature = await client.features.get(PROJECT, name)
    assert feature.description == HOSTILE and feature.type == MARKUP_TYPE


async def test_hostile_change_in_the_event_log(make_app, client, sandbox, tmp_path) -> None:
    """Before the fix: the BiDi override in the event's data reaches the terminal raw."""
    name = await hostile_feature(client, sandbox.db_path)
    event = (await client.events.search(feature=name, limit=1)).events[0]
    app = app_in(make_app, tmp_path, "events")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        app.push_screen(EventDetailScreen(event))
        await settle(app, pilot)
        text = visible_text(app, "#event")
        # JSON escapes control characters; the BiDi override is shown, not obeyed.
        assert "\u202e" not in text and "<U+202E>evil" in text and "[/x]" in text


async def test_hostile_project_name_in_pickers_and_toasts(make_app, client, sandbox) -> None:
    """Before the fix: a project named `Data [/pipeline]` ends the app (Select labels are
    markup); a toast echoing a server's words parses them as markup too."""
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute("UPDATE projects SET name = ? WHERE id = ?", ("Data [/pipeline]", PROJECT))
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(app, pilot)
        assert "Data [/pipeline] (payments)" in screen_text(app)
        app.notify(f"{OSC52}[/x] \u202eevil", title="[/x]")
        await settle(app, pilot)
        shown = screen_text(app)
        assert "\x1b" not in shown and "\u202e" not in shown
        assert "␛]52;c;aGFja2Vk␛\\[/x] <U+202E>evil" in shown


async def test_hostile_profile_and_server_label_in_the_header(make_app) -> None:
    """Before the fix: the profile name and URL are drawn with their control characters."""
    app: FlagtuiApp = make_app(name=f"ops{TITLE}[/x]", shown_url=f"https://x.example/{OSC52}")
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(app, pilot)
        header = visible_text(app, "FlagtuiHeader")
        assert "ops␛]0;pwned␇[/x]" in header and "␛]52" in header
        assert "\x1b" not in header


async def test_confirm_dialog_names_are_data(make_app) -> None:
    """Before the fix: ConfirmModal's title is a Label (markup), `[/x]` ends the app."""
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        app.push_screen(ConfirmModal(f"Remove {HOSTILE}?", f"Flags of {HOSTILE} lose it."))
        await settle(app, pilot)
        assert_shown_as_data(screen_text(app))


def assert_inert(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text


async def test_hostile_store_values_in_every_area(make_app, sandbox, tmp_path) -> None:
    """Before the fix: a group named with `[/x]` ends the app in Project access (SelectionList
    labels are markup), and the other areas draw the escape sequences raw."""
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute("UPDATE addons SET description = ?", (HOSTILE,))
        conn.execute("UPDATE groups_ SET name = name || ' [/x]'")
        conn.execute("UPDATE roles SET name = name || ' [/x]' WHERE type NOT LIKE 'root%'")
        conn.execute("UPDATE change_requests SET title = ?", (HOSTILE,))
        conn.execute("UPDATE users SET name = ? WHERE username = 'cmartin'", (HOSTILE,))
    app = app_in(make_app, tmp_path, "integrations")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert "␛]52;c;aGFja2Vk" in screen_text(app)
        assert_inert(screen_text(app))
        await pilot.press("enter")  # the deliveries' title names the integration
        await settle(app, pilot)
        assert "␛]52;c;aGFja2Vk" in screen_text(app)
        assert_inert(screen_text(app))
        await pilot.press("escape", "8")
        await settle(app, pilot)
        assert "Owner [/x]" in screen_text(app) and " [/x]" in visible_text(app, "#groups")
        await pilot.press("9")
        await settle(app, pilot)
        assert "␛]52;c" in screen_text(app)
        assert_inert(screen_text(app))
        await pilot.press("enter")
        await settle(app, pilot)
        assert "<U+202E>evil" in screen_text(app)
        assert_inert(screen_text(app))
        await pilot.press("escape", "d")  # the delete dialog names the change request
        await settle(app, pilot)
        assert "␛]52;c;aGFja2Vk" in screen_text(app)
        assert_inert(screen_text(app))
        await pilot.press("escape", "7")
        await settle(app, pilot)
        await pilot.press("s", *"cmartin")
        await settle(app, pilot)
        assert "␛]52" in screen_text(app)
        assert_inert(screen_text(app))


async def test_a_long_project_name_keeps_its_picker_on_one_line(
    make_app, client, sandbox, tmp_path
):
    """Before the fix: a Select shows its value wrapped, so a project named with 2,000 characters
    (the hostile demo project's long strings) pushes the features off an 80x24 screen."""
    long_name = "Data [/pipeline] " + "x" * 2000
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute("UPDATE projects SET name = ? WHERE id = ?", (long_name, PROJECT))
    names = {
        f.name
        for f in (await client.features.search(FeatureQuery(project=PROJECT, limit=100))).features
    }
    app = app_in(make_app, tmp_path, "features")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        lines = screen_text(app).splitlines()
        picker = [line for line in lines if "Data [/pipeline]" in line]
        assert len(picker) == 1 and "Data [/pipeline] xxx" in picker[0] and "…" in picker[0]
        assert not any(line.startswith("xxx") for line in lines)
        assert any(name in screen_text(app) for name in names)  # the rows are on screen


# C0 controls that Rich's Text drops without a trace when a text is built from them.
DROPPED_BY_RICH = "a\x07b\x08c\x0bd\x0ce\rf"
SHOWN_INSTEAD = "a␇b␈c␋d␌e␍f"


async def test_controls_rich_would_drop_are_shown_in_the_details(
    make_app, client, sandbox, tmp_path
) -> None:
    """Before the fix: BEL, BS, VT, FF and CR in a description or an event's author vanish from
    the detail views (Rich strips them when the text is built), so what is shown is not what
    the server holds; the display boundary shows every control character."""
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    ops = [{"op": "replace", "path": "/description", "value": DROPPED_BY_RICH}]
    await client.features.patch(PROJECT, name, ops)
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute(
            "UPDATE events SET created_by = ? WHERE feature_name = ?", (DROPPED_BY_RICH, name)
        )
    event = (await client.events.search(feature=name, limit=1)).events[0]
    app: FlagtuiApp = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        assert SHOWN_INSTEAD in visible_text(app, "#feature")
        app.push_screen(EventDetailScreen(event))
        await settle(app, pilot)
        assert SHOWN_INSTEAD in visible_text(app, "#event")


async def test_controls_rich_would_drop_are_shown_in_the_failures_preview(
    make_app, sandbox, tmp_path
) -> None:
    """Before the fix: a failed delivery's state details lose their BEL, BS, VT, FF and CR."""
    with sqlite3.connect(sandbox.db_path) as conn:
        conn.execute("UPDATE integration_events SET state_details = ?", (DROPPED_BY_RICH,))
    app = app_in(make_app, tmp_path, "failures")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(app, pilot)
        assert SHOWN_INSTEAD in visible_text(app, "#failure-preview")
