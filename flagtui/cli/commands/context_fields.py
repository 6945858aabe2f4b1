"""`flagtui context list|show`: the server's context fields, and where one is used (the
strategies of live flags with a constraint on it, by flag and environment)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import ContextFieldUse

LIST_COLUMNS = (
    "name",
    "description",
    "legalValues",
    "stickiness",
    "usedInFeatures",
    "usedInProjects",
)


def list_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, context_list, columns=LIST_COLUMNS)


def show_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, context_show)
    p.add_argument("name")


async def context_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    fields = await client.context_fields.list()
    if out.is_json or out.format == "csv":
        out.many(fields)
        return
    rows = []
    for f in fields:
        row = f.model_dump(mode="json", by_alias=True, exclude_unset=True)
        row["legalValues"] = len(f.legal_values)
        rows.append(row)
    out.many(rows)


def used_by(uses: list[ContextFieldUse]) -> list[dict[str, Any]]:
    """The strategies using a field, as the API names them."""
    return [u.model_dump(mode="json", by_alias=True) for u in uses]


def usage_lines(name: str, uses: list[ContextFieldUse]) -> list[str]:
    """Where a field is used, one line per flag: its strategies per environment."""
    if not uses:
        return [f"{name} is used by no strategy of a live flag"]
    flags: dict[tuple[str, str], dict[str, list[str]]] = {}
    for u in uses:
        envs = flags.setdefault((u.project_id, u.feature_name), {})
        envs.setdefault(u.environment, []).append(f"{u.id} ({u.strategy_name})")
    lines = [f"{name} is used by {len(uses)} strategies of {len(flags)} flags:"]
    for (project, feature), envs in flags.items():
        per_env = "; ".join(f"{env}: {', '.join(ids)}" for env, ids in envs.items())
        lines.append(f"  {feature} (project {project}): {per_env}")
    return lines


async def context_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    field = await client.context_fields.get(args.name)
    uses = await client.context_fields.usage(args.name)
    shown = field.model_dump(mode="json", by_alias=True, exclude_unset=True)
    out.one({**shown, "usedBy": used_by(uses)})
    for line in usage_lines(field.name, uses):
        out.note(line)
