"""An integration's configuration from the command line, checked against the provider's
definition the server lists (which parameters exist, which are required, which are secret)
before anything is sent; each refusal names the field. A value can stay off the command line
(where every local user sees it in `ps`, and the shell's history keeps it): from stdin, a file
only its owner can read, or an environment variable; a secret one not given is read without
echo. No output shows a secret, nor any value given that way: `shown_body` masks a request
for --dry-run."""

from __future__ import annotations

import argparse
import getpass
import os
import stat
import sys
from typing import TYPE_CHECKING, Any

from flagtui.api.errors import InvalidArgument

if TYPE_CHECKING:
    from flagtui.api.models import AddonProvider

MAX_FILE_BYTES = 1024 * 1024  # a parameter's file: a URL, a key, a body template
ON_COMMAND_LINE = (
    "is a secret given on the command line, where other local users can read it (ps,"
    " /proc) and the shell's history keeps it"
)


def refused(field: str, limit: str) -> Exception:
    """The client's error naming the field, imported when raised: loading the options must
    stay light (tests/cli/test_start_imports.py)."""
    return InvalidArgument(field, limit)


def add_options(p: argparse.ArgumentParser, *, creating: bool) -> None:
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the provider (repeat); a secret one given as KEY alone, or"
        " left out when required, is asked for without echo (a secret's value here is"
        " visible to other local users: see the three options below)",
    )
    p.add_argument(
        "--param-stdin",
        metavar="KEY",
        help="a parameter's value read from stdin (all of it, without its last newline)",
    )
    p.add_argument(
        "--param-file",
        action="append",
        default=[],
        metavar="KEY=PATH",
        help="a parameter's value read from a file only you can read (chmod 600; without"
        " its last newline; repeat)",
    )
    p.add_argument(
        "--param-env",
        action="append",
        default=[],
        metavar="KEY=VARNAME",
        help="a parameter's value from the environment variable VARNAME (repeat)",
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


def masked_names(args: argparse.Namespace, provider: AddonProvider) -> set[str]:
    """The parameters no output shows: the provider's secrets, and every one given from
    stdin, a file or the environment (whoever kept it off the command line meant it so)."""
    return secret_names(provider) | {key for key, _, option in _given(args) if option != "--param"}


def secrets_on_command_line(args: argparse.Namespace, provider: AddonProvider) -> list[str]:
    """The secret parameters given a value on the command line itself: each is a warning."""
    secret = secret_names(provider)
    return [
        k for k, v, option in _given(args) if option == "--param" and v is not None and k in secret
    ]


def warning(key: str) -> str:
    return (
        f"--param {key} {ON_COMMAND_LINE}; give it with --param-stdin {key},"
        f" --param-file {key}=PATH or --param-env {key}=VARNAME"
        + (f", or --param {key} alone to be asked" if sys.stdin.isatty() else "")
    )


def changes(args: argparse.Namespace, provider: AddonProvider, *, creating: bool) -> dict[str, Any]:
    """The body's keys the options give (all of them when creating)."""
    body: dict[str, Any] = {"parameters": _parameters(args, provider, creating=creating)}
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


def _parameters(
    args: argparse.Namespace, provider: AddonProvider, *, creating: bool
) -> dict[str, str]:
    specs = {spec.name: spec for spec in provider.parameters or []}
    values: dict[str, str] = {}
    for key, given, option in _given(args):
        spec = specs.get(key)
        if spec is None:
            takes = ", ".join(specs) or "none"
            raise refused(
                f"{option} {key}", f"not a parameter of {provider.name} (it takes: {takes})"
            )
        if key in values:
            raise refused(f"{option} {key}", "given twice: give each parameter once")
        if given is None:
            if not spec.sensitive:
                raise refused(f"--param {key}", "needs a value: KEY=VALUE")
            given = _ask(key)
        value = _read(key, given, option)
        if spec.required and not value.strip():
            raise refused(f"{option} {key}", f"required by {provider.name}: not empty")
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


def _given(args: argparse.Namespace) -> list[tuple[str, str | None, str]]:
    """Each parameter given: its key, what the option says (None: to be asked), the option."""
    given: list[tuple[str, str | None, str]] = []
    for option, raws in (
        ("--param", args.param),
        ("--param-file", args.param_file),
        ("--param-env", args.param_env),
    ):
        for raw in raws:
            key, has_value, value = raw.partition("=")
            if option != "--param" and not (has_value and value):
                what = "PATH" if option == "--param-file" else "VARNAME"
                raise refused(f"{option} {key}", f"give KEY={what}")
            given.append((key, value if has_value else None, option))
    if args.param_stdin is not None:
        given.append((args.param_stdin, "", "--param-stdin"))
    return given


def _read(key: str, given: str, option: str) -> str:
    """The value an option gives: itself (--param), or read from where it names."""
    if option == "--param":
        return given
    if option == "--param-env":
        value = os.environ.get(given)
        if value is None:
            raise refused(f"--param-env {key}", f"the environment variable {given} is not set")
        return value
    if option == "--param-stdin":
        if sys.stdin.isatty():
            raise refused(
                "--param-stdin", f"stdin is a terminal: give --param {key} alone to be asked"
            )
        return _last_newline_dropped(sys.stdin.read())
    return _last_newline_dropped(_private_file(key, given))


def _private_file(key: str, path: str) -> str:
    """A file's text, refused (as ssh refuses a key file) when others may read it."""
    field = f"--param-file {key}"
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise refused(field, f"{path} cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        mode = stat.S_IMODE(info.st_mode)
        if info.st_uid != os.geteuid():
            raise refused(field, f"{path} belongs to user id {info.st_uid}, not to you")
        if mode & 0o077:
            raise refused(
                field,
                f"{path} is accessible by others (mode {mode:o}); flagtui refuses to read a"
                f" secret from it. Fix it with: chmod 600 {path}",
            )
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise refused(field, f"{path} is over the {MAX_FILE_BYTES:,} bytes a parameter may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise refused(field, f"{path} is not UTF-8 text") from None


def _last_newline_dropped(text: str) -> str:
    return text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")


def _ask(key: str) -> str:
    """A secret, without echo; off a terminal there is nobody to ask."""
    if not sys.stdin.isatty():
        raise refused(f"--param {key}", "secret: give KEY=VALUE, or run on a terminal to be asked")
    try:
        return getpass.getpass(f"{key} (not shown): ")
    except (EOFError, KeyboardInterrupt):
        raise refused(f"--param {key}", "not entered") from None


def shown_body(body: Any, masked: set[str]) -> Any:
    """A request body as --dry-run prints it: its parameters masked as every output masks
    them (`masking.masked`), the ones in `masked` whole."""
    # Here, not at the top: it loads pydantic
    from flagtui.masking import masked as shown

    if not isinstance(body, dict) or not isinstance(body.get("parameters"), dict):
        return body
    parameters = {k: shown(k, v, masked) for k, v in body["parameters"].items()}
    return {**body, "parameters": parameters}
