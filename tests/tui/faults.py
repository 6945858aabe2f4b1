"""Faults for the TUI tests: `FaultApp` wraps a real sandbox and answers a matching request
itself (an error, a proxy's HTML page) or late; `DropAnswers` drops an answer the server sent.
The fixtures built on them (`faulty`, `build`) are in conftest.py."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from starlette.responses import Response
from textual.widgets import Input

from flagtui.tui.app import FlagtuiApp
from flagtui.tui.screens.feature_detail import FeatureDetailScreen
from flagtui.tui.screens.patch_form import PatchFormScreen
from testkit.pilot import settle as settle_idle

PROJECT = "payments"


FEATURE = f"/api/admin/projects/{PROJECT}/features/"


Send = Callable[[dict[str, Any]], Awaitable[None]]


Responder = Callable[[], Response | None]


@dataclass
class Rule:
    method: str
    path: str
    respond: Responder
    times: int | None = None


class FaultApp:
    """ASGI wrapper: records every request; a matching rule answers instead of the sandbox."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.requests: list[tuple[str, str]] = []
        self.rules: list[Rule] = []
        self.delay_answers = 0.0
        self.delay_only: str | None = None  # a method: only its answers are late
        # Cleared: every answer waits until it is set again (the server's thread waits, not the
        # test's loop), so "while a write is in flight" holds however slow the machine is.
        self.answers_released = threading.Event()
        self.answers_released.set()

    def fail(self, method: str, path: str, respond: Responder, times: int | None = None) -> None:
        self.rules.append(Rule(method, path, respond, times))

    def count(self, method: str, path: str) -> int:
        return sum(1 for m, p in self.requests if m == method and path in p)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        self.requests.append((scope["method"], scope["path"]))
        for rule in self.rules:
            if rule.method == scope["method"] and rule.path in scope["path"] and rule.times != 0:
                if rule.times is not None:
                    rule.times -= 1
                response = rule.respond()
                if response is not None:
                    await response(scope, receive, send)
                    return
        delay = self.delay_answers if self.delay_only in (None, scope["method"]) else 0.0

        async def late_send(message: dict[str, Any]) -> None:
            # The sandbox has done its work (a write is applied); only the answer is late.
            if message["type"] == "http.response.start" and delay:
                await asyncio.sleep(delay)
            if message["type"] == "http.response.start" and not self.answers_released.is_set():
                await asyncio.to_thread(self.answers_released.wait, 60)
            await send(message)

        await self.inner(scope, receive, late_send)


def json_error(status: int, name: str, message: str, **headers: str) -> Responder:
    body = json.dumps({"name": name, "message": message})
    return lambda: Response(body, status, headers, media_type="application/json")


def html_error(status: int) -> Responder:
    page = f"<html><body><h1>{status} Bad Gateway</h1><p>nginx</p></body></html>"
    return lambda: Response(page, status, media_type="text/html")


async def settle(app: FlagtuiApp, pilot: Any, rounds: int = 4) -> None:
    """Let workers finish (failing ones included: their failure is what is tested)."""
    await settle_idle(app, pilot, rounds, failures=True)


async def open_form(app: FlagtuiApp, pilot: Any, name: str) -> PatchFormScreen:
    app.push_screen(FeatureDetailScreen(PROJECT, name))
    await settle(app, pilot)
    await pilot.press("e")
    await settle(app, pilot)
    form = app.screen
    assert isinstance(form, PatchFormScreen)
    form.query_one("#description", Input).value = "typed by hand"
    return form


async def send_form(app: FlagtuiApp, pilot: Any) -> None:
    await pilot.press("ctrl+r")
    await pilot.pause()
    await pilot.click("#confirm")
    await settle(app, pilot)


class DropAnswers(httpx.AsyncBaseTransport):
    """Real HTTP; for the chosen methods the answer is read, then the connection 'breaks'."""

    def __init__(self, *methods: str) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.methods = set(methods)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method in self.methods:
            await response.aread()
            await response.aclose()
            self.methods.clear()  # once
            raise httpx.RemoteProtocolError("Server disconnected", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
