"""Switching an integration (addon) on or off (AdminClient inherits this method).

Not one of the contract's operations: it uses real Unleash's PUT /api/admin/addons/:id, which
replaces the whole configuration (provider, enabled, description, parameters, events, projects,
environments; unknown keys are stripped) and records `addon-config-updated`. Sensitive
parameters are sent back as the `*****` the list showed: the server keeps the stored value for
a masked one. The sandbox serves the route the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol
from urllib.parse import quote

from pydantic import TypeAdapter

from flagtui.api import errors, validation
from flagtui.api.models import Addon, AddonList

_ADDON = TypeAdapter(Addon)
WRITABLE = (
    "provider",
    "enabled",
    "description",
    "parameters",
    "events",
    "projects",
    "environments",
)


class _Host(Protocol):
    profile: str
    read_only: bool

    def list_addons(self) -> Awaitable[AddonList]: ...
    def _write(
        self, action: str, method: str, path: str, adapter: Any = ..., json: Any = ...
    ) -> Awaitable[Any]: ...


class AddonOperations:
    async def set_addon_enabled(self: _Host, addon_id: int, enabled: bool) -> Addon:
        """Enable or disable one integration configuration; the rest of it is sent unchanged.
        Returns the server's record with the parameters as listed (masked), since real Unleash
        answers with the stored secrets."""
        validation.non_negative("id", addon_id)
        action = "enable integration" if enabled else "disable integration"
        if self.read_only:  # before the read of the record, too
            raise errors.ReadOnlyProfile(self.profile, action)
        path = f"/api/admin/addons/{quote(str(addon_id), safe='')}"
        current = next((a for a in (await self.list_addons()).addons if a.id == addon_id), None)
        if current is None:
            raise errors.NotFoundError(
                "PUT",
                path,
                message=f"Could not find addon with id {addon_id}",
                profile=self.profile,
            )
        wire = current.model_dump(mode="json", by_alias=True, exclude_unset=True)
        body = {k: wire[k] for k in WRITABLE if wire.get(k) is not None}
        body["enabled"] = enabled
        updated: Addon = await self._write(action, "PUT", path, _ADDON, body)
        return updated.model_copy(update={"parameters": current.parameters})
