"""`--since` (event search, failures): a duration back from now, and the oldest time it keeps."""

from __future__ import annotations

import argparse
import re
from datetime import UTC, datetime, timedelta

_DURATION = re.compile(r"^(\d+)([smhdw])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
MAX_SINCE_DAYS = 36500  # 100 years back: before any Unleash, and far from datetime's own limits


def duration(text: str) -> timedelta:
    """`90s`, `15m`, `2h`, `7d`, `1w`; `0s` is now. At most MAX_SINCE_DAYS: a larger value is a
    usage error (argparse names the option), never an overflow of the date arithmetic."""
    match = _DURATION.match(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: a duration such as 90s, 15m, 2h, 7d or 1w")
    # Compared as digits first: int() refuses a string of thousands of digits.
    digits = match[1].lstrip("0") or "0"
    seconds = int(digits) * _UNIT_SECONDS[match[2]] if len(digits) <= 12 else None
    if seconds is None or seconds > MAX_SINCE_DAYS * 86400:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_SINCE_DAYS}d (100 years)")
    return timedelta(seconds=seconds)


def since_cutoff(since: timedelta | None) -> datetime | None:
    """The oldest time `--since` keeps; `--since 0s` is now (nothing older), no --since is None."""
    return datetime.now(UTC) - since if since is not None else None
