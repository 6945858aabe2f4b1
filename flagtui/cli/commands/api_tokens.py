"""`flagtui token list|create|revoke`: the server's API tokens (SDK and frontend keys).

A token's secret is printed once, by the `create` that made it; everywhere else (the list,
--dry-run, errors) it is masked to its scope (`default:development.•••••`). Tokens are chosen
by name, or by `ref` (a digest of the secret, in the list) where names repeat. A secret is
never taken from the command line.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import DryRunStop, confirm, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient

COLUMNS = ("ref", "tokenName", "type", "projects", "environment", "createdAt", "seenAt",
           "orphaned", "legacy", "secret")  # fmt: skip


def list_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, token_list, columns=COLUMNS)


async def token_list(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    out.many(token.shown() for token in await client.api_tokens.list())


def create_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, token_create, write="create API token")
    p.add_argument("name", help="the token's name (tokenName)")
    p.add_argument(
        "--type", default="client", help="client (backend SDKs; also 'backend') or frontend"
    )
    p.add_argument("--env", dest="environment", required=True, help="the environment it reads")
    p.add_argument(
        "--project",
        dest="projects",
        action="append",
        metavar="PROJECT",
        help="a project it reads (again for more); default every project (*)",
    )
    p.add_argument("--expires-at", metavar="DATE", help="when it expires (ISO 8601 date or time)")


def _expiry(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--expires-at: {text!r} is not an ISO 8601 date or time") from None


async def token_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    body = client.api_tokens.body(
        args.name, args.type, args.environment, args.projects, _expiry(args.expires_at)
    )
    token = await client.api_tokens.create(body)
    shown = {"done": "api-token-created", **token.shown(), "secret": token.secret}
    if out.is_json or out.format == "csv":
        out.one({**shown, "shownOnce": True})
        return
    out.note(
        f"done: api-token-created tokenName={token.token_name} type={token.type}"
        f" environment={token.environment} projects={','.join(token.projects)} ref={token.ref}"
    )
    print(f"secret (shown this once; flagtui keeps no copy): {token.secret}")


def revoke_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, token_revoke, write="revoke API token", destructive=True)
    p.add_argument("name", metavar="NAME|REF", help="the token's name, or its ref (token list)")


async def token_revoke(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    token = await client.api_tokens.find(args.name)
    confirm(
        args,
        f"revoke API token {token.token_name} ({token.type}, {token.environment}): SDKs using"
        " it stop getting flags",
        token.token_name,
    )
    try:
        await client.api_tokens.revoke(token)
    except DryRunStop as stop:
        stop.shown["path"] = "/api/admin/api-tokens/" + token.masked_secret
        stop.shown["token"] = token.shown()
        raise
    done(out, "api-token-deleted", tokenName=token.token_name, ref=token.ref)
