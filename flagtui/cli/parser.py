"""The command line: `flagtui` opens the TUI; nouns then verbs for everything else.

Scriptable commands share `-P/--profile` and `-o/--output`; each leaf sets `run` (its coroutine),
`columns` (the table's), and for writes `write_action` (refused on read-only profiles before any
request). argparse is enough here: it ships with Python (no new dependency for a tool people
install on servers), nested subcommands and `--help` come free, and the exit code 2 of a usage
error is already the contract's.
"""

from __future__ import annotations

import argparse
import re
from datetime import timedelta
from typing import Any

from flagtui import __version__
from flagtui.cli import collect, failures, reads, writes
from flagtui.cli.exits import EXIT_CODES_HELP
from flagtui.cli.output import FORMATS

_DURATION = re.compile(r"^(\d+)([smhdw])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
MAX_SINCE_DAYS = 36500  # 100 years back: before any Unleash, and far from datetime's own limits


def duration(text: str) -> timedelta:
    """`90s`, `15m`, `2h`, `7d`, `1w`; `0s` is now. At most MAX_SINCE_DAYS: a larger value is a
    usage error (argparse names the option), never an overflow of the date arithmetic."""
    match = _DURATION.match(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: a duration such as 90s, 15m, 2h, 7d or 1w")
    # Compared as digits first: int() refuses a string of thousands of digits.
    digits = match[1].lstrip("0") or "0"
    seconds = int(digits) * _UNIT_SECONDS[match[2]] if len(digits) <= 12 else None
    if seconds is None or seconds > MAX_SINCE_DAYS * 86400:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_SINCE_DAYS}d (100 years)")
    return timedelta(seconds=seconds)


def _common() -> argparse.ArgumentParser:
    """-P and -o on every scriptable command (SUPPRESS: a -P given before the noun stays)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-P", "--profile", default=argparse.SUPPRESS, help="profile (default: default_profile)"
    )
    common.add_argument(
        "-o",
        "--output",
        choices=FORMATS,
        default=None,
        help="table on a terminal, json when piped (default); jsonl: one record per line",
    )
    return common


class _Builder:
    def __init__(self, sub: Any) -> None:
        self.sub = sub
        self.common = _common()

    def noun(self, name: str, help: str) -> Any:
        parser = self.sub.add_parser(name, help=help, description=help)
        return parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    def leaf(
        self,
        verbs: Any,
        name: str,
        run: Any,
        help: str,
        *,
        columns: tuple[str, ...] = (),
        write: str | None = None,
        destructive: bool = False,
    ) -> argparse.ArgumentParser:
        parser = verbs.add_parser(
            name,
            help=help,
            description=help,
            parents=[self.common],
            epilog=EXIT_CODES_HELP,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.set_defaults(run=run, columns=columns, write_action=write)
        if write:
            parser.add_argument(
                "--dry-run", action="store_true", help="print the request; send nothing"
            )
        if destructive:
            parser.add_argument(
                "--yes", action="store_true", help="do not ask (required when not on a terminal)"
            )
        return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flagtui",
        description="Administer Unleash feature flags: the TUI, or scriptable commands.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flagtui {__version__}")
    parser.add_argument("-P", "--profile", help="profile to open (default: default_profile)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _tool_commands(sub)
    build = _Builder(sub)
    _feature_commands(build)
    _other_reads(build)
    _other_writes(build)
    return parser


def _tool_commands(sub: Any) -> None:
    # The sandbox parses its own options (sandbox/options.py, imported only when it runs): they
    # reach it as the arguments this parser does not know.
    sub.add_parser("sandbox", help="serve the embedded sandbox server", add_help=False)

    demo = sub.add_parser("demo", help="start the sandbox with demo data and open the TUI on it")
    demo.add_argument("--reset", action="store_true", help="start from fresh demo data")
    demo.add_argument(
        "--size",
        default="demo",
        choices=["demo", "hostile", "large"],
        help="demo: realistic data; hostile: the same plus a project whose text attacks"
        " terminals (markup, escape sequences); large: 50,000 flags",
    )

    login = sub.add_parser("login", help="store a token for a profile (read from a prompt)")
    login.add_argument("--profile", dest="login_profile", default=None)
    login.add_argument("--url", default=None)

    profiles = sub.add_parser("profiles", help="list profiles (never shows tokens)")
    profiles.add_argument(
        "--check",
        action="store_true",
        help="also ask each profile's server whether its token is accepted (and check ca_bundle)",
    )


FEATURE_COLUMNS = ("project", "name", "type", "stale", "createdAt")


def _feature_commands(build: _Builder) -> None:
    verbs = build.noun("feature", "feature flags")
    p = build.leaf(
        verbs, "list", reads.feature_list, "list or search flags", columns=FEATURE_COLUMNS
    )
    p.add_argument("--project")
    p.add_argument("--search", help="name or description contains")
    p.add_argument("--type", action="append", help="flag type (repeatable)")
    p.add_argument("--state", action="append", help="stale or active (repeatable)")
    p.add_argument("--archived", action="store_true", help="archived flags (needs --project)")
    p = build.leaf(verbs, "show", reads.feature_show, "one flag, in full")
    p.add_argument("project")
    p.add_argument("name")
    p = build.leaf(
        verbs,
        "patch",
        writes.feature_patch,
        "change a flag with a JSON patch",
        write="patch feature",
    )
    p.add_argument("project")
    p.add_argument("name")
    p.add_argument(
        "--set",
        action="append",
        metavar="FIELD=VALUE",
        help="replace a field (VALUE is JSON when it parses); repeatable",
    )
    p.add_argument("--json-patch", metavar="FILE|-", help="RFC 6902 operations from a file")
    p = build.leaf(
        verbs,
        "uncomplete",
        writes.feature_uncomplete,
        "mark a completed flag as not completed",
        write="mark uncompleted",
    )
    p.add_argument("project")
    p.add_argument("name")
    p = build.leaf(
        verbs,
        "archive",
        writes.feature_archive,
        "archive a flag as the web UI does (feature-archived event, lifecycle archived);"
        " confirm, or --yes",
        write="archive feature",
        destructive=True,
    )
    p.add_argument("project")
    p.add_argument("name")
    p = build.leaf(
        verbs,
        "revive",
        writes.feature_revive,
        "bring an archived flag back; as Unleash does, every environment comes back off",
        write="revive feature",
    )
    p.add_argument("project")
    p.add_argument("name")
    for verb in ("enable", "disable"):
        p = build.leaf(
            verbs,
            verb,
            writes.feature_switch,
            f"switch a flag {'on' if verb == 'enable' else 'off'} in one environment"
            " (production: confirm, or --yes)",
            write=f"{verb} feature",
            destructive=True,
        )
        p.add_argument("project")
        p.add_argument("name")
        p.add_argument("environment", metavar="ENV")


def _other_reads(build: _Builder) -> None:
    verbs = build.noun("event", "the event log")
    p = build.leaf(
        verbs,
        "search",
        reads.event_search,
        "search events, newest first",
        columns=(
            "id",
            "createdAt",
            "type",
            "createdBy",
            "project",
            "featureName",
            "label",
            "summary",
        ),
    )
    for option in ("--type", "--project", "--feature", "--query"):
        p.add_argument(option)
    p.add_argument("--limit", type=int, default=100, help="1 to 100 (default 100)")
    p.add_argument("--since", type=duration, help="only events this recent (90s, 15m, 2h, 7d)")

    verbs = build.noun("integration", "integrations (Unleash addons)")
    p = build.leaf(
        verbs,
        "list",
        reads.integration_list,
        "integration configurations",
        columns=("id", "provider", "enabled", "description", "events"),
    )
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)
    p = build.leaf(
        verbs,
        "deliveries",
        reads.integration_deliveries,
        "an integration's recent deliveries, newest first",
        columns=DELIVERY_COLUMNS,
    )
    p.add_argument("id", type=int)
    p.add_argument("--failed", action="store_true", help="only deliveries that did not succeed")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)
    for verb in ("enable", "disable"):
        p = build.leaf(
            verbs,
            verb,
            writes.integration_switch,
            f"{verb} an integration",
            write=f"{verb} integration",
            destructive=verb == "disable",
            columns=("id", "provider", "enabled"),
        )
        p.add_argument("id", type=int)
        p.add_argument("--reveal", action="store_true", help=REVEAL_HELP)
        if verb == "enable":  # a script may pass --yes to both switches alike
            p.add_argument("--yes", action="store_true", help="accepted; enabling never asks")

    p = build.leaf(build.sub, "failures", failures.failures, FAILURES_HELP, columns=FAILURE_COLUMNS)
    p.set_defaults(verb=None, connect_first=False)  # an archive answers when the server is down
    p.add_argument("--since", type=duration, help="only failures this recent (15m, 2h, 1d)")
    p.add_argument("--integration", type=int, metavar="ID")
    p.add_argument(
        "--follow",
        action="store_true",
        help="keep reading; failures from now (or --since) as JSONL",
    )
    p.add_argument(
        "--interval", type=float, default=30.0, help="--follow: seconds between reads (1 at least)"
    )
    p.add_argument(
        "--fail-on-failures",
        action="store_true",
        help="exit 1 when any is found in the window, 8 when the window could not be checked",
    )
    p.add_argument("--limit", type=int, default=500, help="at most this many, newest (500)")
    p.add_argument("--reveal", action="store_true", help=REVEAL_HELP + " (an archive holds none)")

    p = build.leaf(build.sub, "collect", collect.collect, COLLECT_HELP)
    p.set_defaults(verb=None, connect_first=False)
    p.add_argument("--interval", type=float, default=30.0, help="seconds between polls (30)")
    p.add_argument("--once", action="store_true", help="poll once, print what was stored, exit")

    verbs = build.noun("user", "users")
    p = build.leaf(
        verbs,
        "search",
        reads.user_search,
        "find users by name, username or email",
        columns=("id", "name", "username", "email"),
    )
    p.add_argument("query")


DELIVERY_COLUMNS = ("integrationId", "id", "createdAt", "state", "event.type", "stateDetails")
REVEAL_HELP = "show URLs, bodies and secret parameters in full (masked by default)"
FAILURE_COLUMNS = (*DELIVERY_COLUMNS[:-1], "source", "stateDetails")  # source: archive or live
FAILURES_HELP = (
    "deliveries that failed, across integrations, newest first: from the delivery archive when "
    "there is one (`flagtui collect`), else from the server, which keeps only recent deliveries "
    "(real Unleash: about 100 of the last 2 hours, plus the latest per integration)"
)
COLLECT_HELP = (
    "keep every integration delivery in an archive (SQLite in the user data dir, one per "
    "server, or the profile's archive_url), polling until stopped (SIGTERM/SIGINT: exit 0)"
)


def _other_writes(build: _Builder) -> None:
    verbs = build.noun("type", "feature types")
    build.leaf(
        verbs,
        "list",
        reads.type_list,
        "feature types and their lifetimes",
        columns=("id", "name", "lifetimeDays"),
    )
    p = build.leaf(
        verbs,
        "lifetime",
        writes.type_lifetime,
        "days until flags of a type are potentially stale",
        write="update lifetime",
    )
    p.add_argument("type")
    p.add_argument("days", metavar="DAYS|never")

    verbs = build.noun("env", "a project's environments")
    p = build.leaf(
        verbs,
        "list",
        reads.env_list,
        "a project's environments",
        columns=("name", "type", "visible", "enabled", "protected"),
    )
    p.add_argument("project")
    p = build.leaf(
        verbs,
        "remove",
        writes.env_remove,
        "remove an environment from a project",
        write="remove environment",
        destructive=True,
    )
    p.add_argument("project")
    p.add_argument("environment", metavar="ENV")
    p = build.leaf(
        verbs,
        "link",
        writes.env_link,
        "link an environment to a project (its flags get it, switched off)",
        write="link environment",
    )
    p.add_argument("project")
    p.add_argument("environment", metavar="ENV")

    verbs = build.noun("access", "project access (Enterprise)")
    p = build.leaf(
        verbs,
        "grant",
        writes.access_grant,
        "give users and groups roles in a project",
        write="grant access",
    )
    p.add_argument("project")
    p.add_argument("--role", type=int, action="append", required=True, metavar="ID")
    p.add_argument("--user", type=int, action="append", metavar="ID")
    p.add_argument("--group", type=int, action="append", metavar="ID")

    verbs = build.noun("cr", "change requests (Enterprise)")
    cr_columns = ("id", "title", "environment", "state", "createdAt")
    p = build.leaf(verbs, "list", reads.cr_list, "a project's change requests", columns=cr_columns)
    p.add_argument("project")
    p = build.leaf(verbs, "show", reads.cr_show, "one change request")
    p.add_argument("project")
    p.add_argument("id", type=int)
    p = build.leaf(
        verbs,
        "delete",
        writes.cr_delete,
        "delete a change request",
        write="delete change request",
        destructive=True,
    )
    p.add_argument("project")
    p.add_argument("id", type=int)
