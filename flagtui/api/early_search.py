"""A feature search sent with the standard library before pydantic, the models and httpx are
imported (0.1 s and more on a cold start), so the request travels while they load: a cold
start's early read (`flagtui/tui/early_read.py`), and `feature list`'s first page
(`flagtui/cli/commands/feature_list.py`), which then needs neither httpx nor asyncio.

It sends what the admin client sends for the same search: the profile's URL with its path, the
same query, headers and certificate checks (`connection`), and it follows no redirect. Where it
cannot be sure to reach the server the client would, it sends nothing: a proxy in the
environment (httpx would go through it), a URL with a user name, a scheme other than http(s).
Only the client's success counts (a 2xx with a body the client's own model accepts): anything
else is None, and the app's own read says what went wrong."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from flagtui.api import validation
from flagtui.api.connection import client_headers, tls_context
from flagtui.api.feature_query import SEARCH_PATH, FeatureQuery

if TYPE_CHECKING:
    from flagtui.api.models import FeaturePage

Answer = Callable[[], "FeaturePage | None"]


def send_search(
    url: str, token: str, query: FeatureQuery, *, verify: bool | str, timeout: float
) -> Answer | None:
    """The search sent now; the function returned waits for its answer. None: not sent."""
    if _proxy_in_environment():
        return None
    import http.client
    from urllib.parse import urlencode, urlsplit

    parts = urlsplit(url.rstrip("/"))
    if parts.scheme not in ("http", "https") or parts.username is not None or not parts.hostname:
        return None
    params = query.normalized().params(None)  # as the client asks before it knows the server
    validation.query_params(params)  # as the client checks them
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        port = parts.port or 443
        context = tls_context(verify)
        connection = http.client.HTTPSConnection(
            parts.hostname, port, timeout=timeout, context=context
        )
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    connection.request(
        "GET", f"{parts.path}{SEARCH_PATH}?{urlencode(params)}", headers=client_headers(token)
    )

    def answer() -> FeaturePage | None:
        # The client's parse of the same answer, made ready (the models imported, the schema
        # built: about 0.07 s where nothing has loaded them) while the server answers.
        from flagtui.api.models import FeaturePage
        from flagtui.api.wire import adapter

        parse = adapter(FeaturePage)
        try:
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if not 200 <= response.status < 300:
            return None
        return parse.validate_json(body)

    return answer


def _proxy_in_environment() -> bool:
    """httpx takes its proxies from any `<scheme>_proxy` variable, in either case."""
    return any(
        value and name.lower().endswith("_proxy") and name.lower() != "no_proxy"
        for name, value in os.environ.items()
    )
