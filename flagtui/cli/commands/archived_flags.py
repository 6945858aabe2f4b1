"""`flagtui feature archive|revive`: flags into Unleash's archive of flags and back (not the
delivery archive of `collect`), by Unleash's own routes, as the web UI does. Several names (or
--stdin) make one plan, asked once, each flag's outcome its own (cli/bulk.py)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from flagtui.cli import bulk
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature
    from flagtui.cli.output import Printer


def archive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_archive, write="archive feature", destructive=True, columns=bulk.COLUMNS)
    p.add_argument("project")
    bulk.add_names(p)


def revive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_revive, write="revive feature", columns=bulk.COLUMNS)
    p.add_argument("project")
    bulk.add_names(p)


async def feature_archive(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """Unleash's archive (DELETE), as the web UI's: feature-archived, lifecycle `archived`."""
    names = bulk.names_of(args)

    async def archive(name: str) -> dict[str, Any]:
        before = await client.features.archive(args.project, name)
        return {"done": "feature-archived", "project": args.project, **_was_on(before)}

    if not bulk.is_bulk(args):
        what = f"archive {names[0]} in project {args.project} (SDKs stop receiving it)"
        confirm(args, what, names[0])
        return await _one(out, args, names[0], archive)
    what = f"archive {len(names)} flags in project {args.project} (SDKs stop receiving them)"
    if sys.stdin.isatty() and not (args.yes or args.dry_run):
        bulk.show_plan(what, names)
    confirm(args, what, f"{len(names)} flags")
    return bulk.outcomes(out, await bulk.each(names, archive))


async def feature_revive(client: AdminClient, out: Printer, args: argparse.Namespace) -> int:
    """Unleash's revive: the flag comes back with every environment off, said in the answer."""
    names = bulk.names_of(args)

    async def revive(name: str) -> dict[str, Any]:
        before = await client.features.revive(args.project, name)
        revived = {"project": args.project, **_was_on(before), "enabledIn": []}
        return {"done": "feature-revived", **revived}

    if not bulk.is_bulk(args):
        return await _one(out, args, names[0], revive)
    return bulk.outcomes(out, await bulk.each(names, revive))


async def _one(out: Printer, args: argparse.Namespace, name: str, change: bulk.One) -> int:
    from flagtui.api import NothingToSend
    from flagtui.cli.done import done, unchanged

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
