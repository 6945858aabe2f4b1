"""The events a server recorded, less the `features-exported` each page of a flags read
records (Unleash's export route records one an answer, as for the web UI's export): what a
test of "nothing was sent" counts."""

from __future__ import annotations

import httpx

SEARCH = "/api/admin/search/events"


def event_count(server: httpx.Client) -> int:
    every = server.get(SEARCH, params={"limit": 1}).json()["total"]
    exported = server.get(SEARCH, params={"limit": 1, "type": "IS:features-exported"}).json()
    return int(every) - int(exported["total"])
