"""Counts and environments said as a person says them, for the TUI and the commands alike:
"1 flag", "2 flags"; "in production", never "in production environment production"."""

from __future__ import annotations

PRODUCTION = "production"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """ "1 strategy", "2 strategies": `plural` where adding an s is not the plural."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def in_production(environment: str) -> str:
    """Where a write lands, saying that it is a production environment once: "in production"
    (its name says it), "in production environment prod-eu"."""
    if environment == PRODUCTION:
        return f"in {environment}"
    return f"in production environment {environment}"


def is_production(environment: str) -> str:
    """The production question's first sentence: "production is a production environment"
    says its word twice; "This is production." says it once."""
    if environment == PRODUCTION:
        return f"This is {environment}."
    return f"{environment} is a production environment."
