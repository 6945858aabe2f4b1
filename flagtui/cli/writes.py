"""The nine operations' writes (and the integration switch) as commands.

Each write names its action in the parser (`write_action`), so a read-only profile is refused
before any request; destructive ones confirm first (`session.confirm`); `--dry-run` prints the
request instead of sending it (`session.DryRunTransport`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from flagtui.api import AdminClient, InvalidArgument, NothingToSend, validation
from flagtui.api.models import Feature
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import confirm, read_json_input
from flagtui.masking import masked_addon


def set_operations(assignments: list[str]) -> list[dict[str, Any]]:
    """`--set FIELD=VALUE` as replace operations; VALUE is JSON when it parses, else a string.
    A value JSON cannot carry (NaN, too deep) is refused here, naming the option's field."""
    ops = []
    for assignment in assignments:
        field, sep, raw = assignment.partition("=")
        if not sep or not field:
            raise UsageError(f"--set {assignment!r}: expected FIELD=VALUE")
        option = f"--set {field}"
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        except RecursionError:
            limit = f"nested deeper than {validation.MAX_JSON_DEPTH} levels"
            raise InvalidArgument(option, limit) from None
        validation.json_value(option, value)
        path = field if field.startswith("/") else "/" + field.replace(".", "/")
        ops.append({"op": "replace", "path": path, "value": value})
    return ops


async def feature_patch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    if bool(args.set) == bool(args.json_patch):
        raise UsageError("give either --set FIELD=VALUE (repeatable) or --json-patch FILE|-")
    ops = set_operations(args.set) if args.set else read_json_input(args.json_patch, "--json-patch")
    if not isinstance(ops, list):
        raise UsageError("--json-patch: expected a JSON array of operations")
    out.one(await client.patch_feature(args.project, args.name, ops))


async def feature_uncomplete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    try:
        await client.uncomplete_feature(args.project, args.name)
    except NothingToSend as unchanged:
        _unchanged(out, unchanged, project=args.project)
        return
    _done(out, "feature-uncompleted", project=args.project, featureName=args.name)


async def feature_archive(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Unleash's archive (DELETE), as the web UI's: feature-archived, lifecycle `archived`."""
    what = f"archive {args.name} in project {args.project} (SDKs stop receiving it)"
    confirm(args, what, args.name)
    try:
        before = await client.archive_feature(args.project, args.name)
    except NothingToSend as unchanged:
        _unchanged(out, unchanged, project=args.project)
        return
    _done(out, "feature-archived", project=args.project, featureName=args.name, **_was_on(before))


async def feature_revive(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """Unleash's revive: the flag comes back with every environment off, said in the answer."""
    try:
        before = await client.revive_feature(args.project, args.name)
    except NothingToSend as unchanged:
        _unchanged(out, unchanged, project=args.project)
        return
    done = {"project": args.project, "featureName": args.name, **_was_on(before)}
    _done(out, "feature-revived", **done, enabledIn=[])


def _was_on(feature: Feature) -> dict[str, list[str]]:
    return {"wasEnabledIn": [e.name for e in feature.environments or [] if e.enabled]}


async def feature_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    """`feature enable|disable`: in an environment of type production, confirm first."""
    enabled = args.verb == "enable"
    envs = await client.list_project_environments(args.project)
    env = next((e for e in envs if e.name == args.environment), None)
    if env is not None and env.type == "production":
        state = "on" if enabled else "off"
        what = f"switch {args.name} {state} in production environment {args.environment}"
        confirm(args, what, args.environment)
    await client.set_feature_environment_enabled(args.project, args.name, args.environment, enabled)
    event = "feature-environment-enabled" if enabled else "feature-environment-disabled"
    _done(out, event, project=args.project, featureName=args.name, environment=args.environment)


async def env_link(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await client.add_project_environment(args.project, args.environment)
    _done(out, "project-environment-added", project=args.project, environment=args.environment)


async def env_remove(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    confirm(
        args, f"remove environment {args.environment} from project {args.project}", args.environment
    )
    await client.remove_project_environment(args.project, args.environment)
    _done(out, "project-environment-removed", project=args.project, environment=args.environment)


async def access_grant(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    await client.set_project_access(
        args.project, roles=args.role, users=args.user or [], groups=args.group or []
    )
    _done(
        out,
        "project-access-added",
        project=args.project,
        roles=args.role,
        users=args.user or [],
        groups=args.group or [],
    )


def lifetime_value(raw: str) -> int | None:
    if raw == "never":
        return None
    try:
        return int(raw)
    except ValueError:
        return -1  # the client's check names the field and the range


async def type_lifetime(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.one(await client.update_feature_type_lifetime(args.type, lifetime_value(args.days)))


async def cr_delete(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    confirm(args, f"delete change request {args.id} of project {args.project}", str(args.id))
    await client.delete_change_request(args.project, args.id)
    _done(out, "change-request-deleted", project=args.project, id=args.id)


async def integration_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    enabled = args.verb == "enable"
    if not enabled:
        confirm(args, f"disable integration {args.id} (its deliveries stop)", str(args.id))
    addon = await client.set_addon_enabled(args.id, enabled)
    out.one(addon if args.reveal else masked_addon(addon))


def _unchanged(out: Printer, unchanged: NothingToSend, **what: Any) -> None:
    """Already as asked (read just before): nothing sent, exit 0, said."""
    if out.is_json or out.format == "csv":
        out.one(
            {"done": None, "featureName": unchanged.feature, "unchanged": unchanged.state, **what}
        )
    else:
        out.note(f"nothing sent: {unchanged}")


def _done(out: Printer, event: str, **what: Any) -> None:
    if out.is_json or out.format == "csv":
        out.one({"done": event, **what})
    else:
        out.note(f"done: {event} " + " ".join(f"{k}={v}" for k, v in what.items()))
