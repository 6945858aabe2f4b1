"""`flagtui feature strategies`: a flag's strategies per environment, in the order the SDKs
evaluate them: JSON gives each as the API says it (with its environment, position and its
segments' names), a table says it in words."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.rollout_output import COLUMNS, segment_names, strategy_rows
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, feature_strategies, columns=COLUMNS)
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument("--env", metavar="ENV", help="one environment (default: every one)")


async def feature_strategies(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads httpx and pydantic
    from flagtui.api.rollouts import in_order

    if args.env:
        strategies = await client.rollouts.list(args.project, args.name, args.env)
        per_environment = {args.env: strategies}
    else:  # one read: the flag's detail holds every environment's strategies
        feature = await client.features.get(args.project, args.name)
        per_environment = {e.name: in_order(e.strategies or []) for e in feature.environments or []}
    every = [s for strategies in per_environment.values() for s in strategies]
    names = await segment_names(client, every)
    out.many(strategy_rows(per_environment, names, as_json=out.is_json))
