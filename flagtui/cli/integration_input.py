"""An integration's configuration from the command line, checked against the provider's
definition the server lists (which parameters exist, which are required, which are secret)
before anything is sent; each refusal names the field. Secret parameters not given a value
are read without echo, and no output shows them: `shown_body` masks a request for --dry-run."""

from __future__ import annotations

import argparse
import getpass
import sys

TYPE_CHECKING = False  # typing's, without importing typing (3 ms of a command's start)
if TYPE_CHECKING:
    from typing import Any

    from flagtui.api.models import AddonProvider

MASK = "*****"


def refused(field: str, limit: str) -> Exception:
    """The client's error naming the field, imported when raised: loading the options must
    stay light (tests/cli/test_start_imports.py)."""
    from flagtui.api.errors import InvalidArgument

    return InvalidArgument(field, limit)


def add_options(p: argparse.ArgumentParser, *, creating: bool) -> None:
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the provider (repeat); a secret one given as KEY alone, or"
        " left out when required, is asked for without echo",
    )
    p.add_argument("--event", action="append", help="an event it sends (repeat; replaces)")
    p.add_argument("--project", action="append", help="only these projects (repeat; replaces)")
    p.add_argument("--env", action="append", help="only these environments (repeat; replaces)")
    p.add_argument("--description")
    p.add_argument("--disabled", action="store_true", help="stored switched off")
    if not creating:
        p.add_argument("--enabled", action="store_true", help="switch it on")


def provider_named(providers: list[AddonProvider], name: str) -> AddonProvider:
    found = next((p for p in providers if p.name == name), None)
    if found is None:
        offered = ", ".join(p.name for p in providers) or "none"
        raise refused("provider", f"{name!r} is not offered by the server ({offered})")
    return found


def secret_names(provider: AddonProvider) -> set[str]:
    return {spec.name for spec in provider.parameters or [] if spec.sensitive}


def changes(args: argparse.Namespace, provider: AddonProvider, *, creating: bool) -> dict[str, Any]:
    """The body's keys the options give (all of them when creating)."""
    body: dict[str, Any] = {"parameters": _parameters(args.param, provider, creating=creating)}
    if args.event is not None:
        offered = provider.events
        for event in args.event:
            if offered is not None and event not in offered:
                raise refused(f"--event {event}", f"not an event {provider.name} sends")
        body["events"] = args.event
    elif creating:
        body["events"] = []
    for option, key in (("project", "projects"), ("env", "environments")):
        value = getattr(args, option)
        if value is not None or creating:
            body[key] = value or []
    if args.description is not None or creating:
        body["description"] = args.description or ""
    if args.disabled and getattr(args, "enabled", False):
        raise refused("--enabled/--disabled", "give one of them")
    if args.disabled or creating:
        body["enabled"] = not args.disabled
    elif args.enabled:
        body["enabled"] = True
    if creating:
        body["provider"] = provider.name
    return body


def _parameters(given: list[str], provider: AddonProvider, *, creating: bool) -> dict[str, str]:
    specs = {spec.name: spec for spec in provider.parameters or []}
    values: dict[str, str] = {}
    for raw in given:
        key, has_value, value = raw.partition("=")
        spec = specs.get(key)
        if spec is None:
            takes = ", ".join(specs) or "none"
            raise refused(
                f"--param {key}", f"not a parameter of {provider.name} (it takes: {takes})"
            )
        if not has_value:
            if not spec.sensitive:
                raise refused(f"--param {key}", "needs a value: KEY=VALUE")
            value = _ask(key)
        if spec.required and not value.strip():
            raise refused(f"--param {key}", f"required by {provider.name}: not empty")
        values[key] = value
    if creating:
        for spec in specs.values():
            if spec.required and spec.name not in values:
                if not spec.sensitive:
                    raise refused(
                        f"--param {spec.name}", f"required by {provider.name}; give KEY=VALUE"
                    )
                values[spec.name] = _ask(spec.name)
                if not values[spec.name].strip():
                    raise refused(f"--param {spec.name}", "required: not empty")
    return values


def _ask(key: str) -> str:
    """A secret, without echo; off a terminal there is nobody to ask."""
    if not sys.stdin.isatty():
        raise refused(f"--param {key}", "secret: give KEY=VALUE, or run on a terminal to be asked")
    try:
        return getpass.getpass(f"{key} (not shown): ")
    except (EOFError, KeyboardInterrupt):
        raise refused(f"--param {key}", "not entered") from None


def shown_body(body: Any, secrets: set[str]) -> Any:
    """A request body as --dry-run prints it: the secret parameters masked."""
    if not isinstance(body, dict) or not isinstance(body.get("parameters"), dict):
        return body
    parameters = {k: MASK if k in secrets else v for k, v in body["parameters"].items()}
    return {**body, "parameters": parameters}
