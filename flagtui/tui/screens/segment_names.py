"""The segments a feature's detail names its strategies' segments by (and previews them with):
read beside the flag, and kept per client (a server and token) so the next detail need not
wait for them."""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping

from flagtui.api import AdminClient
from flagtui.api.errors import FlagtuiError
from flagtui.api.models import Feature, Segment

KNOWN_SEGMENTS: weakref.WeakKeyDictionary[AdminClient, list[Segment]] = weakref.WeakKeyDictionary()


async def read_segments(client: AdminClient) -> list[Segment]:
    """Every segment; [] when the server refuses (403: the token may not list them; 404: no
    segments there) or fails: the ids are shown instead."""
    try:
        return await client.segments.list()
    except FlagtuiError:
        return []


def names_of(segments: list[Segment]) -> Mapping[int, str]:
    return {s.id: s.name for s in segments}


def segment_ids(feature: Feature) -> set[int]:
    """The segments the flag's strategies use (a number that is no id is left out)."""
    return {
        int(i)
        for env in feature.environments or []
        for strategy in env.strategies or []
        for i in strategy.segments or []
        if math.isfinite(i)
    }
