"""`flagtui login` stores a token for a profile; `flagtui profiles` lists them, never tokens."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from flagtui.api import FlagtuiError
from flagtui.api.models import ServerInfo
from flagtui.config import (
    ENV_PROFILE,
    ConfigError,
    Credential,
    Profile,
    add_profile,
    load_config,
    make_client,
    resolve_token,
    select_profile,
    store_token,
    token_source,
)


def _fail(message: str, code: int = 2) -> int:
    print(f"flagtui: {message}", file=sys.stderr)
    return code


def _read_token() -> str:
    if sys.stdin.isatty():
        return getpass.getpass("API token (input hidden): ").strip()
    return sys.stdin.readline().strip()


async def _check(profile: Profile, token: str) -> ServerInfo:
    async with make_client(profile, Credential(token, "login")) as client:
        info = await client.connect()
        await client.list_feature_types()  # needs a valid token on every edition
        return info


def run_login(args: argparse.Namespace) -> int:
    try:
        config = load_config()
        name = args.login_profile or args.profile or config.default_profile or "default"
        if name == ENV_PROFILE:
            return _fail("the profile name 'env' is reserved for UNLEASH_URL")
        existing = config.profiles.get(name)
        if existing and args.url and existing.url.rstrip("/") != args.url.rstrip("/"):
            where = f"{existing.url}; edit {config.path} to change it"
            return _fail(f"profile {name!r} already points at {where}")
        url = args.url or (existing.url if existing else None)
        if not url:
            return _fail(f"profile {name!r} is new: give its server with --url URL")
        profile = existing or Profile(name=name, url=url)
        token = _read_token()
        if not token:
            return _fail("no token given")
        try:
            info = asyncio.run(_check(profile, token))
        except FlagtuiError as exc:
            return _fail(f"the token was not stored: {exc}", 1)
        path = store_token(name, token)
        if existing is None:
            add_profile(config, profile)
    except ConfigError as exc:
        return _fail(str(exc))
    print(f"Token for profile {name!r} stored in {path} (server: {info.label} at {url}).")
    return 0


def run_profiles(args: argparse.Namespace) -> int:
    try:
        config = load_config()
    except ConfigError as exc:
        return _fail(str(exc), 1)
    if not config.profiles:
        print(f"No profiles in {config.path}. Run `flagtui login --profile NAME --url URL`.")
        return 1 if args.check else 0
    problems = 0
    print(f"{'':2}{'PROFILE':16} {'URL':40} {'ACCESS':10} TOKEN")
    for name, profile in sorted(config.profiles.items()):
        mark = "*" if name == config.default_profile else " "
        access = "read-only" if profile.read_only else "read-write"
        if profile.production:
            access += " PROD"
        try:
            source = token_source(profile)
            if args.check:
                resolve_token(profile)
        except ConfigError as exc:
            source = f"problem: {exc}"
            problems += 1
        print(f"{mark:2}{name:16} {profile.url:40} {access:10} {source}")
    if args.check:
        print(f"{config.path}: " + ("OK" if not problems else f"{problems} problem(s)"))
    try:
        if args.profile:
            select_profile(config, args.profile)
    except ConfigError as exc:
        return _fail(str(exc), 1)
    return 1 if problems else 0
