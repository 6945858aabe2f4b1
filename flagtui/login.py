"""`flagtui login` stores a token for a profile; `flagtui profiles` lists them, never tokens.

`flagtui login --user NAME` signs in as that person (password asked without echo, or the first
line of stdin) and stores a personal access token made for this profile instead of an admin
token, so that the event log names the person (`api/personal_tokens.py`); the password is sent
once and kept nowhere. A server without password sign-in or PATs says so, and nothing is stored.

Exit status: 0 done; 1 the server refused the token or could not be reached; 2 a problem with
the config, credentials or ca_bundle files or a token_command (one line naming the file and the
fix; `profiles` shows it in the profile's row); 129/130/143 SIGHUP, Ctrl-C or SIGTERM while a
token_command ran.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from flagtui.api import FlagtuiError
from flagtui.api.models import ServerInfo
from flagtui.config import (
    Config,
    ConfigError,
    Credential,
    Interrupted,
    Profile,
    add_profile,
    check_ca_bundle,
    check_profile_name,
    load_config,
    make_client,
    read_credentials,
    resolve_token,
    select_profile,
    store_token,
    token_source,
)
from flagtui.config.writing import profile_added_text
from flagtui.display import clean


def _fail(message: str, code: int = 2) -> int:
    print(f"flagtui: {clean(message)}", file=sys.stderr)
    return code


def _read_token() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("API token (input hidden): ").strip()
    return sys.stdin.readline().strip()


def _personal_token(profile: Profile, user: str, days: int) -> str:
    """A new PAT for `user` on the profile's server (raises FlagtuiError, said by the caller)."""
    import socket
    from datetime import UTC, datetime, timedelta

    from flagtui.api.personal_tokens import create_pat

    if not 1 <= days <= 3650:
        raise ConfigError(f"--pat-days: {days} is not between 1 and 3650")
    if sys.stdin.isatty():
        password = getpass.getpass(f"Password of {user} (input hidden): ")
    else:
        password = sys.stdin.readline().rstrip("\n")
    if not password:
        raise ConfigError("no password given; nothing was sent")
    now = datetime.now(UTC)
    description = f"flagtui {profile.name} on {socket.gethostname()} {now:%Y-%m-%d %H:%M:%S}"
    return asyncio.run(
        create_pat(profile.url, user, password, description=description,
                   expires_at=now + timedelta(days=days), verify=profile.verify,
                   timeout=profile.timeout)
    )  # fmt: skip


async def _check(profile: Profile, credential: Credential) -> ServerInfo:
    """Connect, then an authenticated read: ui-config alone may answer without a valid token."""
    async with make_client(profile, credential) as client:
        info = await client.connect()
        await client.feature_types.list()  # needs a valid token on every edition
        return info


def run_login(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        name = args.login_profile or args.profile or config.default_profile or "default"
        check_profile_name(name)
        profile = _login_profile(config, name, args.url)
        # Files that would be refused are said before the token is typed.
        check_ca_bundle(profile)
        read_credentials()
        if getattr(args, "user", None):
            try:
                token = _personal_token(profile, args.user, args.pat_days)
            except FlagtuiError as exc:
                return _fail(f"no personal access token was made; nothing was stored: {exc}", 1)
        else:
            token = _read_token()
        if not token:
            return _fail("no token given")
        try:
            info = asyncio.run(_check(profile, Credential(token, "login")))
        except FlagtuiError as exc:
            return _fail(f"the token was not stored: {exc}", 1)
        path = store_token(name, token)
        if name not in config.profiles:
            add_profile(config, profile)
    except ConfigError as exc:
        return _fail(str(exc))
    except (KeyboardInterrupt, EOFError):
        return _fail("login cancelled; nothing was stored", 130)
    whose = f"Personal access token of {args.user}" if getattr(args, "user", None) else "Token"
    print(
        f"{clean(whose)} for profile {name!r} stored in {path} "
        f"(server: {clean(info.label)} at {clean(profile.url)})."
    )
    return 0


def _login_profile(config: Config, name: str, url: str | None) -> Profile:
    """The profile to log in to: the existing one, or a new one that the config file can take."""
    existing = config.profiles.get(name)
    if existing:
        if url and existing.url.rstrip("/") != url.rstrip("/"):
            raise ConfigError(
                f"profile {name!r} already points at {existing.url}; "
                f"edit {config.path} to change it"
            )
        return existing
    if not url:
        raise ConfigError(f"profile {name!r} is new: give its server with --url URL")
    profile = Profile(name=name, url=url)
    profile_added_text(config, profile)  # refused now, before a token is asked for
    return profile


# What checking one profile found.
OK, FILE_PROBLEM, SERVER_PROBLEM = "ok", "file problem", "server problem"


def run_profiles(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        if args.profile:
            select_profile(config, args.profile)
    except ConfigError as exc:
        return _fail(str(exc))
    if not config.profiles:
        print(f"No profiles in {config.path}. Run `flagtui login --profile NAME --url URL`.")
        return 1 if args.check else 0
    file_problems = 0
    print(f"{'':2}{'PROFILE':16} {'URL':40} {'ACCESS':10} TOKEN")
    for name, profile in sorted(config.profiles.items()):
        mark = "*" if name == config.default_profile else " "
        access = "read-only" if profile.read_only else "read-write"
        if profile.production:
            access += " PROD"
        try:
            source = token_source(profile)
        except ConfigError as exc:
            source = f"problem: {exc}"
            file_problems += 1
        print(clean(f"{mark:2}{name:16} {profile.url:40} {access:10} {source}"))
    if not args.check:
        return 2 if file_problems else 0
    try:
        checked = [_check_profile(config.profiles[name]) for name in sorted(config.profiles)]
    except Interrupted as exc:
        return _fail(str(exc), exc.exit_code)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    problems = len(checked) - checked.count(OK)
    print(f"{config.path}: " + ("OK" if not problems else f"{problems} problem(s)"))
    return 2 if FILE_PROBLEM in checked else 1 if problems else 0


def _check_profile(profile: Profile) -> str:
    """Ask the profile's server whether its token is accepted; one line saying what happened."""
    try:
        credential = resolve_token(profile)
        info = asyncio.run(_check(profile, credential))
    except ConfigError as exc:
        print(clean(f"check {profile.name}: problem: {exc}"))
        return FILE_PROBLEM
    except FlagtuiError as exc:
        said = f"the token ({credential.source}) was refused or the server not reached: {exc}"
        print(clean(f"check {profile.name}: problem: {said}"))
        return SERVER_PROBLEM
    print(
        clean(
            f"check {profile.name}: OK, {info.label} at {profile.url} accepted the token "
            f"({credential.source})"
        )
    )
    return OK
