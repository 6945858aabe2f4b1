"""`flagtui feature strategy set`: change one strategy (named by its id or the start of it):
the options given replace what they name, the rest stays; checked against the server's
catalog before anything is sent (or asked). Already as asked: nothing is sent."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import Said, preview_options, previewed, sent
from flagtui.cli.rollout_target import (
    confirm_in_production,
    done_with,
    nothing_sent,
    strategy_of,
    target_options,
)
from flagtui.cli.rollout_warnings import warn_unlisted
from flagtui.cli.strategy_options import built, strategy_options

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    target_options(p, strategy_set, "update strategy")
    p.add_argument("strategy", metavar="STRATEGY", help="its id, or the start of it")
    strategy_options(p, setting=True)
    preview_options(p)


async def strategy_set(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.api import NothingToSend, rollout_rules
    from flagtui.api.edits import Edit, EditConflict
    from flagtui.api.rollout_requests import strategy_body
    from flagtui.preview import with_strategy

    def sending(edit: Edit) -> Awaitable[Said]:
        body = strategy_body(edit.checked) | {"id": edit.checked.id}
        return previewed(client, out, args, lambda f: with_strategy(f, args.environment, body))

    catalog = await client.rollouts.catalog()
    current = await strategy_of(client, args)
    rollouts, where = client.rollouts, (args.project, args.name, args.environment)
    share = None
    asked = f"change strategy {args.strategy} of {args.name}"
    try:
        edit = rollouts.plan_update(*where, built(args, current, catalog), catalog, current)
        warn_unlisted(out, rollout_rules.unlisted_fields(edit.checked, catalog))
        share = await sending(edit)
        await confirm_in_production(client, args, asked)
        try:
            stored = await sent(rollouts.send(edit, args.project, args.name), share)
        except EditConflict as moved:  # changed while asked: the options on the state now
            for line in moved.lines():
                out.note(f"changed since read: {line}")
            current = moved.now
            edit = rollouts.plan_update(*where, built(args, current, catalog), catalog, current)
            out.note("the options given are applied to the strategy as it is now")
            asked_on, share = share, await sending(edit)  # what is sent now, previewed again
            if share.json != asked_on.json:  # the question was answered on other numbers
                out.note("the preview above is not the one the question was answered on")
                await confirm_in_production(client, args, asked)
            stored = await sent(rollouts.send(edit, args.project, args.name), share)
    except NothingToSend as same:
        nothing_sent(out, same, args, current, share)
        return
    names = {s.id: s.name for s in catalog.segments}
    done_with(out, "feature-strategy-update", args, stored, names, share)
