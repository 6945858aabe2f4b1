"""`flagtui feature strategy disable|enable`: one strategy (named by its id or the start of
it), nothing else resent. Disabling the last enabled one switches the environment off, as
Unleash does; that is said."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api import NothingToSend
from flagtui.cli.output import Printer
from flagtui.cli.rollout_output import segment_names
from flagtui.cli.rollout_preview import preview_options, previewed, sent
from flagtui.cli.rollout_target import (
    confirm_in_production,
    done_with,
    find_strategy,
    nothing_sent,
    target_options,
)

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def disable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "disable")


def enable_options(p: argparse.ArgumentParser) -> None:
    _options(p, "enable")


def _options(p: argparse.ArgumentParser, verb: str) -> None:
    target_options(p, strategy_switch, f"{verb} strategy")
    p.add_argument("strategy", metavar="STRATEGY", help="its id, or the start of it")
    p.set_defaults(disabling=verb == "disable")
    preview_options(p)


async def strategy_switch(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.preview.share import with_strategy_disabled

    strategies = await client.rollouts.list(args.project, args.name, args.environment)
    target = find_strategy(strategies, args.strategy, f"{args.name}/{args.environment}")
    verb, key = "disable" if args.disabling else "enable", str(target.id)
    share = await previewed(
        client,
        out,
        args,
        lambda f: with_strategy_disabled(f, args.environment, key, args.disabling),
    )
    what = f"{verb} strategy {args.strategy} of {args.name}"
    await confirm_in_production(client, args, what)
    try:
        stored = await sent(
            client.rollouts.set_disabled(
                args.project, args.name, args.environment, key, args.disabling
            ),
            share,
        )
    except NothingToSend as same:
        nothing_sent(out, same, args, target, share)
        return
    names = await segment_names(client, [stored])
    done_with(out, "feature-strategy-update", args, stored, names, share)
    others = [s for s in strategies if s.id != target.id and not s.disabled]
    if args.disabling and not others:
        out.note(f"no enabled strategy is left: Unleash switches {args.environment} off")
