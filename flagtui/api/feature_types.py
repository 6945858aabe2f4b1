"""`client.feature_types`: the server's feature types and their lifetimes (operation 6)."""

from __future__ import annotations

from flagtui.api import capabilities, errors, validation, wire
from flagtui.api.core import Core
from flagtui.api.models import FeatureType
from flagtui.api.wire import adapter, seg

_FEATURE_TYPE = adapter(FeatureType)


class FeatureTypes:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> list[FeatureType]:
        answer = await self._core.read(
            "GET", "/api/admin/feature-types", adapter(wire.FeatureTypes)
        )
        return answer.types

    async def update_lifetime(self, type_id: str, lifetime_days: int | None) -> FeatureType:
        """Operation 6. None (or 0) means flags of this type never become potentially stale."""
        body = {"lifetimeDays": validation.lifetime_days(lifetime_days)}
        path = f"/api/admin/feature-types/{seg(type_id)}/lifetime"
        area = capabilities.FEATURE_TYPE_LIFETIME
        core = self._core
        try:
            updated = await core.versioned(
                area, lambda: core.write("update lifetime", "PUT", path, _FEATURE_TYPE, body)
            )
        except errors.ConflictError:
            if not capabilities.behind_a_flag(core.server, area):
                raise  # only 5.3 and 5.4 with the flag off answer 409 (with an empty body)
            needs = capabilities.flag_off_needs(core.server, area)
            raise errors.NotSupported(area, core.server_label(), needs=needs) from None
        assert updated is not None
        return updated
