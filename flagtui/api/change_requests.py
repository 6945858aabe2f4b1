"""`client.change_requests` (Enterprise): a project's change requests; deleting one is
operation 8."""

from __future__ import annotations

from flagtui.api.core import Core
from flagtui.api.models import ChangeRequest
from flagtui.api.wire import ChangeRequestList, adapter, seg

_AREA = "Change requests"
_CHANGE_REQUEST = adapter(ChangeRequest)


class ChangeRequests:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, project: str) -> list[ChangeRequest]:
        core, path = self._core, f"/api/admin/projects/{seg(project)}/change-requests"
        answer = await core.enterprise(
            _AREA, lambda: core.read("GET", path, adapter(ChangeRequestList))
        )
        return list(answer)

    async def get(self, project: str, change_request_id: int | str) -> ChangeRequest:
        core, path = self._core, _path(project, change_request_id)
        return await core.enterprise(_AREA, lambda: core.read("GET", path, _CHANGE_REQUEST))

    async def delete(self, project: str, change_request_id: int | float | str) -> None:
        """Operation 8."""
        core, path = self._core, _path(project, change_request_id)
        await core.enterprise(_AREA, lambda: core.write("delete change request", "DELETE", path))


def _path(project: str, change_request_id: int | float | str) -> str:
    return f"/api/admin/projects/{seg(project)}/change-requests/{seg(change_request_id)}"
