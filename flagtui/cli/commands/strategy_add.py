"""`flagtui feature strategy add`: add a strategy to a flag in one environment, after the
others; checked against the server's catalog before anything is sent (or asked)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import preview_options, previewed, sent
from flagtui.cli.rollout_target import confirm_in_production, done_with, target_options
from flagtui.cli.rollout_warnings import warn_unlisted
from flagtui.cli.strategy_options import built, strategy_options

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    target_options(p, strategy_add, "add strategy")
    strategy_options(p, setting=False)
    preview_options(p)


async def strategy_add(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.api import rollout_rules
    from flagtui.api.models import Strategy
    from flagtui.api.rollout_requests import strategy_body
    from flagtui.preview import with_strategy

    catalog = await client.rollouts.catalog()
    kind = rollout_rules.strategy_type(args.type, catalog, adding=True)
    wanted = built(args, Strategy(name=kind.name, disabled=args.disabled or None), catalog)
    checked = rollout_rules.strategy(wanted, catalog, feature=args.name)  # refused before asking
    warn_unlisted(out, rollout_rules.unlisted_fields(checked, catalog))
    sending = strategy_body(checked)
    share = await previewed(
        client, out, args, lambda f: with_strategy(f, args.environment, sending)
    )
    what = f"add a {kind.name} strategy to {args.name}"
    await confirm_in_production(client, args, what)
    stored = await sent(
        client.rollouts.add(args.project, args.name, args.environment, wanted, catalog=catalog),
        share,
    )
    names = {s.id: s.name for s in catalog.segments}
    done_with(out, "feature-strategy-add", args, stored, names, share)
