"""A promotion's flags file: the source's export, made in memory by the function `flagtui
export` writes files with (`flag_export.write_file`) and read back as `flagtui plan` reads
one (`flags_file.parse`), so a promotion plans and applies exactly what an export, a review
and an apply would; then its projects or environments renamed for the target."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from flagtui.api import errors
from flagtui.fleet.flag_export import Selection, resolve, write_file
from flagtui.fleet.flags_file import FlagsFile, parse

if TYPE_CHECKING:
    from flagtui.api import AdminClient


async def shared_environments(client: AdminClient, projects: Sequence[str]) -> list[str]:
    """The environments every one of the projects has (none given: every project)."""
    projects = list(projects) or sorted(p.id for p in await client.projects.list())
    shared: set[str] | None = None
    for project in projects:
        names = {e.name for e in await client.environments.list(project)}
        shared = names if shared is None else shared & names
    if not shared:
        raise errors.InvalidArgument("--project", "projects with an environment in common")
    return sorted(shared)


async def source_file(client: AdminClient, selection: Selection) -> FlagsFile:
    """The selection's flags file, as `flagtui export` would write it."""
    text = io.StringIO()
    await write_file(client, await resolve(client, selection), text)
    return parse(text.getvalue(), "the source's export")


def rewritten(
    file: FlagsFile, *, project: str | None = None, environments: Mapping[str, str] = {}
) -> FlagsFile:
    """The file with every flag in `project` (when given) and each environment renamed as
    `environments` says (source → target)."""

    def env(name: str) -> str:
        return environments.get(name, name)

    flags = []
    for flag in file.flags:
        moved = {**flag, "environments": {env(n): e for n, e in flag["environments"].items()}}
        if project:
            moved["project"] = project
        flags.append(moved)
    return replace(
        file,
        projects=[project] if project else file.projects,
        environments=[env(n) for n in file.environments],
        flags=flags,
    )


async def check_target(client: AdminClient, file: FlagsFile) -> None:
    """The target has the file's projects, each with the file's environments: said before
    anything is planned or sent."""
    await resolve(client, Selection(file.projects, file.environments))
