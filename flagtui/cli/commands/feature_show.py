"""`flagtui feature show`: one flag, in full. JSON is the API's record; a table adds its rollout
per environment in words (strategies in order, constraints, segments by name, variants,
disabled ones marked), reading each environment's variants when the record leaves them out
(real Unleash's detail does)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api import FlagtuiError
from flagtui.cli.output import Printer
from flagtui.cli.rollout_output import rollout_lines, segment_names
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_show)
    p.add_argument("project")
    p.add_argument("name")


async def feature_show(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads httpx and pydantic
    from flagtui.api.rollouts import in_order

    feature = await client.features.get(args.project, args.name)
    out.one(feature)
    if out.is_json or out.format == "csv" or feature.environments is None:
        return
    strategies = [s for e in feature.environments for s in e.strategies or []]
    names = await segment_names(client, strategies)
    for env in feature.environments:
        variants, failed = env.variants, None
        if variants is None:
            try:
                variants = await client.rollouts.variants(args.project, args.name, env.name)
            except FlagtuiError as exc:
                failed = f"  environment variants not read: {exc}"
        out.note("")
        ordered = in_order(env.strategies or [])
        for line in rollout_lines(env.name, env.enabled, ordered, variants, names):
            out.note(line)
        if failed:
            out.note(failed)
