"""How values look on screen, the same in every area (and stable for snapshot tests)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from rich.text import Text

from flagtui.api.models import Feature, FeatureEnvironment, Project


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


def short_names(names: Iterable[str]) -> dict[str, str]:
    """The shortest prefix (from one letter) that still tells the environments apart."""
    names = sorted(set(names))
    for length in range(1, max((len(n) for n in names), default=1) + 1):
        prefixes = {n[:length] for n in names}
        if len(prefixes) == len(names):
            return {n: n[:length] for n in names}
    return {n: n for n in names}


def env_flags(environments: list[FeatureEnvironment] | None, short: dict[str, str]) -> Text:
    """Compact per-environment state: `d✓ s✗ p✓`."""
    out = Text()
    for index, env in enumerate(environments or []):
        if index:
            out.append(" ")
        out.append(short.get(env.name, env.name))
        out.append("✓" if env.enabled else "✗", style="green" if env.enabled else "red")
    return out


def project_options(projects: list[Project]) -> list[tuple[str, str]]:
    """A project picker's (label, id) pairs: the name, and the id too when it differs."""
    return [(p.name if p.name == p.id else f"{p.name} ({p.id})", p.id) for p in projects]


def yes_no(value: bool | None) -> str:
    return "yes" if value else "no"
