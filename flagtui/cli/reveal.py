"""`--reveal`: what the commands print keeps secrets masked (flagtui/masking.py) unless asked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flagtui.api.models import IntegrationEvent

REVEAL_HELP = "show URLs, bodies and secret parameters in full (masked by default)"


def shown_delivery(delivery: IntegrationEvent, *, reveal: bool) -> IntegrationEvent:
    """A delivery as printed: masked (flagtui/masking.py) unless --reveal."""
    # Here, not at the top: it loads pydantic
    from flagtui.masking import masked_delivery  # the models: imported when printing

    return delivery if reveal else masked_delivery(delivery)


def shown_deliveries(
    deliveries: Iterable[IntegrationEvent], *, reveal: bool
) -> list[IntegrationEvent]:
    return [shown_delivery(d, reveal=reveal) for d in deliveries]
