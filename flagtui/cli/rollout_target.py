"""What the rollout writes share: the strategy a command names (its id, or the start of it, as
`feature strategies` shows), the production question, and what they print when done."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from flagtui.api import InvalidArgument
from flagtui.cli.done import done
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import Said, previewed_json
from flagtui.cli.session import confirm, scriptable
from flagtui.rollout_words import strategy_lines
from flagtui.words import in_production

if TYPE_CHECKING:
    from flagtui.api import AdminClient, NothingToSend
    from flagtui.api.models import Strategy

SHORT_ID = 8  # characters of a strategy id `feature strategies` shows


def target_options(p: argparse.ArgumentParser, run: Any, action: str) -> None:
    """A rollout write's first options and arguments: PROJECT NAME ENV."""
    scriptable(p, run, write=action, destructive=True)
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument("environment", metavar="ENV")


def find_strategy(strategies: Sequence[Strategy], key: str, where: str) -> Strategy:
    """The one strategy whose id is `key` or starts with it."""
    exact = [s for s in strategies if s.id == key]
    found = exact or [s for s in strategies if key and (s.id or "").startswith(key)]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{(s.id or '?')[:SHORT_ID]} ({s.name})" for s in strategies) or "none"
    said = "matches several" if found else "matches none"
    raise InvalidArgument("STRATEGY", f"{key!r} {said} of the strategies in {where}: {listed}")


async def strategy_of(client: AdminClient, args: argparse.Namespace) -> Strategy:
    strategies = await client.rollouts.list(args.project, args.name, args.environment)
    return find_strategy(strategies, args.strategy, f"{args.name}/{args.environment}")


async def confirm_in_production(client: AdminClient, args: argparse.Namespace, what: str) -> None:
    """In an environment of type production: `--yes`, or the typed environment name."""
    envs = await client.environments.list(args.project)
    env = next((e for e in envs if e.name == args.environment), None)
    if env is not None and env.type == "production":
        confirm(args, f"{what} {in_production(args.environment)}", args.environment)


def done_with(
    out: Printer,
    event: str,
    args: argparse.Namespace,
    strategy: Strategy | None = None,
    names: dict[int, str] | None = None,
    share: Said | None = None,
) -> None:
    """Done: the event Unleash records (in JSON, with the `preview` shown before sending); on
    a terminal, the strategy as it now is."""
    ids = {"strategyId": strategy.id} if strategy is not None else {}
    scope = {"project": args.project, "featureName": args.name, "environment": args.environment}
    done(out, event, **scope, **ids, **previewed_json(out, share))
    if strategy is not None:
        for line in strategy_lines(strategy, names or {}):
            out.note(f"  {line}")


def nothing_sent(
    out: Printer,
    same: NothingToSend,
    args: argparse.Namespace,
    strategy: Strategy | None = None,
    share: Said | None = None,
) -> None:
    """Already as asked (read just before): nothing sent, exit 0, said."""
    if out.is_json or out.format == "csv":
        ids = {"strategyId": strategy.id} if strategy is not None else {}
        scope = {"project": args.project, "featureName": args.name, "environment": args.environment}
        out.one({"done": None, **scope, **ids, "unchanged": same.state,
                 **previewed_json(out, share)})  # fmt: skip
    else:
        out.note(f"nothing sent: {same}")
