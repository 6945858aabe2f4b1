"""`flagtui integration create|edit`: configure an integration from the terminal. The options
are checked against the provider's definition the server lists before anything is sent (see
`integration_input`); a secret can come from stdin, a file or the environment (one given on the
command line is warned of); secrets are masked in every output, --dry-run's request included."""

from __future__ import annotations

import argparse
import json
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from flagtui.api.errors import NotFoundError
from flagtui.cli import integration_input
from flagtui.cli.done import done
from flagtui.cli.output import Printer, warn
from flagtui.cli.session import DryRunStop, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import Addon, AddonProvider


def create_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_create, write="create integration")
    p.add_argument("provider", help="see `flagtui integration providers`")
    integration_input.add_options(p, creating=True)


def edit_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, integration_edit, write="edit integration")
    p.add_argument("id", type=int)
    integration_input.add_options(p, creating=False)
    p.add_argument(
        "--anyway",
        action="store_true",
        help="changed by someone else since it was read: apply the options given to it as it is"
        " now (else nothing is sent, exit 2)",
    )


async def integration_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    providers = (await client.integrations.list()).providers
    provider = integration_input.provider_named(providers, args.provider)
    body = _checked(out, args, provider, creating=True)
    secrets = integration_input.masked_names(args, provider)
    created = await _masked_dry_run(client.integrations.create(body), secrets)
    _said(out, "addon-config-created", created)


async def integration_edit(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    listed = await client.integrations.list()
    current = next((a for a in listed.addons if a.id == args.id), None)
    if current is None:
        raise NotFoundError(
            "PUT", f"/api/admin/addons/{args.id}", message=f"Could not find addon with id {args.id}"
        )
    provider = integration_input.provider_named(listed.providers, current.provider)
    changes = _checked(out, args, provider, creating=False)
    secrets = integration_input.masked_names(args, provider)
    updated = await _masked_dry_run(_update(client, out, args, current, changes), secrets)
    _said(out, "addon-config-updated", updated)


async def _update(
    client: AdminClient, out: Printer, args: argparse.Namespace, current: Addon, changes: Any
) -> Addon:
    """The options given on the integration as read; changed since (by whom, when, said):
    nothing sent, exit 2, unless --anyway applies them to it as it is now."""
    # Here, not at the top: it loads pydantic
    from flagtui.api.edits import EditConflict

    integrations = client.integrations
    try:
        return await integrations.send_update(integrations.plan_update(current, changes))
    except EditConflict as moved:
        for line in moved.lines():
            out.note(f"changed since read: {line}")
        if not args.anyway:
            out.note("nothing sent: --anyway applies the options given to it as it is now")
            raise
        now = moved.now
    out.note("the options given are applied to the integration as it is now")
    return await integrations.send_update(integrations.plan_update(now, changes))


def _checked(
    out: Printer, args: argparse.Namespace, provider: AddonProvider, *, creating: bool
) -> dict[str, Any]:
    """The body's changes, a warning first for each secret given on the command line."""
    for key in integration_input.secrets_on_command_line(args, provider):
        warn(out, "secret-on-command-line", integration_input.warning(key))
    return integration_input.changes(args, provider, creating=creating)


async def _masked_dry_run(write: Awaitable[Addon], secrets: set[str]) -> Addon:
    """The write; under --dry-run, the stopped request again with its secrets masked."""
    # Here, not at the top: it loads httpx
    import httpx

    try:
        return await write
    except DryRunStop as stop:
        sent = stop.request
        body = json.loads(sent.content) if sent.content else None
        shown = integration_input.shown_body(body, secrets)
        raise DryRunStop(httpx.Request(sent.method, sent.url, json=shown)) from None


def _said(out: Printer, event: str, addon: Addon) -> None:
    """What was stored, without any parameter (real Unleash answers with the secrets)."""
    events = list(addon.events or [])
    done(
        out,
        event,
        id=addon.id,
        provider=addon.provider,
        enabled=addon.enabled,
        events=events if out.is_json else ",".join(events),
    )
