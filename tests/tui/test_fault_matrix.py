"""The TUI under faults (issue 7): every case shows a clear sentence (what was tried and what the
server said), the app keeps running, and a form keeps its input.

Faults come from a real sandbox where it can produce them (closed port, stopped server, viewer
token), otherwise from `FaultApp`, an ASGI wrapper around the sandbox app served over real HTTP
that answers chosen requests itself, or from `httpx.MockTransport` (a TLS failure).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.responses import Response
from textual.widgets import Input

from flagtui.api import AdminClient
from flagtui.api.feature_query import FeatureQuery
from flagtui.sandbox import SandboxServer
from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.connect import ConnectScreen
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.features import FeaturesScreen
from flagtui.tui.widgets.table import ResourceTable

from .faults import (
    FEATURE,
    PROJECT,
    FaultApp,
    Responder,
    html_error,
    json_error,
    open_form,
    send_form,
    settle,
)
from .helpers import toast_text, visible_text

SEARCH = "/api/admin/search/features"


def messages(app: FlagtuiApp) -> str:
    """The toasts on screen (the app must run with notifications=True)."""
    return toast_text(app)


def row_count(app: FlagtuiApp) -> int:
    return app.screen.query_one(ResourceTable).row_count


async def first_feature(app: FlagtuiApp) -> str:
    page = await app.client.features.search(FeatureQuery(project=PROJECT, limit=1))
    return page.features[0].name


async def open_detail(app: FlagtuiApp, pilot: Any) -> str:
    """Open the first feature's detail (a read the client never caches); its name."""
    name = await first_feature(app)
    app.push_screen(FeatureDetailScreen(PROJECT, name))
    await settle(app, pilot)
    return name


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def test_unreachable_at_start_then_retry_connects(build: Any, sandbox_db: Path) -> None:
    port = free_port()
    token = SandboxServer(sandbox_db).admin_token
    app = build(f"http://127.0.0.1:{port}", token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ConnectScreen)
        status = visible_text(app, "#connect-status")
        assert "Could not connect" in status
        assert "GET /api/admin/ui-config (profile p) failed: Unreachable: cannot connect" in status
        with SandboxServer(sandbox_db, port=port):
            await pilot.press("r")
            await settle(app, pilot)
            assert isinstance(app.screen, FeaturesScreen)
            assert row_count(app) > 0


async def test_a_screen_over_the_connect_screen_fails_back_to_it(
    build: Any, sandbox_db: Path
) -> None:
    """A read from a screen opened while not connected ends on the connect screen, not in a crash
    (CI once timed ui-config out at start and then opened a detail)."""
    token = SandboxServer(sandbox_db).admin_token
    app = build(f"http://127.0.0.1:{free_port()}", token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, ConnectScreen)
        app.push_screen(FeatureDetailScreen(PROJECT, "any-flag"))
        await settle(app, pilot)
        assert app.is_running and isinstance(app.screen, ConnectScreen)
        assert "Unreachable: cannot connect" in visible_text(app, "#connect-status")


async def test_server_dies_mid_session_and_comes_back(build: Any, sandbox_db: Path) -> None:
    server = SandboxServer(sandbox_db).start()
    port = server.port
    app = build(server.url, server.admin_token)
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(app, pilot)
            name = await open_detail(app, pilot)
            server.stop()
            await pilot.press("r")
            await settle(app, pilot)
            assert f"GET {FEATURE}{name} (profile p) failed: Unreachable" in messages(app)
            assert app.is_running and isinstance(app.screen, FeatureDetailScreen)
            server = SandboxServer(sandbox_db, port=port).start()
            app.clear_notifications()
            assert "refresh failed" in visible_text(app, "#feature-failure")
            await pilot.press("r")
            await settle(app, pilot)
            assert name in visible_text(app, "#feature")
            assert visible_text(app, "#feature-failure") == ""
            assert not messages(app)
    finally:
        server.stop()


READ_FAULTS = [
    pytest.param(
        json_error(500, "InternalError", "database is locked"),
        "500 InternalError: database is locked",
        1,
        id="500-json",
    ),
    pytest.param(html_error(502), "502 ServerError: Bad Gateway (text/html)", 3, id="502-html"),
    pytest.param(
        html_error(503), "503 ServerError: Service Unavailable (text/html)", 3, id="503-html"
    ),
    pytest.param(
        lambda: Response("hello", 200, media_type="text/plain"),
        "200 UnexpectedResponse: the answer is not JSON (text/plain)",
        1,
        id="not-json",
    ),
    pytest.param(
        lambda: Response('{"features": "nope"}', 200, media_type="application/json"),
        "200 UnexpectedResponse: the answer does not have the expected shape: name",
        1,
        id="wrong-shape",
    ),
    pytest.param(
        json_error(401, "AuthenticationRequired", "You must log in to use Unleash"),
        "401 AuthenticationRequired: You must log in to use Unleash",
        1,
        id="401-mid-session",
    ),
]


@pytest.mark.parametrize(("respond", "said", "tries"), READ_FAULTS)
async def test_a_failed_read_says_what_was_tried_and_what_the_server_said(
    build: Any, faulty: Any, respond: Responder, said: str, tries: int
) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        name = await open_detail(app, pilot)
        assert name in visible_text(app, "#feature")
        fault.fail("GET", FEATURE + name, respond)
        await pilot.press("r")
        await settle(app, pilot)
        text = messages(app)
        assert f"GET {FEATURE}{name} (profile p) failed: {said}" in text
        assert "<html" not in text and "\n" not in text
        assert fault.count("GET", FEATURE + name) == 1 + tries  # 502/503: bounded retries
        assert app.is_running and isinstance(app.screen, FeatureDetailScreen)


async def test_a_read_slower_than_the_timeout(build: Any, faulty: Any) -> None:
    server, fault = faulty
    # A timeout a loaded CI machine's first ui-config read never reaches.
    app = build(server.url, server.admin_token, timeout=1.0)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        name = await open_detail(app, pilot)
        fault.delay_answers = 1.5
        await pilot.press("r")
        await settle(app, pilot)
        said = f"GET {FEATURE}{name} (profile p) failed: Timeout: no complete answer within 1 s"
        assert said in messages(app)
        assert "may or may not" not in messages(app)
        assert app.is_running


RETRY_AFTER_S = 1.5


def rate_limited_once(fault: FaultApp, path: str) -> None:
    # Long enough that the checks before the retry never race it on a loaded machine.
    answer = json_error(429, "RateLimited", "slow down", **{"Retry-After": str(RETRY_AFTER_S)})
    fault.fail("GET", path, answer, times=1)


async def test_429_on_a_read_says_when_it_retries_and_does(build: Any, faulty: Any) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        name = await first_feature(app)
        rate_limited_once(fault, FEATURE + name)
        await open_detail(app, pilot)
        text = messages(app)
        assert f"Rate limited by the server: retrying in {RETRY_AFTER_S:g} s" in text
        assert f"GET {FEATURE}{name} (profile p) failed: 429 RateLimited: slow down" in text
        assert fault.count("GET", FEATURE + name) == 1
        assert visible_text(app, "#feature").startswith("loading")
        await asyncio.sleep(RETRY_AFTER_S + 0.1)
        await settle(app, pilot)
        assert fault.count("GET", FEATURE + name) == 2
        assert visible_text(app, "#feature").startswith(name)


async def test_a_pending_429_retry_is_dropped_when_the_screen_is_left(
    build: Any, faulty: Any
) -> None:
    server, fault = faulty
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        name = await first_feature(app)
        rate_limited_once(fault, FEATURE + name)
        await open_detail(app, pilot)
        await pilot.press("escape")
        await asyncio.sleep(RETRY_AFTER_S + 0.1)
        await settle(app, pilot)
        assert fault.count("GET", FEATURE + name) == 1
        assert app.is_running and isinstance(app.screen, FeaturesScreen)


WRITE_FAULTS = [
    pytest.param(None, "403 NoAccessError", id="403-viewer"),
    pytest.param(
        json_error(404, "NotFoundError", "Could not find feature"),
        "404 NotFoundError: Could not find feature",
        id="404-deleted",
    ),
    pytest.param(
        json_error(415, "ContentTypeError", "Content-Type must be application/json"),
        "415 ContentTypeError: Content-Type must be",
        id="415",
    ),
    pytest.param(
        json_error(429, "RateLimited", "slow down", **{"Retry-After": "0.2"}),
        "429 RateLimited: slow down; retry in 0.2 s",
        id="429-write",
    ),
    pytest.param(json_error(500, "InternalError", "boom"), "500 InternalError: boom", id="500"),
]


@pytest.mark.parametrize(("respond", "said"), WRITE_FAULTS)
async def test_a_refused_patch_keeps_the_input_and_is_never_resent(
    build: Any, faulty: Any, client: AdminClient, respond: Responder | None, said: str
) -> None:
    server, fault = faulty
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    token = server.viewer_token if respond is None else server.admin_token
    app = build(server.url, token)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        if respond is not None:
            fault.fail("PATCH", f"/features/{name}", respond)
        await send_form(app, pilot)
        await asyncio.sleep(0.3)  # past the 429's Retry-After: a wrong re-send would be made
        await settle(app, pilot)
        assert app.screen is form
        error = visible_text(app, "#form-error")
        assert f"Not applied — PATCH /api/admin/projects/{PROJECT}/features/{name}" in error
        assert said in error
        assert form.query_one("#description", Input).value == "typed by hand"
        assert fault.count("PATCH", f"/features/{name}") == 1


async def test_a_feature_deleted_by_someone_else_is_404_on_reload(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    app = build(server.url, server.admin_token)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.push_screen(FeatureDetailScreen(PROJECT, name))
        await settle(app, pilot)
        fault.fail("GET", f"/features/{name}", json_error(404, "NotFoundError", "gone"))
        await pilot.press("r")
        await settle(app, pilot)
        assert f"GET /api/admin/projects/{PROJECT}/features/{name}" in messages(app)
        assert "404 NotFoundError: gone" in messages(app)
        assert app.is_running and isinstance(app.screen, FeatureDetailScreen)


async def test_a_patch_without_answer_offers_a_re_read_not_a_resend(
    build: Any, faulty: Any, client: AdminClient
) -> None:
    server, fault = faulty
    name = (await client.features.search(FeatureQuery(project=PROJECT, limit=1))).features[0].name
    app = build(server.url, server.admin_token, timeout=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        form = await open_form(app, pilot, name)
        assert form.check_action("reload", ()) is False
        fault.delay_answers, fault.delay_only = 1.5, "PATCH"  # the re-read before it answers
        await send_form(app, pilot)
        error = visible_text(app, "#form-error")
        assert "the change may or may not have been applied" in error
        assert "F5" in error and "Timeout" in error
        assert form.query_one("#description", Input).value == "typed by hand"
        fault.delay_answers = 0
        await pilot.press("f5")
        await settle(app, pilot)
        assert "the server already has these values" in visible_text(app, "#form-error")
        assert form.query_one("#description", Input).value == "typed by hand"
        assert fault.count("PATCH", f"/features/{name}") == 1
    assert (await client.features.get(PROJECT, name)).description == "typed by hand"


async def test_a_tls_certificate_error_names_the_fix(build: Any) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        cause = ssl.SSLCertVerificationError(1, "certificate verify failed: self-signed")
        raise httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED]", request=request) from cause

    app = build("https://flags.example", "tok", transport=httpx.MockTransport(refuse))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        status = visible_text(app, "#connect-status")
        assert "GET /api/admin/ui-config (profile p) failed: TLSError" in status
        assert "certificate could not be verified (set ca_bundle in the profile)" in status
        assert app.is_running


async def test_a_redirect_to_another_host_is_not_followed(
    build: Any, faulty: Any, sandbox_template: Path
) -> None:
    server, fault = faulty
    other = SandboxServer(sandbox_template)
    other_fault = FaultApp(other.app)
    other.app = other_fault  # type: ignore[assignment]
    with other:
        location = f"http://localhost:{other.port}{SEARCH}"
        fault.fail("GET", SEARCH, lambda: Response(status_code=307, headers={"Location": location}))
        app = build(server.url, server.admin_token)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(app, pilot)
            text = messages(app)
            assert f"GET {SEARCH} (profile p) failed: 307" in text
            assert f"redirected to {location}; not followed (check the profile URL)" in text
            assert app.is_running
        assert other_fault.requests == []
