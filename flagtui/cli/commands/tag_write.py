"""`flagtui tag add|remove PROJECT NAME... --tag TYPE:VALUE`: tag flags, or untag them.

One flag: its tags are read first and only what changes is sent (Unleash records another
`feature-tagged` for a tag the flag has, and a `feature-untagged` for one it lacks): one POST,
one DELETE, or a PUT of the tags added and removed. Several flags (or --stdin): one request,
Unleash's project route `PUT /api/admin/projects/:p/tags`, then each flag's tags read back."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from flagtui.api import NothingToSend
from flagtui.cli import bulk
from flagtui.cli.done import unchanged
from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Tag

TAG_HELP = "a tag, TYPE:VALUE (no colon: the simple type), each part 2 to 50 characters; repeatable"


def _options(p: argparse.ArgumentParser, run: Any, action: str) -> None:
    scriptable(p, run, write=action, columns=("featureName", "done", "tags"))
    bulk.add_project_and_names(p)
    p.add_argument("--tag", action="append", required=True, metavar="TYPE:VALUE", help=TAG_HELP)


def add_options(p: argparse.ArgumentParser) -> None:
    _options(p, tag_add, "tag feature")


def remove_options(p: argparse.ArgumentParser) -> None:
    _options(p, tag_remove, "untag feature")


async def tag_add(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await _change(client, out, args, adding=True)


async def tag_remove(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await _change(client, out, args, adding=False)


def _said(tags: list[Tag]) -> str:
    return ", ".join(f"{t.type}:{t.value}" for t in tags) or "none"


async def _change(
    client: AdminClient, out: Printer, args: argparse.Namespace, *, adding: bool
) -> None:
    # Here, not at the top: it loads pydantic
    from flagtui.api.flag_tags import tag

    tags = [tag(t) for t in args.tag]
    names = bulk.names_of(args)
    add, remove = (tags, []) if adding else ([], tags)
    if bulk.is_bulk(args):
        live = await client.features.list(args.project)
        plan = await client.tags.plan_bulk(args.project, names, live, add, remove)
        after = await client.tags.send_bulk(plan)
        event = "feature-tagged" if adding else "feature-untagged"
        out.many(
            {"featureName": name, "done": event, "project": args.project,
             "tags": [t.model_dump() for t in got] if out.is_json else _said(got)}
            for name, got in after.items()
        )  # fmt: skip
        return
    name = names[0]
    await client.features.get(args.project, name)  # of this project (NotFoundError otherwise)
    try:
        one = await client.tags.plan(name, add, remove)
    except NothingToSend as same:
        unchanged(out, same, project=args.project)
        return
    now = await client.tags.send(one)
    events = ["feature-tagged"] * len(one.added) + ["feature-untagged"] * len(one.removed)
    done = events[0] if len(set(events)) == 1 else ", ".join(dict.fromkeys(events))
    row = {"featureName": name, "done": done, "project": args.project}
    if out.is_json or out.format == "csv":
        out.one({**row, "tags": [t.model_dump() for t in now] if out.is_json else _said(now)})
    else:
        out.note(f"done: {done} featureName={name} project={args.project}")
        out.note(f"  tags now: {_said(now)}")
