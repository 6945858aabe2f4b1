"""`client.integrations` (Unleash's addons): their configurations, switching one on or off, and
one's delivery outcomes (operation 2).

Switching is not one of the contract's operations: it uses real Unleash's PUT
/api/admin/addons/:id, which replaces the whole configuration (provider, enabled, description,
parameters, events, projects, environments; unknown keys are stripped) and records
`addon-config-updated`. Sensitive parameters are sent back as the `*****` the list showed: the
server keeps the stored value for a masked one. The sandbox serves the route the same way.
"""

from __future__ import annotations

import builtins
from typing import Any

from flagtui.api import capabilities, errors, validation
from flagtui.api.core import Core
from flagtui.api.models import Addon, AddonList, IntegrationEvent
from flagtui.api.wire import IntegrationEvents, adapter, seg
from flagtui.contract import PAGE_DEFAULT

_ADDON = adapter(Addon)
_ADDONS = adapter(AddonList)
WRITABLE = (
    "provider",
    "enabled",
    "description",
    "parameters",
    "events",
    "projects",
    "environments",
)


class Integrations:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self) -> AddonList:
        return await self._core.read("GET", "/api/admin/addons", _ADDONS)

    async def set_enabled(self, addon_id: int, enabled: bool) -> Addon:
        """Enable or disable one integration configuration; the rest of it is sent unchanged.
        Returns the server's record with the parameters as listed (masked), since real Unleash
        answers with the stored secrets."""
        validation.non_negative("id", addon_id)
        action = "enable integration" if enabled else "disable integration"
        self._core.require_writable(action)  # before the read of the record, too
        path = f"/api/admin/addons/{seg(addon_id)}"
        current = next((a for a in (await self.list()).addons if a.id == addon_id), None)
        if current is None:
            raise errors.NotFoundError(
                "PUT",
                path,
                message=f"Could not find addon with id {addon_id}",
                profile=self._core.profile,
            )
        wire = current.model_dump(mode="json", by_alias=True, exclude_unset=True)
        body = {k: wire[k] for k in WRITABLE if wire.get(k) is not None}
        body["enabled"] = enabled
        updated = await self._core.write(action, "PUT", path, _ADDON, body)
        assert updated is not None
        return updated.model_copy(update={"parameters": current.parameters})

    async def create(self, body: dict[str, Any]) -> Addon:
        """A new integration configuration: `body` holds the WRITABLE keys (checked by the caller
        against the provider's definition). Real Unleash answers with the stored secrets: mask
        them before showing the record."""
        created = await self._core.write(
            "create integration", "POST", "/api/admin/addons", _ADDON, body
        )
        assert created is not None
        return created

    async def update(self, current: Addon, changes: dict[str, Any]) -> Addon:
        """Replace `current` (as listed: secrets masked, which the server keeps) with `changes`
        applied; `parameters` in `changes` are merged into the current ones."""
        wire = current.model_dump(mode="json", by_alias=True, exclude_unset=True)
        body = {k: wire[k] for k in WRITABLE if wire.get(k) is not None}
        body.update({k: v for k, v in changes.items() if k != "parameters"})
        body["parameters"] = {**body.get("parameters", {}), **changes.get("parameters", {})}
        path = f"/api/admin/addons/{seg(current.id)}"
        updated = await self._core.write("edit integration", "PUT", path, _ADDON, body)
        assert updated is not None
        return updated

    async def delete(self, addon_id: int) -> None:
        """Delete one configuration. Unleash deletes its delivery history with it, and a
        delivery in flight can race the delete: disabling is the safer way to stop one."""
        validation.non_negative("id", addon_id)
        await self._core.write("delete integration", "DELETE", f"/api/admin/addons/{seg(addon_id)}")

    async def events(
        self, addon_id: int | str, *, limit: int = PAGE_DEFAULT, offset: int = 0
    ) -> builtins.list[IntegrationEvent]:
        """Operation 2: delivery outcomes of one integration configuration, newest first."""
        params = {
            "limit": validation.non_negative("limit", limit),
            "offset": validation.non_negative("offset", offset),
        }
        core, path = self._core, f"/api/admin/addons/{seg(addon_id)}/events"
        answer = await core.versioned(
            capabilities.INTEGRATION_DELIVERIES,
            lambda: core.read("GET", path, adapter(IntegrationEvents), params=params),
        )
        return answer.integration_events
