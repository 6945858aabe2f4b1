"""One row of the environment-variants form (`variant_form`): name, weight, payload type and
value; and what the rows say as the variants to check (`variant_rules`).

The weight is typed as Unleash's web UI shows it, a percentage with at most one decimal
("33.3" is 333 per mille). A row with a weight is `fix`; an empty weight is `variable`: the
variable rows share what the fixed ones leave (the form shows each one's share)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input

from flagtui.api.errors import InvalidArgument
from flagtui.api.models import Variant, VariantOverride, VariantPayload
from flagtui.contract import VARIANT_PAYLOAD_TYPES
from flagtui.tui.widgets.inert import InertInput
from flagtui.tui.widgets.select import Select
from flagtui.tui.widgets.text import MessageLine

PERCENT = re.compile(r"^\s*(\d{1,3})(?:[.,](\d))?\s*%?\s*$")


def per_mille(typed: str, where: str) -> int | None:
    """ "50" or "50.0" or "33.3 %" as per mille; empty: None (variable)."""
    if not typed.strip():
        return None
    match = PERCENT.match(typed)
    if match is None:
        said = f"{typed.strip()!r} is not a percentage with at most one decimal (e.g. 33.3)"
        raise InvalidArgument(where, said)
    weight = int(match.group(1)) * 10 + int(match.group(2) or 0)
    if weight > 1000:
        raise InvalidArgument(where, f"{typed.strip()} % is over 100 %")
    return weight


def percent(weight: float | None) -> str:
    """Per mille as the web UI shows it: 500 is "50.0"."""
    return "" if weight is None else f"{weight / 10:.1f}"


class VariantRow(Vertical):
    """A variant's inputs; `overrides` (not edited here) are sent back as they were."""

    DEFAULT_CSS = """
    VariantRow { height: auto; }
    VariantRow Horizontal { height: auto; }
    VariantRow .v-name { width: 1fr; min-width: 12; }
    VariantRow .v-weight { width: 12; }
    VariantRow .v-share { width: 16; padding: 0 1; }
    VariantRow .v-type { width: 12; }
    VariantRow .v-value { width: 2fr; min-width: 12; }
    VariantRow .v-remove { min-width: 5; width: 5; }
    """

    def __init__(self, variant: Variant | None = None) -> None:
        super().__init__(classes="variant-row")
        self.variant = variant
        self.overrides: list[VariantOverride] | None = variant.overrides if variant else None

    def compose(self) -> ComposeResult:
        v = self.variant
        fixed = v is not None and v.weight_type == "fix"
        payload = v.payload if v else None
        with Horizontal():
            yield InertInput(v.name if v else "", placeholder="name", classes="v-name")
            yield Input(
                percent(v.weight) if fixed and v else "",
                placeholder="auto %",
                classes="v-weight",
            )
            yield MessageLine(classes="v-share")
            yield Select[str](
                [(t, t) for t in VARIANT_PAYLOAD_TYPES],
                value=payload.type if payload else Select.NULL,
                prompt="payload",
                compact=True,
                classes="v-type",
            )
            yield InertInput(
                payload.value if payload else "", placeholder="value", classes="v-value"
            )
            yield Button("✕", classes="v-remove", compact=True, tooltip="Remove this variant")
        yield MessageLine(classes="error-line v-error")

    def field(self, name: str) -> Input | Select[str]:
        if name == "type":
            return self.query_one(".v-type", Select)
        return self.query_one(f".v-{name}", Input)

    def typed(self, index: int) -> Variant:
        where = f"variants[{index}]"
        name = self.query_one(".v-name", InertInput).raw_value.strip()
        weight = per_mille(self.query_one(".v-weight", Input).value, f"{where}.weight")
        kind = self.query_one(".v-type", Select).value
        value = self.query_one(".v-value", InertInput).raw_value
        payload = None
        if kind is not Select.NULL:
            payload = VariantPayload(type=str(kind), value=value)
        elif value.strip():
            raise InvalidArgument(f"{where}.payload.type", "pick the payload's type")
        return Variant(
            name=name,
            weight=weight,
            weight_type="variable" if weight is None else "fix",
            payload=payload,
            overrides=self.overrides,
        )


def typed_variants(rows: Sequence[VariantRow], stickiness: str) -> list[Variant]:
    """Every row as a variant to check (a blank row is refused by its name: index i is row i)."""
    return [
        row.typed(i).model_copy(update={"stickiness": stickiness}) for i, row in enumerate(rows)
    ]


def show_row_shares(rows: Sequence[VariantRow], checked: Sequence[Variant]) -> None:
    """Each row's weight as it will be stored (`checked`: none while the rows do not add up)."""
    for i, row in enumerate(rows):
        shown = checked[i].weight if i < len(checked) else None
        row.query_one(".v-share", MessageLine).update(
            f"= {percent(shown)} %" if shown is not None else ""
        )


def mark_row_refusal(rows: Sequence[VariantRow], field: str | None) -> None:
    """A refusal naming a row's field (`variants[1].weight`) said under that row, its input
    focused; every row's earlier mark cleared."""
    for row in rows:
        row.query_one(".v-error", MessageLine).update("")
    head, _, rest = (field or "").partition("].")
    if not head.startswith("variants[") or not rest:
        return
    index = int(head.partition("[")[2])
    if index >= len(rows):
        return
    rows[index].query_one(".v-error", MessageLine).update(f"↑ {rest}: refused")
    named = rest.split(".")[0]
    if rest.startswith("payload.type"):
        named = "type"
    elif named == "payload":
        named = "value"
    if named in {"name", "weight", "type", "value"}:
        rows[index].field(named).focus()
