"""`flagtui user create` and `flagtui user role`: add a user, change a user's root role.

A password is never taken from the command line: `--ask-password` asks for it without echo on
a terminal, `--password-stdin` reads its first line; without either the user gets none (and
signs in by the invite link an admin passes on: flagtui shows it masked, its token is a
secret). --dry-run shows the password masked.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import TYPE_CHECKING

from flagtui.cli.done import done
from flagtui.cli.exits import UsageError
from flagtui.cli.output import Printer
from flagtui.cli.session import DryRunStop, scriptable

if TYPE_CHECKING:
    from flagtui.api import AdminClient
    from flagtui.api.models import User

MASK = "•••••"
SHOWN = ("id", "name", "username", "email", "rootRole", "createdAt")


def create_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, user_create, write="create user")
    p.add_argument("--name", help="the person's name")
    p.add_argument("--email", help="their e-mail (an e-mail or a username is needed)")
    p.add_argument("--username", help="their username")
    p.add_argument("--role", required=True, help="root role: its name (Viewer) or id")
    secret = p.add_mutually_exclusive_group()
    secret.add_argument("--ask-password", action="store_true", help="ask it, without echo")
    secret.add_argument("--password-stdin", action="store_true", help="read it from stdin")


def _password(args: argparse.Namespace) -> str | None:
    if args.password_stdin:
        typed = sys.stdin.readline().rstrip("\n")
        if not typed:
            raise UsageError("--password-stdin: stdin held no password")
        return typed
    if args.ask_password:
        if not sys.stdin.isatty():
            raise UsageError("--ask-password needs a terminal; use --password-stdin")
        typed = getpass.getpass("Password for the new user (input hidden): ")
        if typed != getpass.getpass("Again: "):
            raise UsageError("--ask-password: the two passwords differ; nothing was sent")
        return typed or None
    return None


def _shown(user: User, roles: dict[int, str]) -> dict[str, object]:
    record = user.model_dump(mode="json", by_alias=True, exclude_unset=True)
    shown = {k: record[k] for k in SHOWN if k in record}
    if user.root_role is not None:
        shown["rootRoleName"] = roles.get(user.root_role, "")
    if user.invite_link:
        from flagtui.masking import mask_url

        link = user.invite_link
        shown["inviteLink"] = mask_url(link) if "://" in link else MASK
    return shown


async def user_create(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.users import pick_role

    password = _password(args)
    users = await client.users.list()
    role = pick_role(users.root_roles, args.role)
    body = client.users.create_body(
        name=args.name, email=args.email, username=args.username, root_role=role.id,
        password=password,
    )  # fmt: skip
    try:
        user = await client.users.create(body)
    except DryRunStop as stop:
        stop.shown["body"] = {**body, "password": MASK} if password else body
        raise
    roles = {r.id: r.name for r in users.root_roles}
    done(out, "user-created", **_shown(user, roles))


def role_options(p: argparse.ArgumentParser) -> None:
    scriptable(p, user_role, write="change root role")
    p.add_argument("user", metavar="USER", help="the user's id, username or e-mail")
    p.add_argument("role", metavar="ROLE", help="root role: its name (Editor) or id")


async def user_role(client: AdminClient, out: Printer, args: argparse.Namespace) -> None:
    from flagtui.api.users import pick_role, pick_user

    users = await client.users.list()
    user = pick_user(users.users, args.user)
    role = pick_role(users.root_roles, args.role)
    roles = {r.id: r.name for r in users.root_roles}
    if user.root_role == role.id:
        out.note(f"nothing sent: {user.label} already has root role {role.name}")
        if out.is_json or out.format == "csv":
            out.one({"done": None, "unchanged": True, **_shown(user, roles)})
        return
    changed = await client.users.set_root_role(user.id, role.id)
    before = roles.get(user.root_role, str(user.root_role)) if user.root_role else None
    done(out, "user-updated", **_shown(changed, roles), before=before)
