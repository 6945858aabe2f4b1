"""`compare` reads both sides a page at a time and compares a flag once both have read it:
with pages of three flags (differences found across many pages, flags read on one side
pages before the other) it finds what it finds with whole-project pages."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.fleet import flag_export
from flagtui.fleet.drift import Reading, compare


async def test_small_pages_find_what_one_page_finds(sandbox, monkeypatch):
    async with AdminClient(sandbox.url, sandbox.admin_token) as client:
        sides = [Reading(env, client, None, env) for env in ("development", "production")]
        whole = await compare(*sides)
        monkeypatch.setattr(flag_export, "PAGE", 3)
        paged = await compare(*sides)
        one_sided = await compare(Reading("dev", client, "payments", "development"),
                                  Reading("search", client, "search", "development"))  # fmt: skip
    assert len(whole) > 50 and paged == whole
    present = [d for d in one_sided if d["what"] == "present"]
    assert present and len(present) == len(one_sided)  # no flag is in both projects
