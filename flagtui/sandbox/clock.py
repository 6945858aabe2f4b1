"""Timestamps as the server writes them: UTC ISO 8601 with milliseconds and a `Z`.

One fixed format everywhere, so stored timestamps compare correctly as strings.
"""

from __future__ import annotations

from datetime import UTC, datetime


def iso(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_iso() -> str:
    return iso(datetime.now(UTC))


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
