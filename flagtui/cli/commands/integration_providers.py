"""`flagtui integration providers`: the kinds of integration the server offers (webhook, Slack,
Teams, Datadog...) and the parameters each takes: required ones marked `*`, secret ones
`(secret)`, which Unleash masks once stored."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from flagtui.cli.output import Printer
from flagtui.cli.session import scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import AddonProvider


def options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_providers, columns=("name", "displayName", "parameters"))


async def integration_providers(
    client: AdminClient, out: Printer, args: argparse.Namespace
) -> None:
    providers = (await client.integrations.list()).providers
    if out.is_json:
        out.many(providers)
    else:
        out.whole = ("parameters",)  # the list is the answer: never cut
        out.many(_row(provider) for provider in providers)


def _row(provider: AddonProvider) -> dict[str, Any]:
    said = []
    for spec in provider.parameters or []:
        mark = "*" if spec.required else ""
        secret = " (secret)" if spec.sensitive else ""
        said.append(f"{spec.name}{mark}{secret}")
    return {"name": provider.name, "displayName": provider.display_name,
            "parameters": ", ".join(said)}  # fmt: skip
