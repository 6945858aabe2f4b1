"""`client.events`: the event search, operation 9 of the contract, on whichever of its two
routes the server serves (chosen by its version, see `capabilities`)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from flagtui.api import capabilities, errors, intent, validation
from flagtui.api.core import Core
from flagtui.api.models import EventPage
from flagtui.api.wire import EventSearchAnswer, adapter
from flagtui.contract import EVENT_SEARCH_MAX

_Dates = tuple[dt.date | None, dt.date | None]


class Events:
    def __init__(self, core: Core) -> None:
        self._core = core
        self._post_missing = False  # the POST route answered 404: the GET one from now on

    @property
    def route(self) -> Literal["post", "get"] | None:
        """The route the next search takes: None (version unknown) tries POST, then GET."""
        if self._post_missing:
            return "get"
        server = self._core.server
        return capabilities.event_search_route(server) if server is not None else None

    async def search(
        self,
        *,
        type: str | None = None,
        project: str | None = None,
        feature: str | None = None,
        query: str | None = None,
        limit: int = EVENT_SEARCH_MAX,
        cursor: int | None = None,
        since: dt.date | None = None,
        until: dt.date | None = None,
        created_by: int | None = None,
    ) -> EventPage:
        """Operation 9, newest first. `cursor` comes from the previous page's `next_cursor`.

        The contract's POST /events/search pages by event id (real Unleash up to 6.x, which
        serves it, by row offset); Unleash 7+ removed it for GET /search/events (from 6.1),
        which pages by row offset. The server's version chooses the route (`route`), and a 404
        on the POST route switches to the GET one. Dates (`since`, `until`,
        both days included) and the author (`created_by`, a user id: real Unleash filters on
        the creator's id, and the admin token's events carry -42) exist on the GET route
        only, so they choose it.
        """
        validation.event_search_limit(limit)
        intent.check_event_type(type)
        if cursor is not None:
            validation.non_negative("cursor", cursor)
        filters = {"type": type, "project": project, "feature": feature, "query": query}
        if created_by is not None:
            validation.integer("created_by", created_by)
            filters["createdBy"] = str(created_by)
        await self._core.connecting_done()  # the route depends on the version
        if since is not None or until is not None or created_by is not None:
            self._core.require_version(capabilities.EVENT_DATES)
            return await self._search_get(filters, limit, cursor, (since, until))
        route = self.route
        if route != "get":
            try:
                return await self._search_post(filters, limit, cursor)
            except errors.NotFoundError:
                if route == "post":
                    raise
                self._post_missing = True
        return await self._search_get(filters, limit, cursor)

    async def _search_post(
        self, filters: dict[str, str | None], limit: int, cursor: int | None
    ) -> EventPage:
        body: dict[str, Any] = {k: v for k, v in filters.items() if v}
        body["limit"] = limit
        if cursor:
            body["offset"] = cursor
        answer = await self._core.read(
            "POST", "/api/admin/events/search", adapter(EventSearchAnswer), json=body
        )
        events, total = answer.events, answer.total_events
        if not capabilities.post_search_offset_is_an_event_id(self._core.server):
            next_cursor = _next_row_offset(cursor, len(events), limit, total)
            return EventPage(events=events, total=total, next_cursor=next_cursor)
        more = len(events) == limit and events and events[-1].id > 1
        return EventPage(
            events=events, total=total, next_cursor=events[-1].id - 1 if more else None
        )

    async def _search_get(
        self,
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
        for name, day in zip(capabilities.event_date_params(self._core.server), dates, strict=True):
            if day is not None:
                params[name] = f"IS:{day.isoformat()}"
        answer = await self._core.read(
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
