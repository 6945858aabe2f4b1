"""The app over the sandbox, some of its answers rewritten on their way by an
`httpx.MockTransport`: for what real servers send and the sandbox does not."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from flagtui.api import AdminClient
from flagtui.config import Profile
from flagtui.tui.app import FlagtuiApp

# (method, path, the sandbox's JSON answer) -> the JSON answer the app gets, or a whole answer
Rewrite = Callable[[str, str, Any], Any]


def app_over_rewritten_sandbox(
    sandbox: Any, tmp_path: Path, area: str, rewrite: Rewrite
) -> FlagtuiApp:
    """The app opening `area` of project payments; close its client after the run."""
    inner = httpx.ASGITransport(app=sandbox.app)

    async def answer(request: httpx.Request) -> httpx.Response:
        response = await inner.handle_async_request(request)
        body = await response.aread()
        if response.status_code != 200 or not body:
            return httpx.Response(response.status_code, headers=response.headers, content=body)
        changed = rewrite(request.method, request.url.path, json.loads(body))
        return changed if isinstance(changed, httpx.Response) else httpx.Response(200, json=changed)

    state = tmp_path / "state.json"
    state.write_text(json.dumps({"p": {"area": area, "project": "payments"}}))
    client = AdminClient(
        "http://sandbox", sandbox.admin_token, profile="p", transport=httpx.MockTransport(answer)
    )
    return FlagtuiApp(client, Profile(name="p", url="http://sandbox"), state_path=state)
