"""The one check of a page read (`flag_pages.in_full`) against a read of each flag by itself
(`client.features.get`, the flag's own route): the same flags file entry for every flag, and
no flag read by itself unless it has several strategies in an environment. Shared by the
sandbox test and the conformance test on real Unleash."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import httpx

from flagtui.api import AdminClient
from flagtui.fleet.flag_export import read_catalog
from flagtui.fleet.flag_pages import in_full
from flagtui.fleet.flag_shape import flag_shape


async def check_page(
    url: str, token: str, project: str, names: Sequence[str], environments: Sequence[str]
) -> Counter[str]:
    """Asserts the two reads agree; returns the page read's requests, by method and route."""
    seen: Counter[str] = Counter()

    async def count(request: httpx.Request) -> None:
        route = "flag" if "/features/" in request.url.path else request.url.path
        seen[f"{request.method} {route}"] += 1

    async with AdminClient(url, token) as plain:
        catalog = await read_catalog(plain)
        alone = {}
        for name in names:
            flag = await plain.features.get(project, name)
            alone[name] = flag_shape(flag, catalog.names, environments)
    async with AdminClient(url, token, request_hook=count) as counted:
        paged = await in_full(counted, project, names, environments)
    got = {f.name: flag_shape(f, catalog.names, environments) for f in paged}
    assert list(got) == sorted(names)
    for name in names:
        assert got[name] == alone[name], f"{name}: {got[name]} != {alone[name]}"
    several = [n for n in names if any(len(e["strategies"]) > 1
                                       for e in alone[n]["environments"].values())]  # fmt: skip
    assert seen["GET flag"] == len(several)
    assert seen["POST /api/admin/features-batch/export"] == len(environments)
    return seen
