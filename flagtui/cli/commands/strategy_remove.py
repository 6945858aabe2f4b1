"""`flagtui feature strategy remove`: remove one strategy (named by its id or the start of
it). Removing the last enabled one switches the environment off, as Unleash does; that is
said."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import preview_options, previewed, sent
from flagtui.cli.rollout_target import (
    confirm_in_production,
    done_with,
    find_strategy,
    target_options,
)

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    target_options(p, strategy_remove, "remove strategy")
    p.add_argument("strategy", metavar="STRATEGY", help="its id, or the start of it")
    preview_options(p)


async def strategy_remove(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    strategies = await client.rollouts.list(args.project, args.name, args.environment)
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview.share import without_strategy

    target = find_strategy(strategies, args.strategy, f"{args.name}/{args.environment}")
    gone = str(target.id)
    share = await previewed(
        client, out, args, lambda f: without_strategy(f, args.environment, gone)
    )
    what = f"remove strategy {args.strategy} of {args.name}"
    await confirm_in_production(client, args, what)
    await sent(client.rollouts.remove(args.project, args.name, args.environment, gone), share)
    done_with(out, "feature-strategy-remove", args, share=share)
    if not [s for s in strategies if s.id != target.id and not s.disabled]:
        out.note(f"no enabled strategy is left: Unleash switches {args.environment} off")
