"""Projects of a sandbox made promotable: the flags an apply cannot make again archived, so
that a promotion (`flagtui promote`, the TUI's Promote…) leaves no difference behind."""

from __future__ import annotations

from typing import Any

import httpx

from flagtui.sandbox import SandboxServer

CURRENT = {"flexibleRollout", "default", "remoteAddress", "applicationHostname"}


def _http(server: SandboxServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, headers={"Authorization": server.admin_token},
                        timeout=30)  # fmt: skip


def promotable(server: SandboxServer, projects: tuple[str, ...]) -> None:
    """The projects' flags an apply can make again, only. Archived: the demo's flags with a
    strategy type the server deprecated or environment variants (no write adds either to a
    new flag), a dependency, strategy variants (their weights, made by hand, are not the ones
    the server computes) or an environment on with no strategy served (switching it on adds
    one)."""
    with _http(server) as http:
        for project in projects:
            base = f"/api/admin/projects/{project}/features"
            for listed in http.get(base).json()["features"]:
                flag = http.get(f"{base}/{listed['name']}").json()
                envs = flag["environments"]
                used = {s["name"] for e in envs for s in e.get("strategies", [])}
                quirks = any(_quirk(e) for e in envs)
                if used - CURRENT or quirks or flag.get("dependencies"):
                    http.delete(f"{base}/{listed['name']}").raise_for_status()


def _quirk(env: dict[str, Any]) -> bool:
    strategies = env.get("strategies") or []
    served = [s for s in strategies if not s.get("disabled")]
    strategy_variants = any(s.get("variants") for s in strategies)
    return bool(env.get("variants") or (env["enabled"] and not served) or strategy_variants)
