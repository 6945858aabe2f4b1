"""A form's fields show a server's text inert and send it back raw (issue 44, item 1): a
strategy's title, parameters and variants, a flag's variants and description, from the
sandbox's hostile project, round-trip byte for byte when untouched, keep their control
characters when edited around them, and lose one when its visible form is deleted."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App, ComposeResult

from flagtui.sandbox import hostile_data as hx
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.format import clean
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.strategy_form import StrategyFormScreen
from flagtui.tui.screens.variant_form import VariantFormScreen
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.select import Select
from testkit.pilot import settle

from .faults import send_form
from .helpers import screen_text
from .rollout_flows import confirm, review

FLAG = "hx-escapes"
TITLE = hx.hostile("hx-strategy", lines=False)
GROUP = hx.hostile("hx-param")


def stored_strategy(db_path: Path) -> dict[str, Any]:
    with sqlite3.connect(db_path) as conn:
        row = conn.execute(
            "SELECT title, parameters, variants FROM strategies WHERE feature = ?"
            " AND environment = 'development'",
            (FLAG,),
        ).fetchone()
    return {"title": row[0], "parameters": json.loads(row[1]), "variants": json.loads(row[2])}


async def open_strategy_form(app: FlagtuiApp, pilot: Any) -> StrategyFormScreen:
    app.push_screen(FeatureDetailScreen(hx.PROJECT, FLAG))
    await settle(app, pilot)
    await pilot.press("S")
    await settle(app, pilot)
    await pilot.press("enter")  # development, the picker's first
    await settle(app, pilot)
    assert isinstance(app.screen, StrategyFormScreen), screen_text(app)
    return app.screen


async def test_an_untouched_title_goes_back_byte_for_byte(make_app, sandbox) -> None:
    """Only the rollout is changed: the title, the group id and the variant are sent back as
    the server has them. Before the fix the title's OSC 52 went to the terminal as it is."""
    before = stored_strategy(sandbox.db_path)
    assert before["title"] == TITLE and before["variants"][0]["payload"]["value"].count("\x1b")
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        form = await open_strategy_form(app, pilot)
        title = form.query_one("#title", InertInput)
        assert title.value == clean(TITLE) and "\x1b" not in title.value
        assert "␛]52;c;" in title.value and "<U+009B>2JHX-C1" in title.value
        payload = form.query_one(".v-value", InertInput)
        assert payload.value == clean(hx.VARIANT["payload"]["value"])  # type: ignore[index]
        rollout = form.query_one("#rollout", InertInput)
        rollout.focus()
        await pilot.press("end", "backspace", "backspace", *"60")
        await review(app, pilot)
        await confirm(app, pilot, "Update strategy of")
    after = stored_strategy(sandbox.db_path)
    assert after["parameters"]["rollout"] == "60"
    assert after["title"] == TITLE
    assert after["parameters"]["groupId"] == GROUP
    assert after["variants"][0]["name"] == hx.VARIANT["name"]
    assert after["variants"][0]["payload"] == hx.VARIANT["payload"]


async def test_an_edited_title_keeps_what_was_not_deleted(make_app, sandbox) -> None:
    """Typed after, the server's controls stay; the window-title sequence's ␛ deleted, its
    ESC is gone and the rest of it stays as text."""
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        form = await open_strategy_form(app, pilot)
        title = form.query_one("#title", InertInput)
        title.focus()
        at = title.value.index("␛]0;pwned")
        title.cursor_position = at + 1
        await pilot.press("backspace", "end", *" v2")
        assert title.value == clean(TITLE.replace("\x1b]0;", "]0;")) + " v2"
        await review(app, pilot)
        await confirm(app, pilot, "Update strategy of")
    assert stored_strategy(sandbox.db_path)["title"] == TITLE.replace("\x1b]0;", "]0;") + " v2"


def stored_env_variants(db_path: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db_path) as conn:
        row = conn.execute(
            "SELECT variants FROM feature_environments WHERE feature = ?"
            " AND environment = 'development'",
            (FLAG,),
        ).fetchone()
    return list(json.loads(row[0]))


async def test_a_flags_variant_payload_goes_back_byte_for_byte(make_app, sandbox) -> None:
    """The variants form: the payload shows its window-title sequence as ␛]0;…␇; the name
    edited, the payload is sent back as the server has it."""
    payload = hx.VARIANT["payload"]
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        app.push_screen(FeatureDetailScreen(hx.PROJECT, FLAG))
        await settle(app, pilot)
        await pilot.press("V")
        await settle(app, pilot)
        await pilot.press("enter")  # development, the picker's first
        await settle(app, pilot)
        assert isinstance(app.screen, VariantFormScreen), screen_text(app)
        value = app.screen.query_one(".v-value", InertInput)
        assert value.value.startswith("hx-payload ␛]0;pwned␇␛[2J<U+009B>HX-C1 <U+202E>")
        app.screen.query_one(".v-name", InertInput).focus()
        await pilot.press("end", *"-2")
        await send_form(app, pilot)
        assert not isinstance(app.screen, VariantFormScreen), screen_text(app)
    stored = stored_env_variants(sandbox.db_path)
    assert [v["name"] for v in stored] == ["hx-variant-2"]
    assert stored[0]["payload"] == payload


class Fields(App[None]):
    def compose(self) -> ComposeResult:
        yield InertInput("t \x1b]0;pwned\x07 end", id="typed")
        yield Select([(f"[/x] {hx.OSC0}{hx.C1_CSI}", "kept")], value="kept", id="picked")


async def test_a_paste_and_a_selects_label_are_shown_inert() -> None:
    """A control character pasted shows as its visible form, and is sent as that form; a
    Select's label (a str) is drawn as written, markup and controls visible, its value kept."""
    app = Fields()
    async with app.run_test(size=(60, 8)) as pilot:
        box = app.query_one("#typed", InertInput)
        box.focus()
        await pilot.press("end")
        box.post_message(events.Paste(" \x1b[2J"))
        await pilot.pause()
        assert box.value == "t ␛]0;pwned␇ end ␛[2J"
        assert box.raw_value == "t \x1b]0;pwned\x07 end ␛[2J"
        shown = screen_text(app)
        assert "[/x] ␛]0;pwned␇<U+009B>" in shown and "\x1b" not in shown
        assert app.query_one("#picked", Select).value == "kept"
