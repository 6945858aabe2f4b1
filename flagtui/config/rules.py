"""The config's bounds and URL checks, which `login`, an environment-only profile and the
config file's schema (`schema.py`) share."""

from __future__ import annotations

import math
import re

# A request may take at most this long before it is given up (seconds).
MAX_TIMEOUT = 600.0
URL_FORBIDDEN = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


def bounded_timeout(timeout: float) -> float:
    # TOML allows nan and inf; neither bounds anything (nan > 0 is False, and so is nan <= 0).
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise ValueError(
            f"timeout must be a number of seconds greater than 0 and at most {MAX_TIMEOUT:g} "
            f"(it is {timeout!r})"
        )
    return timeout


def url_problem(url: str) -> str | None:
    """What is wrong with a server URL (the rule `login` applies too), or None."""
    if not url.startswith(("http://", "https://")) or URL_FORBIDDEN.search(url):
        return (
            f"url {url!r} must start with http:// or https:// and have no spaces or control "
            "characters"
        )
    return None


ARCHIVE_SCHEMES = ("postgresql://", "postgres://", "sqlite:///")
