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
from flagtui.api.edits import Edit, EditConflict, changed_fields
from flagtui.api.events import Events
from flagtui.api.models import Addon, AddonList, EventRecord, IntegrationEvent
from flagtui.api.rollout_requests import PlannedWrite
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
    def __init__(self, core: Core, events: Events) -> None:
        self._core = core
        self._events = events

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
        body = {**_writable(current), "enabled": enabled}
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

    def plan_update(self, current: Addon, changes: dict[str, Any]) -> Edit:
        """The PUT replacing `current` (as listed: secrets masked, which the server keeps) with
        `changes` applied (`parameters` merged into the current ones), made from `current`."""
        shown = _writable(current)
        body = {**shown, **{k: v for k, v in changes.items() if k != "parameters"}}
        body["parameters"] = {**shown.get("parameters", {}), **changes.get("parameters", {})}
        plan = PlannedWrite("edit integration", "PUT", f"/api/admin/addons/{seg(current.id)}", body)
        return Edit(plan, shown)

    async def send_update(self, edit: Edit, *, anyway: bool = False) -> Addon:
        """Send a planned update as shown. Read again first: changed since `edit.opened_on`
        is EditConflict (nothing sent) unless `anyway`. A secret is compared as listed,
        masked: a new secret alone is not seen."""
        plan = edit.plan
        self._core.require_writable(plan.action)
        if edit.opened_on is not None and not anyway:
            addon_id = plan.path.rsplit("/", 1)[1]
            now = next((a for a in (await self.list()).addons if str(a.id) == addon_id), None)
            changed = [] if now is None else changed_fields(edit.opened_on, _writable(now))
            if changed:  # gone (None): the write says so (404)
                recorded = await self._recorded(int(addon_id))
                what = f"integration {addon_id}"
                raise EditConflict(what, plan.action, changed, now, recorded)
        updated = await self._core.write(plan.action, plan.method, plan.path, _ADDON, plan.body)
        assert updated is not None
        return updated

    async def update(self, current: Addon, changes: dict[str, Any]) -> Addon:
        """`changes` applied to `current` and sent (`plan_update`, `send_update`)."""
        return await self.send_update(self.plan_update(current, changes))

    async def _recorded(self, addon_id: int) -> builtins.list[EventRecord]:
        """The integration's newest updates (who, when); none where the log is closed."""
        try:
            page = await self._events.search(type="addon-config-updated", limit=20)
        except errors.FlagtuiError:
            return []
        return [e for e in page.events if (e.data or {}).get("id") == addon_id][:3]

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


def _writable(addon: Addon) -> dict[str, Any]:
    """What a PUT of the integration carries, as listed (secrets masked)."""
    wire = addon.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return {k: wire[k] for k in WRITABLE if wire.get(k) is not None}
