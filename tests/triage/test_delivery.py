"""A delivery as triage holds it (`records.Delivery`): what `failures` prints of a live one is
what it printed of the client's model, masked by the same rule (`masking.masked_delivery`)."""

from __future__ import annotations

from flagtui.api import AdminClient
from flagtui.cli.output import record
from flagtui.masking import MASK, masked_delivery, masked_delivery_json
from flagtui.triage.records import Delivery


async def test_a_live_delivery_prints_and_masks_as_the_model_did(admin: AdminClient) -> None:
    masked = 0
    for addon in (await admin.integrations.list()).addons:
        for model in await admin.integrations.events(addon.id, limit=100):
            delivery = Delivery.of(model)
            assert delivery.wire == record(model)
            shown = masked_delivery_json(delivery.wire)
            assert shown == record(masked_delivery(model))
            assert (delivery.id, delivery.state, delivery.failed) == (
                model.id,
                model.state,
                model.failed,
            )
            assert delivery.event_type == (model.event.type if model.event else None)
            masked += MASK in str(shown) and shown != delivery.wire
    assert masked  # the sandbox's deliveries hold secrets: the rule was exercised
