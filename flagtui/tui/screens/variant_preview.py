"""What the environment-variants form shows before sending: with the SDKs' engine
(`flagtui.preview`), the typed userId's variant before and after, and how 10,000 synthetic
userIds split over the variants after the change."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from flagtui.api.models import Feature, Segment, Variant
from flagtui.api.rollout_requests import variants_body
from flagtui.preview import Preview, PreviewError, before_after, with_variants
from flagtui.tui.format import clean

USERS = 10_000


def proposed(feature: Feature, environment: str, variants: Sequence[Variant]) -> dict[str, object]:
    """The flag's record with the environment's variants as Unleash will store `variants` (as
    sent): sorted by name, weights distributed (flagtui.preview.with_variants)."""
    return with_variants(feature, environment, variants_body(variants))


def _evaluation(enabled: bool, variant: str) -> str:
    return f"variant {clean(variant)}" if enabled else "flag off (variant disabled)"


def preview_text(
    feature: Feature,
    environment: str,
    variants: Sequence[Variant],
    segments: Sequence[Segment],
    user_id: str,
) -> Text:
    """Computes for about a third of a second (10,000 evaluations): run it off the UI loop."""
    out = Text("Preview (the SDKs' engine):\n", style="bold")
    try:
        after = proposed(feature, environment, variants)
        if user_id:
            context = {"userId": user_id}
            change = before_after(feature, after, environment, context, segments=segments)
            was = _evaluation(change.before.enabled, change.before.variant)
            will = _evaluation(change.after.enabled, change.after.variant)
            out.append(f"userId {clean(user_id)}: {was} → {will}\n")
        split = Preview(after, environment, segments=segments).population(USERS)
    except PreviewError as exc:
        return out.append(f"no preview: {exc}\n", style="red")
    out.append(f"{USERS:,} userIds after: {split.enabled:,} get the flag")
    counts = ", ".join(f"{clean(name)} {n:,}" for name, n in sorted(split.variants.items()))
    return out.append(f"; {counts}\n")
