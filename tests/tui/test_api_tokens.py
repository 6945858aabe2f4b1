"""The API tokens area at 80x24: list (secrets masked), create in a form (the secret shown once,
copied with OSC 52, masked after), revoke after typing the name; each checked on the server."""

from __future__ import annotations

from textual.widgets import Button, Input

from flagtui.tui.screens.api_tokens import ApiTokensScreen
from flagtui.tui.screens.token_form import SecretModal, TokenFormModal
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal
from flagtui.tui.widgets.table import ResourceTable
from testkit.pilot import settle

from .helpers import screen_text, visible_text


async def open_tokens(app, pilot) -> ApiTokensScreen:
    await settle(app, pilot)
    app.switch_area("api-tokens")
    await settle(app, pilot)
    assert isinstance(app.screen, ApiTokensScreen)
    return app.screen


async def until_drawn(app, pilot, text: str) -> str:
    """The screen once `text` is drawn (a read the dismissed dialog started): the event, not a
    time; the bound only ends a hang."""
    for _ in range(500):
        await settle(app, pilot)
        if text in (drawn := screen_text(app)):
            return drawn
    raise AssertionError(f"{text!r} never drawn")


async def test_the_list_masks_every_secret(make_app, sandbox) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_tokens(app, pilot)
        text = screen_text(app)
        assert "2 API tokens" in text and "admin" in text and "*:*.•••••" in text
        assert "9 CRs Tokens" in text  # the header names the open area, which has no key
        assert sandbox.admin_token not in text


async def test_create_shows_the_secret_once_then_masked(make_app, client, monkeypatch) -> None:
    app = make_app()
    copied: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tokens(app, pilot)
        monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
        await pilot.press("C")
        await settle(app, pilot)
        form = app.screen
        assert isinstance(form, TokenFormModal)
        form.query_one("#token-name", Input).value = "tui-made"
        form.query_one("#token-projects", Input).value = "default"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmModal)
        assert "POST /api/admin/api-tokens" in screen_text(app)
        app.screen.query_one("#confirm", Button).press()
        await settle(app, pilot)
        shown = app.screen
        assert isinstance(shown, SecretModal)
        made = next(t for t in await client.api_tokens.list() if t.token_name == "tui-made")
        on_screen = made.secret in visible_text(app, "#token-secret")
        assert on_screen, "the new secret is not shown"  # shown this once (never in a report)
        await pilot.press("y")
        await settle(app, pilot)
        assert copied == [made.secret], "not copied"
        await pilot.press("escape")
        text = await until_drawn(app, pilot, "3 API tokens")
        assert app.screen is screen
        still = made.secret in text
        assert not still, "the secret is still on screen"
        row = next(line for line in text.splitlines() if "tui-made" in line)
        assert "client" in row and "default" in row and "default:d" in row  # masked, clipped
    assert made.projects == ["default"] and made.type == "client"


async def test_a_refused_create_keeps_the_form(make_app, client) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_tokens(app, pilot)
        await pilot.press("C")
        await settle(app, pilot)
        form = app.screen
        form.query_one("#token-name", Input).value = "tui-bad"
        form.query_one("#token-env", Input).value = "nowhere"
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        app.screen.query_one("#confirm", Button).press()
        await settle(app, pilot)
        assert app.screen is form
        assert "Environment=nowhere does not exist" in screen_text(app)
        assert form.query_one("#token-name", Input).value == "tui-bad"
    assert all(t.token_name != "tui-bad" for t in await client.api_tokens.list())


async def test_revoke_after_typing_the_name(make_app, client) -> None:
    body = client.api_tokens.body("tui-gone", "client", "development")
    token = await client.api_tokens.create(body)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tokens(app, pilot)
        table = screen.query_one(ResourceTable)
        table.move_cursor(row=table.get_row_index(token.ref))
        await pilot.press("d")
        await settle(app, pilot)
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal)
        confirm = modal.query_one("#confirm", Button)
        await pilot.press(*"tui-gon")
        await pilot.pause()
        assert confirm.disabled
        await pilot.press("e", "enter")
        text = await until_drawn(app, pilot, "2 API tokens")
        assert app.screen is screen
        assert "tui-gone" not in text
    assert all(t.secret != token.secret for t in await client.api_tokens.list())


async def test_read_only_cannot_create_or_revoke(make_app) -> None:
    app = make_app(read_only=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tokens(app, pilot)
        await pilot.press("C")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("d")
        await pilot.pause()
        assert app.screen is screen
