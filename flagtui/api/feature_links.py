"""`client.links`: a flag's links (a URL and an optional title), added and deleted, with real
Unleash's routes (7.5.1 and 8.2.0 alike, checked):

- the flag's record (`GET /api/admin/projects/:p/features/:f`) lists them as `links: [{id, url,
  title, feature}]`; a server without links leaves the field out;
- `POST …/features/:f/link` `{url, title?}` adds one (204, no body: the new id is read back
  from the flag); `DELETE …/features/:f/link/:id` deletes one (204).

Unleash stores a URL without a scheme with `https://` in front (`example.com/a` comes back
`https://example.com/a`). Sandbox servers and Unleash before 7 keep no links: `keeps_links` says
why, before anything is sent.
"""

from __future__ import annotations

import builtins

from flagtui.api import capabilities, errors
from flagtui.api.core import Core
from flagtui.api.models import Feature, FeatureLink, ServerInfo
from flagtui.api.wire import adapter, seg

AREA = "Flag links"
SINCE: capabilities.Version = (7, 0, 0)
_FEATURE = adapter(Feature)


def keeps_links(server: ServerInfo | None) -> str | None:
    """Why this server keeps no links on flags, or None when it does (or its version does not
    decide: then its answers do)."""
    if server is None:
        return None
    if server.sandbox:
        return f"{AREA}: the sandbox ({server.version}) keeps no links on flags"
    version = capabilities.parse_version(server.version)
    if version is not None and version < SINCE:
        return str(errors.NotSupported(AREA, server.label, needs="Unleash 7"))
    return None


def _path(project: str, feature: str) -> str:
    return f"/api/admin/projects/{seg(project)}/features/{seg(feature)}/link"


class Links:
    def __init__(self, core: Core) -> None:
        self._core = core

    async def list(self, project: str, feature: str) -> builtins.list[FeatureLink]:
        """The flag's links with their ids; a server that lists none on flags: NotSupported."""
        path = f"/api/admin/projects/{seg(project)}/features/{seg(feature)}"
        found = await self._core.read("GET", path, _FEATURE)
        if found.links is None:
            raise errors.NotSupported(AREA, self._core.server_label(), needs="Unleash 7")
        return list(found.links)

    async def add(self, project: str, feature: str, url: str, title: str | None = None) -> None:
        body: dict[str, str] = {"url": url}
        if title:
            body["title"] = title
        await self._core.write("add link", "POST", _path(project, feature), json=body)

    async def remove(self, project: str, feature: str, link: FeatureLink) -> None:
        if link.id is None:
            raise errors.InvalidArgument("link", f"{link.url}: the server gave it no id")
        path = f"{_path(project, feature)}/{seg(link.id)}"
        await self._core.write("delete link", "DELETE", path)
