"""Event search, operation 9 of the contract, on whichever of its two routes the server
serves (AdminClient inherits these methods; `connect()` sets `_event_route`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from flagtui.api import capabilities, errors, validation
from flagtui.api.models import EventPage, ServerInfo
from flagtui.api.wire import EventSearchAnswer, adapter

T = TypeVar("T")
_Dates = tuple[dt.date | None, dt.date | None]


class _Host(Protocol):
    """What these methods need of the AdminClient they are mixed into."""

    server: ServerInfo | None
    _connecting: asyncio.Event | None
    _event_route: str | None

    def _require_version(self, area: str) -> None: ...
    def _read(
        self, method: str, path: str, adapter: TypeAdapter[T], **kwargs: Any
    ) -> Awaitable[T]: ...
    async def _search_events_post(
        self: _Host, filters: dict[str, str | None], limit: int, cursor: int | None
    ) -> EventPage: ...
    async def _search_events_get(
        self: _Host,
        filters: dict[str, str | None],
        limit: int,
        cursor: int | None,
        dates: _Dates = ...,
    ) -> EventPage: ...


class EventSearchOperations:
    _event_route: str | None  # "post" or "get" once connected; None: try POST, then GET

    async def search_events(
        self: _Host,
        *,
        type: str | None = None,
        project: str | None = None,
        feature: str | None = None,
        query: str | None = None,
        limit: int = 100,
        cursor: int | None = None,
        since: dt.date | None = None,
        until: dt.date | None = None,
        created_by: int | None = None,
    ) -> EventPage:
        """Operation 9, newest first. `cursor` comes from the previous page's `next_cursor`.

        The contract's POST /events/search pages by event id (real Unleash up to 6.x, which
        serves it, by row offset); Unleash 7+ removed it for GET /search/events (from 6.1),
        which pages by row offset. The route is chosen on
        connect, and a 404 on the POST route switches to the GET one. Dates (`since`, `until`,
        both days included) and the author (`created_by`, a user id: real Unleash filters on
        the creator's id, and the admin token's events carry -42) exist on the GET route
        only, so they choose it.
        """
        validation.event_search_limit(limit)
        if cursor is not None:
            validation.non_negative("cursor", cursor)
        filters = {"type": type, "project": project, "feature": feature, "query": query}
        if created_by is not None:
            validation.integer("created_by", created_by)
            filters["createdBy"] = str(created_by)
        if self._connecting is not None:
            await self._connecting.wait()  # the route depends on the version
        if since is not None or until is not None or created_by is not None:
            self._require_version(capabilities.EVENT_DATES)
            return await self._search_events_get(filters, limit, cursor, (since, until))
        if self._event_route != "get":
            try:
                return await self._search_events_post(filters, limit, cursor)
            except errors.NotFoundError:
                if self._event_route == "post":
                    raise
                self._event_route = "get"
        return await self._search_events_get(filters, limit, cursor)

    async def _search_events_post(
        self: _Host, filters: dict[str, str | None], limit: int, cursor: int | None
    ) -> EventPage:
        body: dict[str, Any] = {k: v for k, v in filters.items() if v}
        body["limit"] = limit
        if cursor:
            body["offset"] = cursor
        answer = await self._read(
            "POST", "/api/admin/events/search", adapter(EventSearchAnswer), json=body
        )
        events, total = answer.events, answer.total_events
        if not capabilities.post_search_offset_is_an_event_id(self.server):
            next_cursor = _next_row_offset(cursor, len(events), limit, total)
            return EventPage(events=events, total=total, next_cursor=next_cursor)
        more = len(events) == limit and events and events[-1].id > 1
        return EventPage(
            events=events, total=total, next_cursor=events[-1].id - 1 if more else None
        )

    async def _search_events_get(
        self: _Host,
        filters: dict[str, str | None],
        limit: int,
        cursor: int | None,
        dates: _Dates = (None, None),
    ) -> EventPage:
        params: dict[str, Any] = {"limit": limit, "offset": cursor or 0}
        for key in ("type", "project", "feature", "createdBy"):
            if filters.get(key):
                params[key] = f"IS:{filters[key]}"
        if filters["query"]:
            params["query"] = filters["query"]
        for name, day in zip(capabilities.event_date_params(self.server), dates, strict=True):
            if day is not None:
                params[name] = f"IS:{day.isoformat()}"
        answer = await self._read(
            "GET", "/api/admin/search/events", adapter(EventSearchAnswer), params=params
        )
        total = answer.total if answer.total is not None else answer.total_events
        next_cursor = _next_row_offset(cursor, len(answer.events), limit, total)
        return EventPage(events=answer.events, total=total, next_cursor=next_cursor)


def _next_row_offset(cursor: int | None, count: int, limit: int, total: int | None) -> int | None:
    """The next page's row offset, or None after the last page."""
    seen = (cursor or 0) + count
    more = count == limit and (total is None or seen < total)
    return seen if more else None
