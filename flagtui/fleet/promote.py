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


async def promotion_file(
    client: AdminClient,
    projects: Sequence[str],
    *,
    environments: Sequence[str] = (),
    to_environment: str | None = None,
    flags: Sequence[str] = (),
    rewrite_project: str | None = None,
) -> FlagsFile:
    """The source's flags file, renamed for the target, as `flagtui promote` and the TUI's
    promotion make it: with `to_environment` (one server), the one environment named in
    `environments` becomes it; else each of `environments` promotes to its namesake
    (none given: every one the projects share)."""
    if to_environment is not None:
        [source] = environments
        envs, renamed = [source], {source: to_environment}
    else:
        envs, renamed = list(environments) or await shared_environments(client, projects), {}
    file = await source_file(client, Selection(list(projects), envs, list(flags)))
    return rewritten(file, project=rewrite_project, environments=renamed)


async def check_target(client: AdminClient, file: FlagsFile) -> None:
    """The target has the file's projects, each with the file's environments: said before
    anything is planned or sent."""
    await resolve(client, Selection(file.projects, file.environments))
