"""`flagtui feature archive|revive`: flags into Unleash's archive of flags and back (not the
delivery archive of `collect`), by Unleash's own routes, as the web UI does. Several names (or
--stdin) make one plan, asked once, each flag's outcome its own (cli/bulk.py)."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from flagtui.api import NothingToSend
from flagtui.cli import bulk
from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable
from flagtui.words import counted

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.bulk import Plan
    from flagtui.api.models import Feature


def archive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_archive, write="archive feature", destructive=True, columns=bulk.COLUMNS)
    bulk.add_project_and_names(p)


def revive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_revive, write="revive feature", columns=bulk.COLUMNS)
    bulk.add_project_and_names(p)


async def feature_archive(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """Unleash's archive, as the web UI's: feature-archived, lifecycle `archived`."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.bulk_changes import Change

    names = bulk.names_of(args)
    if bulk.is_bulk(args):

        def ask(plan: Plan) -> tuple[str, str]:
            count = len(plan.to_send)
            where = f"in project {args.project} (SDKs stop receiving them)"
            return f"archive {counted(count, 'flag')} {where}", counted(count, "flag")

        return await bulk.change_many(client, out, args, names, Change("archive"), ask)

    async def archive(name: str) -> dict[str, Any]:
        before = await client.features.archive(args.project, name)
        return {"done": "feature-archived", "project": args.project, **_was_on(before)}

    what = f"archive {names[0]} in project {args.project} (SDKs stop receiving it)"
    confirm(args, what, names[0])
    return await _one(out, args, names[0], archive)


async def feature_revive(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """Unleash's revive: the flag comes back with every environment off, said in the answer."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.bulk_changes import Change

    names = bulk.names_of(args)
    if bulk.is_bulk(args):
        return await bulk.change_many(client, out, args, names, Change("revive"), lambda plan: None)

    async def revive(name: str) -> dict[str, Any]:
        before = await client.features.revive(args.project, name)
        revived = {"project": args.project, **_was_on(before), "enabledIn": []}
        return {"done": "feature-revived", **revived}

    return await _one(out, args, names[0], revive)


async def _one(
    out: Printer,
    args: argparse.Namespace,
    name: str,
    change: Callable[[str], Awaitable[dict[str, Any]]],
) -> int:
    try:
        result = await change(name)
    except NothingToSend as already:
        unchanged(out, already, project=args.project)
        return 0
    event = result.pop("done")
    done(out, event, project=args.project, featureName=name, **_without(result, "project"))
    return 0


def _without(record: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != key}


def _was_on(feature: Feature) -> dict[str, list[str]]:
    return {"wasEnabledIn": [e.name for e in feature.environments or [] if e.enabled]}
