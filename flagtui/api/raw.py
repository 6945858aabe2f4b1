"""Any route of the profile's server, as `flagtui api` asks it: through the one transport (the
profile's URL, token, certificates, proxy and timeout), a read retried as every read is, a write
refused on a read-only profile and never retried.

Paging (`pages`), Unleash's one way: `offset` and `limit` in the query. A GET whose answer is a
JSON object holding exactly one list is paged when
- it also holds a whole-number `total` (/api/admin/search/features and /search/events on 6.x
  to 8.x, /search/change-requests, /metrics/applications, /projects/:p/applications): the next
  page is asked at `offset` moved on by the rows received, the request's `limit` kept (else the
  server's page size), until `offset` reaches `total`;
- or it has no `total` but the request gave a `limit` (/api/admin/addons/:id/events): until a
  page comes back shorter than that limit.
Either way it stops at an empty page, or at one that adds no row not already received (a route
that ignores `offset` answers the same page again). A page refused for the server's rate limit
(429: real Unleash 8.2 allows 15 feature searches a minute) is asked again after its
Retry-After, up to PAGE_WAITS times. The pages make one object: the first
page's, its list holding every page's rows in order, a row received twice (a newest-first list
shifts when rows are added meanwhile) kept once. Any other answer (no list, several lists, a
bare array, /api/admin/projects's `{version, projects}`) is the whole answer.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from flagtui.api import errors
from flagtui.api.transport import error_from_response, parse_retry_after

if TYPE_CHECKING:
    import httpx

    from flagtui.api.core import Core

PAGE_WAITS = 8
Waiting = Callable[[float, int], None]  # told the seconds it waits, and the page's offset
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class RawRequest:
    method: str
    path: str  # on the profile's server, without its query
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


@dataclass
class RawAnswer:
    pages: list[httpx.Response] = field(default_factory=list)
    document: Any = None
    """The answer's JSON (the pages joined), None when it is not JSON."""
    is_json: bool = False

    @property
    def last(self) -> httpx.Response:
        return self.pages[-1]


def split_path(base_url: str, path: str) -> tuple[str, list[tuple[str, str]]]:
    """PATH as typed (`/api/admin/x`, `api/admin/x?limit=5`, or a URL of the profile's own
    server) as a path on the profile's server and its query parameters; a URL of another
    server, or a path naming one (`//host/x`), is refused before anything is sent."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in path) or not path.strip():
        raise errors.InvalidArgument("PATH", "a path such as /api/admin/projects")
    if _SCHEME.match(path):
        path = _on_this_server(base_url, path)
    elif path.startswith("//"):
        raise errors.InvalidArgument(
            "PATH", f"a path on the profile's server {base_url}, not another host"
        )
    path = path.partition("#")[0]
    path, _, query = path.partition("?")
    if not path.startswith("/"):
        path = "/" + path  # `api/admin/...`, as gh takes it
    return path, parse_qsl(query, keep_blank_values=True)


def _on_this_server(base_url: str, url: str) -> str:
    base, given = urlsplit(base_url), urlsplit(url)

    def where(parts: Any) -> tuple[str, str, int | None]:
        scheme = parts.scheme.lower()
        return scheme, (parts.hostname or "").lower(), parts.port or _DEFAULT_PORTS.get(scheme)

    base_path = base.path.rstrip("/")
    if where(given) != where(base) or not (given.path + "/").startswith(base_path + "/"):
        raise errors.InvalidArgument(
            "PATH", f"a path on the profile's server {base_url}, not another host's URL"
        )
    rest = given.path[len(base_path) :] or "/"
    return rest + (f"?{given.query}" if given.query else "")


class Raw:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def send(self, request: RawRequest) -> httpx.Response:
        """One request; its answer whatever its status (the caller says an error's). A write's
        success whose body is neither empty nor JSON (a proxy's login page) proves nothing:
        OutcomeUnknown."""
        method, path = request.method, request.path
        response = await self._core.exchange(
            f"{method} {path}",
            method,
            path,
            params=request.params,
            content=request.body,
            headers=dict(request.headers),
        )
        write = method not in ("GET", "HEAD")
        if write and response.is_success and _json(response) is _NOT_JSON:
            kind = response.headers.get("content-type", "no content type").split(";")[0]
            said = f"the server answered {response.status_code}, but not with JSON ({kind})"
            raise errors.OutcomeUnknown(
                method, path, status=response.status_code, message=said,
                profile=self._core.profile,
            )  # fmt: skip
        return response

    async def pages(
        self, request: RawRequest, *, paginate: bool, waiting: Waiting | None = None
    ) -> RawAnswer:
        """The answer; with `paginate`, every page of a paged GET joined (module docstring).
        A page that fails raises its error: no partial list is returned."""
        start = _whole(request.params, "offset") or 0
        first = await (self._page(request, start, waiting) if paginate else self.send(request))
        document = _json(first)
        answer = RawAnswer([first], None if document is _NOT_JSON else document)
        answer.is_json = document is not _NOT_JSON
        plan = _paging(document, request.params) if paginate and first.is_success else None
        if request.method != "GET" or plan is None:
            return answer
        key, total, limit, offset = plan
        rows: list[Any] = list(document[key])
        seen = {_row_key(row) for row in rows}
        page_rows = rows
        while page_rows and (total is None or offset + len(page_rows) < total):
            if total is None and limit is not None and len(page_rows) < limit:
                break
            offset += len(page_rows)
            kept = [(key, value) for key, value in request.params if key != "offset"]
            params = (*kept, ("offset", str(offset)))
            page = await self._page(replace(request, params=params), offset, waiting)
            answer.pages.append(page)
            if not page.is_success:
                raise error_from_response("GET", request.path, page, self._core.profile)
            page_rows = _page_rows(request.path, page, key, offset, self._core.profile)
            new = [row for row in page_rows if _row_key(row) not in seen]
            if not new:
                break
            seen.update(_row_key(row) for row in new)
            rows.extend(new)
        answer.document = {**document, key: rows}
        return answer

    async def _page(
        self, request: RawRequest, offset: int, waiting: Waiting | None
    ) -> httpx.Response:
        """One page, asked again after the Retry-After of a 429."""
        for _ in range(PAGE_WAITS):
            page = await self.send(request)
            if page.status_code != 429:
                return page
            seconds = parse_retry_after(page.headers.get("retry-after", ""), now=time.time())
            if waiting is not None:
                waiting(seconds, offset)
            await asyncio.sleep(seconds)
        return await self.send(request)


_NOT_JSON = object()


def _json(response: httpx.Response) -> Any:
    """The body's JSON; an empty body is None (a write Unleash answers with none)."""
    if not response.content.strip():
        return None
    try:
        return json.loads(response.content)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _paging(
    document: Any, params: tuple[tuple[str, str], ...]
) -> tuple[str, int | None, int | None, int] | None:
    """(the list's key, total, the limit asked, the offset asked) of a paged answer, or None."""
    if not isinstance(document, dict):
        return None
    lists = [key for key, value in document.items() if isinstance(value, list)]
    total = document.get("total")
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        total = None
    limit = _whole(params, "limit")
    if len(lists) != 1 or (total is None and not limit):
        return None
    return lists[0], total, limit, _whole(params, "offset") or 0


def _whole(params: tuple[tuple[str, str], ...], name: str) -> int | None:
    given = [value for key, value in params if key == name]
    return int(given[-1]) if given and given[-1].strip().isdigit() else None


def _page_rows(path: str, page: httpx.Response, key: str, offset: int, profile: str) -> list[Any]:
    document = _json(page)
    rows = document.get(key) if isinstance(document, dict) else None
    if not isinstance(rows, list):
        said = f"the page at offset {offset} has no list {key!r} as the first page had"
        raise errors.UnexpectedResponse(
            "GET", path, status=page.status_code, message=said, profile=profile
        )
    return rows


def _row_key(row: Any) -> str:
    return json.dumps(row, sort_keys=True)
