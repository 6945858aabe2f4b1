"""How values look on screen, the same in every area (and stable for snapshot tests)."""

from __future__ import annotations

from datetime import UTC, datetime

from rich.text import Text

from flagtui.api.models import Feature, FeatureEnvironment


def when(value: datetime | None, *, date_only: bool = False) -> str:
    """Absolute UTC, never relative: `YYYY-MM-DD HH:MM`."""
    if value is None:
        return "—"
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%d" if date_only else "%Y-%m-%d %H:%M")


def lifetime(days: int | None) -> str:
    return "never" if not days else f"{days} day" + ("" if days == 1 else "s")


def staleness(feature: Feature) -> Text:
    if feature.stale:
        return Text("stale", style="bold yellow")
    if feature.potentially_stale:
        return Text("pot.", style="yellow")
    return Text("")


def env_abbrev(name: str) -> str:
    return name[:3]


def env_flags(environments: list[FeatureEnvironment] | None) -> Text:
    """Compact per-environment state: `dev✓ pro✗`."""
    out = Text()
    for index, env in enumerate(environments or []):
        if index:
            out.append(" ")
        out.append(env_abbrev(env.name))
        out.append("✓" if env.enabled else "✗", style="green" if env.enabled else "red")
    return out


def yes_no(value: bool | None) -> str:
    return "yes" if value else "no"
