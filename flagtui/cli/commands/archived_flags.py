"""`flagtui feature archive|revive`: a flag into Unleash's archive of flags and back (not the
delivery archive of `collect`), by Unleash's own routes, as the web UI does."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.done import done, unchanged
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Feature


def archive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_archive, write="archive feature", destructive=True)
    p.add_argument("project")
    p.add_argument("name")


def revive_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_revive, write="revive feature")
    p.add_argument("project")
    p.add_argument("name")


async def feature_archive(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Unleash's archive (DELETE), as the web UI's: feature-archived, lifecycle `archived`."""
    from flagtui.api import NothingToSend

    what = f"archive {args.name} in project {args.project} (SDKs stop receiving it)"
    confirm(args, what, args.name)
    try:
        before = await client.features.archive(args.project, args.name)
    except NothingToSend as already:
        unchanged(out, already, project=args.project)
        return
    done(out, "feature-archived", project=args.project, featureName=args.name, **_was_on(before))


async def feature_revive(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Unleash's revive: the flag comes back with every environment off, said in the answer."""
    from flagtui.api import NothingToSend

    try:
        before = await client.features.revive(args.project, args.name)
    except NothingToSend as already:
        unchanged(out, already, project=args.project)
        return
    revived = {"project": args.project, "featureName": args.name, **_was_on(before)}
    done(out, "feature-revived", **revived, enabledIn=[])


def _was_on(feature: Feature) -> dict[str, list[str]]:
    return {"wasEnabledIn": [e.name for e in feature.environments or [] if e.enabled]}
