"""--dry-run: reads go to the server (a write may need the record it changes); the first write is
stopped as it is about to leave, unsent, as `session.DryRunStop` (which the runner prints)."""

from __future__ import annotations

import httpx

from flagtui.cli.session import DryRunStop

# The POSTs that change nothing: the event search (a read before Unleash 7), and the export
# route flags are read through in pages (its one trace: a `features-exported` event, as for
# the web UI's export). A write's --dry-run sends no other.
READING_POSTS = ("/events/search", "/features-batch/export")


async def stop_writes(request: httpx.Request) -> None:
    """The client's request hook under --dry-run."""
    if request.method not in ("GET", "HEAD") and not request.url.path.endswith(READING_POSTS):
        raise DryRunStop(request)


async def stop_every(request: httpx.Request) -> None:
    """The request hook of a command whose --dry-run sends no read either (`flagtui api`: the
    request shown is the one it was asked to send)."""
    raise DryRunStop(request)
