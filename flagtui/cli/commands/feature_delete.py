"""`flagtui feature delete`: delete archived flags for good (Unleash's "Delete" in the archive):
irreversible, only their events remain. Each flag is read first: a live one refuses the
command before anything is sent (archive it first), an unknown one is not found. Then the
typed name (for several, their count), or --yes; one request: DELETE /archive/:f for one flag,
Unleash's batch route for several."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli import bulk
from flagtui.cli.done import done
from flagtui.cli.output import Printer, say
from flagtui.cli.session import confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient

COLUMNS = ("featureName", "done")


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_delete, write="delete feature", destructive=True, columns=COLUMNS)
    bulk.add_project_and_names(p)


async def feature_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    names = bulk.names_of(args)
    rows = await client.flag_ops.archived_rows(args.project, names)
    word = names[0] if len(rows) == 1 else f"{len(rows)} flags"
    what = f"delete {word} from project {args.project} for good (irreversible; events remain)"
    confirm(args, what, word)
    await client.flag_ops.delete(args.project, rows)
    if len(rows) == 1:
        done(out, "feature-deleted", project=args.project, featureName=rows[0].name)
        return
    out.many({"done": "feature-deleted", "project": args.project, "featureName": r.name}
             for r in rows)  # fmt: skip
    say(out, f"{len(rows)} flags deleted for good", {"flags": len(rows), "done": len(rows)})
