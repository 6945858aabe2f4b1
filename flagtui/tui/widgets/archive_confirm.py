"""The questions before archiving or reviving a flag, the same from the detail, the patch form
and the palette: what Unleash will do, and which environments are on before and after.

Archiving is destructive (every SDK stops receiving the flag): on a production profile the
flag's name must be typed. Reviving brings the flag back with every environment off (Unleash's
revive), which the question lists environment by environment."""

from __future__ import annotations

from flagtui.api.models import Feature
from flagtui.tui.widgets.confirm import ConfirmModal, TypedConfirmModal


def _enabled_in(feature: Feature) -> list[str]:
    return [e.name for e in feature.environments or [] if e.enabled]


def archive_modal(feature: Feature, *, production: bool) -> ConfirmModal:
    on = _enabled_in(feature)
    now_on = f"It is on in {', '.join(on)}: " if on else "It is off in every environment: "
    body = (
        f"{now_on}once archived, no SDK receives {feature.name} any more, so every SDK "
        "evaluates it off. Unleash records feature-archived and moves its lifecycle to "
        "archived, as the web UI's archive does. It can be revived, with every environment off."
    )
    title = f"Archive {feature.name}?"
    if production:
        return TypedConfirmModal(title, body, feature.name, confirm_label="Archive")
    return ConfirmModal(title, body, confirm_label="Archive")


def revive_modal(feature: Feature) -> ConfirmModal:
    lines = [
        f"{feature.name} leaves the archive. As Unleash's revive does, its lifecycle restarts"
        " and every environment is off afterwards:"
    ]
    for env in feature.environments or []:
        was = " (on when it was archived)" if env.enabled else ""
        lines.append(f"  {env.name}: off{was}")
    if not feature.environments:
        lines.append("  (the archive row names no environment)")
    lines.append("Switch it on where it is needed afterwards (t in its detail).")
    return ConfirmModal("Revive archived feature?", "\n".join(lines), confirm_label="Revive")
