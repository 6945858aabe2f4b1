"""`client.feature_types`: the server's feature types and their lifetimes (operation 6)."""

from __future__ import annotations

from flagtui.api import capabilities, errors, validation, wire
from flagtui.api.core import Core
from flagtui.api.edits import EditConflict, FieldChange
from flagtui.api.events import Events
from flagtui.api.models import FeatureType
from flagtui.api.wire import adapter, seg

_FEATURE_TYPE = adapter(FeatureType)


class FeatureTypes:
    def __init__(self, core: Core, events: Events) -> None:
        self._core = core
        self._events = events

    async def list(self) -> list[FeatureType]:
        answer = await self._core.read(
            "GET", "/api/admin/feature-types", adapter(wire.FeatureTypes)
        )
        return answer.types

    async def update_lifetime(
        self,
        type_id: str,
        lifetime_days: int | None,
        *,
        opened_on: FeatureType | None = None,
        anyway: bool = False,
    ) -> FeatureType:
        """Operation 6. None (or 0) means flags of this type never become potentially stale.
        `opened_on`: the type as the form showed it; its lifetime changed since (read again
        just before) is EditConflict, nothing sent, unless `anyway`."""
        body = {"lifetimeDays": validation.lifetime_days(lifetime_days)}
        path = f"/api/admin/feature-types/{seg(type_id)}/lifetime"
        if opened_on is not None and not anyway:
            await self._unchanged_since(opened_on)
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

    async def _unchanged_since(self, shown: FeatureType) -> None:
        self._core.require_writable("update lifetime")
        now = next((t for t in await self.list() if t.id == shown.id), None)
        if now is None or now.lifetime_days == shown.lifetime_days:
            return  # gone: the write says so (404)
        changed = [FieldChange("lifetimeDays", shown.lifetime_days, now.lifetime_days)]
        try:
            page = await self._events.search(type="feature-type-updated", limit=5)
            recorded = [e for e in page.events if (e.data or {}).get("id") == shown.id][:1]
        except errors.FlagtuiError:
            recorded = []
        raise EditConflict(f"feature type {shown.id}", "update lifetime", changed, now, recorded)
