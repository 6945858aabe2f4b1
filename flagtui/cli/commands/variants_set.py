"""`flagtui feature variants set`: replace a flag's variants in one environment. Unleash
deprecated environment variants for strategy variants (`feature strategy set --variant`):
only a flag that has some already can change them (exit 5 otherwise)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flagtui.cli import rollout_input
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.rollout_preview import preview_options, previewed, sent
from flagtui.cli.rollout_target import confirm_in_production, done_with, target_options
from flagtui.cli.rollout_warnings import warn_unlisted
from flagtui.rollout_words import variants_text

if TYPE_CHECKING:
    from flagtui.api import AdminClient


def options(p: argparse.ArgumentParser) -> None:
    target_options(p, variants_set, "set variants")
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME[=WEIGHT]",
        help=rollout_input.VARIANT_HELP,
    )
    p.add_argument("--payload", action="append", metavar="SPEC", help=rollout_input.PAYLOAD_HELP)
    p.add_argument("--stickiness", help="default, random or a context field (default: default)")
    p.add_argument("--clear", action="store_true", help="remove every variant")
    preview_options(p)


async def variants_set(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    # Here, not at the top: it loads pydantic and the SDK engine
    from flagtui.api import variant_rules
    from flagtui.api.rollout_requests import variants_body
    from flagtui.preview import with_variants

    if bool(args.variant) == args.clear:
        raise UsageError("give --variant NAME[=WEIGHT] (repeatable), or --clear")
    given = rollout_input.variants(
        args.variant or [], args.payload or [], stickiness=args.stickiness
    )
    catalog = await client.rollouts.catalog()
    checked = variant_rules.variants(given, catalog, environment=True)  # refused before asking
    warn_unlisted(out, variant_rules.unlisted_fields(checked, catalog))
    body = variants_body(given)
    share = await previewed(client, out, args, lambda f: with_variants(f, args.environment, body))
    what = f"replace the variants of {args.name}"
    await confirm_in_production(client, args, what)
    stored = await sent(
        client.rollouts.set_variants(
            args.project, args.name, args.environment, given, catalog=catalog
        ),
        share,
    )
    done_with(out, "feature-environment-variants-updated", args, share=share)
    out.note(f"  variants {variants_text(stored) or 'none'}")
