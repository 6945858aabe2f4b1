"""`flagtui feature strategy order`: the strategies named (ids, or the start of them) are
evaluated first, in the order given; the others after them, as they were."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.api import NothingToSend
from flagtui.cli.output import Printer
from flagtui.cli.rollout_target import (
    SHORT_ID,
    confirm_in_production,
    done_with,
    find_strategy,
    nothing_sent,
    target_options,
)
from flagtui.rollout_words import strategy_lines

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    target_options(p, strategy_order, "reorder strategies")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY", help="first, in this order")
    p.add_argument(
        "--anyway",
        action="store_true",
        help="reordered by someone else since they were read: put these first in the order as"
        " it is now (else nothing is sent, exit 2)",
    )


async def strategy_order(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic
    from flagtui.api.edits import EditConflict

    current = await client.rollouts.list(args.project, args.name, args.environment)
    where = f"{args.name}/{args.environment}"
    first = [str(find_strategy(current, key, where).id) for key in args.strategies]
    await confirm_in_production(client, args, f"reorder the strategies of {args.name}")
    shown = [str(s.id) for s in current]
    try:
        ordered = await client.rollouts.set_order(
            args.project, args.name, args.environment, first, shown=shown, anyway=args.anyway
        )
    except NothingToSend as same:
        nothing_sent(out, same, args)
        return
    except EditConflict as moved:
        for line in moved.lines():
            out.note(f"changed since read: {line}")
        out.note("nothing sent: --anyway puts these first in the order as it is now")
        raise
    done_with(out, "strategy-order-changed", args)
    for position, s in enumerate(ordered, start=1):
        out.note(f"  {position}. {(s.id or '')[:SHORT_ID]} {strategy_lines(s, {})[0]}")
