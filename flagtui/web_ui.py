"""Addresses in Unleash's web UI, which is served at the profile's URL (the admin API's base):
a flag's page is /projects/{project}/features/{name}. No UI library here: the TUI (`y` in a
flag's detail) and the commands (`feature show --web`) build them alike."""

from __future__ import annotations

from urllib.parse import quote


def flag_url(base_url: str, project: str, name: str) -> str:
    """The web UI's page of one flag (each part of the path escaped)."""
    base = base_url.rstrip("/")
    return f"{base}/projects/{quote(project, safe='')}/features/{quote(name, safe='')}"
