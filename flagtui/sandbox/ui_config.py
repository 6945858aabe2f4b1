"""GET /api/admin/ui-config: version and edition. The sandbox implements the enterprise-only
operations (project access, change requests), so it reports an enterprise edition."""

from __future__ import annotations

from flagtui.sandbox import shapes_admin
from flagtui.sandbox.inputs import Call

VERSION = "8.2.0"


def ui_config(call: Call) -> shapes_admin.UiConfig:
    return {
        "name": "Unleash (flagtui sandbox)",
        "version": VERSION,
        "versionInfo": {
            "current": {"oss": VERSION, "enterprise": VERSION},
            "latest": {},
            "isLatest": True,
        },
        "environment": "sandbox",
        "sandbox": True,
        "slogan": "Feature flags for the terminal, without a server to run.",
        "baseUriPath": "",
        "authenticationType": "enterprise",
        "flags": {},
        "links": [],
    }
